/*
 * Bit manipulation of the warp-wide ALU: popc clz brev bfind bfe bfi shf prmt and or xor
 * not cnot shl shr.
 *
 * popc/clz/bfind write a .u32. bfind returns 0xffffffff when there is no non-sign bit
 * (also with .shiftamt). bfe/bfi take position and length from the low 8 bits of their
 * .u32 operands, as PTX defines. Shift amounts are unsigned 32-bit; an amount >= the width
 * gives 0 (shl, shr.u/.b) or the sign fill (shr.s). shf: {b:a} funnel shift, .wrap takes
 * the amount mod 32, .clamp min(amount, 32). Predicates (.pred) read nonzero as true and
 * write 0/1.
 */
#include "alu_internal.h"

static inline uint64_t brev64(uint64_t x)
{
    x = ((x >> 1) & UINT64_C(0x5555555555555555)) | ((x & UINT64_C(0x5555555555555555)) << 1);
    x = ((x >> 2) & UINT64_C(0x3333333333333333)) | ((x & UINT64_C(0x3333333333333333)) << 2);
    x = ((x >> 4) & UINT64_C(0x0f0f0f0f0f0f0f0f)) | ((x & UINT64_C(0x0f0f0f0f0f0f0f0f)) << 4);
    return __builtin_bswap64(x);
}

/* Bit index (0..w-1) of the most significant 1 of x, -1 when x == 0. */
static inline int msb_index(uint64_t x) { return x ? 63 - __builtin_clzll(x) : -1; }

static inline uint64_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode)
{
    const uint64_t v = ((uint64_t)b << 32) | a; /* bytes b7..b0 */
    const unsigned k = c & 3u;
    uint32_t r = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned sel, byte;
        switch (mode) {
        case PM_PRMT_F4E: sel = (k + i) & 7u; break;
        case PM_PRMT_B4E: sel = (k - i) & 7u; break;
        case PM_PRMT_RC8: sel = k; break;
        case PM_PRMT_ECL: sel = i > k ? i : k; break;
        case PM_PRMT_ECR: sel = i < k ? i : k; break;
        case PM_PRMT_RC16: sel = ((k & 1u) << 1) | (i & 1u); break;
        default: { /* generic: one 4-bit selector per byte, msb = replicate the byte's sign */
            unsigned n = (c >> (4 * i)) & 0xfu;
            byte = (unsigned)(v >> (8 * (n & 7u))) & 0xffu;
            if (n & 8u)
                byte = (byte & 0x80u) ? 0xffu : 0u;
            r |= (uint32_t)byte << (8 * i);
            continue;
        }
        }
        byte = (unsigned)(v >> (8 * sel)) & 0xffu;
        r |= (uint32_t)byte << (8 * i);
    }
    return r;
}

int alu_bits(const ptx_instr *in, alu_src s, alu_dst d, uint32_t active)
{
    const unsigned w = alu_width(in->type);
    const uint64_t m = alu_mask(w);
    const int pred = in->type == PT_PRED;

    if (w == 0)
        return SIMT_ALU_UNSUPPORTED;

    switch (in->op) {
    case OP_POPC:
        ALU_FOR_LANES(l) d[0][l] = (uint64_t)__builtin_popcountll(s[0][l] & m);
        return SIMT_ALU_OK;
    case OP_CLZ:
        ALU_FOR_LANES(l)
        {
            uint64_t a = s[0][l] & m;
            d[0][l] = a ? (uint64_t)(__builtin_clzll(a) - (64 - (int)w)) : w;
        }
        return SIMT_ALU_OK;
    case OP_BREV:
        ALU_FOR_LANES(l) d[0][l] = brev64(s[0][l] & m) >> (64 - w);
        return SIMT_ALU_OK;
    case OP_BFIND: {
        const int sgn = alu_signed(in->type);
        const int shiftamt = (in->flags & PF_SHIFTAMT) != 0;
        ALU_FOR_LANES(l)
        {
            uint64_t a = s[0][l] & m;
            if (sgn && alu_sext(a, w) < 0)
                a = ~a & m; /* the most significant non-sign bit */
            int p = msb_index(a);
            d[0][l] = p < 0 ? 0xffffffffu : (uint64_t)(shiftamt ? (int)w - 1 - p : p);
        }
        return SIMT_ALU_OK;
    }
    case OP_BFE: {
        const int sgn = alu_signed(in->type);
        ALU_FOR_LANES(l)
        {
            uint64_t a = s[0][l] & m;
            unsigned pos = (unsigned)s[1][l] & 0xffu, len = (unsigned)s[2][l] & 0xffu;
            unsigned n = pos >= w ? 0 : (len < w - pos ? len : w - pos); /* bits taken from a */
            uint64_t r = n ? (a >> pos) & alu_mask(n) : 0;
            if (sgn && len) {
                unsigned sb = pos + len - 1 < w - 1 ? pos + len - 1 : w - 1;
                if ((a >> sb) & 1u)
                    r |= ~alu_mask(n) & m;
            }
            d[0][l] = r;
        }
        return SIMT_ALU_OK;
    }
    case OP_BFI:
        ALU_FOR_LANES(l)
        {
            uint64_t a = s[0][l], b = s[1][l] & m;
            unsigned pos = (unsigned)s[2][l] & 0xffu, len = (unsigned)s[3][l] & 0xffu;
            unsigned n = pos >= w ? 0 : (len < w - pos ? len : w - pos);
            uint64_t f = n ? alu_mask(n) << pos : 0;
            d[0][l] = (b & ~f) | ((a << (pos & 63u)) & f);
        }
        return SIMT_ALU_OK;
    case OP_SHF: {
        const int left = in->mode == PM_SHF_L;
        const int wrap = (in->flags & PF_WRAP) != 0;
        ALU_FOR_LANES(l)
        {
            uint64_t v = ((s[1][l] & 0xffffffffu) << 32) | (s[0][l] & 0xffffffffu);
            uint32_t c = (uint32_t)s[2][l];
            unsigned n = wrap ? (c & 31u) : (c < 32u ? c : 32u);
            d[0][l] = left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
        }
        return SIMT_ALU_OK;
    }
    case OP_PRMT: {
        const unsigned mode = in->mode;
        ALU_FOR_LANES(l) d[0][l] = prmt((uint32_t)s[0][l], (uint32_t)s[1][l], (uint32_t)s[2][l], mode);
        return SIMT_ALU_OK;
    }
    case OP_AND:
        if (pred) {
            ALU_FOR_LANES(l) d[0][l] = (s[0][l] != 0) & (s[1][l] != 0);
        } else {
            ALU_FOR_LANES(l) d[0][l] = s[0][l] & s[1][l] & m;
        }
        return SIMT_ALU_OK;
    case OP_OR:
        if (pred) {
            ALU_FOR_LANES(l) d[0][l] = (s[0][l] != 0) | (s[1][l] != 0);
        } else {
            ALU_FOR_LANES(l) d[0][l] = (s[0][l] | s[1][l]) & m;
        }
        return SIMT_ALU_OK;
    case OP_XOR:
        if (pred) {
            ALU_FOR_LANES(l) d[0][l] = (s[0][l] != 0) ^ (s[1][l] != 0);
        } else {
            ALU_FOR_LANES(l) d[0][l] = (s[0][l] ^ s[1][l]) & m;
        }
        return SIMT_ALU_OK;
    case OP_NOT:
        if (pred) {
            ALU_FOR_LANES(l) d[0][l] = s[0][l] == 0;
        } else {
            ALU_FOR_LANES(l) d[0][l] = ~s[0][l] & m;
        }
        return SIMT_ALU_OK;
    case OP_CNOT:
        ALU_FOR_LANES(l) d[0][l] = (s[0][l] & m) == 0;
        return SIMT_ALU_OK;
    case OP_SHL:
        ALU_FOR_LANES(l)
        {
            uint32_t n = (uint32_t)s[1][l];
            d[0][l] = n >= w ? 0 : (s[0][l] << n) & m;
        }
        return SIMT_ALU_OK;
    case OP_SHR:
        if (alu_signed(in->type)) {
            ALU_FOR_LANES(l)
            {
                uint32_t n = (uint32_t)s[1][l];
                int64_t a = alu_sext(s[0][l], w);
                d[0][l] = (uint64_t)(a >> (n >= w ? w - 1 : n)) & m;
            }
        } else {
            ALU_FOR_LANES(l)
            {
                uint32_t n = (uint32_t)s[1][l];
                d[0][l] = n >= w ? 0 : (s[0][l] & m) >> n;
            }
        }
        return SIMT_ALU_OK;
    default:
        return SIMT_ALU_UNSUPPORTED;
    }
}
