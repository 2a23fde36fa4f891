/* MVT driver (PolyBench/GPU): x1 = x1 + A*y1, then x2 = x2 + A^T*y2, with random inputs in
 * PolyBench's value ranges; both results checked against a CPU reference with PolyBench's rule
 * (0.05 %, pairs below 0.01 skipped). */
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_mvt_ptx[], workload_polybench_mvt_ptxas[];

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "n");
    size_t nn = (size_t)n * n, vb = (size_t)n * sizeof(float);
    float *a = malloc(nn * sizeof *a), *v = malloc(8 * vb);
    if (!a || !v) {
        free(a);
        free(v);
        return WL_ERROR;
    }
    int rc = WL_OK;
    float *x1 = v, *x2 = v + n, *y1 = v + 2 * (size_t)n, *y2 = v + 3 * (size_t)n;
    float *o1 = v + 4 * (size_t)n, *o2 = v + 5 * (size_t)n, *w1 = v + 6 * (size_t)n, *w2 = v + 7 * (size_t)n;
    /* PolyBench sets x1 = i/n, x2 = (i+1)/n, y1 = (i+3)/n, y2 = (i+4)/n, A = (i*j)/n. We draw the
     * vectors from [0, 1) and A from [0, n): the formula's symmetric A would make both products the
     * same computation (a swapped index would go unnoticed) and its zero row 0 would hide a corrupted
     * x1[0]. Values do not change the memory behaviour. */
    wl_rng r;
    wl_rng_seed(&r, 0x3717);
    wl_fill_f32(&r, a, nn, n);
    wl_fill_f32(&r, v, 4 * (size_t)n, 1.0);
    gtlm_devptr da = 0, dx1in = 0, dx2in = 0, dx1 = 0, dx2 = 0, dy1 = 0, dy2 = 0;
    rc = wl_upload(c, &da, a, nn * sizeof *a);
    if (rc == WL_OK) rc = wl_upload(c, &dx1in, x1, vb);
    if (rc == WL_OK) rc = wl_upload(c, &dx2in, x2, vb);
    if (rc == WL_OK) rc = wl_upload(c, &dy1, y1, vb);
    if (rc == WL_OK) rc = wl_upload(c, &dy2, y2, vb);
    if (rc == WL_OK) rc = wl_alloc(c, &dx1, vb);
    if (rc == WL_OK) rc = wl_alloc(c, &dx2, vb);
    /* Both kernels: block (32,8) with an x-only index, grid (ceil(n/32),1): 8 redundant warps per CTA. */
    const void *args1[] = {&n, &da, &dx1in, &dx1, &dy1}, *args2[] = {&n, &da, &dx2in, &dx2, &dy2};
    const size_t sizes[] = {4, 8, 8, 8, 8};
    unsigned g = (unsigned)(n + 31) / 32;
    if (rc == WL_OK) rc = wl_launch(c, "mvt_kernel1", g, 1, 1, 32, 8, 1, 0, args1, sizes, 5);
    if (rc == WL_OK) rc = wl_launch(c, "mvt_kernel2", g, 1, 1, 32, 8, 1, 0, args2, sizes, 5);
    if (rc == WL_OK) rc = wl_corrupt(c, dx1, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, o1, dx1, vb);
    if (rc == WL_OK) rc = wl_download(c, o2, dx2, vb);
    if (rc == WL_OK) {
        for (size_t i = 0; i < (size_t)n; i++) {
            float s1 = x1[i], s2 = x2[i];
            for (size_t j = 0; j < (size_t)n; j++) {
                s1 += a[i * n + j] * y1[j];
                s2 += a[j * n + i] * y2[j];
            }
            w1[i] = s1;
            w2[i] = s2;
        }
        if (wl_compare_f32(c, "x1", o1, w1, (size_t)n, 0.05, 0.01)) rc = WL_WRONG;
        if (wl_compare_f32(c, "x2", o2, w2, (size_t)n, 0.05, 0.01)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, dx1in);
    gtlm_free(c->sim, dx2in);
    gtlm_free(c->sim, dx1);
    gtlm_free(c->sim, dx2);
    gtlm_free(c->sim, dy1);
    gtlm_free(c->sim, dy2);
    free(a);
    free(v);
    return rc;
}

const wl_desc workload_polybench_mvt = {
    .name = "MVT",
    .suite = "polybench",
    .description = "x1 += A*y1 (row per thread, uncoalesced) and x2 += A^T*y2 (column per thread, coalesced), block (32,8) with an x-only index: 8 redundant warps per CTA",
    .kernels = "mvt_kernel1, mvt_kernel2",
    .ptx = workload_polybench_mvt_ptx,
    .ptxas = workload_polybench_mvt_ptxas,
    .params = {"n"},
    .tiny = {256},
    .sim = {2048},
    .paper = {4096},
    .run = run,
};
