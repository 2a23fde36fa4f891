/*
 * Linebacker Victim Tag Table (VTT, spec linebacker.md §3.1-3.3): sets x ways tag entries (48 x 32),
 * indexed by the L1 set of the line, cut into partitions (VPs) of vp_ways ways each (4: 8 VPs).
 * Monitoring mode (tag only): every way of a set is usable and a lookup costs no latency (it runs
 * beside the L2 request). Active mode: only the active VPs hold tags (each maps registers at a
 * fixed RN range, Eq. 2), searched one after another in ascending VP order at vp_latency cycles per
 * partition, so a hit in the k-th active partition costs k * vp_latency and a miss all of them.
 * Insertion prefers an invalid way (lowest VP, then lowest way), else the least recently used way
 * among the usable ones (the "5-bit meta data" as an LRU position).
 */
#ifndef GTLM_LB_VTT_H
#define GTLM_LB_VTT_H

#include <stdint.h>

typedef struct lb_vtt_config {
    uint32_t sets;       /* L1 sets (48) */
    uint32_t ways;       /* total ways (32) */
    uint32_t vp_ways;    /* ways per partition, divides ways (4) */
    uint32_t vp_latency; /* cycles per partition searched (3) */
} lb_vtt_config;

typedef struct lb_vtt {
    lb_vtt_config cfg;
    uint32_t n_vp;
    uint64_t *tag;     /* [set * ways + way] */
    uint64_t *stamp;   /* last insert / hit, for LRU; 0 = never */
    uint8_t *valid;
    uint64_t clock;
    uint32_t active;   /* bit mask of active VPs (active mode) */
    int monitor;       /* 1: tag-only monitoring mode (all ways usable) */
    uint64_t accesses; /* partitions searched + entries written, never reset (energy, Table 3) */
} lb_vtt;

typedef struct lb_vtt_hit {
    uint32_t vp, way; /* where the tag was found / placed */
    uint32_t latency; /* search cycles (active mode) */
} lb_vtt_hit;

/* Returns 0, or -1 for a bad configuration (more than 32 VPs, vp_ways not dividing ways) or no memory. */
int lb_vtt_init(lb_vtt *v, const lb_vtt_config *cfg);
void lb_vtt_free(lb_vtt *v);
/* Every entry invalid; monitoring mode (1) or active mode with no partition active (0). */
void lb_vtt_reset(lb_vtt *v, int monitor);
/* Active mode: the active partitions become mask; entries of partitions leaving it are invalidated. */
void lb_vtt_set_active(lb_vtt *v, uint32_t mask);
uint32_t lb_vtt_n_active(const lb_vtt *v);

/* Looks tag up in set. Returns 1 on a hit (h filled, its LRU updated), 0 on a miss (h->latency is the
 * whole search). */
int lb_vtt_lookup(lb_vtt *v, uint32_t set, uint64_t tag, lb_vtt_hit *h);
/* Places tag in set (invalid-first, else LRU). Returns 1 with h filled and *evicted = 1 when a valid
 * tag was replaced, 0 when no way is usable. A tag already present is refreshed in place. */
int lb_vtt_insert(lb_vtt *v, uint32_t set, uint64_t tag, lb_vtt_hit *h, int *evicted);
/* Invalidates tag in set (a store, or a line fetched back). Returns 1 when it was there. */
int lb_vtt_invalidate(lb_vtt *v, uint32_t set, uint64_t tag, lb_vtt_hit *h);

#endif
