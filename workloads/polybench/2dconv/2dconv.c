/* 2DCONV driver: 3x3 convolution of a random image (the original's rand()/RAND_MAX, here a
 * fixed-seed generator), one launch, PolyBench check (0.05 %) against a double CPU reference. */
#include <math.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_2dconv_ptx[], workload_polybench_2dconv_ptxas[];

/* Same weights and term order as the kernel; interior points only, the border stays 0. */
static void conv2d_cpu(const float *a, float *b, int ni, int nj)
{
    static const double w[3][3] = {{0.2, 0.5, -0.8}, {-0.3, 0.6, -0.9}, {0.4, 0.7, 0.10}}; /* [row][col] */
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++) {
            double s = 0.0;
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++) s += w[di + 1][dj + 1] * (double)a[(size_t)(i + di) * nj + j + dj];
            b[(size_t)i * nj + j] = (float)s;
        }
}

static int run(wl_ctx *c)
{
    int ni = (int)wl_param(c, "ni"), nj = (int)wl_param(c, "nj");
    if (ni < 3 || nj < 3 || (long)ni * nj > (1L << 28)) return wl_fail(c, "need ni, nj >= 3 and ni*nj <= 2^28");
    size_t n = (size_t)ni * nj, bytes = n * sizeof(float);
    float *a = malloc(bytes), *out = malloc(bytes), *want = calloc(n, sizeof(float));
    int rc = (a && out && want) ? WL_OK : WL_ERROR;
    size_t probe = (size_t)nj + 1; /* corrupt the interior point with the largest magnitude */
    if (rc == WL_OK) {
        wl_rng r;
        wl_rng_seed(&r, 0x2dc0);
        for (size_t k = 0; k < n; k++) a[k] = (float)wl_rng_unit(&r);
        conv2d_cpu(a, want, ni, nj);
        for (size_t k = 0; k < n; k++)
            if (fabsf(want[k]) > fabsf(want[probe])) probe = k;
    }
    gtlm_devptr da = 0, db = 0;
    if (rc == WL_OK) rc = wl_upload(c, &da, a, bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &db, bytes);
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, db, 0, bytes), "gtlm_memset"); /* B's border */
    const void *args[] = {&da, &db, &ni, &nj};
    const size_t sizes[] = {8, 8, 4, 4};
    if (rc == WL_OK)
        rc = wl_launch(c, "conv2d_kernel", (unsigned)((nj + 31) / 32), (unsigned)((ni + 7) / 8), 1, 32, 8, 1, 0, args,
                       sizes, 4);
    if (rc == WL_OK) rc = wl_corrupt(c, db + probe * sizeof(float), sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, db, bytes);
    if (rc == WL_OK && wl_compare_f32(c, "B", out, want, n, 0.05, 0.01)) rc = WL_WRONG;
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, db);
    free(a);
    free(out);
    free(want);
    return rc;
}

const wl_desc workload_polybench_2dconv = {
    .name = "2DCONV",
    .suite = "polybench",
    .description = "3x3 convolution of an ni x nj float image, one thread per point, blocks (32,8)",
    .kernels = "conv2d_kernel",
    .ptx = workload_polybench_2dconv_ptx,
    .ptxas = workload_polybench_2dconv_ptxas,
    .params = {"ni", "nj"},
    .tiny = {256, 256},
    .sim = {2048, 2048},
    .paper = {4096, 4096},
    .doc = {64, 64},
    .doc_source = "PAVER (thesis Sec. 4.3.2): Convolution2D on a grid of 2 x 8 CTAs of 32 x 8 (64 x 64)",
    .run = run,
};
