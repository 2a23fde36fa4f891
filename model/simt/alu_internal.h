/*
 * Private helpers of the warp-wide ALU (simt_alu.h): lane loops, raw-bit views of the
 * source operands, integer widths, float flushing/canonicalisation and the rounding-mode
 * scope used by the directed-rounding forms. Each family file (alu_int.c, alu_float.c,
 * alu_bits.c, alu_cmp.c, alu_cvt.c) exports one entry point; alu.c checks the instruction
 * with simt_alu_supports() before dispatching, so the families may assume a valid
 * combination (they still return SIMT_ALU_UNSUPPORTED before writing anything if not).
 */
#ifndef GTLM_SIMT_ALU_INTERNAL_H
#define GTLM_SIMT_ALU_INTERNAL_H

#include <fenv.h>
#include <stdint.h>
#include <string.h>

#include "../common/fbits.h"
#include "simt_alu.h"

typedef const uint64_t (*alu_src)[SIMT_WARP];
typedef uint64_t (*alu_dst)[SIMT_WARP];

/* Runs the following statement for every lane l set in the local variable `active`. The
 * dispatch on operation and type happens outside; inside there are only loop-invariant
 * (perfectly predicted) branches. */
#define ALU_FOR_LANES(l) \
    for (unsigned l = 0; l < SIMT_WARP; l++) \
        if ((active >> l) & 1u)

/* PTX canonical NaNs (what the hardware produces for a NaN result). */
#define ALU_NAN32 0x7fffffffu
#define ALU_NAN64 UINT64_C(0x7fffffffffffffff)
#define ALU_NAN16 0x7fffu

/* ---- integer widths ---- */

static inline unsigned alu_width(unsigned t)
{
    switch (t) {
    case PT_PRED: return 1;
    case PT_B8: case PT_U8: case PT_S8: return 8;
    case PT_B16: case PT_U16: case PT_S16: case PT_F16: return 16;
    case PT_B32: case PT_U32: case PT_S32: case PT_F32: return 32;
    case PT_B64: case PT_U64: case PT_S64: case PT_F64: return 64;
    default: return 0;
    }
}

static inline int alu_signed(unsigned t) { return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64; }
static inline int alu_is_float(unsigned t) { return t == PT_F32 || t == PT_F64; }

static inline uint64_t alu_mask(unsigned w) { return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1; }

/* Sign-extends the low w bits (1 <= w <= 64). */
static inline int64_t alu_sext(uint64_t x, unsigned w)
{
    unsigned s = 64 - w;
    return (int64_t)(x << s) >> s;
}

/* ---- float views ---- */

static inline float alu_f32(uint64_t x) { return fbits_f32(x); }
static inline uint32_t alu_f32_bits(float f) { return fbits_of_f32(f); }
static inline double alu_f64(uint64_t x) { return fbits_f64(x); }
static inline uint64_t alu_f64_bits(double f) { return fbits_of_f64(f); }

/* f32 subnormal -> zero of the same sign (on the raw bits). */
static inline uint32_t alu_ftz_bits32(uint32_t u) { return (u & 0x7f800000u) ? u : (u & 0x80000000u); }

/* Reads an f32 source, flushing a subnormal to zero when ftz. */
static inline float alu_in32(uint64_t x, int ftz)
{
    uint32_t u = (uint32_t)x;
    if (ftz)
        u = alu_ftz_bits32(u);
    return alu_f32(u);
}

/* The bits of an f32 result: .sat clamps to [0, 1] (NaN -> +0), .ftz flushes a subnormal,
 * and a NaN becomes the canonical NaN. */
static inline uint64_t alu_out32(float r, int ftz, int sat)
{
    if (sat)
        r = r > 0.0f ? (r < 1.0f ? r : 1.0f) : 0.0f;
    if (r != r)
        return ALU_NAN32;
    uint32_t u = alu_f32_bits(r);
    return ftz ? alu_ftz_bits32(u) : u;
}

static inline uint64_t alu_out64(double r)
{
    return r != r ? ALU_NAN64 : alu_f64_bits(r);
}

/* ---- rounding ---- */

/* The <fenv.h> mode of a directed float rounding qualifier (.rz .rm .rp), -1 for none or
 * .rn (the host default, which the ALU keeps as the invariant between instructions). */
static inline int alu_fe_mode(unsigned rnd)
{
    switch (rnd) {
    case PR_RZ: return FE_TOWARDZERO;
    case PR_RM: return FE_DOWNWARD;
    case PR_RP: return FE_UPWARD;
    default: return -1;
    }
}

/* Operations between alu_round_begin and alu_round_end read their operands from memory
 * after the fesetround call and store their results before the restoring call (both are
 * opaque calls the compiler cannot move memory accesses across), so the arithmetic is done
 * in the requested mode without -frounding-math. */
static inline int alu_round_begin(int fe)
{
    if (fe < 0)
        return -1;
    int saved = fegetround();
    fesetround(fe);
    return saved;
}

static inline void alu_round_end(int saved)
{
    if (saved >= 0)
        fesetround(saved);
}

/* ---- family entry points (alu_*.c) ---- */

int alu_int(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active, uint32_t *carry);
int alu_float(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active);
int alu_bits(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active);
int alu_cmp(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active);
int alu_cvt(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active);

/* f16 <-> double, used by cvt (exact decode; encode rounds by the ptx_rnd mode). */
double alu_f16_to_double(uint16_t h);
uint16_t alu_f16_from_double(double x, unsigned rnd);

#endif
