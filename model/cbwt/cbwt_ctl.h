/*
 * CBWT's GPU-wide side (seeds/001 Sec. V, Fig. 10; spec 3.1, 3.6.3): the contention detectors of
 * the L2 slices (victim bits, lls_detector.h), the NoC congestion detector (noc_sampler.h) and
 * the MAW controller (maw_ctrl.h). A period closes after -cbwt_period loads of the sampler L1
 * (SM 0), or -cbwt_timeout core cycles (gap G8); the controller then takes the period's sampled
 * NoC latency, the L2 sampler sets' lls_rate and SM 0's bypass ratio m_b/m and gives one MAW
 * that the GPU broadcasts to every warp scheduler (gap G2: one global MAW, per scheduler).
 *
 * -cbwt_maw_scope core (gap G2's per-core option): every SM steps a controller of its own, on its
 * own L1's loads (period length, m_b/m), the LLS of its own requests to the sampled L2 sets and the
 * sampled NoC packets it sent or received; its MAW applies to its own schedulers only.
 *
 * Beside the sampled hardware, full-coverage instruments for statistics only: victim bits on
 * every L2 set (the contention ratio of Fig. 5: loads an L1 re-requests after the L2 served it
 * that line, over all loads) and the latency of every packet (not only the sampled ones).
 */
#ifndef GTLM_CBWT_CTL_H
#define GTLM_CBWT_CTL_H

#include <stdint.h>

#include "cbwt_config.h"
#include "lls_detector.h"
#include "maw_ctrl.h"
#include "noc_sampler.h"
#include "victim_map.h"

/* One controller with its period state: the GPU's, or one SM's (-cbwt_maw_scope core). */
typedef struct cbwt_unit {
    maw_ctrl maw;
    uint64_t loads0, byp0, start; /* its L1's counters and the cycle at the period's start */
    /* the last period's signals (time series, VCD) */
    double noc_lat, lls_rate, bratio;
    uint64_t step, dir;
} cbwt_unit;

typedef struct cbwt_ctl {
    cbwt_config cfg;
    maw_params params;
    cbwt_unit g;         /* the GPU-wide controller (global scope) */
    cbwt_unit *core;     /* per SM (core scope), else NULL */
    int n_sms;
    noc_sampler noc;
    int n_slices;
    lls_detector *hw;    /* per L2 slice: victim bits on the sampled sets */
    lls_detector *full;  /* per L2 slice: victim bits on every set (statistics) */
    victim_map *served;  /* per L2 slice: lines served per L1, L2 residency aside (statistics) */
    uint64_t last_cycle;          /* the last poll (MAW integration) */
    /* statistics (core scope: summed over the SMs' controllers) */
    uint64_t periods, timeouts, steps[MAW_STEP_COUNT];
    uint64_t congestion_only;     /* steps 1/1dec without contention (-cbwt_step1 congestion) */
    uint64_t maw_cycles, cycles;  /* MAW x core cycles, cycles (x SMs in core scope): the average MAW */
    uint64_t period_loads, period_bypasses; /* m and m_b summed over closed periods */
} cbwt_ctl;

/* zero_load: the zero-load NoC packet latency in interconnect cycles (defaults of T_NoC_L/H).
   0, or -1 (bad parameters, no memory). */
int cbwt_ctl_init(cbwt_ctl *c, const cbwt_config *cfg, int n_slices, int l2_sets, int l2_assoc, int n_sms,
                  double zero_load);
void cbwt_ctl_free(cbwt_ctl *c);
/* Kernel launch (gap G14): MAW = n_max (warps per scheduler the kernel can have), a new period. */
void cbwt_ctl_kernel_begin(cbwt_ctl *c, int n_max, uint64_t loads, uint64_t bypasses, uint64_t cycle);
/* Core scope: the kernel launch of every SM's controller (and the GPU-wide one from SM 0's counts);
   loads and bypasses have n_sms entries. */
void cbwt_ctl_kernel_begin_cores(cbwt_ctl *c, int n_max, const uint64_t *loads, const uint64_t *bypasses,
                                 uint64_t cycle);
/* Every core cycle, with the sampler L1's load and bypass totals: 1 when a period closed (the new
   MAW is c->g.maw.maw), else 0. Global scope. */
int cbwt_ctl_poll(cbwt_ctl *c, uint64_t loads, uint64_t bypasses, uint64_t cycle);
/* Core scope, every core cycle, with each SM's L1 load and bypass totals (n_sms entries): the
   number of SMs whose period closed (SM i's MAW is c->core[i].maw.maw). */
int cbwt_ctl_poll_cores(cbwt_ctl *c, const uint64_t *loads, const uint64_t *bypasses, uint64_t cycle);

#endif
