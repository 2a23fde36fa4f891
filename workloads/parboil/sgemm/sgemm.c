/* SGEMM driver (Parboil): C = A * B^T with alpha = 1, beta = 0 as the original runs it, random
 * A and B in [-1, 1), one launch, checked against a CPU product in double. */
#include <math.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_parboil_sgemm_ptx[], workload_parboil_sgemm_ptxas[];

static int run(wl_ctx *c)
{
    int m = (int)wl_param(c, "m"), n = (int)wl_param(c, "n"), k = (int)wl_param(c, "k");
    if (m <= 0 || n <= 0 || k <= 0 || m % 128 || n % 16 || k % 8)
        return wl_fail(c, "m must be a positive multiple of 128, n of 16, k of 8");
    float *a = malloc((size_t)m * k * sizeof(float)), *bt = malloc((size_t)n * k * sizeof(float));
    float *got = malloc((size_t)m * n * sizeof(float));
    int rc = (a && bt && got) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 0x56e33);
    for (size_t i = 0; rc == WL_OK && i < (size_t)m * k; i++) a[i] = (float)(2.0 * wl_rng_unit(&r) - 1.0);
    for (size_t i = 0; rc == WL_OK && i < (size_t)n * k; i++) bt[i] = (float)(2.0 * wl_rng_unit(&r) - 1.0);
    gtlm_devptr da = 0, db = 0, dc = 0;
    size_t cbytes = (size_t)m * n * sizeof(float);
    if (rc == WL_OK) rc = wl_upload(c, &da, a, (size_t)m * k * sizeof(float));
    if (rc == WL_OK) rc = wl_upload(c, &db, bt, (size_t)n * k * sizeof(float));
    if (rc == WL_OK) rc = wl_alloc(c, &dc, cbytes);
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, dc, 0, cbytes), "gtlm_memset");
    float alpha = 1.0f, beta = 0.0f;
    const void *args[] = {&da, &m, &db, &n, &dc, &m, &k, &alpha, &beta};
    const size_t sizes[] = {8, 4, 8, 4, 8, 4, 4, 4, 4};
    if (rc == WL_OK)
        rc = wl_launch(c, "sgemm_nt", (unsigned)(m / 128), (unsigned)(n / 16), 1, 16, 8, 1, 0, args, sizes, 9);
    if (rc == WL_OK) rc = wl_corrupt(c, dc, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, got, dc, cbytes);
    /* A float dot product of k terms accumulated in order is within about k * 2^-24 * sum|a*b|
     * of the exact value (Higham's gamma_k); twice that bound, relative to sum|a*b|, tolerates
     * any rounding yet catches a wrong or missing term (a term is ~1/k of that sum). */
    long bad = 0;
    for (int j = 0; rc == WL_OK && j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0, mag = 0;
            for (int q = 0; q < k; q++) {
                double p = (double)a[i + (size_t)q * m] * bt[j + (size_t)q * n];
                s += p;
                mag += fabs(p);
            }
            float g = got[i + (size_t)j * m];
            if (!(fabs(g - s) <= 2.0 * k * ldexp(1.0, -24) * mag + 1e-30) && bad++ < 5)
                wl_fail(c, "C[%d][%d] = %.9g, expected %.9g", i, j, (double)g, s);
        }
    if (rc == WL_OK && bad) rc = wl_fail(c, "%ld of %d elements differ", bad, m * n);
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, db);
    gtlm_free(c->sim, dc);
    free(a);
    free(bt);
    free(got);
    return rc;
}

/* The sizes the kernels handle; others would run and fail verification. */
static const char *supported_sizes(const long *p)
{
    return p[0] % 128 || p[1] % 16 || p[2] % 8 ? "m must be a multiple of 128, n of 16 and k of 8 (the kernel's tiles)" : NULL;
}

const wl_desc workload_parboil_sgemm = {
    .name = "SGEMM",
    .suite = "parboil",
    .description = "register-tiled C = A * B^T (column-major), m a multiple of 128, n of 16, k of 8",
    .kernels = "sgemm_nt",
    .ptx = workload_parboil_sgemm_ptx,
    .ptxas = workload_parboil_sgemm_ptxas,
    .params = {"m", "n", "k"},
    .tiny = {128, 64, 64},
    .sim = {512, 512, 512},
    .paper = {1024, 1056, 992},
    .doc = {1024, 1056, 992},
    .doc_source = "Morpheus (Accel-Sim app-collection input, spec Sec. 5 proposal): Parboil medium",
    .run = run,
    .check = supported_sizes,
};
