/* SLD: spatial-locality detection over 4-line macro blocks (the document's SLD baseline): when two
 * of the four 128 B lines of an aligned 512 B block have been demanded, the block's other lines
 * are prefetched once. A small fully associative LRU table of recent macro blocks. */
#ifndef GTLM_PREFETCH_SLD_H
#define GTLM_PREFETCH_SLD_H

#include <stdint.h>

#define SLD_MAX_ENTRIES 256
#define SLD_LINES 4

typedef struct sld_entry {
    uint8_t valid, seen, fired;
    uint64_t block, lru;
} sld_entry;

typedef struct sld_pf {
    uint32_t n, line_bytes;
    sld_entry e[SLD_MAX_ENTRIES];
    uint64_t clock, accesses, triggers, prefetches;
} sld_pf;

/* n entries 1..256, line_bytes a power of two. Returns 0 or -1. */
int sld_init(sld_pf *p, uint32_t n, uint32_t line_bytes);
/* A demand access to the line at addr; writes up to SLD_LINES - 2 line addresses to out. */
uint32_t sld_access(sld_pf *p, uint64_t addr, uint64_t *out);

#endif
