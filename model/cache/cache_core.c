/* The cache core: tag array, replacement, MSHRs, miss queue (semantics in cache_core.h). */
#include "cache_core.h"
#include "cache_miss_class.h"

#include <stdlib.h>
#include <string.h>

static int log2_ceil(int n)
{
    int k = 0;
    while ((1LL << k) < n) k++;
    return k;
}

static int popcount8(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

int cache_init(cache_core *c, const gsim_cache_cfg *cfg)
{
    memset(c, 0, sizeof *c);
    if (!cfg || cfg->disabled || cfg->nsets <= 0 || cfg->assoc <= 0 || cfg->line_size <= 0 ||
        cfg->line_size < 2 || (cfg->line_size & (cfg->line_size - 1)) || cfg->mshr_entries <= 0 || cfg->mshr_merge <= 0 ||
        cfg->mshr_merge > 65535 || cfg->miss_queue <= 0)
        return -1;
    if (cfg->type == 'S' && cfg->line_size != CACHE_SECTORS * CACHE_SECTOR_BYTES) return -1;
    c->cfg = *cfg;
    c->nsets = cfg->nsets;
    c->assoc = cfg->assoc;
    c->alloc_assoc = cfg->assoc;
    c->line_log2 = log2_ceil(cfg->line_size);
    c->nsect = cfg->type == 'S' ? CACHE_SECTORS : 1;
    c->full_mask = (uint8_t)((1u << c->nsect) - 1);
    c->set_bits = log2_ceil(cfg->nsets);
    int ne = cfg->mshr_entries;
    c->nbuckets = 1;
    while (c->nbuckets < 2 * ne) c->nbuckets <<= 1;
    /* Fills may queue write-backs beyond the miss-queue limit (they cannot be refused). */
    c->mq_cap = cfg->miss_queue + ne * c->nsect;
    c->lines = calloc((size_t)c->nsets * (size_t)c->assoc, sizeof *c->lines);
    c->tagv = calloc((size_t)c->nsets * (size_t)c->assoc, sizeof *c->tagv);
    c->mshr = calloc((size_t)ne, sizeof *c->mshr);
    c->buckets = malloc((size_t)c->nbuckets * sizeof *c->buckets);
    c->mq = calloc((size_t)c->mq_cap, sizeof *c->mq);
    if (!c->lines || !c->tagv || !c->mshr || !c->buckets || !c->mq) goto fail;
    if (cfg->set_index == 'P' && c->nsets > 1) {
        c->ipoly_tab = malloc(8 * 256 * sizeof *c->ipoly_tab);
        if (!c->ipoly_tab || cache_index_build(c, c->ipoly_tab)) goto fail;
    }
    for (int i = 0; i < c->nbuckets; i++) c->buckets[i] = -1;
    for (int i = 0; i < ne; i++) c->mshr[i].next = i + 1 < ne ? i + 1 : -1;
    c->mshr_free = 0;
    return 0;
fail:
    cache_free(c);
    return -1;
}

void cache_limit_victim_ways(cache_core *c, int ways) { c->ways_usable = ways < 1 ? 1 : ways > c->assoc ? c->assoc : ways; }

/* The ways new lines may take: the first ways_usable (CacheExt, CERF, Unified-SM-Mem), else all. */
static int victim_ways(const cache_core *c)
{
    return c->ways_usable > 0 && c->ways_usable < c->assoc ? c->ways_usable : c->assoc;
}

void cache_free(cache_core *c)
{
    free(c->pf_evicted);
    c->pf_evicted = NULL;
    free(c->lines);
    free(c->tagv);
    for (int i = 0; c->mshr && i < c->cfg.mshr_entries; i++) free(c->mshr[i].w);
    free(c->mshr);
    free(c->buckets);
    free(c->mq);
    free(c->ipoly_tab);
    free(c->pm_live);
    free(c->pm_smask);
    free(c->pm_resq);
    pm_domain_free(&c->pm);
    cache_miss_classes_free(c);
    memset(c, 0, sizeof *c);
}

void cache_set_hooks(cache_core *c, const cache_hooks *h)
{
    c->gen++;
    if (h)
        c->hooks = *h;
    else
        memset(&c->hooks, 0, sizeof c->hooks);
}

uint64_t cache_line_addr(const cache_core *c, uint64_t addr) { return addr >> c->line_log2 << c->line_log2; }

cache_line *cache_line_at(cache_core *c, int set, int way)
{
    c->gen++; /* the caller may change the line */
    return &c->lines[(size_t)set * c->assoc + way];
}

/* ---- MSHR table: hash chains over a fixed entry array ---- */

static int bucket_of(const cache_core *c, uint64_t la)
{
    uint64_t h = (la >> c->line_log2) * 0x9E3779B97F4A7C15ull;
    return (int)(h >> 40) & (c->nbuckets - 1);
}

static int mshr_find(const cache_core *c, uint64_t la)
{
    for (int i = c->buckets[bucket_of(c, la)]; i >= 0; i = c->mshr[i].next)
        if (c->mshr[i].addr == la) return i;
    return -1;
}

static int mshr_alloc(cache_core *c, uint64_t la, int allocate)
{
    int i = c->mshr_free;
    cache_mshr *e = &c->mshr[i];
    c->mshr_free = e->next;
    int b = bucket_of(c, la);
    cache_waiter *w = e->w; /* the waiter storage stays with the entry */
    uint16_t wcap = e->wcap;
    memset(e, 0, sizeof *e);
    e->w = w;
    e->wcap = wcap;
    e->addr = la;
    e->allocate = (uint8_t)allocate;
    e->in_use = 1;
    e->next = c->buckets[b];
    c->buckets[b] = i;
    c->mshr_used++;
    return i;
}

static void mshr_release(cache_core *c, int i)
{
    int *p = &c->buckets[bucket_of(c, c->mshr[i].addr)];
    while (*p != i) p = &c->mshr[*p].next;
    *p = c->mshr[i].next;
    c->mshr[i].in_use = 0;
    c->mshr[i].next = c->mshr_free;
    c->mshr_free = i;
    c->mshr_used--;
}

void cache_set_sector_mshr(cache_core *c, int on) { c->sector_mshr = on && c->nsect > 1; }

void cache_set_read_mq_reserve(cache_core *c, int on) { c->read_mq_reserve = on != 0; }

int cache_mshr_max_waiters(const cache_core *c) { return c->cfg.mshr_merge * (c->sector_mshr ? c->nsect : 1); }

/* Per-sector limits: some sector of `sectors` already has mshr_merge requests waiting on it. */
static int sector_merge_full(const cache_core *c, int m, uint8_t sectors)
{
    const cache_mshr *e = &c->mshr[m];
    for (int s = 0; s < c->nsect; s++) {
        if (!(sectors >> s & 1)) continue;
        int n = 0;
        for (int i = 0; i < e->nwait; i++) n += e->w[i].mask >> s & 1;
        if (n >= c->cfg.mshr_merge) return 1;
    }
    return 0;
}

/* The merge limit refuses a request that waits on the `merged` (pending) sectors of entry m. */
static int merge_full(const cache_core *c, int m, uint8_t merged)
{
    return c->sector_mshr ? sector_merge_full(c, m, merged) : c->mshr[m].nwait >= c->cfg.mshr_merge;
}

/* Room for one more waiter on entry m (below the merge limit); -1 when out of memory. */
static int mshr_reserve(cache_core *c, int m)
{
    cache_mshr *e = &c->mshr[m];
    if (e->nwait < e->wcap) return 0;
    int cap = e->wcap ? 2 * e->wcap : 4;
    if (cap > cache_mshr_max_waiters(c)) cap = cache_mshr_max_waiters(c);
    cache_waiter *w = realloc(e->w, (size_t)cap * sizeof *w);
    if (!w) return -1;
    e->w = w;
    e->wcap = (uint16_t)cap;
    return 0;
}

static void mshr_add_waiter(cache_core *c, int m, const cache_req *req, uint8_t mask, int is_write)
{
    cache_mshr *e = &c->mshr[m];
    cache_waiter *w = &e->w[e->nwait++]; /* mshr_reserve made room */
    w->cookie = req->cookie;
    w->mask = mask;
    w->is_write = (uint8_t)is_write;
    if (!req->is_write) {
        e->pc_hash = req->pc_hash;
        e->has_load = 1;
    }
}

/* ---- miss queue ---- */

static int mq_room(const cache_core *c) { return c->cfg.miss_queue - c->mq_count; }

static void mq_push(cache_core *c, uint64_t addr, uint8_t mask, int kind, uint64_t cookie)
{
    c->gen++; /* the miss queue's room decides reservation failures */
    if (c->mq_count >= c->mq_cap) {
        c->st.wb_overflow++;
        return;
    }
    int tail = c->mq_head + c->mq_count;
    cache_out *o = &c->mq[tail >= c->mq_cap ? tail - c->mq_cap : tail];
    o->addr = addr;
    o->sector_mask = mask;
    o->kind = (uint8_t)kind;
    o->prefetch = 0;
    o->cookie = cookie;
    o->queued = c->now;
    c->mq_count++;
}

const cache_out *cache_out_peek(const cache_core *c) { return c->mq_count ? &c->mq[c->mq_head] : NULL; }

int cache_out_pop(cache_core *c, cache_out *out)
{
    c->gen++;
    if (!c->mq_count) return -1;
    if (out) *out = c->mq[c->mq_head];
    if (++c->mq_head == c->mq_cap) c->mq_head = 0;
    c->mq_count--;
    return 0;
}

/* ---- tag array ---- */

static int find_way(const cache_core *c, int set, uint64_t la)
{
    const uint64_t *t = &c->tagv[(size_t)set * c->assoc];
    uint64_t key = la | 1;
    for (int w = 0; w < c->assoc; w++)
        if (t[w] == key) return w;
    return -1;
}

/* An unallocated way first, else the least recently used (LRU) or oldest (FIFO) line without
   reserved sectors; -1 when every way is reserved. */
static int pick_victim_at(const cache_core *c, int set, int at_fill)
{
    const cache_line *l = &c->lines[(size_t)set * c->assoc];
    if (c->hooks.victim) return c->hooks.victim(c->hooks.ctx, set, l, at_fill);
    int best = -1, n = victim_ways(c);
    uint64_t best_key = 0;
    for (int w = 0; w < n; w++) {
        if (!l[w].allocated) return w;
        if (l[w].reserved) continue;
        uint64_t key = c->cfg.replacement == 'F' ? l[w].alloc_time : l[w].last_use;
        if (best < 0 || key < best_key) {
            best = w;
            best_key = key;
        }
    }
    return best;
}

static int all_reserved(const cache_core *c, int set)
{
    const cache_line *l = &c->lines[(size_t)set * c->assoc];
    for (int w = 0, n = victim_ways(c); w < n; w++)
        if (!l[w].allocated || !l[w].reserved) return 0;
    return 1;
}

static int pick_victim(const cache_core *c, int set) { return pick_victim_at(c, set, 0); }

static void drop(cache_core *c, int set, int way);

/* Evicts a line that is replaced or invalidated; its power block may become unused. */
static void evict(cache_core *c, int set, int way)
{
    drop(c, set, way);
    if (pm_active(&c->pm)) cache_pm_free(c, set, way);
}

/* Writes back (if dirty) and clears a line. */
static void drop(cache_core *c, int set, int way)
{
    cache_line *l = cache_line_at(c, set, way);
    if (l->allocated && l->valid) {
        c->st.evictions++;
        if (l->prefetched) cache_pf_evict(c, l);
        if (c->hooks.on_evict) c->hooks.on_evict(c->hooks.ctx, l, set, way);
        if (l->dirty) {
            c->st.dirty_writebacks++;
            mq_push(c, l->tag, l->dirty, CACHE_OUT_WRITEBACK, 0);
        }
    }
    memset(l, 0, sizeof *l);
    c->tagv[(size_t)set * c->assoc + way] = 0;
}

static int victim_dirty(const cache_core *c, int set, int way)
{
    const cache_line *l = &c->lines[(size_t)set * c->assoc + way];
    return l->allocated && l->valid && l->dirty;
}

static void install(cache_core *c, int set, int way, uint64_t la)
{
    int was_live = cache_line_at(c, set, way)->allocated;
    drop(c, set, way);
    if (pm_active(&c->pm) && !was_live) cache_pm_alloc(c, set, way);
    cache_line *l = cache_line_at(c, set, way);
    l->tag = la;
    l->allocated = 1;
    c->tagv[(size_t)set * c->assoc + way] = la | 1;
    l->alloc_time = l->last_use = ++c->stamp;
}

static void touch(cache_core *c, cache_line *l) { l->last_use = ++c->stamp; }

static cache_status fail(cache_core *c, cache_result *r, cache_fail_reason why)
{
    c->st.res_fail[why]++;
    r->status = r->stat_status = CACHE_RESERVATION_FAIL;
    r->fail = (uint8_t)why;
    return CACHE_RESERVATION_FAIL;
}

/* Of the sectors a write makes present, those that become readable (see cache_set_partial_unreadable). */
static uint8_t readable_after_write(const cache_core *c, const cache_req *req, uint8_t written)
{
    if (!c->partial_unreadable || c->cfg.write_alloc != 'L') return written;
    if (c->nsect == 1) /* a line cache tracks readability per line: all of it must be written */
        return req->partial_mask || (req->sector_mask && (req->sector_mask & 0xF) != 0xF) ? 0 : written;
    return written & (uint8_t)~req->partial_mask;
}

/* A write makes `written` sectors of l present: the readable ones valid, the others unreadable. */
static void write_sectors(const cache_core *c, cache_line *l, const cache_req *req, uint8_t written)
{
    l->valid |= readable_after_write(c, req, written);
    l->unreadable = (uint8_t)((l->unreadable | written) & ~l->valid);
}

/* GPGPU-Sim's count of a write to a present line that was served as a hit: its probe sees the
   written sector pending (HIT_RESERVED) or neither valid nor written (SECTOR_MISS, then counted as
   a miss: lazy fetch-on-read, write-through and no-allocate alike). present: valid | unreadable
   before the write. Only counters move: the status, hence the timing, stays a hit. */
static void recount_write_hit(cache_core *c, cache_result *r, uint8_t mask, uint8_t present, uint8_t pending)
{
    if (mask & pending) {
        c->st.hits--;
        c->st.hit_reserved++;
        r->stat_status = CACHE_HIT_RESERVED;
    } else if (mask & (uint8_t)~present) {
        c->st.hits--;
        c->st.misses++;
        c->st.sector_misses++;
        r->stat_status = CACHE_MISS;
    }
}

static cache_status hit(cache_core *c, cache_result *r, int set, int way, const cache_req *req)
{
    cache_line *l = cache_line_at(c, set, way);
    touch(c, l);
    if (!req->is_write) {
        l->owner_pc_hash = req->pc_hash;
        if (l->prefetched) cache_pf_demand_hit(c, l);
    }
    c->st.hits++;
    c->st.served_hits++;
    if (c->hooks.on_hit) c->hooks.on_hit(c->hooks.ctx, l, set, way, req);
    r->status = CACHE_HIT;
    return CACHE_HIT;
}

static cache_alloc_decision ask_alloc(cache_core *c, const cache_req *req, cache_result *r)
{
    cache_alloc_decision d = req->no_allocate ? CACHE_BYPASS
                             : c->hooks.alloc ? c->hooks.alloc(c->hooks.ctx, req) : CACHE_ALLOCATE;
    if (d == CACHE_BYPASS) {
        c->st.bypasses++;
        r->bypassed = 1;
    }
    return d;
}

/* A miss that fetches `fetch` sectors of the line (0: merge only). The request waits for
   `wait` sectors when add_waiter; send_write also queues the write itself. */
static cache_status start_fetch(cache_core *c, const cache_req *req, uint64_t la, int set, int way, int m,
                                uint8_t fetch, uint8_t wait, int wait_write, int add_waiter, int send_write,
                                cache_result *r)
{
    int victim = -1, alloc = 1, protected_bypass = 0;
    if (c->read_mq_reserve && add_waiter && !req->is_write && mq_room(c) < 2)
        return fail(c, r, CACHE_FAIL_MISS_QUEUE);
    if (m < 0) {
        if (way < 0) {
            if (ask_alloc(c, req, r) == CACHE_BYPASS)
                alloc = 0;
            else if (c->cfg.alloc_policy == 'm' && (victim = pick_victim(c, set)) < 0) {
                if (!c->hooks.victim || all_reserved(c, set)) return fail(c, r, CACHE_FAIL_LINE_ALLOC);
                r->bypassed = 1; /* the replacement policy protects every line */
                if (c->bypass_direct && !req->is_write) {
                    c->st.bypasses++;
                    c->st.misses++; /* a non-hit, as the bypasses that keep an MSHR */
                    r->status = CACHE_BYPASS_DIRECT;
                    return CACHE_BYPASS_DIRECT;
                }
                protected_bypass = 1; /* counted once the access cannot fail any more */
                alloc = 0;
            }
        }
        if (c->mshr_used >= c->cfg.mshr_entries) return fail(c, r, CACHE_FAIL_MSHR_ENTRY);
    } else if (add_waiter && merge_full(c, m, wait & c->mshr[m].pending)) {
        return fail(c, r, CACHE_FAIL_MSHR_MERGE);
    }
    if (c->sector_mshr && c->mshr_sectors + popcount8(fetch) > c->cfg.mshr_entries)
        return fail(c, r, CACHE_FAIL_MSHR_ENTRY); /* one entry per sector fetched */
    /* A new entry is the free list's head; no memory for a waiter is a merge failure (retried). */
    if (add_waiter && mshr_reserve(c, m >= 0 ? m : c->mshr_free)) return fail(c, r, CACHE_FAIL_MSHR_MERGE);
    int nout = (fetch != 0) + (send_write != 0) + (victim >= 0 && victim_dirty(c, set, victim));
    if (mq_room(c) < nout) return fail(c, r, CACHE_FAIL_MISS_QUEUE);
    c->st.bypasses += (uint64_t)protected_bypass;

    r->writeback_sent = (uint8_t)(victim >= 0 && victim_dirty(c, set, victim));
    if (victim >= 0) {
        install(c, set, victim, la);
        way = victim;
    }
    if (m < 0) m = mshr_alloc(c, la, alloc);
    cache_mshr *e = &c->mshr[m];
    if (way >= 0 && e->allocate && c->cfg.alloc_policy == 'm') {
        cache_line *l = cache_line_at(c, set, way);
        l->reserved |= fetch;
        touch(c, l);
    }
    e->pending |= fetch;
    c->mshr_sectors += popcount8(fetch);
    if (add_waiter) mshr_add_waiter(c, m, req, wait, wait_write);
    if (add_waiter && !req->is_write) {
        if (e->prefetch) cache_pf_demand_merge(c, e);
        else if (fetch && c->pf_evicted) cache_pf_demand_miss(c, la);
    }
    if (fetch) {
        mq_push(c, la, fetch, CACHE_OUT_READ, 0);
        r->read_sent = 1;
    }
    if (send_write) {
        mq_push(c, la, req->sector_mask ? req->sector_mask & c->full_mask : c->full_mask, CACHE_OUT_WRITE,
                req->cookie);
        c->st.writes_sent++;
        r->write_sent = 1;
    }
    r->n_out = (uint8_t)nout;
    if (fetch) {
        c->st.misses++;
        r->sector_miss = way >= 0 && victim < 0;
        c->st.sector_misses += r->sector_miss;
        r->status = CACHE_MISS;
    } else {
        c->st.hit_reserved++;
        r->status = CACHE_HIT_RESERVED;
    }
    return (cache_status)r->status;
}

int cache_mshr_find(const cache_core *c, uint64_t la) { return mshr_find(c, la); }

cache_status cache_fetch_no_waiter(cache_core *c, const cache_req *req, uint64_t la, int set, cache_result *r)
{
    c->gen++;
    memset(r, 0, sizeof *r);
    cache_status st = start_fetch(c, req, la, set, -1, -1, c->full_mask, 0, 0, 0, 0, r);
    if (cache_pm_sectored(c)) cache_pm_sync(c, set, -1, 0);
    if (st != CACHE_MISS) return st;
    c->mshr[mshr_find(c, la)].prefetch = 1;
    for (int k = c->mq_count - 1; k >= 0; k--) { /* its read (a write-back may follow it) */
        int i = c->mq_head + k;
        cache_out *o = &c->mq[i >= c->mq_cap ? i - c->mq_cap : i];
        if (o->kind == CACHE_OUT_READ && o->addr == la) {
            o->prefetch = 1;
            break;
        }
    }
    return st;
}

/* A write that goes down without allocating anything. */
static cache_status write_around(cache_core *c, const cache_req *req, uint64_t la, uint8_t mask, cache_result *r)
{
    if (mq_room(c) < 1) return fail(c, r, CACHE_FAIL_MISS_QUEUE);
    mq_push(c, la, mask, CACHE_OUT_WRITE, req->cookie);
    c->st.writes_sent++;
    c->st.misses++;
    r->write_sent = 1;
    r->n_out = 1;
    r->status = CACHE_MISS;
    return CACHE_MISS;
}

/* Lazy fetch-on-read write allocation: the written sectors become valid now, nothing is fetched. */
static cache_status lazy_alloc(cache_core *c, const cache_req *req, uint64_t la, int set, uint8_t mask,
                               int write_back, cache_result *r)
{
    if (ask_alloc(c, req, r) == CACHE_BYPASS) return write_around(c, req, la, mask, r);
    int victim = pick_victim(c, set);
    if (victim < 0) return fail(c, r, CACHE_FAIL_LINE_ALLOC);
    int wb = victim_dirty(c, set, victim);
    int nout = wb + !write_back;
    if (mq_room(c) < nout) return fail(c, r, CACHE_FAIL_MISS_QUEUE);
    install(c, set, victim, la);
    cache_line *l = cache_line_at(c, set, victim);
    write_sectors(c, l, req, mask);
    l->dirty = write_back ? mask : 0;
    r->writeback_sent = (uint8_t)wb;
    if (!write_back) {
        mq_push(c, la, mask, CACHE_OUT_WRITE, req->cookie);
        c->st.writes_sent++;
        r->write_sent = 1;
    }
    r->n_out = (uint8_t)nout;
    c->st.misses++;
    r->status = CACHE_MISS;
    return CACHE_MISS;
}

static cache_status write_miss(cache_core *c, const cache_req *req, uint64_t la, int set, int m, uint8_t mask,
                               uint8_t pending, int write_back, cache_result *r)
{
    /* Nothing to fetch and no waiting: the write just goes down. */
    if (!(mask & ~pending) && (c->cfg.write_alloc == 'W' || (c->cfg.write_alloc == 'F' && !write_back)))
        return write_around(c, req, la, mask, r);
    switch (c->cfg.write_alloc) {
    case 'W':
        return start_fetch(c, req, la, set, -1, m, mask & ~pending, 0, 0, 0, 1, r);
    case 'F':
        if (write_back) return start_fetch(c, req, la, set, -1, m, mask & ~pending, mask, 1, 1, 0, r);
        return start_fetch(c, req, la, set, -1, m, mask & ~pending, 0, 0, 0, 1, r);
    case 'L':
        return lazy_alloc(c, req, la, set, mask, write_back, r);
    default:
        return write_around(c, req, la, mask, r);
    }
}

/* The counters and result of a read failing as the remembered one did (see cache_core.fail_gen). */
static cache_status replay_fail(cache_core *c, cache_result *r)
{
    c->pm_wait = 0;
    return fail(c, r, (cache_fail_reason)c->fail_why);
}

static cache_status access_once(cache_core *c, const cache_req *req, cache_result *r, uint64_t la, int *simple);

char cache_write_policy(const cache_core *c, const cache_req *req)
{
    char wp = c->cfg.write_policy;
    if (wp == 'L') wp = req->is_local ? 'B' : 'E';
    return wp == 'R' ? 'E' : wp;
}

cache_status cache_access(cache_core *c, const cache_req *req, cache_result *r)
{
    cache_result dummy;
    if (!r) r = &dummy;
    memset(r, 0, sizeof *r);
    c->st.accesses++;
    if (req->is_write)
        c->st.writes++;
    else
        c->st.reads++;
    uint64_t la = cache_line_addr(c, req->addr);
    if (c->fail_known && c->fail_gen == c->gen && !req->is_write && la == c->fail_line &&
        req->sector_mask == c->fail_mask && req->is_local == c->fail_local)
        return replay_fail(c, r);
    c->gen++;
    int simple = 0;
    cache_status st = access_once(c, req, r, la, &simple);
    if (st != CACHE_HIT) r->stat_status = (uint8_t)st; /* a hit's was set by recount_write_hit */
    if (c->mclass && st != CACHE_RESERVATION_FAIL) cache_classify(c, req, la, st);
    if (cache_pm_sectored(c)) cache_pm_sync(c, cache_set_index(c, req->addr), -1, 0);
    c->fail_known = (uint8_t)(simple && st == CACHE_RESERVATION_FAIL);
    if (c->fail_known) {
        c->fail_gen = c->gen;
        c->fail_line = la;
        c->fail_mask = req->sector_mask;
        c->fail_local = req->is_local;
        c->fail_why = r->fail;
    }
    return st;
}

/* cache_access after the counting; *simple: a read of an absent line without an MSHR, no hooks
 * that could see it, no power modes (a failure then changed nothing but counters). */
static cache_status access_once(cache_core *c, const cache_req *req, cache_result *r, uint64_t la, int *simple)
{
    int set = cache_set_index(c, req->addr);
    uint8_t mask = req->sector_mask & c->full_mask;
    if (!mask || c->nsect == 1) mask = c->full_mask;
    int way = find_way(c, set, la);
    c->pm_wait = 0;
    if (pm_active(&c->pm) && way >= 0 && cache_pm_touch(c, set, way, mask)) way = find_way(c, set, la);
    int m = mshr_find(c, la);
    *simple = !req->is_write && way < 0 && m < 0 && !c->hooks.alloc && !c->hooks.victim && !c->hooks.on_read &&
              !pm_active(&c->pm);
    cache_line *l = way >= 0 ? cache_line_at(c, set, way) : NULL;
    uint8_t valid = l ? l->valid : 0;
    uint8_t pending = m >= 0 ? c->mshr[m].pending : 0;

    if (!req->is_write) {
        uint8_t missing = mask & (uint8_t)~valid & (uint8_t)~pending;
        cache_status st;
        if (!(mask & ~valid)) {
            st = hit(c, r, set, way, req);
        } else {
            if (!missing && l) touch(c, l);
            st = start_fetch(c, req, la, set, way, m, missing, mask & ~valid, 0, 1, 0, r);
        }
        if (c->hooks.on_read && st != CACHE_RESERVATION_FAIL)
            c->hooks.on_read(c->hooks.ctx, set, st == CACHE_HIT ? way : -1, req);
        return st;
    }

    char wp = cache_write_policy(c, req);

    if (wp == 'B') {
        if (l) {
            uint8_t now = mask & (uint8_t)~pending, later = mask & pending, present = l->valid | l->unreadable;
            if (later) {
                if (merge_full(c, m, later) || mshr_reserve(c, m))
                    return fail(c, r, CACHE_FAIL_MSHR_MERGE);
                mshr_add_waiter(c, m, req, later, 1);
            }
            write_sectors(c, l, req, now);
            l->dirty |= now;
            if (!later) {
                hit(c, r, set, way, req);
                recount_write_hit(c, r, mask, present, 0);
                return CACHE_HIT;
            }
            touch(c, l);
            c->st.hit_reserved++;
            r->status = CACHE_HIT_RESERVED;
            return CACHE_HIT_RESERVED;
        }
        if (m >= 0 && !(mask & ~pending)) /* every written sector is on its way: wait for it */
            return start_fetch(c, req, la, set, -1, m, 0, mask, 1, 1, 0, r);
        return write_miss(c, req, la, set, m, mask, pending, 1, r);
    }

    /* write-through (T) and write-evict (E): the write always goes down */
    if (l) {
        if (mq_room(c) < 1 + (wp == 'E' && !l->reserved && l->dirty != 0))
            return fail(c, r, CACHE_FAIL_MISS_QUEUE);
        hit(c, r, set, way, req);
        recount_write_hit(c, r, mask, l->valid | l->unreadable, pending);
        if (wp == 'E') {
            if (!l->reserved) {
                r->writeback_sent = l->dirty != 0;
                evict(c, set, way);
            } else {
                l->valid &= (uint8_t)~mask;
                l->dirty &= (uint8_t)~mask;
                l->unreadable &= (uint8_t)~mask;
            }
        } else {
            write_sectors(c, l, req, mask & (uint8_t)~pending);
        }
        mq_push(c, la, mask, CACHE_OUT_WRITE, req->cookie);
        c->st.writes_sent++;
        r->write_sent = 1;
        r->n_out = (uint8_t)(1 + r->writeback_sent);
        return CACHE_HIT;
    }
    if (wp == 'E') return write_around(c, req, la, mask, r);
    return write_miss(c, req, la, set, m, mask, pending, 0, r);
}

int cache_fill(cache_core *c, uint64_t line_addr, uint8_t sector_mask, uint64_t *woken, int max_wake)
{
    c->gen++;
    uint64_t la = cache_line_addr(c, line_addr);
    int m = mshr_find(c, la);
    if (m < 0) return -1;
    uint8_t mask = c->nsect == 1 || !(sector_mask & c->full_mask) ? c->full_mask : sector_mask & c->full_mask;
    cache_mshr *e = &c->mshr[m];
    cache_waiter *w = e->w;
    uint8_t arrived = mask & e->pending;
    e->pending &= (uint8_t)~arrived;
    c->mshr_sectors -= popcount8(arrived);
    c->st.fills++;
    c->st.sector_fills += (uint64_t)popcount8(arrived);

    if (e->allocate && arrived) {
        uint8_t dirty = 0;
        for (int i = 0; i < e->nwait; i++)
            if (w[i].is_write) dirty |= w[i].mask & arrived;
        int set = cache_set_index(c, la);
        int way = find_way(c, set, la);
        if (way < 0 && (way = pick_victim_at(c, set, 1)) >= 0) install(c, set, way, la);
        if (way >= 0) {
            cache_line *l = cache_line_at(c, set, way);
            l->valid |= arrived;
            l->unreadable &= (uint8_t)~arrived;
            l->reserved &= (uint8_t)~arrived;
            l->dirty |= dirty;
            if (e->has_load) l->owner_pc_hash = e->pc_hash;
            if (e->prefetch) {
                l->prefetched = 1;
                l->demanded |= e->demanded;
            }
            touch(c, l);
            if (c->hooks.on_fill) c->hooks.on_fill(c->hooks.ctx, l, set, way, arrived);
        }
        if (cache_pm_sectored(c)) cache_pm_sync(c, set, way, arrived); /* the fill writes its sectors */
        if (pm_active(&c->pm)) cache_pm_fill_done(c, set, way);
    } else if (pm_active(&c->pm)) {
        cache_pm_fill_done(c, cache_set_index(c, la), -1); /* nothing written: the set's queue entry goes */
    }

    int n = 0, keep = 0;
    for (int i = 0; i < e->nwait; i++) {
        if (w[i].mask & e->pending) {
            w[keep++] = w[i];
        } else {
            if (woken && n < max_wake) woken[n] = w[i].cookie;
            n++;
        }
    }
    e->nwait = (uint16_t)keep;
    if (!e->pending) mshr_release(c, m);
    return n;
}

int cache_probe(const cache_core *c, uint64_t addr, uint8_t *valid)
{
    int set = cache_set_index(c, addr);
    int way = find_way(c, set, cache_line_addr(c, addr));
    if (valid) *valid = way >= 0 ? c->lines[(size_t)set * c->assoc + way].valid : 0;
    return way;
}

void cache_set_partial_unreadable(cache_core *c, int on) { c->partial_unreadable = on != 0; }

int cache_set_ways(cache_core *c, int ways, char alloc)
{
    if (ways < 1 || ways > c->alloc_assoc || c->mshr_used > 0 || !strchr("mfs", alloc) || !alloc) return -1;
    cache_invalidate_all(c); /* no line is reserved without an MSHR: all are dropped */
    c->assoc = ways;
    c->cfg.assoc = ways;
    c->cfg.alloc_policy = alloc;
    return 0;
}

void cache_invalidate_all(cache_core *c)
{
    c->gen++;
    if (c->mclass) cache_miss_class_flush(c->mclass);
    size_t n = (size_t)c->nsets * c->assoc;
    for (size_t i = 0; i < n; i++) {
        cache_line *l = &c->lines[i];
        if (l->reserved) {
            l->valid = 0;
            l->dirty = 0;
            l->unreadable = 0;
        } else {
            int live = l->allocated;
            memset(l, 0, sizeof *l);
            c->tagv[i] = 0;
            if (live && pm_active(&c->pm)) cache_pm_free(c, (int)(i / (size_t)c->assoc), (int)(i % (size_t)c->assoc));
        }
    }
    if (cache_pm_sectored(c))
        for (int set = 0; set < c->nsets; set++) cache_pm_sync(c, set, -1, 0);
}
