#include "cache_config.h"

#include "../config/opt_check.h"
#include "../config/opt_limits.h"

GSIM_INT_LIST_TYPE(shmem_option_type, 1, GSIM_INT_LIST_MAX, 0, 65536);

int l1_options_register(opt_registry *r, l1_config *c, strbuf *e)
{
    const char *b = "l1";
    int rc = 0;
    rc |= opt_add_custom(r, b, "-gpgpu_cache:dl1", &gsim_opt_cache, &c->dl1, "N:32:128:4,L:L:m:N:H,A:32:8,8",
                         "L1 data cache: type:sets:line:assoc,repl:write:alloc:write_alloc:index,mshr:N:merge,mq[:fifo][,port]", e);
    rc |= opt_add_custom(r, b, "-gpgpu_cache:il1", &gsim_opt_cache, &c->il1, "N:4:128:4,L:R:f:N:L,A:2:32,4",
                         "L1 instruction cache (same syntax as -gpgpu_cache:dl1)", e);
    rc |= opt_add_custom(r, b, "-gpgpu_const_cache:l1", &gsim_opt_cache, &c->const_l1, "N:64:64:2,L:R:f:N:L,A:2:32,4",
                         "L1 constant cache (same syntax as -gpgpu_cache:dl1)", e);
    rc |= opt_add_custom(r, b, "-gpgpu_tex_cache:l1", &gsim_opt_cache, &c->tex_l1, "N:4:128:24,L:R:m:N:L,F:128:4,128:2",
                         "L1 texture cache (same syntax as -gpgpu_cache:dl1)", e);
    rc |= opt_add_int(r, b, "-gpgpu_l1_latency", &c->dl1_latency, "1", 1, SM_MAX_LATENCY, "L1 data cache hit latency in core cycles", e);
    rc |= opt_add_int(r, b, "-gpgpu_l1_banks", &c->dl1_banks, "1", 1, 64,
                      "L1 data cache banks (a power of two): up to this many requests of a memory instruction enter "
                      "the L1 per cycle, each in another bank; the first to a bank already used waits a cycle", e);
    rc |= opt_add_int(r, b, "-gpgpu_l1_banks_byte_interleaving", &c->dl1_bank_interleave, "32", 1, 4096,
                      "bytes of one L1 bank before the next bank (a power of two; 32: a sector per bank)", e);
    rc |= opt_add_int(r, b, "-gpgpu_l1_banks_hashing_function", &c->dl1_bank_hash, "0", 0, 1,
                      "L1 bank of an address: 0 linear, 1 XOR with the next higher address bits "
                      "(GPGPU-Sim's IPOLY and Fermi bank hashes are not modelled)", e);
    rc |= opt_add_bool(r, b, "-gpgpu_gmem_skip_L1D", &c->gmem_skip_l1d, "0", "global memory accesses bypass the L1 data cache", e);
    rc |= opt_add_bool(r, b, "-gtlm_dl1_sector_mshr", &c->dl1_sector_mshr, "1",
                       "sectored L1D: MSHR entries and merge limit count per 32-byte sector, as GPGPU-Sim 4.2 (0: per line)", e);
    rc |= opt_add_bool(r, b, "-gtlm_dl1_read_mq_reserve", &c->dl1_read_mq_reserve, "1",
                       "L1D reads that miss or merge need 2 free miss-queue slots, as GPGPU-Sim 4.2 (0: the slots they use)", e);
    rc |= opt_add_bool(r, b, "-gtlm_dl1_partial_sector_unreadable", &c->dl1_partial_unreadable, "0",
                       "L1D with lazy fetch-on-read write allocation (L): a sector a store writes only in part is "
                       "not readable until fetched, as GPGPU-Sim 4.2 (0: every written sector becomes valid)", e);
    rc |= opt_add_bool(r, b, "-gtlm_dl1_miss_classes", &c->dl1_miss_classes, "0",
                       "classify L1D read misses as cold / capacity / conflict / invalidated (a shadow fully-associative "
                       "LRU L1 per SM; statistics gpu.sm[i].l1d.misses_*, gpu.l1d.misses_*)", e);
    rc |= opt_add_bool(r, b, "-gpgpu_adaptive_cache_config", &c->adaptive_cache, "0",
                       "per kernel, the L1D gets the unified array's space the kernel's shared memory leaves "
                       "(-gpgpu_shmem_option, -gpgpu_unified_l1d_size): its ways change, its sets stay", e);
    rc |= opt_add_custom(r, b, "-gpgpu_shmem_option", &shmem_option_type, &c->shmem_options, "0,8,16,32,64,96",
                         "shared-memory carve-outs in KB, ascending (used by -gpgpu_adaptive_cache_config)", e);
    rc |= opt_add_int(r, b, "-gpgpu_unified_l1d_size", &c->unified_l1d_kb, "128", 1, 65536,
                      "unified L1D + shared-memory array per SM in KB (used by -gpgpu_adaptive_cache_config)", e);
    /* GPGPU-Sim 3.x spelled it without the prefix; the same field, so 3.x configs keep their setting. */
    rc |= opt_add_alias(r, "-gmem_skip_L1D", "-gpgpu_gmem_skip_L1D", "GPGPU-Sim 3.x name of -gpgpu_gmem_skip_L1D", e);
    return rc ? -1 : 0;
}

/* Four queue sizes, each 1..65536 (GPGPU-Sim also accepts 0, unbounded; gtlm needs a bound). */
GSIM_INT_LIST_SEP_TYPE(partition_queues_type, 4, 4, 1, 65536, ':');

int l2_options_register(opt_registry *r, l2_config *c, strbuf *e)
{
    const char *b = "l2";
    int rc = 0;
    rc |= opt_add_custom(r, b, "-gpgpu_cache:dl2", &gsim_opt_cache, &c->dl2, "N:64:128:8,L:B:m:W:L,A:32:4,4:0,32",
                         "L2 cache per memory sub-partition (same syntax as -gpgpu_cache:dl1)", e);
    rc |= opt_add_bool(r, b, "-gpgpu_cache:dl2_texture_only", &c->dl2_texture_only, "0",
                       "the L2 caches texture accesses only", e);
    rc |= opt_add_int(r, b, "-rop_latency", &c->rop_latency, "120", 0, SM_MAX_LATENCY,
                      "core cycles from arrival at a memory partition to the L2 tag lookup", e);
    /* GPGPU-Sim 4.x and Accel-Sim configs use this name; the same field as -rop_latency. */
    rc |= opt_add_alias(r, "-gpgpu_l2_rop_latency", "-rop_latency", "GPGPU-Sim 4.x name of -rop_latency", e);
    rc |= opt_add_bool(r, b, "-l2_ideal", &c->perfect_l2, "0", "every L2 access hits (ideal L2)", e);
    rc |= opt_add_bool(r, b, "-gtlm_dl2_sector_mshr", &c->dl2_sector_mshr, "1",
                       "sectored L2: MSHR entries and merge limit count per 32-byte sector, as GPGPU-Sim 4.2 (0: per line)", e);
    rc |= opt_add_bool(r, b, "-gtlm_dl2_read_mq_reserve", &c->dl2_read_mq_reserve, "1",
                       "L2 reads that miss or merge need 2 free miss-queue slots, as GPGPU-Sim 4.2 (0: the slots they use)", e);
    rc |= opt_add_bool(r, b, "-gtlm_dl2_miss_classes", &c->dl2_miss_classes, "0",
                       "classify L2 read misses as cold / capacity / conflict / invalidated (a shadow fully-associative "
                       "LRU per slice; statistics gpu.l2[j].misses_*, gpu.l2.misses_*)", e);
    rc |= opt_add_int(r, b, "-gtlm_dl2_partition_set_index", &c->dl2_partition_set_index, "1", -1, 1,
                      "L2 set index from the address inside the sub-partition, channel and sub-partition bits "
                      "removed, as GPGPU-Sim 3.x and 4.2 (1), from the full address (0), or 1 only under "
                      "-gtlm_gpgpusim_compat (-1)", e);
    rc |= opt_add_custom(r, b, "-gpgpu_dram_partition_queues", &partition_queues_type, &c->partition_queues, "8:8:8:8",
                         "memory sub-partition queues icnt->L2:L2->DRAM:DRAM->L2:L2->icnt (requests waiting for the "
                         "tag stage after the ROP delay, misses waiting for DRAM, fills (not a bound in gtlm), responses)", e);
    return rc ? -1 : 0;
}

static int check_cache(const opt_registry *r, strbuf *e, const char *name, const gsim_cache_cfg *c, int may_disable)
{
    if (c->disabled) return opt_check(r, e, name, may_disable, "this cache cannot be 'none'");
    return 0;
}

int l1_config_check(const opt_registry *r, const l1_config *c, strbuf *e)
{
    int bad = check_cache(r, e, "-gpgpu_cache:dl1", &c->dl1, 1);
    int per_sector = c->dl1_sector_mshr && c->dl1.type == 'S';
    if (!c->dl1.disabled && c->dl1.mshr_merge * (per_sector ? 4 : 1) > L1_MAX_WOKEN)
        bad |= opt_check(r, e, "-gpgpu_cache:dl1", 0, "the MSHR merge limit is at most %d%s", L1_MAX_WOKEN / (per_sector ? 4 : 1),
                         per_sector ? " with -gtlm_dl1_sector_mshr 1" : "");
    /* GPGPU-Sim's read-miss rule needs two free slots: a one-entry queue would never take a read. */
    bad |= opt_check_pair(r, e, "-gtlm_dl1_read_mq_reserve", "-gpgpu_cache:dl1",
                          c->dl1.disabled || !c->dl1_read_mq_reserve || c->dl1.miss_queue >= 2,
                          "needs an L1D miss queue of at least 2 entries (-gpgpu_cache:dl1 has %d)", c->dl1.miss_queue);
    bad |= check_cache(r, e, "-gpgpu_cache:il1", &c->il1, 0);
    if (c->adaptive_cache && !c->dl1.disabled) {
        long long max_ways = (long long)c->unified_l1d_kb * 1024 / ((long long)c->dl1.nsets * c->dl1.line_size);
        bad |= opt_check_pair(r, e, "-gpgpu_unified_l1d_size", "-gpgpu_cache:dl1",
                              max_ways >= c->dl1.assoc && max_ways <= CACHE_MAX_ASSOC,
                              "the unified array (%d KB) must hold -gpgpu_cache:dl1 and at most %d of its ways",
                              c->unified_l1d_kb, CACHE_MAX_ASSOC);
        int asc = 1;
        for (int i = 1; i < c->shmem_options.n; i++) asc &= c->shmem_options.v[i] > c->shmem_options.v[i - 1];
        bad |= opt_check(r, e, "-gpgpu_shmem_option", asc, "the carve-outs must be in ascending order");
    }
    bad |= opt_check(r, e, "-gpgpu_l1_banks", (c->dl1_banks & (c->dl1_banks - 1)) == 0, "must be a power of two");
    bad |= opt_check(r, e, "-gpgpu_l1_banks_byte_interleaving", (c->dl1_bank_interleave & (c->dl1_bank_interleave - 1)) == 0,
                     "must be a power of two");
    return bad ? -1 : 0;
}

int l2_config_check(const opt_registry *r, const l2_config *c, strbuf *e)
{
    int bad = check_cache(r, e, "-gpgpu_cache:dl2", &c->dl2, 1);
    bad |= opt_check_pair(r, e, "-gtlm_dl2_read_mq_reserve", "-gpgpu_cache:dl2",
                          c->dl2.disabled || !c->dl2_read_mq_reserve || c->dl2.miss_queue >= 2,
                          "needs an L2 miss queue of at least 2 entries (-gpgpu_cache:dl2 has %d)", c->dl2.miss_queue);
    return bad ? -1 : 0;
}
