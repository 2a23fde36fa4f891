/* PAVER MST-TS (thesis Sec. 3.3.4): TBs in Prim's maximum-spanning-tree order of the kernel's
 * locality graph; the first group per SM holds x TBs, the rest are single TBs, issued from a
 * global queue. Parameters: x (TBs per first group, default 1; sensible 1..32), task stealing
 * (0/1, default 0: the thesis uses none for MST-TS since later groups hold one TB). */
#include <stdlib.h>

#include "paver_groups.h"
#include "tbsched.h"

static int mst_create(tbsched *t, const long long *params, int nparams, void **state, strbuf *err)
{
    long long x = nparams > 0 ? params[0] : 1, stealing = nparams > 1 ? params[1] : 0;
    if (nparams > 2 || x < 1 || x > 1024 || stealing < 0 || stealing > 1) return -1;
    if (!t->l.graph || t->l.graph->n != t->l.n_ctas) {
        strbuf_printf(err, "-gtlm_tb_scheduler: 'mst' needs the kernel's locality graph of %llu TBs\n",
                      (unsigned long long)t->l.n_ctas);
        return -1;
    }
    paver_queue *q = malloc(sizeof *q);
    paver_groups gr;
    if (!q || paver_mst_ts_groups(t->l.graph, t->l.n_sms, (uint32_t)x, &gr) ||
        paver_queue_init(q, &gr, t->l.n_sms, (int)stealing)) {
        free(q);
        strbuf_printf(err, "-gtlm_tb_scheduler: out of memory\n");
        return -1;
    }
    *state = q;
    return 0;
}

static void mst_destroy(void *state)
{
    if (state) paver_queue_free(state);
    free(state);
}

static uint64_t mst_next(void *state, const tbsched *t, uint32_t sm)
{
    (void)t;
    uint32_t tb = paver_queue_next(state, sm);
    return tb == PAVER_NONE ? TBSCHED_NONE : tb;
}

const tbsched_policy tbsched_policy_mst = {"mst", mst_create, mst_destroy, mst_next, NULL};
