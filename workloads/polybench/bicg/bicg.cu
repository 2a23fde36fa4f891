// BICG (PolyBench/GPU): the BiCG sub-kernel s = A^T r and q = A p for a row-major nx x ny
// float matrix A. Written for gtlm from the algorithm's description.
//
// kernel1: thread j: s[j] = sum_i r[i] * A[i][j] (coalesced A, r[i] broadcast).
// kernel2: thread i: q[i] = sum_j A[i][j] * p[j] (row per thread: uncoalesced, reuse through
//          the cache).
// Launch as the original: block (256,1), grid (ceil(ny/256), 1) and (ceil(nx/256), 1): only 16
// CTAs at 4096, so occupancy is low. Quirk kept: the sums live in global memory (s[j] += ...),
// so nvcc stores them on every iteration. No bugs fixed.
extern "C" __global__ void bicg_kernel1(const float *A, const float *r, float *s, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        s[j] = 0.0f;
        for (int i = 0; i < nx; i++)
            s[j] += r[i] * A[i * ny + j];
    }
}

extern "C" __global__ void bicg_kernel2(const float *A, const float *p, float *q, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        q[i] = 0.0f;
        for (int j = 0; j < ny; j++)
            q[i] += A[i * ny + j] * p[j];
    }
}
