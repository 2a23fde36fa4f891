/* CORR driver: correlation matrix of data[i][j] = i*j/m (1-based, row stride m+1, as
 * PolyBench/GPU), four launches (mean, std, reduce, corr) and the original's host write of
 * symmat[m][m] = 1, then the PolyBench check (1.05 %) of symmat against a double CPU reference.
 * The data columns are proportional, so the sums have no cancellation and the only
 * discontinuity, the EPS floor of the standard deviation, is far (> 3 %) from every column's
 * value at the preset sizes. */
#include <math.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_corr_ptx[], workload_polybench_corr_ptxas[];

#define FLOAT_N ((double)3214212.01f)
#define EPS ((double)0.005f)

/* d: (n+1) x (m+1), 1-based; sym: (m+1) x (m+1), zeroed. Works in double on a copy of d. */
static void corr_cpu(const float *data, double *d, double *sym, int m, int n)
{
    size_t w = (size_t)m + 1;
    for (size_t k = 0; k < w * ((size_t)n + 1); k++) d[k] = data[k];
    for (int j = 1; j <= m; j++) {
        double mean = 0.0, var = 0.0;
        for (int i = 1; i <= n; i++) mean += d[i * w + j];
        mean /= FLOAT_N;
        for (int i = 1; i <= n; i++) var += (d[i * w + j] - mean) * (d[i * w + j] - mean);
        double sd = sqrt(var / FLOAT_N);
        if (sd <= EPS) sd = 1.0;
        for (int i = 1; i <= n; i++) d[i * w + j] = (d[i * w + j] - mean) / (sqrt(FLOAT_N) * sd);
    }
    for (int i = 1; i <= n; i++) /* upper triangle, row by row (cache-friendly order) */
        for (int j1 = 1; j1 < m; j1++)
            for (int j2 = j1 + 1; j2 <= m; j2++) sym[j1 * w + j2] += d[i * w + j1] * d[i * w + j2];
    for (int j1 = 1; j1 <= m; j1++) {
        sym[j1 * w + j1] = 1.0;
        for (int j2 = j1 + 1; j2 <= m; j2++) sym[j2 * w + j1] = sym[j1 * w + j2];
    }
}

static int run(wl_ctx *c)
{
    int m = (int)wl_param(c, "m"), n = (int)wl_param(c, "n");
    if (m < 2 || n < 1 || ((long)m + 1) * ((long)n + 1) > (1L << 26) || ((long)m + 1) * ((long)m + 1) > (1L << 26))
        return wl_fail(c, "need m >= 2, n >= 1 and (m+1)*(n+1), (m+1)^2 <= 2^26");
    size_t w = (size_t)m + 1, nd = w * ((size_t)n + 1), ns = w * w;
    float *data = calloc(nd, 4), *out = malloc(ns * 4), *want = malloc(ns * 4);
    double *d = malloc(nd * 8), *sym = calloc(ns, 8);
    int rc = (data && out && want && d && sym) ? WL_OK : WL_ERROR;
    if (rc == WL_OK) {
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= m; j++) data[i * w + j] = ((float)i * (float)j) / (float)m;
        corr_cpu(data, d, sym, m, n);
        for (size_t k = 0; k < ns; k++) want[k] = (float)sym[k];
    }
    gtlm_devptr dd = 0, dmean = 0, dstd = 0, dsym = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dd, data, nd * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dmean, w * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dstd, w * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dsym, ns * 4);
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, dsym, 0, ns * 4), "gtlm_memset");
    const void *a_mean[] = {&dmean, &dd, &m, &n};
    const void *a_std[] = {&dmean, &dstd, &dd, &m, &n};
    const void *a_red[] = {&dmean, &dstd, &dd, &m, &n};
    const void *a_corr[] = {&dsym, &dd, &m, &n};
    const size_t s4[] = {8, 8, 4, 4}, s5[] = {8, 8, 8, 4, 4};
    unsigned g256 = (unsigned)((m + 255) / 256);
    if (rc == WL_OK) rc = wl_launch(c, "corr_mean_kernel", g256, 1, 1, 256, 1, 1, 0, a_mean, s4, 4);
    if (rc == WL_OK) rc = wl_launch(c, "corr_std_kernel", g256, 1, 1, 256, 1, 1, 0, a_std, s5, 5);
    if (rc == WL_OK)
        rc = wl_launch(c, "corr_reduce_kernel", (unsigned)((m + 31) / 32), (unsigned)((n + 7) / 8), 1, 32, 8, 1, 0,
                       a_red, s5, 5);
    if (rc == WL_OK) rc = wl_launch(c, "corr_corr_kernel", g256, 1, 1, 256, 1, 1, 0, a_corr, s4, 4);
    float one = 1.0f; /* the kernel leaves the last diagonal element to the host */
    if (rc == WL_OK) rc = wl_check(c, gtlm_memcpy_htod(c->sim, dsym + (ns - 1) * 4, &one, 4), "gtlm_memcpy_htod");
    /* symmat[1][1] = 1 (element 0 is padding and not compared). */
    if (rc == WL_OK) rc = wl_corrupt(c, dsym + (w + 1) * 4, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dsym, ns * 4);
    if (rc == WL_OK && wl_compare_f32(c, "symmat", out, want, ns, 1.05, 0.01)) rc = WL_WRONG;
    gtlm_devptr dev[] = {dd, dmean, dstd, dsym};
    for (size_t k = 0; k < sizeof dev / sizeof dev[0]; k++) gtlm_free(c->sim, dev[k]);
    void *host[] = {data, out, want, d, sym};
    for (size_t k = 0; k < sizeof host / sizeof host[0]; k++) free(host[k]);
    return rc;
}

const wl_desc workload_polybench_corr = {
    .name = "CORR",
    .suite = "polybench",
    .description = "correlation matrix of an n x m float matrix: mean, std, reduce, triangular corr kernels",
    .kernels = "corr_mean_kernel, corr_std_kernel, corr_reduce_kernel, corr_corr_kernel",
    .ptx = workload_polybench_corr_ptx,
    .ptxas = workload_polybench_corr_ptxas,
    .params = {"m", "n"},
    .tiny = {64, 64},
    .sim = {512, 512},
    .paper = {2048, 2048},
    .run = run,
};
