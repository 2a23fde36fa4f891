// Kernels of the functional-speed benchmark (gtlm bench functional): a fixed mix of
// arithmetic loops, shared-memory tiling with barriers, divergent control flow and warp
// shuffles, in the proportions typical of the documents' benchmarks.

// Arithmetic: a dependent chain of multiply-adds per thread.
extern "C" __global__ void bench_fma_loop(float *out, const float *in, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i], acc = 0.0f;
    for (int k = 0; k < iters; k++) acc = fmaf(acc, 0.999f, x + (float)k);
    out[i] = acc;
}

// Memory and barriers: 16x16 tiles of C = A * B through shared memory.
extern "C" __global__ void bench_matmul(float *c, const float *a, const float *b, int n)
{
    __shared__ float ta[16][16], tb[16][16];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < n; t += 16) {
        ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
        tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < 16; k++) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = sum;
}

// Divergence: per-thread trip counts (Collatz steps of the thread's seed).
extern "C" __global__ void bench_collatz(int *steps, const int *seeds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = (unsigned)seeds[i];
    int s = 0;
    while (v > 1 && s < 1000) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        s++;
    }
    steps[i] = s;
}

// Warp-level reduction with shuffles, then one atomic per warp.
extern "C" __global__ void bench_reduce(unsigned *total, const unsigned *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(total, v);
}
