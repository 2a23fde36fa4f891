// Control-flow kernels for the functional-execution tests (testbenches/api/test_kernels.cpp):
// divergence and reconvergence inside warps, per-lane loop trip counts, break/continue, early
// exit, switch, and calls to non-inlined device functions under divergence. Each kernel writes
// one result per thread (i < n) that the test recomputes on the host.

#define GTID() (blockIdx.x * blockDim.x + threadIdx.x)

// A small loop whose trip count depends on its argument, so that the compiler keeps real
// branches instead of predicating both sides of an if.
__device__ __forceinline__ unsigned mix(unsigned v, unsigned rounds)
{
    for (unsigned r = 0; r < rounds; r++)
        v = v * 1664525u + 1013904223u + r;
    return v;
}

// if/else on lane parity: odd lanes run one loop, even lanes another.
extern "C" __global__ void ctl_parity(const unsigned *in, unsigned *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned v = in[i];
    unsigned r;
    if (threadIdx.x & 1)
        r = mix(v, (v & 3) + 1) ^ 0x55u;
    else
        r = mix(v + 7, (v & 7) + 2) + 3u;
    out[i] = r;
}

// Three levels of nested divergence selected by bits of the input.
extern "C" __global__ void ctl_nested(const unsigned *in, unsigned *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned v = in[i];
    unsigned r = v;
    if (v & 1) {
        r = mix(r, 2);
        if (v & 2) {
            r ^= 0xa5a5a5a5u;
            if (v & 4)
                r = mix(r, (v >> 8) & 3);
            else
                r += 11;
            r *= 3;
        } else {
            r = mix(r, 1) - 5;
        }
        r += 1;
    } else {
        if (v & 8) {
            r = mix(r, (v >> 4) & 7);
            if (v & 16)
                r = ~r;
        } else {
            r >>= 3;
        }
        r -= 2;
    }
    out[i] = r + (unsigned)i;
}

// Loops with per-lane trip counts, plus break and continue.
extern "C" __global__ void ctl_loops(const unsigned *in, unsigned *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned tid = threadIdx.x;
    unsigned v = in[i];
    unsigned s = 0;
    for (unsigned k = 0; k < tid % 7; k++)
        s += k * tid ^ v;
    unsigned t = 0;
    for (unsigned k = 0; k < 40; k++) {
        if (k % 3 == tid % 3)
            continue;
        t += (v >> (k % 29)) & 0xffu;
        if (t > (v & 0x7ffu))
            break;
        t ^= k;
    }
    unsigned w = v;
    int guard = 0;
    while (w > 1 && guard < 100) { // Collatz steps, a data-dependent while loop
        w = (w & 1) ? 3 * w + 1 : w >> 1;
        guard++;
    }
    out[3 * i + 0] = s;
    out[3 * i + 1] = t;
    out[3 * i + 2] = (unsigned)guard;
}

// Early return of some lanes; the remaining lanes continue and write.
extern "C" __global__ void ctl_early_return(const int *in, int *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    int v = in[i];
    if (v < 0) {
        out[i] = -1;
        return;
    }
    if ((v % 5) == 0)
        return; // leaves out[i] untouched
    int acc = 0;
    for (int k = 0; k < (v & 15); k++)
        acc += k * v;
    if (acc > 1000) {
        out[i] = 1000 + (acc & 0xff);
        return;
    }
    out[i] = acc;
}

// A switch on tid with several cases, a fall-through and a default.
extern "C" __global__ void ctl_switch(const unsigned *in, unsigned *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned v = in[i];
    unsigned r;
    switch (threadIdx.x % 11) {
    case 0: r = v + 1; break;
    case 1: r = v * 3; break;
    case 2: r = v ^ 0xdeadbeefu; break;
    case 3: r = v >> 3; break;
    case 4: r = ~v; break;
    case 5: v += 100; // fall through
    case 6: r = v - 7; break;
    case 7: r = v << 5; break;
    case 8: r = v | 0x80000001u; break;
    case 9: r = v & 0xffffu; break;
    default: r = 42; break;
    }
    out[i] = r;
}

// Non-inlined device functions (call/ret with .param arguments), a two-level call chain, called
// under divergence.
__device__ __noinline__ unsigned leaf_fn(unsigned a, unsigned b)
{
    unsigned r = a;
    for (unsigned k = 0; k < (b & 7); k++)
        r = r * 31u + b;
    return r;
}

__device__ __noinline__ unsigned middle_fn(unsigned a, unsigned b)
{
    return leaf_fn(a ^ 0x1234u, b + 1) + 17u;
}

extern "C" __global__ void ctl_call(const unsigned *in, unsigned *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned v = in[i];
    unsigned r;
    if (v & 1)
        r = leaf_fn(v, (unsigned)i);
    else
        r = middle_fn(v, (unsigned)i * 3u);
    out[i] = r;
}

// __activemask() inside a divergent branch and again after the branch has reconverged. Two words
// per thread: [0] inside the branch, [1] after it. No bounds check: the launch covers exactly the
// output, so partial warps show their real lane population.
extern "C" __global__ void ctl_activemask(const unsigned *in, unsigned *out)
{
    int i = GTID();
    unsigned v = in[i];
    unsigned inside;
    if (threadIdx.x & 1) {
        v = mix(v, v & 3);
        inside = __activemask();
    } else {
        v = mix(v, (v & 1) + 1);
        inside = __activemask();
    }
    out[3 * i + 0] = inside;
    out[3 * i + 1] = __activemask();
    out[3 * i + 2] = v;
}
