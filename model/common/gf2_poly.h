/* Polynomial remainders over GF(2), for IPOLY indexing (Rau, ISCA 1991): an index of k bits is
 * the remainder of the address bits, read as a polynomial, modulo an irreducible polynomial of
 * degree k. Power-of-two strides then spread over all 2^k indices. Used by the cache set index
 * and the memory-partition index. */
#ifndef GTLM_GF2_POLY_H
#define GTLM_GF2_POLY_H

#include <stdint.h>

/* A low-weight irreducible polynomial of degree k (bit i: the x^i term), k in 1..16; 0 otherwise. */
uint32_t gf2_ipoly(int k);
/* b(x) mod p(x), p of degree k. */
uint32_t gf2_mod(uint64_t b, uint32_t p, int k);

#endif
