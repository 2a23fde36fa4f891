#include "cache_miss_class.h"

#include <stdlib.h>
#include <string.h>

#define SEEN_MASK 0x0Fu
#define INVAL_SHIFT 4

static size_t slot_of(const mc_map *h, uint64_t key)
{
    uint64_t x = key * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing: line addresses are multiples of 128 */
    return (size_t)(x >> 32) & (h->cap - 1);
}

static int map_init(mc_map *h, size_t cap)
{
    h->cap = cap;
    h->n = 0;
    h->key = calloc(cap, sizeof *h->key);
    h->val = calloc(cap, sizeof *h->val);
    return h->key && h->val ? 0 : -1;
}

static void map_free(mc_map *h)
{
    free(h->key);
    free(h->val);
    memset(h, 0, sizeof *h);
}

/* The slot holding line, or -1. */
static long map_find(const mc_map *h, uint64_t line)
{
    uint64_t k = line + 1;
    for (size_t i = slot_of(h, k);; i = (i + 1) & (h->cap - 1)) {
        if (h->key[i] == k) return (long)i;
        if (!h->key[i]) return -1;
    }
}

static int map_grow(mc_map *h)
{
    mc_map g;
    if (map_init(&g, h->cap * 2)) {
        map_free(&g);
        return -1;
    }
    for (size_t i = 0; i < h->cap; i++) {
        if (!h->key[i]) continue;
        size_t j = slot_of(&g, h->key[i]);
        while (g.key[j]) j = (j + 1) & (g.cap - 1);
        g.key[j] = h->key[i];
        g.val[j] = h->val[i];
    }
    g.n = h->n;
    map_free(h);
    *h = g;
    return 0;
}

/* The slot of line, inserted with value 0 when absent; -1 without memory. */
static long map_put(mc_map *h, uint64_t line)
{
    long s = map_find(h, line);
    if (s >= 0) return s;
    if (2 * (h->n + 1) > h->cap && map_grow(h)) return -1;
    uint64_t k = line + 1;
    size_t i = slot_of(h, k);
    while (h->key[i]) i = (i + 1) & (h->cap - 1);
    h->key[i] = k;
    h->val[i] = 0;
    h->n++;
    return (long)i;
}

/* Backward-shift deletion keeps every probe chain unbroken. */
static void map_erase(mc_map *h, size_t i)
{
    size_t mask = h->cap - 1;
    h->key[i] = 0;
    h->n--;
    for (size_t j = (i + 1) & mask; h->key[j]; j = (j + 1) & mask) {
        size_t home = slot_of(h, h->key[j]);
        /* move j into the hole i when its home is not in (i, j] cyclically */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            h->key[i] = h->key[j];
            h->val[i] = h->val[j];
            h->key[j] = 0;
            i = j;
        }
    }
}

int cache_miss_class_init(cache_miss_class *m, int max_lines)
{
    memset(m, 0, sizeof *m);
    size_t cap = 64;
    while (cap < 4 * (size_t)max_lines) cap *= 2;
    m->max_lines = max_lines;
    m->node = malloc((size_t)(max_lines > 0 ? max_lines : 1) * sizeof *m->node);
    m->head = m->tail = -1;
    for (int i = 0; i < max_lines; i++) m->node[i].next = i + 1 < max_lines ? i + 1 : -1;
    m->free_head = max_lines > 0 ? 0 : -1;
    if (!m->node || map_init(&m->seen, 1024) || map_init(&m->where, cap)) {
        cache_miss_class_free(m);
        return -1;
    }
    return 0;
}

void cache_miss_class_free(cache_miss_class *m)
{
    map_free(&m->seen);
    map_free(&m->where);
    free(m->node);
    memset(m, 0, sizeof *m);
}

static void unlink_node(cache_miss_class *m, int i)
{
    mc_node *x = &m->node[i];
    if (x->prev >= 0) m->node[x->prev].next = x->next;
    else m->head = x->next;
    if (x->next >= 0) m->node[x->next].prev = x->prev;
    else m->tail = x->prev;
}

static void push_front(cache_miss_class *m, int i)
{
    mc_node *x = &m->node[i];
    x->prev = -1;
    x->next = m->head;
    if (m->head >= 0) m->node[m->head].prev = i;
    m->head = i;
    if (m->tail < 0) m->tail = i;
}

static void drop_node(cache_miss_class *m, int i)
{
    long s = map_find(&m->where, m->node[i].line);
    if (s >= 0) map_erase(&m->where, (size_t)s);
    unlink_node(m, i);
    m->node[i].next = m->free_head;
    m->free_head = i;
    m->n--;
}

/* The shadow's node of line, or -1. */
static int shadow_find(const cache_miss_class *m, uint64_t line)
{
    long s = map_find(&m->where, line);
    return s < 0 ? -1 : (int)m->where.val[s];
}

/* Makes line the most recent shadow line (inserting it, evicting LRU lines down to `lines`). */
static int shadow_touch(cache_miss_class *m, uint64_t line, int lines)
{
    if (lines > m->max_lines) lines = m->max_lines;
    if (lines < 1) return -1;
    int i = shadow_find(m, line);
    if (i >= 0) {
        unlink_node(m, i);
        push_front(m, i);
        return i;
    }
    while (m->n >= lines) drop_node(m, m->tail);
    long s = map_put(&m->where, line);
    if (s < 0) return -1;
    i = m->free_head;
    m->free_head = m->node[i].next;
    m->node[i].line = line;
    m->node[i].valid = 0;
    m->where.val[s] = (uint32_t)i;
    push_front(m, i);
    m->n++;
    return i;
}

void cache_miss_class_read(cache_miss_class *m, uint64_t line, uint8_t mask, int miss, int lines)
{
    long s = map_put(&m->seen, line);
    if (s < 0) return;
    uint32_t *v = &m->seen.val[s];
    if (miss) {
        int i = shadow_find(m, line);
        uint8_t absent = (uint8_t)(mask & ~(i >= 0 ? m->node[i].valid : 0));
        if (mask & ~*v & SEEN_MASK)
            m->cold++;
        else if (absent & (*v >> INVAL_SHIFT))
            m->invalidated++;
        else if (absent)
            m->capacity++;
        else
            m->conflict++;
    }
    *v = (*v | mask) & ~((uint32_t)mask << INVAL_SHIFT);
    int i = shadow_touch(m, line, lines);
    if (i >= 0) m->node[i].valid |= mask;
}

void cache_miss_class_write(cache_miss_class *m, uint64_t line, uint8_t mask, int evict, int allocate, int lines)
{
    int i = shadow_find(m, line);
    if (evict) {
        if (i < 0) return;
        uint8_t gone = m->node[i].valid & mask;
        long s = map_find(&m->seen, line);
        if (s >= 0) m->seen.val[s] |= (uint32_t)gone << INVAL_SHIFT;
        m->node[i].valid &= (uint8_t)~mask;
        if (!m->node[i].valid) drop_node(m, i);
        return;
    }
    if (i < 0 && !allocate) return;
    long s = map_put(&m->seen, line);
    if (s >= 0) m->seen.val[s] = (m->seen.val[s] | mask) & ~((uint32_t)mask << INVAL_SHIFT);
    i = shadow_touch(m, line, lines);
    if (i >= 0) m->node[i].valid |= mask;
}

void cache_miss_class_flush(cache_miss_class *m)
{
    while (m->head >= 0) {
        int i = m->head;
        long s = map_find(&m->seen, m->node[i].line);
        if (s >= 0) m->seen.val[s] |= (uint32_t)m->node[i].valid << INVAL_SHIFT;
        drop_node(m, i);
    }
}
