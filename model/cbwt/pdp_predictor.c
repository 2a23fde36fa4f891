/* RD sampler and E(dp) argmax (semantics in pdp_predictor.h). */
#include "pdp_predictor.h"

#include <stdlib.h>
#include <string.h>

int pdp_predictor_init(pdp_predictor *p, int nsets, int sample_every, int dmax, int de, int pd_min)
{
    memset(p, 0, sizeof *p);
    if (nsets <= 0 || sample_every <= 0 || dmax <= 0 || dmax > 255 || de <= 0 || pd_min <= 0 || pd_min > dmax)
        return -1;
    int ns = (nsets + sample_every - 1) / sample_every;
    p->nsets = nsets;
    p->sample_every = sample_every;
    p->dmax = dmax;
    p->de = de;
    p->pd_min = pd_min;
    p->set_acc = calloc((size_t)ns, sizeof *p->set_acc);
    p->fifo_tag = calloc((size_t)ns * (size_t)dmax, sizeof *p->fifo_tag);
    p->fifo_stamp = calloc((size_t)ns * (size_t)dmax, sizeof *p->fifo_stamp);
    p->fifo_n = calloc((size_t)ns, 1);
    p->n = calloc((size_t)dmax + 1, sizeof *p->n);
    if (!p->set_acc || !p->fifo_tag || !p->fifo_stamp || !p->fifo_n || !p->n) {
        pdp_predictor_free(p);
        return -1;
    }
    return 0;
}

void pdp_predictor_free(pdp_predictor *p)
{
    free(p->set_acc);
    free(p->fifo_tag);
    free(p->fifo_stamp);
    free(p->fifo_n);
    free(p->n);
    memset(p, 0, sizeof *p);
}

void pdp_predictor_access(pdp_predictor *p, int set, uint64_t line_addr)
{
    if (set < 0 || set >= p->nsets || set % p->sample_every) return;
    int s = set / p->sample_every;
    uint32_t now = ++p->set_acc[s];
    uint64_t *tag = &p->fifo_tag[(size_t)s * p->dmax];
    uint32_t *stamp = &p->fifo_stamp[(size_t)s * p->dmax];
    int n = p->fifo_n[s], i;
    p->nt++;
    /* entries are kept most recent first */
    for (i = 0; i < n && tag[i] != line_addr; i++) {}
    if (i < n) {
        uint32_t rd = now - stamp[i];
        if (rd >= 1 && rd <= (uint32_t)p->dmax) p->n[rd]++;
    } else if (n < p->dmax) {
        p->fifo_n[s] = (uint8_t)(n + 1);
    } else {
        i = n - 1; /* the oldest entry leaves */
    }
    memmove(&tag[1], &tag[0], (size_t)i * sizeof *tag);
    memmove(&stamp[1], &stamp[0], (size_t)i * sizeof *stamp);
    tag[0] = line_addr;
    stamp[0] = now;
}

int pdp_predict(const uint64_t *n, uint64_t nt, int dmax, int de, int pd_min, int cur)
{
    if (!nt) return cur;
    /* E = num / den compared exactly by cross-multiplication (values stay far below 2^53 in
       doubles for any period the controller uses) */
    double hits = 0, weighted = 0, best_num = 0, best_den = 1;
    int best = -1;
    for (int d = 1; d <= dmax; d++) {
        hits += (double)n[d];
        weighted += (double)n[d] * d;
        if (d < pd_min) continue;
        double num = hits, den = weighted + ((double)nt - hits) * (d + de);
        if (den <= 0) continue;
        if (best < 0 || num * best_den > best_num * den) {
            best = d;
            best_num = num;
            best_den = den;
        }
    }
    return best < 0 || best_num == 0 ? cur : best;
}

int pdp_predictor_period(pdp_predictor *p, int cur)
{
    int pd = pdp_predict(p->n, p->nt, p->dmax, p->de, p->pd_min, cur);
    memset(p->n, 0, ((size_t)p->dmax + 1) * sizeof *p->n);
    p->nt = 0;
    return pd;
}
