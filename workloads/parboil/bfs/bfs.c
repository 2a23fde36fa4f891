/* Parboil BFS driver: an R-MAT graph (wl_graph.h; Parboil ships road networks and a 1 M-node
 * random graph, Morpheus does not say which it ran: we take the 1 M-node size with a realistic
 * power-law structure), undirected, mean degree about 2 * degree. Source: the first vertex with
 * an edge in a seeded random order. The host picks the kernel per level as the original does:
 * bfs_multi_blk (one CTA per SM, levels separated by a global spin barrier) while the frontier
 * fits in its grid, bfs_level (one launch per level) when it does not. Verified exactly against
 * a CPU BFS: BFS levels do not depend on the interleaving, only the queues' order does.
 * Parameter blocks: CTAs of bfs_multi_blk (0: one per SM, which are always co-resident); more
 * CTAs than can be resident make the spin barrier a livelock, which the simulator reports. */
#include <stdlib.h>
#include <string.h>

#include "wl_graph.h"

extern const char workload_parboil_bfs_ptx[], workload_parboil_bfs_ptxas[];

#define NUM_T 512

static void cpu_bfs(const wl_graph *g, int src, int32_t *cost)
{
    int32_t *q = malloc((size_t)g->n * sizeof *q);
    for (int v = 0; v < g->n; v++) cost[v] = -1;
    if (!q) return;
    int head = 0, tail = 0;
    cost[src] = 0;
    q[tail++] = src;
    while (head < tail) {
        int u = q[head++];
        for (int64_t e = g->start[u]; e < g->start[u + 1]; e++)
            if (cost[g->adj[e]] < 0) cost[g->adj[e]] = cost[u] + 1, q[tail++] = g->adj[e];
    }
    free(q);
}

static int run(wl_ctx *c)
{
    int scale = (int)wl_param(c, "scale"), degree = (int)wl_param(c, "degree"), blocks = (int)wl_param(c, "blocks");
    if (scale < 4 || scale > 24 || degree < 1 || degree > 64 || blocks < 0)
        return wl_fail(c, "need 4 <= scale <= 24, 1 <= degree <= 64, blocks >= 0");
    int grid = blocks ? blocks : wl_sm_count(c);
    if (grid <= 0) return wl_fail(c, "cannot read the SM count from the configuration");
    wl_graph g;
    if (wl_graph_rmat(&g, scale, degree, 1, 0xbf5ull) != WL_OK) return wl_fail(c, "out of host memory");
    int n = g.n, src = 0;
    wl_rng r;
    wl_rng_seed(&r, 0x50bceull);
    do src = (int)wl_rng_range(&r, 0, n - 1);
    while (g.start[src + 1] == g.start[src]);
    int32_t *nodes = malloc((size_t)n * 2 * sizeof *nodes), *color = calloc((size_t)n, sizeof *color);
    int32_t *cost = malloc((size_t)n * sizeof *cost), *want = malloc((size_t)n * sizeof *want);
    int rc = nodes && color && cost && want ? WL_OK : wl_fail(c, "out of host memory");
    for (int v = 0; rc == WL_OK && v < n; v++) {
        nodes[2 * v] = (int32_t)g.start[v];
        nodes[2 * v + 1] = (int32_t)(g.start[v + 1] - g.start[v]);
        cost[v] = -1;
    }
    if (rc == WL_OK) {
        cost[src] = 0;
        color[src] = 1;
        fprintf(c->out, "P-BFS: %d nodes, %lld directed edges, source %d, bfs_multi_blk grid %d x %d\n", n,
                (long long)g.m, src, grid, NUM_T);
    }
    gtlm_devptr dn = 0, de = 0, dc = 0, dcost = 0, dq[2] = {0, 0}, ds = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dn, nodes, (size_t)n * 2 * sizeof *nodes);
    if (rc == WL_OK) rc = wl_upload(c, &de, g.adj, (size_t)(g.m ? g.m : 1) * sizeof *g.adj);
    if (rc == WL_OK) rc = wl_upload(c, &dc, color, (size_t)n * sizeof *color);
    if (rc == WL_OK) rc = wl_upload(c, &dcost, cost, (size_t)n * sizeof *cost);
    if (rc == WL_OK) rc = wl_alloc(c, &dq[0], (size_t)n * sizeof(int32_t));
    if (rc == WL_OK) /* frontier 0: the source */
        rc = wl_check(c, gtlm_memcpy_htod(c->sim, dq[0], &src, sizeof src), "gtlm_memcpy_htod");
    if (rc == WL_OK) rc = wl_alloc(c, &dq[1], (size_t)n * sizeof(int32_t));
    if (rc == WL_OK) rc = wl_alloc(c, &ds, 6 * sizeof(int32_t));
    int frontier = 1, level = 0, cur = 0, launches[2] = {0, 0};
    while (rc == WL_OK && frontier > 0) {
        int32_t state[6] = {0, 0, 0, 0, 0, 0};
        rc = wl_check(c, gtlm_memcpy_htod(c->sim, ds, state, sizeof state), "gtlm_memcpy_htod");
        if (rc != WL_OK) break;
        if (frontier <= grid * NUM_T) {
            const void *args[] = {&dq[cur], &dq[cur ^ 1], &frontier, &ds, &dn, &de, &dc, &dcost, &level};
            const size_t sizes[] = {8, 8, 4, 8, 8, 8, 8, 8, 4};
            rc = wl_launch(c, "bfs_multi_blk", (unsigned)grid, 1, 1, NUM_T, 1, 1, 0, args, sizes, 9);
            if (rc == WL_OK) rc = wl_download(c, state, ds, sizeof state);
            if (rc != WL_OK) break;
            cur ^= (state[5] - level) & 1;
            frontier = state[4];
            level = state[5];
            launches[0]++;
        } else {
            const void *args[] = {&dq[cur], &frontier, &dq[cur ^ 1], &ds, &dn, &de, &dc, &dcost, &level};
            const size_t sizes[] = {8, 4, 8, 8, 8, 8, 8, 8, 4};
            rc = wl_launch(c, "bfs_level", (unsigned)((frontier + NUM_T - 1) / NUM_T), 1, 1, NUM_T, 1, 1, 0, args,
                           sizes, 9);
            if (rc == WL_OK) rc = wl_download(c, state, ds, sizeof(int32_t));
            if (rc != WL_OK) break;
            frontier = state[0];
            level++;
            cur ^= 1;
            launches[1]++;
        }
        if (level > n) rc = wl_fail(c, "more levels than nodes: the frontier never empties");
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dcost, sizeof(int32_t));
    if (rc == WL_OK) rc = wl_download(c, cost, dcost, (size_t)n * sizeof *cost);
    if (rc == WL_OK) {
        fprintf(c->out, "P-BFS: %d levels, %d bfs_multi_blk and %d bfs_level launches\n", level, launches[0],
                launches[1]);
        cpu_bfs(&g, src, want);
        if (wl_compare_i32(c, "cost", cost, want, (size_t)n)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, dn), gtlm_free(c->sim, de), gtlm_free(c->sim, dc), gtlm_free(c->sim, dcost);
    gtlm_free(c->sim, dq[0]), gtlm_free(c->sim, dq[1]), gtlm_free(c->sim, ds);
    free(nodes), free(color), free(cost), free(want);
    wl_graph_free(&g);
    return rc;
}

const wl_desc workload_parboil_bfs = {
    .name = "P-BFS",
    .suite = "parboil",
    .description = "breadth-first search with a hierarchical queue and an inter-CTA spin barrier, R-MAT graph of "
                   "2^scale nodes and degree * 2^scale undirected edges; blocks: CTAs of the barrier kernel (0: SMs)",
    .kernels = "bfs_multi_blk, bfs_level",
    .ptx = workload_parboil_bfs_ptx,
    .ptxas = workload_parboil_bfs_ptxas,
    .params = {"scale", "degree", "blocks"},
    .tiny = {12, 4, 2}, /* two CTAs (resident together on every configuration); a level outgrows them */
    .sim = {16, 4, 0},
    .paper = {20, 3, 0},
    .run = run,
};
