// The SM's waveform observables (see wave/probe.h): occupancy, issue, the main stall reason, the
// LD/ST unit and the L1 data cache.
#include "sm/sm_module.h"
#include "top/power_stats.h"

extern "C" {
#include "sm/sched_laws.h"
}

namespace gtlm {

namespace {

// The reason most of the SM's schedulers gave in their last cycle (ties: the lower code).
uint64_t main_stall(const sm_core &c)
{
    uint32_t seen[SM_STALL_N] = {0};
    for (uint32_t k = 0; k < c.n_sched; k++) seen[c.last_why[k] < SM_STALL_N ? c.last_why[k] : static_cast<int>(SM_STALL_IDLE)]++;
    int best = SM_STALL_IDLE;
    for (int r = 0; r < SM_STALL_N; r++)
        if (seen[r] > seen[best] || (seen[r] == seen[best] && r < best)) best = r;
    return static_cast<uint64_t>(best);
}

// Linebacker: bit k set when CTA slot k holds a CTA that may issue (not throttled).
uint64_t lb_active_ctas(const sm_core &c)
{
    uint64_t v = 0;
    for (uint32_t k = 0; k < c.max_ctas_kernel && k < 64; k++)
        if (c.ctas[k].live && !(c.lb_phase && c.lb_phase[k])) v |= 1ull << k; // phase 0: SM_LB_ACTIVE
    return v;
}

} // namespace

void SmModule::observe(ProbeList &out) const
{
    const sm_core *c = &core_;
    out.scope("gpu.sm[" + std::to_string(c->id) + "].");
    out.level("active_warps", 8, [c] { return c->live_warps; });
    out.level("active_ctas", 8, [c] { return c->live_ctas; });
    out.pulse("issued", 4, [c] { return c->st.warp_insn; });
    out.level("warp_insn", 32, [c] { return c->st.warp_insn; });
    out.level("stall", 3, [c] { return main_stall(*c); });
    out.level("ldst_busy", 1, [c] { return c->ldst.busy; });
    out.level("requests_out", 16, [c] { return c->outstanding; });
    observe_pm(out, "power.reg.", &c->rf_pm);
    // Slumber / WRF: the modes of the first 8 warp registers (warp slot 0's first registers), sampled
    if (c->slb) {
        observe_pm_sample(out, "power.reg.", &c->rf_pm, 8);
        const ClockDomain *dom = &domain_; // the countdowns run at the core clock: the last core edge passed
        observe_rfp_countdown(out, "power.reg.", &c->rf_pm, 8, [dom] {
            uint64_t next = dom->next_edge();
            return next ? next - 1 : 0;
        });
    }
    observe_pm(out, "power.sm.", &c->sm_pm);
    if (c->lb_on) { // Linebacker (docs/linebacker.md): partitions, CTAs, Load Monitor, IPC, buffer
        out.level("lb.vp_active_mask", 32, [c] { return c->lb_vp_mask; });
        out.level("lb.active_cta_vector", 32, [c] { return lb_active_ctas(*c); });
        out.level("lb.cta_limit", 8, [c] { return c->lb_limit; });
        out.level("lb.lm_state", 2, [c] { return static_cast<uint64_t>(c->lb_lm.state); });
        out.level("lb.period_ipc_x1000", 32, [c] { return static_cast<uint64_t>(c->lb_last_ipc * 1000.0 + 0.5); });
        out.level("lb.buffer_occupancy", 8, [c] { return lb_xfer_occupancy(&c->lb_xfer); });
    }
    if (!c->l1d_enabled) return;
    observe_pm(out, "power.l1d.", &c->l1d.pm);
    observe_pm_state(out, "power.l1d.", &c->l1d.pm); // bank level: the L1's 2-bit state
    out.pulse("l1d.hit", 1, [c] { return c->l1d.st.hits; });
    out.pulse("l1d.miss", 1, [c] { return c->l1d.st.misses; });
    out.level("l1d.hits", 32, [c] { return c->l1d.st.hits; });
    out.level("l1d.misses", 32, [c] { return c->l1d.st.misses; });
    out.level("l1d.mshr", 16, [c] { return static_cast<uint64_t>(cache_mshr_in_use(&c->l1d)); });
    if (c->pf.kind) { // APRES and the stride prefetchers: one pulse per prefetch sent, and the drops
        out.pulse("l1d.prefetch.issue", 4, [c] { return c->l1d.pf.issued; });
        out.pulse("l1d.prefetch.drop", 4, [c] { return c->l1d.pf.dropped; });
    }
    if (c->scheds[0].pol != &sched_policy_laws) return;
    // LAWS (scheduler 0): the warp slot at its queue head, and its group events
    const laws_state *l = static_cast<const laws_state *>(c->scheds[0].pstate);
    const sched *s0 = &c->scheds[0];
    out.level("laws.queue_head", 8, [l, s0] { return l->n_queue ? static_cast<uint64_t>(sched_slot(s0, l->queue[0])) : 255u; });
    out.pulse("laws.group_formed", 2, [l] { return l->groups; });
    out.pulse("laws.head_move", 2, [l] { return l->head_moves; });
    out.pulse("laws.tail_move", 2, [l] { return l->tail_moves; });
    out.pulse("laws.prefetch_move", 2, [l] { return l->prefetch_moves; });
}

} // namespace gtlm
