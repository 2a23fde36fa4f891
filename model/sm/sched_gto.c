/* Greedy-then-oldest (GPGPU-Sim "gto"): the last issued warp first while it is ready, then the
 * other ready warps oldest first by launch age (ties by local index). */
#include "sched.h"

static int gto_create(sched *s, const long long *params, int nparams, void **state, strbuf *err)
{
    (void)s;
    (void)params;
    if (nparams != 0) {
        strbuf_printf(err, "warp scheduler 'gto' takes no parameters");
        return -1;
    }
    *state = NULL;
    return 0;
}

static void gto_destroy(void *state) { (void)state; }

static uint32_t gto_order(void *state, sched *s, const uint8_t *st, uint32_t *out)
{
    (void)state;
    return sched_order_gto(s, st, out);
}

const sched_policy sched_policy_gto = {
    .name = "gto", .create = gto_create, .destroy = gto_destroy, .order = gto_order,
};
