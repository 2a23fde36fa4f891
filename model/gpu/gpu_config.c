#include "gpu_config.h"

#include "../config/opt_check.h"
#include "../llc/llc_baselines.h"

int gpu_top_options_register(opt_registry *r, gpu_top_config *c, strbuf *e);
int gpu_top_config_check(const opt_registry *r, const gpu_top_config *c, strbuf *e);

int gtlm_config_register(opt_registry *r, gtlm_config *cfg, strbuf *e)
{
    int rc = 0;
    /* One line per block that owns options. */
    rc |= gpu_top_options_register(r, &cfg->gpu, e);
    rc |= sm_options_register(r, &cfg->sm, e);
    rc |= l1_options_register(r, &cfg->l1, e);
    rc |= l2_options_register(r, &cfg->l2, e);
    rc |= noc_options_register(r, &cfg->noc, e);
    rc |= dram_options_register(r, &cfg->dram, e);
    rc |= tbsched_options_register(r, &cfg->tbsched, e);
    rc |= trace_options_register(r, &cfg->trace, e);
    rc |= power_options_register(r, &cfg->power, e);
    rc |= lb_options_register(r, &cfg->lb, e);
    rc |= lbc_options_register(r, &cfg->lbc, e);
    rc |= cbwt_options_register(r, &cfg->cbwt, e);
    rc |= llc_options_register(r, &cfg->morpheus, e);
    r->compat_flag = &cfg->gpu.gpgpusim_compat;
    return rc ? -1 : 0;
}

/* Checks between blocks: the largest interconnect packet (an 8-byte header plus an L1 line, the
 * most a response or a write carries) must fit the crossbar's buffers, or it could never cross. */
static int cross_check(const opt_registry *r, const gtlm_config *cfg, strbuf *e)
{
    int line = cfg->l1.dl1.disabled ? 128 : cfg->l1.dl1.line_size;
    if (line < 128) line = 128;
    if (cfg->noc.flit_size <= 0) return 0; /* reported by the interconnect's own check */
    int flits = (NOC_HEADER_BYTES + line + cfg->noc.flit_size - 1) / cfg->noc.flit_size;
    int rc = 0;
    rc |= opt_check(r, e, "-icnt_in_buffer_limit", cfg->noc.in_buffer_limit >= flits,
                    "must hold the largest packet: %d flits of %d bytes (a header of %d bytes and a %d-byte line)", flits,
                    cfg->noc.flit_size, NOC_HEADER_BYTES, line);
    rc |= opt_check(r, e, "-icnt_out_buffer_limit", cfg->noc.out_buffer_limit >= flits,
                    "must hold the largest packet: %d flits of %d bytes (a header of %d bytes and a %d-byte line)", flits,
                    cfg->noc.flit_size, NOC_HEADER_BYTES, line);
    /* The partition hashes need power-of-two counts (dram_addr_set_partition_indexing). */
    int ch = cfg->gpu.n_mem, sub = ch * cfg->gpu.sub_partitions_per_channel;
    int pi = cfg->dram.partition_indexing;
    rc |= opt_check_pair(r, e, "-gpgpu_memory_partition_indexing", "-gpgpu_n_mem",
                         pi != 1 || (ch > 0 && (ch & (ch - 1)) == 0),
                         "1 (XOR) needs a power-of-two channel count, not %d", ch);
    rc |= opt_check_pair(r, e, "-gpgpu_memory_partition_indexing", "-gpgpu_n_mem",
                         pi != 2 || (sub >= 2 && sub <= 65536 && (sub & (sub - 1)) == 0),
                         "2 (IPOLY) needs channels x sub-partitions a power of two from 2 to 65536, not %d "
                         "(GPGPU-Sim supports 16, 32 and 64; use 0, linear)", sub);
    return rc;
}

static int list_max(const gsim_int_list *l, int m)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i] > m) m = l->v[i];
    return m;
}

/* The longest a warp or a memory access may wait on a fixed latency, in core cycles: an SM unit's
 * latency or initiation interval, or one DRAM access (ROP, interconnect and DRAM latency plus
 * its longest timing in core cycles). */
static double longest_wait(const gtlm_config *c)
{
    int core = c->sm.lat_sfu > c->sm.init_sfu ? c->sm.lat_sfu : c->sm.init_sfu;
    const gsim_int_list *lists[] = {&c->sm.lat_int, &c->sm.init_int, &c->sm.lat_fp, &c->sm.init_fp, &c->sm.lat_dp,
                                    &c->sm.init_dp};
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) core = list_max(lists[i], core);
    for (int i = 0; i < 5; i++) core = list_max(&c->trace.lat_init[i], core);
    if (c->sm.smem_latency > core) core = c->sm.smem_latency;
    if (c->l1.dl1_latency > core) core = c->l1.dl1_latency;
    const gsim_dram_timing *t = &c->dram.timing;
    int dram = t->tRC;
    const int timings[] = {t->tCCD, t->tRRD, t->tRCD, t->tRAS, t->tRP, t->CL, t->WL, t->tCDLR, t->tWR, t->tCCDL, t->tRTPL};
    for (size_t i = 0; i < sizeof timings / sizeof *timings; i++)
        if (timings[i] > dram) dram = timings[i];
    double mem = c->l2.rop_latency + c->noc.latency + c->dram.latency + dram * c->gpu.clocks.core_mhz / c->gpu.clocks.dram_mhz;
    return mem > core ? mem : core;
}

int gtlm_config_check(const opt_registry *r, const gtlm_config *cfg, strbuf *e)
{
    int rc = 0;
    rc |= gpu_top_config_check(r, &cfg->gpu, e);
    rc |= sm_config_check(r, &cfg->sm, e);
    rc |= l1_config_check(r, &cfg->l1, e);
    rc |= l2_config_check(r, &cfg->l2, e);
    rc |= noc_config_check(r, &cfg->noc, e);
    rc |= dram_config_check(r, &cfg->dram, e);
    rc |= trace_config_check(r, &cfg->trace, e);
    rc |= power_config_check(r, &cfg->power, e);
    rc |= lb_config_check(r, &cfg->lb, e);
    rc |= lbc_config_check(r, &cfg->lbc, e);
    rc |= cbwt_config_check(r, &cfg->cbwt, e);
    rc |= llc_config_check(r, &cfg->morpheus, gtlm_config_n_sms(cfg), e);
    rc |= cross_check(r, cfg, e);
    if (rc == 0) {
        /* A unit waiting out its own latency is not a deadlock: the watchdog must wait longer. */
        double wait = longest_wait(cfg);
        rc |= opt_check(r, e, "-gtlm_watchdog_cycles", cfg->gpu.watchdog_cycles > 2 * wait,
                        "%lld cycles would stop runs that only wait out a configured latency: expected more than "
                        "twice the longest one (%.0f core cycles)",
                        (long long)cfg->gpu.watchdog_cycles, wait);
    }
    return rc ? -1 : 0;
}

int gtlm_config_derive(gtlm_config *cfg, strbuf *e) { return llc_baselines_apply(cfg, e); }

int gtlm_config_n_sms(const gtlm_config *cfg) { return cfg->gpu.n_clusters * cfg->gpu.cores_per_cluster; }

int gtlm_config_n_l2_slices(const gtlm_config *cfg) { return cfg->gpu.n_mem * cfg->gpu.sub_partitions_per_channel; }
