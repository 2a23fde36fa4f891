/* APRES' cache-behaviour statistics (-gtlm_apres_stats; seeds/002 Figs. 2, 11, 13, 14, spec
 * apres.md §8):
 * - every L1D demand read (global/local load request) is a hit-after-hit or hit-after-miss (by the
 *   previous demand read of this L1), an MSHR merge, a cold miss (a line never before filled into
 *   or prefetched into this SM's L1, in any kernel) or a capacity+conflict miss (it was, and left);
 * - every read response: latency (request out -> response in) and bytes, demand and prefetch apart
 *   (the document's average memory latency and memory-to-SM traffic).
 * The ever-filled set is an open-addressing table of line addresses that grows (load factor 1/2). */
#include <stdlib.h>

#include "sm_internal.h"

int sm_locality_init(sm_core *s)
{
    sm_locality *l = &s->loc;
    l->on = s->cfg->sm.apres_stats && s->l1d_enabled;
    if (!l->on) return 0;
    l->cap = 1u << 12;
    l->lines = calloc(l->cap, sizeof *l->lines);
    return l->lines ? 0 : -1;
}

void sm_locality_free(sm_core *s)
{
    free(s->loc.lines);
    s->loc.lines = NULL;
}

static uint64_t slot_of(uint64_t key, uint64_t cap) { return (key * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1); }

/* 1 when the line was already in the set; inserts it otherwise. */
static int seen(sm_locality *l, uint64_t line)
{
    uint64_t key = line | 1, i = slot_of(key, l->cap);
    while (l->lines[i] && l->lines[i] != key) i = (i + 1) & (l->cap - 1);
    if (l->lines[i]) return 1;
    if ((l->n + 1) * 2 > l->cap) { /* grow, then insert into the new table */
        uint64_t cap = l->cap * 2, *t = calloc(cap, sizeof *t);
        if (!t) return 0; /* out of memory: counted as cold, the table stays as it was */
        for (uint64_t k = 0; k < l->cap; k++) {
            if (!l->lines[k]) continue;
            uint64_t j = slot_of(l->lines[k], cap);
            while (t[j]) j = (j + 1) & (cap - 1);
            t[j] = l->lines[k];
        }
        free(l->lines);
        l->lines = t;
        l->cap = cap;
        i = slot_of(key, cap);
        while (l->lines[i]) i = (i + 1) & (cap - 1);
    }
    l->lines[i] = key;
    l->n++;
    return 0;
}

void sm_locality_access(sm_core *s, uint64_t line, cache_status st)
{
    sm_locality *l = &s->loc;
    if (!l->on) return;
    if (st == CACHE_HIT) {
        if (l->last_hit) l->hit_after_hit++;
        else l->hit_after_miss++;
    } else if (st == CACHE_HIT_RESERVED) {
        l->merged++;
    } else if (seen(l, line)) {
        l->capacity_misses++;
    } else {
        l->cold_misses++;
    }
    l->last_hit = st == CACHE_HIT;
}

void sm_locality_filled(sm_core *s, uint64_t line)
{
    if (s->loc.on) (void)seen(&s->loc, line);
}

void sm_locality_response(sm_core *s, int prefetch, uint32_t bytes, uint64_t latency)
{
    sm_locality *l = &s->loc;
    if (!l->on) return;
    if (prefetch) {
        l->pf_latency_sum += latency;
        l->pf_latency_n++;
        l->pf_bytes += bytes;
    } else {
        l->demand_latency_sum += latency;
        l->demand_latency_n++;
        l->demand_bytes += bytes;
    }
}
