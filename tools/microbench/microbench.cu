// Microbenchmarks of the timing model (gtlm microbench): small kernels whose cycle counts follow
// from the configuration's options, in the way architects dissect a GPU. Each kernel exists in a
// short (16 steps) and a long (48 steps) form; the difference of their clock readings divided by
// 32 is the cost of one step, free of the fixed costs and start-up effects around the timed part
// (both forms have the same start: e.g. an issue rate's first eight operations can meet a bank
// conflict with the instructions before them that delays the second eight by a cycle). The dependent
// accesses and operations are inline PTX so that exactly the instruction under test repeats.
// One thread or one warp, one CTA: nothing else competes for the SM.

#define STEPS_SHORT 16
#define STEPS_LONG 48

// out[0] = clock difference, out[1] = a value that depends on every step (so nothing is dead).
__device__ __forceinline__ void report(long long *out, long long t0, long long t1, unsigned long long v)
{
    if ((threadIdx.x & 31) == 0) {
        out[0] = t1 - t0;
        out[1] = (long long)v;
    }
}

// Pointer chase through global memory: each load's address is the previous load's value. p holds
// its own address, so every step loads the same 8 bytes: the untimed first pass brings the line
// into the L1 (or, with L1 bypass, into the L2), the timed pass then hits there every step.
template <int N> __device__ __forceinline__ unsigned long long chase_global(unsigned long long p)
{
#pragma unroll
    for (int i = 0; i < N; i++) asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
    return p;
}

template <int N> __device__ __forceinline__ void global_chase(unsigned long long p, long long *out)
{
    p = chase_global<N>(p);
    long long t0 = clock64();
    p = chase_global<N>(p);
    asm volatile("add.u64 %0, %0, 0;" : "+l"(p)); // waits for the last load
    long long t1 = clock64();
    report(out, t0, t1, p);
}

extern "C" __global__ void mb_chase_16(unsigned long long p, long long *out) { global_chase<STEPS_SHORT>(p, out); }
extern "C" __global__ void mb_chase_48(unsigned long long p, long long *out) { global_chase<STEPS_LONG>(p, out); }

// The same chase by a whole warp, lane l in its own 128-byte line p + 128 l (each line holds its
// own address): every step is 32 requests, so the LD/ST unit's one request per cycle (L1 hits),
// or the interconnect's one flit per cycle into the SM (L1 bypassed, L2 hits), sets its cost.
template <int N> __device__ __forceinline__ void lanes_chase(unsigned long long p, long long *out)
{
    unsigned long long q = p + 128ull * threadIdx.x;
    q = chase_global<N>(q);
    long long t0 = clock64();
    q = chase_global<N>(q);
    asm volatile("add.u64 %0, %0, 0;" : "+l"(q));
    long long t1 = clock64();
    report(out, t0, t1, q);
}

extern "C" __global__ void mb_lanes_16(unsigned long long p, long long *out) { lanes_chase<STEPS_SHORT>(p, out); }
extern "C" __global__ void mb_lanes_48(unsigned long long p, long long *out) { lanes_chase<STEPS_LONG>(p, out); }

// Shared-memory chase by one warp: lane l reads word l * stride, which holds its own shared
// address, so every step of the warp is one ld.shared with the bank conflicts of that stride.
template <int N> __device__ __forceinline__ void smem_chase(unsigned stride, long long *out)
{
    __shared__ unsigned buf[32 * 32];
    unsigned *mine = &buf[(threadIdx.x * stride) & 1023];
    unsigned a = (unsigned)__cvta_generic_to_shared(mine);
    *mine = a;
    __syncwarp();
    long long t0 = clock64();
#pragma unroll
    for (int i = 0; i < N; i++) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
    asm volatile("add.u32 %0, %0, 0;" : "+r"(a));
    long long t1 = clock64();
    report(out, t0, t1, a);
}

extern "C" __global__ void mb_smem_16(unsigned stride, long long *out) { smem_chase<STEPS_SHORT>(stride, out); }
extern "C" __global__ void mb_smem_48(unsigned stride, long long *out) { smem_chase<STEPS_LONG>(stride, out); }

// Constant-memory chase by one warp: lane l reads the first word of 64-byte line (l % lines) of
// cmem, which holds its own address: `lines` distinct lines per step (1 = broadcast). The host
// fills cmem with the addresses. The untimed first pass brings the lines into the constant cache.
__constant__ unsigned long long cmem[32 * 8];

template <int N> __device__ __forceinline__ unsigned long long chase_const(unsigned long long a)
{
#pragma unroll
    for (int i = 0; i < N; i++) asm volatile("ld.const.u64 %0, [%0];" : "+l"(a));
    return a;
}

template <int N> __device__ __forceinline__ void const_chase(unsigned lines, long long *out)
{
    unsigned long long a = cmem[(threadIdx.x % lines) * 8];
    a = chase_const<N>(a);
    long long t0 = clock64();
    a = chase_const<N>(a);
    asm volatile("add.u64 %0, %0, 0;" : "+l"(a));
    long long t1 = clock64();
    report(out, t0, t1, a);
}

// The address of cmem in the constant space, for the host to fill the table.
extern "C" __global__ void mb_const_base(long long *out)
{
    unsigned long long a;
    asm("mov.u64 %0, cmem;" : "=l"(a));
    *out = (long long)a;
}

extern "C" __global__ void mb_const_16(unsigned lines, long long *out) { const_chase<STEPS_SHORT>(lines, out); }
extern "C" __global__ void mb_const_48(unsigned lines, long long *out) { const_chase<STEPS_LONG>(lines, out); }

// Dependent chains of one operation: the latency per instruction class.
#define CHAIN(name, type, cons, asmstr)                                                                    \
    template <int N> __device__ __forceinline__ void name(type x, long long *out)                          \
    {                                                                                                      \
        long long t0 = clock64();                                                                          \
        _Pragma("unroll") for (int i = 0; i < N; i++) asm volatile(asmstr : "+" cons(x));                  \
        long long t1 = clock64();                                                                          \
        report(out, t0, t1, (unsigned long long)x);                                                        \
    }                                                                                                      \
    extern "C" __global__ void mb_##name##_16(type x, long long *out) { name<STEPS_SHORT>(x, out); }      \
    extern "C" __global__ void mb_##name##_48(type x, long long *out) { name<STEPS_LONG>(x, out); }

CHAIN(int_add, unsigned, "r", "add.u32 %0, %0, 1;")
CHAIN(int_mul, unsigned, "r", "mul.lo.u32 %0, %0, 3;")
CHAIN(int_mad, unsigned, "r", "mad.lo.u32 %0, %0, 3, 1;")
CHAIN(fp_add, float, "f", "add.f32 %0, %0, 0f3F800000;")
CHAIN(fp_mul, float, "f", "mul.f32 %0, %0, 0f3F800000;")
CHAIN(fp_fma, float, "f", "fma.rn.f32 %0, %0, 0f3F800000, 0f00000000;")
CHAIN(dp_add, double, "d", "add.f64 %0, %0, 0d3FF0000000000000;")
CHAIN(sfu_sin, float, "f", "sin.approx.f32 %0, %0;")

// Register-bank conflicts: a chain of one operation whose sources are registers of a block of
// its own, t<130>, declared in order: t1, t2 are neighbours (different banks), t1, t65, t129 are
// 64 apart (the same bank whenever the bank count divides 64). Each read of a bank beyond the
// first in a cycle delays the result one cycle; the same register read twice is one read.
#define REP8(s) s s s s s s s s
#define REP16(s) REP8(s) REP8(s)
#define REP48(s) REP16(s) REP16(s) REP16(s)
#define BANKS(name, body)                                                                                   \
    extern "C" __global__ void mb_##name##_16(unsigned x, long long *out)                                    \
    {                                                                                                       \
        long long t0 = clock64();                                                                           \
        asm volatile("{\n\t.reg .u32 t<130>;\n\tmov.u32 t1, %0;\n\tmov.u32 t2, 1;\n\tmov.u32 t65, 1;\n\t"     \
                     "mov.u32 t129, 1;\n\t" REP16(body) "mov.u32 %0, t1;\n\t}" : "+r"(x));                   \
        long long t1 = clock64();                                                                           \
        report(out, t0, t1, x);                                                                             \
    }                                                                                                       \
    extern "C" __global__ void mb_##name##_48(unsigned x, long long *out)                                   \
    {                                                                                                       \
        long long t0 = clock64();                                                                           \
        asm volatile("{\n\t.reg .u32 t<130>;\n\tmov.u32 t1, %0;\n\tmov.u32 t2, 1;\n\tmov.u32 t65, 1;\n\t"     \
                     "mov.u32 t129, 1;\n\t" REP48(body) "mov.u32 %0, t1;\n\t}" : "+r"(x));                  \
        long long t1 = clock64();                                                                           \
        report(out, t0, t1, x);                                                                             \
    }

BANKS(bank_add_apart, "add.u32 t1, t1, t2;\n\t")
BANKS(bank_add_same, "add.u32 t1, t1, t65;\n\t")
BANKS(bank_add_self, "add.u32 t1, t1, t1;\n\t")
BANKS(bank_mad_same, "mad.lo.u32 t1, t1, t65, t129;\n\t")
// Write after write: each step writes t1 without reading it, so only the scoreboard's pending
// destination makes it wait for the step before (one multiply latency per step; without that
// rule the steps would issue back to back).
BANKS(waw_mul, "mul.lo.u32 t1, t2, 3;\n\t")

// Issue rate: eight independent chains interleaved (op i writes register i % 8 from itself), so a
// warp has an independent instruction ready every cycle unless the unit or the latency stops it.
#define RATE(name, type, cons, op)                                                                        \
    template <int N> __device__ __forceinline__ void name(type x, long long *out)                         \
    {                                                                                                     \
        type a = x, b = x, c = x, d = x, e = x, f = x, g = x, h = x;                                      \
        long long t0 = clock64();                                                                         \
        _Pragma("unroll") for (int i = 0; i < N / 8; i++) asm volatile(                                   \
            op("%0") op("%1") op("%2") op("%3") op("%4") op("%5") op("%6") op("%7")                       \
            : "+" cons(a), "+" cons(b), "+" cons(c), "+" cons(d), "+" cons(e), "+" cons(f), "+" cons(g),  \
              "+" cons(h));                                                                               \
        long long t1 = clock64();                                                                         \
        report(out, t0, t1, (unsigned long long)(a + b + c + d + e + f + g + h));                         \
    }                                                                                                     \
    extern "C" __global__ void mb_##name##_16(type x, long long *out) { name<STEPS_SHORT>(x, out); }     \
    extern "C" __global__ void mb_##name##_48(type x, long long *out) { name<STEPS_LONG>(x, out); }

#define OP_INT(r) "add.u32 " r ", " r ", 1;"
#define OP_FP(r) "add.f32 " r ", " r ", 0f3F800000;"
#define OP_SFU(r) "sin.approx.f32 " r ", " r ";"
RATE(rate_int, unsigned, "r", OP_INT)
RATE(rate_fp, float, "f", OP_FP)
RATE(rate_sfu, float, "f", OP_SFU)

// Independent loads in flight together (microbench_limits.c): thread t loads the 8 bytes at
// table[t] (threads t >= n the same address as thread 0, which coalesces into thread 0's request),
// so one warp instruction sends n requests at once. The clock readings bracket that one load;
// several warps (the MSHR rows) each time their own, the host reads warp 0's.
extern "C" __global__ void mb_burst(const unsigned long long *table, unsigned n, long long *out)
{
    unsigned long long a = table[threadIdx.x < n ? threadIdx.x : 0];
    asm volatile("add.u64 %0, %0, 0;" : "+l"(a)); // waits for the address
    long long t0 = clock64();
    asm volatile("ld.global.u64 %0, [%0];" : "+l"(a));
    asm volatile("add.u64 %0, %0, 0;" : "+l"(a)); // waits for every lane's load
    long long t1 = clock64();
    if (threadIdx.x == 0) report(out, t0, t1, a);
}
