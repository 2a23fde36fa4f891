/* GPGPU-Sim 4.2's adaptive L1/shared-memory carve-out (-gpgpu_adaptive_cache_config 1).
 *
 * At a kernel's start the shared memory it uses on an SM (bytes per CTA x CTAs per SM) picks the
 * smallest -gpgpu_shmem_option entry (KB) that holds it (the largest entry when none does); the
 * rest of the -gpgpu_unified_l1d_size KB array is L1D: the L1D keeps -gpgpu_cache:dl1's sets and
 * line size and gets round(max_ways x (1 - entry / unified)) ways, at least one, max_ways =
 * unified KB x 1024 / (sets x line size). A streaming L1D ('s') allocates on miss when the kernel
 * uses no shared memory and on fill otherwise. */
#ifndef GTLM_L1_CARVEOUT_H
#define GTLM_L1_CARVEOUT_H

#include <stdint.h>

#include "cache_config.h"

/* Ways of the whole unified array at -gpgpu_cache:dl1's sets and line size (0: L1D disabled). */
int l1_carveout_max_ways(const l1_config *c);
/* The L1D configuration for a kernel using shmem_bytes of shared memory per SM: dl1 with the
 * carved associativity and allocation policy (dl1 itself when the option is off). */
gsim_cache_cfg l1_carveout_dl1(const l1_config *c, uint64_t shmem_bytes);

#endif
