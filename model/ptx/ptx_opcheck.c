/*
 * Which qualifier combinations each opcode accepts (following the PTX ISA for the subset
 * gtlm runs), and the opcode table that ties base names to their checks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ptx_qual.h"

const char *const ptx_qclass_name[QC_COUNT] = {
    "type", "state space", "rounding", "comparison", "boolean operation", "multiply mode", "shuffle mode",
    "vote mode", "atomic operation", "funnel-shift direction", "barrier operation", "barrier reduction",
    "membar level", "testp property", "prmt mode", "vector", "memory order", "scope", "cache operator", ".warp",
    ".idx", ".to", ".aligned", ".uni", ".sync", ".ftz", ".sat", ".approx", ".full", ".cc", ".nc", ".volatile",
    ".wrap", ".clamp", ".shiftamt", ".indirect"};

/* ---- type sets ---- */

#define T(x) (1u << PT_##x)
#define TS_SINT (T(S16) | T(S32) | T(S64))
#define TS_UINT (T(U16) | T(U32) | T(U64))
#define TS_INT (TS_SINT | TS_UINT)
#define TS_BITS (T(B16) | T(B32) | T(B64))
#define TS_FLT (T(F32) | T(F64))
#define TS_I3264 (T(U32) | T(S32) | T(U64) | T(S64))
#define TS_MEM (T(B8) | T(B16) | T(B32) | T(B64) | T(U8) | T(U16) | T(U32) | T(U64) | T(S8) | T(S16) | T(S32) | \
                T(S64) | T(F32) | T(F64))
#define TS_CVT (T(U8) | T(U16) | T(U32) | T(U64) | T(S8) | T(S16) | T(S32) | T(S64) | T(F32) | T(F64))

static const char *tname(int t) { return ptx_type_name((ptx_type)t); }
static int is_flt(int t) { return t == PT_F32 || t == PT_F64 || t == PT_F16; }
static int is_signed(int t) { return t >= PT_S8 && t <= PT_S64; }
static int is_bits(int t) { return t >= PT_B8 && t <= PT_B64; }
static int float_rnd(int r) { return r >= PR_RN && r <= PR_RP; }
static int int_rnd(int r) { return r >= PR_RNI && r <= PR_RPI; }

int ptx_reason(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Exactly one type, from the set. */
static int one_type(const qd *q, ptx_instr *in, uint32_t set, const char *op, char *why, size_t n)
{
    if (q->ntypes == 0) return ptx_reason(why, n, "%s needs a type qualifier", op);
    if (q->ntypes > 1) return ptx_reason(why, n, "%s takes one type qualifier, not two", op);
    int t = q->types[0];
    if (t == PT_F16) return ptx_reason(why, n, ".f16 arithmetic is not supported");
    if (!(set & (1u << t))) return ptx_reason(why, n, "type .%s is not valid for %s", tname(t), op);
    in->type = (uint8_t)t;
    return 0;
}

static int two_types(const qd *q, ptx_instr *in, uint32_t set1, uint32_t set2, const char *op, char *why, size_t n)
{
    if (q->ntypes != 2) return ptx_reason(why, n, "%s needs two type qualifiers", op);
    for (int k = 0; k < 2; k++) {
        int t = q->types[k];
        if (t == PT_F16) return ptx_reason(why, n, ".f16 arithmetic is not supported");
        if (!((k ? set2 : set1) & (1u << t)))
            return ptx_reason(why, n, "type .%s is not valid as the %s type of %s", tname(t), k ? "source" : "destination", op);
    }
    in->type = q->types[0];
    in->type2 = q->types[1];
    return 0;
}

static int forbid(const qd *q, int cls, const char *when, char *why, size_t n)
{
    if (q->v[cls]) return ptx_reason(why, n, "%s is not valid %s", ptx_qclass_name[cls], when);
    return 0;
}

/* ---- per-opcode checks: validate the combination and set type/type2/mode ---- */


/* Floating-point qualifiers (rounding, .ftz, .sat) on an integer type, and .ftz/.sat on f64. */
static int float_quals(const qd *q, const ptx_instr *in, char *why, size_t n)
{
    if (is_flt(in->type)) {
        if (q->v[QC_RND] && !float_rnd(q->v[QC_RND]))
            return ptx_reason(why, n, "integer rounding is not valid for a floating-point result");
        if (in->type == PT_F64 && (forbid(q, QC_FTZ, "for .f64", why, n) || forbid(q, QC_SAT, "for .f64", why, n)))
            return -1;
        return 0;
    }
    if (forbid(q, QC_RND, "for integer types", why, n) || forbid(q, QC_FTZ, "for integer types", why, n)) return -1;
    return 0;
}

static int chk_addsub(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_INT | TS_FLT, op, why, n) || float_quals(q, in, why, n)) return -1;
    if (is_flt(in->type)) return forbid(q, QC_CC, "for floating-point types", why, n);
    if (q->v[QC_SAT] && in->type != PT_S32) return ptx_reason(why, n, ".sat is only valid for .s32");
    if (q->v[QC_CC] && !((1u << in->type) & TS_I3264)) return ptx_reason(why, n, ".cc needs a 32- or 64-bit integer type");
    return 0;
}

static int chk_int3264(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, TS_I3264, op, why, n);
}

static int chk_mul(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_INT | TS_FLT, op, why, n) || float_quals(q, in, why, n)) return -1;
    if (is_flt(in->type)) return forbid(q, QC_MUL, "for floating-point types", why, n);
    if (q->v[QC_SAT]) return ptx_reason(why, n, ".sat is not valid for integer mul");
    if (!q->v[QC_MUL]) return ptx_reason(why, n, "integer %s needs .lo, .hi or .wide", op);
    if (q->v[QC_MUL] == PM_WIDE && ptx_type_size((ptx_type)in->type) == 8)
        return ptx_reason(why, n, ".wide is only valid for 16- and 32-bit types");
    in->mode = q->v[QC_MUL];
    return 0;
}

static int chk_mad(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_INT | TS_FLT, op, why, n) || float_quals(q, in, why, n)) return -1;
    if (is_flt(in->type)) {
        if (forbid(q, QC_MUL, "for floating-point types", why, n) || forbid(q, QC_CC, "for floating-point types", why, n))
            return -1;
        if (!q->v[QC_RND]) return ptx_reason(why, n, "floating-point mad needs a rounding qualifier (.rn, .rz, .rm, .rp)");
        return 0;
    }
    if (!q->v[QC_MUL]) return ptx_reason(why, n, "integer mad needs .lo, .hi or .wide");
    if (q->v[QC_MUL] == PM_WIDE && ptx_type_size((ptx_type)in->type) == 8)
        return ptx_reason(why, n, ".wide is only valid for 16- and 32-bit types");
    if (q->v[QC_SAT] && !(q->v[QC_MUL] == PM_HI && in->type == PT_S32))
        return ptx_reason(why, n, ".sat is only valid for mad.hi.s32");
    if (q->v[QC_CC] && (q->v[QC_MUL] == PM_WIDE || !((1u << in->type) & TS_I3264)))
        return ptx_reason(why, n, ".cc needs .lo or .hi and a 32- or 64-bit integer type");
    in->mode = q->v[QC_MUL];
    return 0;
}

static int chk_madc(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_I3264, op, why, n)) return -1;
    if (q->v[QC_MUL] != PM_LO && q->v[QC_MUL] != PM_HI) return ptx_reason(why, n, "madc needs .lo or .hi");
    in->mode = q->v[QC_MUL];
    return 0;
}

static int chk_mul24(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, T(U32) | T(S32), op, why, n)) return -1;
    if (q->v[QC_MUL] != PM_LO && q->v[QC_MUL] != PM_HI) return ptx_reason(why, n, "%s needs .lo or .hi", op);
    if (q->v[QC_SAT] && !(in->op == OP_MAD24 && q->v[QC_MUL] == PM_HI && in->type == PT_S32))
        return ptx_reason(why, n, ".sat is only valid for mad24.hi.s32");
    in->mode = q->v[QC_MUL];
    return 0;
}

static int chk_int(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, TS_INT, op, why, n);
}

static int chk_div(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_INT | TS_FLT, op, why, n) || float_quals(q, in, why, n)) return -1;
    if (!is_flt(in->type))
        return forbid(q, QC_APPROX, "for integer types", why, n) || forbid(q, QC_FULL, "for integer types", why, n);
    int kinds = !!q->v[QC_APPROX] + !!q->v[QC_FULL] + !!q->v[QC_RND];
    if (in->type == PT_F64) {
        if (q->v[QC_APPROX] || q->v[QC_FULL]) return ptx_reason(why, n, ".approx and .full are only valid for .f32");
        if (!q->v[QC_RND]) return ptx_reason(why, n, "div.f64 needs a rounding qualifier");
        return 0;
    }
    if (kinds != 1) return ptx_reason(why, n, "div.f32 needs exactly one of .approx, .full or a rounding qualifier");
    return 0;
}

static int chk_absneg(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, TS_SINT | TS_FLT, op, why, n) || float_quals(q, in, why, n);
}

static int chk_minmax(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, TS_INT | TS_FLT, op, why, n) || float_quals(q, in, why, n);
}

static int chk_fma(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_FLT, op, why, n) || float_quals(q, in, why, n)) return -1;
    if (!q->v[QC_RND]) return ptx_reason(why, n, "fma needs a rounding qualifier (.rn, .rz, .rm, .rp)");
    return 0;
}

static int chk_rcp_sqrt(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_FLT, op, why, n)) return -1;
    if (q->v[QC_RND] && !float_rnd(q->v[QC_RND])) return ptx_reason(why, n, "integer rounding is not valid for %s", op);
    if (!!q->v[QC_APPROX] + !!q->v[QC_RND] != 1) return ptx_reason(why, n, "%s needs exactly one of .approx or a rounding qualifier", op);
    if (in->type == PT_F64) {
        if (in->op == OP_SQRT && q->v[QC_APPROX]) return ptx_reason(why, n, "sqrt.approx is only valid for .f32");
        if (q->v[QC_APPROX] && !q->v[QC_FTZ]) return ptx_reason(why, n, "rcp.approx.f64 needs .ftz");
        if (q->v[QC_RND] && q->v[QC_FTZ]) return ptx_reason(why, n, ".ftz is not valid for a rounded .f64 %s", op);
    }
    return 0;
}

static int chk_rsqrt(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_FLT, op, why, n)) return -1;
    if (!q->v[QC_APPROX]) return ptx_reason(why, n, "%s needs .approx", op);
    return 0;
}

static int chk_approx_f32(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, T(F32), op, why, n)) return -1;
    if (!q->v[QC_APPROX]) return ptx_reason(why, n, "%s needs .approx", op);
    if (in->op == OP_TANH) return forbid(q, QC_FTZ, "for tanh", why, n);
    return 0;
}

static int chk_flt(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, TS_FLT, op, why, n);
}

static int chk_testp(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_FLT, op, why, n)) return -1;
    if (!q->v[QC_TESTP]) return ptx_reason(why, n, "testp needs a property (.finite, .infinite, .number, .notanumber, .normal, .subnormal)");
    in->mode = q->v[QC_TESTP];
    return 0;
}

static int chk_b3264(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, T(B32) | T(B64), op, why, n);
}

static int chk_bfind(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, TS_I3264, op, why, n);
}

static int chk_shf(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, T(B32), op, why, n)) return -1;
    if (!q->v[QC_SHF]) return ptx_reason(why, n, "shf needs .l or .r");
    if (!!q->v[QC_WRAP] + !!q->v[QC_CLAMP] != 1) return ptx_reason(why, n, "shf needs exactly one of .wrap or .clamp");
    in->mode = q->v[QC_SHF];
    return 0;
}

static int chk_prmt(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, T(B32), op, why, n)) return -1;
    in->mode = q->v[QC_PRMT] ? q->v[QC_PRMT] : PM_PRMT_DEFAULT;
    return 0;
}

static int chk_logic(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, T(PRED) | TS_BITS, op, why, n);
}

static int chk_bits(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, TS_BITS, op, why, n);
}

static int chk_shr(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, TS_BITS | TS_INT, op, why, n);
}

/* The comparison must suit the operand type: bit types compare only for equality,
 * unordered and num/nan are for floats, lo/ls/hi/hs for unsigned. */
static int cmp_ok(int cmp, int t, char *why, size_t n)
{
    if (!cmp) return ptx_reason(why, n, "a comparison qualifier (.eq, .lt, ...) is missing");
    if (is_bits(t) && cmp != PC_EQ && cmp != PC_NE) return ptx_reason(why, n, "bit types compare only with .eq or .ne");
    if (cmp >= PC_LO && cmp <= PC_HS && (is_flt(t) || is_signed(t)))
        return ptx_reason(why, n, ".lo, .ls, .hi and .hs are only valid for unsigned types");
    if (cmp >= PC_EQU && !is_flt(t)) return ptx_reason(why, n, "unordered comparisons and .num/.nan are only valid for floating-point types");
    return 0;
}

#define TS_SETP (TS_BITS | TS_INT | TS_FLT)

static int chk_setp(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_SETP, op, why, n) || cmp_ok(q->v[QC_CMP], in->type, why, n)) return -1;
    if (q->v[QC_FTZ] && in->type != PT_F32) return ptx_reason(why, n, ".ftz is only valid for .f32");
    return 0;
}

static int chk_set(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (two_types(q, in, T(U32) | T(S32) | T(F32), TS_SETP, op, why, n) || cmp_ok(q->v[QC_CMP], in->type2, why, n))
        return -1;
    if (q->v[QC_FTZ] && in->type2 != PT_F32) return ptx_reason(why, n, ".ftz is only valid for .f32 operands");
    return 0;
}

static int chk_selp(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, TS_SETP, op, why, n);
}

static int chk_slct(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (two_types(q, in, TS_SETP, T(S32) | T(F32), op, why, n)) return -1;
    if (q->v[QC_FTZ] && in->type2 != PT_F32) return ptx_reason(why, n, ".ftz is only valid with an .f32 selector");
    return 0;
}

/* mov.indirect (gtlm's extension, Morpheus' Indirect-MOV): a register-indexed move of one
 * data register; predicates are not data registers. */
static int chk_mov(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (!q->v[QC_INDIRECT]) return one_type(q, in, T(PRED) | TS_BITS | TS_INT | TS_FLT, op, why, n);
    if (q->ntypes == 1 && q->types[0] == PT_PRED) return ptx_reason(why, n, "mov.indirect cannot move .pred values");
    if (one_type(q, in, TS_BITS | TS_INT | TS_FLT, "mov.indirect", why, n)) return -1;
    in->op = OP_MOV_INDIRECT;
    return 0;
}

static int chk_cvt(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (q->ntypes == 2 && (is_bits(q->types[0]) || is_bits(q->types[1])))
        return ptx_reason(why, n, "cvt takes .u, .s or .f types, not .b");
    if (two_types(q, in, TS_CVT, TS_CVT, op, why, n)) return -1;
    int d = in->type, s = in->type2, r = q->v[QC_RND];
    if (is_flt(d) && is_flt(s)) {
        if (d == s) {
            if (r && !int_rnd(r)) return ptx_reason(why, n, "a float-to-same-float cvt takes only an integer rounding (.rni, .rzi, .rmi, .rpi)");
        } else if (d == PT_F32) {
            if (!float_rnd(r)) return ptx_reason(why, n, "cvt.f32.f64 needs a rounding qualifier (.rn, .rz, .rm, .rp)");
        } else if (r) {
            return ptx_reason(why, n, "cvt.f64.f32 is exact and takes no rounding qualifier");
        }
    } else if (is_flt(d)) {
        if (!float_rnd(r)) return ptx_reason(why, n, "an integer-to-float cvt needs a rounding qualifier (.rn, .rz, .rm, .rp)");
    } else if (is_flt(s)) {
        if (!int_rnd(r)) return ptx_reason(why, n, "a float-to-integer cvt needs an integer rounding qualifier (.rni, .rzi, .rmi, .rpi)");
    } else if (r) {
        return ptx_reason(why, n, "an integer-to-integer cvt takes no rounding qualifier");
    }
    if (q->v[QC_FTZ] && d != PT_F32 && s != PT_F32) return ptx_reason(why, n, ".ftz needs an .f32 operand");
    return 0;
}

static int chk_cvta(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, T(U32) | T(U64), op, why, n)) return -1;
    int s = q->v[QC_SPACE];
    if (!s) return ptx_reason(why, n, "cvta needs a state space (.global, .shared, .local, .const)");
    if (s == PS_PARAM) return ptx_reason(why, n, "cvta.param is not supported");
    return 0;
}

static int chk_ldst(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (q->ntypes == 1 && q->types[0] == PT_PRED) return ptx_reason(why, n, "%s cannot move .pred values", op);
    if (one_type(q, in, TS_MEM, op, why, n)) return -1;
    int s = q->v[QC_SPACE], st = in->op == OP_ST, sem = q->v[QC_SEM];
    if (st && s == PS_CONST) return ptx_reason(why, n, "st.const is not valid: constant memory is read-only");
    if (q->v[QC_VEC] == 4 && ptx_type_size((ptx_type)in->type) == 8)
        return ptx_reason(why, n, "a .v4 vector of 64-bit elements is not supported");
    if (q->v[QC_NC] && s != PS_GLOBAL) return ptx_reason(why, n, ".nc is only valid with .global");
    if (q->v[QC_VOLATILE] && (q->v[QC_NC] || sem)) return ptx_reason(why, n, ".volatile cannot be combined with .nc or a memory order");
    if (q->v[QC_VOLATILE] && s != PS_GENERIC && s != PS_GLOBAL && s != PS_SHARED && s != PS_LOCAL)
        return ptx_reason(why, n, ".volatile is only valid for generic, .global, .shared and .local addresses");
    if (sem) {
        if (s == PS_CONST || s == PS_PARAM || s == PS_LOCAL)
            return ptx_reason(why, n, "a memory order is not valid with .%s", ptx_space_name((ptx_space)s));
        if (sem == SEM_ACQ_REL || sem == SEM_SC || (st && sem == SEM_ACQUIRE) || (!st && sem == SEM_RELEASE))
            return ptx_reason(why, n, "this memory order is not valid for %s", op);
    }
    if (s == PS_PARAM && (q->v[QC_CACHE] || q->v[QC_SCOPE])) return ptx_reason(why, n, "cache operators and scopes are not valid with .param");
    if (q->v[QC_SCOPE] && !sem) return ptx_reason(why, n, "a scope needs .relaxed, .acquire or .release");
    return 0;
}

static int chk_atom(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    int s = q->v[QC_SPACE], a = q->v[QC_ATOM];
    if (s != PS_GENERIC && s != PS_GLOBAL && s != PS_SHARED)
        return ptx_reason(why, n, "%s is only valid for generic, .global and .shared addresses", op);
    if (!a) return ptx_reason(why, n, "%s needs an operation (.add, .min, .max, .inc, .dec, .exch, .cas, .and, .or, .xor)", op);
    if (in->op == OP_RED && (a == PM_ATOM_CAS || a == PM_ATOM_EXCH)) return ptx_reason(why, n, "red has no .cas or .exch");
    uint32_t set;
    switch (a) {
    case PM_ATOM_ADD: set = T(U32) | T(S32) | T(U64) | T(F32) | T(F64); break;
    case PM_ATOM_INC: case PM_ATOM_DEC: set = T(U32); break;
    case PM_ATOM_MIN: case PM_ATOM_MAX: set = TS_I3264; break;
    default: set = T(B32) | T(B64); break; /* and, or, xor, exch, cas */
    }
    if (one_type(q, in, set, op, why, n)) return -1;
    int sem = q->v[QC_SEM];
    if (sem == SEM_SC || sem == SEM_WEAK || (in->op == OP_RED && (sem == SEM_ACQUIRE || sem == SEM_ACQ_REL)))
        return ptx_reason(why, n, "this memory order is not valid for %s", op);
    in->mode = (uint8_t)a;
    return 0;
}

static int chk_none(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    (void)in;
    if (q->ntypes) return ptx_reason(why, n, "%s takes no type qualifier", op);
    return 0;
}

static int chk_brx(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (!q->v[QC_IDX]) return ptx_reason(why, n, "brx needs .idx");
    return chk_none(q, in, op, why, n);
}

static int chk_bar(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    int b = q->v[QC_BAR];
    if (q->v[QC_WARP]) {
        if (b != BAR_SYNC || q->v[QC_BRED] || q->ntypes || q->v[QC_SCOPE] || q->v[QC_ALIGNED])
            return ptx_reason(why, n, "the only warp barrier is bar.warp.sync");
        in->op = OP_BAR_WARP;
        in->flags |= PF_SYNC;
        return 0;
    }
    if (!b) return ptx_reason(why, n, "%s needs .sync, .arrive or .red", op);
    if (q->v[QC_SCOPE] && q->v[QC_SCOPE] != SCOPE_CTA) return ptx_reason(why, n, "the only barrier scope is .cta");
    if (b == BAR_RED) {
        int r = q->v[QC_BRED];
        if (!r) return ptx_reason(why, n, "%s.red needs .popc, .and or .or", op);
        if (one_type(q, in, r == PM_BAR_RED_POPC ? T(U32) : T(PRED), op, why, n)) return -1;
        in->mode = (uint8_t)r;
    } else {
        if (q->v[QC_BRED]) return ptx_reason(why, n, "a reduction operation needs .red");
        if (chk_none(q, in, op, why, n)) return -1;
        in->mode = b == BAR_SYNC ? PM_BAR_SYNC : PM_BAR_ARRIVE;
    }
    /* bar is barrier.aligned; barrier is aligned only when it says so. */
    if (strcmp(op, "bar") == 0) in->flags |= PF_ALIGNED;
    return 0;
}

static int chk_membar(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    static const uint8_t lvl[] = {0, PM_LVL_CTA, PM_LVL_GL, PM_LVL_SYS, PM_LVL_GL};
    int l = q->v[QC_LEVEL];
    if (in->op == OP_MEMBAR) {
        if (!l || l == LVL_GPU) return ptx_reason(why, n, "membar needs .cta, .gl or .sys");
    } else {
        if (!l || l == LVL_GL) return ptx_reason(why, n, "fence needs a scope (.cta, .gpu or .sys)");
        int sem = q->v[QC_SEM];
        if (sem && sem != SEM_SC && sem != SEM_ACQ_REL) return ptx_reason(why, n, "fence takes only .sc or .acq_rel");
    }
    in->mode = lvl[l];
    return chk_none(q, in, op, why, n);
}

static int chk_shfl(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (!q->v[QC_SYNC]) return ptx_reason(why, n, "shfl without .sync is not supported (use shfl.sync)");
    if (!q->v[QC_SHFL]) return ptx_reason(why, n, "shfl needs .up, .down, .bfly or .idx");
    if (one_type(q, in, T(B32), op, why, n)) return -1;
    in->mode = q->v[QC_SHFL];
    return 0;
}

static int chk_vote(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (!q->v[QC_SYNC]) return ptx_reason(why, n, "vote without .sync is not supported (use vote.sync)");
    int v = q->v[QC_VOTE];
    if (!v) return ptx_reason(why, n, "vote needs .all, .any, .uni or .ballot");
    if (one_type(q, in, v == PM_VOTE_BALLOT ? T(B32) : T(PRED), op, why, n)) return -1;
    in->mode = (uint8_t)v;
    return 0;
}

static int chk_b32(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, T(B32), op, why, n);
}

static int chk_u32(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, T(U32), op, why, n);
}

#define FLT_Q (Q(TYPE) | Q(RND) | Q(FTZ) | Q(SAT))
#define MEM_Q (Q(TYPE) | Q(SPACE) | Q(VEC) | Q(VOLATILE) | Q(SEM) | Q(SCOPE) | Q(CACHE))

static const ptx_opspec ops[] = {
    {"abs", OP_ABS, Q(TYPE) | Q(FTZ), chk_absneg},
    {"activemask", OP_ACTIVEMASK, Q(TYPE), chk_b32},
    {"add", OP_ADD, FLT_Q | Q(CC), chk_addsub},
    {"addc", OP_ADDC, Q(TYPE) | Q(CC), chk_int3264},
    {"and", OP_AND, Q(TYPE), chk_logic},
    {"atom", OP_ATOM, Q(TYPE) | Q(SPACE) | Q(ATOM) | Q(SEM) | Q(SCOPE), chk_atom},
    {"bar", OP_BAR, Q(TYPE) | Q(BAR) | Q(BRED) | Q(WARP) | Q(SCOPE), chk_bar},
    {"barrier", OP_BAR, Q(TYPE) | Q(BAR) | Q(BRED) | Q(SCOPE) | Q(ALIGNED), chk_bar},
    {"bfe", OP_BFE, Q(TYPE), chk_int3264},
    {"bfi", OP_BFI, Q(TYPE), chk_b3264},
    {"bfind", OP_BFIND, Q(TYPE) | Q(SHIFTAMT), chk_bfind},
    {"bra", OP_BRA, Q(UNI), chk_none},
    {"brev", OP_BREV, Q(TYPE), chk_b3264},
    {"brx", OP_BRX_IDX, Q(IDX) | Q(UNI), chk_brx},
    {"call", OP_CALL, Q(UNI), chk_none},
    {"clz", OP_CLZ, Q(TYPE), chk_b3264},
    {"cnot", OP_CNOT, Q(TYPE), chk_bits},
    {"copysign", OP_COPYSIGN, Q(TYPE), chk_flt},
    {"cos", OP_COS, Q(TYPE) | Q(APPROX) | Q(FTZ), chk_approx_f32},
    {"cvt", OP_CVT, FLT_Q, chk_cvt},
    {"cvta", OP_CVTA, Q(TYPE) | Q(SPACE) | Q(TO), chk_cvta},
    {"div", OP_DIV, FLT_Q | Q(APPROX) | Q(FULL), chk_div},
    {"ex2", OP_EX2, Q(TYPE) | Q(APPROX) | Q(FTZ), chk_approx_f32},
    {"exit", OP_EXIT, 0, chk_none},
    {"fence", OP_FENCE, Q(LEVEL) | Q(SEM), chk_membar},
    {"fma", OP_FMA, FLT_Q, chk_fma},
    {"ld", OP_LD, MEM_Q | Q(NC), chk_ldst},
    {"lg2", OP_LG2, Q(TYPE) | Q(APPROX) | Q(FTZ), chk_approx_f32},
    {"mad", OP_MAD, FLT_Q | Q(MUL) | Q(CC), chk_mad},
    {"mad24", OP_MAD24, Q(TYPE) | Q(MUL) | Q(SAT), chk_mul24},
    {"madc", OP_MADC, Q(TYPE) | Q(MUL) | Q(CC), chk_madc},
    {"max", OP_MAX, Q(TYPE) | Q(FTZ), chk_minmax},
    {"membar", OP_MEMBAR, Q(LEVEL), chk_membar},
    {"min", OP_MIN, Q(TYPE) | Q(FTZ), chk_minmax},
    {"mov", OP_MOV, Q(TYPE) | Q(INDIRECT), chk_mov},
    {"mul", OP_MUL, FLT_Q | Q(MUL), chk_mul},
    {"mul24", OP_MUL24, Q(TYPE) | Q(MUL), chk_mul24},
    {"nanosleep", OP_NANOSLEEP, Q(TYPE), chk_u32},
    {"neg", OP_NEG, Q(TYPE) | Q(FTZ), chk_absneg},
    {"not", OP_NOT, Q(TYPE), chk_logic},
    {"or", OP_OR, Q(TYPE), chk_logic},
    {"popc", OP_POPC, Q(TYPE), chk_b3264},
    {"prmt", OP_PRMT, Q(TYPE) | Q(PRMT), chk_prmt},
    {"rcp", OP_RCP, Q(TYPE) | Q(RND) | Q(FTZ) | Q(APPROX), chk_rcp_sqrt},
    {"red", OP_RED, Q(TYPE) | Q(SPACE) | Q(ATOM) | Q(SEM) | Q(SCOPE), chk_atom},
    {"rem", OP_REM, Q(TYPE), chk_int},
    {"ret", OP_RET, Q(UNI), chk_none},
    {"rsqrt", OP_RSQRT, Q(TYPE) | Q(FTZ) | Q(APPROX), chk_rsqrt},
    {"sad", OP_SAD, Q(TYPE), chk_int},
    {"selp", OP_SELP, Q(TYPE), chk_selp},
    {"set", OP_SET, Q(TYPE) | Q(CMP) | Q(BOOL) | Q(FTZ), chk_set},
    {"setp", OP_SETP, Q(TYPE) | Q(CMP) | Q(BOOL) | Q(FTZ), chk_setp},
    {"shf", OP_SHF, Q(TYPE) | Q(SHF) | Q(WRAP) | Q(CLAMP), chk_shf},
    {"shfl", OP_SHFL, Q(TYPE) | Q(SYNC) | Q(SHFL), chk_shfl},
    {"shl", OP_SHL, Q(TYPE), chk_bits},
    {"shr", OP_SHR, Q(TYPE), chk_shr},
    {"sin", OP_SIN, Q(TYPE) | Q(APPROX) | Q(FTZ), chk_approx_f32},
    {"slct", OP_SLCT, Q(TYPE) | Q(FTZ), chk_slct},
    {"sqrt", OP_SQRT, Q(TYPE) | Q(RND) | Q(FTZ) | Q(APPROX), chk_rcp_sqrt},
    {"st", OP_ST, MEM_Q, chk_ldst},
    {"sub", OP_SUB, FLT_Q | Q(CC), chk_addsub},
    {"subc", OP_SUBC, Q(TYPE) | Q(CC), chk_int3264},
    {"tanh", OP_TANH, Q(TYPE) | Q(APPROX) | Q(FTZ), chk_approx_f32},
    {"testp", OP_TESTP, Q(TYPE) | Q(TESTP), chk_testp},
    {"trap", OP_TRAP, 0, chk_none},
    {"vote", OP_VOTE, Q(TYPE) | Q(SYNC) | Q(VOTE), chk_vote},
    {"xor", OP_XOR, Q(TYPE), chk_logic},
};

int ptx_cmp_name(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c) return c;
    return alen < blen ? -1 : alen > blen;
}

const ptx_opspec *ptx_find_opspec(const char *s, size_t len)
{
    size_t lo = 0, hi = sizeof ops / sizeof ops[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = ptx_cmp_name(s, len, ops[mid].name);
        if (c == 0) return &ops[mid];
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}

