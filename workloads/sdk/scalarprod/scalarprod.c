/* ScalarProd driver: vectors dot products of elements floats each, 128 CTAs x 256 threads, one
 * launch. Inputs U[0,1) as the SDK. All products are non-negative, so the float result of any
 * summation order is within elements * 2^-24 (the gamma_n bound) of the exact sum: the
 * tolerance is that bound in percent against a double reference. */
#include <stdlib.h>

#include "workload.h"

extern const char workload_sdk_scalarprod_ptx[], workload_sdk_scalarprod_ptxas[];

static int run(wl_ctx *c)
{
    int vn = (int)wl_param(c, "vectors"), en = (int)wl_param(c, "elements");
    size_t n = (size_t)vn * en;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    float *out = malloc((size_t)vn * sizeof *out), *want = malloc((size_t)vn * sizeof *want);
    int rc = (a && b && out && want) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 0x5350);
    for (size_t i = 0; rc == WL_OK && i < n; i++) {
        a[i] = (float)wl_rng_unit(&r);
        b[i] = (float)wl_rng_unit(&r);
    }
    for (int v = 0; rc == WL_OK && v < vn; v++) {
        double s = 0.0;
        for (int i = 0; i < en; i++) s += (double)a[(size_t)v * en + i] * b[(size_t)v * en + i];
        want[v] = (float)s;
    }
    gtlm_devptr da = 0, db = 0, dc = 0;
    if (rc == WL_OK) rc = wl_upload(c, &da, a, n * sizeof *a);
    if (rc == WL_OK) rc = wl_upload(c, &db, b, n * sizeof *b);
    if (rc == WL_OK) rc = wl_alloc(c, &dc, (size_t)vn * sizeof *out);
    const void *args[] = {&dc, &da, &db, &vn, &en};
    const size_t sizes[] = {8, 8, 8, 4, 4};
    if (rc == WL_OK) rc = wl_launch(c, "scalar_prod", 128, 1, 1, 256, 1, 1, 0, args, sizes, 5);
    if (rc == WL_OK) rc = wl_corrupt(c, dc, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dc, (size_t)vn * sizeof *out);
    double pct = 100.0 * (en + 1) / 16777216.0;
    if (rc == WL_OK && wl_compare_f32(c, "C", out, want, (size_t)vn, pct, 0.0)) rc = WL_WRONG;
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, db);
    gtlm_free(c->sim, dc);
    free(a);
    free(b);
    free(out);
    free(want);
    return rc;
}

const wl_desc workload_sdk_scalarprod = {
    .name = "ScalarProd",
    .suite = "sdk",
    .description = "dot products of vectors x elements floats, 128 CTAs x 256 threads, shared-memory tree reduction",
    .kernels = "scalar_prod",
    .ptx = workload_sdk_scalarprod_ptx,
    .ptxas = workload_sdk_scalarprod_ptxas,
    .params = {"vectors", "elements"},
    .tiny = {128, 1024},
    .sim = {256, 4096},
    .paper = {256, 4096},
    .run = run,
};
