/* Baseline thread-block scheduling (GPGPU-Sim's): CTAs in linear order, to whichever SM asks
 * next; the dispatcher's round-robin over SMs makes it one CTA per SM in turn. */
#include "tbsched.h"

static int lrr_create(tbsched *t, const long long *params, int nparams, void **state, strbuf *err)
{
    (void)t;
    (void)params;
    (void)err;
    *state = NULL;
    return nparams == 0 ? 0 : -1;
}

static void lrr_destroy(void *state) { (void)state; }

static uint64_t lrr_next(void *state, const tbsched *t, uint32_t sm)
{
    (void)state;
    (void)sm;
    return t->issued < t->l.n_ctas ? t->issued : TBSCHED_NONE;
}

const tbsched_policy tbsched_policy_lrr = {"lrr", lrr_create, lrr_destroy, lrr_next, NULL, NULL};
