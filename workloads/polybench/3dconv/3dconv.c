/* 3DCONV driver: 15-term 3-D stencil on A = i%12 + 2(j%7) + 3(k%13), one launch per interior
 * plane (ni-2 launches), PolyBench check (0.5 %) against a CPU reference. The inputs and the
 * integer weights keep every sum an integer below 2^24, so the result is in fact exact. */
#include <math.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_3dconv_ptx[], workload_polybench_3dconv_ptxas[];

static void conv3d_cpu(const float *a, float *b, int ni, int nj, int nk)
{
    const double c11 = 2, c21 = 5, c31 = -8, c12 = -3, c22 = 6, c32 = -9, c13 = 4, c23 = 7, c33 = 10;
    size_t pl = (size_t)nj * nk;
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++)
            for (int k = 1; k < nk - 1; k++) {
                size_t o = i * pl + (size_t)j * nk + k, lo = o - pl, hi = o + pl;
                double s = (c11 + c21 + c31) * a[lo - nk - 1] + (c13 + c23 + c33) * a[hi - nk - 1] +
                           c12 * a[o - nk] + c22 * a[o] + c32 * a[o + nk] + c11 * a[lo - nk + 1] +
                           c13 * a[hi - nk + 1] + c21 * a[lo + 1] + c23 * a[hi + 1] + c31 * a[lo + nk + 1] +
                           c33 * a[hi + nk + 1];
                b[o] = (float)s;
            }
}

static int run(wl_ctx *c)
{
    int ni = (int)wl_param(c, "ni"), nj = (int)wl_param(c, "nj"), nk = (int)wl_param(c, "nk");
    if (ni < 3 || nj < 3 || nk < 3 || (long)ni * nj * nk > (1L << 28))
        return wl_fail(c, "need ni, nj, nk >= 3 and ni*nj*nk <= 2^28");
    size_t n = (size_t)ni * nj * nk, bytes = n * sizeof(float);
    float *a = malloc(bytes), *out = malloc(bytes), *want = calloc(n, sizeof(float));
    int rc = (a && out && want) ? WL_OK : WL_ERROR;
    size_t probe = 0; /* corrupt the point with the largest magnitude */
    if (rc == WL_OK) {
        for (int i = 0; i < ni; i++)
            for (int j = 0; j < nj; j++)
                for (int k = 0; k < nk; k++)
                    a[((size_t)i * nj + j) * nk + k] = (float)(i % 12 + 2 * (j % 7) + 3 * (k % 13));
        conv3d_cpu(a, want, ni, nj, nk);
        for (size_t k = 0; k < n; k++)
            if (fabsf(want[k]) > fabsf(want[probe])) probe = k;
    }
    gtlm_devptr da = 0, db = 0;
    if (rc == WL_OK) rc = wl_upload(c, &da, a, bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &db, bytes);
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, db, 0, bytes), "gtlm_memset"); /* B's border */
    int i = 0;
    const void *args[] = {&da, &db, &ni, &nj, &nk, &i};
    const size_t sizes[] = {8, 8, 4, 4, 4, 4};
    for (i = 1; rc == WL_OK && i < ni - 1; i++)
        rc = wl_launch(c, "conv3d_kernel", (unsigned)((nk + 31) / 32), (unsigned)((nj + 7) / 8), 1, 32, 8, 1, 0, args,
                       sizes, 6);
    if (rc == WL_OK) rc = wl_corrupt(c, db + probe * sizeof(float), sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, db, bytes);
    if (rc == WL_OK && wl_compare_f32(c, "B", out, want, n, 0.5, 0.01)) rc = WL_WRONG;
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, db);
    free(a);
    free(out);
    free(want);
    return rc;
}

const wl_desc workload_polybench_3dconv = {
    .name = "3DCONV",
    .suite = "polybench",
    .description = "15-term 3-D stencil on an ni x nj x nk float grid, one launch per interior i plane, blocks (32,8)",
    .kernels = "conv3d_kernel",
    .ptx = workload_polybench_3dconv_ptx,
    .ptxas = workload_polybench_3dconv_ptxas,
    .params = {"ni", "nj", "nk"},
    .tiny = {64, 64, 64},
    .sim = {128, 128, 128},
    .paper = {256, 256, 256},
    .run = run,
};
