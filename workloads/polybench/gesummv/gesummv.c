/* GESUMMV driver (PolyBench/GPU): y = alpha*A*x + beta*B*x with random inputs in PolyBench's
 * value range, one launch, checked against a CPU reference with PolyBench's rule (0.05 %, pairs
 * below 0.01 skipped). */
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_gesummv_ptx[], workload_polybench_gesummv_ptxas[];

#define ALPHA 43532.0f
#define BETA 12313.0f

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "n");
    size_t nn = (size_t)n * n;
    float *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b), *x = malloc((size_t)n * sizeof *x);
    float *want = malloc((size_t)n * sizeof *want), *out = malloc((size_t)n * sizeof *out);
    int rc = (a && b && x && want && out) ? WL_OK : WL_ERROR;
    /* PolyBench sets x = i/n and A = B = (i*j)/n. We draw x from [0, 1) and A, B from [0, n): with
     * A == B a swapped matrix would go unnoticed, and the formula's zero row 0 would hide a
     * corrupted y[0]. Values do not change the memory behaviour. */
    wl_rng r;
    wl_rng_seed(&r, 0x6e5a);
    if (rc == WL_OK) wl_fill_f32(&r, a, nn, n);
    if (rc == WL_OK) wl_fill_f32(&r, b, nn, n);
    if (rc == WL_OK) wl_fill_f32(&r, x, (size_t)n, 1.0);
    gtlm_devptr da = 0, db = 0, dx = 0, dy = 0, dtmp = 0;
    if (rc == WL_OK) rc = wl_upload(c, &da, a, nn * sizeof *a);
    if (rc == WL_OK) rc = wl_upload(c, &db, b, nn * sizeof *b);
    if (rc == WL_OK) rc = wl_upload(c, &dx, x, (size_t)n * sizeof *x);
    if (rc == WL_OK) rc = wl_alloc(c, &dy, (size_t)n * sizeof(float));
    if (rc == WL_OK) rc = wl_alloc(c, &dtmp, (size_t)n * sizeof(float));
    /* The original accumulates into uninitialised buffers; we zero them. */
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, dy, 0, (size_t)n * sizeof(float)), "gtlm_memset");
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, dtmp, 0, (size_t)n * sizeof(float)), "gtlm_memset");
    float alpha = ALPHA, beta = BETA;
    const void *args[] = {&n, &alpha, &beta, &da, &db, &dx, &dy, &dtmp};
    const size_t sizes[] = {4, 4, 4, 8, 8, 8, 8, 8};
    if (rc == WL_OK) rc = wl_launch(c, "gesummv_kernel", (unsigned)(n + 255) / 256, 1, 1, 256, 1, 1, 0, args, sizes, 8);
    if (rc == WL_OK) rc = wl_corrupt(c, dy, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dy, (size_t)n * sizeof *out);
    if (rc == WL_OK) {
        for (size_t i = 0; i < (size_t)n; i++) {
            float t = 0.0f, s = 0.0f;
            for (size_t j = 0; j < (size_t)n; j++) {
                t += a[i * n + j] * x[j];
                s += b[i * n + j] * x[j];
            }
            want[i] = ALPHA * t + BETA * s;
        }
        if (wl_compare_f32(c, "y", out, want, (size_t)n, 0.05, 0.01)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, db);
    gtlm_free(c->sim, dx);
    gtlm_free(c->sim, dy);
    gtlm_free(c->sim, dtmp);
    free(a);
    free(b);
    free(x);
    free(want);
    free(out);
    return rc;
}

const wl_desc workload_polybench_gesummv = {
    .name = "GESUMMV",
    .suite = "polybench",
    .description = "y = alpha*A*x + beta*B*x (n x n), one thread per row, block (256,1), two uncoalesced row streams, tmp and y accumulated in memory",
    .kernels = "gesummv_kernel",
    .ptx = workload_polybench_gesummv_ptx,
    .ptxas = workload_polybench_gesummv_ptxas,
    .params = {"n"},
    .tiny = {512},
    .sim = {4096},
    .paper = {4096},
    .doc = {4096},
    .doc_source = "Linebacker (Sec. 2.1: inputs enlarged until every SM has work): PolyBench default N = 4096, 16 "
                  "CTAs of 256 threads, one per SM of the 16-SM GPU",
    .run = run,
};
