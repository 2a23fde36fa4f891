/* SYR2K driver (PolyBench/GPU): C = alpha*A*B^T + alpha*B*A^T + beta*C with random inputs in
 * PolyBench's value range, one launch, checked against a CPU reference with PolyBench's rule
 * (0.05 %, pairs below 0.01 skipped). */
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_syr2k_ptx[], workload_polybench_syr2k_ptxas[];

#define ALPHA 32412.0f
#define BETA 2123.0f

static int run(wl_ctx *c)
{
    int ni = (int)wl_param(c, "ni"), nj = (int)wl_param(c, "nj");
    size_t na = (size_t)ni * nj, nc = (size_t)ni * ni;
    float *a = malloc(na * sizeof *a), *b = malloc(na * sizeof *b), *cm = malloc(nc * sizeof *cm);
    float *out = malloc(nc * sizeof *out);
    int rc = (a && b && cm && out) ? WL_OK : WL_ERROR;
    /* PolyBench fills A, B and C with (i*j)/ni, values in [0, ni). We draw them uniformly from the
     * same range: with A == B and rank-1 symmetric matrices, swapped operands or i/j indices would
     * go unnoticed, and the zero row 0 would hide a corrupted C[0][0]. Values do not change the
     * memory behaviour. */
    wl_rng r;
    wl_rng_seed(&r, 0x5922);
    if (rc == WL_OK) wl_fill_f32(&r, a, na, ni);
    if (rc == WL_OK) wl_fill_f32(&r, b, na, ni);
    if (rc == WL_OK) wl_fill_f32(&r, cm, nc, ni);
    gtlm_devptr da = 0, db = 0, dc = 0;
    if (rc == WL_OK) rc = wl_upload(c, &da, a, na * sizeof *a);
    if (rc == WL_OK) rc = wl_upload(c, &db, b, na * sizeof *b);
    if (rc == WL_OK) rc = wl_upload(c, &dc, cm, nc * sizeof *cm);
    float alpha = ALPHA, beta = BETA;
    const void *args[] = {&ni, &nj, &alpha, &beta, &da, &db, &dc};
    const size_t sizes[] = {4, 4, 4, 4, 8, 8, 8};
    if (rc == WL_OK)
        rc = wl_launch(c, "syr2k_kernel", (unsigned)(ni + 31) / 32, (unsigned)(ni + 7) / 8, 1, 32, 8, 1, 0, args, sizes, 7);
    if (rc == WL_OK) rc = wl_corrupt(c, dc, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dc, nc * sizeof *out);
    if (rc == WL_OK) {
        for (size_t i = 0; i < (size_t)ni; i++)
            for (size_t j = 0; j < (size_t)ni; j++) {
                float s = cm[i * ni + j] * BETA;
                for (size_t k = 0; k < (size_t)nj; k++)
                    s += ALPHA * a[i * nj + k] * b[j * nj + k] + ALPHA * b[i * nj + k] * a[j * nj + k];
                cm[i * ni + j] = s;
            }
        if (wl_compare_f32(c, "C", out, cm, nc, 0.05, 0.01)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, db);
    gtlm_free(c->sim, dc);
    free(a);
    free(b);
    free(cm);
    free(out);
    return rc;
}

const wl_desc workload_polybench_syr2k = {
    .name = "SYR2K",
    .suite = "polybench",
    .description = "C = alpha*A*B^T + alpha*B*A^T + beta*C (A, B ni x nj), one thread per C element, block (32,8), two broadcast and two uncoalesced streams",
    .kernels = "syr2k_kernel",
    .ptx = workload_polybench_syr2k_ptx,
    .ptxas = workload_polybench_syr2k_ptxas,
    .params = {"ni", "nj"},
    .tiny = {64, 64},
    .sim = {512, 512},
    .paper = {1024, 1024},
    .doc = {256, 256},
    .doc_source = "PAVER (thesis ch.3/4, Sec. 4.3.2): SYR2K at N = 256, grid 8 x 32 of 32 x 8",
    .run = run,
};
