// Parser test input: atomics of every kind, warp intrinsics, bit intrinsics, fences.
// Regenerate: nvcc -ptx -arch=compute_75 -o atomics_warp.ptx atomics_warp.cu

__global__ void atomics(float *f, double *d, unsigned *u, int *s, int *lock, unsigned *inc)
{
    __shared__ unsigned hist[64];
    int i = threadIdx.x;
    hist[i & 63] = 0;
    __syncthreads();
    atomicAdd(&hist[s[i] & 63], 1u);
    __syncthreads();
    atomicAdd(f, 1.5f);
    atomicAdd(d, 2.0);
    atomicAdd(u, hist[i & 63]);
    atomicMin(s, i);
    atomicMax(s + 1, i);
    atomicInc(inc, 100u);
    atomicExch(lock, i);
    atomicCAS(lock + 1, 0, i);
    atomicSub(s + 2, 3);
    atomicAnd(s + 3, 0xF0);
    atomicOr(s + 4, 0x0F);
    __threadfence();
    __threadfence_block();
}

__global__ void warp_ops(const int *in, int *out, unsigned *mask_out)
{
    int v = in[threadIdx.x];
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    unsigned ballot = __ballot_sync(0xffffffffu, v > 10);
    int any = __any_sync(0xffffffffu, v < 0);
    __syncwarp();
    unsigned act = __activemask();
    if ((threadIdx.x & 31) == 0) {
        out[threadIdx.x / 32] = v + any;
        mask_out[threadIdx.x / 32] = ballot ^ act;
    }
}

__global__ void bits(const unsigned *in, unsigned *out, const unsigned long long *in64)
{
    unsigned x = in[threadIdx.x];
    out[4 * threadIdx.x + 0] = __brev(x);
    out[4 * threadIdx.x + 1] = __ffs(x);
    out[4 * threadIdx.x + 2] = __popc(x);
    out[4 * threadIdx.x + 3] = __clz(x) + __clzll(in64[threadIdx.x]);
}
