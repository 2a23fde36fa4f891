#include "llc_baselines.h"

#include <math.h>
#include <stdlib.h>

#include "../config/opt_limits.h"
#include "ext_llc.h"
#include "sm_modes.h"

int llc_baseline_options_register(opt_registry *r, llc_config *c, strbuf *e)
{
    const char *b = "morpheus";
    int rc = 0;
    rc |= opt_add_int(r, b, "-morpheus_larger_llc_sms", &c->larger_llc_sms, "0", 0, 4096,
                      "larger-LLC baseline: every L2 slice gains the extended capacity this many cache-mode SMs give, "
                      "as extra ways (0: off)", e);
    rc |= opt_add_double(r, b, "-morpheus_freq_boost", &c->freq_boost, "0", -1, 100,
                         "Frequency-Boost baseline: % faster interconnect, L2 and DRAM clocks (-1: 10% + 10% x gated SMs "
                         "/ -morpheus_boost_gated_max; 0: off)", e);
    rc |= opt_add_int(r, b, "-morpheus_boost_gated_max", &c->boost_gated_max, "44", 1, 4096,
                      "gated SMs at which -morpheus_freq_boost -1 reaches 20% (the document's largest gated count)", e);
    rc |= opt_add_bool(r, b, "-morpheus_unified_sm_mem", &c->unified_sm_mem, "0",
                       "Unified-SM-Mem baseline: registers a kernel leaves unused become L1D ways, no latency change", e);
    rc |= opt_add_int(r, b, "-morpheus_rbuf_entries", &c->rbuf_entries, "8", 1, 1 << 16,
                      "read data buffer entries (128 B) of a controller (16 per two-slice partition)", e);
    rc |= opt_add_int(r, b, "-morpheus_wbuf_entries", &c->wbuf_entries, "4", 1, 1 << 16,
                      "write data buffer entries (128 B) of a controller (8 per two-slice partition)", e);
    rc |= opt_add_bool(r, b, "-morpheus_llc_stats", &c->llc_stats, "0",
                       "report gpu.llc.* (conventional + extended LLC hits and throughput) also without cache-mode SMs "
                       "(BL and the baselines; always with them)", e);
    rc |= opt_add_bool(r, b, "-morpheus_buffer_stall", &c->buffer_stall, "1",
                       "a full read / write data buffer stalls the controller (0: the buffers are storage only)", e);
    rc |= opt_add_bool(r, b, "-morpheus_noc_xbar", &c->noc_xbar, "1",
                       "controller <-> cache-mode SM packets cross the compute SMs' crossbar, contending for its ports "
                       "and buffers (0: a private uncontended link, ext_link)", e);
    rc |= opt_add_double(r, b, "-morpheus_ctl_power_frac", &c->ctl_power_frac, "0.0093", 0, 1,
                         "Morpheus controllers' power as a fraction of the GPU's (the document: 0.93%)", e);
    rc |= opt_add_int(r, b, "-morpheus_addr_bits", &c->addr_bits, "34", 8, 64,
                      "physical address bits of a WST tag in the storage report (the document's 10 GiB: 34)", e);
    return rc;
}

uint64_t llc_ext_bytes_per_sm(const llc_config *c, int registers, int max_regs_per_thread)
{
    uint32_t warp_regs = registers >= 32 ? (uint32_t)registers / 32 : 1;
    uint64_t ways = 0;
    for (int w = 0; w < c->warps; w++) {
        int unit;
        ways += ellc_ways(c, warp_regs, (uint32_t)max_regs_per_thread, (uint32_t)w, &unit);
    }
    return ways * 128;
}

int llc_larger_llc_ways(const gtlm_config *cfg)
{
    const gsim_cache_cfg *d = &cfg->l2.dl2;
    int slices = gtlm_config_n_l2_slices(cfg);
    double extra = (double)cfg->morpheus.larger_llc_sms *
                   (double)llc_ext_bytes_per_sm(&cfg->morpheus, cfg->sm.registers, cfg->sm.max_regs_per_thread);
    double per_way = (double)d->nsets * d->line_size * (slices > 0 ? slices : 1);
    return d->assoc + (int)lround(extra / per_way);
}

double llc_freq_boost_pct(const llc_config *c, int gated)
{
    if (c->freq_boost >= 0) return c->freq_boost;
    double p = 10.0 + 10.0 * gated / (c->boost_gated_max > 0 ? c->boost_gated_max : 1);
    return p > 20.0 ? 20.0 : p;
}

int llc_unified_l1_ways(const llc_config *c, const gsim_cache_cfg *dl1, uint64_t unused_warp_regs)
{
    uint64_t way_bytes = (uint64_t)dl1->nsets * (uint64_t)dl1->line_size;
    uint64_t extra = way_bytes ? unused_warp_regs * 128 / way_bytes : 0;
    return c->unified_base_ways + (int)extra;
}

int llc_baselines_apply(gtlm_config *cfg, strbuf *e)
{
    llc_config *c = &cfg->morpheus;
    if (c->larger_llc_sms > 0) {
        int ways = llc_larger_llc_ways(cfg);
        if (ways > CACHE_MAX_ASSOC || (long long)ways * cfg->l2.dl2.nsets > CACHE_MAX_LINES) {
            strbuf_printf(e, "-morpheus_larger_llc_sms %d: an L2 slice of %d ways is beyond the cache model's limits\n",
                          c->larger_llc_sms, ways);
            return -1;
        }
        cfg->l2.dl2.assoc = ways;
    }
    if (c->freq_boost != 0) {
        int n = gtlm_config_n_sms(cfg), gated = 0;
        uint8_t *modes = n > 0 ? malloc((size_t)n) : NULL;
        if (!modes) return -1;
        if (sm_modes_resolve(c, n, modes, NULL, e) == 0) gated = sm_modes_count(modes, n, SM_MODE_GATED);
        free(modes);
        double f = 1.0 + llc_freq_boost_pct(c, gated) / 100.0;
        cfg->gpu.clocks.icnt_mhz *= f;
        cfg->gpu.clocks.l2_mhz *= f;
        cfg->gpu.clocks.dram_mhz *= f;
    }
    c->unified_base_ways = cfg->l1.dl1.assoc;
    if (c->unified_sm_mem && !cfg->l1.dl1.disabled) {
        uint64_t warp_regs = cfg->sm.registers > 0 ? (uint64_t)cfg->sm.registers / 32 : 0;
        int ways = llc_unified_l1_ways(c, &cfg->l1.dl1, warp_regs);
        if (ways > CACHE_MAX_ASSOC || (long long)ways * cfg->l1.dl1.nsets > CACHE_MAX_LINES) {
            strbuf_printf(e, "-morpheus_unified_sm_mem: an L1D of %d ways is beyond the cache model's limits\n", ways);
            return -1;
        }
        cfg->l1.dl1.assoc = ways;
    }
    return 0;
}

static uint32_t bits_for(uint64_t n)
{
    uint32_t b = 0;
    while ((1ull << b) < n) b++;
    return b;
}

llc_storage_bits llc_storage_report(const llc_config *c, int n_sms, int addr_bits)
{
    llc_storage_bits s = {0};
    uint64_t rows = (uint64_t)c->wst_rows;
    s.bloom = 2ull * (uint64_t)c->bloom_bits * rows;
    /* A WST row (G6): line tag, origin SM, busy, op (read/write/atomic/fill), result, buffer pointer. */
    uint32_t tag = addr_bits > 7 ? (uint32_t)addr_bits - 7 : 0;
    s.wst_row_bits = tag + bits_for((uint64_t)n_sms) + 1 + 2 + 1 + bits_for((uint64_t)(c->rbuf_entries + c->wbuf_entries));
    s.wst = rows * s.wst_row_bits;
    /* A queue entry: the request as it arrived (address, origin, op, byte mask of a sector write). */
    s.queue_entry_bits = 128;
    s.queue = (uint64_t)c->queue_depth * s.queue_entry_bits;
    s.rbuf = (uint64_t)c->rbuf_entries * 128 * 8;
    s.wbuf = (uint64_t)c->wbuf_entries * 128 * 8;
    s.total = s.bloom + s.wst + s.queue + s.rbuf + s.wbuf;
    return s;
}
