/* L1 data-cache bank selection (l1_bank.h). */
#include "l1_bank.h"

static uint32_t log2_u32(uint32_t v)
{
    uint32_t k = 0;
    while (v > 1) {
        v >>= 1;
        k++;
    }
    return k;
}

uint32_t l1_bank_of(uint64_t addr, uint32_t banks, uint32_t interleave, int hash)
{
    if (banks <= 1) return 0;
    uint64_t chunk = addr >> log2_u32(interleave);
    uint32_t bank = (uint32_t)(chunk & (banks - 1));
    if (hash == L1_BANK_HASH_XOR) bank ^= (uint32_t)((chunk >> log2_u32(banks)) & (banks - 1));
    return bank;
}
