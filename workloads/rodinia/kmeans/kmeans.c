/* KMeans driver (Rodinia KM): points drawn around `clusters` random blob centres in [0,1)^f
 * (each feature centre + a sum of three uniforms, spread about 0.1), initial centres = randomly
 * chosen points (fixed seed); per iteration the centres go to constant memory, km_assign runs,
 * the host recomputes centres and counts changed memberships, until nothing changes (the
 * original's delta <= 0.001 on an integer count) or the iteration cap. Every iteration's
 * membership is compared exactly with a CPU assignment to the same centres (fmaf, as the
 * device's fma.rn.f32, in the same order). layout=1 (default) runs the point-major kernel
 * (each thread walks its own row of nf features, as the documents' KM), layout=2 the Rodinia
 * 3.1 pair (invert mapping once, then column-major reads). The sim and paper sizes use the
 * kdd_cup shape of 34 features. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_rodinia_kmeans_ptx[], workload_rodinia_kmeans_ptxas[];

static void cpu_assign(const float *pts, const float *centres, int n, int nf, int k, int32_t *out)
{
    for (int p = 0; p < n; p++) {
        float best = FLT_MAX;
        int index = -1;
        for (int c = 0; c < k; c++) {
            float d = 0;
            for (int f = 0; f < nf; f++) {
                float diff = pts[(size_t)p * nf + f] - centres[c * nf + f];
                d = fmaf(diff, diff, d);
            }
            if (d < best) {
                best = d;
                index = c;
            }
        }
        out[p] = index;
    }
}

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "points"), nf = (int)wl_param(c, "features"), k = (int)wl_param(c, "clusters");
    int cap = (int)wl_param(c, "iterations"), layout = (int)wl_param(c, "layout");
    if (layout != 1 && layout != 2) return wl_fail(c, "layout must be 1 (point-major) or 2 (feature-major)");
    if (k * nf > 32 * 34 || k > n) return wl_fail(c, "clusters x features must be at most 32 x 34 and clusters <= points");
    size_t np = (size_t)n * nf;
    float *pts = malloc(np * 4), *centres = malloc((size_t)k * nf * 4), *sums = malloc((size_t)k * nf * 4);
    int32_t *got = malloc((size_t)n * 4), *want = malloc((size_t)n * 4), *member = malloc((size_t)n * 4);
    int32_t *count = malloc((size_t)k * 4);
    int rc = (pts && centres && sums && got && want && member && count) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 28000);
    for (int i = 0; rc == WL_OK && i < k * nf; i++) sums[i] = (float)wl_rng_unit(&r); /* blob centres */
    for (int p = 0; rc == WL_OK && p < n; p++) {
        int b = (int)wl_rng_range(&r, 0, k - 1);
        for (int f = 0; f < nf; f++)
            pts[(size_t)p * nf + f] = sums[b * nf + f] + (float)(0.1 * (wl_rng_unit(&r) + wl_rng_unit(&r) + wl_rng_unit(&r) - 1.5));
        member[p] = -1;
    }
    for (int i = 0; rc == WL_OK && i < k; i++) {
        int p = (int)wl_rng_range(&r, 0, n - 1);
        memcpy(centres + (size_t)i * nf, pts + (size_t)p * nf, (size_t)nf * 4);
    }
    gtlm_devptr d_rows = 0, d_cols = 0, d_member = 0;
    if (rc == WL_OK) rc = wl_upload(c, &d_rows, pts, np * 4);
    if (rc == WL_OK && layout == 2) rc = wl_alloc(c, &d_cols, np * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &d_member, (size_t)n * 4);
    unsigned blocks = (unsigned)((n + 255) / 256), dim = (unsigned)sqrt((double)blocks);
    while (dim * dim < blocks) dim++;
    const void *a1[] = {&d_rows, &d_cols, &n, &nf};
    const size_t s1[] = {8, 8, 4, 4};
    if (rc == WL_OK && layout == 2) rc = wl_launch(c, "km_invert_mapping", blocks, 1, 1, 256, 1, 1, 0, a1, s1, 4);
    const void *a2[] = {layout == 2 ? &d_cols : &d_rows, &nf, &n, &k, &d_member};
    const char *assign = layout == 2 ? "km_assign" : "km_assign_rows";
    const size_t s2[] = {8, 4, 4, 4, 8};
    int iter = 0;
    long delta = 1;
    while (rc == WL_OK && delta > 0 && iter < cap) {
        rc = wl_check(c, gtlm_memcpy_to_symbol(c->sim, c->mod, "km_centres", centres, (size_t)k * nf * 4, 0),
                      "gtlm_memcpy_to_symbol");
        if (rc == WL_OK) rc = wl_launch(c, assign, dim, dim, 1, 256, 1, 1, 0, a2, s2, 5);
        if (rc == WL_OK) rc = wl_corrupt(c, d_member, 4);
        if (rc == WL_OK) rc = wl_download(c, got, d_member, (size_t)n * 4);
        if (rc != WL_OK) break;
        iter++;
        cpu_assign(pts, centres, n, nf, k, want);
        if (wl_compare_i32(c, "membership", got, want, (size_t)n)) {
            rc = WL_WRONG;
            break;
        }
        /* Host part of the original: count changes, new centres = means (kept when empty). */
        delta = 0;
        memset(sums, 0, (size_t)k * nf * 4);
        memset(count, 0, (size_t)k * 4);
        for (int p = 0; p < n; p++) {
            int m = got[p];
            delta += m != member[p];
            member[p] = m;
            if (m < 0) continue;
            count[m]++;
            for (int f = 0; f < nf; f++) sums[m * nf + f] += pts[(size_t)p * nf + f];
        }
        for (int i = 0; i < k; i++)
            for (int f = 0; f < nf && count[i] > 0; f++) centres[i * nf + f] = sums[i * nf + f] / (float)count[i];
    }
    if (rc == WL_OK) fprintf(c->out, "KMeans: %d iterations (last changed %ld memberships)\n", iter, delta);
    gtlm_free(c->sim, d_rows);
    if (d_cols) gtlm_free(c->sim, d_cols);
    gtlm_free(c->sim, d_member);
    free(pts);
    free(centres);
    free(sums);
    free(got);
    free(want);
    free(member);
    free(count);
    return rc;
}

/* The sizes the kernels handle; others would run and fail verification. */
static const char *supported_sizes(const long *p)
{
    return p[2] > 32 || p[1] > 34 ? "at most 32 clusters of at most 34 features (the centres live in constant memory)" : NULL;
}

const wl_desc workload_rodinia_kmeans = {
    .name = "KMeans",
    .suite = "rodinia",
    .description = "k-means clustering: GPU nearest-centre assignment (centres in constant memory), host centre update (clusters x features <= 32 x 34; iterations = cap)",
    .kernels = "km_assign_rows (layout 1); km_invert_mapping, km_assign (layout 2)",
    .ptx = workload_rodinia_kmeans_ptx,
    .ptxas = workload_rodinia_kmeans_ptxas,
    .params = {"points", "features", "clusters", "iterations", "layout"},
    .tiny = {4096, 8, 5, 3, 1},
    .sim = {28000, 34, 5, 5, 1},
    .paper = {494020, 34, 5, 500, 1},
    .doc = {494020, 34, 5, 1, 1},
    .doc_source = "APRES, Linebacker, CBWT, Morpheus: kdd_cup shape (494,020 points x 34 features, point-major); "
                  "one assignment launch, as every launch repeats the same accesses",
    .run = run,
    .check = supported_sizes,
};
