/* BFS (ISPASS) driver: Harish single-kernel BFS over a synthetic graph of the Rodinia/ISPASS
 * graphgen shape (each node draws U[2,4] random neighbours, every edge stored in both
 * directions: mean degree ~6), source 0, relaunched while the kernel reports progress.
 * Verification: the in-place frontier makes costs schedule-dependent (see bfs.cu), so we check
 * what every schedule guarantees: visited and cost >= 0 exactly on the nodes reachable from the
 * source, no frontier left, cost[source] = 0, and level(v) <= cost(v) < nodes for the rest
 * (every cost written is a neighbour's cost + 1, and costs are only written once the neighbour
 * is reached). No parent check (a neighbour whose final cost is one less): a thread that read
 * `visited` just before its neighbour expanded can still overwrite that neighbour's cost after
 * the expansion, which runs have shown (sim size in timing mode on gtx480.config; tiny size under
 * other warp and TB schedulers). The count of costs above the BFS level is reported. */
#include <stdint.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_ispass_bfs_ptx[], workload_ispass_bfs_ptxas[];

typedef struct {
    int32_t start, count;
} node;

/* Undirected random graph in CSR form, each node's edges in insertion order. */
static int make_graph(int n, uint64_t seed, node *nodes, int32_t **edges_out, int *m_out)
{
    wl_rng r;
    wl_rng_seed(&r, seed);
    int cap = n * 4, m = 0;
    int32_t *src = malloc((size_t)cap * sizeof *src), *dst = malloc((size_t)cap * sizeof *dst);
    if (!src || !dst) {
        free(src);
        free(dst);
        return WL_ERROR;
    }
    for (int v = 0; v < n; v++) {
        int d = (int)wl_rng_range(&r, 2, 4);
        for (int k = 0; k < d; k++) {
            src[m] = v;
            dst[m++] = (int32_t)wl_rng_range(&r, 0, n - 1);
        }
    }
    int32_t *edges = malloc((size_t)2 * m * sizeof *edges);
    if (!edges) {
        free(src);
        free(dst);
        return WL_ERROR;
    }
    for (int v = 0; v < n; v++) nodes[v].count = 0;
    for (int e = 0; e < m; e++) {
        nodes[src[e]].count++;
        nodes[dst[e]].count++;
    }
    for (int v = 0, s = 0; v < n; v++) {
        nodes[v].start = s;
        s += nodes[v].count;
        nodes[v].count = 0;
    }
    for (int e = 0; e < m; e++) {
        edges[nodes[src[e]].start + nodes[src[e]].count++] = dst[e];
        edges[nodes[dst[e]].start + nodes[dst[e]].count++] = src[e];
    }
    free(src);
    free(dst);
    *edges_out = edges;
    *m_out = 2 * m;
    return WL_OK;
}

/* Does some neighbour of v have cost exactly cost[v] - 1 (the discoverer whose cost + 1 was
 * written)? */
/* --corrupt-output: the first reached node after the source gets a cost one below its BFS level,
 * which no interleaving can produce (every cost written is the length of a walk from the source). */
static int corrupt_cost(wl_ctx *c, gtlm_devptr dcost, const int32_t *level, int n)
{
    for (int v = 1; v < n; v++) {
        if (level[v] < 1) continue;
        int32_t wrong = level[v] - 1;
        return wl_check(c, gtlm_memcpy_htod(c->sim, dcost + (gtlm_devptr)v * sizeof wrong, &wrong, sizeof wrong),
                        "gtlm_memcpy_htod (corrupt)");
    }
    return WL_OK;
}

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "nodes"), m = 0;
    node *nodes = malloc((size_t)n * sizeof *nodes);
    int32_t *edges = NULL, *cost = malloc((size_t)n * sizeof *cost), *level = malloc((size_t)n * sizeof *level);
    int32_t *queue = malloc((size_t)n * sizeof *queue);
    unsigned char *mask = calloc((size_t)n, 1), *visited = calloc((size_t)n, 1);
    int rc = (nodes && cost && level && queue && mask && visited) ? WL_OK : WL_ERROR;
    if (rc == WL_OK) rc = make_graph(n, 0xbf5, nodes, &edges, &m);
    for (int v = 0; rc == WL_OK && v < n; v++) cost[v] = level[v] = -1;
    if (rc == WL_OK) {
        mask[0] = visited[0] = 1;
        cost[0] = level[0] = 0;
        int head = 0, tail = 0;
        queue[tail++] = 0;
        while (head < tail) { /* the CPU reference: BFS levels */
            int v = queue[head++];
            for (int e = nodes[v].start; e < nodes[v].start + nodes[v].count; e++)
                if (level[edges[e]] < 0) {
                    level[edges[e]] = level[v] + 1;
                    queue[tail++] = edges[e];
                }
        }
    }
    gtlm_devptr dnodes = 0, dedges = 0, dmask = 0, dvisited = 0, dcost = 0, dover = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dnodes, nodes, (size_t)n * sizeof *nodes);
    if (rc == WL_OK) rc = wl_upload(c, &dedges, edges, (size_t)m * sizeof *edges);
    if (rc == WL_OK) rc = wl_upload(c, &dmask, mask, (size_t)n);
    if (rc == WL_OK) rc = wl_upload(c, &dvisited, visited, (size_t)n);
    if (rc == WL_OK) rc = wl_upload(c, &dcost, cost, (size_t)n * sizeof *cost);
    if (rc == WL_OK) rc = wl_alloc(c, &dover, 1);
    const void *args[] = {&dnodes, &dedges, &dmask, &dvisited, &dcost, &dover, &n};
    const size_t sizes[] = {8, 8, 8, 8, 8, 8, 4};
    unsigned char over = 1;
    long launches = 0;
    while (rc == WL_OK && over) {
        over = 0;
        rc = wl_check(c, gtlm_memcpy_htod(c->sim, dover, &over, 1), "gtlm_memcpy_htod");
        if (rc == WL_OK)
            rc = wl_launch(c, "bfs_kernel", (unsigned)((n + 255) / 256), 1, 1, n < 256 ? (unsigned)n : 256, 1, 1, 0,
                           args, sizes, 7);
        if (rc == WL_OK) rc = wl_download(c, &over, dover, 1);
        launches++;
    }
    if (rc == WL_OK && c->corrupt) rc = corrupt_cost(c, dcost, level, n);
    if (rc == WL_OK) rc = wl_download(c, cost, dcost, (size_t)n * sizeof *cost);
    if (rc == WL_OK) rc = wl_download(c, mask, dmask, (size_t)n);
    if (rc == WL_OK) rc = wl_download(c, visited, dvisited, (size_t)n);
    long bad = 0, above = 0, reached = 0;
    if (rc == WL_OK && cost[0] != 0) rc = wl_fail(c, "cost[0] = %d, expected 0 at the source", cost[0]);
    for (int v = 0; rc == WL_OK && v < n; v++) {
        /* What every interleaving of the in-place frontier gives: the reached set is exact and each
         * cost is at least the BFS level (a walk's length). No parent check: a node can expand
         * with its old cost and then have that cost overwritten by a late discoverer that read
         * it unvisited, so a child's cost - 1 need not be any neighbour's final cost (seen at sim
         * size in timing mode, and under other TB and warp schedulers at tiny size). */
        int ok = level[v] < 0 ? cost[v] == -1 && !visited[v] && !mask[v]
                              : cost[v] >= level[v] && cost[v] < n && visited[v] && !mask[v];
        reached += level[v] >= 0;
        above += level[v] >= 0 && cost[v] > level[v];
        if (!ok && bad++ < 5)
            wl_fail(c, "node %d: cost %d, visited %d, mask %d; BFS level %d", v, cost[v], visited[v], mask[v], level[v]);
    }
    if (bad) rc = wl_fail(c, "%ld nodes inconsistent in all", bad);
    if (rc == WL_OK)
        fprintf(c->out, "BFS: %d edges, %ld nodes reached, %ld launches, %ld costs above the BFS level\n", m, reached,
                launches, above);
    gtlm_devptr all[] = {dnodes, dedges, dmask, dvisited, dcost, dover};
    for (int i = 0; i < 6; i++) gtlm_free(c->sim, all[i]);
    free(nodes);
    free(edges);
    free(cost);
    free(level);
    free(queue);
    free(mask);
    free(visited);
    return rc;
}

const wl_desc workload_ispass_bfs = {
    .name = "BFS",
    .suite = "ispass",
    .description = "single-kernel in-place-frontier BFS (Harish) over a random graph of nodes nodes, mean degree 6",
    .kernels = "bfs_kernel",
    .ptx = workload_ispass_bfs_ptx,
    .ptxas = workload_ispass_bfs_ptxas,
    .params = {"nodes"},
    .tiny = {4096},
    .sim = {65536},
    .paper = {65536},
    .run = run,
};
