/* CCWS (Rogers et al., MICRO 2012), written from the paper's description:
 * - every L1 miss of a warp probes that warp's victim tag array; a hit means the warp lost a line
 *   it would have reused (intra-warp locality lost to thrashing): its lost-locality score grows by
 *   k_throttle;
 * - a line evicted from the L1 leaves its tag in the VTA of the warp that brought it in (FIFO);
 * - scores decay by one per scheduler cycle towards the base score;
 * - each cycle the live warps are stacked by score, highest first (ties oldest first); the warps
 *   whose stack top stays within the cutoff = base x live warps may issue, in GTO order among them;
 *   the others are held back (the first warp always may issue).
 * Parameters (-gpgpu_scheduler ccws[:vta_ways[:k_throttle[:base]]]), defaults 8:32:100; sensible
 * ranges 1..64, 1..10000, 1..10000.
 * Simplification: a held-back warp issues nothing (the paper blocks only its loads): the policy
 * sees warps, not instructions. The allocating warp of a line comes from a 4096-entry
 * direct-mapped line->warp table filled on misses (a colliding line loses its owner). */
#include "sched_ccws.h"

#include <stdlib.h>
#include <string.h>

static void ccws_destroy(void *state)
{
    ccws_state *c = state;
    if (!c) return;
    free(c->vta);
    free(c->vta_next);
    free(c->lls);
    free(c->allowed);
    free(c->sorted);
    free(c);
}

static int ccws_create(sched *s, const long long *params, int nparams, void **state, strbuf *err)
{
    long long ways = nparams > 0 ? params[0] : 8, k = nparams > 1 ? params[1] : 32, base = nparams > 2 ? params[2] : 100;
    if (nparams > 3 || ways < 1 || ways > 64 || k < 1 || k > 10000 || base < 1 || base > 10000) {
        strbuf_printf(err, "warp scheduler 'ccws' takes [vta_ways 1..64[:k_throttle 1..10000[:base 1..10000]]]");
        return -1;
    }
    ccws_state *c = calloc(1, sizeof *c);
    uint32_t n = s->n_local ? s->n_local : 1;
    if (c) {
        c->n = s->n_local;
        c->vta_ways = (uint32_t)ways;
        c->k_throttle = (uint32_t)k;
        c->base = (uint32_t)base;
        c->vta = malloc((size_t)n * c->vta_ways * sizeof *c->vta);
        c->vta_next = calloc(n, sizeof *c->vta_next);
        c->lls = calloc(n, sizeof *c->lls);
        c->allowed = calloc(n, 1);
        c->sorted = calloc(n, sizeof *c->sorted);
    }
    if (!c || !c->vta || !c->vta_next || !c->lls || !c->allowed || !c->sorted) {
        ccws_destroy(c);
        strbuf_printf(err, "warp scheduler 'ccws': out of memory");
        return -1;
    }
    memset(c->vta, 0xff, (size_t)n * c->vta_ways * sizeof *c->vta);
    for (uint32_t i = 0; i < CCWS_OWNER_SLOTS; i++) c->owner_warp[i] = SCHED_NONE;
    *state = c;
    return 0;
}

static void ccws_warp_start(void *state, const sched *s, uint32_t warp)
{
    (void)s;
    ccws_state *c = state;
    c->lls[warp] = c->base;
    c->vta_next[warp] = 0;
    memset(c->vta + (size_t)warp * c->vta_ways, 0xff, c->vta_ways * sizeof *c->vta);
}

static uint32_t owner_slot(uint64_t line) { return (uint32_t)((line ^ (line >> 12)) % CCWS_OWNER_SLOTS); }

static void ccws_l1_miss(void *state, const sched *s, uint32_t warp, uint64_t line)
{
    (void)s;
    ccws_state *c = state;
    const uint64_t *v = c->vta + (size_t)warp * c->vta_ways;
    for (uint32_t i = 0; i < c->vta_ways; i++)
        if (v[i] == line) {
            c->lls[warp] += c->k_throttle;
            c->vta_hits++;
            break;
        }
    uint32_t o = owner_slot(line);
    c->owner_line[o] = line;
    c->owner_warp[o] = warp;
}

static void ccws_l1_evict(void *state, const sched *s, uint64_t line)
{
    (void)s;
    ccws_state *c = state;
    uint32_t o = owner_slot(line);
    if (c->owner_warp[o] == SCHED_NONE || c->owner_line[o] != line) return;
    uint32_t w = c->owner_warp[o];
    c->owner_warp[o] = SCHED_NONE;
    c->vta[(size_t)w * c->vta_ways + c->vta_next[w]] = line;
    c->vta_next[w] = (c->vta_next[w] + 1) % c->vta_ways;
    c->vta_inserts++;
}

static int by_score(const ccws_state *c, const sched *s, uint32_t a, uint32_t b)
{
    if (c->lls[a] != c->lls[b]) return c->lls[a] > c->lls[b];
    return s->age[a] < s->age[b] || (s->age[a] == s->age[b] && a < b);
}

uint32_t ccws_allowed_count(const ccws_state *c, const sched *s)
{
    uint32_t m = 0;
    for (uint32_t k = 0; k < s->n_live; k++) m += c->allowed[s->by_age[k]];
    return m;
}

static uint32_t ccws_order(void *state, sched *s, const uint8_t *st, uint32_t *out)
{
    ccws_state *c = state;
    uint32_t n = s->n_live;
    for (uint32_t k = 0; k < n; k++) { /* insertion sort: n <= 64 */
        uint32_t w = s->by_age[k], j = k;
        if (c->lls[w] > c->base) c->lls[w]--;
        while (j > 0 && by_score(c, s, w, c->sorted[j - 1])) {
            c->sorted[j] = c->sorted[j - 1];
            j--;
        }
        c->sorted[j] = w;
    }
    uint64_t cutoff = (uint64_t)c->base * n, sum = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t w = c->sorted[k];
        sum += c->lls[w];
        c->allowed[w] = k == 0 || sum <= cutoff;
        if (!c->allowed[w]) c->throttled_warp_cycles++;
    }
    uint32_t m = 0;
    if (s->greedy != SCHED_NONE && c->allowed[s->greedy] && st[s->greedy] == SCHED_WARP_READY)
        out[m++] = s->greedy;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t w = s->by_age[k];
        if (w != s->greedy && c->allowed[w] && st[w] == SCHED_WARP_READY) out[m++] = w;
    }
    return m;
}

const sched_policy sched_policy_ccws = {
    .name = "ccws", .create = ccws_create, .destroy = ccws_destroy, .order = ccws_order,
    .on_warp_start = ccws_warp_start, .stateful_order = 1,
    .on_l1_miss_line = ccws_l1_miss, .on_l1_evict = ccws_l1_evict,
};
