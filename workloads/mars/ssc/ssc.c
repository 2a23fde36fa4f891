/* SSC driver (Mars Similarity Score): document feature vectors (see make_features: each
 * document draws 20..200 term occurrences from Zipf(1.0) over the features, shifted by one of
 * eight topics, so the vectors are sparse, skewed and clustered; the values are term counts,
 * integers in floats, so every dot product and norm is exact; Mars draws dense uniform
 * rand() % 100 values); one map-sort-group job over every pair a < b; the ranking (score bits,
 * pairs of equal score in (a, b) order) checked exactly against a CPU computation in the same
 * float operations.
 * Sizes: Mars' SimilarityScore data set is `1024 256` (1024 documents x 256 features); CBWT
 * (seed 001, HCS benchmark "SSC", noted for its phase change) uses Mars' inputs: paper =
 * 1024 x 256 (523776 pairs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/mars.h"

extern const char workload_mars_ssc_ptx[], workload_mars_ssc_ptxas[];

static void make_features(uint64_t seed, int docs, int features, float *m)
{
    mars_zipf z;
    wl_rng r;
    wl_rng_seed(&r, seed);
    memset(m, 0, (size_t)docs * (size_t)features * sizeof *m);
    if (mars_zipf_init(&z, features, 1.0) != WL_OK) return;
    for (int d = 0; d < docs; d++) {
        long terms = wl_rng_range(&r, 20, 200), topic = wl_rng_range(&r, 0, 7) * features / 8;
        for (long t = 0; t < terms; t++) m[(size_t)d * features + (mars_zipf_draw(&z, &r) + topic) % features] += 1.0f;
    }
    mars_zipf_free(&z);
}

typedef struct pair_score {
    float score;
    int a, b;
} pair_score;

static int by_score(const void *p, const void *q)
{
    const pair_score *x = p, *y = q;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    return (x->b > y->b) - (x->b < y->b);
}

/* CPU reference: the device's float operations (exact sums of integers, IEEE sqrt and
 * division), sorted by the device's order. */
static int cpu_scores(const float *m, int docs, int features, mars_text *out)
{
    long n = (long)docs * (docs - 1) / 2, k = 0;
    pair_score *p = malloc((size_t)n * sizeof *p);
    if (!p) return WL_ERROR;
    for (int a = 0; a < docs; a++)
        for (int b = a + 1; b < docs; b++) {
            float dot = 0.0f, na = 0.0f, nb = 0.0f;
            for (int f = 0; f < features; f++) {
                float x = m[(size_t)a * features + f], y = m[(size_t)b * features + f];
                dot += x * y;
                na += x * x;
                nb += y * y;
            }
            p[k++] = (pair_score){dot / (sqrtf(na) * sqrtf(nb)), a, b};
        }
    qsort(p, (size_t)n, sizeof *p, by_score);
    int rc = WL_OK;
    for (long i = 0; i < n && rc == WL_OK; i++) {
        int32_t bits;
        memcpy(&bits, &p[i].score, 4);
        rc = mars_text_printf(out, "%d %d %d\n", bits, p[i].a, p[i].b);
    }
    free(p);
    return rc;
}

/* The device's ranking as the CPU lists it: the sorted set must be in descending score order
 * and its groups its runs of equal scores; pairs of one score are listed in (a, b) order. */
static int list_ranking(wl_ctx *c, const mars_host_kv *h, const int32_t *starts, int groups, mars_text *out)
{
    pair_score *p = malloc(((size_t)h->n + 1) * sizeof *p);
    if (!p) return WL_ERROR;
    int rc = WL_OK;
    for (int i = 0; i < h->n; i++) {
        const int32_t *r = h->index + 4 * i;
        int32_t v[2] = {0, 0};
        memcpy(&p[i].score, h->keys + r[0], 4);
        if (r[3] == 8) memcpy(v, h->vals + r[2], 8);
        p[i].a = v[0];
        p[i].b = v[1];
    }
    for (int g = 0, i = 0; g < groups && rc == WL_OK; g++)
        for (; i < starts[g + 1] && rc == WL_OK; i++)
            if (p[i].score != p[starts[g]].score || (g > 0 && i == starts[g] && !(p[i].score < p[i - 1].score)))
                rc = wl_fail(c, "record %d (score %.9g) breaks the ranking or its group %d", i, p[i].score, g);
    if (rc == WL_OK) qsort(p, (size_t)h->n, sizeof *p, by_score);
    for (int i = 0; i < h->n && rc == WL_OK; i++) {
        int32_t bits;
        memcpy(&bits, &p[i].score, 4);
        rc = mars_text_printf(out, "%d %d %d\n", bits, p[i].a, p[i].b);
    }
    free(p);
    return rc;
}

static int run(wl_ctx *c)
{
    int docs = (int)wl_param(c, "docs"), features = (int)wl_param(c, "features");
    if (docs < 2) return wl_fail(c, "docs must be at least 2");
    if (features % 4) return wl_fail(c, "features must be a multiple of 4 (float4 rows)");
    long pairs = (long)docs * (docs - 1) / 2;
    mars_text want = {0}, got = {0};
    mars_host_kv input = {0}, result = {0};
    mars_job job = {0};
    gtlm_devptr d_matrix = 0;
    int32_t *starts = NULL;
    float *m = malloc((size_t)docs * (size_t)features * sizeof *m);
    input.n = (int)pairs;
    input.key_bytes = pairs * 8;
    input.val_bytes = pairs * 16;
    input.keys = malloc((size_t)input.key_bytes);
    input.vals = malloc((size_t)input.val_bytes);
    input.index = malloc((size_t)pairs * 16);
    int rc = m && input.keys && input.vals && input.index ? WL_OK : WL_ERROR;
    if (rc == WL_OK) {
        make_features(9001 + (uint64_t)docs, docs, features, m);
        rc = cpu_scores(m, docs, features, &want);
    }
    if (rc == WL_OK) rc = wl_upload(c, &d_matrix, m, (size_t)docs * (size_t)features * sizeof *m);
    for (int a = 0, k = 0; rc == WL_OK && a < docs; a++)
        for (int b = a + 1; b < docs; b++, k++) {
            int32_t v[4] = {a, b, features, 0}, *r = input.index + 4 * k;
            memcpy(input.keys + 8 * (size_t)k, &d_matrix, 8);
            memcpy(input.vals + 16 * (size_t)k, v, 16);
            r[0] = 8 * k;
            r[1] = 8;
            r[2] = 16 * k;
            r[3] = 16;
        }
    if (rc == WL_OK) rc = mars_kv_upload(c, &job.in, &input);
    if (rc == WL_OK) rc = mars_run_job(c, &job, MARS_GROUP, 0);
    if (rc == WL_OK)
        fprintf(c->out, "SSC: %d documents x %d features, %d pairs scored, %d distinct scores\n", docs, features,
                job.inter.n, job.groups);
    if (rc == WL_OK) rc = mars_download_groups(c, &job, job.inter.vals, &result, &starts);
    if (rc == WL_OK) rc = list_ranking(c, &result, starts, job.groups, &got);
    if (rc == WL_OK && mars_compare_text(c, "ranking", got.s ? got.s : "", want.s ? want.s : "")) rc = WL_WRONG;
    mars_job_free(c, &job);
    if (d_matrix) gtlm_free(c->sim, d_matrix);
    mars_host_kv_free(&input);
    mars_host_kv_free(&result);
    free(starts);
    free(m);
    free(want.s);
    free(got.s);
    return rc;
}

const wl_desc workload_mars_ssc = {
    .name = "SSC",
    .suite = "mars",
    .description = "Mars similarity score: map computes the cosine of each document pair (float4 rows), bitonic sort and group by score",
    .kernels = MARS_KERNELS_GROUP,
    .ptx = workload_mars_ssc_ptx,
    .ptxas = workload_mars_ssc_ptxas,
    .params = {"docs", "features"},
    .tiny = {44, 64},
    .sim = {128, 128},
    .paper = {1024, 256},
    .run = run,
};
