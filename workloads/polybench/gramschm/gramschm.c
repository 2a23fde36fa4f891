/* GRAMSCHM driver (PolyBench/GPU): classical Gram-Schmidt QR of an ni x nj matrix, 3 launches per
 * column; A, R and Q checked against a CPU reference with PolyBench's rule (0.05 %, pairs below 0.01
 * skipped). */
#include <math.h>
#include <stdlib.h>

#include "workload.h"


extern const char workload_polybench_gramschm_ptx[], workload_polybench_gramschm_ptxas[];

/* The host version of the three kernels, in their order. */
static void reference(int ni, int nj, float *a, float *r, float *q)
{
    for (size_t k = 0; k < (size_t)nj; k++) {
        float nrm = 0.0f;
        for (size_t i = 0; i < (size_t)ni; i++) nrm += a[i * nj + k] * a[i * nj + k];
        r[k * nj + k] = sqrtf(nrm);
        for (size_t i = 0; i < (size_t)ni; i++) q[i * nj + k] = a[i * nj + k] / r[k * nj + k];
        for (size_t j = k + 1; j < (size_t)nj; j++) {
            float s = 0.0f;
            for (size_t i = 0; i < (size_t)ni; i++) s += q[i * nj + k] * a[i * nj + j];
            r[k * nj + j] = s;
            for (size_t i = 0; i < (size_t)ni; i++) a[i * nj + j] -= q[i * nj + k] * s;
        }
    }
}

static int run(wl_ctx *c)
{
    int ni = (int)wl_param(c, "ni"), nj = (int)wl_param(c, "nj");
    if (ni < nj) return wl_fail(c, "ni (%d) must be at least nj (%d): the columns must be independent", ni, nj);
    size_t na = (size_t)ni * nj, nr = (size_t)nj * nj;
    float *m = malloc((4 * na + 2 * nr) * sizeof *m);
    if (!m) return WL_ERROR;
    int rc = WL_OK;
    float *a = m, *q = a + na, *oa = q + na, *oq = oa + na, *r = oq + na, *ro = r + nr;
    /* PolyBench's A = (i*j)/ni has a zero column 0 (R[0][0] = 0, so the whole result is NaN/Inf)
     * and rank 1. We draw A uniformly from [-1, 1) and add 2*sqrt(ni) on the diagonal, well above a
     * column's random norm (about 0.58*sqrt(ni)): the matrix is well-conditioned, so classical
     * Gram-Schmidt in float stays within PolyBench's 0.05 % of the host (without the diagonal a
     * square matrix misses it on a few entries near 0.01). Values do not change the memory
     * behaviour. Q and R start from PolyBench's values (the kernels overwrite Q and R's upper
     * triangle; R's strict lower triangle is never written). */
    float diag = (float)(2.0 * sqrt((double)ni));
    wl_rng rng;
    wl_rng_seed(&rng, 0x96a5);
    for (size_t i = 0; i < (size_t)ni; i++)
        for (size_t j = 0; j < (size_t)nj; j++) {
            a[i * nj + j] = (float)(2.0 * wl_rng_unit(&rng) - 1.0) + (i == j ? diag : 0.0f);
            q[i * nj + j] = (float)((double)i * (j + 1) / nj);
        }
    for (size_t i = 0; i < (size_t)nj; i++)
        for (size_t j = 0; j < (size_t)nj; j++) r[i * nj + j] = (float)((double)i * (j + 2) / nj);
    gtlm_devptr da = 0, dr = 0, dq = 0;
    rc = wl_upload(c, &da, a, na * sizeof *a);
    if (rc == WL_OK) rc = wl_upload(c, &dr, r, nr * sizeof *r);
    if (rc == WL_OK) rc = wl_upload(c, &dq, q, na * sizeof *q);
    const size_t s1[] = {4, 4, 8, 8, 4}, s23[] = {4, 4, 8, 8, 8, 4};
    for (int k = 0; rc == WL_OK && k < nj; k++) {
        const void *a1[] = {&ni, &nj, &da, &dr, &k}, *a2[] = {&ni, &nj, &da, &dr, &dq, &k},
                   *a3[] = {&ni, &nj, &da, &dr, &dq, &k};
        rc = wl_launch(c, "gramschm_kernel1", 1, 1, 1, 256, 1, 1, 0, a1, s1, 5);
        if (rc == WL_OK) rc = wl_launch(c, "gramschm_kernel2", (unsigned)(ni + 255) / 256, 1, 1, 256, 1, 1, 0, a2, s23, 6);
        if (rc == WL_OK) rc = wl_launch(c, "gramschm_kernel3", (unsigned)(nj + 255) / 256, 1, 1, 256, 1, 1, 0, a3, s23, 6);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, da, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, oa, da, na * sizeof *oa);
    if (rc == WL_OK) rc = wl_download(c, ro, dr, nr * sizeof *ro);
    if (rc == WL_OK) rc = wl_download(c, oq, dq, na * sizeof *oq);
    if (rc == WL_OK) {
        reference(ni, nj, a, r, q);
        if (wl_compare_f32(c, "A", oa, a, na, 0.05, 0.01)) rc = WL_WRONG;
        if (wl_compare_f32(c, "R", ro, r, nr, 0.05, 0.01)) rc = WL_WRONG;
        if (wl_compare_f32(c, "Q", oq, q, na, 0.05, 0.01)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, da);
    gtlm_free(c->sim, dr);
    gtlm_free(c->sim, dq);
    free(m);
    return rc;
}

/* The sizes the kernels handle; others would run and fail verification. */
static const char *supported_sizes(const long *p)
{
    return p[0] < p[1] ? "ni must be at least nj" : NULL;
}

const wl_desc workload_polybench_gramschm = {
    .name = "GRAMSCHM",
    .suite = "polybench",
    .description = "Gram-Schmidt QR of an ni x nj matrix (ni >= nj): per column a single-thread norm, a scale and a projection kernel",
    .kernels = "gramschm_kernel1, gramschm_kernel2, gramschm_kernel3",
    .ptx = workload_polybench_gramschm_ptx,
    .ptxas = workload_polybench_gramschm_ptxas,
    .params = {"ni", "nj"},
    .tiny = {64, 64},
    .sim = {2048, 256},
    .paper = {2048, 2048},
    .run = run,
    .check = supported_sizes,
};
