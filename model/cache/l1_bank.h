/* L1 data-cache banks (-gpgpu_l1_banks): which bank a request's address falls in. GPGPU-Sim 4.x
 * interleaves the banks every -gpgpu_l1_banks_byte_interleaving bytes (32: one sector per bank, as
 * Volta) and picks the bank from the address by -gpgpu_l1_banks_hashing_function:
 *   0 linear:      bank = (addr / interleave) mod banks
 *   1 bitwise XOR: the linear bank XOR the next log2(banks) address bits above it
 * Banks and interleave are powers of two (checked with the options). */
#ifndef GTLM_CACHE_L1_BANK_H
#define GTLM_CACHE_L1_BANK_H

#include <stdint.h>

enum { L1_BANK_HASH_LINEAR = 0, L1_BANK_HASH_XOR = 1 };

uint32_t l1_bank_of(uint64_t addr, uint32_t banks, uint32_t interleave, int hash);

#endif
