/* Shared-memory bank conflicts: how many serialized passes one warp shared-memory instruction
 * needs with N banks of 4 bytes (-gpgpu_shmem_num_banks), word w in bank w mod N.
 *
 * Rule (Fermi, compute 2.x, as the CUDA programming guide describes it):
 *  - The warp is split into lane groups served one after the other: accesses up to 4 bytes per
 *    lane form one group of 32 lanes; wider accesses form groups of 128/bytes lanes (8 bytes:
 *    two half-warps, 16 bytes: four quarter-warps, 32 bytes: eight groups of 4 lanes), so each
 *    group moves at most 128 bytes. A group with no active lane costs nothing.
 *  - Within a group every lane touches the 32-bit words [addr/4, (addr+bytes-1)/4]. Lanes touching
 *    the same word share it (broadcast, no conflict). The group needs as many passes as the
 *    largest number of distinct words that fall in one bank.
 *  - passes = sum over groups; degree = the largest group's pass count.
 * So a stride-1 array of doubles costs 2 passes of degree 1, as on Fermi. Nothing is allocated. */
#ifndef GTLM_SM_SMEM_BANKS_H
#define GTLM_SM_SMEM_BANKS_H

#include <stdint.h>

#define SMEM_LANES 32

typedef struct smem_conflict {
    int passes;   /* serialized bank passes for the whole warp (0 when no lane is active) */
    int degree;   /* worst conflict degree within one lane group (1: conflict-free) */
    int groups;   /* lane groups with an active lane */
} smem_conflict;

/* bytes 1..32, n_banks >= 1. Returns 0, or -1 for an argument out of range (r zeroed). */
int smem_bank_conflicts(const uint64_t addr[SMEM_LANES], uint32_t mask, unsigned bytes, int n_banks,
                        smem_conflict *r);

#endif
