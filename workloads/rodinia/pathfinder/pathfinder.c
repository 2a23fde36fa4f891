/* PathFinder driver: a rows x cols grid of weights 0..9 (as the original's rand() % 10), the
 * pyramid kernel every `ph` rows ping-ponging two result rows, exact check against a CPU DP. */
#include <stdlib.h>

#include "workload.h"

extern const char workload_rodinia_pathfinder_ptx[], workload_rodinia_pathfinder_ptxas[];

#define BLOCK 256

static void reference(const int *wall, int rows, int cols, int *out)
{
    int *prev = malloc((size_t)cols * sizeof(int));
    if (!prev) return;
    for (int j = 0; j < cols; j++) out[j] = wall[j];
    for (int r = 1; r < rows; r++) {
        for (int j = 0; j < cols; j++) prev[j] = out[j];
        for (int j = 0; j < cols; j++) {
            int best = prev[j];
            if (j > 0 && prev[j - 1] < best) best = prev[j - 1];
            if (j + 1 < cols && prev[j + 1] < best) best = prev[j + 1];
            out[j] = best + wall[(size_t)r * cols + j];
        }
    }
    free(prev);
}

static int run(wl_ctx *c)
{
    int cols = (int)wl_param(c, "cols"), rows = (int)wl_param(c, "rows"), ph = (int)wl_param(c, "pyramid_height");
    if (rows < 2 || 2 * ph >= BLOCK) return wl_fail(c, "need rows >= 2 and pyramid_height < %d", BLOCK / 2);
    size_t n = (size_t)rows * cols, row_bytes = (size_t)cols * sizeof(int);
    int *wall = malloc(n * sizeof(int)), *out = malloc(row_bytes), *want = malloc(row_bytes);
    int rc = (wall && out && want) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 9);
    for (size_t i = 0; rc == WL_OK && i < n; i++) wall[i] = (int)wl_rng_range(&r, 0, 9);
    gtlm_devptr dwall = 0, dres[2] = {0, 0};
    /* As the original: row 0 seeds the first result row, the kernel reads rows 1.. from its own buffer. */
    if (rc == WL_OK) rc = wl_upload(c, &dwall, wall + cols, (n - (size_t)cols) * sizeof(int));
    if (rc == WL_OK) rc = wl_upload(c, &dres[0], wall, row_bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &dres[1], row_bytes);
    int border = ph, blocks = (cols + BLOCK - 2 * ph - 1) / (BLOCK - 2 * ph), src = 0;
    for (int t = 0; rc == WL_OK && t < rows - 1; t += ph) {
        int iteration = ph < rows - 1 - t ? ph : rows - 1 - t;
        const void *args[] = {&iteration, &dwall, &dres[src], &dres[1 - src], &cols, &rows, &t, &border};
        const size_t sizes[] = {4, 8, 8, 8, 4, 4, 4, 4};
        rc = wl_launch(c, "dynproc_kernel", (unsigned)blocks, 1, 1, BLOCK, 1, 1, 0, args, sizes, 8);
        src = 1 - src;
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dres[src], sizeof(int));
    if (rc == WL_OK) rc = wl_download(c, out, dres[src], row_bytes);
    if (rc == WL_OK) {
        reference(wall, rows, cols, want);
        if (wl_compare_i32(c, "result", out, want, (size_t)cols)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, dwall);
    gtlm_free(c->sim, dres[0]);
    gtlm_free(c->sim, dres[1]);
    free(wall);
    free(out);
    free(want);
    return rc;
}

const wl_desc workload_rodinia_pathfinder = {
    .name = "PathFinder",
    .suite = "rodinia",
    .description = "min-cost top-to-bottom path through a grid of weights 0..9, pyramid of pyramid_height rows per "
                   "launch in 256-thread CTAs (pyramid_height < 128; any cols, rows >= 2)",
    .kernels = "dynproc_kernel",
    .ptx = workload_rodinia_pathfinder_ptx,
    .ptxas = workload_rodinia_pathfinder_ptxas,
    .params = {"cols", "rows", "pyramid_height"},
    .tiny = {10000, 50, 10},
    .sim = {100000, 100, 20},
    .paper = {100000, 100, 20},
    .run = run,
};
