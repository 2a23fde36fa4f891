// CORR (PolyBench/GPU): correlation matrix of the m columns of an n x m float data matrix.
// Written for gtlm from the algorithm's description.
//
// PolyBench/GPU indexes from 1: data is (n+1) x (m+1) with row stride m+1 (so rows are not
// 128-B aligned), row 0 and column 0 are padding; symmat is (m+1) x (m+1). FLOAT_N = 3214212.01
// (not n) is the normaliser, EPS = 0.005 the standard-deviation floor.
// Kernels, launched in this order:
//   corr_mean_kernel   block 256, thread = column j: mean[j] = sum_i data[i][j] / FLOAT_N
//   corr_std_kernel    block 256, thread = column j: std[j] = sqrt(sum_i (data-mean)^2 / FLOAT_N),
//                      set to 1 when <= EPS
//   corr_reduce_kernel block (32,8), x -> column j, y -> row i: data = (data - mean[j]) /
//                      (sqrt(FLOAT_N) * std[j])
//   corr_corr_kernel   block 256, thread = column j1 < m: symmat[j1][j1] = 1, and for every
//                      j2 > j1: symmat[j1][j2] = sum_i data[i][j1] * data[i][j2], mirrored to
//                      symmat[j2][j1]. Triangular: thread j1 does (m - j1) * n iterations, so the
//                      load is heavily imbalanced; data[i][j1] is coalesced, data[i][j2] a broadcast.
// The host then sets symmat[m][m] = 1. Column sweeps are row-strided (coalesced across the warp).
// Quirk kept: mean[j], std[j] and symmat[j1][j2] accumulate in global memory, so nvcc stores them
// on every iteration. Bugs fixed: the original sizes its 1-D grids as floor(m/256) (and
// floor(m/32), floor(n/8)), dropping columns when m is not a multiple; we round up (identical for
// the multiples the original runs). It also copies uninitialised host buffers into symmat, mean
// and std; our driver zeroes symmat (mean and std are written before they are read).
#define FLOAT_N 3214212.01f
#define EPS 0.005f

extern "C" __global__ void corr_mean_kernel(float *mean, const float *data, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j <= m) {
        mean[j] = 0.0f;
        for (int i = 1; i <= n; i++)
            mean[j] += data[i * (m + 1) + j];
        mean[j] /= FLOAT_N;
    }
}

extern "C" __global__ void corr_std_kernel(const float *mean, float *std, const float *data, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j <= m) {
        std[j] = 0.0f;
        for (int i = 1; i <= n; i++) {
            float d = data[i * (m + 1) + j] - mean[j];
            std[j] += d * d;
        }
        std[j] /= FLOAT_N;
        std[j] = sqrtf(std[j]);
        if (std[j] <= EPS) std[j] = 1.0f;
    }
}

extern "C" __global__ void corr_reduce_kernel(const float *mean, const float *std, float *data, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i <= n && j <= m) {
        data[i * (m + 1) + j] -= mean[j];
        data[i * (m + 1) + j] /= sqrtf(FLOAT_N) * std[j];
    }
}

extern "C" __global__ void corr_corr_kernel(float *symmat, const float *data, int m, int n)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j1 < m) {
        symmat[j1 * (m + 1) + j1] = 1.0f;
        for (int j2 = j1 + 1; j2 <= m; j2++) {
            symmat[j1 * (m + 1) + j2] = 0.0f;
            for (int i = 1; i <= n; i++)
                symmat[j1 * (m + 1) + j2] += data[i * (m + 1) + j1] * data[i * (m + 1) + j2];
            symmat[j2 * (m + 1) + j1] = symmat[j1 * (m + 1) + j2];
        }
    }
}
