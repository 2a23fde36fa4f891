/* NW driver: two random sequences of residues 1..10 (as the original's rand() % 10 + 1) scored
 * with BLOSUM62, gap penalty 10, border cells -i*penalty; the tile kernels along the tile
 * anti-diagonals; exact check of the whole score matrix against a CPU DP. */
#include <stdlib.h>

#include "workload.h"

extern const char workload_rodinia_nw_ptx[], workload_rodinia_nw_ptxas[];

#define B 16
#define PENALTY 10

/* BLOSUM62 restricted to the residues the generator draws, R N D C Q E G H I L (index 1..10). */
static const signed char blosum62[11][11] = {
    {0},
    {0, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2},
    {0, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3},
    {0, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4},
    {0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1},
    {0, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2},
    {0, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3},
    {0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4},
    {0, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3},
    {0, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2},
    {0, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4},
};

static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "n");
    if (n % B) return wl_fail(c, "n = %d must be a multiple of %d", n, B);
    int cols = n + 1, penalty = PENALTY, width = n / B;
    size_t cells = (size_t)cols * cols, bytes = cells * sizeof(int);
    int *ref = calloc(cells, sizeof(int)), *items = calloc(cells, sizeof(int)), *out = malloc(bytes);
    int *seq1 = malloc((size_t)cols * sizeof(int)), *seq2 = malloc((size_t)cols * sizeof(int));
    int rc = (ref && items && out && seq1 && seq2) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 7);
    for (int i = 1; rc == WL_OK && i < cols; i++) seq1[i] = (int)wl_rng_range(&r, 1, 10);
    for (int j = 1; rc == WL_OK && j < cols; j++) seq2[j] = (int)wl_rng_range(&r, 1, 10);
    for (int i = 1; rc == WL_OK && i < cols; i++)
        for (int j = 1; j < cols; j++) ref[(size_t)i * cols + j] = blosum62[seq1[i]][seq2[j]];
    for (int i = 1; rc == WL_OK && i < cols; i++) {
        items[(size_t)i * cols] = -i * penalty;
        items[i] = -i * penalty;
    }
    gtlm_devptr dref = 0, ditems = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dref, ref, bytes);
    if (rc == WL_OK) rc = wl_upload(c, &ditems, items, bytes);
    const size_t sizes[] = {8, 8, 4, 4, 4, 4};
    for (int i = 1; rc == WL_OK && i <= width; i++) {
        const void *args[] = {&dref, &ditems, &cols, &penalty, &i, &width};
        rc = wl_launch(c, "nw_kernel_1", (unsigned)i, 1, 1, B, 1, 1, 0, args, sizes, 6);
    }
    for (int i = width - 1; rc == WL_OK && i >= 1; i--) {
        const void *args[] = {&dref, &ditems, &cols, &penalty, &i, &width};
        rc = wl_launch(c, "nw_kernel_2", (unsigned)i, 1, 1, B, 1, 1, 0, args, sizes, 6);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, ditems, sizeof(int));
    if (rc == WL_OK) rc = wl_download(c, out, ditems, bytes);
    if (rc == WL_OK) {
        for (int i = 1; i < cols; i++)
            for (int j = 1; j < cols; j++) {
                size_t k = (size_t)i * cols + j;
                items[k] = max3(items[k - cols - 1] + ref[k], items[k - 1] - penalty, items[k - cols] - penalty);
            }
        if (wl_compare_i32(c, "score", out, items, cells)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, dref);
    gtlm_free(c->sim, ditems);
    free(ref);
    free(items);
    free(out);
    free(seq1);
    free(seq2);
    return rc;
}

const wl_desc workload_rodinia_nw = {
    .name = "NW",
    .suite = "rodinia",
    .description = "Needleman-Wunsch scores of two length-n sequences (BLOSUM62, penalty 10) in 16x16 tiles along "
                   "tile anti-diagonals, 16-thread CTAs (n a multiple of 16)",
    .kernels = "nw_kernel_1, nw_kernel_2",
    .ptx = workload_rodinia_nw_ptx,
    .ptxas = workload_rodinia_nw_ptxas,
    .params = {"n"},
    .tiny = {256},
    .sim = {1024},
    .paper = {2048},
    .doc = {2048},
    .doc_source = "Morpheus (Accel-Sim app-collection input, spec Sec. 5 proposal): 2048 10",
    .run = run,
};
