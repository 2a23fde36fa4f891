/*
 * Comparison and selection of the warp-wide ALU: setp set selp slct.
 *
 * setp.CMP[.BOOLOP].T p[|q], a, b[, c]: t = a CMP b; p = t BOOLOP c, q = !t BOOLOP c (without
 * a BOOLOP p = t, q = !t); q goes to dst[1] when the destination operand has a second
 * register (o[0].reg2 != PTX_NO_REG).
 * set.CMP[.BOOLOP].dtype.stype d, a, b[, c]: the same predicate, written as 0xffffffff
 * (.u32/.s32) or 1.0f (.f32) for true and 0 for false. The instruction's type is dtype and
 * type2 is stype.
 * Integer types: eq ne lt le gt ge compare signed for .sNN and unsigned for .uNN/.bNN;
 * lo ls hi hs always compare unsigned. Float types: ordered eq ne lt le gt ge (false when
 * either operand is NaN), unordered equ neu ltu leu gtu geu (true when either is NaN), num
 * (neither NaN) and nan (either NaN); .ftz flushes f32 subnormal operands.
 * selp.T d, a, b, c: d = c ? a : b.  slct.T.s32/.f32 d, a, b, c: d = c >= 0 ? a : b (type2
 * is c's type; -0.0 >= 0 is true; a NaN c selects b).
 */
#include "alu_internal.h"

#define CMP_LOOP(TYPE, LOAD, EXPR) \
    ALU_FOR_LANES(l) \
    { \
        TYPE a = LOAD(s[0][l]), b = LOAD(s[1][l]); \
        t |= (uint32_t)(EXPR) << l; \
    }

/* Per-lane compare results as a lane bit mask (only active lanes set). */
static uint32_t compare(const ptx_instr *in, unsigned type, alu_src s, uint32_t active)
{
    const unsigned w = alu_width(type);
    const uint64_t m = alu_mask(w);
    uint32_t t = 0;

    if (alu_is_float(type)) {
        const int ftz = (in->flags & PF_FTZ) != 0;
#define LOADF(x) (type == PT_F32 ? (double)alu_in32((x), ftz) : alu_f64(x))
        switch (in->cmp) {
        case PC_EQ: CMP_LOOP(double, LOADF, a == b); break;
        case PC_NE: CMP_LOOP(double, LOADF, a == a && b == b && a != b); break;
        case PC_LT: CMP_LOOP(double, LOADF, a < b); break;
        case PC_LE: CMP_LOOP(double, LOADF, a <= b); break;
        case PC_GT: CMP_LOOP(double, LOADF, a > b); break;
        case PC_GE: CMP_LOOP(double, LOADF, a >= b); break;
        case PC_EQU: CMP_LOOP(double, LOADF, !(a < b || a > b)); break;
        case PC_NEU: CMP_LOOP(double, LOADF, a != b); break;
        case PC_LTU: CMP_LOOP(double, LOADF, !(a >= b)); break;
        case PC_LEU: CMP_LOOP(double, LOADF, !(a > b)); break;
        case PC_GTU: CMP_LOOP(double, LOADF, !(a <= b)); break;
        case PC_GEU: CMP_LOOP(double, LOADF, !(a < b)); break;
        case PC_NUM: CMP_LOOP(double, LOADF, a == a && b == b); break;
        case PC_NAN: CMP_LOOP(double, LOADF, a != a || b != b); break;
        default: break;
        }
#undef LOADF
        return t;
    }

    if (alu_signed(type) && in->cmp >= PC_LT && in->cmp <= PC_GE) {
#define LOADS(x) alu_sext((x), w)
        switch (in->cmp) {
        case PC_LT: CMP_LOOP(int64_t, LOADS, a < b); break;
        case PC_LE: CMP_LOOP(int64_t, LOADS, a <= b); break;
        case PC_GT: CMP_LOOP(int64_t, LOADS, a > b); break;
        case PC_GE: CMP_LOOP(int64_t, LOADS, a >= b); break;
        default: break;
        }
#undef LOADS
        return t;
    }

#define LOADU(x) ((x) & m)
    switch (in->cmp) {
    case PC_EQ: CMP_LOOP(uint64_t, LOADU, a == b); break;
    case PC_NE: CMP_LOOP(uint64_t, LOADU, a != b); break;
    case PC_LT: case PC_LO: CMP_LOOP(uint64_t, LOADU, a < b); break;
    case PC_LE: case PC_LS: CMP_LOOP(uint64_t, LOADU, a <= b); break;
    case PC_GT: case PC_HI: CMP_LOOP(uint64_t, LOADU, a > b); break;
    case PC_GE: case PC_HS: CMP_LOOP(uint64_t, LOADU, a >= b); break;
    default: break;
    }
#undef LOADU
    return t;
}

/* Combines the compare mask t with the predicate c by the instruction's boolop: returns p,
 * and q in *q. */
static uint32_t combine(const ptx_instr *in, alu_src s, uint32_t active, uint32_t t, uint32_t *q)
{
    uint32_t nt = ~t & active;
    if (in->boolop == PB_NONE) {
        *q = nt;
        return t;
    }
    uint32_t c = 0;
    ALU_FOR_LANES(l) c |= (uint32_t)(s[2][l] != 0) << l;
    switch (in->boolop) {
    case PB_AND: *q = nt & c; return t & c;
    case PB_OR: *q = nt | c; return t | c;
    default: *q = nt ^ c; return t ^ c;
    }
}

int alu_cmp(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active)
{
    switch (in->op) {
    case OP_SETP: {
        uint32_t q, p = combine(in, s, active, compare(in, in->type, s, active), &q);
        ALU_FOR_LANES(l) d[0][l] = (p >> l) & 1u;
        if (in->o[0].reg2 != PTX_NO_REG) {
            ALU_FOR_LANES(l) d[1][l] = (q >> l) & 1u;
        }
        return SIMT_ALU_OK;
    }
    case OP_SET: {
        uint32_t q, p = combine(in, s, active, compare(in, in->type2, s, active), &q);
        const uint64_t one = in->type == PT_F32 ? 0x3f800000u : 0xffffffffu;
        ALU_FOR_LANES(l) d[0][l] = ((p >> l) & 1u) ? one : 0;
        return SIMT_ALU_OK;
    }
    case OP_SELP: {
        const uint64_t m = alu_mask(alu_width(in->type));
        ALU_FOR_LANES(l) d[0][l] = (s[2][l] != 0 ? s[0][l] : s[1][l]) & m;
        return SIMT_ALU_OK;
    }
    case OP_SLCT: {
        const uint64_t m = alu_mask(alu_width(in->type));
        if (in->type2 == PT_F32) {
            const int ftz = (in->flags & PF_FTZ) != 0;
            ALU_FOR_LANES(l) d[0][l] = (alu_in32(s[2][l], ftz) >= 0.0f ? s[0][l] : s[1][l]) & m;
        } else {
            ALU_FOR_LANES(l) d[0][l] = (alu_sext(s[2][l], 32) >= 0 ? s[0][l] : s[1][l]) & m;
        }
        return SIMT_ALU_OK;
    }
    default:
        return SIMT_ALU_UNSUPPORTED;
    }
}
