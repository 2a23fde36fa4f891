// Barrier, shared-memory and atomic kernels for the functional-execution tests
// (testbenches/api/test_kernels.cpp).

#define GTID() (blockIdx.x * blockDim.x + threadIdx.x)

// Tree reduction in shared memory across the 8 warps of a 256-thread block: one sum per block.
// Threads past n contribute 0.
extern "C" __global__ void sync_reduce(const int *in, int *block_sums, int n)
{
    __shared__ int s[256];
    int i = GTID();
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        block_sums[blockIdx.x] = s[0];
}

// C = A * B for n x n row-major matrices, n a multiple of 16, with 16 x 16 shared tiles. Block
// (16, 16), grid (n / 16, n / 16). Each product is accumulated in k order (nvcc contracts the
// multiply-add into fma.rn.f32, which the test reproduces with fmaf).
extern "C" __global__ void sync_matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float ta[16][16];
    __shared__ float tb[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += 16) {
        ta[ty][tx] = A[row * n + t + tx];
        tb[ty][tx] = B[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < 16; k++)
            acc += ta[ty][k] * tb[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// Inclusive scan of each block's slice (Hillis-Steele, double-buffered in dynamic shared memory
// of 2 * blockDim.x ints). Works for any block size.
extern "C" __global__ void sync_scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = GTID();
    unsigned t = threadIdx.x, m = blockDim.x;
    int src = 0;
    buf[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned off = 1; off < m; off <<= 1) {
        int v = buf[src * m + t];
        if (t >= off)
            v += buf[src * m + t - off];
        src ^= 1;
        buf[src * m + t] = v;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[src * m + t];
}

// Every thread adds into one u32, one f32 (integral values, so the sum is exact in any order),
// one f64 and one u64 counter; the returned values are not used (nvcc emits red).
extern "C" __global__ void sync_atomic_add(unsigned *cu, float *cf, double *cd, unsigned long long *cl,
                                           const unsigned *vals, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned v = vals[i];
    atomicAdd(cu, v);
    atomicAdd(cf, (float)(v & 63u));
    atomicAdd(cd, (double)v * 0.5);
    atomicAdd(cl, (unsigned long long)v << 20);
}

// Each thread takes a ticket: the old values must be a permutation of 0 .. n-1.
extern "C" __global__ void sync_ticket(unsigned *counter, unsigned *old_out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned old = atomicAdd(counter, 1u);
    old_out[i] = old;
}

// atomicMin / atomicMax (signed and unsigned) on global words, and the same on a shared word
// per block, whose result each block adds into a global total.
extern "C" __global__ void sync_atomic_minmax(int *smin, int *smax, unsigned *umin, unsigned *umax,
                                              int *block_min, const int *vals, int n)
{
    __shared__ int sh_min;
    int i = GTID();
    if (threadIdx.x == 0)
        sh_min = 0x7fffffff;
    __syncthreads();
    if (i < n) {
        int v = vals[i];
        atomicMin(smin, v);
        atomicMax(smax, v);
        atomicMin(umin, (unsigned)v);
        atomicMax(umax, (unsigned)v);
        atomicMin(&sh_min, v);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        block_min[blockIdx.x] = sh_min;
}

// atomicExch: each thread swaps its id into one word and records the value it replaced; the
// old values must chain from the initial value through every id to the final value.
extern "C" __global__ void sync_atomic_exch(unsigned *word, unsigned *old_out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    old_out[i] = atomicExch(word, (unsigned)i);
}

// atomicInc wraps to 0 past limit; atomicDec wraps to limit at 0 or above it.
extern "C" __global__ void sync_atomic_incdec(unsigned *inc_word, unsigned *dec_word, unsigned *inc_old,
                                              unsigned *dec_old, unsigned limit, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    inc_old[i] = atomicInc(inc_word, limit);
    dec_old[i] = atomicDec(dec_word, limit);
}

// atomicAnd / atomicOr / atomicXor with per-thread masks; the old values are returned.
extern "C" __global__ void sync_atomic_bitwise(unsigned *and_word, unsigned *or_word, unsigned *xor_word,
                                               unsigned *old_out, const unsigned *masks, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned m = masks[i];
    old_out[3 * i + 0] = atomicAnd(and_word, ~m);
    old_out[3 * i + 1] = atomicOr(or_word, m);
    old_out[3 * i + 2] = atomicXor(xor_word, m);
}

// A lock-free add built from atomicCAS (32 and 64 bits): each thread loops until its
// compare-and-swap succeeds and records the value it replaced.
extern "C" __global__ void sync_atomic_cas(int *word, unsigned long long *word64, int *old_out,
                                           unsigned long long *old64_out, const int *vals, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    int v = vals[i];
    int seen = *(volatile int *)word;
    for (;;) {
        int prev = atomicCAS(word, seen, seen + v);
        if (prev == seen)
            break;
        seen = prev;
    }
    old_out[i] = seen;
    unsigned long long s64 = *(volatile unsigned long long *)word64;
    for (;;) {
        unsigned long long prev = atomicCAS(word64, s64, s64 * 3ull + (unsigned long long)v);
        if (prev == s64)
            break;
        s64 = prev;
    }
    old64_out[i] = s64;
}

// Histogram of values modulo 64 in shared memory (shared atomicAdd), then merged into a global
// histogram with one global atomicAdd per bin and block. Grid-stride loop over n values.
extern "C" __global__ void sync_histogram(const unsigned *vals, unsigned *hist, int n)
{
    __shared__ unsigned bins[64];
    for (unsigned b = threadIdx.x; b < 64; b += blockDim.x)
        bins[b] = 0;
    __syncthreads();
    for (int i = GTID(); i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[vals[i] & 63u], 1u);
    __syncthreads();
    for (unsigned b = threadIdx.x; b < 64; b += blockDim.x)
        if (bins[b])
            atomicAdd(&hist[b], bins[b]);
}
