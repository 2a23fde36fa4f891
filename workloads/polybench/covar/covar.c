/* COVAR driver: covariance matrix of data[i][j] = i*j/m (1-based, row stride m+1, as
 * PolyBench/GPU), three launches (mean, reduce, covar), PolyBench check (1.05 %) of symmat
 * against a double CPU reference (every term is positive: no cancellation).
 *
 * COVAR_REPLICATE_REDUCE_BUG (independent of the size preset): 1 keeps the original's reduce
 * grid (ceil(m/32), ceil(n/32)) with blocks (32,8), which centres only rows 1 .. 8*ceil(n/32)
 * (n/4 of them); the rest of the covariance is taken around 0. 0 launches the full grid
 * (ceil(m/32), ceil(n/8)). The CPU reference centres exactly the rows the launch covers. */
#include <stdlib.h>

#include "workload.h"

#define COVAR_REPLICATE_REDUCE_BUG 1

extern const char workload_polybench_covar_ptx[], workload_polybench_covar_ptxas[];

#define FLOAT_N ((double)3214212.01f)

/* Rows 1 .. centred are centred; sym: (m+1) x (m+1), zeroed. Works in double on a copy of d. */
static void covar_cpu(const float *data, double *d, double *sym, int m, int n, int centred)
{
    size_t w = (size_t)m + 1;
    for (size_t k = 0; k < w * ((size_t)n + 1); k++) d[k] = data[k];
    for (int j = 1; j <= m; j++) {
        double mean = 0.0;
        for (int i = 1; i <= n; i++) mean += d[i * w + j];
        mean /= FLOAT_N;
        for (int i = 1; i <= centred; i++) d[i * w + j] -= mean;
    }
    for (int i = 1; i <= n; i++) /* upper triangle with diagonal, row by row (cache-friendly order) */
        for (int j1 = 1; j1 <= m; j1++)
            for (int j2 = j1; j2 <= m; j2++) sym[j1 * w + j2] += d[i * w + j1] * d[i * w + j2];
    for (int j1 = 1; j1 <= m; j1++)
        for (int j2 = j1 + 1; j2 <= m; j2++) sym[j2 * w + j1] = sym[j1 * w + j2];
}

static int run(wl_ctx *c)
{
    int m = (int)wl_param(c, "m"), n = (int)wl_param(c, "n");
    if (m < 1 || n < 1 || ((long)m + 1) * ((long)n + 1) > (1L << 26) || ((long)m + 1) * ((long)m + 1) > (1L << 26))
        return wl_fail(c, "need m, n >= 1 and (m+1)*(n+1), (m+1)^2 <= 2^26");
    size_t w = (size_t)m + 1, nd = w * ((size_t)n + 1), ns = w * w;
    unsigned rgy = COVAR_REPLICATE_REDUCE_BUG ? (unsigned)((n + 31) / 32) : (unsigned)((n + 7) / 8);
    int centred = (int)rgy * 8 < n ? (int)rgy * 8 : n;
    float *data = calloc(nd, 4), *out = malloc(ns * 4), *want = malloc(ns * 4);
    double *d = malloc(nd * 8), *sym = calloc(ns, 8);
    int rc = (data && out && want && d && sym) ? WL_OK : WL_ERROR;
    if (rc == WL_OK) {
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= m; j++) data[i * w + j] = ((float)i * (float)j) / (float)m;
        covar_cpu(data, d, sym, m, n, centred);
        for (size_t k = 0; k < ns; k++) want[k] = (float)sym[k];
    }
    gtlm_devptr dd = 0, dmean = 0, dsym = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dd, data, nd * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dmean, w * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dsym, ns * 4);
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, dsym, 0, ns * 4), "gtlm_memset");
    const void *a_mean[] = {&dmean, &dd, &m, &n};
    const void *a_red[] = {&dmean, &dd, &m, &n};
    const void *a_cov[] = {&dsym, &dd, &m, &n};
    const size_t s4[] = {8, 8, 4, 4};
    unsigned g256 = (unsigned)((m + 255) / 256);
    if (rc == WL_OK) rc = wl_launch(c, "covar_mean_kernel", g256, 1, 1, 256, 1, 1, 0, a_mean, s4, 4);
    if (rc == WL_OK)
        rc = wl_launch(c, "covar_reduce_kernel", (unsigned)((m + 31) / 32), rgy, 1, 32, 8, 1, 0, a_red, s4, 4);
    if (rc == WL_OK) rc = wl_launch(c, "covar_covar_kernel", g256, 1, 1, 256, 1, 1, 0, a_cov, s4, 4);
    /* symmat[m][m], the largest element (element 0 is padding and not compared). */
    if (rc == WL_OK) rc = wl_corrupt(c, dsym + (ns - 1) * 4, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dsym, ns * 4);
    if (rc == WL_OK && wl_compare_f32(c, "symmat", out, want, ns, 1.05, 0.01)) rc = WL_WRONG;
    gtlm_devptr dev[] = {dd, dmean, dsym};
    for (size_t k = 0; k < sizeof dev / sizeof dev[0]; k++) gtlm_free(c->sim, dev[k]);
    void *host[] = {data, out, want, d, sym};
    for (size_t k = 0; k < sizeof host / sizeof host[0]; k++) free(host[k]);
    return rc;
}

const wl_desc workload_polybench_covar = {
    .name = "COVAR",
    .suite = "polybench",
    .description = "covariance of an n x m float matrix: mean, reduce, triangular covar kernels; keeps the "
                   "original's reduce grid bug (only rows 1..n/4 centred, COVAR_REPLICATE_REDUCE_BUG in covar.c)",
    .kernels = "covar_mean_kernel, covar_reduce_kernel, covar_covar_kernel",
    .ptx = workload_polybench_covar_ptx,
    .ptxas = workload_polybench_covar_ptxas,
    .params = {"m", "n"},
    .tiny = {64, 64},
    .sim = {512, 512},
    .paper = {2048, 2048},
    .run = run,
};
