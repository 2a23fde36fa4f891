/* The SM's power-mode seam: its warp registers (one power block per 128-byte warp register), its
 * L1 data cache lines and the whole SM, under the configured policy (baseline: always ON). */
#include "sm_internal.h"

int sm_power_init(sm_core *s)
{
    const power_config *pc = &s->cfg->power;
    const pm_policy *pol = pm_policy_find(pc->policy);
    const pm_policy *other = pm_policy_non_cache(pol); /* cache-only policies leave these ON */
    double mhz = s->cfg->gpu.clocks.core_mhz;
    uint32_t nregs = s->cfg->sm.registers >= 32 ? (uint32_t)s->cfg->sm.registers / 32 : 1;
    s->rf_stride = nregs / (s->n_slots ? s->n_slots : 1);
    if (!s->rf_stride) s->rf_stride = 1;
    if (pm_domain_init(&s->rf_pm, nregs, &pc->modes[PWR_G_REG], pc->leak_mw[PWR_LK_RF] / nregs, mhz, other) != 0)
        return -1;
    if (pm_domain_init(&s->sm_pm, 1, &pc->modes[PWR_G_SM], pc->leak_mw[PWR_LK_SM], mhz, pm_policy_sm(pol)) != 0)
        return -1;
    if (other && other->regs_only && sm_slumber_init(s) != 0) return -1;
    cache_pm_set_per_sector(&s->l1d, cache_pm_per_sector_for(pc->policy, pc->sector_blocks[0]));
    cache_pm_set_resq(&s->l1d, pc->snooze_resq);
    if (s->l1d_enabled &&
        cache_pm_init(&s->l1d, &pc->modes[PWR_G_L1D], pc->leak_mw[PWR_LK_L1D], mhz, pol, pc->lines_per_block[0]) != 0)
        return -1;
    /* [151]'s L1 rule: low-leakage while the warp scheduler has no ready warp (sm_issue_cycle). */
    s->pm_l1d_idle = s->l1d_enabled && pol == &pm_policy_coarse151;
    return 0;
}

int sm_power_gate(sm_core *s)
{
    const power_config *pc = &s->cfg->power;
    double mhz = s->cfg->gpu.clocks.core_mhz;
    uint32_t nregs = s->rf_pm.n;
    pm_domain_free(&s->rf_pm);
    pm_domain_free(&s->sm_pm);
    s->pm_l1d_idle = 0;
    if (pm_domain_init(&s->rf_pm, nregs, &pc->modes[PWR_G_REG], pc->leak_mw[PWR_LK_RF] / nregs, mhz, &pm_policy_gated) != 0)
        return -1;
    if (pm_domain_init(&s->sm_pm, 1, &pc->modes[PWR_G_SM], pc->leak_mw[PWR_LK_SM], mhz, &pm_policy_gated) != 0) return -1;
    if (s->l1d_enabled &&
        cache_pm_init(&s->l1d, &pc->modes[PWR_G_L1D], pc->leak_mw[PWR_LK_L1D], mhz, &pm_policy_gated, pc->lines_per_block[0]) != 0)
        return -1;
    return 0;
}

void sm_power_free(sm_core *s)
{
    sm_slumber_free(s);
    pm_domain_free(&s->rf_pm);
    pm_domain_free(&s->sm_pm);
}

void sm_power_kernel_begin(sm_core *s, uint64_t now)
{
    /* The register file is shared by the warp slots this kernel can fill (its occupancy), so a
     * warp's registers never overlap another resident warp's. */
    uint32_t slots = s->max_ctas_kernel * s->warps_per_cta;
    if (slots && slots <= s->n_slots) s->rf_stride = s->rf_pm.n / slots ? s->rf_pm.n / slots : 1;
    pm_kernel_begin(&s->rf_pm, now);
    pm_kernel_begin(&s->sm_pm, now);
    if (s->l1d_enabled) pm_kernel_begin(&s->l1d.pm, now);
}

void sm_power_close(sm_core *s, uint64_t now)
{
    if (s->slb) sm_slumber_tick(s, now); /* countdowns due by the end */
    pm_close(&s->rf_pm, now);
    pm_close(&s->sm_pm, now);
    if (s->l1d_enabled) pm_close(&s->l1d.pm, now);
}

/* Warp slot s owns physical warp registers [s * stride, (s + 1) * stride). The kernel's registers
 * (PTX virtual registers of its frame: sb_regs per warp, often more than the physical ones ptxas
 * would allocate) are spread over them in order, several sharing a block when there are more. */
uint32_t sm_power_reg_unit(const sm_core *s, uint32_t reg)
{
    uint32_t stride = s->rf_stride, nv = s->sb_regs;
    uint32_t r = nv > stride ? (uint32_t)((uint64_t)reg * stride / nv) : reg;
    return r >= stride ? stride - 1 : r;
}

uint32_t sm_power_reg_block(const sm_core *s, uint32_t slot, uint32_t reg)
{
    return (slot * s->rf_stride + sm_power_reg_unit(s, reg)) % s->rf_pm.n;
}

uint32_t sm_power_operands(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t base, uint64_t cycle)
{
    uint32_t reads = 0, writes = 0;
    for (int i = 0; i < in->nsrc; i++) reads += in->src[i] != PTX_NO_REG;
    for (int i = 0; i < in->ndst; i++) writes += in->dst[i] != PTX_NO_REG;
    s->st.rf_reads += reads;
    s->st.rf_writes += writes;
    if (!pm_active(&s->rf_pm)) return 0;
    if (s->slb) return sm_slumber_issue(s, slot, in, base, cycle);
    /* The operands wake in parallel: the access waits for the slowest. */
    int wait = 0;
    for (int i = 0; i < in->nsrc; i++) {
        if (in->src[i] == PTX_NO_REG) continue;
        int w = pm_access(&s->rf_pm, sm_power_reg_block(s, slot, in->src[i] + base), cycle, NULL);
        if (w > wait) wait = w;
    }
    for (int i = 0; i < in->ndst; i++) {
        if (in->dst[i] == PTX_NO_REG) continue;
        int w = pm_access(&s->rf_pm, sm_power_reg_block(s, slot, in->dst[i] + base), cycle, NULL);
        if (w > wait) wait = w;
    }
    return (uint32_t)wait;
}

static void slot_regs(sm_core *s, uint32_t slot, uint32_t n, pm_event ev, uint64_t now)
{
    for (uint32_t r = 0; r < n; r++) pm_event_report(&s->rf_pm, (slot * s->rf_stride + r) % s->rf_pm.n, ev, now);
}

void sm_power_cta_start(sm_core *s, const sm_cta_slot *c, uint64_t cycle)
{
    if (pm_active(&s->sm_pm)) {
        int wait = pm_access(&s->sm_pm, 0, cycle, NULL);
        if (wait && cycle + (uint64_t)wait > s->pm_issue_at) s->pm_issue_at = cycle + (uint64_t)wait;
        pm_event_report(&s->sm_pm, 0, PM_EV_ALLOC, cycle);
    }
    if (s->slb && !rfp_is_wrf(&s->rf_pm)) sm_slumber_cta_start(s, c, cycle);
    else if (pm_active(&s->rf_pm)) {
        uint32_t n = s->rf_stride; /* WRF allocates the registers the kernel's map uses */
        if (s->slb) sm_slumber_kernel_map(s), n = sm_slumber_units_used(s);
        for (uint32_t i = 0; i < s->warps_per_cta; i++) slot_regs(s, c->first_slot + i, n, PM_EV_ALLOC, cycle);
    }
}

void sm_power_cta_done(sm_core *s, const sm_cta_slot *c)
{
    uint64_t now = s->last_tick == SM_NEVER ? 0 : s->last_tick;
    if (pm_active(&s->rf_pm))
        for (uint32_t i = 0; i < s->warps_per_cta; i++) slot_regs(s, c->first_slot + i, s->rf_stride, PM_EV_FREE, now);
    if (pm_active(&s->sm_pm) && !s->live_ctas) pm_event_report(&s->sm_pm, 0, PM_EV_FREE, now);
    if (s->l1d_enabled && !s->live_ctas) cache_pm_finish(&s->l1d, now); /* all its CTAs done (T6/T7) */
}
