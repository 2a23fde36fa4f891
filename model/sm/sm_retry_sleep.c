/* Retry sleep: an SM whose LD/ST unit only retries a read the L1 refused, while no scheduler can
 * issue, skips its edges until an event can change the outcome, and counts them afterwards.
 *
 * Such an edge changes nothing but counters: the retry is the L1's remembered failure (tag
 * absent, no MSHR, no hooks, no power modes: cache_core.fail_gen), which counts one access, one
 * read and one failure in the L1 and one LD/ST failure; each scheduler takes one of the issue
 * stage's shortcuts (no ready warp and nothing changed: the same stall again; or every ready
 * warp needs the busy LD/ST unit: a functional-unit stall); the SM counts an active cycle. What
 * can change it: a response (queued with its cycle), a writeback or record event of the wheel,
 * a request leaving (the module's link), a CTA started (the dispatcher pokes the SM) — each comes
 * with a tick of the SM. The edges skipped until then are counted at that tick, with the counts
 * planned at the end of the last tick (before any of these changes). Techniques that act per
 * cycle or watch the L1 (Linebacker, PCAL, CERF, MASCAR, MRPB, register-file power, power modes)
 * disable it. */
#include "sm_internal.h"

/* Whether the edge at `cycle` changes nothing but counters (the link aside). */
static int stuck(const sm_core *s, uint64_t cycle)
{
    if (!s->ldst.busy || !s->l1d.fail_known || s->l1d.fail_gen != s->l1d.gen) return 0; /* the usual answer, first */
    if (s->error || !s->live_ctas || s->n_dirty || s->slb || s->lb_on || s->pcal_on || s->cerf_on || s->next_mem ||
        s->rexq.n || s->rexq.e || s->pf.q_n ||
        s->mrpb.n || s->mrpb.n_queues || cycle < s->pm_issue_at)
        return 0;
    const sm_ldst *u = &s->ldst;
    if (!u->busy || cycle < u->wake_until || u->is_store || u->is_atomic || u->next >= u->reqs.n) return 0;
    if (u->space != PS_GLOBAL && u->space != PS_LOCAL) return 0;
    const l1_config *l1 = &s->cfg->l1;
    if (!s->l1d_enabled || (u->space == PS_GLOBAL && l1->gmem_skip_l1d) || s->cfg->cbwt.mrpb_stall_bypass) return 0;
    const cache_core *c = &s->l1d;
    const coal_req *q = &u->reqs.req[u->next];
    if (pm_active(&c->pm) || !c->fail_known || c->fail_gen != c->gen || cache_line_addr(c, q->line) != c->fail_line ||
        q->sectors != c->fail_mask || (u->space == PS_LOCAL) != c->fail_local)
        return 0;
    for (uint32_t k = 0; k < s->n_sched; k++) {
        const sched *sc = &s->scheds[k];
        if (sched_is_idle(sc)) continue;
        if (sc->pol->stateful_order) return 0;
        int same = !s->sched_ready[k] && !s->sched_why_dirty[k] && s->last_why[k] != SM_STALL_NONE &&
                   s->last_why[k] != SM_STALL_FU;
        int all_mem = s->sched_ready[k] && s->sched_ready[k] == s->sched_ready_mem[k] && !sc->warp_limit;
        if (!same && !all_mem) return 0;
    }
    return 1;
}

void sm_retry_arm(sm_core *s, uint64_t next)
{
    sm_retry_plan *p = &s->retry;
    p->armed = (uint8_t)stuck(s, next);
    if (!p->armed) return;
    p->fail_why = s->l1d.fail_why;
    p->live_warps = s->live_warps;
    for (uint32_t k = 0; k < s->n_sched; k++) {
        if (sched_is_idle(&s->scheds[k])) p->why[k] = SM_RETRY_IDLE;
        else if (s->sched_ready[k]) p->why[k] = SM_STALL_FU;
        else p->why[k] = s->last_why[k];
    }
}

int sm_retry_sleeps(const sm_core *s, uint64_t cycle, int link_free)
{
    return s->retry.armed && (!link_free || !sm_core_has_out(s)) && stuck(s, cycle);
}

void sm_retry_catch_up(sm_core *s, uint64_t cycle)
{
    sm_retry_plan *p = &s->retry;
    p->armed = 0;
    if (s->last_tick == SM_NEVER || cycle <= s->last_tick + 1) return;
    uint64_t n = cycle - s->last_tick - 1;
    s->st.cycles += n;
    s->st.active_warps_sum += n * p->live_warps;
    s->st.ready_warps_sum += n * s->n_ready; /* nothing changed while it slept */
    for (uint32_t k = 0; k < s->n_sched; k++) {
        if (p->why[k] == SM_RETRY_IDLE) {
            s->last_why[k] = SM_STALL_IDLE;
            continue;
        }
        s->last_why[k] = p->why[k];
        s->st.stall[p->why[k]] += n;
        s->st.issue_slots += n;
    }
    cache_core *c = &s->l1d;
    c->st.accesses += n;
    c->st.reads += n;
    c->st.res_fail[p->fail_why] += n;
    c->now = cycle - 1;
    c->pm_wait = 0;
    s->st.ldst_res_fail[p->fail_why] += n;
    s->last_tick = cycle - 1;
}
