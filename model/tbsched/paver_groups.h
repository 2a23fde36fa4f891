/* PAVER's TB groups (thesis Ch. 3, spec A.3.4-A.3.8): an ordering of the grid's TBs cut into
 * groups, the global group queue, the per-SM next/tail registers, and task stealing
 * (Algorithm 2 as the spec reconstructs it). The TB-group store is `tbs`; group g is
 * tbs[start[g] .. start[g + 1]). */
#ifndef GTLM_PAVER_GROUPS_H
#define GTLM_PAVER_GROUPS_H

#include <stdint.h>

#include "../analysis/locality_graph.h"

typedef struct paver_groups {
    uint32_t *tbs;      /* every TB once, in scheduling order */
    uint64_t *start;    /* n_groups + 1 offsets into tbs */
    uint32_t n_tbs, n_groups;
} paver_groups;

/* Prim's maximum-spanning-tree insertion order from TB 0; ties go to the lower TB, and a
 * disconnected graph continues from the lowest unvisited TB (spec A.3.4 PROPOSAL). order has
 * g->n entries. Returns 0 or -1 (out of memory). */
int paver_mst_order(const lg_graph *g, uint32_t *order);

/* MST-TS: the MST order, the first n_sm groups of x TBs, then one group per TB. */
int paver_mst_ts_groups(const lg_graph *g, uint32_t n_sm, uint32_t x, paver_groups *out);
void paver_groups_free(paver_groups *gr);

#define PAVER_NONE UINT32_MAX

/* The global group queue and per-SM registers at run time. */
typedef struct paver_queue {
    paver_groups gr;     /* owned */
    uint32_t head;       /* next group of the global queue */
    uint32_t n_sm;
    uint64_t *next, *tail; /* per SM: its current range in gr.tbs */
    int stealing;
    uint64_t stolen_tbs, steal_events;
    /* nextTB fetch (spec A.3.7, A.8.9): an SM's next TB id is read from the group store in
     * memory; it is valid fetch_latency cycles after the SM took a group or issued a TB. */
    uint32_t fetch_latency;
    uint64_t now;            /* the caller's current core cycle */
    uint64_t *ready;         /* per SM: cycle its nextTB register is valid */
    uint64_t fetch_stalls;   /* asks of an SM with a free context refused while its nextTB was fetched */
} paver_queue;

/* Takes ownership of gr (also on failure). Returns 0 or -1. */
int paver_queue_init(paver_queue *q, paver_groups *gr, uint32_t n_sm, int stealing);
void paver_queue_free(paver_queue *q);
/* The TB SM `sm` (which has a free context) runs next, or PAVER_NONE. */
uint32_t paver_queue_next(paver_queue *q, uint32_t sm);
/* TBs waiting in sm's current group. */
static inline uint64_t paver_queue_waiting(const paver_queue *q, uint32_t sm) { return q->tail[sm] - q->next[sm]; }

#endif
