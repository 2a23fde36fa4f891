/* PVR driver (Mars Page View Rank): the input is Page View Count's output file for a
 * synthetic log (`views` page views drawn from Zipf(1.0) over `pages` pages, seed fixed per
 * size): one "url\tviews" line per viewed page, in url byte order; one record per line, key =
 * views, value = the line's offset, as Mars' PageViewRank reads it; one map-sort-group job; the
 * ranking (per view count, highest first, the offsets of its pages in ascending order) checked
 * exactly against a CPU ranking.
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

/* PVC's output file for the log (viewed pages in url order, "url\tviews\n" lines) as records
 * {views} -> {line offset}. */
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
    h->keys = malloc((size_t)*n * 4 + 4);
    h->vals = malloc((size_t)*n * 4 + 4);
    h->index = malloc((size_t)*n * 16 + 16);
    if (!h->keys || !h->vals || !h->index) return WL_ERROR;
    for (int i = 0, offset = 0; i < *n; i++) {
        int32_t *rec = h->index + 4 * i;
        char line[96];
        pg[i].offset = offset;
        memcpy(h->keys + 4 * i, &pg[i].views, 4);
        memcpy(h->vals + 4 * i, &offset, 4);
        rec[0] = rec[2] = 4 * i;
        rec[1] = rec[3] = 4;
        offset += snprintf(line, sizeof line, "%s\t%d\n", pg[i].url, pg[i].views);
    }
    h->key_bytes = h->val_bytes = 4L * *n;
    return WL_OK;
}

/* The ranking as a listing: "views offset offset ...\n" per view count, highest first. */
static int list_ranking(page *pg, int n, mars_text *out)
{
    qsort(pg, (size_t)n, sizeof *pg, by_views);
    int rc = WL_OK;
    for (int i = 0; i < n && rc == WL_OK; i++) {
        if (i == 0 || pg[i].views != pg[i - 1].views)
            rc = mars_text_printf(out, "%s%d", i ? "\n" : "", pg[i].views);
        if (rc == WL_OK) rc = mars_text_printf(out, " %d", pg[i].offset);
    }
    if (n && rc == WL_OK) rc = mars_text_add(out, "\n", 1);
    return rc;
}

static int run(wl_ctx *c)
{
    int pages = (int)wl_param(c, "pages"), views = (int)wl_param(c, "views"), n = 0;
    mars_text want = {0}, got = {0};
    mars_host_kv input = {0}, result = {0};
    mars_job job = {0};
    int32_t *starts = NULL;
    page *pg = malloc((size_t)pages * sizeof *pg), *dev = NULL;
    int rc = pg ? make_input(2001 + (uint64_t)pages, pages, views, pg, &n, &input) : WL_ERROR;
    if (rc == WL_OK) rc = mars_kv_upload(c, &job.in, &input);
    if (rc == WL_OK) rc = list_ranking(pg, n, &want);
    if (rc == WL_OK) rc = mars_run_job(c, &job, MARS_GROUP, 0);
    if (rc == WL_OK)
        fprintf(c->out, "PVR: %d views over %d pages (%d viewed), %d distinct view counts\n", views, pages, n,
                job.groups);
    if (rc == WL_OK) rc = mars_download_groups(c, &job, job.inter.vals, &result, &starts);
    /* The device's groups must be runs of one view count, descending; listed the same way. */
    if (rc == WL_OK) {
        dev = malloc(((size_t)job.inter.n + 1) * sizeof *dev);
        if (!dev) rc = WL_ERROR;
    }
    for (int g = 0, i = 0; rc == WL_OK && g < job.groups; g++)
        for (; i < starts[g + 1] && rc == WL_OK; i++) {
            const int32_t *r = result.index + 4 * i;
            memcpy(&dev[i].views, result.keys + r[0], 4);
            memcpy(&dev[i].offset, result.vals + r[2], 4);
            if (dev[i].views != dev[starts[g]].views || (i == starts[g] && g > 0 && dev[i].views >= dev[i - 1].views))
                rc = wl_fail(c, "record %d (views %d) breaks the ranking or its group %d", i, dev[i].views, g);
        }
    if (rc == WL_OK) rc = list_ranking(dev, job.inter.n, &got);
    if (rc == WL_OK && mars_compare_text(c, "ranking", got.s ? got.s : "", want.s ? want.s : "")) rc = WL_WRONG;
    mars_job_free(c, &job);
    mars_host_kv_free(&input);
    mars_host_kv_free(&result);
    free(starts);
    free(want.s);
    free(got.s);
    free(pg);
    free(dev);
    return rc;
}

const wl_desc workload_mars_pvr = {
    .name = "PVR",
    .suite = "mars",
    .description = "Mars page view rank: map (views, line offset) per page of PVC's output, bitonic sort by views, group",
    .kernels = MARS_KERNELS_GROUP,
    .ptx = workload_mars_pvr_ptx,
    .ptxas = workload_mars_pvr_ptxas,
    .params = {"pages", "views"},
    .tiny = {2048, 16384},
    .sim = {16384, 131072},
    .paper = {65536, 1000000},
    .run = run,
};
