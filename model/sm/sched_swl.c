/* Static warp limiting (GPGPU-Sim "warp_limiting", "swl"): only the N oldest live warps of each
 * scheduler may issue, greedy-then-oldest among them. It is GTO with the core's run-time warp limit
 * set to N at creation, so sched_set_warp_limit() changes (or, with 0, removes) the limit later.
 *
 * Parameters: warp_limiting:N (gtlm short form) or warp_limiting:prio:N, GPGPU-Sim's order (its
 * swl_scheduler reads the prioritization first, then the warp count, and accepts only 2 = GTO).
 * With two parameters the first must therefore be 2; anything else is an error, so that a file
 * written as "N:prio" cannot be misread silently. */
#include "sched.h"

static int swl_create(sched *s, const long long *params, int nparams, void **state, strbuf *err)
{
    long long n = nparams == 1 ? params[0] : nparams == 2 ? params[1] : 0;
    if (nparams == 2 && params[0] != SCHED_PRIO_GTO) {
        strbuf_printf(err, "warp scheduler 'warp_limiting:%lld:%lld': the first of two parameters is the "
                           "priority (GPGPU-Sim's warp_limiting:prio:N) and only 2 (GTO) is supported",
                      params[0], params[1]);
        return -1;
    }
    if (n < 1 || n > 0xffffffffLL) {
        strbuf_printf(err, "warp scheduler 'warp_limiting' needs :N or :2:N with N >= 1");
        return -1;
    }
    s->warp_limit = (uint32_t)n;
    *state = NULL;
    return 0;
}

static void swl_destroy(void *state) { (void)state; }

static uint32_t swl_order(void *state, sched *s, const uint8_t *st, uint32_t *out)
{
    (void)state;
    return sched_order_gto(s, st, out);
}

const sched_policy sched_policy_swl = {
    .name = "warp_limiting", .create = swl_create, .destroy = swl_destroy, .order = swl_order,
};
