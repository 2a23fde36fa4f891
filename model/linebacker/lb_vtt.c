#include "lb_vtt.h"

#include <stdlib.h>
#include <string.h>

int lb_vtt_init(lb_vtt *v, const lb_vtt_config *cfg)
{
    memset(v, 0, sizeof *v);
    if (!cfg || cfg->sets == 0 || cfg->vp_ways == 0 || cfg->ways % cfg->vp_ways != 0 || cfg->ways / cfg->vp_ways > 32)
        return -1;
    v->cfg = *cfg;
    v->n_vp = cfg->ways / cfg->vp_ways;
    size_t n = (size_t)cfg->sets * cfg->ways;
    v->tag = calloc(n, sizeof *v->tag);
    v->stamp = calloc(n, sizeof *v->stamp);
    v->valid = calloc(n, 1);
    if (!v->tag || !v->stamp || !v->valid) {
        lb_vtt_free(v);
        return -1;
    }
    v->monitor = 1;
    return 0;
}

void lb_vtt_free(lb_vtt *v)
{
    free(v->tag);
    free(v->stamp);
    free(v->valid);
    memset(v, 0, sizeof *v);
}

void lb_vtt_reset(lb_vtt *v, int monitor)
{
    size_t n = (size_t)v->cfg.sets * v->cfg.ways;
    memset(v->valid, 0, n);
    memset(v->stamp, 0, n * sizeof *v->stamp);
    v->clock = 0;
    v->active = 0;
    v->monitor = monitor ? 1 : 0;
}

void lb_vtt_set_active(lb_vtt *v, uint32_t mask)
{
    if (v->n_vp < 32) mask &= (1u << v->n_vp) - 1u;
    uint32_t leaving = v->active & ~mask;
    for (uint32_t p = 0; p < v->n_vp; p++) {
        if (!((leaving >> p) & 1u)) continue;
        for (uint32_t s = 0; s < v->cfg.sets; s++)
            memset(&v->valid[(size_t)s * v->cfg.ways + p * v->cfg.vp_ways], 0, v->cfg.vp_ways);
    }
    v->active = mask;
    v->monitor = 0;
}

uint32_t lb_vtt_n_active(const lb_vtt *v)
{
    uint32_t n = 0;
    for (uint32_t m = v->active; m; m &= m - 1) n++;
    return n;
}

static int vp_usable(const lb_vtt *v, uint32_t p)
{
    return v->monitor || ((v->active >> p) & 1u);
}

/* Searches the usable partitions in order; returns the index of the matching entry or -1. Each
 * partition searched is one access (energy). */
static long find(lb_vtt *v, uint32_t set, uint64_t tag, lb_vtt_hit *h)
{
    uint32_t searched = 0;
    for (uint32_t p = 0; p < v->n_vp; p++) {
        if (!vp_usable(v, p)) continue;
        searched++;
        v->accesses++;
        for (uint32_t w = 0; w < v->cfg.vp_ways; w++) {
            size_t i = (size_t)set * v->cfg.ways + p * v->cfg.vp_ways + w;
            if (v->valid[i] && v->tag[i] == tag) {
                h->vp = p;
                h->way = w;
                h->latency = v->monitor ? 0 : searched * v->cfg.vp_latency;
                return (long)i;
            }
        }
    }
    h->vp = h->way = 0;
    h->latency = v->monitor ? 0 : searched * v->cfg.vp_latency;
    return -1;
}

int lb_vtt_lookup(lb_vtt *v, uint32_t set, uint64_t tag, lb_vtt_hit *h)
{
    if (set >= v->cfg.sets) return 0;
    long i = find(v, set, tag, h);
    if (i < 0) return 0;
    v->stamp[i] = ++v->clock;
    return 1;
}

int lb_vtt_insert(lb_vtt *v, uint32_t set, uint64_t tag, lb_vtt_hit *h, int *evicted)
{
    *evicted = 0;
    if (set >= v->cfg.sets) return 0;
    long i = find(v, set, tag, h);
    if (i < 0) {
        long inv = -1, lru = -1;
        for (uint32_t p = 0; p < v->n_vp && inv < 0; p++) {
            if (!vp_usable(v, p)) continue;
            for (uint32_t w = 0; w < v->cfg.vp_ways; w++) {
                long j = (long)((size_t)set * v->cfg.ways + p * v->cfg.vp_ways + w);
                if (!v->valid[j]) {
                    inv = j;
                    break;
                }
                if (lru < 0 || v->stamp[j] < v->stamp[lru]) lru = j;
            }
        }
        i = inv >= 0 ? inv : lru;
        if (i < 0) return 0;
        *evicted = inv < 0;
        uint32_t in_set = (uint32_t)(i - (long)((size_t)set * v->cfg.ways));
        h->vp = in_set / v->cfg.vp_ways;
        h->way = in_set % v->cfg.vp_ways;
        h->latency = 0;
        v->tag[i] = tag;
        v->valid[i] = 1;
        v->accesses++; /* the entry written */
    }
    v->stamp[i] = ++v->clock;
    return 1;
}

int lb_vtt_invalidate(lb_vtt *v, uint32_t set, uint64_t tag, lb_vtt_hit *h)
{
    if (set >= v->cfg.sets) return 0;
    long i = find(v, set, tag, h);
    if (i < 0) return 0;
    v->valid[i] = 0;
    v->accesses++;
    return 1;
}
