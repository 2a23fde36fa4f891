/* Lines served per L1 since the kernel began (semantics in victim_map.h). */
#include "victim_map.h"

#include <stdlib.h>
#include <string.h>

#define VM_INIT_CAP 4096u

static uint64_t slot_of(uint64_t key, uint64_t cap)
{
    key *= 0x9E3779B97F4A7C15ull; /* Fibonacci hashing; cap is a power of two */
    return (key >> 17) & (cap - 1);
}

static int alloc(victim_map *m, uint64_t cap)
{
    m->keys = calloc(cap, sizeof *m->keys);
    m->masks = calloc(cap, sizeof *m->masks);
    m->cap = cap;
    m->used = 0;
    return m->keys && m->masks ? 0 : -1;
}

int victim_map_init(victim_map *m)
{
    memset(m, 0, sizeof *m);
    if (alloc(m, VM_INIT_CAP) != 0) {
        victim_map_free(m);
        return -1;
    }
    return 0;
}

void victim_map_free(victim_map *m)
{
    free(m->keys);
    free(m->masks);
    m->keys = m->masks = NULL;
    m->cap = m->used = 0;
}

static uint64_t *find(victim_map *m, uint64_t key)
{
    uint64_t i = slot_of(key, m->cap);
    while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
    if (!m->keys[i]) {
        m->keys[i] = key;
        m->masks[i] = 0;
        m->used++;
    }
    return &m->masks[i];
}

static int grow(victim_map *m)
{
    victim_map old = *m;
    if (alloc(m, old.cap * 2) != 0) {
        victim_map_free(m);
        *m = old;
        return -1;
    }
    for (uint64_t i = 0; i < old.cap; i++)
        if (old.keys[i]) *find(m, old.keys[i]) = old.masks[i];
    m->repeats = old.repeats;
    m->repeats_l2_miss = old.repeats_l2_miss;
    free(old.keys);
    free(old.masks);
    return 0;
}

int victim_map_load(victim_map *m, uint64_t line, int core, int l2_hit)
{
    if (core < 0 || core >= 64) return 0;
    if ((m->used + 1) * 4 > m->cap * 3 && grow(m) != 0) return -1; /* load factor <= 3/4 */
    uint64_t *mask = find(m, line + 1);
    uint64_t bit = 1ull << core;
    if (*mask & bit) {
        m->repeats++;
        m->repeats_l2_miss += (uint64_t)!l2_hit;
    }
    if (l2_hit) *mask |= bit;
    return 0;
}

int victim_map_served(victim_map *m, uint64_t line, uint64_t cores)
{
    if (!cores) return 0;
    if ((m->used + 1) * 4 > m->cap * 3 && grow(m) != 0) return -1;
    *find(m, line + 1) |= cores;
    return 0;
}

void victim_map_clear(victim_map *m)
{
    if (!m->keys) return;
    memset(m->keys, 0, m->cap * sizeof *m->keys);
    m->used = 0;
}
