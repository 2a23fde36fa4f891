/* Loose round-robin (GPGPU-Sim "lrr"): every cycle the scheduler's warps are tried in local order
 * starting just after the last issued warp (from local 0 before any issue), wrapping around; the
 * first ready one wins. A warp that cannot issue does not move the start point. */
#include "sched.h"

static int lrr_create(sched *s, const long long *params, int nparams, void **state, strbuf *err)
{
    (void)s;
    (void)params;
    if (nparams != 0) {
        strbuf_printf(err, "warp scheduler 'lrr' takes no parameters");
        return -1;
    }
    *state = NULL;
    return 0;
}

static void lrr_destroy(void *state) { (void)state; }

static uint32_t lrr_order(void *state, sched *s, const uint8_t *st, uint32_t *out)
{
    (void)state;
    uint32_t n = s->n_local, m = 0;
    uint32_t start = s->last_issued == SCHED_NONE ? 0 : (s->last_issued + 1) % n;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t j = start + k < n ? start + k : start + k - n;
        if (st[j] == SCHED_WARP_READY)
            out[m++] = j;
    }
    return m;
}

const sched_policy sched_policy_lrr = {
    .name = "lrr", .create = lrr_create, .destroy = lrr_destroy, .order = lrr_order,
};
