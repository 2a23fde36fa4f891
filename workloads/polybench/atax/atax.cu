// ATAX (PolyBench/GPU): y = A^T (A x) for a row-major nx x ny float matrix A.
// Written for gtlm from the algorithm's description.
//
// kernel1: tmp[i] = sum_j A[i][j] * x[j], thread = row i (lanes 16 KB apart at ny = 4096:
//          32 lines per warp-load, each line reused over the next 31 j).
// kernel2: y[j] = sum_i A[i][j] * tmp[i], thread = column j (coalesced, tmp[i] broadcast).
// Launch as the original: block (32,8), grid (ceil(nx/32), 1) and (ceil(ny/32), 1).
// Quirks kept: the thread index uses only threadIdx.x, so the 8 warps of a CTA do identical
// work (same loads, same stores); the running sum is stored to tmp[i] / y[j] on every
// iteration (as nvcc compiles the original's tmp[i] += ...: it cannot prove tmp does not
// alias A or x, so the store stays in the loop).
// Bugs fixed: the original accumulates into tmp/y copied from uninitialised host buffers, and
// its one load of tmp[i] before the loop races with the 7 sibling warps' stores. We start the
// sum from 0 in a register instead (one load per thread fewer, same per-iteration stores), so
// the redundant warps always agree.
extern "C" __global__ void atax_kernel1(const float *A, const float *x, float *tmp, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        float sum = 0.0f;
        for (int j = 0; j < ny; j++) {
            sum += A[i * ny + j] * x[j];
            tmp[i] = sum;
        }
    }
}

extern "C" __global__ void atax_kernel2(const float *A, const float *tmp, float *y, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        float sum = 0.0f;
        for (int i = 0; i < nx; i++) {
            sum += A[i * ny + j] * tmp[i];
            y[j] = sum;
        }
    }
}
