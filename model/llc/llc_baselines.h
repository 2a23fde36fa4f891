/* Morpheus' comparison baselines (seed §6, spec §7 table) as configurations derived from the
 * others once the options are read, and the controller's storage report (§7.5, G6).
 *   larger-LLC:      every L2 slice gains the extended-LLC capacity -morpheus_larger_llc_sms cache-mode SMs
 *                    would give (-morpheus_storage), as extra ways: same sets, slices (banks), latency.
 *   Frequency-Boost: the interconnect, L2 and DRAM clocks run -morpheus_freq_boost % faster; -1 takes the
 *                    document's 10%-20% "depending on the number of power-gated cores" (G17):
 *                    10% + 10% x gated / -morpheus_boost_gated_max, at most 20%.
 *   Unified-SM-Mem:  the L1D is built with the register file's ways added; each kernel uses its own
 *                    ways plus the ways its unused registers fill (sm_core.c, at kernel start).
 * Off (0) by default: the configuration is then untouched. */
#ifndef GTLM_LLC_BASELINES_H
#define GTLM_LLC_BASELINES_H

#include <stdint.h>

#include "../common/strbuf.h"
#include "../gpu/gpu_config.h"

/* Extended-LLC bytes one cache-mode SM gives under c's storage variant. */
uint64_t llc_ext_bytes_per_sm(const llc_config *c, int registers, int max_regs_per_thread);
/* L2 ways per slice of the larger-LLC baseline (base ways plus the cache-mode SMs' share, rounded). */
int llc_larger_llc_ways(const gtlm_config *cfg);
/* The Frequency-Boost percentage for `gated` power-gated SMs. */
double llc_freq_boost_pct(const llc_config *c, int gated);
/* L1D ways a kernel gets under Unified-SM-Mem: the base ways plus unused_warp_regs x 128 bytes. */
int llc_unified_l1_ways(const llc_config *c, const gsim_cache_cfg *dl1, uint64_t unused_warp_regs);

/* Applies the baselines to cfg (after gtlm_config_check). 0, or -1 with a message in err. */
int llc_baselines_apply(gtlm_config *cfg, strbuf *err);

/* Storage of one Morpheus controller (one L2 slice), in bits (§7.5: 16 KiB of Bloom filters and
 * 5 KiB of query logic per two-slice partition; field widths: G6). */
typedef struct llc_storage_bits {
    uint64_t bloom, wst, queue, rbuf, wbuf, total;
    uint32_t wst_row_bits, queue_entry_bits;
} llc_storage_bits;
llc_storage_bits llc_storage_report(const llc_config *c, int n_sms, int addr_bits);

#endif
