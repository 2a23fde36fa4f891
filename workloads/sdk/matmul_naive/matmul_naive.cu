// Naive matrix multiply (the thesis' "MM", LocalityGuru's worked example, Sec. 4.3): C = A * B
// for n x n floats, one thread per output element, every operand read from global memory
// inside the k loop, no shared-memory tiling. Written for gtlm from the algorithm's
// description.
//
// Launch: 2-D grid of ceil(n/16) x ceil(n/16) CTAs of 16 x 16 threads; index_x = column,
// index_y = row. The bounds check leaves the threads of the last grid row and column idle when
// n is not a multiple of 16 (n = 200: a 13 x 13 grid, 8 idle columns and rows), which is what
// the thesis' analysis removes from the locality calculation. Reads A[index_y*n + i] and
// B[i*n + index_x], i = 0..n-1: consecutive CTAs in a grid row share the A rows, CTAs in a grid
// column share the B columns (16 x n elements each).

extern "C" __global__ void mm_naive(const float *A, const float *B, float *C, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < n; i++) sum += A[row * n + i] * B[i * n + col];
        C[row * n + col] = sum;
    }
}
