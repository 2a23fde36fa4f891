/* PVR driver (Mars Page View Rank): the input is Page View Count's output for a synthetic log
 * (`views` page views drawn from Zipf(1.0) over `pages` pages, seed fixed per size; one
 * (url, views) record per viewed page, in url byte order as PVC emits them); one
 * map-sort-group-reduce job; the ranking (views, url offset) and the per-count summary (views,
 * rank, pages) checked exactly against a CPU ranking.
 * Sizes: Mars ships PageViewRank without a stated data set; CBWT (seed 001, HCS benchmark
 * "PVR") uses Mars' inputs: paper = PVC's paper log (1 M views) over 65536 pages. */
#include <stdlib.h>
#include <string.h>

#include "../common/mars.h"

extern const char workload_mars_pvr_ptx[], workload_mars_pvr_ptxas[];

typedef struct page {
    char url[64];
    int len, views, offset;
} page;

static int by_url(const void *a, const void *b)
{
    const page *x = a, *y = b;
    return mars_bytes_cmp(x->url, x->len, y->url, y->len);
}

static int by_views(const void *a, const void *b)
{
    const page *x = a, *y = b;
    if (x->views != y->views) return x->views > y->views ? -1 : 1;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* PVC's output for the log: viewed pages in url order. */
static int make_input(uint64_t seed, int pages, int views, page *pg, int *n, mars_host_kv *h)
{
    mars_zipf z;
    if (mars_zipf_init(&z, pages, 1.0) != WL_OK) return WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, seed);
    for (int p = 0; p < pages; p++) pg[p].views = 0;
    for (int v = 0; v < views; v++) pg[mars_zipf_draw(&z, &r)].views++;
    mars_zipf_free(&z);
    *n = 0;
    for (int p = 0; p < pages; p++)
        if (pg[p].views) {
            pg[*n].views = pg[p].views;
            pg[*n].len = mars_url(p, pg[*n].url);
            ++*n;
        }
    qsort(pg, (size_t)*n, sizeof *pg, by_url);
    memset(h, 0, sizeof *h);
    h->n = *n;
    h->keys = malloc((size_t)*n * 64 + 1);
    h->vals = malloc((size_t)*n * 4 + 4);
    h->index = malloc((size_t)*n * 16 + 16);
    if (!h->keys || !h->vals || !h->index) return WL_ERROR;
    for (int i = 0; i < *n; i++) {
        int32_t *rec = h->index + 4 * i;
        pg[i].offset = (int)h->key_bytes;
        memcpy(h->keys + h->key_bytes, pg[i].url, (size_t)pg[i].len);
        memcpy(h->vals + 4 * i, &pg[i].views, 4);
        rec[0] = (int32_t)h->key_bytes;
        rec[1] = pg[i].len;
        rec[2] = 4 * i;
        rec[3] = 4;
        h->key_bytes += pg[i].len;
    }
    h->val_bytes = 4L * *n;
    return WL_OK;
}

/* CPU reference: the ranking and, per view count, its first rank and page count. */
static int cpu_rank(page *pg, int n, mars_text *ranking, mars_text *summary)
{
    qsort(pg, (size_t)n, sizeof *pg, by_views);
    int rc = WL_OK;
    for (int i = 0; i < n && rc == WL_OK; i++) rc = mars_text_printf(ranking, "%d %d\n", pg[i].views, pg[i].offset);
    for (int i = 0; i < n && rc == WL_OK;) {
        int j = i;
        while (j < n && pg[j].views == pg[i].views) j++;
        rc = mars_text_printf(summary, "%d %d %d\n", pg[i].views, i + 1, j - i);
        i = j;
    }
    return rc;
}

static int run(wl_ctx *c)
{
    int pages = (int)wl_param(c, "pages"), views = (int)wl_param(c, "views"), n = 0;
    mars_text want_rank = {0}, want_sum = {0};
    mars_host_kv input = {0};
    mars_job job = {0};
    page *pg = malloc((size_t)pages * sizeof *pg);
    int rc = pg ? make_input(2001 + (uint64_t)pages, pages, views, pg, &n, &input) : WL_ERROR;
    if (rc == WL_OK) rc = cpu_rank(pg, n, &want_rank, &want_sum);
    if (rc == WL_OK) rc = mars_kv_upload(c, &job.in, &input);
    if (rc == WL_OK) rc = mars_run_job(c, &job, MARS_REDUCE, 0);
    if (rc == WL_OK)
        fprintf(c->out, "PVR: %d views over %d pages (%d viewed), %d distinct view counts\n", views, pages, n,
                job.groups);
    if (rc == WL_OK) rc = mars_check_kv(c, &job.inter, 1, 0, "ranking", &want_rank);
    if (rc == WL_OK) rc = mars_check_kv(c, &job.out, 1, job.out.vals, "view counts", &want_sum);
    mars_job_free(c, &job);
    mars_host_kv_free(&input);
    free(want_rank.s);
    free(want_sum.s);
    free(pg);
    return rc;
}

const wl_desc workload_mars_pvr = {
    .name = "PVR",
    .suite = "mars",
    .description = "Mars page view rank: map (views, url) per page, bitonic sort by views, group, reduce ranks",
    .kernels = MARS_KERNELS_REDUCE,
    .ptx = workload_mars_pvr_ptx,
    .ptxas = workload_mars_pvr_ptxas,
    .params = {"pages", "views"},
    .tiny = {2048, 16384},
    .sim = {16384, 131072},
    .paper = {65536, 1000000},
    .run = run,
};
