/* A 64-bit mixing function (the SplitMix64 finalizer): every input bit affects every output bit.
 * Hash keys with it; x += 0x9E3779B97F4A7C15 before each call makes a pseudo-random sequence. */
#ifndef GTLM_MIX64_H
#define GTLM_MIX64_H

#include <stdint.h>

#define MIX64_GOLDEN 0x9E3779B97F4A7C15ull

static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

#endif
