/* The SM's L1D prefetcher (-gtlm_l1_prefetcher): STR and SLD watch the demand stream of global
 * loads; SAP (APRES) trains on each global load's first request (the lowest active thread's line)
 * and, when the LAWS group head's load misses, prefetches base + (warp - head) x stride for the
 * group's other warps and hands them to LAWS, which moves them to its queue head.
 * Prefetches go through cache_prefetch: MSHR, miss queue and interconnect like a demand read,
 * dropped when no MSHR is free. SAP's warp IDs are logical (CTA linear index x warps per CTA +
 * warp in CTA: the first thread / 32 of spec gap 11), slots in trace mode.
 * When (-gtlm_l1_prefetch_issue, spec gap 14): 0 every prefetch of a trigger accesses the L1 at
 * once, in the demand's cycle and ahead of the demand's next requests; 1 (default) they wait in a
 * queue (SAP's warp queue, 48 entries) and one accesses the L1 in each cycle no demand request
 * took the tag port; 2 one per cycle on a port of their own. Queued, a SAP target warp moves to
 * LAWS' queue head when its prefetch goes (doc: "After SAP generates a prefetch request, it sends
 * the prefetched warp ID back to LAWS"), so its demand follows its prefetch; a new trigger
 * replaces the previous group's waiting prefetches (the WQ holds one group). */
#include "sm_internal.h"
#include "sched_laws.h"

#include <stdlib.h>

int sm_prefetch_init(sm_core *s)
{
    sm_prefetch *p = &s->pf;
    p->kind = s->l1d_enabled ? s->cfg->sm.l1_prefetcher : 0;
    if (!p->kind) return 0;
    uint32_t n = s->n_slots ? s->n_slots : 1;
    p->members = calloc(n, sizeof *p->members);
    p->member_ids = calloc(n, sizeof *p->member_ids);
    p->pf = calloc(n > SAP_WQ ? n : SAP_WQ, sizeof *p->pf);
    p->q = calloc(SM_PF_QUEUE, sizeof *p->q);
    p->issue = s->cfg->sm.prefetch_issue;
    if (!p->members || !p->member_ids || !p->pf || !p->q || cache_prefetch_enable(&s->l1d) != 0) return -1;
    if (p->kind == 3 && s->scheds[0].pol == &sched_policy_laws) /* Table II: 724 B for 10 / 48 / 3 */
        p->storage_bytes = apres_storage_bytes((uint32_t)s->cfg->sm.prefetch_table, s->n_slots,
                                               ((const laws_state *)s->scheds[0].pstate)->n_wgt);
    sm_prefetch_reset(s);
    return 0;
}

void sm_prefetch_free(sm_core *s)
{
    free(s->pf.members);
    free(s->pf.member_ids);
    free(s->pf.pf);
    free(s->pf.q);
}

void sm_prefetch_reset(sm_core *s)
{
    sm_prefetch *p = &s->pf;
    uint32_t n = (uint32_t)s->cfg->sm.prefetch_table;
    if (p->kind == 1) str_init(&p->str, n, 1, 1);
    if (p->kind == 2) sld_init(&p->sld, 64, 128);
    if (p->kind == 3) sap_init(&p->sap, n);
    p->q_head = p->q_n = 0;
    p->port_cycle = UINT64_MAX;
}

/* One prefetch into the L1D; a line that goes down counts as filled for the cold-miss set. */
static cache_status prefetch_line(sm_core *s, uint64_t addr, uint32_t pc)
{
    if (s->pf.port_cycle == s->last_tick) s->pf.port_shared++; /* a demand request had the port this cycle */
    cache_status st = cache_prefetch(&s->l1d, addr, sm_pc_hash(pc));
    if (st == CACHE_MISS) sm_locality_filled(s, cache_line_addr(&s->l1d, addr));
    return st;
}

static int64_t warp_id(const sm_core *s, uint32_t slot)
{
    const simt_warp *w = s->warps[slot].w;
    if (!w) return (int64_t)slot;
    const simt_launch *l = w->cta->launch;
    uint64_t cta = w->cta->ctaid[0] + (uint64_t)l->grid[0] * (w->cta->ctaid[1] + (uint64_t)l->grid[1] * w->cta->ctaid[2]);
    return (int64_t)(cta * l->warps_per_cta + w->id);
}

static void enqueue(sm_prefetch *p, uint64_t addr, uint32_t pc, int has_target, uint32_t slot, int64_t warp)
{
    if (p->q_n == SM_PF_QUEUE) {
        p->queue_full++;
        return;
    }
    sm_pf_pending *e = &p->q[(p->q_head + p->q_n++) % SM_PF_QUEUE];
    e->addr = addr;
    e->pc = pc;
    e->has_target = (uint8_t)has_target;
    e->slot = slot;
    e->warp = warp;
}

static uint32_t slot_of(const sm_prefetch *p, uint32_t n, int64_t warp)
{
    uint32_t k = 0;
    while (k + 1 < n && p->member_ids[k] != warp) k++; /* ids are unique among live warps */
    return p->members[k];
}

/* Whether a SAP target goes back to LAWS after its prefetch's outcome: not when it was dropped; a
 * line already present or pending (CACHE_HIT) with -gtlm_sap_return_present 1 (spec gap 8). */
static int returned(const sm_core *s, cache_status st)
{
    return st == CACHE_MISS || (st == CACHE_HIT && s->cfg->sm.sap_return_present);
}

static void sap_miss(sm_core *s, sm_prefetch *p, const sm_ldst *u, uint64_t pc, uint64_t line)
{
    sched *sc = &s->scheds[u->slot % s->n_sched];
    uint32_t n = laws_group_slots(sc, u->slot, pc, p->members);
    if (n < 2) return;
    for (uint32_t i = 0; i < n; i++) p->member_ids[i] = warp_id(s, p->members[i]);
    uint32_t m = sap_on_miss(&p->sap, pc, warp_id(s, u->slot), line, p->member_ids, n, p->pf);
    if (p->issue) { /* the WQ now holds this group: the previous one's waiting prefetches go */
        if (m) {
            p->superseded += p->q_n;
            p->q_n = 0;
        }
        for (uint32_t i = 0; i < m; i++) enqueue(p, p->pf[i].addr, u->pc, 1, slot_of(p, n, p->pf[i].warp), p->pf[i].warp);
        return;
    }
    uint32_t t = 0, slots[SAP_WQ];
    for (uint32_t i = 0; i < m; i++)
        if (returned(s, prefetch_line(s, p->pf[i].addr, u->pc))) slots[t++] = slot_of(p, n, p->pf[i].warp);
    for (uint32_t i = 0; i < t; i++) p->members[i] = slots[i];
    p->n_targets = t; /* LAWS moves them after the group's own move (sm_prefetch_targets_to_laws) */
    p->sap_targets += t;
}

void sm_prefetch_targets_to_laws(sm_core *s)
{
    sm_prefetch *p = &s->pf;
    if (!p->n_targets) return;
    laws_prioritize(&s->scheds[s->ldst.slot % s->n_sched], p->members, p->n_targets);
    p->n_targets = 0;
}

void sm_prefetch_on_access(sm_core *s, const coal_req *q, int first, cache_status st)
{
    sm_prefetch *p = &s->pf;
    const sm_ldst *u = &s->ldst;
    if (!p->kind || u->is_store || u->space != PS_GLOBAL) return;
    uint64_t out[SAP_WQ];
    uint32_t n = 0;
    uint64_t pc = ((uint64_t)u->func << 32) | u->pc;
    if (p->kind == 1 && first) n = str_access(&p->str, pc, q->line, out);
    if (p->kind == 2) n = sld_access(&p->sld, q->line, out);
    for (uint32_t i = 0; i < n; i++) {
        if (p->issue) enqueue(p, out[i], u->pc, 0, 0, 0);
        else prefetch_line(s, out[i], u->pc);
    }
    if (p->kind == 3 && first) {
        if (st == CACHE_MISS) sap_miss(s, p, u, pc, q->line);
        sap_train(&p->sap, pc, warp_id(s, u->slot), q->line);
    }
}

void sm_prefetch_cycle(sm_core *s, uint64_t cycle)
{
    sm_prefetch *p = &s->pf;
    if (!s->live_ctas) { /* no warp left to use them */
        p->q_n = 0;
        return;
    }
    if (p->issue == 1 && p->port_cycle == cycle) return; /* a demand request had the tag port */
    sm_pf_pending e = p->q[p->q_head];
    p->q_head = (p->q_head + 1) % SM_PF_QUEUE;
    p->q_n--;
    if (e.has_target && (s->warps[e.slot].exited || warp_id(s, e.slot) != e.warp)) {
        p->stale++; /* its warp is gone: no one would use the line */
        return;
    }
    s->l1d.now = cycle;
    if (!returned(s, prefetch_line(s, e.addr, e.pc)) || !e.has_target) return;
    laws_prioritize(&s->scheds[e.slot % s->n_sched], &e.slot, 1);
    p->sap_targets++;
}
