/*
 * PDP on an L1 data cache through the cache core's hooks (victim, on_hit, on_fill, on_read): a
 * load decrements its set's RPDs, a load hit promotes the line to PD, a fill inserts it with PD,
 * the victim is the LRU unprotected line and a read bypasses when every line is protected
 * (a bypassed read keeps its MSHR entry, so reads of the same line merge; spec 3.2.2 / gap G9
 * default). Protection starts at the fill, not at the reservation of an 'm' line (a reserved
 * line can never be a victim, so only its decrements before the fill are skipped).
 *
 * Modes (-pdp_mode): off; static (SPDP-B, PD = -pdp_pd); private (PDP-P, this L1's RD sampler
 * re-predicts PD every -pdp_period loads). PDP-G and PDP-S need a GPU-level PD broadcast and are
 * not wired yet (their predictor is pdp_predictor.h).
 */
#ifndef GTLM_CBWT_PDP_L1_H
#define GTLM_CBWT_PDP_L1_H

#include <stdint.h>

#include "../cache/cache_core.h"
#include "pdp.h"
#include "pdp_predictor.h"

enum { PDP_MODE_OFF = 0, PDP_MODE_STATIC, PDP_MODE_PRIVATE, PDP_MODE_COUNT };
extern const char *const pdp_mode_names[]; /* NULL-terminated, for opt_add_enum */

typedef struct pdp_l1 {
    int mode;
    int period;           /* loads per prediction period (PDP-P) */
    cache_core *cache;
    pdp_policy pol;
    pdp_predictor pred;
    uint64_t period_loads;
    uint64_t loads, predictions; /* statistics */
} pdp_l1;

/* Installs the hooks on `cache` (mode != off). 0, or -1 (bad parameters, no memory). */
int pdp_l1_init(pdp_l1 *p, cache_core *cache, int mode, int pd, int period);
void pdp_l1_free(pdp_l1 *p);

#endif
