#include "load_profile.h"

#include <stdlib.h>
#include <string.h>

static size_t slot(uint64_t key, size_t cap) { return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1); }

static int map_grow(lp_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 16;
    uint64_t *k = calloc(cap, sizeof *k), *c = calloc(cap, sizeof *c);
    uint8_t *u = calloc(cap, 1);
    if (!k || !c || !u) {
        free(k);
        free(c);
        free(u);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->used[i]) continue;
        size_t j = slot(m->keys[i], cap);
        while (u[j]) j = (j + 1) & (cap - 1);
        u[j] = 1;
        k[j] = m->keys[i];
        c[j] = m->counts[i];
    }
    free(m->keys);
    free(m->counts);
    free(m->used);
    m->keys = k;
    m->counts = c;
    m->used = u;
    m->cap = cap;
    return 0;
}

/* Adds delta to key's count (inserting it); returns the slot's count pointer or NULL. */
static uint64_t *map_add(lp_map *m, uint64_t key, uint64_t delta)
{
    if ((m->n + 1) * 2 > m->cap && map_grow(m) != 0) return NULL;
    size_t j = slot(key, m->cap);
    while (m->used[j] && m->keys[j] != key) j = (j + 1) & (m->cap - 1);
    if (!m->used[j]) {
        m->used[j] = 1;
        m->keys[j] = key;
        m->counts[j] = 0;
        m->n++;
    }
    m->counts[j] += delta;
    return &m->counts[j];
}

static void map_free(lp_map *m)
{
    free(m->keys);
    free(m->counts);
    free(m->used);
    memset(m, 0, sizeof *m);
}

void load_profile_init(load_profile *p) { memset(p, 0, sizeof *p); }

void load_profile_free(load_profile *p)
{
    for (size_t i = 0; i < p->n; i++) {
        map_free(&p->loads[i].lines);
        map_free(&p->loads[i].strides);
    }
    free(p->loads);
    map_free(&p->index);
    memset(p, 0, sizeof *p);
}

static lp_load *find_or_add(load_profile *p, uint64_t key, uint32_t pc, uint32_t line)
{
    uint64_t *pos = map_add(&p->index, key, 0);
    if (!pos) return NULL;
    if (*pos) return &p->loads[*pos - 1];
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        lp_load *v = realloc(p->loads, cap * sizeof *v);
        if (!v) return NULL;
        p->loads = v;
        p->cap = cap;
    }
    lp_load *l = &p->loads[p->n++];
    memset(l, 0, sizeof *l);
    l->key = key;
    l->pc = pc;
    l->line = line;
    *pos = p->n;
    return l;
}

/* Distinct blocks of (1 << shift) bytes the active lanes touch; also records 128-B lines. */
static uint64_t count_blocks(uint32_t mask, const uint64_t *addr, unsigned bytes, unsigned shift, lp_map *record)
{
    uint64_t seen[64];
    unsigned n = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctz(m);
        uint64_t first = addr[lane] >> shift, last = (addr[lane] + (bytes ? bytes : 1) - 1) >> shift;
        for (uint64_t b = first; b <= last; b++) {
            unsigned k = 0;
            while (k < n && seen[k] != b) k++;
            if (k == n && n < 64) {
                seen[n++] = b;
                if (record) map_add(record, b, 1);
            }
        }
    }
    return n;
}

int load_profile_add(load_profile *p, uint64_t key, uint32_t pc, uint32_t line, uint64_t warp, uint32_t mask,
                     const uint64_t *addr, unsigned bytes)
{
    if (!mask) return 0;
    lp_load *l = find_or_add(p, key, pc, line);
    if (!l) return -1;
    uint64_t lines = count_blocks(mask, addr, bytes, 7, &l->lines);
    l->line_requests += lines;
    l->sector_requests += count_blocks(mask, addr, bytes, 5, NULL);
    l->executions++;
    p->total_requests += lines;
    uint64_t a = addr[__builtin_ctz(mask)]; /* the first active lane's address */
    if (l->has_last && warp != l->last_warp) {
        int64_t dw = (int64_t)(warp - l->last_warp), da = (int64_t)(a - l->last_addr);
        if (!map_add(&l->strides, (uint64_t)(da / dw), 1)) return -1;
        l->stride_samples++;
    }
    l->has_last = 1;
    l->last_warp = warp;
    l->last_addr = a;
    return 0;
}

void load_profile_stride(const lp_load *l, int64_t *stride, double *share)
{
    *stride = 0;
    *share = 0;
    uint64_t best = 0;
    for (size_t i = 0; i < l->strides.cap; i++) {
        if (!l->strides.used[i]) continue;
        int64_t s = (int64_t)l->strides.keys[i];
        uint64_t c = l->strides.counts[i];
        if (c > best || (c == best && s < *stride)) {
            best = c;
            *stride = s;
        }
    }
    if (l->stride_samples) *share = (double)best / (double)l->stride_samples;
}

typedef struct rank {
    uint64_t requests, key;
    size_t index;
} rank;

static int by_requests(const void *a, const void *b)
{
    const rank *x = a, *y = b;
    if (x->requests != y->requests) return x->requests < y->requests ? 1 : -1;
    return x->key < y->key ? -1 : x->key > y->key;
}

void load_profile_order(const load_profile *p, size_t *order)
{
    rank *r = malloc((p->n ? p->n : 1) * sizeof *r);
    if (!r) { /* keep insertion order */
        for (size_t i = 0; i < p->n; i++) order[i] = i;
        return;
    }
    for (size_t i = 0; i < p->n; i++) r[i] = (rank){p->loads[i].line_requests, p->loads[i].key, i};
    qsort(r, p->n, sizeof *r, by_requests);
    for (size_t i = 0; i < p->n; i++) order[i] = r[i].index;
    free(r);
}
