/*
 * CBWT's max-active-warps (MAW) controller (seeds/001 Sec. V-C, Figs. 11-12; spec 3.6.3). Runs
 * once per sampling period (16K loads of the sampler L1) on the period's sampled NoC latency,
 * lls_rate and the sampler L1's bypass count m_b of m loads:
 *   MAW >= T_w (coarse region):
 *     step 1: contention (lls_rate > T_LLS) and congestion (lat > T_NoC_H): MAW = Eq. 1
 *             n_t = clamp(round((1 - m_b/m) * n_max), 1, n_max) if n_t < MAW, else MAW - 1
 *             (STEP_1_DEC, a PROPOSAL so a congested kernel keeps moving); otherwise no action
 *             (with coarse_up: lat < T_NoC_L and MAW < n_max takes step 3).
 *             With the congestion trigger (MAW_TRIGGER_CONGESTION) congestion alone takes step 1:
 *             Sec. V-B, "If NoC or DRAM congestion is also detected, the warp schedulers are
 *             notified and they may try to reduce the number of active warps according to the
 *             statistical information related to congestion and bypassing" (Eq. 1's m_b/m).
 *   MAW < T_w (fine, conservative search):
 *     step 4: the last +-1 moved latency out of [T_NoC_L, T_NoC_H] from inside it: undo it.
 *     step 2: lat > T_NoC_H, or the last decrement cut latency by more than T_NoC_G: MAW - 1.
 *     step 3: lat < T_NoC_L: MAW + 1.
 *     steps 5/6: lat in range: hold (5 when the search arrived from above, i.e. after a
 *             decrement; 6 otherwise; the split of the two circles is a PROPOSAL: the figure
 *             is lost).
 * State restarts at every kernel launch with MAW = n_max (doc: "A kernel begins executing using
 * the maximum possible number of warps").
 */
#ifndef GTLM_CBWT_MAW_CTRL_H
#define GTLM_CBWT_MAW_CTRL_H

#include <stdint.h>

typedef enum maw_step {
    MAW_STEP_NONE = 0,  /* coarse region, no contention+congestion */
    MAW_STEP_1,         /* coarse jump to Eq. 1 */
    MAW_STEP_1_DEC,     /* coarse region, Eq. 1 not below MAW: -1 */
    MAW_STEP_2,
    MAW_STEP_3,
    MAW_STEP_4,
    MAW_STEP_5,
    MAW_STEP_6,
    MAW_STEP_COUNT
} maw_step;

/* What takes step 1: contention and congestion (Fig. 12's text, the default), or congestion alone */
typedef enum maw_trigger { MAW_TRIGGER_BOTH = 0, MAW_TRIGGER_CONGESTION } maw_trigger;

typedef enum maw_dir { MAW_DIR_NONE = 0, MAW_DIR_DEC, MAW_DIR_INC } maw_dir;

typedef struct maw_params {
    int n_max;        /* warps per scheduler (doc: 24 on Fermi) */
    int t_w;          /* fine-search threshold (doc: 10) */
    double t_noc_h, t_noc_l; /* latency range, cycles (PROPOSAL: 4x and 2x zero-load latency) */
    double t_noc_g;   /* relative latency drop that keeps decreasing (doc: 5%) */
    double t_lls;     /* lls_rate threshold of contention (PROPOSAL: 0.05) */
    int coarse_up;    /* PROPOSAL: in the coarse region an uncongested period (lat < T_NoC_L) below
                         n_max takes step 3 too; 0 = the spec's literal "no action" (MAW could stay
                         at an Eq. 1 estimate >= T_w for the rest of the kernel) */
    maw_trigger trigger; /* what takes step 1 (0 = both, the document's text) */
} maw_params;

typedef struct maw_inputs {
    double noc_lat;   /* sampled average NoC latency of the period */
    double lls_rate;
    uint64_t m, m_b;  /* sampler-L1 loads and bypasses of the period */
} maw_inputs;

typedef struct maw_ctrl {
    maw_params p;
    int maw, prev_maw;
    maw_dir dir;
    double prev_lat;
    int have_prev_lat;
    uint64_t periods, steps[MAW_STEP_COUNT];
    uint64_t congestion_only; /* steps 1 and 1dec taken with lls_rate <= T_LLS (congestion trigger) */
} maw_ctrl;

/* Kernel launch: MAW = n_max. 0, or -1 on bad parameters (n_max < 1, t_w < 1, t_noc_l > t_noc_h). */
int maw_reset(maw_ctrl *c, const maw_params *p);
/* Period end: updates MAW; returns the step taken. */
maw_step maw_period(maw_ctrl *c, const maw_inputs *in);
const char *maw_step_name(maw_step s);

#endif
