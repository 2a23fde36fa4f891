/*
 * CBWT's contention detector (seeds/001 Sec. V-B, Fig. 9; spec 3.3): victim bits on sampled L2
 * sets. A line of a sampled set carries one bit per L1 (or per group of `share` L1s); the bit is
 * set when the L2 serves that L1 a load of the line and cleared when the line leaves the L2. A
 * load from an L1 whose bit is already set is a re-request of a line that L1 lost: an early
 * eviction, counted in the lost-locality score (LLS). Two counters per period: LLS and the loads
 * to sampled sets; lls_rate = LLS / accesses. Only loads take part (spec 3.3 PROPOSAL).
 */
#ifndef GTLM_CBWT_LLS_DETECTOR_H
#define GTLM_CBWT_LLS_DETECTOR_H

#include <stdint.h>

typedef struct lls_detector {
    int nsets, assoc;
    int sample_every;  /* set s is sampled when s % sample_every == 0 (doc: 1 in 64) */
    int share;         /* L1s per victim bit (1 = one bit per L1) */
    int ncores;
    uint64_t *victim;  /* per (sampled set, way): bit per L1 group */
    uint64_t lls, accesses;           /* this period */
    uint64_t lls_total, accesses_total;
    uint64_t *core_lls, *core_acc;    /* this period, per requesting L1 (-cbwt_maw_scope core) */
} lls_detector;

/* ncores / share must fit 64 bits. 0, or -1. */
int lls_init(lls_detector *d, int nsets, int assoc, int sample_every, int ncores, int share);
void lls_free(lls_detector *d);
static inline int lls_sampled(const lls_detector *d, int set) { return set >= 0 && set < d->nsets && set % d->sample_every == 0; }
/* A load from L1 `core` found its line in (set, way) of the L2 and is served. */
void lls_on_hit(lls_detector *d, int set, int way, int core);
/* A load from L1 `core` missed in the L2 (counts an access of a sampled set). */
void lls_on_miss(lls_detector *d, int set, int core);
/* (set, way) was filled; the L1s in `cores` (a mask of core ids < 64) are served by it. */
void lls_on_fill(lls_detector *d, int set, int way, uint64_t cores);
/* (set, way) was evicted (silently: the L1s are not recalled). */
void lls_on_evict(lls_detector *d, int set, int way);
/* Every victim bit cleared (-cbwt_vb_launch clear at a kernel launch: the L1s were invalidated). */
void lls_clear_bits(lls_detector *d);
/* Period end: lls_rate of the period (0 without accesses); counters restart. */
double lls_period(lls_detector *d);
/* Per-core period end (-cbwt_maw_scope core): this L1's LLS and sampled-set loads since its last
   period are added to *lls and *acc, and its counters restart (the GPU-wide ones run on). */
void lls_core_period(lls_detector *d, int core, uint64_t *lls, uint64_t *acc);

#endif
