/* PageRank driver (Pannotia): a directed R-MAT graph (wl_graph.h: power-law in- and out-degrees
 * like the web and citation graphs PageRank is run on; Pannotia ships coAuthorsDBLP, 299 K
 * vertices and 1.95 M edges, which the paper size matches in scale), ranks starting at 1 / n,
 * `iterations` rounds of pagerank1 + pagerank2 (block 256). Vertices without out-edges keep their
 * rank to themselves, as in the original (no dangling-node redistribution).
 *
 * Verified against a CPU power iteration in double. The atomics add each vertex's incoming
 * shares in schedule order, so float results differ from any fixed order: all terms are
 * positive, so one accumulation is within (indegree) * 2^-24 relative of the exact sum, and the
 * update adds two roundings; relative errors add up over the iterations. The check allows twice
 * iterations * (max indegree + 3) * 2^-24 relative per vertex; a missing or doubled share is far
 * above it for all but the highest-degree vertices, and those are checked too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_graph.h"

extern const char workload_pannotia_pagerank_ptx[], workload_pannotia_pagerank_ptxas[];

#define BLOCK 256
#define DAMPING 0.85

static int run(wl_ctx *c)
{
    int scale = (int)wl_param(c, "scale"), degree = (int)wl_param(c, "degree"), iters = (int)wl_param(c, "iterations");
    if (scale < 4 || scale > 24 || degree < 1 || degree > 64 || iters < 1 || iters > 1000)
        return wl_fail(c, "need 4 <= scale <= 24, 1 <= degree <= 64, 1 <= iterations <= 1000");
    wl_graph g;
    if (wl_graph_rmat(&g, scale, degree, 0, 0x9a6e7a4ull) != WL_OK) return wl_fail(c, "out of host memory");
    int n = g.n;
    int32_t *row = malloc(((size_t)n + 1) * sizeof *row), *indeg = calloc((size_t)n, sizeof *indeg);
    float *rank = malloc((size_t)n * sizeof *rank);
    double *ref = malloc((size_t)n * sizeof *ref), *acc = malloc((size_t)n * sizeof *acc);
    int rc = row && indeg && rank && ref && acc ? WL_OK : wl_fail(c, "out of host memory");
    int maxin = 0;
    for (int v = 0; rc == WL_OK && v <= n; v++) row[v] = (int32_t)g.start[v];
    for (int64_t e = 0; rc == WL_OK && e < g.m; e++)
        if (++indeg[g.adj[e]] > maxin) maxin = indeg[g.adj[e]];
    for (int v = 0; rc == WL_OK && v < n; v++) rank[v] = 1.0f / (float)n;
    if (rc == WL_OK)
        fprintf(c->out, "PageRank: %d vertices, %lld edges (max in-degree %d), %d iterations, %d CTAs of %d\n", n,
                (long long)g.m, maxin, iters, (n + BLOCK - 1) / BLOCK, BLOCK);
    gtlm_devptr drow = 0, dcol = 0, drank = 0, dacc = 0;
    if (rc == WL_OK) rc = wl_upload(c, &drow, row, ((size_t)n + 1) * sizeof *row);
    if (rc == WL_OK) rc = wl_upload(c, &dcol, g.adj, (size_t)(g.m ? g.m : 1) * sizeof *g.adj);
    if (rc == WL_OK) rc = wl_upload(c, &drank, rank, (size_t)n * sizeof *rank);
    if (rc == WL_OK) rc = wl_alloc(c, &dacc, (size_t)n * sizeof(float));
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, dacc, 0, (size_t)n * sizeof(float)), "gtlm_memset");
    unsigned grid = (unsigned)((n + BLOCK - 1) / BLOCK);
    for (int t = 0; rc == WL_OK && t < iters; t++) {
        const void *a1[] = {&drow, &dcol, &drank, &dacc, &n};
        const size_t s1[] = {8, 8, 8, 8, 4};
        rc = wl_launch(c, "pagerank1", grid, 1, 1, BLOCK, 1, 1, 0, a1, s1, 5);
        const void *a2[] = {&drank, &dacc, &n};
        const size_t s2[] = {8, 8, 4};
        if (rc == WL_OK) rc = wl_launch(c, "pagerank2", grid, 1, 1, BLOCK, 1, 1, 0, a2, s2, 3);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, drank, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, rank, drank, (size_t)n * sizeof *rank);
    if (rc == WL_OK) {
        for (int v = 0; v < n; v++) ref[v] = 1.0 / n;
        for (int t = 0; t < iters; t++) {
            memset(acc, 0, (size_t)n * sizeof *acc);
            for (int v = 0; v < n; v++)
                for (int64_t e = g.start[v]; e < g.start[v + 1]; e++)
                    acc[g.adj[e]] += ref[v] / (double)(g.start[v + 1] - g.start[v]);
            for (int v = 0; v < n; v++) ref[v] = (1.0 - DAMPING) / n + DAMPING * acc[v];
        }
        double rel = 2.0 * iters * (maxin + 3) / (double)(1 << 24);
        long bad = 0;
        for (int v = 0; v < n; v++)
            if (!(fabs(rank[v] - ref[v]) <= rel * ref[v]) && bad++ < 5)
                wl_fail(c, "rank[%d] = %.9g, expected %.9g (in-degree %d)", v, rank[v], ref[v], indeg[v]);
        if (bad) rc = wl_fail(c, "%ld of %d ranks differ beyond %.3g relative", bad, n, rel);
    }
    gtlm_free(c->sim, drow), gtlm_free(c->sim, dcol), gtlm_free(c->sim, drank), gtlm_free(c->sim, dacc);
    free(row), free(indeg), free(rank), free(ref), free(acc);
    wl_graph_free(&g);
    return rc;
}

const wl_desc workload_pannotia_pagerank = {
    .name = "PageRank",
    .suite = "pannotia",
    .description = "push-style PageRank with float atomics on a directed R-MAT graph of 2^scale vertices and "
                   "degree * 2^scale edges, `iterations` rounds",
    .kernels = "pagerank1, pagerank2",
    .ptx = workload_pannotia_pagerank_ptx,
    .ptxas = workload_pannotia_pagerank_ptxas,
    .params = {"scale", "degree", "iterations"},
    .tiny = {9, 4, 2},
    .sim = {16, 8, 2},
    .paper = {18, 8, 10},
    .run = run,
};
