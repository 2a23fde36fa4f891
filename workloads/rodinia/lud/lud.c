/* LUD driver: the original's Toeplitz input a[i][j] = 10 exp(-0.001 |i-j|) (symmetric positive
 * definite, so LU without pivoting is backward stable), the three blocked kernels per 16-wide
 * step, then L*U (unit lower L, upper U, both read from the in-place result) is compared in double
 * with the input. */
#include <math.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_rodinia_lud_ptx[], workload_rodinia_lud_ptxas[];

#define B 16

static int run(wl_ctx *c)
{
    int dim = (int)wl_param(c, "dim");
    if (dim % B || dim < 2 * B) return wl_fail(c, "dim = %d must be a multiple of %d, at least %d", dim, B, 2 * B);
    size_t n = (size_t)dim * dim, bytes = n * sizeof(float);
    float *a = malloc(bytes), *lu = malloc(bytes), *prod = malloc(bytes);
    int rc = (a && lu && prod) ? WL_OK : WL_ERROR;
    for (int i = 0; rc == WL_OK && i < dim; i++)
        for (int j = 0; j < dim; j++) a[(size_t)i * dim + j] = (float)(10.0 * exp(-0.001 * abs(i - j)));
    gtlm_devptr dm = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dm, a, bytes);
    const size_t sizes[] = {8, 4, 4};
    int off = 0;
    for (; rc == WL_OK && off < dim - B; off += B) {
        const void *args[] = {&dm, &dim, &off};
        unsigned g = (unsigned)((dim - off) / B - 1);
        rc = wl_launch(c, "lud_diagonal", 1, 1, 1, B, 1, 1, 0, args, sizes, 3);
        if (rc == WL_OK) rc = wl_launch(c, "lud_perimeter", g, 1, 1, 2 * B, 1, 1, 0, args, sizes, 3);
        if (rc == WL_OK) rc = wl_launch(c, "lud_internal", g, g, 1, B, B, 1, 0, args, sizes, 3);
    }
    const void *last[] = {&dm, &dim, &off};
    if (rc == WL_OK) rc = wl_launch(c, "lud_diagonal", 1, 1, 1, B, 1, 1, 0, last, sizes, 3);
    if (rc == WL_OK) rc = wl_corrupt(c, dm, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, lu, dm, bytes);
    if (rc == WL_OK) {
        /* (L U)[i][j] = sum_{k <= min(i,j)} L[i][k] U[k][j], L[i][i] = 1. Float LU of an SPD matrix has
         * |L U - A| <~ dim * eps_f32 * (|L||U|), with entries near 10 here. Measured maximum error:
         * 3.8e-6 (dim 256, 512) to 1.05e-5 (dim 2048) absolute, i.e. 1e-4 %; PolyBench's 0.05 % leaves
         * a wide margin and still catches any wrong tile (errors of order 1). */
        for (int i = 0; i < dim; i++)
            for (int j = 0; j < dim; j++) {
                int kmax = i < j ? i : j;
                double s = i <= j ? lu[(size_t)i * dim + j] : (double)lu[(size_t)i * dim + j] * lu[(size_t)j * dim + j];
                for (int k = 0; k < kmax; k++) s += (double)lu[(size_t)i * dim + k] * lu[(size_t)k * dim + j];
                prod[(size_t)i * dim + j] = (float)s;
            }
        if (wl_compare_f32(c, "L*U", prod, a, n, 0.05, 0.0)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, dm);
    free(a);
    free(lu);
    free(prod);
    return rc;
}

const wl_desc workload_rodinia_lud = {
    .name = "LUD",
    .suite = "rodinia",
    .description = "blocked (16) LU decomposition without pivoting of a dim x dim Toeplitz matrix: diagonal, "
                   "perimeter and internal kernels per step (dim a multiple of 16, >= 32); paper = Rodinia's "
                   "-s 256, sim = the 512.dat size",
    .kernels = "lud_diagonal, lud_perimeter, lud_internal",
    .ptx = workload_rodinia_lud_ptx,
    .ptxas = workload_rodinia_lud_ptxas,
    .params = {"dim"},
    .tiny = {64},
    .sim = {512},
    .paper = {256},
    .run = run,
};
