/* SYRK driver (PolyBench/GPU): C = alpha*A*A^T + beta*C with random inputs in PolyBench's value
 * range, one launch, checked against a CPU reference with PolyBench's rule (0.05 %, pairs below
 * 0.01 skipped). */
#include <stdlib.h>

#include "workload.h"

extern const char workload_polybench_syrk_ptx[], workload_polybench_syrk_ptxas[];

#define ALPHA 32412.0f
#define BETA 2123.0f

static int run(wl_ctx *c)
{
    int ni = (int)wl_param(c, "ni"), nj = (int)wl_param(c, "nj");
    size_t na = (size_t)ni * nj, nc = (size_t)ni * ni;
    float *a = malloc(na * sizeof *a), *cm = malloc(nc * sizeof *cm), *out = malloc(nc * sizeof *out);
    int rc = (a && cm && out) ? WL_OK : WL_ERROR;
    /* PolyBench fills A and C with (i*j)/ni, values in [0, ni). We draw them uniformly from the same
     * range: the formula's rank-1 symmetric matrices would hide swapped i/j indexing, and its zero
     * row 0 would hide a corrupted C[0][0]. Values do not change the memory behaviour. */
    wl_rng r;
    wl_rng_seed(&r, 0x5912);
    if (rc == WL_OK) wl_fill_f32(&r, a, na, ni);
    if (rc == WL_OK) wl_fill_f32(&r, cm, nc, ni);
    gtlm_devptr da = 0, dc = 0;
    if (rc == WL_OK) rc = wl_upload(c, &da, a, na * sizeof *a);
    if (rc == WL_OK) rc = wl_upload(c, &dc, cm, nc * sizeof *cm);
    float alpha = ALPHA, beta = BETA;
    const void *args[] = {&ni, &nj, &alpha, &beta, &da, &dc};
    const size_t sizes[] = {4, 4, 4, 4, 8, 8};
    if (rc == WL_OK)
        rc = wl_launch(c, "syrk_kernel", (unsigned)(ni + 31) / 32, (unsigned)(ni + 7) / 8, 1, 32, 8, 1, 0, args, sizes, 6);
    if (rc == WL_OK) rc = wl_corrupt(c, dc, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dc, nc * sizeof *out);
    if (rc == WL_OK) {
        for (size_t i = 0; i < (size_t)ni; i++)
            for (size_t j = 0; j < (size_t)ni; j++) {
                float s = cm[i * ni + j] * BETA;
                for (size_t k = 0; k < (size_t)nj; k++) s += ALPHA * a[i * nj + k] * a[j * nj + k];
                cm[i * ni + j] = s;
            }
        if (wl_compare_f32(c, "C", out, cm, nc, 0.05, 0.01)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, dc);
    free(a);
    free(cm);
    free(out);
    return rc;
}

const wl_desc workload_polybench_syrk = {
    .name = "SYRK",
    .suite = "polybench",
    .description = "C = alpha*A*A^T + beta*C (A ni x nj), one thread per C element, block (32,8), uncoalesced A[j][k], C updated in memory every k",
    .kernels = "syrk_kernel",
    .ptx = workload_polybench_syrk_ptx,
    .ptxas = workload_polybench_syrk_ptxas,
    .params = {"ni", "nj"},
    .tiny = {64, 64},
    .sim = {512, 512},
    .paper = {1024, 1024},
    .doc = {256, 256},
    .doc_source = "PAVER (thesis ch.3/4): SYRK at N = 256",
    .run = run,
};
