/*
 * Floating-point arithmetic of the warp-wide ALU on .f32 and .f64: add sub mul mad fma div
 * abs neg min max rcp sqrt rsqrt ex2 lg2 sin cos tanh copysign testp.
 *
 * Rounding: no qualifier or .rn = the host's round-to-nearest-even; .rz .rm .rp run the lane
 * loop under fesetround (exact IEEE results in that mode), restoring the mode after.
 * mad.f32/.f64 is fused (one rounding, like fma), as PTX defines it for sm_20 and later.
 * .ftz (f32 only) flushes subnormal inputs and results to zero of the same sign; without it
 * subnormals are kept. .sat (f32) clamps the result to [0, 1] with NaN -> +0 (and -0 -> +0).
 * NaN results are the canonical NaN (0x7fffffff, 0x7fffffffffffffff), except abs/neg/
 * copysign, which are sign-bit operations on the raw bits.
 * min/max: a NaN operand is ignored (both NaN -> canonical NaN); -0 < +0.
 * div.full.f32 and div.rn are computed as the correctly rounded quotient; div.approx.f32 as
 * a * (1/b); rcp.approx as the correctly rounded 1/x; sqrt.approx as sqrtf; rsqrt.approx as
 * 1/sqrt in double rounded to f32; ex2/lg2/sin/cos/tanh.approx with the host libm (within
 * the PTX error bounds; the bits may differ from the hardware's approximations).
 */
#include <math.h>

#include "alu_internal.h"

/* Clang honours the standard pragma (it then keeps float operations in place and in the
 * dynamic rounding mode); GCC does not implement it and would warn, and is kept correct by
 * the ordering argument in alu_internal.h. */
#if defined(__clang__)
#pragma STDC FENV_ACCESS ON
#endif

/* Lane loops over f32 operands a, b, c (flushed when ftz) writing EXPR through alu_out32. */
#define F32_LOOP1(EXPR) \
    ALU_FOR_LANES(l) \
    { \
        float a = alu_in32(s[0][l], ftz); \
        d[0][l] = alu_out32((EXPR), ftz, sat); \
    }
#define F32_LOOP2(EXPR) \
    ALU_FOR_LANES(l) \
    { \
        float a = alu_in32(s[0][l], ftz), b = alu_in32(s[1][l], ftz); \
        d[0][l] = alu_out32((EXPR), ftz, sat); \
    }
#define F32_LOOP3(EXPR) \
    ALU_FOR_LANES(l) \
    { \
        float a = alu_in32(s[0][l], ftz), b = alu_in32(s[1][l], ftz), c = alu_in32(s[2][l], ftz); \
        d[0][l] = alu_out32((EXPR), ftz, sat); \
    }
#define F64_LOOP1(EXPR) \
    ALU_FOR_LANES(l) \
    { \
        double a = alu_f64(s[0][l]); \
        d[0][l] = alu_out64(EXPR); \
    }
#define F64_LOOP2(EXPR) \
    ALU_FOR_LANES(l) \
    { \
        double a = alu_f64(s[0][l]), b = alu_f64(s[1][l]); \
        d[0][l] = alu_out64(EXPR); \
    }
#define F64_LOOP3(EXPR) \
    ALU_FOR_LANES(l) \
    { \
        double a = alu_f64(s[0][l]), b = alu_f64(s[1][l]), c = alu_f64(s[2][l]); \
        d[0][l] = alu_out64(EXPR); \
    }

/* min/max on raw bits of width w: NaN ignored, -0 < +0. */
static inline uint64_t fminmax(uint64_t a, uint64_t b, double fa, double fb, int mx, uint64_t nan)
{
    if (fa != fa)
        return fb != fb ? nan : b;
    if (fb != fb)
        return a;
    if (fa < fb)
        return mx ? b : a;
    if (fb < fa)
        return mx ? a : b;
    /* Equal: identical bits, or +0 and -0 (min takes the sign bit, max drops it). */
    return mx ? (a & b) : (a | b);
}

static int testp(unsigned mode, uint64_t exp, uint64_t frac, uint64_t exp_max)
{
    switch (mode) {
    case PM_TESTP_FINITE: return exp != exp_max;
    case PM_TESTP_INFINITE: return exp == exp_max && frac == 0;
    case PM_TESTP_NUMBER: return !(exp == exp_max && frac != 0);
    case PM_TESTP_NOTANUMBER: return exp == exp_max && frac != 0;
    case PM_TESTP_NORMAL: return (exp != 0 && exp != exp_max) || (exp == 0 && frac == 0); /* PTX: zeros are normal */
    case PM_TESTP_SUBNORMAL: return exp == 0 && frac != 0;
    default: return 0;
    }
}

static int f32_ops(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active)
{
    const int ftz = (in->flags & PF_FTZ) != 0;
    const int sat = (in->flags & PF_SAT) != 0;

    switch (in->op) {
    case OP_ADD: F32_LOOP2(a + b); break;
    case OP_SUB: F32_LOOP2(a - b); break;
    case OP_MUL: F32_LOOP2(a * b); break;
    case OP_MAD:
    case OP_FMA: F32_LOOP3(fmaf(a, b, c)); break;
    case OP_DIV:
        if (in->flags & PF_APPROX) {
            F32_LOOP2(a * (1.0f / b));
        } else {
            F32_LOOP2(a / b);
        }
        break;
    case OP_RCP: F32_LOOP1(1.0f / a); break;
    case OP_SQRT: F32_LOOP1(sqrtf(a)); break;
    case OP_RSQRT: F32_LOOP1((float)(1.0 / sqrt((double)a))); break;
    case OP_EX2: F32_LOOP1(exp2f(a)); break;
    case OP_LG2: F32_LOOP1(log2f(a)); break;
    case OP_SIN: F32_LOOP1(sinf(a)); break;
    case OP_COS: F32_LOOP1(cosf(a)); break;
    case OP_TANH: F32_LOOP1(tanhf(a)); break;
    case OP_ABS:
        ALU_FOR_LANES(l) d[0][l] = alu_f32_bits(alu_in32(s[0][l], ftz)) & 0x7fffffffu;
        break;
    case OP_NEG:
        ALU_FOR_LANES(l) d[0][l] = alu_f32_bits(alu_in32(s[0][l], ftz)) ^ 0x80000000u;
        break;
    case OP_MIN:
    case OP_MAX: {
        const int mx = in->op == OP_MAX;
        ALU_FOR_LANES(l)
        {
            float a = alu_in32(s[0][l], ftz), b = alu_in32(s[1][l], ftz);
            d[0][l] = fminmax(alu_f32_bits(a), alu_f32_bits(b), a, b, mx, ALU_NAN32);
        }
        break;
    }
    case OP_COPYSIGN:
        ALU_FOR_LANES(l) d[0][l] = (s[1][l] & 0x7fffffffu) | (s[0][l] & 0x80000000u);
        break;
    case OP_TESTP:
        ALU_FOR_LANES(l)
        {
            uint32_t u = (uint32_t)s[0][l];
            d[0][l] = (uint64_t)testp(in->mode, (u >> 23) & 0xffu, u & 0x7fffffu, 0xffu);
        }
        break;
    default:
        return SIMT_ALU_UNSUPPORTED;
    }
    return SIMT_ALU_OK;
}

static int f64_ops(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active)
{
    const uint64_t sign = UINT64_C(1) << 63;

    switch (in->op) {
    case OP_ADD: F64_LOOP2(a + b); break;
    case OP_SUB: F64_LOOP2(a - b); break;
    case OP_MUL: F64_LOOP2(a * b); break;
    case OP_MAD:
    case OP_FMA: F64_LOOP3(fma(a, b, c)); break;
    case OP_DIV: F64_LOOP2(a / b); break;
    case OP_RCP: F64_LOOP1(1.0 / a); break;
    case OP_SQRT: F64_LOOP1(sqrt(a)); break;
    case OP_RSQRT: F64_LOOP1(1.0 / sqrt(a)); break;
    case OP_ABS:
        ALU_FOR_LANES(l) d[0][l] = s[0][l] & ~sign;
        break;
    case OP_NEG:
        ALU_FOR_LANES(l) d[0][l] = s[0][l] ^ sign;
        break;
    case OP_MIN:
    case OP_MAX: {
        const int mx = in->op == OP_MAX;
        ALU_FOR_LANES(l) d[0][l] = fminmax(s[0][l], s[1][l], alu_f64(s[0][l]), alu_f64(s[1][l]), mx, ALU_NAN64);
        break;
    }
    case OP_COPYSIGN:
        ALU_FOR_LANES(l) d[0][l] = (s[1][l] & ~sign) | (s[0][l] & sign);
        break;
    case OP_TESTP:
        ALU_FOR_LANES(l)
        {
            uint64_t u = s[0][l];
            d[0][l] = (uint64_t)testp(in->mode, (u >> 52) & 0x7ffu, u & ((UINT64_C(1) << 52) - 1), 0x7ffu);
        }
        break;
    default:
        return SIMT_ALU_UNSUPPORTED;
    }
    return SIMT_ALU_OK;
}

int alu_float(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active)
{
    if (in->type != PT_F32 && in->type != PT_F64)
        return SIMT_ALU_UNSUPPORTED;
    int saved = alu_round_begin(alu_fe_mode(in->rnd));
    int rc = in->type == PT_F32 ? f32_ops(in, s, d, active) : f64_ops(in, s, d, active);
    alu_round_end(saved);
    return rc;
}
