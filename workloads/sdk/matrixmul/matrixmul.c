/* MatrixMul driver: C = A * B (hA x wA times wA x wB) with 16 x 16 shared-memory tiles, launched
 * iters times (the SDK's warm-up plus timing loop). Inputs are multiples of 1/16 in [-1, 1], so
 * every product is exact and every partial sum a multiple of 1/256 below 2^15 in magnitude:
 * the result is exact in float whatever the summation order and is compared exactly. */
#include <stdlib.h>

#include "workload.h"

extern const char workload_sdk_matrixmul_ptx[], workload_sdk_matrixmul_ptxas[];

#define TILE 16

static int run(wl_ctx *c)
{
    int hA = (int)wl_param(c, "ha"), wA = (int)wl_param(c, "wa"), wB = (int)wl_param(c, "wb");
    long iters = wl_param(c, "iters");
    if (hA % TILE || wA % TILE || wB % TILE || wA > 32768)
        return wl_fail(c, "ha, wa, wb must be multiples of %d (and wa <= 32768 for exact sums)", TILE);
    size_t na = (size_t)hA * wA, nb = (size_t)wA * wB, nc = (size_t)hA * wB;
    float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b);
    float *out = malloc(nc * sizeof *out), *want = malloc(nc * sizeof *want);
    int rc = (a && b && out && want) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 0x4d4d);
    for (size_t i = 0; rc == WL_OK && i < na; i++) a[i] = (float)wl_rng_range(&r, -16, 16) / 16.0f;
    for (size_t i = 0; rc == WL_OK && i < nb; i++) b[i] = (float)wl_rng_range(&r, -16, 16) / 16.0f;
    for (int i = 0; rc == WL_OK && i < hA; i++)
        for (int j = 0; j < wB; j++) {
            double s = 0.0;
            for (int k = 0; k < wA; k++) s += (double)a[(size_t)i * wA + k] * b[(size_t)k * wB + j];
            want[(size_t)i * wB + j] = (float)s;
        }
    gtlm_devptr da = 0, db = 0, dc = 0;
    if (rc == WL_OK) rc = wl_upload(c, &da, a, na * sizeof *a);
    if (rc == WL_OK) rc = wl_upload(c, &db, b, nb * sizeof *b);
    if (rc == WL_OK) rc = wl_alloc(c, &dc, nc * sizeof *out);
    const void *args[] = {&dc, &da, &db, &wA, &wB};
    const size_t sizes[] = {8, 8, 8, 4, 4};
    for (long it = 0; rc == WL_OK && it < iters; it++)
        rc = wl_launch(c, "matrix_mul", (unsigned)(wB / TILE), (unsigned)(hA / TILE), 1, TILE, TILE, 1, 0, args,
                       sizes, 5);
    if (rc == WL_OK) rc = wl_corrupt(c, dc, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dc, nc * sizeof *out);
    if (rc == WL_OK && wl_compare_f32(c, "C", out, want, nc, 0.0, 0.0)) rc = WL_WRONG;
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, db);
    gtlm_free(c->sim, dc);
    free(a);
    free(b);
    free(out);
    free(want);
    return rc;
}

/* The sizes the kernels handle; others would run and fail verification. */
static const char *supported_sizes(const long *p)
{
    return p[0] % 16 || p[1] % 16 || p[2] % 16 ? "ha, wa and wb must be multiples of 16 (16x16 tiles)" : NULL;
}

const wl_desc workload_sdk_matrixmul = {
    .name = "MatrixMul",
    .suite = "sdk",
    .description = "tiled C = A*B (ha x wa times wa x wb, multiples of 16), 16x16 shared-memory tiles, iters launches",
    .kernels = "matrix_mul",
    .ptx = workload_sdk_matrixmul_ptx,
    .ptxas = workload_sdk_matrixmul_ptxas,
    .params = {"ha", "wa", "wb", "iters"},
    .tiny = {64, 64, 128, 1},
    .sim = {320, 320, 640, 1},
    .paper = {160, 160, 320, 301},
    .run = run,
    .check = supported_sizes,
};
