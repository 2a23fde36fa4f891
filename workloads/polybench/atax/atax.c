/* ATAX driver: y = A^T (A x) with PolyBench's initialisation (x[j] = j*pi, A[i][j] = i*j/nx),
 * two launches with the original's redundant (32,8) blocks, PolyBench check (0.5 %) of y
 * against a double CPU reference (all terms non-negative: float sums stay within ~n*2^-24). */
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_atax_ptx[], workload_polybench_atax_ptxas[];

#define PI 3.14159f

static int run(wl_ctx *c)
{
    int nx = (int)wl_param(c, "nx"), ny = (int)wl_param(c, "ny");
    if (nx < 1 || ny < 1 || (long)nx * ny > (1L << 28)) return wl_fail(c, "need nx, ny >= 1 and nx*ny <= 2^28");
    size_t na = (size_t)nx * ny;
    float *a = malloc(na * 4), *x = malloc((size_t)ny * 4), *out = malloc((size_t)ny * 4), *want = malloc((size_t)ny * 4);
    double *tmp = calloc((size_t)nx, 8), *y = calloc((size_t)ny, 8);
    int rc = (a && x && out && want && tmp && y) ? WL_OK : WL_ERROR;
    for (int j = 0; rc == WL_OK && j < ny; j++) x[j] = (float)j * PI;
    for (int i = 0; rc == WL_OK && i < nx; i++)
        for (int j = 0; j < ny; j++) a[(size_t)i * ny + j] = ((float)i * (float)j) / (float)nx;
    if (rc == WL_OK) {
        for (int i = 0; i < nx; i++) {
            const float *row = a + (size_t)i * ny;
            for (int j = 0; j < ny; j++) tmp[i] += (double)row[j] * x[j];
            for (int j = 0; j < ny; j++) y[j] += (double)row[j] * tmp[i];
        }
        for (int j = 0; j < ny; j++) want[j] = (float)y[j];
    }
    gtlm_devptr dA = 0, dx = 0, dtmp = 0, dy = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dA, a, na * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dx, x, (size_t)ny * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dtmp, (size_t)nx * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dy, (size_t)ny * 4);
    const void *args1[] = {&dA, &dx, &dtmp, &nx, &ny};
    const void *args2[] = {&dA, &dtmp, &dy, &nx, &ny};
    const size_t sizes[] = {8, 8, 8, 4, 4};
    /* Blocks (32,8): the kernels index with x only, so each CTA's 8 warps repeat the same work. */
    if (rc == WL_OK) rc = wl_launch(c, "atax_kernel1", (unsigned)((nx + 31) / 32), 1, 1, 32, 8, 1, 0, args1, sizes, 5);
    if (rc == WL_OK) rc = wl_launch(c, "atax_kernel2", (unsigned)((ny + 31) / 32), 1, 1, 32, 8, 1, 0, args2, sizes, 5);
    /* The last element is the largest (y[0] is 0, so element 0 would not show). */
    if (rc == WL_OK) rc = wl_corrupt(c, dy + (size_t)(ny - 1) * 4, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dy, (size_t)ny * 4);
    if (rc == WL_OK && wl_compare_f32(c, "y", out, want, (size_t)ny, 0.5, 0.01)) rc = WL_WRONG;
    gtlm_devptr dev[] = {dA, dx, dtmp, dy};
    for (size_t k = 0; k < sizeof dev / sizeof dev[0]; k++) gtlm_free(c->sim, dev[k]);
    void *host[] = {a, x, out, want, tmp, y};
    for (size_t k = 0; k < sizeof host / sizeof host[0]; k++) free(host[k]);
    return rc;
}

const wl_desc workload_polybench_atax = {
    .name = "ATAX",
    .suite = "polybench",
    .description = "y = A^T (A x): row-per-thread then column-per-thread kernels, blocks (32,8) with 8 redundant warps",
    .kernels = "atax_kernel1, atax_kernel2",
    .ptx = workload_polybench_atax_ptx,
    .ptxas = workload_polybench_atax_ptxas,
    .params = {"nx", "ny"},
    .tiny = {256, 256},
    .sim = {2048, 2048},
    .paper = {4096, 4096},
    .run = run,
};
