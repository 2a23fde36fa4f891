/* Prefetch requests into a cache (the L1D for STR, SLD and SAP): an MSHR without a waiter, a
 * prefetch bit and a demanded-since-fill bit per line, and the counts behind the document's
 * early-eviction ratio (spec apres.md §8: early-evicted / (useful + early-evicted)). */
#include "cache_core.h"

#include <stdlib.h>
#include <string.h>

int cache_prefetch_enable(cache_core *c)
{
    if (c->pf_evicted) return 0;
    c->pf_evicted = calloc(CACHE_PF_EVICTED_SLOTS, sizeof *c->pf_evicted);
    return c->pf_evicted ? 0 : -1;
}

static uint32_t evicted_slot(const cache_core *c, uint64_t la)
{
    uint64_t k = la >> c->line_log2;
    return (uint32_t)((k ^ (k >> 10)) % CACHE_PF_EVICTED_SLOTS);
}

cache_status cache_prefetch(cache_core *c, uint64_t addr, uint32_t pc_hash)
{
    c->gen++;
    uint64_t la = cache_line_addr(c, addr);
    int set = cache_set_index(c, addr);
    if (cache_mshr_find(c, la) >= 0 || cache_probe(c, la, NULL) >= 0) {
        c->pf.redundant++;
        return CACHE_HIT;
    }
    cache_req req;
    memset(&req, 0, sizeof req);
    req.addr = la;
    req.pc_hash = pc_hash;
    cache_result r;
    uint64_t misses = c->st.misses, sector_misses = c->st.sector_misses, accesses = c->st.accesses;
    uint64_t fails[CACHE_FAIL_COUNT];
    memcpy(fails, c->st.res_fail, sizeof fails);
    cache_status st = cache_fetch_no_waiter(c, &req, la, set, &r);
    /* a prefetch is not a demand access: the demand statistics stay as they were */
    c->st.misses = misses;
    c->st.sector_misses = sector_misses;
    c->st.accesses = accesses;
    memcpy(c->st.res_fail, fails, sizeof fails);
    if (st == CACHE_RESERVATION_FAIL) {
        c->pf.dropped++;
        return st;
    }
    c->pf.issued++;
    return CACHE_MISS;
}

void cache_pf_demand_hit(cache_core *c, cache_line *l)
{
    if (!l->demanded) {
        c->pf.useful++;
        c->pf.correct++;
    }
    l->demanded = 1;
}

void cache_pf_demand_merge(cache_core *c, cache_mshr *e)
{
    if (!e->demanded) {
        c->pf.late_merged++;
        c->pf.correct++;
    }
    e->demanded = 1;
}

void cache_pf_demand_miss(cache_core *c, uint64_t la)
{
    uint32_t i = evicted_slot(c, la);
    if (c->pf_evicted[i] == (la | 1)) {
        c->pf.early_evicted++;
        c->pf.correct++;
        c->pf_evicted[i] = 0;
    }
}

void cache_pf_evict(cache_core *c, const cache_line *l)
{
    if (l->demanded) return;
    c->pf.evicted_unused++;
    if (c->pf_evicted) c->pf_evicted[evicted_slot(c, l->tag)] = l->tag | 1;
}
