#include "ptx_map.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_of(const char *k, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)k[i]) * 16777619u;
    return h;
}

void ptx_map_init(ptx_map *m)
{
    m->e = NULL;
    m->cap = m->n = 0;
}

void ptx_map_free(ptx_map *m)
{
    free(m->e);
    ptx_map_init(m);
}

static ptx_map_entry *find(const ptx_map *m, const char *key, size_t klen, uint32_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        ptx_map_entry *e = &m->e[i];
        if (!e->key || (e->hash == h && e->klen == klen && memcmp(e->key, key, klen) == 0)) return e;
    }
}

int64_t *ptx_map_get(const ptx_map *m, const char *key, size_t klen)
{
    if (!m->cap) return NULL;
    ptx_map_entry *e = find(m, key, klen, hash_of(key, klen));
    return e->key ? &e->val : NULL;
}

static int grow(ptx_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    ptx_map_entry *e = calloc(cap, sizeof *e);
    if (!e) return -1;
    ptx_map old = *m;
    m->e = e;
    m->cap = cap;
    for (size_t i = 0; i < old.cap; i++)
        if (old.e[i].key) *find(m, old.e[i].key, old.e[i].klen, old.e[i].hash) = old.e[i];
    free(old.e);
    return 0;
}

int ptx_map_put(ptx_map *m, const char *key, size_t klen, int64_t val)
{
    if (klen > UINT32_MAX) return -1;
    if ((m->n + 1) * 2 > m->cap && grow(m)) return -1;
    uint32_t h = hash_of(key, klen);
    ptx_map_entry *e = find(m, key, klen, h);
    if (!e->key) {
        e->key = key;
        e->klen = (uint32_t)klen;
        e->hash = h;
        m->n++;
    }
    e->val = val;
    return 0;
}
