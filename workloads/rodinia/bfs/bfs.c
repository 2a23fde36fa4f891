/* BFS driver (Rodinia BR): frontier-mask BFS level by level from node 0 over a synthetic graph,
 * cost[] checked exactly against a CPU BFS. Two generators (parameter `graph`), both with every
 * edge stored in both directions and a mean degree of about 6:
 *   1: the original generator's rules (each node draws U[2,4] uniform random destinations), the
 *      structure of Rodinia's graph1MW_6 input;
 *   2: R-MAT (Chakrabarti et al., SDM 2004) with the Graph500 probabilities a = 0.57, b = c = 0.19,
 *      d = 0.05, 3 pairs per node, node ids shuffled by a fixed permutation (as Graph500 does)
 *      so that hubs are spread over the id space (the largest hub stays node 0, the source;
 *      isolated nodes keep cost -1 as in the original): a power-law degree distribution, hubs with
 *      thousands of neighbours and many degree-1 nodes, as real graphs have. */
#include <stdint.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_rodinia_bfs_ptx[], workload_rodinia_bfs_ptxas[];

/* CSR graph: node i has edges[first[2i] .. first[2i] + first[2i+1]) (the 8-byte node record). */
typedef struct graph {
    int n, n_edges;
    int32_t *node; /* {first, degree} per node */
    int32_t *edge;
} graph;

/* One R-MAT endpoint pair in [0, 2^levels) x [0, 2^levels), redrawn until both are below n. */
static void rmat_pair(wl_rng *r, int n, int levels, int *a, int *b)
{
    do {
        long x = 0, y = 0;
        for (int l = 0; l < levels; l++) {
            double u = wl_rng_unit(r);
            int right = u >= 0.57 && (u < 0.76 || u >= 0.95), down = u >= 0.76;
            x = 2 * x + right;
            y = 2 * y + down;
        }
        *a = (int)x, *b = (int)y;
    } while (*a >= n || *b >= n);
}

static int make_graph(graph *g, int n, int kind, uint64_t seed)
{
    /* Pass 1 draws the undirected pairs (as the generator does: for node i, 2..4 random
     * destinations d, each inserted as i->d and d->i); pass 2 fills the lists in that order. */
    long max_pairs = 4L * n;
    int32_t *pair = malloc((size_t)max_pairs * 2 * sizeof *pair);
    int32_t *fill = calloc((size_t)n, sizeof *fill);
    g->n = n;
    g->node = calloc((size_t)n * 2, sizeof *g->node);
    g->edge = NULL;
    if (!pair || !fill || !g->node) {
        free(pair);
        free(fill);
        return WL_ERROR;
    }
    wl_rng r;
    wl_rng_seed(&r, seed);
    long np = 0;
    int levels = 0;
    while ((1L << levels) < n) levels++;
    /* R-MAT's id permutation (Fisher-Yates; R-MAT's vertex 0, its largest hub, stays the BFS
     * source 0 so that the search covers the giant component); reset after use. */
    for (int i = 0; i < n; i++) fill[i] = i;
    for (int i = n - 1; kind == 2 && i > 1; i--) {
        int j = (int)wl_rng_range(&r, 1, i), t = fill[i];
        fill[i] = fill[j], fill[j] = t;
    }
    for (int i = 0; i < n; i++) {
        long k = kind == 1 ? wl_rng_range(&r, 2, 4) : 3;
        for (long j = 0; j < k; j++) {
            int a = i, d;
            if (kind == 1) {
                d = (int)wl_rng_range(&r, 0, n - 1);
            } else {
                rmat_pair(&r, n, levels, &a, &d);
                a = fill[a], d = fill[d];
            }
            pair[2 * np] = a;
            pair[2 * np + 1] = d;
            np++;
            g->node[2 * a + 1]++;
            g->node[2 * d + 1]++;
        }
    }
    for (int i = 0; i < n; i++) fill[i] = 0;
    g->n_edges = (int)(2 * np);
    g->edge = malloc((size_t)g->n_edges * sizeof *g->edge);
    if (!g->edge) {
        free(pair);
        free(fill);
        return WL_ERROR;
    }
    for (int i = 0, at = 0; i < n; i++) {
        g->node[2 * i] = at;
        at += g->node[2 * i + 1];
    }
    for (long p = 0; p < np; p++) {
        int a = pair[2 * p], b = pair[2 * p + 1];
        g->edge[g->node[2 * a] + fill[a]++] = b;
        g->edge[g->node[2 * b] + fill[b]++] = a;
    }
    free(pair);
    free(fill);
    return WL_OK;
}

/* CPU reference: queue BFS levels from node 0. */
static void cpu_bfs(const graph *g, int32_t *cost, int32_t *queue)
{
    for (int i = 0; i < g->n; i++) cost[i] = -1;
    int head = 0, tail = 0;
    cost[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int e = g->node[2 * v]; e < g->node[2 * v] + g->node[2 * v + 1]; e++) {
            int u = g->edge[e];
            if (cost[u] < 0) {
                cost[u] = cost[v] + 1;
                queue[tail++] = u;
            }
        }
    }
}

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "nodes"), kind = (int)wl_param(c, "graph");
    if (n < 2) return wl_fail(c, "nodes must be at least 2");
    if (kind != 1 && kind != 2) return wl_fail(c, "graph must be 1 (Rodinia's uniform generator) or 2 (R-MAT)");
    graph g = {0};
    int rc = make_graph(&g, n, kind, 4096 + (uint64_t)n);
    size_t nb = (size_t)n;
    unsigned char *mask = calloc(nb, 1), *visited = calloc(nb, 1);
    int32_t *cost = malloc(nb * 4), *got = malloc(nb * 4), *want = malloc(nb * 4), *queue = malloc(nb * 4);
    if (rc == WL_OK && !(mask && visited && cost && got && want && queue)) rc = WL_ERROR;
    if (rc == WL_OK) {
        for (int i = 0; i < n; i++) cost[i] = -1;
        mask[0] = visited[0] = 1;
        cost[0] = 0;
    }
    gtlm_devptr d_node = 0, d_edge = 0, d_mask = 0, d_upd = 0, d_vis = 0, d_cost = 0, d_again = 0;
    if (rc == WL_OK) rc = wl_upload(c, &d_node, g.node, nb * 8);
    if (rc == WL_OK) rc = wl_upload(c, &d_edge, g.edge, (size_t)g.n_edges * 4);
    if (rc == WL_OK) rc = wl_upload(c, &d_mask, mask, nb);
    if (rc == WL_OK) rc = wl_alloc(c, &d_upd, nb);
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, d_upd, 0, nb), "gtlm_memset");
    if (rc == WL_OK) rc = wl_upload(c, &d_vis, visited, nb);
    if (rc == WL_OK) rc = wl_upload(c, &d_cost, cost, nb * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &d_again, 1);
    unsigned threads = n < 512 ? (unsigned)n : 512, blocks = (unsigned)((n + 511) / 512);
    const void *a1[] = {&d_node, &d_edge, &d_mask, &d_upd, &d_vis, &d_cost, &n};
    const size_t s1[] = {8, 8, 8, 8, 8, 8, 4};
    const void *a2[] = {&d_mask, &d_upd, &d_vis, &d_again, &n};
    const size_t s2[] = {8, 8, 8, 8, 4};
    int levels = 0;
    for (unsigned char again = 1; rc == WL_OK && again; levels++) {
        again = 0;
        rc = wl_check(c, gtlm_memcpy_htod(c->sim, d_again, &again, 1), "gtlm_memcpy_htod");
        if (rc == WL_OK) rc = wl_launch(c, "bfs_expand", blocks, 1, 1, threads, 1, 1, 0, a1, s1, 7);
        if (rc == WL_OK) rc = wl_launch(c, "bfs_update", blocks, 1, 1, threads, 1, 1, 0, a2, s2, 5);
        if (rc == WL_OK) rc = wl_download(c, &again, d_again, 1);
        if (rc == WL_OK && levels > n) rc = wl_fail(c, "BFS did not terminate after %d levels", levels);
    }
    int max_degree = 0;
    for (int i = 0; rc == WL_OK && i < n; i++)
        if (g.node[2 * i + 1] > max_degree) max_degree = g.node[2 * i + 1];
    if (rc == WL_OK)
        fprintf(c->out, "BFS: %d nodes, %d edge entries, max degree %d, %d levels (%d launches)\n", n, g.n_edges,
                max_degree, levels, 2 * levels);
    if (rc == WL_OK) rc = wl_corrupt(c, d_cost, 4);
    if (rc == WL_OK) rc = wl_download(c, got, d_cost, nb * 4);
    if (rc == WL_OK) {
        cpu_bfs(&g, want, queue);
        if (wl_compare_i32(c, "cost", got, want, nb)) rc = WL_WRONG;
    }
    gtlm_devptr all[] = {d_node, d_edge, d_mask, d_upd, d_vis, d_cost, d_again};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) gtlm_free(c->sim, all[i]);
    free(g.node);
    free(g.edge);
    free(mask);
    free(visited);
    free(cost);
    free(got);
    free(want);
    free(queue);
    return rc;
}

const wl_desc workload_rodinia_bfs = {
    .name = "BFS",
    .suite = "rodinia",
    .description = "frontier-mask breadth-first search on a synthetic graph (graph=1: 2..4 uniform edges drawn per node, "
                   "2: R-MAT power law; stored both ways, mean degree ~6)",
    .kernels = "bfs_expand, bfs_update",
    .ptx = workload_rodinia_bfs_ptx,
    .ptxas = workload_rodinia_bfs_ptxas,
    .params = {"nodes", "graph"},
    .tiny = {4096, 1},
    .sim = {65536, 1},
    .paper = {1000000, 1},
    .doc = {1000000, 2},
    .doc_source = "PAVER and Morpheus (r-bfs, graph1MW_6: 1M nodes, mean degree 6) with a power-law (R-MAT) "
                  "degree distribution; graph=1 gives graph1MW_6's uniform structure",
    .run = run,
};
