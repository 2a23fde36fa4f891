/* CCWS, cache-conscious wavefront scheduling (Rogers, O'Connor, Aamodt, MICRO 2012), as APRES and
 * CBWT compare against it: per-warp victim tag arrays (VTA), lost-locality scores (LLS) and cutoff
 * throttling. State exposed for tests and statistics. */
#ifndef GTLM_SM_SCHED_CCWS_H
#define GTLM_SM_SCHED_CCWS_H

#include <stdint.h>

#include "sched.h"

#define CCWS_OWNER_SLOTS 4096 /* line -> allocating warp, direct-mapped by line address */

typedef struct ccws_state {
    uint32_t n;             /* local warps */
    uint32_t vta_ways;      /* victim tags per warp */
    uint32_t k_throttle;    /* score added per VTA hit */
    uint32_t base;          /* a warp's score without lost locality */
    uint64_t *vta;          /* n x vta_ways line addresses, FIFO; UINT64_MAX = empty */
    uint32_t *vta_next;     /* per warp: next FIFO slot */
    uint32_t *lls;          /* per warp: lost-locality score (>= base) */
    uint8_t *allowed;       /* per warp: 1 = inside the cutoff this cycle */
    uint32_t *sorted;       /* scratch */
    uint64_t owner_line[CCWS_OWNER_SLOTS];
    uint32_t owner_warp[CCWS_OWNER_SLOTS]; /* SCHED_NONE = empty */
    /* statistics */
    uint64_t vta_hits, vta_inserts, throttled_warp_cycles;
} ccws_state;

/* Warps allowed to issue under the current scores (recomputed by order()). */
uint32_t ccws_allowed_count(const ccws_state *c, const sched *s);

#endif
