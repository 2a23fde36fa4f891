/*
 * The warp-wide ALU's entry points (simt_alu.h): which opcode/type/qualifier combinations are
 * implemented, and the dispatch to the family files. simt_alu checks simt_alu_supports first,
 * so exactly the supported combinations run and anything else returns SIMT_ALU_UNSUPPORTED
 * without writing a destination or the carry.
 *
 * Lenient readings (documented choices): integer mul/mad/madc/mul24/mad24 without .lo/.hi/.wide
 * act as .lo; float div/rcp/sqrt/fma/mad without a rounding qualifier act as .rn (what PTX
 * defaults to for sm_20+); cvt.f32.f64 and int->float without .rn act as .rn; setp/set on .bNN
 * accept every integer compare (unsigned), not only eq/ne.
 *
 * Field conventions read from ptx_instr: set.CMP.dtype.stype has type = dtype, type2 = stype;
 * slct.dtype.ctype has type2 = ctype (.s32/.f32); cvt has type = destination, type2 = source;
 * setp writes dst[1] only when o[0].reg2 != PTX_NO_REG.
 *
 * The host rounding mode is assumed to be round-to-nearest between calls (the ALU restores it
 * after every directed-rounding instruction).
 */
#include "alu_internal.h"

/* Qualifier bits the ALU interprets; any of them not allowed for the form is rejected. */
#define QUALS (PF_FTZ | PF_SAT | PF_APPROX | PF_FULL | PF_CC | PF_WRAP | PF_CLAMP | PF_SHIFTAMT | PF_NOFTZ)

static int only(const ptx_instr *in, uint32_t allowed) { return (in->flags & QUALS & ~allowed) == 0; }

static int is_int(unsigned t)
{
    return t == PT_S16 || t == PT_U16 || t == PT_S32 || t == PT_U32 || t == PT_S64 || t == PT_U64;
}
static int is_i3264(unsigned t) { return t == PT_S32 || t == PT_U32 || t == PT_S64 || t == PT_U64; }
static int is_bits(unsigned t) { return t == PT_B16 || t == PT_B32 || t == PT_B64; }
static int is_b32_64(unsigned t) { return t == PT_B32 || t == PT_B64; }
static int is_flt(unsigned t) { return t == PT_F32 || t == PT_F64; }
static int is_cvt_type(unsigned t) { return (t >= PT_U8 && t <= PT_S64) || (t >= PT_F16 && t <= PT_F64); }

/* No rounding qualifier, or a float one (.rn .rz .rm .rp). */
static int rnd_float(const ptx_instr *in) { return in->rnd <= PR_RP; }
static int rnd_integral(const ptx_instr *in) { return in->rnd >= PR_RNI && in->rnd <= PR_RPI; }
static int lohi(unsigned mode) { return mode == PM_NONE || mode == PM_LO || mode == PM_HI; }

/* Arithmetic on .f32 (with .ftz, and .sat where allowed) or .f64 (neither), rounding .rn-.rp. */
static int float_rounded(const ptx_instr *in, int sat_ok)
{
    if (in->mode != PM_NONE || !rnd_float(in))
        return 0;
    if (in->type == PT_F32)
        return only(in, PF_FTZ | (sat_ok ? PF_SAT : 0));
    return in->type == PT_F64 && only(in, 0);
}

/* f32/f64 ops without rounding qualifiers: .ftz for f32 (plus extra_f32), extra_f64 for f64. */
static int float_plain(const ptx_instr *in, uint32_t extra_f32, uint32_t extra_f64)
{
    if (in->mode != PM_NONE || in->rnd != PR_NONE)
        return 0;
    if (in->type == PT_F32)
        return only(in, PF_FTZ | extra_f32);
    return in->type == PT_F64 && only(in, extra_f64);
}

static int cmp_ok(unsigned type, unsigned cmp)
{
    if (is_flt(type))
        return cmp >= PC_EQ && cmp <= PC_NAN && !(cmp >= PC_LO && cmp <= PC_HS);
    if (is_int(type) || is_bits(type))
        return cmp >= PC_EQ && cmp <= PC_HS;
    return 0;
}

static int setp_like(const ptx_instr *in, unsigned ctype)
{
    if (!cmp_ok(ctype, in->cmp) || in->boolop > PB_XOR || in->rnd != PR_NONE)
        return 0;
    return only(in, ctype == PT_F32 ? PF_FTZ : 0);
}

static int selp_type(unsigned t) { return is_int(t) || is_bits(t) || is_flt(t); }

static int cvt_supported(const ptx_instr *in)
{
    const unsigned dt = in->type, st = in->type2;
    if (!is_cvt_type(dt) || !is_cvt_type(st) || in->mode != PM_NONE || !only(in, PF_FTZ | PF_SAT))
        return 0;
    const int dfl = dt >= PT_F16, sfl = st >= PT_F16;
    if (!dfl && !sfl)
        return in->rnd == PR_NONE && !(in->flags & PF_FTZ);
    if (!dfl)
        return rnd_integral(in);          /* float -> int needs .rni/.rzi/.rmi/.rpi */
    if (!sfl)
        return rnd_float(in);             /* int -> float */
    if (rnd_integral(in))
        return 1;                         /* round to integral value */
    if (in->rnd == PR_NONE)
        return 1;
    /* .rn .rz .rm .rp: only where the destination is narrower than the source */
    return alu_width(dt) < alu_width(st);
}

int simt_alu_supports(const ptx_instr *in)
{
    const unsigned t = in->type;
    switch (in->op) {
    case OP_ADD:
    case OP_SUB:
        if (is_int(t)) {
            if (in->rnd != PR_NONE || in->mode != PM_NONE)
                return 0;
            if (in->flags & PF_CC)
                return is_i3264(t) && only(in, PF_CC);
            return only(in, t == PT_S32 ? PF_SAT : 0);
        }
        return float_rounded(in, 1);
    case OP_MUL:
        if (is_int(t))
            return in->rnd == PR_NONE && only(in, 0) &&
                   (lohi(in->mode) || (in->mode == PM_WIDE && alu_width(t) <= 32));
        return float_rounded(in, 1);
    case OP_MAD:
        if (is_int(t)) {
            if (in->rnd != PR_NONE)
                return 0;
            if (in->flags & PF_CC)
                return is_i3264(t) && lohi(in->mode) && only(in, PF_CC);
            if (in->flags & PF_SAT)
                return t == PT_S32 && in->mode == PM_HI && only(in, PF_SAT);
            return only(in, 0) && (lohi(in->mode) || (in->mode == PM_WIDE && alu_width(t) <= 32));
        }
        return float_rounded(in, 1);
    case OP_MUL24:
    case OP_MAD24:
        if ((t != PT_S32 && t != PT_U32) || in->rnd != PR_NONE || !lohi(in->mode))
            return 0;
        if (in->op == OP_MAD24 && (in->flags & PF_SAT))
            return t == PT_S32 && in->mode == PM_HI && only(in, PF_SAT);
        return only(in, 0);
    case OP_SAD:
    case OP_REM:
        return is_int(t) && in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
    case OP_DIV:
        if (is_int(t))
            return in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
        if (t == PT_F32 && (in->flags & (PF_APPROX | PF_FULL)))
            return in->rnd == PR_NONE && in->mode == PM_NONE && (in->flags & (PF_APPROX | PF_FULL)) != (PF_APPROX | PF_FULL) &&
                   only(in, PF_FTZ | PF_APPROX | PF_FULL);
        return float_rounded(in, 0);
    case OP_ABS:
    case OP_NEG:
        if (t == PT_S16 || t == PT_S32 || t == PT_S64)
            return in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
        return float_plain(in, 0, 0);
    case OP_MIN:
    case OP_MAX:
        if (is_int(t))
            return in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
        return float_plain(in, 0, 0);
    case OP_FMA:
        return float_rounded(in, 1);
    case OP_ADDC:
    case OP_SUBC:
        return is_i3264(t) && in->rnd == PR_NONE && in->mode == PM_NONE && only(in, PF_CC);
    case OP_MADC:
        return is_i3264(t) && in->rnd == PR_NONE && lohi(in->mode) && only(in, PF_CC);
    case OP_RCP:
    case OP_SQRT:
        if (in->flags & PF_APPROX) {
            if (in->op == OP_RCP) /* rcp.approx{.ftz}.f32, rcp.approx.ftz.f64 */
                return float_plain(in, PF_APPROX, PF_APPROX | PF_FTZ);
            return float_plain(in, PF_APPROX, 0) && t == PT_F32;
        }
        return float_rounded(in, 0);
    case OP_RSQRT: /* rsqrt.approx{.ftz}.f32, rsqrt.approx{.ftz}.f64 */
        return float_plain(in, PF_APPROX, PF_APPROX | PF_FTZ);
    case OP_EX2:
    case OP_LG2:
    case OP_SIN:
    case OP_COS:
    case OP_TANH:
        return t == PT_F32 && float_plain(in, PF_APPROX, 0);
    case OP_COPYSIGN:
        return is_flt(t) && in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
    case OP_TESTP:
        return is_flt(t) && in->rnd == PR_NONE && only(in, 0) && in->mode >= PM_TESTP_FINITE &&
               in->mode <= PM_TESTP_SUBNORMAL;
    case OP_POPC:
    case OP_CLZ:
    case OP_BREV:
    case OP_BFI:
        return is_b32_64(t) && in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
    case OP_BFIND:
        return is_i3264(t) && in->rnd == PR_NONE && in->mode == PM_NONE && only(in, PF_SHIFTAMT);
    case OP_BFE:
        return is_i3264(t) && in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
    case OP_SHF:
        return t == PT_B32 && in->rnd == PR_NONE && (in->mode == PM_SHF_L || in->mode == PM_SHF_R) &&
               only(in, PF_WRAP | PF_CLAMP) && ((in->flags & PF_WRAP) != 0) != ((in->flags & PF_CLAMP) != 0);
    case OP_PRMT:
        return t == PT_B32 && in->rnd == PR_NONE && only(in, 0) &&
               (in->mode == PM_NONE || (in->mode >= PM_PRMT_DEFAULT && in->mode <= PM_PRMT_RC16));
    case OP_AND:
    case OP_OR:
    case OP_XOR:
    case OP_NOT:
        return (is_bits(t) || t == PT_PRED) && in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
    case OP_CNOT:
    case OP_SHL:
        return is_bits(t) && in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
    case OP_SHR:
        return (is_bits(t) || is_int(t)) && in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
    case OP_SETP:
        return in->mode == PM_NONE && setp_like(in, t);
    case OP_SET:
        return (t == PT_U32 || t == PT_S32 || t == PT_F32) && in->mode == PM_NONE && setp_like(in, in->type2);
    case OP_SELP:
        return selp_type(t) && in->rnd == PR_NONE && in->mode == PM_NONE && only(in, 0);
    case OP_SLCT:
        return selp_type(t) && in->rnd == PR_NONE && in->mode == PM_NONE &&
               (in->type2 == PT_S32 || in->type2 == PT_F32) && only(in, in->type2 == PT_F32 ? PF_FTZ : 0);
    case OP_CVT:
        return cvt_supported(in);
    default:
        return 0;
    }
}

/* Source operands the instruction reads. */
static int sources_needed(const ptx_instr *in)
{
    switch (in->op) {
    case OP_ABS: case OP_NEG: case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2:
    case OP_SIN: case OP_COS: case OP_TANH: case OP_TESTP: case OP_POPC: case OP_CLZ: case OP_BREV:
    case OP_BFIND: case OP_NOT: case OP_CNOT: case OP_CVT:
        return 1;
    case OP_MAD: case OP_MAD24: case OP_SAD: case OP_FMA: case OP_MADC: case OP_BFE: case OP_SHF:
    case OP_PRMT: case OP_SELP: case OP_SLCT:
        return 3;
    case OP_BFI:
        return 4;
    case OP_SETP: case OP_SET:
        return in->boolop != PB_NONE ? 3 : 2;
    default:
        return 2;
    }
}

int simt_alu(const ptx_instr *in, const uint64_t (*src)[SIMT_WARP], int nsrc, uint64_t (*dst)[SIMT_WARP],
             uint32_t active, uint32_t *carry)
{
    if (!simt_alu_supports(in) || nsrc < sources_needed(in))
        return SIMT_ALU_UNSUPPORTED;

    switch (in->op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_DIV: case OP_MIN: case OP_MAX:
    case OP_ABS: case OP_NEG:
        if (is_flt(in->type))
            return alu_float(in, src, dst, active);
        return alu_int(in, src, dst, active, carry);
    case OP_MUL24: case OP_MAD24: case OP_SAD: case OP_REM: case OP_ADDC: case OP_SUBC: case OP_MADC:
        return alu_int(in, src, dst, active, carry);
    case OP_FMA: case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2: case OP_SIN:
    case OP_COS: case OP_TANH: case OP_COPYSIGN: case OP_TESTP:
        return alu_float(in, src, dst, active);
    case OP_SETP: case OP_SET: case OP_SELP: case OP_SLCT:
        return alu_cmp(in, src, dst, active);
    case OP_CVT:
        return alu_cvt(in, src, dst, active);
    default:
        return alu_bits(in, src, dst, active);
    }
}
