/* Linebacker's comparison baselines in the SM (issue 18, spec linebacker.md §7; model/lbcompare):
 * - PCAL: per period of -pcal_period cycles the SM's IPC tunes the tokens T and the warp limit W
 *   (pcal.c); a global load of a warp without a token that would miss in the L1 (line absent and
 *   not pending) skips the L1 (a Bypass: no MSHR, no allocation, no eviction). Tokens go to the T
 *   oldest live warps, split among the schedulers as the warp limit is (sched_split_limit).
 * - CacheExt / CERF: the L1 is built with the register file's capacity as extra ways (sm_core.c
 *   asks sm_lbc_l1_shape); at a kernel's start the ways its unused registers fill become usable
 *   (cache_core.ways_usable). CacheExt is ideal; CERF reads every hit from and writes every fill into
 *   the register banks through the arbiter (bank conflicts with operand reads, -cerf_all_lines). */
#include "sm_internal.h"

#include "../lbcompare/l1ext.h"

void sm_lbc_l1_shape(const gtlm_config *cfg, gsim_cache_cfg *l1)
{
    const lbc_config *c = &cfg->lbc;
    if (l1->disabled || !(c->cacheext || c->cerf)) return;
    uint32_t n_regs = (uint32_t)(cfg->sm.registers > 0 ? cfg->sm.registers : 0) / 32u;
    l1->assoc += (int)l1ext_max_extra_ways(n_regs, (uint32_t)l1->nsets, (uint32_t)l1->line_size);
}

void sm_lbc_init(sm_core *s)
{
    const lbc_config *c = &s->cfg->lbc;
    s->pcal_on = c->pcal && s->l1d_enabled;
    s->l1ext_on = (c->cacheext || c->cerf) && s->l1d_enabled;
    s->cerf_on = c->cerf && s->l1d_enabled;
    s->l1_base_ways = (uint32_t)s->cfg->l1.dl1.assoc;
}

/* The SM-wide limit the schedulers enforce now (sum of their shares), 0 = none. */
static uint32_t sm_warp_limit(const sm_core *s)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->n_sched; k++) {
        if (!s->scheds[k].warp_limit) return 0;
        n += s->scheds[k].warp_limit;
    }
    return n;
}

static void pcal_apply(sm_core *s)
{
    uint32_t lim = pcal_warp_limit(&s->pcal);
    for (uint32_t k = 0; k < s->n_sched; k++) sched_set_warp_limit(&s->scheds[k], sched_split_limit(lim, k, s->n_sched));
}

void sm_lbc_kernel_begin(sm_core *s)
{
    uint32_t resident = s->max_ctas_kernel * s->warps_per_cta;
    if (s->l1ext_on) {
        uint32_t per_warp = s->warps_per_cta ? s->rf.cta_nreg / s->warps_per_cta : 0;
        uint32_t unused = l1ext_unused_regs(regfile_sur(&s->rf), resident, per_warp, sm_warp_limit(s), s->cfg->lbc.cacheext_dur);
        if (s->cerf_on) unused += l1ext_rare_regs(resident, per_warp, s->cfg->lbc.cerf_rare_frac); /* live warps' rarely used */
        uint32_t max = (uint32_t)s->l1d.assoc - s->l1_base_ways;
        s->l1_extra_ways = l1ext_extra_ways(unused, (uint32_t)s->l1d.nsets, (uint32_t)s->l1d.cfg.line_size, max);
        s->l1d.ways_usable = (int)(s->l1_base_ways + s->l1_extra_ways); /* the L1 was just invalidated */
        s->st.l1ext_way_kernels += s->l1_extra_ways;
    }
    if (s->pcal_on) {
        const lbc_config *c = &s->cfg->lbc;
        pcal_reset(&s->pcal, resident, (uint32_t)c->pcal_tokens, (uint32_t)c->pcal_step, c->pcal_dynamic);
        s->pcal_next = 0;
        s->pcal_at = SM_NEVER;
        s->pcal_first_period = s->st.pcal_periods;
        pcal_apply(s);
    }
}

void sm_lbc_tick(sm_core *s, uint64_t cycle)
{
    if (!s->pcal_on) return;
    if (s->pcal_at != SM_NEVER && cycle > s->pcal_at && s->live_ctas) {
        s->st.pcal_token_cycles += (cycle - s->pcal_at) * s->pcal.tokens;
        s->st.pcal_warp_cycles += (cycle - s->pcal_at) * s->pcal.warps;
    }
    s->pcal_at = cycle;
    uint64_t period = (uint64_t)s->cfg->lbc.pcal_period;
    if (s->pcal_next == 0) {
        s->pcal_next = cycle + period;
        s->pcal_insn = s->st.warp_insn;
    }
    while (cycle >= s->pcal_next) {
        s->pcal_next += period;
        double ipc = (double)(s->st.warp_insn - s->pcal_insn) / (double)period;
        s->pcal_insn = s->st.warp_insn;
        uint64_t before = s->pcal.changes;
        if (s->st.pcal_periods > s->pcal_first_period)
            pcal_period_end(&s->pcal, ipc);
        else if (s->cfg->lbc.pcal_start_live && s->live_warps) /* the first: cold L1, no sample */
            pcal_set_live(&s->pcal, s->live_warps);
        s->st.pcal_periods++;
        if (s->pcal.changes != before) pcal_apply(s);
    }
}

/* The rank of slot among its scheduler's live warps, oldest first (n_live when not live). */
static uint32_t age_rank(const sched *q, uint32_t slot)
{
    uint32_t j = sched_local(q, slot);
    for (uint32_t k = 0; k < q->n_live; k++)
        if (q->by_age[k] == j) return k;
    return q->n_live;
}

int sm_lbc_pcal_bypass(sm_core *s, uint32_t slot, uint64_t line)
{
    const sched *q = &s->scheds[slot % s->n_sched];
    if (age_rank(q, slot) < sched_split_limit(s->pcal.tokens, q->id, s->n_sched)) return 0; /* holds a token */
    if (cache_probe(&s->l1d, line, NULL) >= 0) return 0; /* present or pending: it hits or merges */
    s->st.pcal_bypasses++;
    return 1;
}

uint32_t sm_lbc_free_top(const sm_core *s)
{
    uint32_t n = s->rf.cfg.n_regs;
    if (!s->l1ext_on) return n;
    uint64_t taken = (uint64_t)s->l1_extra_ways * (uint64_t)s->l1d.nsets * (uint64_t)s->l1d.cfg.line_size / REGFILE_LINE_BYTES;
    return taken < n ? n - (uint32_t)taken : 0;
}

/* CERF: one 128-byte access of the line's register through the arbiter; its wait in cycles. */
uint32_t sm_lbc_cerf_access(sm_core *s, uint64_t line, int is_write, uint64_t cycle)
{
    int way = cache_probe(&s->l1d, line, NULL);
    if (way < 0 || (!s->cfg->lbc.cerf_all_lines && (uint32_t)way < s->l1_base_ways)) return 0;
    uint32_t set = (uint32_t)cache_set_index(&s->l1d, line);
    uint32_t wait = regfile_nonop_access(&s->rf, l1ext_rn(set, (uint32_t)way, (uint32_t)s->l1d.assoc), is_write, cycle);
    if (!is_write) {
        s->st.cerf_reg_hits++;
        s->st.cerf_wait_cycles += wait;
    }
    return wait;
}
