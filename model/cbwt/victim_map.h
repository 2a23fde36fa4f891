/*
 * An instrument for statistics only (never a hardware signal): which L1s the L2 has served each
 * line to since the kernel began, whether or not the line is still in the L2. The document's
 * contention ratio (Sec. III, Fig. 5) counts "a repeated memory request sent from the same L1
 * cache to the L2 cache" as a victim request; its hardware detector (victim bits, Sec. V-B,
 * lls_detector.h) forgets a line's bits when the L2 evicts it. Comparing the two counts measures
 * how many re-requests the victim bits lose to L2 evictions (docs/cbwt.md, KMN).
 * An open-addressing table keyed by line address, grown as needed; cleared at kernel launch.
 */
#ifndef GTLM_CBWT_VICTIM_MAP_H
#define GTLM_CBWT_VICTIM_MAP_H

#include <stdint.h>

typedef struct victim_map {
    uint64_t *keys;   /* line address + 1 (0 = empty) */
    uint64_t *masks;  /* bit per L1 (core id < 64) */
    uint64_t cap, used;
    uint64_t repeats, repeats_l2_miss; /* loads from an L1 the line was served to before; of those, L2 misses */
} victim_map;

/* 0, or -1 (no memory). */
int victim_map_init(victim_map *m);
void victim_map_free(victim_map *m);
/* A load of line `line` from L1 `core` reached the L2 (l2_hit: its tag lookup hit). Counts a repeat
   when that L1 was served the line before; a hit serves it now (a miss is served by its fill:
   victim_map_served). As the victim bits, a request still in flight is not "served". 0, or -1
   (no memory). */
int victim_map_load(victim_map *m, uint64_t line, int core, int l2_hit);
/* A fill of `line` served the L1s in `cores` (bit per core id < 64). 0, or -1. */
int victim_map_served(victim_map *m, uint64_t line, uint64_t cores);
/* Kernel launch: forget every line (the counts stay). */
void victim_map_clear(victim_map *m);

#endif
