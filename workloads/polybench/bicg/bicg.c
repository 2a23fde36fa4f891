/* BICG driver: s = A^T r and q = A p with PolyBench's initialisation (r[i] = i*pi, p[j] = j*pi,
 * A[i][j] = i*j/nx), two launches of 256-thread blocks, PolyBench check (0.5 %) of s and q
 * against a double CPU reference (all terms non-negative: float sums stay within ~n*2^-24). */
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_bicg_ptx[], workload_polybench_bicg_ptxas[];

#define PI 3.14159f

static int run(wl_ctx *c)
{
    int nx = (int)wl_param(c, "nx"), ny = (int)wl_param(c, "ny");
    if (nx < 1 || ny < 1 || (long)nx * ny > (1L << 28)) return wl_fail(c, "need nx, ny >= 1 and nx*ny <= 2^28");
    size_t na = (size_t)nx * ny, bx = (size_t)nx * 4, by = (size_t)ny * 4;
    float *a = malloc(na * 4), *r = malloc(bx), *p = malloc(by), *s = malloc(by), *q = malloc(bx),
          *want_s = malloc(by), *want_q = malloc(bx);
    double *sd = calloc((size_t)ny, 8);
    int rc = (a && r && p && s && q && want_s && want_q && sd) ? WL_OK : WL_ERROR;
    for (int i = 0; rc == WL_OK && i < nx; i++) r[i] = (float)i * PI;
    for (int j = 0; rc == WL_OK && j < ny; j++) p[j] = (float)j * PI;
    for (int i = 0; rc == WL_OK && i < nx; i++)
        for (int j = 0; j < ny; j++) a[(size_t)i * ny + j] = ((float)i * (float)j) / (float)nx;
    if (rc == WL_OK) {
        for (int i = 0; i < nx; i++) {
            const float *row = a + (size_t)i * ny;
            double qi = 0.0;
            for (int j = 0; j < ny; j++) {
                sd[j] += (double)r[i] * row[j];
                qi += (double)row[j] * p[j];
            }
            want_q[i] = (float)qi;
        }
        for (int j = 0; j < ny; j++) want_s[j] = (float)sd[j];
    }
    gtlm_devptr dA = 0, dr = 0, dp = 0, ds = 0, dq = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dA, a, na * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dr, r, bx);
    if (rc == WL_OK) rc = wl_upload(c, &dp, p, by);
    if (rc == WL_OK) rc = wl_alloc(c, &ds, by);
    if (rc == WL_OK) rc = wl_alloc(c, &dq, bx);
    const void *args1[] = {&dA, &dr, &ds, &nx, &ny};
    const void *args2[] = {&dA, &dp, &dq, &nx, &ny};
    const size_t sizes[] = {8, 8, 8, 4, 4};
    if (rc == WL_OK) rc = wl_launch(c, "bicg_kernel1", (unsigned)((ny + 255) / 256), 1, 1, 256, 1, 1, 0, args1, sizes, 5);
    if (rc == WL_OK) rc = wl_launch(c, "bicg_kernel2", (unsigned)((nx + 255) / 256), 1, 1, 256, 1, 1, 0, args2, sizes, 5);
    /* The last element is the largest (q[0] is 0, so element 0 would not show). */
    if (rc == WL_OK) rc = wl_corrupt(c, dq + (size_t)(nx - 1) * 4, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, q, dq, bx);
    if (rc == WL_OK) rc = wl_download(c, s, ds, by);
    if (rc == WL_OK) {
        long bad = wl_compare_f32(c, "s", s, want_s, (size_t)ny, 0.5, 0.01);
        bad += wl_compare_f32(c, "q", q, want_q, (size_t)nx, 0.5, 0.01);
        if (bad) rc = WL_WRONG;
    }
    gtlm_devptr dev[] = {dA, dr, dp, ds, dq};
    for (size_t k = 0; k < sizeof dev / sizeof dev[0]; k++) gtlm_free(c->sim, dev[k]);
    void *host[] = {a, r, p, s, q, want_s, want_q, sd};
    for (size_t k = 0; k < sizeof host / sizeof host[0]; k++) free(host[k]);
    return rc;
}

const wl_desc workload_polybench_bicg = {
    .name = "BICG",
    .suite = "polybench",
    .description = "s = A^T r (column per thread) and q = A p (row per thread), blocks of 256",
    .kernels = "bicg_kernel1, bicg_kernel2",
    .ptx = workload_polybench_bicg_ptx,
    .ptxas = workload_polybench_bicg_ptxas,
    .params = {"nx", "ny"},
    .tiny = {256, 256},
    .sim = {4096, 4096},
    .paper = {4096, 4096},
    .doc = {4096, 4096},
    .doc_source = "Linebacker (Sec. 2.1: inputs enlarged until every SM has work): PolyBench default 4096 x 4096, "
                  "16 CTAs per kernel, one per SM of the 16-SM GPU",
    .run = run,
};
