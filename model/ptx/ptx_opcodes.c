#include "ptx_opcodes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- qualifiers ---- */

/* Classes of qualifiers. A qualifier string may belong to several ("lo": compare or mul
 * mode); the opcode's allowed classes pick one. */
enum qclass {
    QC_TYPE, QC_SPACE, QC_RND, QC_CMP, QC_BOOL, QC_MUL, QC_SHFL, QC_VOTE, QC_ATOM, QC_SHF, QC_BAR, QC_BRED,
    QC_LEVEL, QC_TESTP, QC_PRMT, QC_VEC, QC_SEM, QC_SCOPE, QC_CACHE, QC_WARP, QC_IDX, QC_TO, QC_ALIGNED, QC_UNI,
    QC_SYNC, QC_FTZ, QC_SAT, QC_APPROX, QC_FULL, QC_CC, QC_NC, QC_VOLATILE, QC_WRAP, QC_CLAMP, QC_SHIFTAMT,
    QC_COUNT
};
#define Q(c) (1ull << QC_##c)

static const char *const qclass_name[QC_COUNT] = {
    "type", "state space", "rounding", "comparison", "boolean operation", "multiply mode", "shuffle mode",
    "vote mode", "atomic operation", "funnel-shift direction", "barrier operation", "barrier reduction",
    "membar level", "testp property", "prmt mode", "vector", "memory order", "scope", "cache operator", ".warp",
    ".idx", ".to", ".aligned", ".uni", ".sync", ".ftz", ".sat", ".approx", ".full", ".cc", ".nc", ".volatile",
    ".wrap", ".clamp", ".shiftamt"};

enum { BAR_SYNC = 1, BAR_ARRIVE, BAR_RED };
enum { LVL_CTA = 1, LVL_GL, LVL_SYS, LVL_GPU };
enum { SEM_RELAXED = 1, SEM_ACQUIRE, SEM_RELEASE, SEM_ACQ_REL, SEM_SC, SEM_WEAK };
enum { SCOPE_CTA = 1, SCOPE_GPU, SCOPE_SYS };
#define TYPE_UNSUPPORTED 0xFF

typedef struct qual {
    const char *name;
    uint8_t cls;
    uint8_t val;
} qual;

/* Entries with the same name are adjacent; the first whose class the opcode allows wins. */
static const qual quals[] = {
    {"pred", QC_TYPE, PT_PRED}, {"b8", QC_TYPE, PT_B8}, {"b16", QC_TYPE, PT_B16}, {"b32", QC_TYPE, PT_B32},
    {"b64", QC_TYPE, PT_B64}, {"u8", QC_TYPE, PT_U8}, {"u16", QC_TYPE, PT_U16}, {"u32", QC_TYPE, PT_U32},
    {"u64", QC_TYPE, PT_U64}, {"s8", QC_TYPE, PT_S8}, {"s16", QC_TYPE, PT_S16}, {"s32", QC_TYPE, PT_S32},
    {"s64", QC_TYPE, PT_S64}, {"f16", QC_TYPE, PT_F16}, {"f32", QC_TYPE, PT_F32}, {"f64", QC_TYPE, PT_F64},
    {"bf16", QC_TYPE, TYPE_UNSUPPORTED}, {"f16x2", QC_TYPE, TYPE_UNSUPPORTED}, {"bf16x2", QC_TYPE, TYPE_UNSUPPORTED},
    {"b128", QC_TYPE, TYPE_UNSUPPORTED}, {"tf32", QC_TYPE, TYPE_UNSUPPORTED}, {"e4m3", QC_TYPE, TYPE_UNSUPPORTED},
    {"e5m2", QC_TYPE, TYPE_UNSUPPORTED}, {"e4m3x2", QC_TYPE, TYPE_UNSUPPORTED}, {"e5m2x2", QC_TYPE, TYPE_UNSUPPORTED},
    {"s4", QC_TYPE, TYPE_UNSUPPORTED}, {"u4", QC_TYPE, TYPE_UNSUPPORTED}, {"b1", QC_TYPE, TYPE_UNSUPPORTED},
    {"s16x2", QC_TYPE, TYPE_UNSUPPORTED}, {"u16x2", QC_TYPE, TYPE_UNSUPPORTED}, {"f64x2", QC_TYPE, TYPE_UNSUPPORTED},
    {"global", QC_SPACE, PS_GLOBAL}, {"shared", QC_SPACE, PS_SHARED}, {"shared::cta", QC_SPACE, PS_SHARED},
    {"local", QC_SPACE, PS_LOCAL}, {"const", QC_SPACE, PS_CONST}, {"param", QC_SPACE, PS_PARAM},
    {"rn", QC_RND, PR_RN}, {"rz", QC_RND, PR_RZ}, {"rm", QC_RND, PR_RM}, {"rp", QC_RND, PR_RP},
    {"rni", QC_RND, PR_RNI}, {"rzi", QC_RND, PR_RZI}, {"rmi", QC_RND, PR_RMI}, {"rpi", QC_RND, PR_RPI},
    {"eq", QC_CMP, PC_EQ}, {"ne", QC_CMP, PC_NE}, {"lt", QC_CMP, PC_LT}, {"le", QC_CMP, PC_LE},
    {"gt", QC_CMP, PC_GT}, {"ge", QC_CMP, PC_GE}, {"lo", QC_CMP, PC_LO}, {"lo", QC_MUL, PM_LO},
    {"ls", QC_CMP, PC_LS}, {"hi", QC_CMP, PC_HI}, {"hi", QC_MUL, PM_HI}, {"hs", QC_CMP, PC_HS},
    {"equ", QC_CMP, PC_EQU}, {"neu", QC_CMP, PC_NEU}, {"ltu", QC_CMP, PC_LTU}, {"leu", QC_CMP, PC_LEU},
    {"gtu", QC_CMP, PC_GTU}, {"geu", QC_CMP, PC_GEU}, {"num", QC_CMP, PC_NUM}, {"nan", QC_CMP, PC_NAN},
    {"and", QC_BOOL, PB_AND}, {"and", QC_ATOM, PM_ATOM_AND}, {"and", QC_BRED, PM_BAR_RED_AND},
    {"or", QC_BOOL, PB_OR}, {"or", QC_ATOM, PM_ATOM_OR}, {"or", QC_BRED, PM_BAR_RED_OR},
    {"xor", QC_BOOL, PB_XOR}, {"xor", QC_ATOM, PM_ATOM_XOR},
    {"popc", QC_BRED, PM_BAR_RED_POPC},
    {"wide", QC_MUL, PM_WIDE},
    {"up", QC_SHFL, PM_SHFL_UP}, {"down", QC_SHFL, PM_SHFL_DOWN}, {"bfly", QC_SHFL, PM_SHFL_BFLY},
    {"idx", QC_SHFL, PM_SHFL_IDX}, {"idx", QC_IDX, 1},
    {"all", QC_VOTE, PM_VOTE_ALL}, {"any", QC_VOTE, PM_VOTE_ANY}, {"uni", QC_UNI, 1}, {"uni", QC_VOTE, PM_VOTE_UNI},
    {"ballot", QC_VOTE, PM_VOTE_BALLOT},
    {"add", QC_ATOM, PM_ATOM_ADD}, {"min", QC_ATOM, PM_ATOM_MIN}, {"max", QC_ATOM, PM_ATOM_MAX},
    {"inc", QC_ATOM, PM_ATOM_INC}, {"dec", QC_ATOM, PM_ATOM_DEC}, {"exch", QC_ATOM, PM_ATOM_EXCH},
    {"cas", QC_ATOM, PM_ATOM_CAS},
    {"l", QC_SHF, PM_SHF_L}, {"r", QC_SHF, PM_SHF_R},
    {"sync", QC_BAR, BAR_SYNC}, {"sync", QC_SYNC, 1}, {"arrive", QC_BAR, BAR_ARRIVE}, {"red", QC_BAR, BAR_RED},
    {"cta", QC_LEVEL, LVL_CTA}, {"cta", QC_SCOPE, SCOPE_CTA}, {"gl", QC_LEVEL, LVL_GL},
    {"sys", QC_LEVEL, LVL_SYS}, {"sys", QC_SCOPE, SCOPE_SYS}, {"gpu", QC_LEVEL, LVL_GPU}, {"gpu", QC_SCOPE, SCOPE_GPU},
    {"finite", QC_TESTP, PM_TESTP_FINITE}, {"infinite", QC_TESTP, PM_TESTP_INFINITE},
    {"number", QC_TESTP, PM_TESTP_NUMBER}, {"notanumber", QC_TESTP, PM_TESTP_NOTANUMBER},
    {"normal", QC_TESTP, PM_TESTP_NORMAL}, {"subnormal", QC_TESTP, PM_TESTP_SUBNORMAL},
    {"f4e", QC_PRMT, PM_PRMT_F4E}, {"b4e", QC_PRMT, PM_PRMT_B4E}, {"rc8", QC_PRMT, PM_PRMT_RC8},
    {"ecl", QC_PRMT, PM_PRMT_ECL}, {"ecr", QC_PRMT, PM_PRMT_ECR}, {"rc16", QC_PRMT, PM_PRMT_RC16},
    {"v2", QC_VEC, 2}, {"v4", QC_VEC, 4},
    {"relaxed", QC_SEM, SEM_RELAXED}, {"acquire", QC_SEM, SEM_ACQUIRE}, {"release", QC_SEM, SEM_RELEASE},
    {"acq_rel", QC_SEM, SEM_ACQ_REL}, {"sc", QC_SEM, SEM_SC}, {"weak", QC_SEM, SEM_WEAK},
    {"ca", QC_CACHE, 1}, {"cg", QC_CACHE, 2}, {"cs", QC_CACHE, 3}, {"lu", QC_CACHE, 4}, {"cv", QC_CACHE, 5},
    {"wb", QC_CACHE, 6}, {"wt", QC_CACHE, 7},
    {"warp", QC_WARP, 1}, {"to", QC_TO, 1}, {"aligned", QC_ALIGNED, 1}, {"ftz", QC_FTZ, 1}, {"sat", QC_SAT, 1},
    {"approx", QC_APPROX, 1}, {"full", QC_FULL, 1}, {"cc", QC_CC, 1}, {"nc", QC_NC, 1},
    {"volatile", QC_VOLATILE, 1}, {"wrap", QC_WRAP, 1}, {"clamp", QC_CLAMP, 1}, {"shiftamt", QC_SHIFTAMT, 1},
};

/* Decoded qualifiers of one instruction: v[class] = value, 0 when absent. */
typedef struct qd {
    uint8_t v[QC_COUNT];
    uint8_t types[2];
    uint8_t ntypes;
} qd;

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

static int fail(char *why, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail(char *why, size_t n, const char *fmt, ...)
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
    if (q->ntypes == 0) return fail(why, n, "%s needs a type qualifier", op);
    if (q->ntypes > 1) return fail(why, n, "%s takes one type qualifier, not two", op);
    int t = q->types[0];
    if (t == PT_F16) return fail(why, n, ".f16 arithmetic is not supported");
    if (!(set & (1u << t))) return fail(why, n, "type .%s is not valid for %s", tname(t), op);
    in->type = (uint8_t)t;
    return 0;
}

static int two_types(const qd *q, ptx_instr *in, uint32_t set1, uint32_t set2, const char *op, char *why, size_t n)
{
    if (q->ntypes != 2) return fail(why, n, "%s needs two type qualifiers", op);
    for (int k = 0; k < 2; k++) {
        int t = q->types[k];
        if (t == PT_F16) return fail(why, n, ".f16 arithmetic is not supported");
        if (!((k ? set2 : set1) & (1u << t)))
            return fail(why, n, "type .%s is not valid as the %s type of %s", tname(t), k ? "source" : "destination", op);
    }
    in->type = q->types[0];
    in->type2 = q->types[1];
    return 0;
}

static int forbid(const qd *q, int cls, const char *when, char *why, size_t n)
{
    if (q->v[cls]) return fail(why, n, "%s is not valid %s", qclass_name[cls], when);
    return 0;
}

/* ---- per-opcode checks: validate the combination and set type/type2/mode ---- */

typedef int (*check_fn)(const qd *q, ptx_instr *in, const char *op, char *why, size_t n);

/* Floating-point qualifiers (rounding, .ftz, .sat) on an integer type, and .ftz/.sat on f64. */
static int float_quals(const qd *q, const ptx_instr *in, char *why, size_t n)
{
    if (is_flt(in->type)) {
        if (q->v[QC_RND] && !float_rnd(q->v[QC_RND]))
            return fail(why, n, "integer rounding is not valid for a floating-point result");
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
    if (q->v[QC_SAT] && in->type != PT_S32) return fail(why, n, ".sat is only valid for .s32");
    if (q->v[QC_CC] && !((1u << in->type) & TS_I3264)) return fail(why, n, ".cc needs a 32- or 64-bit integer type");
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
    if (q->v[QC_SAT]) return fail(why, n, ".sat is not valid for integer mul");
    if (!q->v[QC_MUL]) return fail(why, n, "integer %s needs .lo, .hi or .wide", op);
    if (q->v[QC_MUL] == PM_WIDE && ptx_type_size((ptx_type)in->type) == 8)
        return fail(why, n, ".wide is only valid for 16- and 32-bit types");
    in->mode = q->v[QC_MUL];
    return 0;
}

static int chk_mad(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_INT | TS_FLT, op, why, n) || float_quals(q, in, why, n)) return -1;
    if (is_flt(in->type)) {
        if (forbid(q, QC_MUL, "for floating-point types", why, n) || forbid(q, QC_CC, "for floating-point types", why, n))
            return -1;
        if (!q->v[QC_RND]) return fail(why, n, "floating-point mad needs a rounding qualifier (.rn, .rz, .rm, .rp)");
        return 0;
    }
    if (!q->v[QC_MUL]) return fail(why, n, "integer mad needs .lo, .hi or .wide");
    if (q->v[QC_MUL] == PM_WIDE && ptx_type_size((ptx_type)in->type) == 8)
        return fail(why, n, ".wide is only valid for 16- and 32-bit types");
    if (q->v[QC_SAT] && !(q->v[QC_MUL] == PM_HI && in->type == PT_S32))
        return fail(why, n, ".sat is only valid for mad.hi.s32");
    if (q->v[QC_CC] && (q->v[QC_MUL] == PM_WIDE || !((1u << in->type) & TS_I3264)))
        return fail(why, n, ".cc needs .lo or .hi and a 32- or 64-bit integer type");
    in->mode = q->v[QC_MUL];
    return 0;
}

static int chk_madc(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_I3264, op, why, n)) return -1;
    if (q->v[QC_MUL] != PM_LO && q->v[QC_MUL] != PM_HI) return fail(why, n, "madc needs .lo or .hi");
    in->mode = q->v[QC_MUL];
    return 0;
}

static int chk_mul24(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, T(U32) | T(S32), op, why, n)) return -1;
    if (q->v[QC_MUL] != PM_LO && q->v[QC_MUL] != PM_HI) return fail(why, n, "%s needs .lo or .hi", op);
    if (q->v[QC_SAT] && !(in->op == OP_MAD24 && q->v[QC_MUL] == PM_HI && in->type == PT_S32))
        return fail(why, n, ".sat is only valid for mad24.hi.s32");
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
        if (q->v[QC_APPROX] || q->v[QC_FULL]) return fail(why, n, ".approx and .full are only valid for .f32");
        if (!q->v[QC_RND]) return fail(why, n, "div.f64 needs a rounding qualifier");
        return 0;
    }
    if (kinds != 1) return fail(why, n, "div.f32 needs exactly one of .approx, .full or a rounding qualifier");
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
    if (!q->v[QC_RND]) return fail(why, n, "fma needs a rounding qualifier (.rn, .rz, .rm, .rp)");
    return 0;
}

static int chk_rcp_sqrt(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_FLT, op, why, n)) return -1;
    if (q->v[QC_RND] && !float_rnd(q->v[QC_RND])) return fail(why, n, "integer rounding is not valid for %s", op);
    if (!!q->v[QC_APPROX] + !!q->v[QC_RND] != 1) return fail(why, n, "%s needs exactly one of .approx or a rounding qualifier", op);
    if (in->type == PT_F64) {
        if (in->op == OP_SQRT && q->v[QC_APPROX]) return fail(why, n, "sqrt.approx is only valid for .f32");
        if (q->v[QC_APPROX] && !q->v[QC_FTZ]) return fail(why, n, "rcp.approx.f64 needs .ftz");
        if (q->v[QC_RND] && q->v[QC_FTZ]) return fail(why, n, ".ftz is not valid for a rounded .f64 %s", op);
    }
    return 0;
}

static int chk_rsqrt(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_FLT, op, why, n)) return -1;
    if (!q->v[QC_APPROX]) return fail(why, n, "%s needs .approx", op);
    return 0;
}

static int chk_approx_f32(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, T(F32), op, why, n)) return -1;
    if (!q->v[QC_APPROX]) return fail(why, n, "%s needs .approx", op);
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
    if (!q->v[QC_TESTP]) return fail(why, n, "testp needs a property (.finite, .infinite, .number, .notanumber, .normal, .subnormal)");
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
    if (!q->v[QC_SHF]) return fail(why, n, "shf needs .l or .r");
    if (!!q->v[QC_WRAP] + !!q->v[QC_CLAMP] != 1) return fail(why, n, "shf needs exactly one of .wrap or .clamp");
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
    if (!cmp) return fail(why, n, "a comparison qualifier (.eq, .lt, ...) is missing");
    if (is_bits(t) && cmp != PC_EQ && cmp != PC_NE) return fail(why, n, "bit types compare only with .eq or .ne");
    if (cmp >= PC_LO && cmp <= PC_HS && (is_flt(t) || is_signed(t)))
        return fail(why, n, ".lo, .ls, .hi and .hs are only valid for unsigned types");
    if (cmp >= PC_EQU && !is_flt(t)) return fail(why, n, "unordered comparisons and .num/.nan are only valid for floating-point types");
    return 0;
}

#define TS_SETP (TS_BITS | TS_INT | TS_FLT)

static int chk_setp(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, TS_SETP, op, why, n) || cmp_ok(q->v[QC_CMP], in->type, why, n)) return -1;
    if (q->v[QC_FTZ] && in->type != PT_F32) return fail(why, n, ".ftz is only valid for .f32");
    return 0;
}

static int chk_set(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (two_types(q, in, T(U32) | T(S32) | T(F32), TS_SETP, op, why, n) || cmp_ok(q->v[QC_CMP], in->type2, why, n))
        return -1;
    if (q->v[QC_FTZ] && in->type2 != PT_F32) return fail(why, n, ".ftz is only valid for .f32 operands");
    return 0;
}

static int chk_selp(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, TS_SETP, op, why, n);
}

static int chk_slct(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (two_types(q, in, TS_SETP, T(S32) | T(F32), op, why, n)) return -1;
    if (q->v[QC_FTZ] && in->type2 != PT_F32) return fail(why, n, ".ftz is only valid with an .f32 selector");
    return 0;
}

static int chk_mov(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    return one_type(q, in, T(PRED) | TS_BITS | TS_INT | TS_FLT, op, why, n);
}

static int chk_cvt(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (q->ntypes == 2 && (is_bits(q->types[0]) || is_bits(q->types[1])))
        return fail(why, n, "cvt takes .u, .s or .f types, not .b");
    if (two_types(q, in, TS_CVT, TS_CVT, op, why, n)) return -1;
    int d = in->type, s = in->type2, r = q->v[QC_RND];
    if (is_flt(d) && is_flt(s)) {
        if (d == s) {
            if (r && !int_rnd(r)) return fail(why, n, "a float-to-same-float cvt takes only an integer rounding (.rni, .rzi, .rmi, .rpi)");
        } else if (d == PT_F32) {
            if (!float_rnd(r)) return fail(why, n, "cvt.f32.f64 needs a rounding qualifier (.rn, .rz, .rm, .rp)");
        } else if (r) {
            return fail(why, n, "cvt.f64.f32 is exact and takes no rounding qualifier");
        }
    } else if (is_flt(d)) {
        if (!float_rnd(r)) return fail(why, n, "an integer-to-float cvt needs a rounding qualifier (.rn, .rz, .rm, .rp)");
    } else if (is_flt(s)) {
        if (!int_rnd(r)) return fail(why, n, "a float-to-integer cvt needs an integer rounding qualifier (.rni, .rzi, .rmi, .rpi)");
    } else if (r) {
        return fail(why, n, "an integer-to-integer cvt takes no rounding qualifier");
    }
    if (q->v[QC_FTZ] && d != PT_F32 && s != PT_F32) return fail(why, n, ".ftz needs an .f32 operand");
    return 0;
}

static int chk_cvta(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (one_type(q, in, T(U32) | T(U64), op, why, n)) return -1;
    int s = q->v[QC_SPACE];
    if (!s) return fail(why, n, "cvta needs a state space (.global, .shared, .local, .const)");
    if (s == PS_PARAM) return fail(why, n, "cvta.param is not supported");
    return 0;
}

static int chk_ldst(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (q->ntypes == 1 && q->types[0] == PT_PRED) return fail(why, n, "%s cannot move .pred values", op);
    if (one_type(q, in, TS_MEM, op, why, n)) return -1;
    int s = q->v[QC_SPACE], st = in->op == OP_ST, sem = q->v[QC_SEM];
    if (st && s == PS_CONST) return fail(why, n, "st.const is not valid: constant memory is read-only");
    if (q->v[QC_VEC] == 4 && ptx_type_size((ptx_type)in->type) == 8)
        return fail(why, n, "a .v4 vector of 64-bit elements is not supported");
    if (q->v[QC_NC] && s != PS_GLOBAL) return fail(why, n, ".nc is only valid with .global");
    if (q->v[QC_VOLATILE] && (q->v[QC_NC] || sem)) return fail(why, n, ".volatile cannot be combined with .nc or a memory order");
    if (q->v[QC_VOLATILE] && s != PS_GENERIC && s != PS_GLOBAL && s != PS_SHARED && s != PS_LOCAL)
        return fail(why, n, ".volatile is only valid for generic, .global, .shared and .local addresses");
    if (sem) {
        if (s == PS_CONST || s == PS_PARAM || s == PS_LOCAL)
            return fail(why, n, "a memory order is not valid with .%s", ptx_space_name((ptx_space)s));
        if (sem == SEM_ACQ_REL || sem == SEM_SC || (st && sem == SEM_ACQUIRE) || (!st && sem == SEM_RELEASE))
            return fail(why, n, "this memory order is not valid for %s", op);
    }
    if (s == PS_PARAM && (q->v[QC_CACHE] || q->v[QC_SCOPE])) return fail(why, n, "cache operators and scopes are not valid with .param");
    if (q->v[QC_SCOPE] && !sem) return fail(why, n, "a scope needs .relaxed, .acquire or .release");
    return 0;
}

static int chk_atom(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    int s = q->v[QC_SPACE], a = q->v[QC_ATOM];
    if (s != PS_GENERIC && s != PS_GLOBAL && s != PS_SHARED)
        return fail(why, n, "%s is only valid for generic, .global and .shared addresses", op);
    if (!a) return fail(why, n, "%s needs an operation (.add, .min, .max, .inc, .dec, .exch, .cas, .and, .or, .xor)", op);
    if (in->op == OP_RED && (a == PM_ATOM_CAS || a == PM_ATOM_EXCH)) return fail(why, n, "red has no .cas or .exch");
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
        return fail(why, n, "this memory order is not valid for %s", op);
    in->mode = (uint8_t)a;
    return 0;
}

static int chk_none(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    (void)in;
    if (q->ntypes) return fail(why, n, "%s takes no type qualifier", op);
    return 0;
}

static int chk_brx(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (!q->v[QC_IDX]) return fail(why, n, "brx needs .idx");
    return chk_none(q, in, op, why, n);
}

static int chk_bar(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    int b = q->v[QC_BAR];
    if (q->v[QC_WARP]) {
        if (b != BAR_SYNC || q->v[QC_BRED] || q->ntypes || q->v[QC_SCOPE] || q->v[QC_ALIGNED])
            return fail(why, n, "the only warp barrier is bar.warp.sync");
        in->op = OP_BAR_WARP;
        in->flags |= PF_SYNC;
        return 0;
    }
    if (!b) return fail(why, n, "%s needs .sync, .arrive or .red", op);
    if (q->v[QC_SCOPE] && q->v[QC_SCOPE] != SCOPE_CTA) return fail(why, n, "the only barrier scope is .cta");
    if (b == BAR_RED) {
        int r = q->v[QC_BRED];
        if (!r) return fail(why, n, "%s.red needs .popc, .and or .or", op);
        if (one_type(q, in, r == PM_BAR_RED_POPC ? T(U32) : T(PRED), op, why, n)) return -1;
        in->mode = (uint8_t)r;
    } else {
        if (q->v[QC_BRED]) return fail(why, n, "a reduction operation needs .red");
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
        if (!l || l == LVL_GPU) return fail(why, n, "membar needs .cta, .gl or .sys");
    } else {
        if (!l || l == LVL_GL) return fail(why, n, "fence needs a scope (.cta, .gpu or .sys)");
        int sem = q->v[QC_SEM];
        if (sem && sem != SEM_SC && sem != SEM_ACQ_REL) return fail(why, n, "fence takes only .sc or .acq_rel");
    }
    in->mode = lvl[l];
    return chk_none(q, in, op, why, n);
}

static int chk_shfl(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (!q->v[QC_SYNC]) return fail(why, n, "shfl without .sync is not supported (use shfl.sync)");
    if (!q->v[QC_SHFL]) return fail(why, n, "shfl needs .up, .down, .bfly or .idx");
    if (one_type(q, in, T(B32), op, why, n)) return -1;
    in->mode = q->v[QC_SHFL];
    return 0;
}

static int chk_vote(const qd *q, ptx_instr *in, const char *op, char *why, size_t n)
{
    if (!q->v[QC_SYNC]) return fail(why, n, "vote without .sync is not supported (use vote.sync)");
    int v = q->v[QC_VOTE];
    if (!v) return fail(why, n, "vote needs .all, .any, .uni or .ballot");
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

/* ---- the opcode table (sorted by name for bsearch) ---- */

typedef struct opspec {
    const char *name;
    uint16_t op;
    uint64_t allowed; /* qualifier classes */
    check_fn check;
} opspec;

#define FLT_Q (Q(TYPE) | Q(RND) | Q(FTZ) | Q(SAT))
#define MEM_Q (Q(TYPE) | Q(SPACE) | Q(VEC) | Q(VOLATILE) | Q(SEM) | Q(SCOPE) | Q(CACHE))

static const opspec ops[] = {
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
    {"mov", OP_MOV, Q(TYPE), chk_mov},
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

/* Opcodes that exist in PTX but not in gtlm's subset, with the reason given to the user. */
static const struct {
    const char *name, *why;
} rejected[] = {
    {"tex", "texture instructions are not supported"}, {"tld4", "texture instructions are not supported"},
    {"txq", "texture instructions are not supported"}, {"istypep", "texture instructions are not supported"},
    {"suld", "surface instructions are not supported"}, {"sust", "surface instructions are not supported"},
    {"sured", "surface instructions are not supported"}, {"suq", "surface instructions are not supported"},
    {"mma", "matrix (tensor core) instructions are not supported"},
    {"wmma", "matrix (tensor core) instructions are not supported"},
    {"ldmatrix", "matrix (tensor core) instructions are not supported"},
    {"stmatrix", "matrix (tensor core) instructions are not supported"},
    {"movmatrix", "matrix (tensor core) instructions are not supported"},
    {"wgmma", "matrix (tensor core) instructions are not supported"},
    {"tcgen05", "matrix (tensor core) instructions are not supported"},
    {"cp", "asynchronous copies (cp.async, cp.reduce.async) are not supported"},
    {"mbarrier", "mbarrier objects are not supported"},
    {"griddepcontrol", "programmatic dependent launch is not supported"},
    {"dp4a", "dot-product instructions are not supported"}, {"dp2a", "dot-product instructions are not supported"},
    {"pmevent", "performance-monitor events are not supported"},
    {"ldu", "ldu is not supported (use ld.global.nc)"},
    {"prefetch", "cache-control instructions are not supported"},
    {"prefetchu", "cache-control instructions are not supported"},
    {"applypriority", "cache-control instructions are not supported"},
    {"discard", "cache-control instructions are not supported"},
    {"createpolicy", "cache-control instructions are not supported"},
    {"alloca", "dynamic stack allocation is not supported"},
    {"stacksave", "dynamic stack allocation is not supported"},
    {"stackrestore", "dynamic stack allocation is not supported"},
    {"isspacep", "isspacep is not supported"}, {"lop3", "lop3 is not in gtlm's PTX subset"},
    {"redux", "redux.sync is not in gtlm's PTX subset"}, {"match", "match.sync is not in gtlm's PTX subset"},
    {"fns", "fns is not in gtlm's PTX subset"}, {"elect", "elect.sync is not in gtlm's PTX subset"},
    {"mapa", "clusters are not supported"}, {"getctarank", "clusters are not supported"},
    {"clusterlaunchcontrol", "clusters are not supported"}, {"setmaxnreg", "setmaxnreg is not supported"},
    {"multimem", "multimem is not supported"}, {"tensormap", "tensor maps are not supported"},
    {"vabsdiff", "video instructions are not supported"}, {"vadd", "video instructions are not supported"},
    {"vsub", "video instructions are not supported"}, {"vmin", "video instructions are not supported"},
    {"vmax", "video instructions are not supported"}, {"vshl", "video instructions are not supported"},
    {"vshr", "video instructions are not supported"}, {"vmad", "video instructions are not supported"},
    {"vset", "video instructions are not supported"}, {"vadd2", "video instructions are not supported"},
    {"vadd4", "video instructions are not supported"}, {"vsub2", "video instructions are not supported"},
    {"vsub4", "video instructions are not supported"}, {"vavrg2", "video instructions are not supported"},
    {"vavrg4", "video instructions are not supported"}, {"vabsdiff2", "video instructions are not supported"},
    {"vabsdiff4", "video instructions are not supported"}, {"vmin2", "video instructions are not supported"},
    {"vmin4", "video instructions are not supported"}, {"vmax2", "video instructions are not supported"},
    {"vmax4", "video instructions are not supported"}, {"vset2", "video instructions are not supported"},
    {"vset4", "video instructions are not supported"},
};

static int cmp_name(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c) return c;
    return alen < blen ? -1 : alen > blen;
}

static const opspec *find_op(const char *s, size_t len)
{
    size_t lo = 0, hi = sizeof ops / sizeof ops[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = cmp_name(s, len, ops[mid].name);
        if (c == 0) return &ops[mid];
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}

static const char *rejected_why(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++)
        if (cmp_name(s, len, rejected[i].name) == 0) return rejected[i].why;
    return NULL;
}

int ptx_type_from_name(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof quals / sizeof quals[0] && quals[i].cls == QC_TYPE; i++)
        if (cmp_name(s, len, quals[i].name) == 0) return quals[i].val == TYPE_UNSUPPORTED ? -1 : quals[i].val;
    return PT_NONE;
}

/* Applies one qualifier; returns -1 with why when it is unknown, invalid here or repeated. */
static int add_qual(qd *q, const opspec *spec, const char *s, size_t len, char *why, size_t n)
{
    int known = 0;
    for (size_t i = 0; i < sizeof quals / sizeof quals[0]; i++) {
        const qual *ql = &quals[i];
        if (cmp_name(s, len, ql->name) != 0) continue;
        known = 1;
        if (!(spec->allowed & (1ull << ql->cls))) continue;
        if (ql->cls == QC_TYPE) {
            if (ql->val == TYPE_UNSUPPORTED) return fail(why, n, "type .%.*s is not supported", (int)len, s);
            if (q->ntypes == 2) return fail(why, n, "too many type qualifiers");
            q->types[q->ntypes++] = ql->val;
            return 0;
        }
        if (q->v[ql->cls]) return fail(why, n, "more than one %s qualifier", qclass_name[ql->cls]);
        q->v[ql->cls] = ql->val;
        return 0;
    }
    if (known) return fail(why, n, "qualifier .%.*s is not valid for %s", (int)len, s, spec->name);
    return fail(why, n, "unknown qualifier .%.*s", (int)len, s);
}

int ptx_decode_opcode(const char *text, size_t len, ptx_instr *in, char *why, size_t whylen)
{
    size_t dot = 0;
    while (dot < len && text[dot] != '.') dot++;
    const opspec *spec = find_op(text, dot);
    if (!spec) {
        const char *r = rejected_why(text, dot);
        if (r) return fail(why, whylen, "%s", r);
        return fail(why, whylen, "unknown opcode '%.*s'", (int)dot, text);
    }
    qd q;
    memset(&q, 0, sizeof q);
    for (size_t i = dot; i < len;) {
        size_t j = i + 1;
        while (j < len && text[j] != '.') j++;
        if (j == i + 1) return fail(why, whylen, "empty qualifier");
        if (add_qual(&q, spec, text + i + 1, j - i - 1, why, whylen)) return -1;
        i = j;
    }
    in->op = spec->op;
    if (spec->check(&q, in, spec->name, why, whylen)) return -1;
    in->space = q.v[QC_SPACE];
    in->rnd = q.v[QC_RND];
    in->cmp = q.v[QC_CMP];
    in->boolop = q.v[QC_BOOL];
    in->vec = q.v[QC_VEC] ? q.v[QC_VEC] : 1;
    static const struct {
        uint8_t cls;
        uint32_t flag;
    } flags[] = {{QC_FTZ, PF_FTZ}, {QC_SAT, PF_SAT}, {QC_APPROX, PF_APPROX}, {QC_FULL, PF_FULL}, {QC_CC, PF_CC},
                 {QC_UNI, PF_UNI}, {QC_NC, PF_NC}, {QC_VOLATILE, PF_VOLATILE}, {QC_WRAP, PF_WRAP},
                 {QC_CLAMP, PF_CLAMP}, {QC_SHIFTAMT, PF_SHIFTAMT}, {QC_TO, PF_TO}, {QC_SYNC, PF_SYNC},
                 {QC_ALIGNED, PF_ALIGNED}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (q.v[flags[i].cls]) in->flags |= flags[i].flag;
    switch (q.v[QC_SEM]) {
    case SEM_RELAXED: in->flags |= PF_RELAXED; break;
    case SEM_ACQUIRE: in->flags |= PF_ACQUIRE; break;
    case SEM_RELEASE: in->flags |= PF_RELEASE; break;
    case SEM_ACQ_REL: in->flags |= PF_ACQUIRE | PF_RELEASE; break;
    default: break;
    }
    return 0;
}

/* ---- operand patterns ---- */

const char *ptx_operand_pattern(const ptx_instr *in, unsigned n, const char **expect)
{
    const char *p = NULL, *alt = NULL; /* alt: a second valid form */
    switch ((ptx_op)in->op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_REM: case OP_MIN: case OP_MAX: case OP_AND:
    case OP_OR: case OP_XOR: case OP_ADDC: case OP_SUBC: case OP_MUL24: case OP_COPYSIGN:
        p = "dss"; break;
    case OP_SHL: case OP_SHR: p = "dsi"; break;
    case OP_MAD: case OP_MADC: case OP_MAD24: case OP_FMA: case OP_SAD: case OP_PRMT: p = "dsss"; break;
    case OP_BFE: p = "dsii"; break;
    case OP_BFI: p = "dssii"; break;
    case OP_SHF: p = "dssi"; break;
    case OP_ABS: case OP_NEG: case OP_NOT: case OP_CNOT: case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFIND:
    case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
    case OP_TESTP:
        p = "ds"; break;
    case OP_SETP: p = in->boolop ? "Dssp" : "Dss"; break;
    case OP_SET: p = in->boolop ? "dttp" : "dtt"; break;
    case OP_SELP: p = "dssp"; break;
    case OP_SLCT: p = "dsst"; break;
    case OP_MOV: p = "um"; break;
    case OP_CVT: p = "dt"; break;
    case OP_CVTA: p = "dy"; break;
    case OP_LD: p = "va"; break;
    case OP_ST: p = "aw"; break;
    case OP_ATOM: p = in->mode == PM_ATOM_CAS ? "dass" : "das"; break;
    case OP_RED: p = "as"; break;
    case OP_BRA: p = "l"; break;
    case OP_BRX_IDX: p = "ix"; break;
    case OP_RET: case OP_EXIT: case OP_TRAP: case OP_MEMBAR: case OP_FENCE: p = ""; break;
    case OP_BAR:
        if (in->mode == PM_BAR_SYNC) p = "i", alt = "ii";
        else if (in->mode == PM_BAR_ARRIVE) p = "ii";
        else p = "dip", alt = "diip";
        break;
    case OP_BAR_WARP: case OP_NANOSLEEP: p = "i"; break;
    case OP_SHFL: p = "Dsiii"; break;
    case OP_VOTE: p = "dpi"; break;
    case OP_ACTIVEMASK: p = "d"; break;
    default: break;
    }
    static const char *const counts[] = {"no", "1", "2", "3", "4", "5", "6"};
    if (p && strlen(p) == n) return p;
    if (alt && strlen(alt) == n) return alt;
    if (expect) {
        size_t a = p ? strlen(p) : 0;
        if (alt) {
            static const char *const pairs[] = {"1 or 2", "3 or 4"};
            *expect = a == 1 ? pairs[0] : pairs[1];
        } else {
            *expect = counts[a < 7 ? a : 6];
        }
    }
    return NULL;
}

/* ---- formatting ---- */

static const char *const mode_names[] = {
    "", "lo", "hi", "wide", "up", "down", "bfly", "idx", "all", "any", "uni", "ballot", "add", "min", "max", "inc",
    "dec", "exch", "cas", "and", "or", "xor", "l", "r", "sync", "arrive", "red.popc", "red.and", "red.or", "cta",
    "gl", "sys", "finite", "infinite", "number", "notanumber", "normal", "subnormal", "", "f4e", "b4e", "rc8",
    "ecl", "ecr", "rc16"};
static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
static const char *const cmp_names[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                        "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const bool_names[] = {"", "and", "or", "xor"};

typedef struct out {
    char *buf;
    size_t len, pos;
} out;

/* Appends ".s" (or s first), truncating at the buffer's end. */
static void put(out *o, const char *s)
{
    if (!s || !*s) return;
    if (o->pos && o->pos + 1 < o->len) o->buf[o->pos++] = '.';
    while (*s && o->pos + 1 < o->len) o->buf[o->pos++] = *s++;
    o->buf[o->pos] = '\0';
}

static const char *mode_name(int m) { return m < (int)(sizeof mode_names / sizeof *mode_names) ? mode_names[m] : "?"; }

void ptx_format_opcode(const ptx_instr *in, char *buf, size_t len)
{
    if (!len) return;
    buf[0] = '\0';
    out o = {buf, len, 0};
    uint32_t f = in->flags;
    const char *ty = in->type ? ptx_type_name((ptx_type)in->type) : NULL;
    const char *ty2 = in->type2 ? ptx_type_name((ptx_type)in->type2) : NULL;
    const char *sem = (f & PF_ACQUIRE) && (f & PF_RELEASE) ? "acq_rel"
                      : f & PF_ACQUIRE                     ? "acquire"
                      : f & PF_RELEASE                     ? "release"
                      : f & PF_RELAXED                     ? "relaxed"
                                                           : NULL;
    const char *rnd = in->rnd < 9 ? rnd_names[in->rnd] : "?";
    const char *space = in->space <= PS_PARAM ? ptx_space_name((ptx_space)in->space) : "?";
    switch ((ptx_op)in->op) {
    case OP_LD: case OP_ST:
        put(&o, ptx_op_name((ptx_op)in->op));
        put(&o, f & PF_VOLATILE ? "volatile" : sem);
        put(&o, space);
        put(&o, f & PF_NC ? "nc" : NULL);
        put(&o, in->vec == 2 ? "v2" : in->vec == 4 ? "v4" : NULL);
        put(&o, ty);
        return;
    case OP_ATOM: case OP_RED:
        put(&o, ptx_op_name((ptx_op)in->op));
        put(&o, sem);
        put(&o, space);
        put(&o, mode_name(in->mode));
        put(&o, ty);
        return;
    case OP_CVTA:
        put(&o, "cvta");
        put(&o, f & PF_TO ? "to" : NULL);
        put(&o, space);
        put(&o, ty);
        return;
    case OP_SETP: case OP_SET:
        put(&o, ptx_op_name((ptx_op)in->op));
        put(&o, in->cmp < 19 ? cmp_names[in->cmp] : "?");
        put(&o, in->boolop < 4 ? bool_names[in->boolop] : "?");
        put(&o, f & PF_FTZ ? "ftz" : NULL);
        put(&o, ty);
        put(&o, ty2);
        return;
    case OP_BAR:
        put(&o, f & PF_ALIGNED ? "bar" : "barrier");
        put(&o, mode_name(in->mode));
        put(&o, ty);
        return;
    case OP_BAR_WARP: put(&o, "bar.warp.sync"); return;
    case OP_BRX_IDX: put(&o, "brx.idx"); put(&o, f & PF_UNI ? "uni" : NULL); return;
    case OP_MEMBAR: put(&o, "membar"); put(&o, mode_name(in->mode)); return;
    case OP_FENCE:
        put(&o, "fence");
        put(&o, sem ? sem : "sc");
        put(&o, in->mode == PM_LVL_GL ? "gpu" : mode_name(in->mode));
        return;
    case OP_SHFL: case OP_VOTE:
        put(&o, ptx_op_name((ptx_op)in->op));
        put(&o, "sync");
        put(&o, mode_name(in->mode));
        put(&o, ty);
        return;
    case OP_PRMT:
        put(&o, "prmt");
        put(&o, ty);
        put(&o, in->mode == PM_PRMT_DEFAULT ? NULL : mode_name(in->mode));
        return;
    case OP_SHF:
        put(&o, "shf");
        put(&o, mode_name(in->mode));
        put(&o, f & PF_WRAP ? "wrap" : "clamp");
        put(&o, ty);
        return;
    default:
        put(&o, ptx_op_name((ptx_op)in->op));
        put(&o, in->mode ? mode_name(in->mode) : NULL);
        put(&o, rnd);
        put(&o, f & PF_APPROX ? "approx" : NULL);
        put(&o, f & PF_FULL ? "full" : NULL);
        put(&o, f & PF_SHIFTAMT ? "shiftamt" : NULL);
        put(&o, f & PF_FTZ ? "ftz" : NULL);
        put(&o, f & PF_SAT ? "sat" : NULL);
        put(&o, f & PF_CC ? "cc" : NULL);
        put(&o, f & PF_UNI ? "uni" : NULL);
        put(&o, ty);
        put(&o, ty2);
        return;
    }
}
