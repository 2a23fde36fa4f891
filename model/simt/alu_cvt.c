/*
 * cvt of the warp-wide ALU: cvt[.rnd][.ftz][.sat].dtype.stype d, a, with the instruction's
 * type = dtype and type2 = stype, over .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 .f16 .f32 .f64.
 *
 * int -> int: the source is sign- or zero-extended by its own type, then truncated to the
 *   destination width; .sat clamps the source value to the destination's range instead.
 * int -> float: correctly rounded by .rn (default) .rz .rm .rp.
 * float -> int: rounded to an integral value by .rni .rzi .rmi .rpi, then saturated to the
 *   destination's range (always, as PTX does for float -> int); NaN -> 0.
 * float -> float: widening is exact; narrowing rounds by .rn (default) .rz .rm .rp; .rni
 *   .rzi .rmi .rpi round to an integral value first (cvt.rni.f32.f32 etc.).
 * .ftz flushes an f32 subnormal source and an f32 subnormal result to zero of the same sign;
 * .sat with a float destination clamps the result to [0, 1] (NaN -> +0).
 * NaN results are canonical (0x7fffffff, 0x7fffffffffffffff, 0x7fff for f16).
 * f16 values are the low 16 bits of the register; their rounding is done in software here.
 */
#include <math.h>

#include "alu_internal.h"

/* Clang honours the standard pragma (it then keeps float operations in place and in the
 * dynamic rounding mode); GCC does not implement it and would warn, and is kept correct by
 * the ordering argument in alu_internal.h. */
#if defined(__clang__)
#pragma STDC FENV_ACCESS ON
#endif

enum { K_INT, K_F16, K_F32, K_F64 };

static unsigned kind(unsigned t)
{
    switch (t) {
    case PT_F16: return K_F16;
    case PT_F32: return K_F32;
    case PT_F64: return K_F64;
    default: return K_INT;
    }
}

double alu_f16_to_double(uint16_t h)
{
    unsigned e = (h >> 10) & 0x1fu, f = h & 0x3ffu;
    double v;
    if (e == 0)
        v = ldexp((double)f, -24);
    else if (e == 31)
        v = f ? (double)NAN : (double)INFINITY;
    else
        v = ldexp((double)(1024u + f), (int)e - 25);
    return (h & 0x8000u) ? -v : v;
}

uint16_t alu_f16_from_double(double x, unsigned rnd)
{
    if (x != x)
        return ALU_NAN16;
    const uint16_t sign = signbit(x) ? 0x8000u : 0u;
    /* Rounding of the magnitude: 0 nearest-even, 1 toward zero, 2 away from zero. */
    const int mm = rnd == PR_RZ ? 1 : rnd == PR_RM ? (sign ? 2 : 1) : rnd == PR_RP ? (sign ? 1 : 2) : 0;
    double ax = fabs(x);
    if (isinf(ax))
        return sign | 0x7c00u;
    if (ax == 0.0)
        return sign;
    int e;
    (void)frexp(ax, &e);   /* ax in [2^(e-1), 2^e) */
    int q = e - 11;        /* exponent of the f16 ulp at ax (11 significant bits) */
    if (q < -24)
        q = -24;           /* subnormal range */
    double t = ldexp(ax, -q); /* exact, < 2^11 */
    double n = floor(t);
    double frac = t - n;      /* exact */
    if (frac != 0.0) {
        if (mm == 2)
            n += 1.0;
        else if (mm == 0 && (frac > 0.5 || (frac == 0.5 && fmod(n, 2.0) != 0.0)))
            n += 1.0;
    }
    unsigned ni = (unsigned)n;
    if (ni == 2048u) {
        ni = 1024u;
        q++;
    }
    if (ni < 1024u)
        return sign | (uint16_t)ni; /* subnormal or zero */
    int ef = q + 25;
    if (ef >= 31)
        return sign | (mm == 1 ? 0x7bffu : 0x7c00u); /* overflow: max finite toward zero, else inf */
    return sign | (uint16_t)((unsigned)ef << 10) | (uint16_t)(ni - 1024u);
}

/* A float source as a double (exact). */
static inline double load_float(uint64_t x, unsigned k, int ftz)
{
    if (k == K_F16)
        return alu_f16_to_double((uint16_t)x);
    if (k == K_F32)
        return (double)alu_in32(x, ftz);
    return alu_f64(x);
}

/* Rounds to an integral value by .rni .rzi .rmi .rpi (the host mode is round-to-nearest). */
static inline double round_integral(double x, unsigned rnd)
{
    switch (rnd) {
    case PR_RZI: return trunc(x);
    case PR_RMI: return floor(x);
    case PR_RPI: return ceil(x);
    default: return nearbyint(x);
    }
}

/* Unsigned 64-bit -> float through the signed conversion (one host instruction that rounds
 * in the current mode). Compilers' own unsigned conversions use tricks that are only right in
 * round-to-nearest (e.g. 0 -> -0.0 in .rm); here a value >= 2^63 is halved with its low bit
 * kept as a sticky bit, converted, and doubled exactly, which rounds correctly in every mode. */
static inline float u64_to_f32(uint64_t v)
{
    if ((int64_t)v >= 0)
        return (float)(int64_t)v;
    return 2.0f * (float)(int64_t)((v >> 1) | (v & 1u));
}

static inline double u64_to_f64(uint64_t v)
{
    if ((int64_t)v >= 0)
        return (double)(int64_t)v;
    return 2.0 * (double)(int64_t)((v >> 1) | (v & 1u));
}

static inline double sat01(double r) { return r > 0.0 ? (r < 1.0 ? r : 1.0) : 0.0; }

/* The bits of a float result r (already a double, or a float for f32) in destination kind dk. */
static inline uint64_t store_float(double r, unsigned dk, unsigned rnd, int ftz, int sat)
{
    if (dk == K_F64)
        return alu_out64(sat ? sat01(r) : r);
    if (dk == K_F16)
        return alu_f16_from_double(sat ? sat01(r) : r, rnd);
    return alu_out32((float)r, ftz, sat); /* rounded in the current (possibly directed) mode */
}

static void int_to_int(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active)
{
    const unsigned sw = alu_width(in->type2), dw = alu_width(in->type);
    const int ss = alu_signed(in->type2), ds = alu_signed(in->type);
    const uint64_t dm = alu_mask(dw), sm = alu_mask(sw);

    if (!(in->flags & PF_SAT)) {
        if (ss) {
            ALU_FOR_LANES(l) d[0][l] = (uint64_t)alu_sext(s[0][l], sw) & dm;
        } else {
            ALU_FOR_LANES(l) d[0][l] = s[0][l] & sm & dm;
        }
        return;
    }
    const int64_t shi = (int64_t)(dm >> 1), slo = -shi - 1; /* signed destination range */
    ALU_FOR_LANES(l)
    {
        uint64_t r;
        if (ss) {
            int64_t v = alu_sext(s[0][l], sw);
            if (ds)
                r = (uint64_t)(v > shi ? shi : v < slo ? slo : v);
            else
                r = v < 0 ? 0 : ((uint64_t)v > dm ? dm : (uint64_t)v);
        } else {
            uint64_t v = s[0][l] & sm;
            r = ds ? (v > (uint64_t)shi ? (uint64_t)shi : v) : (v > dm ? dm : v);
        }
        d[0][l] = r & dm;
    }
}

static void float_to_int(const ptx_instr *in, unsigned sk, alu_src s, alu_dst d, uint32_t active)
{
    const unsigned dw = alu_width(in->type);
    const int ds = alu_signed(in->type);
    const int ftz = (in->flags & PF_FTZ) != 0;
    const unsigned rnd = in->rnd;
    const uint64_t dm = alu_mask(dw);
    const double lim = ldexp(1.0, ds ? (int)dw - 1 : (int)dw); /* first value out of range above */

    ALU_FOR_LANES(l)
    {
        double r = round_integral(load_float(s[0][l], sk, ftz), rnd);
        uint64_t v;
        if (r != r)
            v = 0;
        else if (ds)
            v = r >= lim ? dm >> 1 : r < -lim ? (dm >> 1) + 1 : (uint64_t)(int64_t)r;
        else
            v = r >= lim ? dm : r <= 0.0 ? 0 : (uint64_t)r;
        d[0][l] = v & dm;
    }
}

int alu_cvt(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active)
{
    const unsigned dk = kind(in->type), sk = kind(in->type2);
    const int ftz = (in->flags & PF_FTZ) != 0;
    const int sat = (in->flags & PF_SAT) != 0;
    const unsigned rnd = in->rnd;

    if (alu_width(in->type) < 8 || alu_width(in->type2) < 8)
        return SIMT_ALU_UNSUPPORTED;
    if (dk == K_INT && sk == K_INT) {
        int_to_int(in, s, d, active);
        return SIMT_ALU_OK;
    }
    if (dk == K_INT) {
        float_to_int(in, sk, s, d, active);
        return SIMT_ALU_OK;
    }

    /* Float destination. f16 rounds in software; f32/f64 in the host's mode. */
    const int saved = alu_round_begin(dk == K_F16 ? -1 : alu_fe_mode(rnd));
    if (sk == K_INT) {
        const unsigned sw = alu_width(in->type2);
        if (alu_signed(in->type2)) {
            if (dk == K_F32) {
                ALU_FOR_LANES(l) d[0][l] = alu_out32((float)alu_sext(s[0][l], sw), ftz, sat);
            } else {
                ALU_FOR_LANES(l) d[0][l] = store_float((double)alu_sext(s[0][l], sw), dk, rnd, ftz, sat);
            }
        } else {
            const uint64_t sm = alu_mask(sw);
            if (dk == K_F32) {
                ALU_FOR_LANES(l) d[0][l] = alu_out32(u64_to_f32(s[0][l] & sm), ftz, sat);
            } else {
                ALU_FOR_LANES(l) d[0][l] = store_float(u64_to_f64(s[0][l] & sm), dk, rnd, ftz, sat);
            }
        }
    } else if (rnd >= PR_RNI && rnd <= PR_RPI) {
        ALU_FOR_LANES(l)
        {
            double x = round_integral(load_float(s[0][l], sk, ftz), rnd);
            d[0][l] = store_float(x, dk, PR_RN, ftz, sat);
        }
    } else {
        ALU_FOR_LANES(l) d[0][l] = store_float(load_float(s[0][l], sk, ftz), dk, rnd, ftz, sat);
    }
    alu_round_end(saved);
    return SIMT_ALU_OK;
}
