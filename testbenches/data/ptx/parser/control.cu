// Parser test input: if/else, switch, loops with break/continue, integer division by
// constants (carry arithmetic), a __noinline__ function with a by-value struct argument and
// result, launch bounds, clock64 and trap.
// Regenerate: nvcc -ptx -arch=compute_75 -o control.ptx control.cu

struct pair3 { double a; float b; int c; };

__device__ __noinline__ pair3 combine(pair3 p, int k)
{
    pair3 r;
    r.a = p.a * k;
    r.b = p.b + (float)k;
    r.c = p.c ^ k;
    return r;
}

__global__ void __launch_bounds__(256, 2) branches(const int *in, int *out, pair3 *ps, long long *t)
{
    long long t0 = clock64();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if (v > 0)
        v = v * 3;
    else
        v = -v + 7;
    switch (v & 7) {
    case 0: v += 11; break;
    case 1: v -= 5; break;
    case 2: v *= 13; break;
    case 5: v ^= 0x55; break;
    default: v = 0; break;
    }
    for (int k = 0; k < in[0]; ++k) {
        if (in[k] == 3) continue;
        if (in[k] < 0) break;
        v += in[k];
    }
    out[i] = v;
    ps[i] = combine(ps[i], v);
    if (v == 12345) __trap();
    t[i] = clock64() - t0;
}

__global__ void divide(const unsigned long long *in, unsigned long long *q, unsigned *r32, const unsigned *in32)
{
    int i = threadIdx.x;
    q[i] = in[i] / 10;
    r32[i] = in32[i] % 7 + in32[i] / 3;
}
