/* Options of CBWT's warp throttling (issue 19, -cbwt_ prefix; spec adaptive-cache-cbwt.md 3.3-3.6,
 * gaps G4, G7, G8, G11, G12, G14). The L1D PDP options (-pdp_*) are the SM block's. */
#ifndef GTLM_CBWT_CONFIG_H
#define GTLM_CBWT_CONFIG_H

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

enum { CBWT_EQ1_NMAX = 0, CBWT_EQ1_CURRENT = 1 };
enum { CBWT_PD_KEEP = 0, CBWT_PD_RESET = 1 };
enum { CBWT_SCOPE_GLOBAL = 0, CBWT_SCOPE_CORE = 1 };
enum { CBWT_VB_KEEP = 0, CBWT_VB_CLEAR = 1 };
enum { CBWT_STEP1_BOTH = 0, CBWT_STEP1_CONGESTION = 1 }; /* = maw_trigger */

typedef struct cbwt_config {
    int maw;             /* static max active warps per scheduler (SWL-N, any scheduler); 0 = none */
    int ctrl;            /* the dynamic MAW controller (CBWT) */
    int stats;           /* detectors and L1 reuse counts for statistics (on with ctrl) */
    int barrier_free;    /* a warp waiting at a barrier holds no slot of a warp limit */
    int t_w;             /* fine-search threshold (doc: 10) */
    double t_noc_h, t_noc_l; /* NoC latency range, interconnect cycles; 0 = 4x / 2x zero-load */
    double t_noc_g;      /* relative latency drop that keeps decreasing (doc: 5%) */
    double t_lls;        /* lls_rate threshold of contention */
    int period;          /* sampler-L1 loads per period (doc: 16K) */
    int timeout;         /* core cycles after which a period closes without its loads (G8) */
    int l2_sample;       /* 1 in N L2 sets carries victim bits (doc: 64) */
    int l2_share;        /* L1s per victim bit (1 = one bit per L1) */
    int noc_sample;      /* 1 in N packets sampled (power of two) */
    int coarse_up;       /* coarse region: an uncongested period below n_max steps up (maw_ctrl.h) */
    int eq1_base;        /* Eq. 1 from n_max (doc) or the current MAW (G7 alternative) */
    int mrpb_stall_bypass; /* MRPB's resource-stall bypass: an L1D load refused for want of a line,
                              MSHR or miss-queue slot goes to the L2 instead of retrying */
    int mrpb_queues;     /* MRPB's reorder buffer in front of the L1D: per-warp FIFOs (0 = none) */
    int mrpb_depth;      /* entries per MRPB FIFO */
    int lls_gate;        /* gap G26: PDP bypasses only after a period with lls_rate > T_LLS */
    int pd_launch;       /* kernel launch: keep the predicted PD, or reset it to -pdp_pd (G14) */
    int maw_scope;       /* gap G2: one MAW from the sampler L1 and GPU-wide detectors, or one per SM */
    int vb_launch;       /* kernel launch: keep the L2's victim bits (doc: only evictions clear them) or clear them */
    int noc_src_queue;   /* NoC latency from a packet's entry into its sender's queue (L1 miss queue,
                            bypass queue, L2 response queue), not from its first offer (spec 3.4) */
    int step1;           /* what takes step 1: contention and congestion (doc, Fig. 12) or congestion alone */
} cbwt_config;

extern const char *const cbwt_eq1_names[];
extern const char *const cbwt_pd_launch_names[];
extern const char *const cbwt_scope_names[];
extern const char *const cbwt_vb_launch_names[];
extern const char *const cbwt_step1_names[];

int cbwt_options_register(opt_registry *r, cbwt_config *c, strbuf *err);
int cbwt_config_check(const opt_registry *r, const cbwt_config *c, strbuf *err);

#endif
