// Warp-level primitives for the functional-execution tests (testbenches/api/test_kernels.cpp):
// shuffles in every mode, votes and __syncwarp. The shuffle kernels are launched with whole
// warps only (block sizes multiple of 32) because they name all 32 lanes in their mask; the vote
// kernel uses __activemask() as its mask and is launched with partial warps.

#define GTID() (blockIdx.x * blockDim.x + threadIdx.x)
#define FULL 0xffffffffu

// Reduction with __shfl_down_sync: every lane writes its partial value (lane 0 holds the warp
// total); a second output reduces with width 8 (four independent segments per warp).
extern "C" __global__ void warp_shfl_down(const int *in, int *out, int *out_w8)
{
    int i = GTID();
    int v = in[i];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
    out[i] = v;
    int w = in[i];
    for (int off = 4; off > 0; off >>= 1)
        w += __shfl_down_sync(FULL, w, off, 8);
    out_w8[i] = w;
}

// Inclusive scan with __shfl_up_sync; a second output scans segments of width 16.
extern "C" __global__ void warp_shfl_up(const int *in, int *out, int *out_w16)
{
    int i = GTID();
    unsigned lane = threadIdx.x & 31;
    int v = in[i];
    for (int off = 1; off < 32; off <<= 1) {
        int t = __shfl_up_sync(FULL, v, off);
        if (lane >= (unsigned)off)
            v += t;
    }
    out[i] = v;
    int w = in[i];
    for (int off = 1; off < 16; off <<= 1) {
        int t = __shfl_up_sync(FULL, w, off, 16);
        if ((lane & 15) >= (unsigned)off)
            w += t;
    }
    out_w16[i] = w;
}

// Butterfly with __shfl_xor_sync: every lane ends with the warp's maximum and the warp's sum; a
// single exchange with lane ^ 5 shows the raw partner value.
extern "C" __global__ void warp_shfl_xor(const int *in, int *out)
{
    int i = GTID();
    int v = in[i], mx = v, sum = v;
    for (int m = 16; m > 0; m >>= 1) {
        mx = max(mx, __shfl_xor_sync(FULL, mx, m));
        sum += __shfl_xor_sync(FULL, sum, m);
    }
    out[3 * i + 0] = mx;
    out[3 * i + 1] = sum;
    out[3 * i + 2] = __shfl_xor_sync(FULL, v, 5);
}

// __shfl_sync: broadcast from lane k (k may be >= 32: only k % 32 counts), a per-lane source lane
// and a broadcast within segments of width 4 (source lane 1 of each segment). Doubles too (two
// 32-bit shuffles).
extern "C" __global__ void warp_shfl_idx(const int *in, const double *din, int *out, double *dout, int k)
{
    int i = GTID();
    unsigned lane = threadIdx.x & 31;
    int v = in[i];
    out[3 * i + 0] = __shfl_sync(FULL, v, k);
    out[3 * i + 1] = __shfl_sync(FULL, v, (int)((lane * 7u + 3u) & 31u));
    out[3 * i + 2] = __shfl_sync(FULL, v, 1, 4);
    dout[i] = __shfl_sync(FULL, din[i], 31 - (int)lane);
}

// Votes of a lane predicate (in[i] > 0) over the lanes present: __ballot_sync, __any_sync,
// __all_sync, and the active mask. Four words per thread. The launch covers the output exactly,
// so partial warps take part with their real lane population.
extern "C" __global__ void warp_vote(const int *in, unsigned *out)
{
    int i = GTID();
    unsigned m = __activemask();
    bool p = in[i] > 0;
    out[4 * i + 0] = __ballot_sync(m, p);
    out[4 * i + 1] = (unsigned)__any_sync(m, p);
    out[4 * i + 2] = (unsigned)__all_sync(m, p);
    out[4 * i + 3] = m;
}

// Lanes exchange values through shared memory around __syncwarp: each thread reads the values of
// two other lanes of its warp, written by them before the __syncwarp; a second round overwrites
// and reads again after another __syncwarp. Block size must be a multiple of 32, at most 256.
extern "C" __global__ void warp_syncwarp(const int *in, int *out)
{
    __shared__ int s[256];
    int i = GTID();
    unsigned t = threadIdx.x;
    unsigned base = t & ~31u, lane = t & 31u;
    s[t] = in[i];
    __syncwarp();
    int a = s[base + ((lane + 1) & 31u)];
    int b = s[base + (lane ^ 16u)];
    __syncwarp();
    s[t] = a * 2 + b;
    __syncwarp();
    out[i] = s[base + ((lane + 31u) & 31u)] - a;
}
