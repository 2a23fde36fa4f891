#include "ext_llc.h"

#include <stdlib.h>
#include <string.h>

#define ELLC_LINE 128u

static uint32_t rf_ways(uint32_t regs, uint32_t aux)
{
    uint32_t d = 0;
    while (d + 1 + (d + 1 + 31) / 32 + aux <= regs) d++;
    return d;
}

uint32_t ellc_ways(const llc_config *c, uint32_t warp_regs, uint32_t max_regs, uint32_t w, int *unit)
{
    uint32_t W = (uint32_t)c->warps;
    uint32_t l1_blocks = (uint32_t)c->l1_kib * 1024u / ELLC_LINE;
    switch (c->storage) {
    case LLC_ST_RF: {
        uint32_t r = warp_regs / W;
        *unit = ELLC_UNIT_RF;
        return rf_ways(r < max_regs ? r : max_regs, (uint32_t)c->aux_regs);
    }
    case LLC_ST_L1: *unit = ELLC_UNIT_L1; return l1_blocks / W;
    case LLC_ST_SMEM: *unit = ELLC_UNIT_SMEM; return (uint32_t)c->smem_kib * 1024u / ELLC_LINE / W;
    default: {
        uint32_t rw = (uint32_t)c->rf_warps < W ? (uint32_t)c->rf_warps : W, lw = W - rw;
        if (w >= rw) {
            *unit = ELLC_UNIT_L1;
            return l1_blocks / lw;
        }
        uint32_t left = warp_regs > lw * (uint32_t)c->l1_warp_regs ? warp_regs - lw * (uint32_t)c->l1_warp_regs : 0;
        uint32_t r = left / rw;
        *unit = ELLC_UNIT_RF;
        return rf_ways(r < max_regs ? r : max_regs, (uint32_t)c->aux_regs);
    }
    }
}

uint32_t ellc_ns_to_cycles(double ns, double mhz)
{
    double x = ns * mhz / 1000.0;
    uint32_t n = (uint32_t)x;
    if ((double)n < x - 1e-9) n++;
    return n;
}

int ellc_init(ellc_server *e, const llc_config *c, uint32_t n_sms, uint32_t warp_regs, uint32_t max_regs,
              uint32_t n_ctl, double mhz)
{
    memset(e, 0, sizeof *e);
    e->n_sms = n_sms;
    e->warps = (uint32_t)c->warps;
    e->n_sets = n_sms * e->warps;
    e->n_ctl = n_ctl;
    e->t_tag = ellc_ns_to_cycles(c->svc_tag_ns, mhz);
    e->t_move = ellc_ns_to_cycles(c->svc_move_ns, mhz);
    e->t_store = ellc_ns_to_cycles(c->svc_store_ns, mhz);
    e->compress = c->compression;
    e->t_decomp = c->compression ? ellc_ns_to_cycles(c->svc_decomp_ns, mhz) : 0;
    e->sets = calloc(e->n_sets ? e->n_sets : 1, sizeof *e->sets);
    e->st = calloc(n_sms ? n_sms : 1, sizeof *e->st);
    e->pend = calloc(n_ctl ? n_ctl : 1, sizeof *e->pend);
    if (!e->sets || !e->st || !e->pend) return -1;
    for (uint32_t g = 0; g < e->n_sets; g++) {
        ellc_set *s = &e->sets[g];
        int unit = 0;
        s->ways = ellc_ways(c, warp_regs, max_regs, g % e->warps, &unit);
        s->unit = (uint8_t)unit;
        if (!s->ways) return -1;
        s->cap = s->ways * ELLC_LINE;
        /* the smallest compressed block: a quarter line and its base */
        s->slots = e->compress ? s->cap / (ELLC_LINE / 4 + (uint32_t)c->bdi_base_bytes) : s->ways;
        if (s->slots < s->ways) s->slots = s->ways;
        s->key = calloc(s->slots, sizeof *s->key);
        s->stamp = calloc(s->slots, sizeof *s->stamp);
        s->dirty = calloc(s->slots, 1);
        s->size = calloc(s->slots, 1);
        if (!s->key || !s->stamp || !s->dirty || !s->size) return -1;
    }
    return 0;
}

void ellc_free(ellc_server *e)
{
    for (uint32_t g = 0; e->sets && g < e->n_sets; g++) {
        free(e->sets[g].key);
        free(e->sets[g].stamp);
        free(e->sets[g].dirty);
        free(e->sets[g].size);
    }
    free(e->sets);
    free(e->st);
    for (uint32_t c = 0; e->pend && c < e->n_ctl; c++) free(e->pend[c].v);
    free(e->pend);
    memset(e, 0, sizeof *e);
}

static int find(const ellc_set *s, uint64_t key)
{
    for (uint32_t w = 0; w < s->slots; w++)
        if (s->stamp[w] && s->key[w] == key) return (int)w;
    return -1;
}

int ellc_resident(const ellc_server *e, uint32_t set, uint64_t key) { return set < e->n_sets && find(&e->sets[set], key) >= 0; }

uint64_t ellc_capacity_bytes(const ellc_server *e, uint32_t rank)
{
    uint64_t b = 0;
    for (uint32_t w = 0; w < e->warps; w++) b += (uint64_t)e->sets[rank * e->warps + w].ways * ELLC_LINE;
    return b;
}

uint64_t ellc_dirty_lines(const ellc_server *e, uint32_t rank)
{
    uint64_t n = 0;
    for (uint32_t w = 0; w < e->warps; w++) {
        const ellc_set *s = &e->sets[rank * e->warps + w];
        for (uint32_t k = 0; k < s->slots; k++) n += s->stamp[k] && s->dirty[k];
    }
    return n;
}

uint32_t ellc_assoc(const ellc_server *e, uint32_t set)
{
    const ellc_set *s = &e->sets[set];
    if (!e->compress) return s->ways;
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->slots; k++) n += s->stamp[k] != 0;
    return n ? n : 1;
}

/* Compression: drop the least recently used block other than `keep` (dirty: a write-back in d). */
static void evict_lru(ellc_server *e, ellc_set *s, ellc_sm_stats *st, ellc_done *d, int keep)
{
    int v = -1;
    for (uint32_t k = 0; k < s->slots; k++)
        if (s->stamp[k] && (int)k != keep && (v < 0 || s->stamp[k] < s->stamp[v])) v = (int)k;
    if (v < 0) return;
    if (s->dirty[v]) {
        if (d->writeback < ELLC_MAX_VICTIMS) d->victim[d->writeback] = s->key[v];
        d->writeback++;
        st->writebacks++;
        st->bytes += ELLC_LINE;
    }
    s->used -= s->size[v];
    s->stamp[v] = 0;
    s->dirty[v] = 0;
    (void)e;
}

/* Compression: the block in slot w now takes `bytes`; older blocks leave until the set fits. */
static void resize(ellc_server *e, ellc_set *s, ellc_sm_stats *st, ellc_done *d, int w, uint32_t bytes)
{
    s->used = s->used - s->size[w] + bytes;
    s->size[w] = (uint8_t)bytes;
    while (s->used > s->cap) evict_lru(e, s, st, d, w);
}

static uint32_t block_bytes(const ellc_req *r) { return r->size ? r->size : ELLC_LINE; }

/* Compression: a fill of a block not present; LRU blocks leave until it fits and a slot is free. */
static int fill_compressed(ellc_server *e, ellc_set *s, ellc_sm_stats *st, ellc_done *d, const ellc_req *r)
{
    uint32_t z = block_bytes(r);
    for (;;) {
        int free_slot = -1;
        for (uint32_t k = 0; k < s->slots && free_slot < 0; k++)
            if (!s->stamp[k]) free_slot = (int)k;
        if (free_slot >= 0 && s->used + z <= s->cap) {
            s->key[free_slot] = r->key;
            s->dirty[free_slot] = 0;
            s->size[free_slot] = 0;
            s->stamp[free_slot] = 1; /* set by the caller */
            resize(e, s, st, d, free_slot, z);
            return free_slot;
        }
        evict_lru(e, s, st, d, -1);
    }
}

static void count_level(ellc_sm_stats *st, uint32_t bytes)
{
    if (bytes < ELLC_LINE / 2) st->bdi_high++;
    else if (bytes < ELLC_LINE) st->bdi_low++;
}

int ellc_submit(ellc_server *e, const ellc_req *r, uint64_t arrive)
{
    if (r->set >= e->n_sets || r->ctl >= e->n_ctl) return -1;
    struct ellc_pending *q = &e->pend[r->ctl];
    if (q->n == q->cap) {
        uint32_t cap = q->cap ? 2 * q->cap : 16;
        ellc_done *p = realloc(q->v, cap * sizeof *p);
        if (!p) return -1;
        q->v = p;
        q->cap = cap;
    }
    ellc_set *s = &e->sets[r->set];
    ellc_sm_stats *st = &e->st[r->set / e->warps];
    ellc_done *d = &q->v[q->n++];
    memset(d, 0, sizeof *d);
    d->r = *r;
    d->arrive = arrive;
    d->start = arrive > s->busy_until ? arrive : s->busy_until;
    int way = find(s, r->key);
    uint64_t svc;
    if (r->kind == ELLC_FILL && e->compress) {
        st->fills++;
        if (way < 0) way = fill_compressed(e, s, st, d, r);
        else resize(e, s, st, d, way, block_bytes(r));
        count_level(st, block_bytes(r));
        s->dirty[way] |= r->dirty;
        s->stamp[way] = ++e->clock;
        st->bytes += ELLC_LINE;
        svc = (uint64_t)e->t_tag + e->t_move + e->t_store + (block_bytes(r) < ELLC_LINE ? e->t_decomp : 0);
    } else if (r->kind == ELLC_FILL) {
        st->fills++;
        if (way < 0) { /* victim: an invalid way, else the least recently used */
            way = 0;
            for (uint32_t w = 1; w < s->ways && s->stamp[way]; w++)
                if (!s->stamp[w] || s->stamp[w] < s->stamp[way]) way = (int)w;
            if (s->stamp[way] && s->dirty[way]) {
                d->writeback = 1;
                d->victim[0] = s->key[way];
                st->writebacks++;
                st->bytes += ELLC_LINE;
            }
            s->key[way] = r->key;
            s->dirty[way] = 0;
        }
        s->dirty[way] |= r->dirty;
        s->stamp[way] = ++e->clock;
        st->bytes += ELLC_LINE;
        svc = (uint64_t)e->t_tag + e->t_move + e->t_store;
    } else {
        st->accesses++;
        d->hit = way >= 0;
        if (d->hit) {
            st->hits++;
            s->stamp[way] = ++e->clock;
            if (r->kind != ELLC_READ) s->dirty[way] = 1;
            st->bytes += ELLC_LINE;
            svc = (uint64_t)e->t_tag + e->t_move + e->t_store;
            if (e->compress && r->kind != ELLC_READ && r->size) resize(e, s, st, d, way, block_bytes(r));
            if (e->compress && s->size[way] < ELLC_LINE) svc += e->t_decomp;
        } else {
            st->misses++;
            svc = (uint64_t)e->t_tag + e->t_store;
        }
    }
    d->done = d->start + svc;
    s->busy_until = d->done;
    st->busy_cycles += svc;
    st->queue_cycles += d->start - arrive;
    d->r.tag = r->tag;
    return 0;
}

uint64_t ellc_next_done(const ellc_server *e, uint32_t ctl)
{
    uint64_t t = ELLC_NEVER;
    if (ctl >= e->n_ctl) return t;
    const struct ellc_pending *q = &e->pend[ctl];
    for (uint32_t i = 0; i < q->n; i++)
        if (q->v[i].done < t) t = q->v[i].done;
    return t;
}

int ellc_pop_done(ellc_server *e, uint32_t ctl, uint64_t cycle, ellc_done *out)
{
    if (ctl >= e->n_ctl) return -1;
    struct ellc_pending *q = &e->pend[ctl];
    int best = -1;
    for (uint32_t i = 0; i < q->n; i++) /* earliest first; submission order on ties (array order) */
        if (q->v[i].done <= cycle && (best < 0 || q->v[i].done < q->v[best].done)) best = (int)i;
    if (best < 0) return -1;
    *out = q->v[best];
    memmove(&q->v[best], &q->v[best + 1], (q->n - (uint32_t)best - 1) * sizeof *q->v);
    q->n--;
    return 0;
}

static int b_submit(void *c, const ellc_req *r, uint64_t a) { return ellc_submit(c, r, a); }
static uint64_t b_next(const void *c, uint32_t ctl) { return ellc_next_done(c, ctl); }
static int b_pop(void *c, uint32_t ctl, uint64_t cy, ellc_done *o) { return ellc_pop_done(c, ctl, cy, o); }
static int b_res(const void *c, uint32_t s, uint64_t k) { return ellc_resident(c, s, k); }
static uint32_t b_ways(const void *c, uint32_t s) { return ((const ellc_server *)c)->sets[s].ways; }

static uint32_t b_assoc(const void *ctx, uint32_t set) { return ellc_assoc((const ellc_server *)ctx, set); }

ellc_backend ellc_server_backend(ellc_server *e)
{
    ellc_backend b = {e, b_submit, b_next, b_pop, b_res, b_ways, b_assoc};
    return b;
}
