/* FDTD-2D driver (PolyBench/GPU): tmax time steps of three kernels each on nx x ny fields with
 * PolyBench's initial values; hz, ex and ey checked against a CPU reference with PolyBench's
 * FDTD-2D threshold (10.05 %, pairs below 0.01 skipped). */
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_fdtd2d_ptx[], workload_polybench_fdtd2d_ptxas[];

/* One time step on the host, in the kernels' order. */
static void step(int nx, int ny, float f, float *ex, float *ey, float *hz)
{
    for (size_t j = 0; j < (size_t)ny; j++) ey[j] = f;
    for (size_t i = 1; i < (size_t)nx; i++)
        for (size_t j = 0; j < (size_t)ny; j++)
            ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
    for (size_t i = 0; i < (size_t)nx; i++)
        for (size_t j = 1; j < (size_t)ny; j++)
            ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
    for (size_t i = 0; i + 1 < (size_t)nx; i++)
        for (size_t j = 0; j + 1 < (size_t)ny; j++)
            hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] -
                                                       ey[i * ny + j]);
}

static int run(wl_ctx *c)
{
    int nx = (int)wl_param(c, "nx"), ny = (int)wl_param(c, "ny"), tmax = (int)wl_param(c, "tmax");
    size_t n = (size_t)nx * ny, fb = n * sizeof(float);
    float *f = malloc(6 * fb), *fict = malloc((size_t)tmax * sizeof *fict);
    if (!f || !fict) {
        free(f);
        free(fict);
        return WL_ERROR;
    }
    int rc = WL_OK;
    float *ex = f, *ey = f + n, *hz = f + 2 * n, *oex = f + 3 * n, *oey = f + 4 * n, *ohz = f + 5 * n;
    /* PolyBench's initial values: smooth, asymmetric in i and j, nonzero at [0][0]. */
    for (int t = 0; t < tmax; t++) fict[t] = (float)t;
    for (size_t i = 0; i < (size_t)nx; i++)
        for (size_t j = 0; j < (size_t)ny; j++) {
            double di = (double)i, dj = (double)j;
            ex[i * ny + j] = (float)((di * (dj + 1) + 1) / nx);
            ey[i * ny + j] = (float)(((di - 1) * (dj + 2) + 2) / nx);
            hz[i * ny + j] = (float)(((di - 9) * (dj + 4) + 3) / nx);
        }
    gtlm_devptr dfict = 0, dex = 0, dey = 0, dhz = 0;
    rc = wl_upload(c, &dfict, fict, (size_t)tmax * sizeof *fict);
    if (rc == WL_OK) rc = wl_upload(c, &dex, ex, fb);
    if (rc == WL_OK) rc = wl_upload(c, &dey, ey, fb);
    if (rc == WL_OK) rc = wl_upload(c, &dhz, hz, fb);
    unsigned gx = (unsigned)(ny + 31) / 32, gy = (unsigned)(nx + 7) / 8;
    const size_t s1[] = {4, 4, 8, 8, 8, 4}, s2[] = {4, 4, 8, 8}, s3[] = {4, 4, 8, 8, 8};
    for (int t = 0; rc == WL_OK && t < tmax; t++) {
        const void *a1[] = {&nx, &ny, &dfict, &dey, &dhz, &t}, *a2[] = {&nx, &ny, &dex, &dhz},
                   *a3[] = {&nx, &ny, &dex, &dey, &dhz};
        rc = wl_launch(c, "fdtd_step1", gx, gy, 1, 32, 8, 1, 0, a1, s1, 6);
        if (rc == WL_OK) rc = wl_launch(c, "fdtd_step2", gx, gy, 1, 32, 8, 1, 0, a2, s2, 4);
        if (rc == WL_OK) rc = wl_launch(c, "fdtd_step3", gx, gy, 1, 32, 8, 1, 0, a3, s3, 5);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dhz, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, ohz, dhz, fb);
    if (rc == WL_OK) rc = wl_download(c, oex, dex, fb);
    if (rc == WL_OK) rc = wl_download(c, oey, dey, fb);
    if (rc == WL_OK) {
        for (int t = 0; t < tmax; t++) step(nx, ny, fict[t], ex, ey, hz);
        if (wl_compare_f32(c, "hz", ohz, hz, n, 10.05, 0.01)) rc = WL_WRONG;
        if (wl_compare_f32(c, "ex", oex, ex, n, 10.05, 0.01)) rc = WL_WRONG;
        if (wl_compare_f32(c, "ey", oey, ey, n, 10.05, 0.01)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, dfict);
    gtlm_free(c->sim, dex);
    gtlm_free(c->sim, dey);
    gtlm_free(c->sim, dhz);
    free(f);
    free(fict);
    return rc;
}

const wl_desc workload_polybench_fdtd2d = {
    .name = "FDTD-2D",
    .suite = "polybench",
    .description = "2-D FDTD on nx x ny fields for tmax steps, 3 stencil kernels per step (block (32,8), coalesced rows)",
    .kernels = "fdtd_step1, fdtd_step2, fdtd_step3",
    .ptx = workload_polybench_fdtd2d_ptx,
    .ptxas = workload_polybench_fdtd2d_ptxas,
    .params = {"nx", "ny", "tmax"},
    .tiny = {128, 128, 8},
    .sim = {1024, 1024, 10},
    .paper = {2048, 2048, 500},
    .run = run,
};
