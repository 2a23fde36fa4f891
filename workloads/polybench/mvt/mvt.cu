// MVT (PolyBench/GPU): x1 = x1 + A * y1 and x2 = x2 + A^T * y2, A is n x n row-major float.
// Written for gtlm from the algorithm's description.
//
// Launch shape as in the original: two kernels, each block (32,8) and grid (ceil(n/32),1), but
// the thread index uses only the x dimension (i = blockIdx.x*32 + threadIdx.x), so the 8 warps of
// a CTA do identical work on identical addresses (8x redundant loads and stores; kept, it is what
// the papers measured). Kernel 1: thread i walks row i, A[i][j] with lanes n*4 bytes apart
// (uncoalesced, each line reused over 31 more j by the same warp and by its 7 sibling warps);
// kernel 2: thread i walks column i, A[j][i] coalesced; y1[j] / y2[j] are broadcasts. The
// accumulator is read once and stored back every j (the pointers may alias), as in the original.
//
// Deviation: the original accumulates in place (x1[i] += ...), so the 8 redundant warps race on
// x1[i]: a warp whose first load of x1[i] comes after a sibling warp's first stores starts from
// that partial sum. On hardware the 8 warps issue that load within a few cycles and the result
// comes out right; under any other warp interleaving (gtlm's functional executor runs each warp
// for 512 instructions at a time) it does not. We read the initial value from a separate input
// array (x1_in / x2_in: one load per thread, as before) and store the running sum to x1 / x2
// every j, so every interleaving gives the same answer and the traffic is unchanged.
extern "C" __global__ void mvt_kernel1(int n, const float *a, const float *x1_in, float *x1, const float *y1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = x1_in[i];
        for (int j = 0; j < n; j++) {
            s += a[i * n + j] * y1[j];
            x1[i] = s;
        }
    }
}

extern "C" __global__ void mvt_kernel2(int n, const float *a, const float *x2_in, float *x2, const float *y2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = x2_in[i];
        for (int j = 0; j < n; j++) {
            s += a[j * n + i] * y2[j];
            x2[i] = s;
        }
    }
}
