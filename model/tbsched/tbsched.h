/* Thread-block scheduler: which CTA of the grid an SM with a free CTA slot receives next.
 *
 * The dispatcher (tlm/top) visits the SMs round-robin each core cycle, as GPGPU-Sim does, and asks
 * the policy for a CTA for every SM that can take one. A policy sees the launch shape and may see
 * the kernel's analysis (PAVER's locality graph comes later through create()). A new policy is a
 * new file defining a tbsched_policy plus one line in tbsched_registry.c. */
#ifndef GTLM_TBSCHED_H
#define GTLM_TBSCHED_H

#include <stdint.h>

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

#define TBSCHED_NONE UINT64_MAX

typedef struct tbsched_launch {
    uint32_t grid[3];
    uint64_t n_ctas;      /* grid[0] * grid[1] * grid[2] */
    uint32_t n_sms;
    uint32_t ctas_per_sm;         /* the kernel's occupancy: its CTAs that fit on one SM at once (0: unknown) */
    uint32_t fetch_latency;       /* PAVER's nextTB fetch, core cycles */
    const struct lg_graph *graph; /* the kernel's TB locality graph, NULL when not built (PAVER) */
} tbsched_launch;

struct tbsched;

/* What a policy counts during a kernel (PAVER's queue; zero for the others). */
typedef struct tbsched_counters {
    uint64_t stolen_tbs, steal_events; /* task stealing (Algorithm 2) */
    uint64_t fetch_stalls;             /* asks refused while an SM's nextTB was fetched */
} tbsched_counters;

typedef struct tbsched_policy {
    const char *name;
    int (*create)(struct tbsched *t, const long long *params, int nparams, void **state, strbuf *err);
    void (*destroy)(void *state);
    /* The linear index (x fastest) of the CTA SM `sm` runs next, or TBSCHED_NONE. */
    uint64_t (*next)(void *state, const struct tbsched *t, uint32_t sm);
    /* Optional: a CTA finished on an SM. */
    void (*on_done)(void *state, const struct tbsched *t, uint32_t sm, uint64_t cta);
    /* Optional: the kernel's counters so far. */
    void (*counters)(const void *state, tbsched_counters *out);
} tbsched_policy;

typedef struct tbsched {
    const tbsched_policy *pol;
    void *pstate;
    tbsched_launch l;
    uint64_t issued;      /* CTAs handed out */
    /* The asking SM as the dispatcher sees it just before next(): free CTA slots for this
     * kernel and CTAs running (BCS issues pairs, cache-fit caps the running ones). */
    uint32_t sm_free, sm_live;
    uint64_t now;         /* the dispatcher's core cycle */
} tbsched;

const tbsched_policy *tbsched_policy_find(const char *name);
/* 1 when the policy schedules from the kernel's TB locality graph (PAVER's). */
int tbsched_needs_graph(const char *name);
/* Starts a kernel's scheduling with the configured policy. Returns 0, or -1 with a message. */
int tbsched_begin(tbsched *t, const gsim_policy_spec *spec, const tbsched_launch *l, strbuf *err);
void tbsched_end(tbsched *t);
/* Next CTA for sm (TBSCHED_NONE when the policy has none for it now). */
uint64_t tbsched_next(tbsched *t, uint32_t sm);
void tbsched_done(tbsched *t, uint32_t sm, uint64_t cta);
/* The running kernel's counters (zero when the policy counts nothing). */
void tbsched_counters_get(const tbsched *t, tbsched_counters *out);
static inline int tbsched_all_issued(const tbsched *t) { return t->issued >= t->l.n_ctas; }
/* Linear index to (x, y, z). */
void tbsched_cta_coords(const tbsched_launch *l, uint64_t index, uint32_t out[3]);

extern const tbsched_policy tbsched_policy_lrr;
extern const tbsched_policy tbsched_policy_mst, tbsched_policy_kway, tbsched_policy_rbts;
extern const tbsched_policy tbsched_policy_bcs, tbsched_policy_cachefit;

#endif
