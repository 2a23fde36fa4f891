/* Linebacker in the SM (issue 18, spec linebacker.md §3.2-3.3): the Load Monitor counts global
 * load hits (L1 or victim tags) and misses per hashed PC; L1 evictions feed the Victim Tag Table,
 * tags only while monitoring, then (ACTIVE) the lines of the selected loads are moved into the
 * partitions whose registers no CTA uses (statically unused registers: above the kernel's resident
 * CTAs). An L1 miss then searches the active partitions in order; a hit is served from the register
 * file through its arbiter (a Reg hit, no L2 request, no L1 refill). Stores invalidate victim lines.
 * A VTT miss's search (3 cycles per active partition) delays its L2 request: the L1's outgoing
 * read waits in the miss queue until the search is over (-lb_search_delay). CTA throttling and the
 * register backup/restore that frees dynamically unused registers are sm_lb_throttle.c. */
#include "sm_internal.h"

#include <stdlib.h>

#include "../linebacker/lb_ctl.h"

static void on_evict(void *ctx, const cache_line *line, int set, int way)
{
    (void)way;
    sm_core *s = ctx;
    if (!line->valid || s->lb_storing) return; /* no data, or a store's write-evict: nothing to keep */
    lb_vtt_hit h;
    int ev;
    if (s->lb_lm.state == LB_MONITOR) {
        lb_vtt_insert(&s->lb_vtt, (uint32_t)set, line->tag, &h, &ev);
        return;
    }
    s->st.lb_lm_accesses += s->lb_lm.state == LB_ACTIVE; /* is the victim's load selected? */
    if (s->lb_lm.state != LB_ACTIVE || line->dirty || !lb_monitor_selected(&s->lb_lm, (uint8_t)(line->owner_pc_hash & 31u)) ||
        !lb_vtt_insert(&s->lb_vtt, (uint32_t)set, line->tag, &h, &ev)) {
        s->st.lb_victims_dropped++;
        return;
    }
    /* the write of the 128-byte line into its register, through the arbiter */
    regfile_nonop_access(&s->rf, regfile_victim_rn(&s->rf.cfg, h.vp, (uint32_t)set, h.way), 1, s->l1d.now);
    s->st.lb_victims_stored++;
}

int sm_lb_init(sm_core *s)
{
    const lb_config *c = &s->cfg->lb;
    s->lb_on = c->enable && s->l1d_enabled;
    if (!s->lb_on) return 0;
    lb_vtt_config vc = {(uint32_t)s->l1d.nsets, (uint32_t)c->vtt_ways, (uint32_t)c->vp_ways, (uint32_t)c->vp_latency};
    if (lb_vtt_init(&s->lb_vtt, &vc) != 0 || sm_lbt_init(s) != 0) return -1;
    s->rf.cfg.vc_base = (uint32_t)c->rn_base;
    s->rf.cfg.vtt_sets = vc.sets;
    s->rf.cfg.vp_ways = vc.vp_ways;
    cache_hooks h = {0};
    h.ctx = s;
    h.on_evict = on_evict;
    cache_set_hooks(&s->l1d, &h);
    return 0;
}

void sm_lb_free(sm_core *s)
{
    if (s->lb_vtt.tag) lb_vtt_free(&s->lb_vtt);
    sm_lbt_free(s);
    free(s->lb_dly);
    s->lb_dly = NULL;
}

/* Partitions above the registers in use: with throttling those of the CTAs that hold live values
 * (LRN, Gap G4), else every register the resident CTAs may take (statically unused only); and
 * below the registers CacheExt / CERF made L1 ways (LB+CacheExt: the victims get the DUR only). */
static uint32_t vp_mask(const sm_core *s)
{
    uint32_t vp_regs = s->lb_vtt.cfg.sets * s->lb_vtt.cfg.vp_ways;
    if (s->lb_thr_on) {
        int any = 0;
        for (uint32_t r = 0; r < s->rf.resident; r++) any |= s->rf.cta_active[r];
        return lb_ctl_vp_mask(regfile_lrn(&s->rf), any, s->rf.cfg.vc_base, vp_regs, s->lb_vtt.n_vp, sm_lbc_free_top(s));
    }
    uint32_t used = s->rf.resident * s->rf.cta_nreg; /* registers the resident CTAs may take */
    return lb_ctl_vp_mask(used ? used - 1 : 0, used > 0, s->rf.cfg.vc_base, vp_regs, s->lb_vtt.n_vp, sm_lbc_free_top(s));
}

void sm_lb_update_vps(sm_core *s)
{
    if (!s->lb_on || s->lb_lm.state != LB_ACTIVE) return;
    uint32_t m = vp_mask(s);
    if (m == s->lb_vp_mask) return;
    lb_vtt_set_active(&s->lb_vtt, m); /* partitions leaving lose their lines (never dirty) */
    s->lb_vp_mask = m;
    s->st.lb_vp_changes++;
}

/* The VC variant selects every hashed PC at once and never monitors. */
static void activate(sm_core *s)
{
    s->lb_vp_mask = vp_mask(s);
    lb_vtt_set_active(&s->lb_vtt, s->lb_vp_mask);
    s->st.lb_activations++;
    s->st.lb_active_vps += lb_vtt_n_active(&s->lb_vtt);
    for (uint32_t m = s->lb_lm.selected; m; m &= m - 1) s->st.lb_selected_loads++;
}

void sm_lb_kernel_begin(sm_core *s)
{
    if (!s->lb_on) return;
    lb_monitor_reset(&s->lb_lm, s->cfg->lb.hit_threshold);
    lb_vtt_reset(&s->lb_vtt, 1);
    s->lb_next_period = 0;
    s->lb_vp_mask = 0;
    s->lb_dly_n = 0;
    s->lb_search = 0;
    s->lb_acc_at = SM_NEVER;
    sm_lbt_kernel_begin(s);
    if (s->cfg->lb.victim_all) {
        s->lb_lm.state = LB_ACTIVE;
        s->lb_lm.selected = UINT32_MAX;
        activate(s);
    }
}

/* Time averages: the state since the last tick held for the cycles in between (CTAs resident). */
static void accumulate(sm_core *s, uint64_t cycle)
{
    if (s->lb_acc_at != SM_NEVER && cycle > s->lb_acc_at && s->live_ctas) {
        uint64_t dt = cycle - s->lb_acc_at;
        s->st.lb_sur_reg_cycles += dt * regfile_sur(&s->rf);
        s->st.lb_dur_reg_cycles += dt * regfile_dur(&s->rf);
        s->st.lb_vp_reg_cycles += dt * lb_vtt_n_active(&s->lb_vtt) * s->lb_vtt.cfg.sets * s->lb_vtt.cfg.vp_ways;
        uint32_t n = 0;
        for (uint32_t k = 0; k < s->max_ctas_kernel; k++) n += s->ctas[k].live && !sm_lb_held(s, k);
        s->st.lb_active_cta_cycles += dt * n;
    }
    s->lb_acc_at = cycle;
}

void sm_lb_tick(sm_core *s, uint64_t cycle)
{
    if (!s->lb_on) return;
    s->lb_now = cycle;
    accumulate(s, cycle);
    uint64_t period = (uint64_t)s->cfg->lb.period;
    if (s->lb_next_period == 0) s->lb_next_period = cycle + period;
    while (cycle >= s->lb_next_period) {
        s->lb_next_period += period;
        if (s->lb_lm.state == LB_MONITOR) {
            s->st.lb_periods++;
            int per_load = s->cfg->lb.load_stats;
            for (int h = 0; per_load && h < LB_LM_ENTRIES; h++) {
                s->st.lb_ld_hits[h] += s->lb_lm.e[h].hit;
                s->st.lb_ld_misses[h] += s->lb_lm.e[h].miss;
            }
            lb_state st = lb_monitor_period_end(&s->lb_lm);
            s->st.lb_lm_accesses += LB_LM_ENTRIES; /* every entry classified and shifted */
            for (int h = 0; per_load && h < LB_LM_ENTRIES; h++) {
                s->st.lb_ld_high[h] += s->lb_lm.e[h].valid & 1u;
                s->st.lb_ld_selected[h] += st == LB_ACTIVE && lb_monitor_selected(&s->lb_lm, (uint8_t)h);
            }
            if (st == LB_ACTIVE) {
                lb_vtt_reset(&s->lb_vtt, 0); /* the monitoring tags are dropped */
                activate(s);
                s->lb_just_active = 1;
            } else if (st == LB_DISABLED) {
                s->st.lb_disabled++;
            }
        }
        sm_lbt_period_end(s, period);
    }
    sm_lbt_tick(s, cycle);
}

void sm_lb_miss_queued(sm_core *s, uint64_t line, uint64_t cycle)
{
    uint64_t search = s->lb_search;
    s->lb_search = 0;
    if (!search || cycle == SM_NEVER || !s->cfg->lb.search_delay) return;
    if (s->lb_dly_n == s->lb_dly_cap) {
        uint32_t cap = s->lb_dly_cap ? s->lb_dly_cap * 2 : 64;
        uint64_t *q = malloc(2 * cap * sizeof *q);
        if (!q) return; /* no memory: the request just goes without its search delay */
        for (uint32_t i = 0; i < s->lb_dly_n; i++) {
            q[2 * i] = s->lb_dly[2 * ((s->lb_dly_head + i) % s->lb_dly_cap)];
            q[2 * i + 1] = s->lb_dly[2 * ((s->lb_dly_head + i) % s->lb_dly_cap) + 1];
        }
        free(s->lb_dly);
        s->lb_dly = q;
        s->lb_dly_cap = cap;
        s->lb_dly_head = 0;
    }
    uint32_t t = (s->lb_dly_head + s->lb_dly_n) % s->lb_dly_cap;
    s->lb_dly[2 * t] = line;
    s->lb_dly[2 * t + 1] = cycle + search;
    s->lb_dly_n++;
    s->st.lb_search_cycles += search;
}

int sm_lb_l1_held(const sm_core *s)
{
    if (!s->lb_dly_n) return 0;
    const cache_out *o = cache_out_peek(&s->l1d);
    return o && o->kind == CACHE_OUT_READ && o->addr == s->lb_dly[2 * s->lb_dly_head] &&
           s->lb_dly[2 * s->lb_dly_head + 1] > s->lb_now;
}

void sm_lb_l1_sent(sm_core *s, uint64_t line)
{
    /* the read of the oldest held miss left; entries the L1 never sent (merged) are dropped with it */
    for (uint32_t i = 0; i < s->lb_dly_n; i++)
        if (s->lb_dly[2 * ((s->lb_dly_head + i) % s->lb_dly_cap)] == line) {
            s->lb_dly_head = (s->lb_dly_head + i + 1) % s->lb_dly_cap;
            s->lb_dly_n -= i + 1;
            return;
        }
}

int sm_lb_load_lookup(sm_core *s, uint64_t line, uint64_t cycle, int latency, uint64_t *done)
{
    if (!s->lb_on || s->lb_lm.state != LB_ACTIVE || !s->lb_vtt.active) return 0;
    if (cache_probe(&s->l1d, line, NULL) >= 0) return 0; /* the L1 has (or is fetching) the line */
    uint32_t set = (uint32_t)cache_set_index(&s->l1d, line);
    uint64_t tag = cache_line_addr(&s->l1d, line);
    lb_vtt_hit h;
    if (!lb_vtt_lookup(&s->lb_vtt, set, tag, &h)) {
        s->st.lb_vtt_misses++;
        s->lb_search = h.latency; /* the L2 request waits for it (sm_lb_miss_queued) */
        return 0;
    }
    uint32_t rn = regfile_victim_rn(&s->rf.cfg, h.vp, set, h.way);
    uint32_t wait = regfile_nonop_access(&s->rf, rn, 0, cycle + h.latency);
    uint64_t lat = (uint64_t)(latency > 0 ? latency : 1) + h.latency + wait;
    *done = cycle + lat;
    s->st.lb_reg_hits++;
    s->st.lb_reg_hit_latency += lat;
    return 1;
}

void sm_lb_load_counted(sm_core *s, uint32_t pc, uint64_t line, int hit)
{
    if (!s->lb_on || s->lb_lm.state != LB_MONITOR) return;
    if (!hit) { /* the victim tags stand in for a larger cache: the line comes back into L1 */
        lb_vtt_hit h;
        uint32_t set = (uint32_t)cache_set_index(&s->l1d, line);
        if (lb_vtt_invalidate(&s->lb_vtt, set, cache_line_addr(&s->l1d, line), &h)) {
            hit = 1;
            s->st.lb_monitor_tag_hits++;
        }
    }
    lb_monitor_access(&s->lb_lm, (uint8_t)sm_pc_hash(pc), pc, hit);
    s->st.lb_lm_accesses++;
}

void sm_lb_store(sm_core *s, uint64_t line)
{
    if (!s->lb_on || s->lb_lm.state == LB_DISABLED) return;
    lb_vtt_hit h;
    uint32_t set = (uint32_t)cache_set_index(&s->l1d, line);
    if (lb_vtt_invalidate(&s->lb_vtt, set, cache_line_addr(&s->l1d, line), &h) && s->lb_lm.state == LB_ACTIVE)
        s->st.lb_store_invalidations++;
}
