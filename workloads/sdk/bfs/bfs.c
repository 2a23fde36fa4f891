/* BC ("BFS (CUDA SDK)", Linebacker Table 2) driver.
 * Which code: Linebacker cites the NVIDIA CUDA SDK 4.0 code samples, which hold no BFS (nor do
 * the SDK lists GPGPU-Sim and Accel-Sim run). The suite already has both Harish-style
 * mask-scanning BFS codes (rodinia/bfs, ispass/bfs); the remaining widely distributed GPU BFS
 * of that era is the queue-based one (an explicit frontier array filled with atomics: Luo et
 * al. 2010, Merrill's b40c, the later CUDA samples' style), whose large streaming frontier on
 * scale-free graphs is the cache behaviour a cache study would pick it for. We take that.
 * Input: an R-MAT graph (a, b, c, d = 0.57, 0.19, 0.19, 0.05, the Graph500 parameters) of
 * 2^scale nodes and 8 * 2^scale generated edges, stored in both directions, self-loops and
 * duplicates removed; source node 0 (the R-MAT hub). Paper size: 2^20 nodes (the 1 M-node BFS
 * input of PAVER and Morpheus).
 * Check: every level equals a CPU BFS level exactly; the frontier sizes per level (downloaded
 * after each launch) equal the CPU's. The frontier's order is schedule dependent and never
 * downloaded. */
#include <stdint.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_sdk_bfs_ptx[], workload_sdk_bfs_ptxas[];

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* R-MAT edge list -> undirected CSR without self-loops or duplicates. */
static int make_rmat(int scale, uint64_t seed, int32_t **row_out, int32_t **col_out, long *m_out)
{
    long n = 1L << scale, gen = 8 * n;
    int32_t *src = malloc((size_t)gen * 4), *dst = malloc((size_t)gen * 4), *row = calloc((size_t)n + 1, 4);
    int32_t *col = malloc((size_t)gen * 8), *fill = calloc((size_t)n, 4);
    if (!src || !dst || !row || !col || !fill) {
        free(src), free(dst), free(row), free(col), free(fill);
        return WL_ERROR;
    }
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (long e = 0; e < gen; e++) {
        int32_t u = 0, v = 0;
        for (int b = 0; b < scale; b++) {
            double x = wl_rng_unit(&r);
            int bu = x >= 0.57 + 0.19, bv = (x >= 0.57 && x < 0.76) || x >= 0.95;
            u = u << 1 | bu;
            v = v << 1 | bv;
        }
        src[e] = u, dst[e] = v;
        if (u != v) row[u + 1]++, row[v + 1]++;
    }
    for (long v = 0; v < n; v++) row[v + 1] += row[v];
    for (long e = 0; e < gen; e++)
        if (src[e] != dst[e]) {
            col[row[src[e]] + fill[src[e]]++] = dst[e];
            col[row[dst[e]] + fill[dst[e]]++] = src[e];
        }
    long m = 0; /* sort each adjacency list, drop duplicates, compact */
    for (long v = 0; v < n; v++) {
        int32_t *a = col + row[v];
        int len = row[v + 1] - row[v];
        qsort(a, (size_t)len, 4, cmp_i32);
        row[v] = (int32_t)m;
        for (int k = 0; k < len; k++)
            if (k == 0 || a[k] != a[k - 1]) col[m++] = a[k];
    }
    row[n] = (int32_t)m;
    free(src), free(dst), free(fill);
    *row_out = row, *col_out = col, *m_out = m;
    return WL_OK;
}

static int run(wl_ctx *c)
{
    int scale = (int)wl_param(c, "scale");
    if (scale < 4 || scale > 24) {
        fprintf(c->out, "BC: scale must be in [4, 24]\n");
        return WL_USAGE;
    }
    int n = 1 << scale;
    long m = 0;
    int32_t *row = NULL, *col = NULL, *level = malloc((size_t)n * 4), *want = malloc((size_t)n * 4);
    int32_t *queue = malloc((size_t)n * 4), *sizes_cpu = calloc((size_t)n + 1, 4);
    int rc = level && want && queue && sizes_cpu ? make_rmat(scale, 0xbc, &row, &col, &m) : WL_ERROR;
    int levels = 0;
    if (rc == WL_OK) { /* the CPU reference: levels and frontier sizes */
        for (int v = 0; v < n; v++) want[v] = level[v] = -1;
        want[0] = level[0] = 0;
        int head = 0, tail = 0;
        queue[tail++] = 0;
        while (head < tail) {
            int v = queue[head++];
            for (int e = row[v]; e < row[v + 1]; e++)
                if (want[col[e]] < 0) {
                    want[col[e]] = want[v] + 1;
                    sizes_cpu[want[v] + 1]++;
                    queue[tail++] = col[e];
                }
        }
        queue[0] = 0;
    }
    gtlm_devptr drow = 0, dcol = 0, dlevel = 0, dq[2] = {0, 0}, dsize = 0;
    if (rc == WL_OK) rc = wl_upload(c, &drow, row, ((size_t)n + 1) * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dcol, col, (size_t)(m ? m : 1) * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dlevel, level, (size_t)n * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dq[0], queue, (size_t)n * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dq[1], (size_t)n * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dsize, 4);
    int size = 1;
    for (int depth = 0; rc == WL_OK && size > 0; depth++) {
        int32_t zero = 0;
        rc = wl_check(c, gtlm_memcpy_htod(c->sim, dsize, &zero, 4), "gtlm_memcpy_htod");
        const void *args[] = {&dq[depth & 1], &size, &drow, &dcol, &dlevel, &dq[~depth & 1], &dsize, &depth};
        const size_t sz[] = {8, 4, 8, 8, 8, 8, 8, 4};
        if (rc == WL_OK)
            rc = wl_launch(c, "bfs_frontier", (unsigned)((size + 255) / 256), 1, 1, 256, 1, 1, 0, args, sz, 8);
        if (rc == WL_OK) rc = wl_download(c, &size, dsize, 4);
        if (rc == WL_OK && size != sizes_cpu[depth + 1])
            rc = wl_fail(c, "level %d: frontier of %d nodes, expected %d", depth + 1, size, sizes_cpu[depth + 1]);
        levels++;
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dlevel, sizeof(int32_t));
    if (rc == WL_OK) rc = wl_download(c, level, dlevel, (size_t)n * 4);
    if (rc == WL_OK && wl_compare_i32(c, "level", level, want, (size_t)n)) rc = WL_WRONG;
    long reached = 0;
    for (int v = 0; rc == WL_OK && v < n; v++) reached += want[v] >= 0;
    if (rc == WL_OK) fprintf(c->out, "BC: %ld edges, %ld nodes reached in %d launches\n", m, reached, levels);
    gtlm_devptr all[] = {drow, dcol, dlevel, dq[0], dq[1], dsize};
    for (int i = 0; i < 6; i++) gtlm_free(c->sim, all[i]);
    free(row), free(col), free(level), free(want), free(queue), free(sizes_cpu);
    return rc;
}

const wl_desc workload_sdk_bfs = {
    .name = "BC",
    .suite = "sdk",
    .description = "\"BFS (CUDA SDK)\": queue-based BFS streaming an explicit frontier, R-MAT graph of 2^scale nodes",
    .kernels = "bfs_frontier",
    .ptx = workload_sdk_bfs_ptx,
    .ptxas = workload_sdk_bfs_ptxas,
    .params = {"scale"},
    .tiny = {11},
    .sim = {16},
    .paper = {20},
    .run = run,
};
