/* Gaussian driver (Rodinia GA): the "-s Size" input (Toeplitz a[i][j] = 10 exp(-0.01 |i-j|),
 * b = 1), 2(Size-1) launches, back substitution on the host as the original does; the reduced
 * matrix, b and the solution are compared with a CPU elimination in the same order. */
#include <math.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_rodinia_gaussian_ptx[], workload_rodinia_gaussian_ptxas[];

static void back_substitute(const float *a, const float *b, float *x, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        float s = b[i];
        for (int j = i + 1; j < n; j++) s -= a[(size_t)i * n + j] * x[j];
        x[i] = s / a[(size_t)i * n + i];
    }
}

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "size");
    if (n < 2) return wl_fail(c, "size must be at least 2");
    size_t nn = (size_t)n * n;
    float *a = malloc(nn * 4), *ra = malloc(nn * 4), *m = calloc(nn, 4), *rm = calloc(nn, 4);
    float *b = malloc((size_t)n * 4), *rb = malloc((size_t)n * 4), *x = malloc((size_t)n * 4), *rx = malloc((size_t)n * 4);
    int rc = (a && ra && m && rm && b && rb && x && rx) ? WL_OK : WL_ERROR;
    for (int i = 0; rc == WL_OK && i < n; i++) {
        for (int j = 0; j < n; j++) a[(size_t)i * n + j] = ra[(size_t)i * n + j] = (float)(10.0 * exp(-0.01 * abs(i - j)));
        b[i] = rb[i] = 1.0f;
    }
    gtlm_devptr d_a = 0, d_b = 0, d_m = 0;
    if (rc == WL_OK) rc = wl_upload(c, &d_a, a, nn * 4);
    if (rc == WL_OK) rc = wl_upload(c, &d_b, b, (size_t)n * 4);
    if (rc == WL_OK) rc = wl_upload(c, &d_m, m, nn * 4);
    unsigned g1 = (unsigned)((n + 511) / 512), g2 = (unsigned)((n + 3) / 4);
    for (int t = 0; rc == WL_OK && t < n - 1; t++) {
        const void *a1[] = {&d_m, &d_a, &n, &t};
        const size_t s1[] = {8, 8, 4, 4};
        const void *a2[] = {&d_m, &d_a, &d_b, &n, &t};
        const size_t s2[] = {8, 8, 8, 4, 4};
        rc = wl_launch(c, "gauss_fan1", g1, 1, 1, 512, 1, 1, 0, a1, s1, 4);
        if (rc == WL_OK) rc = wl_launch(c, "gauss_fan2", g2, g2, 1, 4, 4, 1, 0, a2, s2, 5);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, d_a, 4);
    if (rc == WL_OK) rc = wl_download(c, a, d_a, nn * 4);
    if (rc == WL_OK) rc = wl_download(c, b, d_b, (size_t)n * 4);
    if (rc == WL_OK) {
        /* The same float operations in the same order as the kernels (division, then one
         * multiply and one subtract per element), so results agree to rounding; the tolerance
         * only covers an executor that rounds a product differently. */
        for (int t = 0; t < n - 1; t++) {
            for (int r = t + 1; r < n; r++) rm[(size_t)r * n + t] = ra[(size_t)r * n + t] / ra[(size_t)t * n + t];
            for (int r = t + 1; r < n; r++) {
                float f = rm[(size_t)r * n + t];
                for (int y = t; y < n; y++) ra[(size_t)r * n + y] -= f * ra[(size_t)t * n + y];
                rb[r] -= f * rb[t];
            }
        }
        back_substitute(a, b, x, n);
        back_substitute(ra, rb, rx, n);
        if (wl_compare_f32(c, "a", a, ra, nn, 1e-3, 1e-4)) rc = WL_WRONG;
        if (wl_compare_f32(c, "b", b, rb, (size_t)n, 1e-3, 1e-6)) rc = WL_WRONG;
        if (wl_compare_f32(c, "x", x, rx, (size_t)n, 1e-3, 1e-6)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, d_a);
    gtlm_free(c->sim, d_b);
    gtlm_free(c->sim, d_m);
    free(a);
    free(ra);
    free(m);
    free(rm);
    free(b);
    free(rb);
    free(x);
    free(rx);
    return rc;
}

const wl_desc workload_rodinia_gaussian = {
    .name = "Gaussian",
    .suite = "rodinia",
    .description = "Gaussian elimination without pivoting (Fan1 multipliers, Fan2 row updates) on a Size x Size Toeplitz system",
    .kernels = "gauss_fan1, gauss_fan2",
    .ptx = workload_rodinia_gaussian_ptx,
    .ptxas = workload_rodinia_gaussian_ptxas,
    .params = {"size"},
    .tiny = {64},
    .sim = {256},
    .paper = {256},
    .run = run,
};
