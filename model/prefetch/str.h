/* STR: a per-PC stride prefetcher, the document's baseline prefetcher (spec gap 19: same 10-entry
 * table as SAP). An entry keeps the last line address a static load touched and the stride
 * between its last two accesses; when a new access repeats that stride, the prefetcher asks for
 * the `degree` lines at addr + k x stride (k = distance .. distance + degree - 1). */
#ifndef GTLM_PREFETCH_STR_H
#define GTLM_PREFETCH_STR_H

#include <stdint.h>

#define STR_MAX_ENTRIES 64
#define STR_MAX_DEGREE 8

typedef struct str_entry {
    uint8_t valid, stride_valid;
    uint64_t pc, addr, lru;
    int64_t stride;
} str_entry;

typedef struct str_pf {
    uint32_t n, degree, distance;
    str_entry e[STR_MAX_ENTRIES];
    uint64_t clock;
    uint64_t accesses, matches, prefetches;
} str_pf;

/* n entries 1..64, degree 1..8, distance 1..64. Returns 0 or -1. */
int str_init(str_pf *p, uint32_t n, uint32_t degree, uint32_t distance);
/* One global load access (line address) at pc; writes prefetch addresses to out (room for
 * STR_MAX_DEGREE) and returns their count. */
uint32_t str_access(str_pf *p, uint64_t pc, uint64_t addr, uint64_t *out);

#endif
