/* 3MM driver: E = A*B, F = C*D, G = E*F with PolyBench's initialisation, three launches,
 * PolyBench check (0.05 %) of G against a double CPU reference. Every term is non-negative, so
 * the float sums on the device stay within ~n*2^-24 relative (0.003 % at n = 512, twice over). */
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_3mm_ptx[], workload_polybench_3mm_ptxas[];

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

/* z (rows x cols) = x (rows x inner) * y (inner x cols), in double; z starts zeroed. */
static void matmul_cpu(double *z, const double *x, const double *y, int rows, int cols, int inner)
{
    for (int i = 0; i < rows; i++) {
        double *zr = z + (size_t)i * cols;
        for (int k = 0; k < inner; k++) {
            double a = x[(size_t)i * inner + k];
            const double *yr = y + (size_t)k * cols;
            for (int j = 0; j < cols; j++) zr[j] += a * yr[j];
        }
    }
}

static int run(wl_ctx *c)
{
    int ni = (int)wl_param(c, "ni"), nj = (int)wl_param(c, "nj"), nk = (int)wl_param(c, "nk"),
        nl = (int)wl_param(c, "nl"), nm = (int)wl_param(c, "nm");
    const long lim = 1L << 26;
    if (ni < 1 || nj < 1 || nk < 1 || nl < 1 || nm < 1 || (long)ni * nk > lim || (long)nk * nj > lim ||
        (long)nj * nm > lim || (long)nm * nl > lim || (long)ni * nj > lim || (long)nj * nl > lim || (long)ni * nl > lim)
        return wl_fail(c, "need positive sizes whose matrices have at most 2^26 elements");
    size_t sa = (size_t)ni * nk, sb = (size_t)nk * nj, sc = (size_t)nj * nm, sd = (size_t)nm * nl,
           se = (size_t)ni * nj, sf = (size_t)nj * nl, sg = (size_t)ni * nl;
    float *a = malloc(sa * 4), *b = malloc(sb * 4), *cm = malloc(sc * 4), *d = malloc(sd * 4), *out = malloc(sg * 4),
          *want = malloc(sg * 4);
    double *ad = malloc(sa * 8), *bd = malloc(sb * 8), *cd = malloc(sc * 8), *dd = malloc(sd * 8),
           *ed = calloc(se, 8), *fd = calloc(sf, 8), *gd = calloc(sg, 8);
    int rc = (a && b && cm && d && out && want && ad && bd && cd && dd && ed && fd && gd) ? WL_OK : WL_ERROR;
    if (rc == WL_OK) {
        fill(a, ad, ni, nk, 0, ni);
        fill(b, bd, nk, nj, 1, nj);
        fill(cm, cd, nj, nm, 3, nl);
        fill(d, dd, nm, nl, 2, nk);
        matmul_cpu(ed, ad, bd, ni, nj, nk);
        matmul_cpu(fd, cd, dd, nj, nl, nm);
        matmul_cpu(gd, ed, fd, ni, nl, nj);
        for (size_t k = 0; k < sg; k++) want[k] = (float)gd[k];
    }
    gtlm_devptr dA = 0, dB = 0, dC = 0, dD = 0, dE = 0, dF = 0, dG = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dA, a, sa * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dB, b, sb * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dC, cm, sc * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dD, d, sd * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dE, se * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dF, sf * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dG, sg * 4);
    const void *args1[] = {&dA, &dB, &dE, &ni, &nj, &nk};
    const void *args2[] = {&dC, &dD, &dF, &nj, &nl, &nm};
    const void *args3[] = {&dE, &dF, &dG, &ni, &nl, &nj};
    const size_t sizes[] = {8, 8, 8, 4, 4, 4};
    if (rc == WL_OK)
        rc = wl_launch(c, "mm3_kernel1", (unsigned)((nj + 31) / 32), (unsigned)((ni + 7) / 8), 1, 32, 8, 1, 0, args1,
                       sizes, 6);
    if (rc == WL_OK)
        rc = wl_launch(c, "mm3_kernel2", (unsigned)((nl + 31) / 32), (unsigned)((nj + 7) / 8), 1, 32, 8, 1, 0, args2,
                       sizes, 6);
    if (rc == WL_OK)
        rc = wl_launch(c, "mm3_kernel3", (unsigned)((nl + 31) / 32), (unsigned)((ni + 7) / 8), 1, 32, 8, 1, 0, args3,
                       sizes, 6);
    /* The last element is the largest (row 0 is all zeros, so element 0 would not show). */
    if (rc == WL_OK) rc = wl_corrupt(c, dG + (sg - 1) * sizeof(float), sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dG, sg * 4);
    if (rc == WL_OK && wl_compare_f32(c, "G", out, want, sg, 0.05, 0.01)) rc = WL_WRONG;
    gtlm_devptr dev[] = {dA, dB, dC, dD, dE, dF, dG};
    for (size_t k = 0; k < sizeof dev / sizeof dev[0]; k++) gtlm_free(c->sim, dev[k]);
    void *host[] = {a, b, cm, d, out, want, ad, bd, cd, dd, ed, fd, gd};
    for (size_t k = 0; k < sizeof host / sizeof host[0]; k++) free(host[k]);
    return rc;
}

const wl_desc workload_polybench_3mm = {
    .name = "3MM",
    .suite = "polybench",
    .description = "E = A*B, F = C*D, G = E*F: three GEMM-like kernels, one thread per output, blocks (32,8)",
    .kernels = "mm3_kernel1, mm3_kernel2, mm3_kernel3",
    .ptx = workload_polybench_3mm_ptx,
    .ptxas = workload_polybench_3mm_ptxas,
    .params = {"ni", "nj", "nk", "nl", "nm"},
    .tiny = {128, 128, 128, 128, 128},
    .sim = {512, 512, 512, 512, 512},
    .paper = {512, 512, 512, 512, 512},
    .run = run,
};
