/* MASCAR's SM side: the memory-saturation signal for the scheduler and the LD/ST unit's cache-access
 * re-execution queue (spec apres.md §7.4). Without MASCAR nothing here runs (rexq.e stays NULL).
 *
 * A global or local load request the L1D refuses (no MSHR, miss-queue slot, line or merge slot) is
 * parked instead of stalling the unit, which then goes on with its next request or instruction:
 * hits behind the refused miss are no longer blocked. The queue's head is re-executed, ahead of the
 * unit's own access, in cycles where the L1D has a free MSHR and miss-queue slot; the parked
 * request keeps its record open (one access outstanding) until then. Stores, atomics and constant
 * reads are never parked (their order is the program's). Functional values move at issue, so the
 * reordering changes timing only. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sched_mascar.h"
#include "sm_internal.h"

int sm_mascar_init(sm_core *s)
{
    if (s->scheds[0].pol != &sched_policy_mascar) return 0;
    s->next_mem = calloc(s->n_slots, 1);
    if (!s->next_mem) return -1;
    for (uint32_t k = 0; k < s->n_sched; k++) s->scheds[k].slot_next_mem = s->next_mem;
    uint32_t cap = mascar_rexq_entries(&s->scheds[0]);
    if (!cap || !s->l1d_enabled) return 0;
    s->rexq.e = calloc(cap, sizeof *s->rexq.e);
    s->rexq.cap = cap;
    return s->rexq.e ? 0 : -1;
}

void sm_mascar_free(sm_core *s)
{
    free(s->next_mem);
    free(s->rexq.e);
    s->next_mem = NULL;
    memset(&s->rexq, 0, sizeof s->rexq);
}

static int l1d_has_room(const sm_core *s)
{
    const cache_core *c = &s->l1d;
    return (int)cache_mshr_in_use(c) < c->cfg.mshr_entries && cache_out_count(c) < c->cfg.miss_queue;
}

void sm_mascar_signals(sm_core *s)
{
    if (!s->next_mem) return;
    uint8_t sat = s->l1d_enabled && !l1d_has_room(s);
    for (uint32_t k = 0; k < s->n_sched; k++) s->scheds[k].mem_saturated = sat;
}

int sm_rexq_park(sm_core *s, const coal_req *q)
{
    sm_rexq *x = &s->rexq;
    const sm_ldst *u = &s->ldst;
    if (!x->e || u->is_store || u->is_atomic || (u->space != PS_GLOBAL && u->space != PS_LOCAL)) return 0;
    if (x->n == x->cap) {
        x->full++;
        return 0;
    }
    sm_rexq_entry *e = &x->e[(x->head + x->n++) % x->cap];
    sm_ldst_who_now(s, &e->who); /* never a store (is_store 0) */
    e->q = *q;
    s->rec[u->rec].outstanding++; /* held until re-executed */
    x->parked++;
    return 1;
}

int sm_rexq_cycle(sm_core *s, uint64_t cycle)
{
    sm_rexq *x = &s->rexq;
    if (!x->n || !l1d_has_room(s)) return 0;
    sm_rexq_entry *e = &x->e[x->head];
    int ok = sm_ldst_l1d_replay(s, &e->who, &e->q, cycle);
    if (!ok) return 0;
    s->rec[e->who.rec].outstanding--; /* the access took its own count */
    x->head = (x->head + 1) % x->cap;
    x->n--;
    x->replayed++;
    s->progress++;
    return 1;
}
