// 2MM (PolyBench/GPU): tmp = alpha * A * B, then D = beta * D + tmp * C (row-major floats;
// A ni x nk, B nk x nj, tmp ni x nj, C nj x nl, D ni x nl). Written for gtlm from the
// algorithm's description.
//
// Two GEMM-like kernels, one thread per output element: block (32,8), x -> column j,
// y -> row i; grid (ceil(nj/32), ceil(ni/8)) and (ceil(nl/32), ceil(ni/8)). A[i][k] is the same
// for a warp (broadcast), B[k][j] / C[k][j] are coalesced. Quirk kept: the accumulator lives
// in global memory (tmp[i][j] += ..., D[i][j] += ...), so nvcc stores it on every k iteration
// (it cannot prove the output does not alias the inputs). No bugs fixed.
extern "C" __global__ void mm2_kernel1(const float *A, const float *B, float *tmp, float alpha, int ni, int nj,
                                       int nk)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        tmp[i * nj + j] = 0.0f;
        for (int k = 0; k < nk; k++)
            tmp[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
    }
}

extern "C" __global__ void mm2_kernel2(const float *tmp, const float *C, float *D, float beta, int ni, int nl,
                                       int nj)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nl) {
        D[i * nl + j] *= beta;
        for (int k = 0; k < nj; k++)
            D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
    }
}
