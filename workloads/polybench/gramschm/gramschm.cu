// GRAMSCHM (PolyBench/GPU): classical Gram-Schmidt QR of A (ni x nj, row-major float):
// for each column k: R[k][k] = ||A[:,k]||, Q[:,k] = A[:,k] / R[k][k], and for every j > k
// R[k][j] = Q[:,k] . A[:,j], A[:,j] -= Q[:,k] * R[k][j]. Q is ni x nj, R is nj x nj.
// Written for gtlm from the algorithm's description.
//
// Launch shape as in the original: three launches per column k, 3 * nj in all:
//   kernel1 <<<1, 256>>>: only thread 0 works; it sums A[i][k]^2 serially over i (stride nj*4
//     bytes, one line per element) and stores R[k][k] = sqrt(sum). Latency-bound by design.
//   kernel2 <<<ceil(ni/256), 256>>>: thread i, Q[i][k] = A[i][k] / R[k][k] (one line per thread).
//   kernel3 <<<ceil(nj/256), 256>>>: thread j > k walks column j twice: R[k][j] is zeroed and
//     accumulated in global memory every i (the pointers may alias, so the store stays in the loop),
//     then A[i][j] -= Q[i][k] * R[k][j] (R[k][j] is reloaded after every store to A). Accesses to
//     A[i][j] are coalesced over j; Q[i][k] is a broadcast.
// Quirks kept: the serial single-thread norm, the in-memory accumulator, the idle threads j <= k.
// Deviation: the original sizes kernel2's grid by nj although its threads index rows; we use
// ceil(ni/256), which is the same for the original's square matrices and covers every row otherwise.
// (The original's input A = (i*j)/ni has a zero column 0, so R[0][0] = 0 and everything becomes
// NaN/Inf; our driver uses a well-conditioned random matrix instead.)
extern "C" __global__ void gramschm_kernel1(int ni, int nj, const float *a, float *r, int k)
{
    if (threadIdx.x == 0) {
        float nrm = 0.0f;
        for (int i = 0; i < ni; i++) nrm += a[i * nj + k] * a[i * nj + k];
        r[k * nj + k] = sqrtf(nrm);
    }
}

extern "C" __global__ void gramschm_kernel2(int ni, int nj, const float *a, const float *r, float *q, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < ni) q[i * nj + k] = a[i * nj + k] / r[k * nj + k];
}

extern "C" __global__ void gramschm_kernel3(int ni, int nj, float *a, float *r, const float *q, int k)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j > k && j < nj) {
        r[k * nj + j] = 0.0f;
        for (int i = 0; i < ni; i++) r[k * nj + j] += q[i * nj + k] * a[i * nj + j];
        for (int i = 0; i < ni; i++) a[i * nj + j] -= q[i * nj + k] * r[k * nj + j];
    }
}
