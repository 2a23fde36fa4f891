/* Options of Linebacker's comparison baselines (issue 18; spec linebacker.md §7): PCAL (-pcal_),
 * CERF (-cerf_) and CacheExt (-cacheext_). Each is off by default. */
#ifndef GTLM_LBC_CONFIG_H
#define GTLM_LBC_CONFIG_H

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

typedef struct lbc_config {
    /* PCAL: token-holding warps allocate in the L1, the others bypass it on a miss */
    int pcal;            /* -pcal_enable */
    int pcal_tokens;     /* tokens per SM at a kernel's start (0: every resident warp) */
    int pcal_dynamic;    /* hill-climb tokens, then warps, on the IPC of each period */
    int pcal_period;     /* core cycles per sampling period */
    int pcal_step;       /* tokens / warps per SM moved by one step */
    int pcal_start_live; /* tuning starts from the warps live after the warm-up period (0: every resident-capable warp) */
    int pcal_bypass_mshr; /* a bypassing load keeps an L1 MSHR (merges with others to its line; 0: straight to L2) */
    /* L1 extended by unused register capacity */
    int cacheext;        /* -cacheext_enable: ideal extension (L1 latency, no bank conflicts) */
    int cacheext_dur;    /* also the registers of warps beyond the warp limit (Best-SWL+CacheExt) */
    int cerf;            /* -cerf_enable: the unified register file / L1 (every line in the register banks) */
    int cerf_all_lines;  /* CERF: every L1 line contends in the register banks (0: only the extension's) */
    double cerf_rare_frac; /* CERF: share of every resident warp's registers lent to the cache as rarely used */
} lbc_config;

int lbc_options_register(opt_registry *r, lbc_config *c, strbuf *err);
int lbc_config_check(const opt_registry *r, const lbc_config *c, strbuf *err);

#endif
