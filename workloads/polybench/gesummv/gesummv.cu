// GESUMMV (PolyBench/GPU): y = alpha * A * x + beta * B * x, A and B are n x n row-major float.
// Written for gtlm from the algorithm's description.
//
// Launch shape as in the original: one kernel, one thread per row i, block (256,1), grid
// (ceil(n/256),1). Thread i walks rows i of A and B (two uncoalesced streams: lanes n*4 bytes
// apart, each line reused over the next 31 j if it stays in the cache; x[j] is a broadcast) and
// accumulates A[i][j]*x[j] into tmp[i] and B[i][j]*x[j] into y[i] in global memory every j
// (the pointers may alias, so the loads and stores stay in the loop), then y[i] = alpha*tmp[i] +
// beta*y[i].
// Quirks kept: the in-memory accumulators. Bug fixed: the original copies uninitialised host
// buffers into tmp and y before accumulating into them; our driver zeroes both on the device.
extern "C" __global__ void gesummv_kernel(int n, float alpha, float beta, const float *a, const float *b,
                                          const float *x, float *y, float *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++) {
            tmp[i] += a[i * n + j] * x[j];
            y[i] += b[i * n + j] * x[j];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}
