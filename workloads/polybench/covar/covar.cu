// COVAR (PolyBench/GPU): covariance matrix of the m columns of an n x m float data matrix.
// Written for gtlm from the algorithm's description.
//
// PolyBench/GPU indexes from 1: data is (n+1) x (m+1) with row stride m+1 (rows not 128-B
// aligned), row 0 and column 0 are padding; symmat is (m+1) x (m+1). FLOAT_N = 3214212.01 (not
// n) divides the column sums.
// Kernels, launched in this order:
//   covar_mean_kernel   block 256, thread = column j: mean[j] = sum_i data[i][j] / FLOAT_N
//   covar_reduce_kernel block (32,8), x -> column j, y -> row i: data[i][j] -= mean[j]
//   covar_covar_kernel  block 256, thread = column j1: for every j2 >= j1:
//                       symmat[j1][j2] = sum_i data[i][j1] * data[i][j2], mirrored to
//                       symmat[j2][j1]. Triangular: thread j1 does (m - j1 + 1) * n iterations
//                       (heavy imbalance); data[i][j1] coalesced, data[i][j2] a broadcast.
// Quirk kept: mean[j] and symmat[j1][j2] accumulate in global memory, so nvcc stores them on
// every iteration.
// The original's reduce-grid bug: it sizes the reduce grid as (m/32, n/32) although the block is
// (32,8), so only rows 1 .. 8*(n/32) = n/4 are centred; the covariance of the other rows is taken
// around 0. This kernel is unchanged either way: the DRIVER chooses the grid. Its constant
// COVAR_REPLICATE_REDUCE_BUG (1 = replicate, the default; independent of the size preset) picks
// grid.y = ceil(n/32) (the original's work and memory traffic) or ceil(n/8) (the fix), and its
// CPU reference centres exactly the rows the kernel centres.
// Bugs fixed: the original's 1-D grids are floor(m/256) (and floor(m/32) for reduce), dropping
// columns when m is not a multiple; we round up (identical for the multiples the original
// runs). It copies an uninitialised host buffer into symmat; our driver zeroes symmat.
#define FLOAT_N 3214212.01f

extern "C" __global__ void covar_mean_kernel(float *mean, const float *data, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j <= m) {
        mean[j] = 0.0f;
        for (int i = 1; i <= n; i++)
            mean[j] += data[i * (m + 1) + j];
        mean[j] /= FLOAT_N;
    }
}

extern "C" __global__ void covar_reduce_kernel(const float *mean, float *data, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i <= n && j <= m) data[i * (m + 1) + j] -= mean[j];
}

extern "C" __global__ void covar_covar_kernel(float *symmat, const float *data, int m, int n)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j1 <= m) {
        for (int j2 = j1; j2 <= m; j2++) {
            symmat[j1 * (m + 1) + j2] = 0.0f;
            for (int i = 1; i <= n; i++)
                symmat[j1 * (m + 1) + j2] += data[i * (m + 1) + j1] * data[i * (m + 1) + j2];
            symmat[j2 * (m + 1) + j1] = symmat[j1 * (m + 1) + j2];
        }
    }
}
