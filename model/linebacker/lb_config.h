/* Options of Linebacker (issue 18, -lb_ prefix; spec linebacker.md Table 3 and its PROPOSALs). */
#ifndef GTLM_LB_CONFIG_H
#define GTLM_LB_CONFIG_H

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

typedef struct lb_config {
    int enable;           /* Linebacker's selective victim caching in the register file */
    int victim_all;       /* VC variant: no monitoring, every L1 victim is kept */
    int period;           /* core cycles per monitoring / IPC period */
    double hit_threshold; /* a load is high-locality above this hit ratio (L1 + VTT hits) */
    int vtt_ways;         /* ways of the whole VTT */
    int vp_ways;          /* ways per VTT partition */
    int vp_latency;       /* cycles per partition searched */
    int rn_base;          /* Eq. 2 base: 512 (Gap G1 PROPOSAL) or 511 (the document's Offset) */
    int throttle;         /* CTA throttling with register backup/restore (0: SVC, statically unused registers only) */
    double ipc_upper;     /* IPC variation above which one more CTA is throttled (+0.10) */
    double ipc_lower;     /* ... below which one CTA is re-activated (-0.10) */
    int buffer;           /* backup/restore buffer entries (6) */
    int backup_ack;       /* backup complete at the last write's acknowledgement (1) or acceptance (0) */
    int search_delay;     /* a VTT miss's partition search delays its L2 request (Gap G10d) */
    int load_stats;       /* per hashed-PC monitoring outcome statistics (lb.load[h].*) */
    /* energy per access (pJ, Table 3: CACTI at the document's process) */
    double vtt_pj;        /* one VTT partition searched or one entry written */
    double lm_pj;         /* one Load Monitor entry read or written */
    double hpc_pj;        /* one L1 line's hashed-PC field read or written */
    double ctam_pj;       /* one CTA manager update */
} lb_config;

int lb_options_register(opt_registry *r, lb_config *c, strbuf *err);
int lb_config_check(const opt_registry *r, const lb_config *c, strbuf *err);

#endif
