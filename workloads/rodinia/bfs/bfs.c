/* BFS driver (Rodinia BR): synthetic graph with the original generator's rules (each node draws
 * U[2,4] random destinations, every edge stored in both directions, so the mean degree is about
 * 6; source node 0), frontier-mask BFS level by level, cost[] checked exactly against a CPU BFS. */
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

static int make_graph(graph *g, int n, uint64_t seed)
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
    for (int i = 0; i < n; i++) {
        long k = wl_rng_range(&r, 2, 4);
        for (long j = 0; j < k; j++) {
            int d = (int)wl_rng_range(&r, 0, n - 1);
            pair[2 * np] = i;
            pair[2 * np + 1] = d;
            np++;
            g->node[2 * i + 1]++;
            g->node[2 * d + 1]++;
        }
    }
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
    int n = (int)wl_param(c, "nodes");
    if (n < 2) return wl_fail(c, "nodes must be at least 2");
    graph g = {0};
    int rc = make_graph(&g, n, 4096 + (uint64_t)n);
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
    if (rc == WL_OK) fprintf(c->out, "BFS: %d nodes, %d edge entries, %d levels (%d launches)\n", n, g.n_edges, levels, 2 * levels);
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
    .description = "frontier-mask breadth-first search on a random graph (2..4 edges drawn per node, stored both ways)",
    .kernels = "bfs_expand, bfs_update",
    .ptx = workload_rodinia_bfs_ptx,
    .ptxas = workload_rodinia_bfs_ptxas,
    .params = {"nodes"},
    .tiny = {4096},
    .sim = {65536},
    .paper = {1000000},
    .run = run,
};
