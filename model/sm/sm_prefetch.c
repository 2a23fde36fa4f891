/* The SM's L1D prefetcher (-gtlm_l1_prefetcher): STR and SLD watch the demand stream of global
 * loads; SAP (APRES) trains on each global load's first request (the lowest active thread's line)
 * and, when the LAWS group head's load misses, prefetches base + (warp - head) x stride for the
 * group's other warps and hands them to LAWS, which moves them to its queue head.
 * Prefetches go through cache_prefetch: MSHR, miss queue and interconnect like a demand read,
 * dropped when no MSHR is free. SAP's warp IDs are logical (CTA linear index x warps per CTA +
 * warp in CTA: the first thread / 32 of spec gap 11), slots in trace mode. */
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
    if (!p->members || !p->member_ids || !p->pf || cache_prefetch_enable(&s->l1d) != 0) return -1;
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
}

void sm_prefetch_reset(sm_core *s)
{
    sm_prefetch *p = &s->pf;
    uint32_t n = (uint32_t)s->cfg->sm.prefetch_table;
    if (p->kind == 1) str_init(&p->str, n, 1, 1);
    if (p->kind == 2) sld_init(&p->sld, 64, 128);
    if (p->kind == 3) sap_init(&p->sap, n);
}

/* One prefetch into the L1D; a line that goes down counts as filled for the cold-miss set. */
static cache_status prefetch_line(sm_core *s, uint64_t addr, uint32_t pc)
{
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

static void sap_miss(sm_core *s, sm_prefetch *p, const sm_ldst *u, uint64_t pc, uint64_t line)
{
    sched *sc = &s->scheds[u->slot % s->n_sched];
    uint32_t n = laws_group_slots(sc, u->slot, pc, p->members);
    if (n < 2) return;
    for (uint32_t i = 0; i < n; i++) p->member_ids[i] = warp_id(s, p->members[i]);
    uint32_t m = sap_on_miss(&p->sap, pc, warp_id(s, u->slot), line, p->member_ids, n, p->pf);
    uint32_t t = 0;
    for (uint32_t i = 0; i < m; i++) {
        if (prefetch_line(s, p->pf[i].addr, u->pc) == CACHE_RESERVATION_FAIL) continue;
        for (uint32_t k = 0; k < n; k++) /* the target's slot: ids are unique among live warps */
            if (p->member_ids[k] == p->pf[i].warp) {
                p->members[t++] = p->members[k];
                break;
            }
    }
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
    for (uint32_t i = 0; i < n; i++) prefetch_line(s, out[i], u->pc);
    if (p->kind == 3 && first) {
        if (st == CACHE_MISS) sap_miss(s, p, u, pc, q->line);
        sap_train(&p->sap, pc, warp_id(s, u->slot), q->line);
    }
}
