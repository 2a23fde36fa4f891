// 3MM (PolyBench/GPU): E = A * B, F = C * D, G = E * F (row-major floats; A ni x nk,
// B nk x nj, C nj x nm, D nm x nl, E ni x nj, F nj x nl, G ni x nl). Written for gtlm from the
// algorithm's description.
//
// Three GEMM-like kernels launched in order, one thread per output element: block (32,8),
// x -> column j, y -> row i; grids (ceil(nj/32), ceil(ni/8)), (ceil(nl/32), ceil(nj/8)),
// (ceil(nl/32), ceil(ni/8)). The left operand's X[i][k] is a warp broadcast, the right
// operand's Y[k][j] is coalesced. Quirk kept: the accumulator lives in global memory, so nvcc
// stores it on every k iteration (possible aliasing). No bugs fixed.
// One kernel body, three names so that the launches appear as the original's three kernels.
__device__ __forceinline__ void mm3_product(const float *X, const float *Y, float *Z, int rows, int cols, int inner)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < rows && j < cols) {
        Z[i * cols + j] = 0.0f;
        for (int k = 0; k < inner; k++)
            Z[i * cols + j] += X[i * inner + k] * Y[k * cols + j];
    }
}

// E = A * B: ni x nj, inner nk.
extern "C" __global__ void mm3_kernel1(const float *A, const float *B, float *E, int ni, int nj, int nk)
{
    mm3_product(A, B, E, ni, nj, nk);
}

// F = C * D: nj x nl, inner nm.
extern "C" __global__ void mm3_kernel2(const float *C, const float *D, float *F, int nj, int nl, int nm)
{
    mm3_product(C, D, F, nj, nl, nm);
}

// G = E * F: ni x nl, inner nj.
extern "C" __global__ void mm3_kernel3(const float *E, const float *F, float *G, int ni, int nl, int nj)
{
    mm3_product(E, F, G, ni, nl, nj);
}
