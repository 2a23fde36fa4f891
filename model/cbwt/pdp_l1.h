/*
 * PDP on an L1 data cache through the cache core's hooks (victim, on_hit, on_fill, on_read): a
 * load decrements its set's RPDs, a load hit promotes the line to PD, a fill inserts it with PD,
 * the victim is the LRU unprotected line and a read bypasses when every line is protected
 * (a bypassed read keeps its MSHR entry, so reads of the same line merge; spec 3.2.2 / gap G9
 * default). Protection starts at the fill, not at the reservation of an 'm' line (a reserved
 * line can never be a victim, so only its decrements before the fill are skipped).
 *
 * Modes (-pdp_mode): off; static (SPDP-B, PD = -pdp_pd); private (PDP-P, this L1's RD sampler
 * re-predicts PD every -pdp_period loads); global (PDP-G: every L1 feeds the sampler of the
 * source L1, SM 0, whose period counts the loads of all L1s); shared (PDP-S: SM 0 predicts from
 * its own loads alone). In global and shared modes the other L1s follow the source
 * (pdp_l1_follow) and take its PD at each of their loads (a zero-latency broadcast, spec 3.2.2).
 */
#ifndef GTLM_CBWT_PDP_L1_H
#define GTLM_CBWT_PDP_L1_H

#include <stdint.h>

#include "../cache/cache_core.h"
#include "pdp.h"
#include "pdp_predictor.h"

enum { PDP_MODE_OFF = 0, PDP_MODE_STATIC, PDP_MODE_PRIVATE, PDP_MODE_GLOBAL, PDP_MODE_SHARED, PDP_MODE_COUNT,
       PDP_MODE_OBSERVE = PDP_MODE_COUNT /* no option name: the L1's own LRU, hooks only count reuse */ };
/* Reuse-count histogram bins (spec 8, Fig. 4 PROPOSAL): 0, 1, 2, 3-4, 5-8, more than 8 load hits
   between a line's fill and its eviction. */
#define PDP_REUSE_BINS 6
extern const char *const pdp_mode_names[]; /* NULL-terminated, for opt_add_enum */

typedef struct pdp_l1 {
    int mode;
    int period;           /* loads per prediction period (PDP-P) */
    cache_core *cache;
    struct pdp_l1 *source; /* global/shared: the predicting L1 (NULL: this one predicts) */
    pdp_policy pol;
    pdp_predictor pred;
    uint64_t period_loads;
    uint64_t loads, predictions; /* statistics */
    uint16_t *reuse;      /* per line: load hits since its fill */
    uint64_t reuse_hist[PDP_REUSE_BINS];
    void (*evict_next)(void *ctx, const cache_line *line, int set, int way); /* chained on_evict */
    void *evict_ctx;
    int bypass_open;      /* -cbwt_lls_gate (gap G26): 0 while no contention is detected, then a set whose
                             lines are all protected evicts its LRU unreserved line instead (1 by default) */
} pdp_l1;

/* Installs the hooks on `cache` (mode != off). 0, or -1 (bad parameters, no memory). */
int pdp_l1_init(pdp_l1 *p, cache_core *cache, int mode, int pd, int period);
void pdp_l1_free(pdp_l1 *p);
/* Observe-only hooks: the cache keeps its own replacement; only the reuse histogram counts. */
int pdp_l1_init_observe(pdp_l1 *p, cache_core *cache);
/* Another on_evict listener behind PDP's hooks (CCWS' victim tags): the hook chain. */
void pdp_l1_chain_evict(pdp_l1 *p, void (*fn)(void *ctx, const cache_line *line, int set, int way), void *ctx);
/* Kernel launch (-cbwt_pd_launch reset, gap G14): PD back to pd, the predictor's counters cleared. */
void pdp_l1_reset(pdp_l1 *p, int pd);
/* Bin of a reuse count. */
int pdp_reuse_bin(unsigned hits);
/* Global/shared modes: p takes its PD from src (and, global, feeds src's sampler). Ignored in
   other modes or when p == src. */
void pdp_l1_follow(pdp_l1 *p, pdp_l1 *src);

#endif
