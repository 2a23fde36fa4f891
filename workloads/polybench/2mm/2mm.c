/* 2MM driver: tmp = alpha*A*B, D = beta*D + tmp*C with PolyBench's initialisation, two
 * launches, PolyBench check (0.05 %) of D against a double CPU reference. Every term is
 * non-negative, so the float sums on the device stay within ~n*2^-24 (0.006 % at n = 1024). */
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_2mm_ptx[], workload_polybench_2mm_ptxas[];

#define ALPHA 32412.0f
#define BETA 2123.0f

/* x[r][c] = (r * (c + off)) / div, as PolyBench initialises its matrices; also a double copy. */
static void fill(float *x, double *xd, int rows, int cols, int off, int div)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            size_t k = (size_t)r * cols + c;
            x[k] = ((float)r * (float)(c + off)) / (float)div;
            xd[k] = x[k];
        }
}

/* z (rows x cols) = zscale * z + scale * x (rows x inner) * y (inner x cols), in double. */
static void gemm_cpu(double *z, double zscale, double scale, const double *x, const double *y, int rows, int cols,
                     int inner)
{
    for (int i = 0; i < rows; i++) {
        double *zr = z + (size_t)i * cols;
        for (int j = 0; j < cols; j++) zr[j] *= zscale;
        for (int k = 0; k < inner; k++) {
            double a = scale * x[(size_t)i * inner + k];
            const double *yr = y + (size_t)k * cols;
            for (int j = 0; j < cols; j++) zr[j] += a * yr[j];
        }
    }
}

static int run(wl_ctx *c)
{
    int ni = (int)wl_param(c, "ni"), nj = (int)wl_param(c, "nj"), nk = (int)wl_param(c, "nk"),
        nl = (int)wl_param(c, "nl");
    const long lim = 1L << 26;
    if (ni < 1 || nj < 1 || nk < 1 || nl < 1 || (long)ni * nk > lim || (long)nk * nj > lim || (long)ni * nj > lim ||
        (long)nj * nl > lim || (long)ni * nl > lim)
        return wl_fail(c, "need positive sizes whose matrices have at most 2^26 elements");
    size_t sa = (size_t)ni * nk, sb = (size_t)nk * nj, st = (size_t)ni * nj, sc = (size_t)nj * nl,
           sd = (size_t)ni * nl;
    float *a = malloc(sa * 4), *b = malloc(sb * 4), *cm = malloc(sc * 4), *d = malloc(sd * 4), *out = malloc(sd * 4),
          *want = malloc(sd * 4);
    double *ad = malloc(sa * 8), *bd = malloc(sb * 8), *td = calloc(st, 8), *cd = malloc(sc * 8), *dd = malloc(sd * 8);
    int rc = (a && b && cm && d && out && want && ad && bd && td && cd && dd) ? WL_OK : WL_ERROR;
    if (rc == WL_OK) {
        fill(a, ad, ni, nk, 0, ni);
        fill(b, bd, nk, nj, 1, nj);
        fill(cm, cd, nj, nl, 3, nl);
        fill(d, dd, ni, nl, 2, nk);
        gemm_cpu(td, 0.0, ALPHA, ad, bd, ni, nj, nk);
        gemm_cpu(dd, BETA, 1.0, td, cd, ni, nl, nj);
        for (size_t k = 0; k < sd; k++) want[k] = (float)dd[k];
    }
    gtlm_devptr dA = 0, dB = 0, dT = 0, dC = 0, dD = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dA, a, sa * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dB, b, sb * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dT, st * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dC, cm, sc * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dD, d, sd * 4);
    float alpha = ALPHA, beta = BETA;
    const void *args1[] = {&dA, &dB, &dT, &alpha, &ni, &nj, &nk};
    const void *args2[] = {&dT, &dC, &dD, &beta, &ni, &nl, &nj};
    const size_t sizes[] = {8, 8, 8, 4, 4, 4, 4};
    if (rc == WL_OK)
        rc = wl_launch(c, "mm2_kernel1", (unsigned)((nj + 31) / 32), (unsigned)((ni + 7) / 8), 1, 32, 8, 1, 0, args1,
                       sizes, 7);
    if (rc == WL_OK)
        rc = wl_launch(c, "mm2_kernel2", (unsigned)((nl + 31) / 32), (unsigned)((ni + 7) / 8), 1, 32, 8, 1, 0, args2,
                       sizes, 7);
    /* The last element is the largest (row 0 is all zeros, so element 0 would not show). */
    if (rc == WL_OK) rc = wl_corrupt(c, dD + (sd - 1) * sizeof(float), sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dD, sd * 4);
    if (rc == WL_OK && wl_compare_f32(c, "D", out, want, sd, 0.05, 0.01)) rc = WL_WRONG;
    gtlm_devptr dev[] = {dA, dB, dT, dC, dD};
    for (size_t k = 0; k < sizeof dev / sizeof dev[0]; k++) gtlm_free(c->sim, dev[k]);
    void *host[] = {a, b, cm, d, out, want, ad, bd, td, cd, dd};
    for (size_t k = 0; k < sizeof host / sizeof host[0]; k++) free(host[k]);
    return rc;
}

const wl_desc workload_polybench_2mm = {
    .name = "2MM",
    .suite = "polybench",
    .description = "tmp = alpha*A*B, D = beta*D + tmp*C: two GEMM-like kernels, one thread per output, blocks (32,8)",
    .kernels = "mm2_kernel1, mm2_kernel2",
    .ptx = workload_polybench_2mm_ptx,
    .ptxas = workload_polybench_2mm_ptxas,
    .params = {"ni", "nj", "nk", "nl"},
    .tiny = {128, 128, 128, 128},
    .sim = {512, 512, 512, 512},
    .paper = {1024, 1024, 1024, 1024},
    .doc = {256, 256, 256, 256},
    .doc_source = "PAVER (thesis Sec. 4.3.2): 2MM at N = 256, grid 8 x 32 of 32 x 8",
    .run = run,
};
