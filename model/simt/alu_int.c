/*
 * Integer arithmetic of the warp-wide ALU: add sub mul mad mul24 mad24 sad div rem abs neg
 * min max and the carry chain addc subc madc (.cc forms), on .s16 .u16 .s32 .u32 .s64 .u64.
 *
 * Operands are read at the instruction's width from the raw 64-bit sources; results are
 * masked to their width (zero-extended into the 64-bit destination slot).
 *
 * Carry (CC.CF, one bit per lane in *carry): add.cc/addc write the carry-out of the unsigned
 * n-bit sum a + b (+ CF). sub.cc/subc follow the PTX definition d = a - (b + CF) with CF the
 * *borrow*: sub.cc writes 1 when a < b (unsigned), subc writes 1 when a < b + CF. mad.cc and
 * madc write the carry-out of the n-bit addition (product half) + c (+ CF).
 *
 * Values PTX leaves undefined (chosen here; never a host trap):
 *   div by zero: all ones of the width (unsigned UINT_MAX, signed -1);
 *   rem by zero: the dividend;  INT_MIN / -1 = INT_MIN;  INT_MIN % -1 = 0;
 *   abs(INT_MIN) = INT_MIN (two's-complement wrap).
 */
#include "alu_internal.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

/* High half of the 2w-bit product of the w-bit operands. */
static inline uint64_t mul_hi(uint64_t a, uint64_t b, unsigned w, int sgn)
{
    if (w == 64) {
        if (sgn)
            return (uint64_t)((u128)((s128)(int64_t)a * (s128)(int64_t)b) >> 64);
        return (uint64_t)(((u128)a * (u128)b) >> 64);
    }
    uint64_t m = alu_mask(w);
    if (sgn)
        return ((uint64_t)(alu_sext(a, w) * alu_sext(b, w)) >> w) & m;
    return (((a & m) * (b & m)) >> w) & m;
}

/* The full 2w-bit product (w = 16 or 32). */
static inline uint64_t mul_wide(uint64_t a, uint64_t b, unsigned w, int sgn)
{
    if (sgn)
        return (uint64_t)(alu_sext(a, w) * alu_sext(b, w)) & alu_mask(2 * w);
    uint64_t m = alu_mask(w);
    return (a & m) * (b & m);
}

/* n-bit (32 or 64) a + b + cin with carry-out. */
static inline uint64_t add_carry(uint64_t a, uint64_t b, unsigned cin, unsigned w, unsigned *cout)
{
    if (w == 32) {
        uint64_t s = (a & 0xffffffffu) + (b & 0xffffffffu) + cin;
        *cout = (unsigned)(s >> 32);
        return s & 0xffffffffu;
    }
    uint64_t s = a + b;
    uint64_t t = s + cin;
    *cout = (unsigned)((s < a) | (t < s));
    return t;
}

/* n-bit a - (b + bin) with borrow-out. */
static inline uint64_t sub_borrow(uint64_t a, uint64_t b, unsigned bin, unsigned w, unsigned *bout)
{
    if (w == 32) {
        uint64_t x = a & 0xffffffffu, y = (b & 0xffffffffu) + bin;
        *bout = x < y;
        return (x - y) & 0xffffffffu;
    }
    *bout = (unsigned)((a < b) | ((a - b) < bin));
    return a - b - bin;
}

static inline uint64_t sat_s32(int64_t v)
{
    if (v > INT32_MAX)
        v = INT32_MAX;
    else if (v < INT32_MIN)
        v = INT32_MIN;
    return (uint64_t)v & 0xffffffffu;
}

/* Product half selected by mode (mul/mad/madc .lo .hi; PM_NONE = .lo). */
static inline uint64_t mul_part(uint64_t a, uint64_t b, unsigned w, int sgn, unsigned mode)
{
    if (mode == PM_HI)
        return mul_hi(a, b, w, sgn);
    return (a * b) & alu_mask(w);
}

/* The .cc family: add.cc sub.cc addc subc mad.cc madc (with or without .cc). */
static void carry_ops(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active, uint32_t *carry, unsigned w,
                      int sgn)
{
    const int write = (in->flags & PF_CC) != 0;
    const uint32_t cf_in = *carry;
    uint32_t cf_out = cf_in;
    const unsigned op = in->op;
    const unsigned mode = in->mode;

    ALU_FOR_LANES(l)
    {
        unsigned cin = (op == OP_ADDC || op == OP_SUBC || op == OP_MADC) ? (cf_in >> l) & 1u : 0u;
        unsigned cout = 0;
        uint64_t r;
        if (op == OP_ADD || op == OP_ADDC)
            r = add_carry(s[0][l], s[1][l], cin, w, &cout);
        else if (op == OP_SUB || op == OP_SUBC)
            r = sub_borrow(s[0][l], s[1][l], cin, w, &cout);
        else /* OP_MAD (.lo/.hi .cc), OP_MADC */
            r = add_carry(mul_part(s[0][l], s[1][l], w, sgn, mode), s[2][l], cin, w, &cout);
        d[0][l] = r;
        cf_out = (cf_out & ~(1u << l)) | (cout << l);
    }
    if (write)
        *carry = cf_out;
}

static void div_rem(int is_div, alu_src s, alu_dst d, uint32_t active, unsigned w, int sgn)
{
    const uint64_t m = alu_mask(w);
    if (!sgn) {
        ALU_FOR_LANES(l)
        {
            uint64_t a = s[0][l] & m, b = s[1][l] & m;
            if (b == 0)
                d[0][l] = is_div ? m : a;
            else
                d[0][l] = is_div ? a / b : a % b;
        }
        return;
    }
    ALU_FOR_LANES(l)
    {
        int64_t a = alu_sext(s[0][l], w), b = alu_sext(s[1][l], w);
        int64_t r;
        if (b == 0)
            r = is_div ? -1 : a;
        else if (b == -1)
            r = is_div ? (int64_t)(0 - (uint64_t)a) : 0; /* INT_MIN / -1 wraps to INT_MIN */
        else
            r = is_div ? a / b : a % b;
        d[0][l] = (uint64_t)r & m;
    }
}

int alu_int(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active, uint32_t *carry)
{
    const unsigned w = alu_width(in->type);
    const int sgn = alu_signed(in->type);
    const uint64_t m = alu_mask(w);
    const unsigned op = in->op;

    if (w < 16)
        return SIMT_ALU_UNSUPPORTED;
    if ((in->flags & PF_CC) || op == OP_ADDC || op == OP_SUBC || op == OP_MADC) {
        if (!carry || w < 32)
            return SIMT_ALU_UNSUPPORTED;
        carry_ops(in, s, d, active, carry, w, sgn);
        return SIMT_ALU_OK;
    }

    switch (op) {
    case OP_ADD:
        if (in->flags & PF_SAT) {
            ALU_FOR_LANES(l) d[0][l] = sat_s32(alu_sext(s[0][l], 32) + alu_sext(s[1][l], 32));
        } else {
            ALU_FOR_LANES(l) d[0][l] = (s[0][l] + s[1][l]) & m;
        }
        return SIMT_ALU_OK;
    case OP_SUB:
        if (in->flags & PF_SAT) {
            ALU_FOR_LANES(l) d[0][l] = sat_s32(alu_sext(s[0][l], 32) - alu_sext(s[1][l], 32));
        } else {
            ALU_FOR_LANES(l) d[0][l] = (s[0][l] - s[1][l]) & m;
        }
        return SIMT_ALU_OK;
    case OP_MUL:
        if (in->mode == PM_HI) {
            ALU_FOR_LANES(l) d[0][l] = mul_hi(s[0][l], s[1][l], w, sgn);
        } else if (in->mode == PM_WIDE) {
            ALU_FOR_LANES(l) d[0][l] = mul_wide(s[0][l], s[1][l], w, sgn);
        } else {
            ALU_FOR_LANES(l) d[0][l] = (s[0][l] * s[1][l]) & m;
        }
        return SIMT_ALU_OK;
    case OP_MAD:
        if (in->mode == PM_HI && (in->flags & PF_SAT)) { /* mad.hi.sat.s32 */
            ALU_FOR_LANES(l)
                d[0][l] = sat_s32(alu_sext(mul_hi(s[0][l], s[1][l], 32, 1), 32) + alu_sext(s[2][l], 32));
        } else if (in->mode == PM_HI) {
            ALU_FOR_LANES(l) d[0][l] = (mul_hi(s[0][l], s[1][l], w, sgn) + s[2][l]) & m;
        } else if (in->mode == PM_WIDE) {
            const uint64_t m2 = alu_mask(2 * w);
            ALU_FOR_LANES(l) d[0][l] = (mul_wide(s[0][l], s[1][l], w, sgn) + s[2][l]) & m2;
        } else {
            ALU_FOR_LANES(l) d[0][l] = (s[0][l] * s[1][l] + s[2][l]) & m;
        }
        return SIMT_ALU_OK;
    case OP_MUL24:
    case OP_MAD24: {
        const int hi = in->mode == PM_HI;
        const int mad = op == OP_MAD24;
        const int sat = (in->flags & PF_SAT) != 0;
        ALU_FOR_LANES(l)
        {
            int64_t a = sgn ? alu_sext(s[0][l], 24) : (int64_t)(s[0][l] & 0xffffffu);
            int64_t b = sgn ? alu_sext(s[1][l], 24) : (int64_t)(s[1][l] & 0xffffffu);
            int64_t p = a * b; /* the 48-bit product */
            uint64_t part = hi ? ((uint64_t)(p >> 16) & 0xffffffffu) : ((uint64_t)p & 0xffffffffu);
            if (!mad)
                d[0][l] = part;
            else if (sat)
                d[0][l] = sat_s32(alu_sext(part, 32) + alu_sext(s[2][l], 32));
            else
                d[0][l] = (part + s[2][l]) & 0xffffffffu;
        }
        return SIMT_ALU_OK;
    }
    case OP_SAD:
        ALU_FOR_LANES(l)
        {
            uint64_t a = s[0][l] & m, b = s[1][l] & m;
            int less = sgn ? alu_sext(a, w) < alu_sext(b, w) : a < b;
            d[0][l] = (s[2][l] + (less ? b - a : a - b)) & m;
        }
        return SIMT_ALU_OK;
    case OP_DIV:
    case OP_REM:
        div_rem(op == OP_DIV, s, d, active, w, sgn);
        return SIMT_ALU_OK;
    case OP_ABS:
        ALU_FOR_LANES(l)
        {
            int64_t a = alu_sext(s[0][l], w);
            d[0][l] = (a < 0 ? 0 - (uint64_t)a : (uint64_t)a) & m;
        }
        return SIMT_ALU_OK;
    case OP_NEG:
        ALU_FOR_LANES(l) d[0][l] = (0 - s[0][l]) & m;
        return SIMT_ALU_OK;
    case OP_MIN:
    case OP_MAX: {
        const int mx = op == OP_MAX;
        if (sgn) {
            ALU_FOR_LANES(l)
            {
                int64_t a = alu_sext(s[0][l], w), b = alu_sext(s[1][l], w);
                d[0][l] = (uint64_t)((a < b) != mx ? a : b) & m;
            }
        } else {
            ALU_FOR_LANES(l)
            {
                uint64_t a = s[0][l] & m, b = s[1][l] & m;
                d[0][l] = (a < b) != mx ? a : b;
            }
        }
        return SIMT_ALU_OK;
    }
    default:
        return SIMT_ALU_UNSUPPORTED;
    }
}
