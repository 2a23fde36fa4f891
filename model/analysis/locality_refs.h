/* PAVER's data-reference categories (thesis Fig. 3.2, spec A.3.1): every global read access is
 * classified by who else reads its granule (element or 128-byte line) in the launch:
 * unshared (one warp of one TB), intra-TB (several warps of one TB), inter-TB (several TBs, one
 * warp each), intra-TB and inter-TB (several TBs, several warps in one of them at least). */
#ifndef GTLM_LOCALITY_REFS_H
#define GTLM_LOCALITY_REFS_H

#include <stddef.h>
#include <stdint.h>

/* (granule, TB) -> the first warp that read it, whether a second warp did, accesses. */
typedef struct lg_refs {
    uint64_t *gran, *warp, *count;
    uint32_t *tb; /* TB + 1, 0 = empty slot */
    uint8_t *multi;
    size_t n, cap;
    int granularity; /* enum lg_granularity */
} lg_refs;

typedef struct lg_ref_breakdown {
    uint64_t accesses; /* lane reads */
    uint64_t unshared, intra, inter, both;
} lg_ref_breakdown;

void lg_refs_init(lg_refs *r, int granularity);
void lg_refs_free(lg_refs *r);
/* One warp access: lanes in mask of warp `warp` (unique in the launch) of TB tb read `bytes`
 * bytes each at addr[lane]. Returns 0 or -1 (out of memory). */
int lg_refs_add_warp(lg_refs *r, uint32_t tb, uint64_t warp, uint32_t mask, const uint64_t *addr, unsigned bytes);
/* Returns 0 or -1 (out of memory). */
int lg_refs_breakdown(const lg_refs *r, lg_ref_breakdown *out);

#endif
