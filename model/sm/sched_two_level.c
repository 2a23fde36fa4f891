/* Two-level warp scheduler (GPGPU-Sim "two_level_active:N[:inner:outer]").
 *
 * Each scheduler keeps an active set of at most N of its warps; only active warps may issue.
 * Rules, applied at the start of every sched_order:
 *  1. An active warp whose status is SCHED_WARP_STALL_LONG (long-latency operation: load in flight,
 *     barrier, fence) or SCHED_WARP_THROTTLED (beyond the run-time limit) leaves the active set and
 *     becomes pending; this is counted in policy_events. Short stalls keep their place.
 *  2. While the active set has room, a pending warp that is not itself long-stalled or throttled
 *     joins it at the back: outer 5 (OLDEST, default) takes the oldest by launch age, outer 1
 *     (SRR, GPGPU-Sim's usual :0:1) the one pending the longest (FIFO). A joining warp may issue in
 *     the same cycle. When no pending warp qualifies the set stays short.
 *  3. Inner 0 (LRR, default): the active list in order, rotated on issue so the warp after the
 *     issued one comes first; inner 2 (GTO): the last issued warp if active, then oldest first.
 * New warps start pending; exiting warps leave whichever list holds them. */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

typedef struct tl_state {
    uint32_t cap;        /* N, at most the scheduler's warp count */
    int inner, outer;
    uint32_t *active;    /* local indices, priority order */
    uint32_t n_active;
    uint8_t *pending;    /* per local warp */
    uint64_t *since;     /* per local warp: sequence number when it became pending */
    uint64_t seq;
} tl_state;

static int tl_create(sched *s, const long long *params, int nparams, void **state, strbuf *err)
{
    if (nparams < 1 || nparams > 3 || params[0] < 1 || params[0] > 0xffffffffLL) {
        strbuf_printf(err, "warp scheduler 'two_level_active' needs :N[:inner:outer] with N >= 1");
        return -1;
    }
    int inner = nparams >= 2 ? (int)params[1] : SCHED_PRIO_LRR;
    int outer = nparams >= 3 ? (int)params[2] : SCHED_PRIO_OLDEST;
    if ((inner != SCHED_PRIO_LRR && inner != SCHED_PRIO_GTO) ||
        (outer != SCHED_PRIO_SRR && outer != SCHED_PRIO_OLDEST)) {
        strbuf_printf(err, "warp scheduler 'two_level_active': inner must be 0 (LRR) or 2 (GTO), "
                           "outer 1 (SRR, FIFO) or 5 (oldest); got %lld:%lld",
                      nparams >= 2 ? params[1] : 0LL, nparams >= 3 ? params[2] : 5LL);
        return -1;
    }
    tl_state *t = calloc(1, sizeof *t);
    uint32_t n = s->n_local ? s->n_local : 1;
    if (t) {
        t->active = calloc(n, sizeof *t->active);
        t->pending = calloc(n, 1);
        t->since = calloc(n, sizeof *t->since);
    }
    if (!t || !t->active || !t->pending || !t->since) {
        if (t) {
            free(t->active);
            free(t->pending);
            free(t->since);
        }
        free(t);
        strbuf_printf(err, "warp scheduler: out of memory");
        return -1;
    }
    t->cap = (uint64_t)params[0] < s->n_local ? (uint32_t)params[0] : s->n_local;
    t->inner = inner;
    t->outer = outer;
    *state = t;
    return 0;
}

static void tl_destroy(void *state)
{
    tl_state *t = state;
    free(t->active);
    free(t->pending);
    free(t->since);
    free(t);
}

static void make_pending(tl_state *t, uint32_t j)
{
    t->pending[j] = 1;
    t->since[j] = t->seq++;
}

static int can_join(uint8_t st) { return st == SCHED_WARP_READY || st == SCHED_WARP_STALL; }

static uint32_t pick_pending(const tl_state *t, const sched *s, const uint8_t *st)
{
    uint32_t best = SCHED_NONE;
    for (uint32_t k = 0; k < s->n_live; k++) {
        uint32_t j = s->by_age[k];
        if (!t->pending[j] || !can_join(st[j]))
            continue;
        if (t->outer == SCHED_PRIO_OLDEST)
            return j;
        if (best == SCHED_NONE || t->since[j] < t->since[best])
            best = j;
    }
    return best;
}

static uint32_t tl_order(void *state, sched *s, const uint8_t *st, uint32_t *out)
{
    tl_state *t = state;
    uint32_t keep = 0;
    for (uint32_t k = 0; k < t->n_active; k++) {
        uint32_t j = t->active[k];
        if (st[j] == SCHED_WARP_STALL_LONG || st[j] == SCHED_WARP_THROTTLED) {
            make_pending(t, j);
            s->policy_events++;
        } else {
            t->active[keep++] = j;
        }
    }
    t->n_active = keep;
    while (t->n_active < t->cap) {
        uint32_t j = pick_pending(t, s, st);
        if (j == SCHED_NONE)
            break;
        t->pending[j] = 0;
        t->active[t->n_active++] = j;
    }
    if (t->inner == SCHED_PRIO_LRR)
        return sched_emit_ready(t->active, t->n_active, st, out);
    uint32_t m = 0, g = s->greedy;
    if (g != SCHED_NONE && !t->pending[g] && st[g] == SCHED_WARP_READY)
        out[m++] = g;
    for (uint32_t k = 0; k < s->n_live; k++) {
        uint32_t j = s->by_age[k];
        if (j != g && !t->pending[j] && st[j] == SCHED_WARP_READY)
            out[m++] = j;
    }
    return m;
}

static void reverse(uint32_t *a, uint32_t lo, uint32_t hi) /* [lo, hi) */
{
    while (lo + 1 < hi) {
        uint32_t x = a[lo];
        a[lo++] = a[--hi];
        a[hi] = x;
    }
}

static void tl_on_issue(void *state, const sched *s, uint32_t warp, uint64_t pc)
{
    (void)s;
    (void)pc;
    tl_state *t = state;
    if (t->inner != SCHED_PRIO_LRR)
        return;
    for (uint32_t k = 0; k < t->n_active; k++) {
        if (t->active[k] != warp)
            continue;
        /* rotate left by k + 1: the issued warp goes last, the one after it first */
        reverse(t->active, 0, k + 1);
        reverse(t->active, k + 1, t->n_active);
        reverse(t->active, 0, t->n_active);
        return;
    }
}

static void tl_on_start(void *state, const sched *s, uint32_t warp)
{
    (void)s;
    make_pending(state, warp);
}

static void tl_on_exit(void *state, const sched *s, uint32_t warp)
{
    (void)s;
    tl_state *t = state;
    t->pending[warp] = 0;
    uint32_t keep = 0;
    for (uint32_t k = 0; k < t->n_active; k++)
        if (t->active[k] != warp)
            t->active[keep++] = t->active[k];
    t->n_active = keep;
}

static int tl_in_pending(const void *state, uint32_t warp) { return ((const tl_state *)state)->pending[warp]; }

const sched_policy sched_policy_two_level = {
    .name = "two_level_active",
    .create = tl_create,
    .destroy = tl_destroy,
    .order = tl_order,
    .stateful_order = 1,
    .on_issue = tl_on_issue,
    .on_warp_start = tl_on_start,
    .on_warp_exit = tl_on_exit,
    .in_pending = tl_in_pending,
};
