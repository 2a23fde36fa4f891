/* Cache-fit (Chen et al., ATC'18, as PAVER's thesis Sec. 3.5.6 compares it): LRR order, but an SM
 * runs at most `cap` CTAs at once, chosen so their working set fits in the L1 (the thesis: SPMV's
 * 15 KB per CTA gives 1 on Fermi's 16 KB L1, 3 on Pascal, 2 on Volta). cap: 1..1024, default 1. */
#include <stdlib.h>

#include "tbsched.h"

static int cachefit_create(tbsched *t, const long long *params, int nparams, void **state, strbuf *err)
{
    (void)t, (void)err;
    long long cap = nparams ? params[0] : 1;
    if (nparams > 1 || cap < 1 || cap > 1024) return -1;
    uint32_t *s = malloc(sizeof *s);
    if (!s) return -1;
    *s = (uint32_t)cap;
    *state = s;
    return 0;
}

static void cachefit_destroy(void *state) { free(state); }

static uint64_t cachefit_next(void *state, const tbsched *t, uint32_t sm)
{
    (void)sm;
    if (t->sm_live >= *(const uint32_t *)state) return TBSCHED_NONE;
    return t->issued < t->l.n_ctas ? t->issued : TBSCHED_NONE;
}

const tbsched_policy tbsched_policy_cachefit = {"cachefit", cachefit_create, cachefit_destroy, cachefit_next, NULL, NULL};
