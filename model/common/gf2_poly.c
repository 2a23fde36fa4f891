#include "gf2_poly.h"

/* Low-weight polynomials with constant term 1, irreducible over GF(2), degree 1..16. */
static const uint32_t ipoly_table[17] = {
    0,      0x3,    0x7,    0xB,    0x13,   0x25,   0x43,   0x83,   0x11B,
    0x211,  0x409,  0x805,  0x1053, 0x201B, 0x4443, 0x8003, 0x1100B,
};

uint32_t gf2_ipoly(int k) { return (k >= 1 && k <= 16) ? ipoly_table[k] : 0; }

uint32_t gf2_mod(uint64_t b, uint32_t p, int k)
{
    for (int i = 63; i >= k; i--)
        if ((b >> i) & 1) b ^= (uint64_t)p << (i - k);
    return (uint32_t)b;
}
