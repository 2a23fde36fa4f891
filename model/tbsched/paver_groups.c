#include "paver_groups.h"

#include <stdlib.h>
#include <string.h>

int paver_mst_order(const lg_graph *g, uint32_t *order)
{
    uint32_t n = g->n;
    uint64_t *key = calloc(n ? n : 1, sizeof *key); /* best edge weight into the tree */
    uint8_t *in = calloc(n ? n : 1, 1);
    if (!key || !in) {
        free(key), free(in);
        return -1;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t v = PAVER_NONE;
        for (uint32_t u = 0; u < n; u++) /* heaviest, then lowest id; 0-weight = lowest unvisited */
            if (!in[u] && (v == PAVER_NONE || key[u] > key[v])) v = u;
        in[v] = 1;
        order[k] = v;
        for (uint64_t x = g->row[v]; x < g->row[v + 1]; x++)
            if (!in[g->col[x]] && g->val[x] > key[g->col[x]]) key[g->col[x]] = g->val[x];
    }
    free(key), free(in);
    return 0;
}

void paver_groups_free(paver_groups *gr)
{
    free(gr->tbs), free(gr->start);
    memset(gr, 0, sizeof *gr);
}

int paver_mst_ts_groups(const lg_graph *g, uint32_t n_sm, uint32_t x, paver_groups *out)
{
    memset(out, 0, sizeof *out);
    uint32_t n = g->n;
    out->tbs = malloc((n ? n : 1) * sizeof *out->tbs);
    out->start = malloc(((size_t)n + 1) * sizeof *out->start);
    if (!out->tbs || !out->start || paver_mst_order(g, out->tbs)) {
        paver_groups_free(out);
        return -1;
    }
    out->n_tbs = n;
    uint64_t pos = 0;
    out->start[0] = 0;
    while (pos < n) {
        uint64_t size = out->n_groups < n_sm && x ? x : 1;
        pos = pos + size < n ? pos + size : n;
        out->start[++out->n_groups] = pos;
    }
    return 0;
}

int paver_queue_init(paver_queue *q, paver_groups *gr, uint32_t n_sm, int stealing)
{
    memset(q, 0, sizeof *q);
    q->gr = *gr;
    memset(gr, 0, sizeof *gr);
    q->n_sm = n_sm;
    q->stealing = stealing;
    q->next = calloc(n_sm ? n_sm : 1, sizeof *q->next);
    q->tail = calloc(n_sm ? n_sm : 1, sizeof *q->tail);
    q->ready = calloc(n_sm ? n_sm : 1, sizeof *q->ready);
    if (!q->next || !q->tail || !q->ready) {
        paver_queue_free(q);
        return -1;
    }
    return 0;
}

void paver_queue_free(paver_queue *q)
{
    paver_groups_free(&q->gr);
    free(q->next), free(q->tail), free(q->ready);
    memset(q, 0, sizeof *q);
}

/* TBs of sm's group another SM may take: with a modelled fetch, the one in (or on its way to) the
 * SM's nextTB register stays (else SMs that steal at once would pass a range around forever,
 * each theft restarting the fetch). */
static uint64_t stealable(const paver_queue *q, uint32_t sm)
{
    uint64_t w = paver_queue_waiting(q, sm);
    return q->fetch_latency && w ? w - 1 : w;
}

/* Algorithm 2: the donor is the SM with the most waiting TBs (lowest id on ties); the recipient
 * takes Max_WaitingTB - Average_WaitingTB (average floored, over all SMs) from the donor's tail. */
static void steal(paver_queue *q, uint32_t sm)
{
    uint32_t donor = 0;
    uint64_t sum = 0;
    for (uint32_t s = 0; s < q->n_sm; s++) {
        sum += stealable(q, s);
        if (stealable(q, s) > stealable(q, donor)) donor = s;
    }
    uint64_t max = stealable(q, donor);
    if (max == 0) return;
    uint64_t count = max - sum / q->n_sm;
    q->next[sm] = q->tail[donor] - count;
    q->tail[sm] = q->tail[donor];
    q->tail[donor] -= count;
    q->stolen_tbs += count;
    q->steal_events++;
}

uint32_t paver_queue_next(paver_queue *q, uint32_t sm)
{
    if (sm >= q->n_sm) return PAVER_NONE;
    if (q->next[sm] == q->tail[sm]) {
        if (q->head < q->gr.n_groups) {
            q->next[sm] = q->gr.start[q->head];
            q->tail[sm] = q->gr.start[q->head + 1];
            q->head++;
        } else if (q->stealing) {
            steal(q, sm);
        }
        q->ready[sm] = q->now + q->fetch_latency; /* a new range: its first TB id is fetched */
    }
    if (q->next[sm] >= q->tail[sm]) return PAVER_NONE;
    if (q->now < q->ready[sm]) {
        q->fetch_stalls++;
        return PAVER_NONE;
    }
    q->ready[sm] = q->now + q->fetch_latency; /* issue: the following TB id is fetched */
    return q->gr.tbs[q->next[sm]++];
}
