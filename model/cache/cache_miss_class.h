/*
 * Miss classification of one cache (Hill's three Cs, thesis Ch. 3's cold / capacity / conflict
 * statistics; spec A.9: a shadow fully-associative LRU cache and a seen-before set).
 *
 * Every read the cache accepts (hit, pending hit or miss; not a reservation failure) is shown
 * here with the sectors it asks for (a line cache: the whole line). A read the cache misses is:
 *   cold         some requested sector was never read through this cache before;
 *   invalidated  else, some requested sector is absent from the shadow because a write evicted it
 *                (write-evict) or the cache was flushed (kernel-boundary invalidation), not because
 *                the shadow ran out of room: neither capacity nor mapping;
 *   capacity     else, the shadow (fully associative, LRU, as many lines as the cache) misses too;
 *   conflict     else (the shadow holds the sectors: only the set mapping lost them).
 * The four counts add up to the cache's read misses. The shadow keeps its own valid sectors: a read
 * makes its sectors valid at once (no MSHR timing); a write follows the cache's write policy on the
 * shadow: write-evict invalidates the written sectors, otherwise they become valid where the line is
 * present or the policy allocates on a write miss (a write that brings the line in also counts as
 * its first touch).
 */
#ifndef GTLM_CACHE_MISS_CLASS_H
#define GTLM_CACHE_MISS_CLASS_H

#include <stddef.h>
#include <stdint.h>

typedef struct mc_map { /* open addressing, line address -> value */
    uint64_t *key;        /* line address + 1; 0 = empty */
    uint32_t *val;
    size_t cap, n;        /* cap a power of two */
} mc_map;

typedef struct mc_node {
    uint64_t line;
    int prev, next;       /* LRU list, -1 ends */
    uint8_t valid;
} mc_node;

typedef struct cache_miss_class {
    uint64_t cold, capacity, conflict, invalidated;
    mc_map seen;          /* line -> seen sectors | invalidated sectors << 4 */
    mc_map where;         /* shadow: line -> node */
    mc_node *node;
    int max_lines, n, head, tail, free_head; /* head = most recent */
} cache_miss_class;

/* max_lines: the largest size the shadow takes (lines). 0, or -1 without memory. */
int cache_miss_class_init(cache_miss_class *m, int max_lines);
void cache_miss_class_free(cache_miss_class *m);
/* An accepted read of `mask`'s sectors of `line`; miss: the cache missed it. lines: the shadow's
   size now (the cache's usable lines). */
void cache_miss_class_read(cache_miss_class *m, uint64_t line, uint8_t mask, int miss, int lines);
/* An accepted write of `mask`'s sectors: evict (write-evict) or, else, allocate on a write miss. */
void cache_miss_class_write(cache_miss_class *m, uint64_t line, uint8_t mask, int evict, int allocate, int lines);
/* The whole cache was invalidated. */
void cache_miss_class_flush(cache_miss_class *m);

#endif
