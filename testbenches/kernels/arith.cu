// Integer, floating-point and conversion kernels for the functional-execution tests
// (testbenches/api/test_kernels.cpp). Every kernel handles element i < n of a flat grid and
// writes a fixed number of result words per element; the test computes the same values on the
// host. Products and sums are written to separate outputs so that nvcc never contracts them into
// an fma (nvcc contracts a * b + c by default): every exactly rounded result is compared bit for
// bit.

#define GTID() (blockIdx.x * blockDim.x + threadIdx.x)

// 32-bit integer arithmetic with wrap-around, signed/unsigned high halves, 24-bit multiplies,
// min/max/abs and the sum of absolute differences. 16 words per element.
extern "C" __global__ void arith_int32(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    int sx = (int)x, sy = (int)y;
    unsigned *o = out + 16 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = (unsigned)((long long)sx * sy); // mul.wide.s32, low half
    o[4] = __umulhi(x, y);
    o[5] = (unsigned)__mulhi(sx, sy);
    o[6] = (unsigned)__mul24(sx, sy);
    o[7] = __umul24(x, y);
    o[8] = (unsigned)min(sx, sy);
    o[9] = max(x, y);
    o[10] = (unsigned)abs(sx);
    o[11] = __sad(sx, sy, x >> 7);
    o[12] = 0u - x;
    o[13] = ~x ^ (y | 0x0f0f0f0fu);
    o[14] = (unsigned)__hadd(sx, sy);
    o[15] = __urhadd(x, y);
}

// Shifts by variable amounts: 64-bit values by (s & 63) (so amounts of 32 and more occur), 32-bit
// values by (s & 31), funnel shifts (wrapping and clamped) and a rotate. 10 words per element.
extern "C" __global__ void arith_shift(const unsigned long long *x, const unsigned *s, unsigned long long *out,
                                       int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned long long v = x[i];
    unsigned sh = s[i];
    unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32);
    unsigned long long *o = out + 10 * i;
    o[0] = v << (sh & 63);
    o[1] = v >> (sh & 63);
    o[2] = (unsigned long long)((long long)v >> (sh & 63));
    o[3] = lo << (sh & 31);
    o[4] = lo >> (sh & 31);
    o[5] = (unsigned)((int)lo >> (sh & 31));
    o[6] = __funnelshift_l(lo, hi, sh);
    o[7] = __funnelshift_r(lo, hi, sh);
    o[8] = __funnelshift_lc(lo, hi, sh);
    o[9] = __funnelshift_rc(lo, hi, sh);
}

// 64-bit multiplies: low half, unsigned and signed high halves, and 64-bit add/sub with carry
// across the halves. 5 words per element.
extern "C" __global__ void arith_mul64(const unsigned long long *a, const unsigned long long *b,
                                       unsigned long long *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned long long x = a[i], y = b[i];
    unsigned long long *o = out + 5 * i;
    o[0] = x * y;
    o[1] = __umul64hi(x, y);
    o[2] = (unsigned long long)__mul64hi((long long)x, (long long)y);
    o[3] = x + y;
    o[4] = x - y;
}

// Division and remainder by constants (nvcc turns these into multiplies by magic numbers and
// shifts) and by variables (div/rem instructions), signed and unsigned, 32 and 64 bits. The host
// never passes b == 0 nor INT_MIN / -1. 16 words per element.
extern "C" __global__ void arith_divmod(const int *a, const int *b, const long long *a64, const long long *b64,
                                        long long *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    long long X = a64[i], Y = b64[i];
    long long *o = out + 16 * i;
    o[0] = x / 7;
    o[1] = x % 7;
    o[2] = x / -3;
    o[3] = x % -3;
    o[4] = x / 16;
    o[5] = x % 16;
    o[6] = ux / 10u;
    o[7] = ux % 10u;
    o[8] = x / y;
    o[9] = x % y;
    o[10] = ux / uy;
    o[11] = ux % uy;
    o[12] = X / Y;
    o[13] = X % Y;
    o[14] = (long long)((unsigned long long)X / (unsigned long long)Y);
    o[15] = X / 1000;
}

// Single precision: exactly rounded operations, min/max with NaN, copysign. 10 words per element.
extern "C" __global__ void arith_f32(const float *a, const float *b, const float *c, float *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    float *o = out + 10 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = sqrtf(x);
    o[5] = fmaf(x, y, z);
    o[6] = fminf(x, y);
    o[7] = fmaxf(x, y);
    o[8] = copysignf(x, y);
    o[9] = fabsf(z);
}

// Double precision: the same exactly rounded operations. 8 words per element.
extern "C" __global__ void arith_f64(const double *a, const double *b, const double *c, double *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    double *o = out + 8 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = sqrt(x);
    o[5] = fma(x, y, z);
    o[6] = fmin(x, y);
    o[7] = fmax(x, y);
}

// Float <-> integer conversions and float rounding functions. 12 words per element (float results
// as their bits).
extern "C" __global__ void arith_cvt(const float *f, unsigned *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    float x = f[i];
    unsigned *o = out + 12 * i;
    o[0] = (unsigned)__float2int_rn(x);
    o[1] = (unsigned)__float2int_rz(x);
    o[2] = __float2uint_rd(x);
    o[3] = (unsigned)(int)x;
    o[4] = __float_as_uint(__saturatef(x));
    o[5] = __float_as_uint(rintf(x));
    o[6] = __float_as_uint(floorf(x));
    o[7] = __float_as_uint(ceilf(x));
    o[8] = __float_as_uint(truncf(x));
    o[9] = (unsigned)x;
    o[10] = __float_as_uint((float)__float_as_int(x));
    o[11] = __float_as_uint((float)__float_as_uint(x));
}

// Double <-> integer and double <-> float conversions. 6 words per element.
extern "C" __global__ void arith_cvt64(const double *d, unsigned long long *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    double x = d[i];
    unsigned long long *o = out + 6 * i;
    o[0] = (unsigned long long)(long long)x;
    o[1] = (unsigned long long)(long long)__double2int_rn(x);
    o[2] = __float_as_uint((float)x);
    o[3] = (unsigned long long)__double_as_longlong((double)(float)x);
    o[4] = (unsigned long long)__double_as_longlong((double)(long long)__double_as_longlong(x));
    o[5] = __double2ull_rd(x);
}

// Bit manipulation: population count, leading zeros, bit reverse, find first set, byte permute
// (constant and variable selectors), 64-bit variants and bit-field extract/insert patterns.
// 14 words per element.
extern "C" __global__ void arith_bits(const unsigned *a, const unsigned *b, const unsigned *sel, unsigned *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], s = sel[i];
    unsigned long long xy = ((unsigned long long)y << 32) | x;
    unsigned *o = out + 14 * i;
    o[0] = (unsigned)__popc(x);
    o[1] = (unsigned)__clz((int)x);
    o[2] = __brev(x);
    o[3] = (unsigned)__ffs((int)x);
    o[4] = __byte_perm(x, y, s);
    o[5] = __byte_perm(x, y, 0x0123);
    o[6] = __byte_perm(x, y, 0x7351);
    o[7] = (unsigned)__popcll(xy);
    o[8] = (unsigned)__clzll((long long)xy);
    o[9] = (unsigned)__ffsll((long long)xy);
    o[10] = (unsigned)(__brevll(xy) >> 16);
    o[11] = (x >> (s & 31)) & 0x3ffu;
    o[12] = (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);
    o[13] = (unsigned)(((int)x << 4) >> 20);
}

// Approximate functions: expf, logf, sinf, cosf (nvcc's accurate library sequences, including
// the slow argument reduction of sinf/cosf for large arguments) and __fdividef. The test uses a
// tolerance. 5 words per element.
extern "C" __global__ void arith_approx(const float *a, const float *b, float *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    float *o = out + 5 * i;
    o[0] = expf(x);
    o[1] = logf(y);
    o[2] = sinf(x);
    o[3] = cosf(x);
    o[4] = __fdividef(x, y);
}
