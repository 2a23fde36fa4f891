/* Functional mode: runs a launch to completion with no timing. CTAs run one after another;
 * the warps of a CTA take turns (each runs until it waits at a barrier, finishes, or used its
 * slice), so barriers and shared memory behave as on hardware. It is the fast path for
 * checking kernels and the reference the timing model must match bit for bit. */
#ifndef GTLM_SIMT_RUN_H
#define GTLM_SIMT_RUN_H

#include "simt.h"

typedef struct simt_run_stats {
    uint64_t warp_insn, thread_insn, ctas;
} simt_run_stats;

/* Fills the launch's derived fields (warps per CTA, shared-memory layout). Returns 0, or -1
 * with a message when the shape is invalid. */
int simt_launch_prepare(simt_launch *l, char *err, size_t len);

/* max_insn: stop with an error after this many warp instructions (0: no limit). */
simt_status simt_run_functional(const simt_launch *l, uint64_t max_insn, simt_run_stats *stats, simt_error *err);

#endif
