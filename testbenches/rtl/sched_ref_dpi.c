/* DPI-C side of tb_warp_arbiter.sv: the warp scheduler's plain C core (model/sm/sched.h) as the
 * reference model. One scheduler (id 0 of 1) whose n_local warps are the RTL's local indices. */
#include <stdint.h>
#include <stdio.h>

#include "sm/sched.h"

static sched ref;
static int ref_ready;
static uint8_t status[64];
static uint32_t order[64];

int ref_sched_init(int gto, int n_local)
{
    if (ref_ready) sched_free(&ref);
    gsim_policy_spec spec = {0};
    snprintf(spec.name, sizeof spec.name, "%s", gto ? "gto" : "lrr");
    strbuf err;
    strbuf_init(&err);
    int rc = sched_init(&ref, &spec, (uint32_t)n_local, 0, 1, &err);
    if (rc != 0) fprintf(stderr, "ref_sched_init: %s\n", strbuf_str(&err));
    strbuf_free(&err);
    ref_ready = rc == 0;
    return rc;
}

/* The C core's first choice among the ready warps (bit j of ready = local warp j), or -1. */
int ref_sched_select(long long ready)
{
    for (uint32_t j = 0; j < ref.n_local; j++)
        status[j] = (uint8_t)(((unsigned long long)ready >> j) & 1u ? SCHED_WARP_READY : SCHED_WARP_STALL);
    uint32_t n = sched_order(&ref, status, order);
    return n ? (int)order[0] : -1;
}

/* The events of one cycle in the C core's order (issue, exit, start); -1 = none. Returns 0, or -1
 * when the core refused one (the testbench only sends legal events). */
int ref_sched_events(int issue, int exit_warp, int start, long long age)
{
    int rc = 0;
    if (issue >= 0) rc |= sched_issued(&ref, (uint32_t)issue, 0);
    if (exit_warp >= 0) rc |= sched_warp_exit(&ref, (uint32_t)exit_warp);
    if (start >= 0) rc |= sched_warp_start(&ref, (uint32_t)start, (uint64_t)age);
    return rc;
}
