/* Victim-bit contention detector (semantics in lls_detector.h). */
#include "lls_detector.h"

#include <stdlib.h>
#include <string.h>

int lls_init(lls_detector *d, int nsets, int assoc, int sample_every, int ncores, int share)
{
    memset(d, 0, sizeof *d);
    if (nsets <= 0 || assoc <= 0 || sample_every <= 0 || ncores <= 0 || share <= 0 || (ncores + share - 1) / share > 64)
        return -1;
    int ns = (nsets + sample_every - 1) / sample_every;
    d->victim = calloc((size_t)ns * (size_t)assoc, sizeof *d->victim);
    d->core_lls = calloc((size_t)ncores, sizeof *d->core_lls);
    d->core_acc = calloc((size_t)ncores, sizeof *d->core_acc);
    if (!d->victim || !d->core_lls || !d->core_acc) {
        lls_free(d);
        return -1;
    }
    d->nsets = nsets;
    d->assoc = assoc;
    d->sample_every = sample_every;
    d->ncores = ncores;
    d->share = share;
    return 0;
}

void lls_free(lls_detector *d)
{
    free(d->victim);
    free(d->core_lls);
    free(d->core_acc);
    d->victim = d->core_lls = d->core_acc = NULL;
}

static uint64_t *bits(lls_detector *d, int set, int way)
{
    return &d->victim[(size_t)(set / d->sample_every) * d->assoc + way];
}

static uint64_t bit_of(const lls_detector *d, int core) { return 1ull << (core / d->share); }

void lls_on_hit(lls_detector *d, int set, int way, int core)
{
    if (!lls_sampled(d, set) || core < 0 || core >= d->ncores) return;
    uint64_t *v = bits(d, set, way);
    d->accesses++;
    d->accesses_total++;
    d->core_acc[core]++;
    if (*v & bit_of(d, core)) {
        d->lls++;
        d->lls_total++;
        d->core_lls[core]++;
    }
    *v |= bit_of(d, core);
}

void lls_on_miss(lls_detector *d, int set, int core)
{
    if (!lls_sampled(d, set) || core < 0 || core >= d->ncores) return;
    d->accesses++;
    d->accesses_total++;
    d->core_acc[core]++;
}

void lls_on_fill(lls_detector *d, int set, int way, uint64_t cores)
{
    if (!lls_sampled(d, set)) return;
    uint64_t v = 0;
    for (int c = 0; c < d->ncores && c < 64; c++)
        if (cores >> c & 1) v |= bit_of(d, c);
    *bits(d, set, way) = v;
}

void lls_on_evict(lls_detector *d, int set, int way)
{
    if (lls_sampled(d, set)) *bits(d, set, way) = 0;
}

void lls_clear_bits(lls_detector *d)
{
    memset(d->victim, 0, (size_t)((d->nsets + d->sample_every - 1) / d->sample_every) * (size_t)d->assoc * sizeof *d->victim);
}

double lls_period(lls_detector *d)
{
    double r = d->accesses ? (double)d->lls / (double)d->accesses : 0.0;
    d->lls = d->accesses = 0;
    return r;
}

void lls_core_period(lls_detector *d, int core, uint64_t *lls, uint64_t *acc)
{
    if (core < 0 || core >= d->ncores) return;
    *lls += d->core_lls[core];
    *acc += d->core_acc[core];
    d->core_lls[core] = d->core_acc[core] = 0;
}
