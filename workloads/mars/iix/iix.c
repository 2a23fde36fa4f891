/* IIX driver (Mars Inverted Index): synthetic HTML (see make_html: paragraphs of Zipf(1.0)
 * vocabulary words, one line in three holding one or two links whose targets are drawn from
 * Zipf(1.0) over `targets` urls; seed fixed per size), one map-sort-group job; the index (per
 * target url in byte order, the text offsets of its links in ascending order) checked exactly
 * against a CPU scan.
 * Sizes: Mars' InvertedIndex data set is 3 sample HTML files concatenated x1024 (~28 MB); CBWT
 * (seed 001, HCS benchmark "IIX") uses Mars' inputs: paper = 400000 lines (about 26 MB). */
#include <stdlib.h>
#include <string.h>

#include "../common/mars.h"

extern const char workload_mars_iix_ptx[], workload_mars_iix_ptxas[];

/* Lines "<p>words <a href="http://www.W.com/N.html">word</a> words</p>\n". */
static int make_html(uint64_t seed, int lines, int targets, mars_text *t)
{
    mars_zipf words, links;
    if (mars_zipf_init(&words, 5000, 1.0) != WL_OK) return WL_ERROR;
    if (mars_zipf_init(&links, targets, 1.0) != WL_OK) {
        mars_zipf_free(&words);
        return WL_ERROR;
    }
    wl_rng r;
    wl_rng_seed(&r, seed);
    char w[16], site[16];
    int rc = WL_OK;
    for (int l = 0; l < lines && rc == WL_OK; l++) {
        long n = wl_rng_range(&r, 3, 10), nlinks = wl_rng_range(&r, 0, 2) == 0 ? wl_rng_range(&r, 1, 2) : 0;
        rc = mars_text_add(t, "<p>", 3);
        for (long i = 0; i < n && rc == WL_OK; i++) {
            if (nlinks && wl_rng_range(&r, 0, n - 1) < 2) {
                int target = mars_zipf_draw(&links, &r);
                mars_word(target % 997, site);
                mars_word(mars_zipf_draw(&words, &r), w);
                rc = mars_text_printf(t, "<a href=\"http://www.%s.com/%d.html\">%s</a> ", site, target, w);
                nlinks--;
            } else {
                int len = mars_word(mars_zipf_draw(&words, &r), w);
                rc = mars_text_add(t, w, len);
                if (rc == WL_OK) rc = mars_text_add(t, " ", 1);
            }
        }
        if (rc == WL_OK) rc = mars_text_add(t, "</p>\n", 5);
    }
    mars_zipf_free(&words);
    mars_zipf_free(&links);
    return rc;
}

typedef struct href {
    const char *s;
    int n, pos;
} href;

static int href_cmp(const void *a, const void *b)
{
    const href *x = a, *y = b;
    int d = mars_bytes_cmp(x->s, x->n, y->s, y->n);
    return d ? d : (x->pos > y->pos) - (x->pos < y->pos);
}

/* CPU reference: every href target, sorted by (url, offset), listed per url. */
static int cpu_index(const mars_host_kv *in, mars_text *out, long *n_links)
{
    href *k = malloc(((size_t)in->key_bytes / 6 + 1) * sizeof *k);
    if (!k) return WL_ERROR;
    long n = 0;
    for (int l = 0; l < in->n; l++) {
        const char *s = in->keys + in->index[4 * l];
        int len = in->index[4 * l + 1];
        for (int i = 0; i + 6 <= len; i++) {
            if (memcmp(s + i, "href=\"", 6) != 0) continue;
            int start = i + 6, end = start;
            while (end < len && s[end] != '"') end++;
            k[n++] = (href){s + start, end - start, in->index[4 * l] + start};
            i = end;
        }
    }
    qsort(k, (size_t)n, sizeof *k, href_cmp);
    int rc = WL_OK;
    for (long i = 0; i < n && rc == WL_OK; i++) {
        int first = i == 0 || mars_bytes_cmp(k[i].s, k[i].n, k[i - 1].s, k[i - 1].n) != 0;
        if (first && i) rc = mars_text_add(out, "\n", 1);
        if (first && rc == WL_OK) rc = mars_text_add(out, k[i].s, k[i].n);
        if (rc == WL_OK) rc = mars_text_printf(out, " %d", k[i].pos);
    }
    if (n && rc == WL_OK) rc = mars_text_add(out, "\n", 1);
    *n_links = n;
    free(k);
    return rc;
}

/* The device's index: the sorted set's groups, one line per url. */
static int list_groups(const mars_host_kv *h, const int32_t *starts, int groups, mars_text *out)
{
    int rc = WL_OK;
    for (int g = 0; g < groups && rc == WL_OK; g++) {
        const int32_t *r = h->index + 4 * starts[g];
        rc = mars_text_add(out, h->keys + r[0], r[1]);
        for (int i = starts[g]; i < starts[g + 1] && rc == WL_OK; i++) {
            int32_t pos;
            memcpy(&pos, h->vals + h->index[4 * i + 2], 4);
            rc = mars_text_printf(out, " %d", pos);
        }
        if (rc == WL_OK) rc = mars_text_add(out, "\n", 1);
    }
    return rc;
}

static int run(wl_ctx *c)
{
    int lines = (int)wl_param(c, "lines"), targets = (int)wl_param(c, "targets");
    mars_text text = {0}, want = {0}, got = {0};
    mars_host_kv input = {0}, result = {0};
    mars_job job = {0};
    long n_links = 0;
    int32_t *starts = NULL;
    int rc = make_html(3001 + (uint64_t)lines, lines, targets, &text);
    if (rc == WL_OK) rc = mars_lines_kv(&text, &input);
    if (rc == WL_OK) rc = cpu_index(&input, &want, &n_links);
    if (rc == WL_OK) rc = mars_kv_upload(c, &job.in, &input);
    if (rc == WL_OK) rc = mars_run_job(c, &job, MARS_GROUP, 0);
    int groups = job.groups;
    if (rc == WL_OK)
        fprintf(c->out, "IIX: %d lines, %ld bytes, %d links (%ld expected) to %d urls\n", input.n, input.key_bytes,
                job.inter.n, n_links, groups);
    if (rc == WL_OK && job.inter.n > 0) rc = wl_corrupt(c, job.inter.vals, 4);
    if (rc == WL_OK) rc = mars_kv_download(c, &job.inter, &result);
    if (rc == WL_OK) {
        starts = malloc(((size_t)groups + 1) * 4);
        rc = starts ? wl_download(c, starts, job.starts, ((size_t)groups + 1) * 4) : WL_ERROR;
    }
    for (int g = 0; rc == WL_OK && g < groups; g++)
        if (starts[g] < 0 || starts[g] >= starts[g + 1] || starts[g + 1] > job.inter.n)
            rc = wl_fail(c, "group %d has bad bounds [%d, %d)", g, starts[g], starts[g + 1]);
    if (rc == WL_OK) rc = list_groups(&result, starts, groups, &got);
    if (rc == WL_OK && mars_compare_text(c, "index", got.s ? got.s : "", want.s ? want.s : "")) rc = WL_WRONG;
    mars_job_free(c, &job);
    mars_host_kv_free(&input);
    mars_host_kv_free(&result);
    free(starts);
    free(text.s);
    free(want.s);
    free(got.s);
    return rc;
}

const wl_desc workload_mars_iix = {
    .name = "IIX",
    .suite = "mars",
    .description = "Mars inverted index: map (url, offset) per href of each HTML line, bitonic sort, group by url",
    .kernels = MARS_KERNELS_GROUP,
    .ptx = workload_mars_iix_ptx,
    .ptxas = workload_mars_iix_ptxas,
    .params = {"lines", "targets"},
    .tiny = {512, 128},
    .sim = {8192, 2048},
    .paper = {400000, 16384},
    .run = run,
};
