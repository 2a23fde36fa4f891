// SGEMM (Parboil): C = alpha * A * B^T + beta * C, all column-major: A is m x k (lda = m), B is
// given transposed as an n x k matrix (ldb = n), C is m x n (ldc = m).
// Written for gtlm from the algorithm's description (register tiling in the style of Volkov).
//
// Original launch (kept): block (16, 8) = 128 threads, grid (m / 128, n / 16). Each thread owns
// one row of C (m index = 128 * blockIdx.x + its flattened thread id) and 16 consecutive columns
// of it (16 accumulators in registers). Per step of 8 along k the CTA stages an 8 x 16 tile of B
// in shared memory (one coalesced 16-float row segment per warp half), then each thread streams
// 8 elements of its A row (coalesced across the CTA: consecutive threads, consecutive rows of
// the column-major A) and does 16 multiply-adds per A element from the broadcast shared tile.
// Two barriers per step. m must be a multiple of 128, n of 16, k of 8 (the original assumes it).
// Fixed: the original reads C before writing it (beta * C) from an uninitialised cudaMalloc
// buffer with beta = 0, which gives NaN if the garbage is NaN; our host zeroes C first.
#define TILE_N 16
#define TILE_H 8
#define TILE_M (TILE_N * TILE_H)

extern "C" __global__ void sgemm_nt(const float *A, int lda, const float *B, int ldb, float *C, int ldc, int k,
                                    float alpha, float beta)
{
    __shared__ float bt[TILE_H][TILE_N];
    float acc[TILE_N];
    for (int q = 0; q < TILE_N; q++) acc[q] = 0.0f;

    const int flat = threadIdx.y * blockDim.x + threadIdx.x;
    const int row = blockIdx.x * TILE_M + flat;           // row of A and C
    const int col = blockIdx.y * TILE_N + threadIdx.x;    // column of C this thread loads of B

    for (int k0 = 0; k0 < k; k0 += TILE_H) {
        bt[threadIdx.y][threadIdx.x] = B[col + (k0 + threadIdx.y) * ldb];
        __syncthreads();
        for (int s = 0; s < TILE_H; s++) {
            float a = A[row + (k0 + s) * lda];
            for (int q = 0; q < TILE_N; q++) acc[q] += a * bt[s][q];
        }
        __syncthreads();
    }
    const int base = ldc * blockIdx.y * TILE_N + row;
    for (int q = 0; q < TILE_N; q++) C[base + q * ldc] = C[base + q * ldc] * beta + alpha * acc[q];
}
