/* MM-naive driver: C = A * B (n x n) with one thread per output and every operand from global
 * memory (the thesis' MM, N = 200 on a 13 x 13 grid of 16 x 16 threads). Inputs are multiples
 * of 1/16 in [-1, 1], so every product and partial sum is exact in float whatever the order:
 * the result is compared exactly with a CPU product. */
#include <stdlib.h>

#include "workload.h"

extern const char workload_sdk_matmul_naive_ptx[], workload_sdk_matmul_naive_ptxas[];

#define TILE 16

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "n");
    if (n > 32768) return wl_fail(c, "n must be at most 32768 (exact sums)");
    size_t nn = (size_t)n * n;
    float *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b);
    float *out = malloc(nn * sizeof *out), *want = malloc(nn * sizeof *want);
    int rc = (a && b && out && want) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 0x4d4e);
    for (size_t i = 0; rc == WL_OK && i < nn; i++) a[i] = (float)wl_rng_range(&r, -16, 16) / 16.0f;
    for (size_t i = 0; rc == WL_OK && i < nn; i++) b[i] = (float)wl_rng_range(&r, -16, 16) / 16.0f;
    for (int i = 0; rc == WL_OK && i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++) s += (double)a[(size_t)i * n + k] * b[(size_t)k * n + j];
            want[(size_t)i * n + j] = (float)s;
        }
    gtlm_devptr da = 0, db = 0, dc = 0;
    if (rc == WL_OK) rc = wl_upload(c, &da, a, nn * sizeof *a);
    if (rc == WL_OK) rc = wl_upload(c, &db, b, nn * sizeof *b);
    if (rc == WL_OK) rc = wl_alloc(c, &dc, nn * sizeof *out);
    const void *args[] = {&da, &db, &dc, &n};
    const size_t sizes[] = {8, 8, 8, 4};
    unsigned g = (unsigned)((n + TILE - 1) / TILE);
    if (rc == WL_OK) rc = wl_launch(c, "mm_naive", g, g, 1, TILE, TILE, 1, 0, args, sizes, 4);
    if (rc == WL_OK) rc = wl_corrupt(c, dc, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dc, nn * sizeof *out);
    if (rc == WL_OK && wl_compare_f32(c, "C", out, want, nn, 0.0, 0.0)) rc = WL_WRONG;
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, db);
    gtlm_free(c->sim, dc);
    free(a);
    free(b);
    free(out);
    free(want);
    return rc;
}

const wl_desc workload_sdk_matmul_naive = {
    .name = "MM-naive",
    .suite = "sdk",
    .description = "naive C = A*B (n x n), one thread per output, operands from global memory, 16x16 CTAs with a bounds check",
    .kernels = "mm_naive",
    .ptx = workload_sdk_matmul_naive_ptx,
    .ptxas = workload_sdk_matmul_naive_ptxas,
    .params = {"n"},
    .tiny = {40},
    .sim = {200},
    .paper = {512},
    .doc = {200},
    .doc_source = "thesis ch.4 (LocalityGuru worked example, Sec. 4.3.2) and ch.3: N = 200, 13 x 13 grid of 16 x 16",
    .run = run,
};
