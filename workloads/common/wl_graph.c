#include "wl_graph.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* One R-MAT edge: at each of scale levels pick a quadrant with probabilities a, b, c, d. */
static void rmat_edge(wl_rng *r, int scale, uint32_t *u, uint32_t *v)
{
    uint32_t x = 0, y = 0;
    for (int l = 0; l < scale; l++) {
        double p = wl_rng_unit(r);
        uint32_t right = p >= 0.57 && p < 0.76 ? 1 : p >= 0.95;
        uint32_t down = p >= 0.76;
        x = (x << 1) | down;
        y = (y << 1) | right;
    }
    *u = x, *v = y;
}

int wl_graph_rmat(wl_graph *g, int scale, int edge_factor, int undirected, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    int n = 1 << scale;
    int64_t gen = (int64_t)edge_factor * n, cap = undirected ? 2 * gen : gen, m = 0;
    uint64_t *keys = malloc((size_t)cap * sizeof *keys);
    uint32_t *perm = malloc((size_t)n * sizeof *perm);
    if (!keys || !perm) {
        free(keys), free(perm);
        return WL_ERROR;
    }
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (int i = 0; i < n; i++) perm[i] = (uint32_t)i;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)wl_rng_range(&r, 0, i);
        uint32_t t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    for (int64_t e = 0; e < gen; e++) {
        uint32_t u, v;
        rmat_edge(&r, scale, &u, &v);
        u = perm[u], v = perm[v];
        if (u == v) continue;
        keys[m++] = (uint64_t)u << 32 | v;
        if (undirected) keys[m++] = (uint64_t)v << 32 | u;
    }
    qsort(keys, (size_t)m, sizeof *keys, cmp_u64);
    g->n = n;
    g->start = calloc((size_t)n + 1, sizeof *g->start);
    g->adj = malloc((size_t)(m ? m : 1) * sizeof *g->adj);
    if (!g->start || !g->adj) {
        free(keys), free(perm);
        wl_graph_free(g);
        return WL_ERROR;
    }
    int64_t k = 0;
    for (int64_t i = 0; i < m; i++) {
        if (i && keys[i] == keys[i - 1]) continue; /* duplicate edge */
        g->adj[k++] = (int32_t)(keys[i] & 0xffffffffu);
        g->start[(keys[i] >> 32) + 1]++;
    }
    for (int v = 0; v < n; v++) g->start[v + 1] += g->start[v];
    g->m = k;
    free(keys), free(perm);
    return WL_OK;
}

void wl_graph_free(wl_graph *g)
{
    free(g->start);
    free(g->adj);
    memset(g, 0, sizeof *g);
}
