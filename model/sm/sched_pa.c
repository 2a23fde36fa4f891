/* PA-sched, prefetch-aware warp scheduling (Jog et al., ISCA 2013 "Orchestrated scheduling and
 * prefetching for GPGPUs"), as APRES evaluates it with STR and SLD (spec apres.md §7.5): a
 * two-level scheduler whose fetch groups are made of non-consecutive warps, so that while one
 * group runs, a macro-block (SLD) or stride prefetch triggered by its warps fetches the lines of
 * the consecutive warps that sit in the other groups.
 * - groups: n_groups = ceil(warps / group_size); local warp j belongs to group j % n_groups
 *   (warps 0, n, 2n, ... together);
 * - the current group's ready warps come first (loose round-robin inside the group), then the
 *   other groups' in round order from the next one, so that the scheduler never idles while some
 *   warp is ready (the document does not say whether the original stalls instead);
 * - the current group passes to the next one when none of its live warps is ready or short-stalled
 *   (all wait on long-latency operations, a barrier, or the warp limit): policy_events counts it.
 * Parameter (-gpgpu_scheduler pa[:group_size]): warps per group 1..64, default 8 (the two-level
 * scheduler's usual group size; spec gap 19 leaves it to the original paper). */
#include "sched.h"

#include <stdlib.h>

typedef struct pa_state {
    uint32_t group_size, n_groups, current;
    uint32_t *last;  /* per group: last issued local warp, SCHED_NONE before any */
} pa_state;

static int pa_create(sched *s, const long long *params, int nparams, void **state, strbuf *err)
{
    long long g = nparams > 0 ? params[0] : 8;
    if (nparams > 1 || g < 1 || g > 64) {
        strbuf_printf(err, "warp scheduler 'pa' takes [group_size 1..64]");
        return -1;
    }
    pa_state *p = calloc(1, sizeof *p);
    uint32_t n = s->n_local ? s->n_local : 1;
    if (p) {
        p->group_size = (uint32_t)g;
        p->n_groups = (n + p->group_size - 1) / p->group_size;
        p->last = malloc(p->n_groups * sizeof *p->last);
    }
    if (!p || !p->last) {
        if (p) free(p->last);
        free(p);
        strbuf_printf(err, "warp scheduler 'pa': out of memory");
        return -1;
    }
    for (uint32_t k = 0; k < p->n_groups; k++) p->last[k] = SCHED_NONE;
    *state = p;
    return 0;
}

static void pa_destroy(void *state)
{
    pa_state *p = state;
    free(p->last);
    free(p);
}

static int group_can_run(const pa_state *p, const sched *s, const uint8_t *st, uint32_t g)
{
    for (uint32_t j = g; j < s->n_local; j += p->n_groups)
        if (st[j] == SCHED_WARP_READY || st[j] == SCHED_WARP_STALL) return 1;
    return 0;
}

/* The group's ready warps, round-robin from the one after its last issued warp. */
static uint32_t emit_group(const pa_state *p, const sched *s, const uint8_t *st, uint32_t g, uint32_t *out)
{
    uint32_t members = (s->n_local - g + p->n_groups - 1) / p->n_groups, start = 0, m = 0;
    if (p->last[g] != SCHED_NONE) start = (p->last[g] / p->n_groups + 1) % members;
    for (uint32_t k = 0; k < members; k++) {
        uint32_t i = start + k < members ? start + k : start + k - members;
        uint32_t j = g + i * p->n_groups;
        if (st[j] == SCHED_WARP_READY) out[m++] = j;
    }
    return m;
}

static uint32_t pa_order(void *state, sched *s, const uint8_t *st, uint32_t *out)
{
    pa_state *p = state;
    if (s->n_local == 0) return 0;
    if (!group_can_run(p, s, st, p->current)) {
        for (uint32_t k = 1; k < p->n_groups; k++) {
            uint32_t g = (p->current + k) % p->n_groups;
            if (group_can_run(p, s, st, g)) {
                p->current = g;
                s->policy_events++;
                break;
            }
        }
    }
    uint32_t m = 0;
    for (uint32_t k = 0; k < p->n_groups; k++) m += emit_group(p, s, st, (p->current + k) % p->n_groups, out + m);
    return m;
}

static void pa_on_issue(void *state, const sched *s, uint32_t warp, uint64_t pc)
{
    (void)s;
    (void)pc;
    pa_state *p = state;
    p->last[warp % p->n_groups] = warp;
}

/* The current group (tests, statistics). */
uint32_t pa_current_group(const sched *s) { return s->pol == &sched_policy_pa ? ((const pa_state *)s->pstate)->current : 0; }

const sched_policy sched_policy_pa = {
    .name = "pa", .create = pa_create, .destroy = pa_destroy, .order = pa_order, .on_issue = pa_on_issue,
    .stateful_order = 1,
};
