// Parser test input: single-precision intrinsics (approximate transcendentals, rounding
// conversions, saturation), volatile and read-only loads, __mul24, 64-bit integer math.
// Regenerate: nvcc -ptx -arch=compute_75 -o fastmath.ptx fastmath.cu

__global__ void intrinsics(const float *__restrict__ x, float *y, volatile int *flag, long long *z)
{
    int i = threadIdx.x;
    float a = __ldg(&x[i]);
    float r = __fdividef(a, 3.0f) + __expf(a) + __logf(a + 2.0f) + __sinf(a) * __cosf(a);
    r += rsqrtf(a) + floorf(a) + ceilf(a) + truncf(a) + rintf(a);
    r += fminf(a, r) + fmaxf(a, 1.0f) + copysignf(r, a) + __saturatef(a);
    r += exp2f(a) + log2f(a) + tanhf(a) + sqrtf(a) + 1.0f / a;
    y[i] = r;
    flag[i] = __mul24(i, 3) + __umul24(i, 5u) + __mulhi(i, 77) + __umulhi(i, 99u);
    long long v = z[i];
    z[i] = v / 7 + v % 13 + (v >> 3) + llabs(v) + (v << (i & 63)) + max(v, 5ll);
    if (flag[0] == 0) y[0] = 1.0f;
}
