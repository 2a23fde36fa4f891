/* PAVER's thread-block schedulers (thesis Sec. 3.3): TB groups from the kernel's locality graph,
 * issued from a global queue to per-SM next/tail registers, with optional task stealing.
 *   mst  [x [stealing [fill]]]     Prim MST order; first group per SM of x TBs, then single TBs
 *                                  (x: 1..1024; stealing default 0, as the thesis; fill 1: x at
 *                                  most floor(TBs / SMs) (at least 1), so a grid smaller than
 *                                  SMs x x still reaches every SM; default 0, the thesis' rule)
 *   kway [stealing [seed]]         METIS k-way, k = #SMs, MST order inside (stealing default 1)
 *   rbts [maxTB [stealing [seed [le]]]] Algorithm 1, METIS bisection until a group < maxTB
 *                                  (maxTB: 2..1024; stealing default 1; le 1: until a group
 *                                  <= maxTB, spec A.8 gap 3's switch; default 0, as printed)
 * x and maxTB default to 0: the kernel's occupancy (its CTAs that fit on one SM at once), as the
 * thesis defines both (Sec. 3.3: "the number of TBs that can run concurrently in an SM").
 * seed: METIS' seed, default 1 (any int). */
#include <stdlib.h>
#include <string.h>

#include "paver_partition.h"
#include "tbsched.h"

enum { PAVER_MST, PAVER_KWAY, PAVER_RB };

static int paver_create(int kind, tbsched *t, const long long *p, int np, void **state, strbuf *err)
{
    long long size = 0, stealing = kind != PAVER_MST, seed = 1;
    int k = 0;
    if (kind != PAVER_KWAY && np > k) size = p[k++];
    if (np > k) stealing = p[k++];
    if (kind != PAVER_MST && np > k) seed = p[k++];
    long long leaf_le = 0, fill = 0;
    if (kind == PAVER_RB && np > k) leaf_le = p[k++];
    if (kind == PAVER_MST && np > k) fill = p[k++];
    if (np > k || size < 0 || (kind == PAVER_RB && size == 1) || size > 1024 || stealing < 0 || stealing > 1 ||
        seed < -2147483647LL || seed > 2147483647LL || leaf_le < 0 || leaf_le > 1 || fill < 0 ||
        fill > 1)
        return -1;
    /* 0: the occupancy; an unknown one (a caller without it) keeps the former fixed 1 / 8 */
    if (size == 0) size = t->l.ctas_per_sm ? t->l.ctas_per_sm : kind == PAVER_MST ? 1 : 8;
    if (fill && t->l.n_sms) { /* SMs x x TBs > the grid would leave SMs without a first group */
        long long share = (long long)(t->l.n_ctas / t->l.n_sms);
        if (size > share) size = share > 0 ? share : 1;
    }
    if (kind == PAVER_RB && size < 2) size = 2; /* an occupancy of 1: bisect down to single TBs */
    if (leaf_le) size++; /* size <= maxTB is size < maxTB + 1 */
    if (!t->l.graph || t->l.graph->n != t->l.n_ctas) {
        strbuf_printf(err, "-gtlm_tb_scheduler: PAVER policies need the kernel's locality graph of %llu TBs\n",
                      (unsigned long long)t->l.n_ctas);
        return -1;
    }
    paver_groups gr;
    int rc = kind == PAVER_MST    ? paver_mst_ts_groups(t->l.graph, t->l.n_sms, (uint32_t)size, &gr)
             : kind == PAVER_KWAY ? paver_kway_ts_groups(t->l.graph, t->l.n_sms, (int)seed, &gr)
                                  : paver_rb_ts_groups(t->l.graph, (uint32_t)size, (int)seed, &gr);
    paver_queue *q = malloc(sizeof *q);
    if (rc || !q || paver_queue_init(q, &gr, t->l.n_sms, (int)stealing)) {
        if (!rc) paver_groups_free(&gr);
        free(q);
        strbuf_printf(err, "-gtlm_tb_scheduler: partitioning the locality graph failed\n");
        return -1;
    }
    q->fetch_latency = t->l.fetch_latency;
    *state = q;
    return 0;
}

static int mst_create(tbsched *t, const long long *p, int np, void **s, strbuf *e)
{
    return paver_create(PAVER_MST, t, p, np, s, e);
}
static int kway_create(tbsched *t, const long long *p, int np, void **s, strbuf *e)
{
    return paver_create(PAVER_KWAY, t, p, np, s, e);
}
static int rb_create(tbsched *t, const long long *p, int np, void **s, strbuf *e)
{
    return paver_create(PAVER_RB, t, p, np, s, e);
}

static void paver_destroy(void *state)
{
    if (state) paver_queue_free(state);
    free(state);
}

static uint64_t paver_next(void *state, const tbsched *t, uint32_t sm)
{
    paver_queue *q = state;
    q->now = t->now;
    uint32_t tb = paver_queue_next(q, sm);
    return tb == PAVER_NONE ? TBSCHED_NONE : tb;
}

static void paver_counters(const void *state, tbsched_counters *out)
{
    const paver_queue *q = state;
    out->stolen_tbs = q->stolen_tbs;
    out->steal_events = q->steal_events;
    out->fetch_stalls = q->fetch_stalls;
}

const tbsched_policy tbsched_policy_mst = {"mst", mst_create, paver_destroy, paver_next, NULL, paver_counters};
const tbsched_policy tbsched_policy_kway = {"kway", kway_create, paver_destroy, paver_next, NULL, paver_counters};
const tbsched_policy tbsched_policy_rbts = {"rbts", rb_create, paver_destroy, paver_next, NULL, paver_counters};

int tbsched_needs_graph(const char *name)
{
    return strcmp(name, "mst") == 0 || strcmp(name, "kway") == 0 || strcmp(name, "rbts") == 0;
}
