/* Options owned by the caches: the SM's L1s (data, instruction, constant, texture) and the L2. */
#ifndef GTLM_CACHE_CONFIG_H
#define GTLM_CACHE_CONFIG_H

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

typedef struct l1_config {
    gsim_cache_cfg dl1, il1, const_l1, tex_l1;
    int dl1_latency;  /* core cycles from tag check to data for a hit */
    int dl1_banks;          /* L1D banks: up to this many requests enter the L1 per cycle, one per bank */
    int dl1_bank_interleave; /* bytes per bank before the next (a power of two) */
    int dl1_bank_hash;       /* L1_BANK_HASH_LINEAR or L1_BANK_HASH_XOR (l1_bank.h) */
    int gmem_skip_l1d; /* global loads bypass the L1 */
    int dl1_sector_mshr; /* sectored L1D: MSHR limits per 32-byte sector (GPGPU-Sim 4.2) */
    int dl1_read_mq_reserve; /* L1D reads that miss or merge need 2 free miss-queue slots */
    int dl1_partial_unreadable; /* lazy fetch-on-read: a partly written sector is not readable */
    int dl1_miss_classes;    /* classify L1D read misses: cold / capacity / conflict / invalidated */
    int adaptive_cache;      /* -gpgpu_adaptive_cache_config: per-kernel L1D ways (l1_carveout.h) */
    gsim_int_list shmem_options; /* -gpgpu_shmem_option: shared-memory carve-outs in KB, ascending */
    int unified_l1d_kb;      /* -gpgpu_unified_l1d_size: the L1D + shared array in KB */
} l1_config;

typedef struct l2_config {
    gsim_cache_cfg dl2; /* per memory sub-partition */
    int dl2_texture_only;
    int rop_latency; /* core cycles a request spends in the L2's ROP queue before the tag lookup */
    int perfect_l2;  /* every L2 access hits */
    int dl2_sector_mshr; /* sectored L2: MSHR limits per 32-byte sector (GPGPU-Sim 4.2) */
    int dl2_read_mq_reserve; /* L2 reads that miss or merge need 2 free miss-queue slots */
    int dl2_miss_classes;    /* classify L2 read misses: cold / capacity / conflict / invalidated */
    gsim_int_list partition_queues; /* icnt->L2, L2->DRAM, DRAM->L2, L2->icnt entries (GPGPU-Sim's four) */
    int dl2_partition_set_index; /* 1: sets indexed inside the sub-partition, 0: full address, -1: compat mode */
} l2_config;

int l1_options_register(opt_registry *r, l1_config *c, strbuf *err);
int l2_options_register(opt_registry *r, l2_config *c, strbuf *err);
int l1_config_check(const opt_registry *r, const l1_config *c, strbuf *err);
int l2_config_check(const opt_registry *r, const l2_config *c, strbuf *err);

#endif
