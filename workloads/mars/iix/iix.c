/* IIX driver (Mars Inverted Index): `files` synthetic HTML files (see make_html: paragraphs of
 * Zipf(1.0) vocabulary words, one line in three holding one or two `<a href="...">` links whose
 * targets are drawn from Zipf(1.0) over `targets` urls; seed fixed per size), each in its own
 * device buffer and cut into blocks of about `block` bytes ending at a newline (replaced by a
 * NUL), as Mars' InvertedIndex prepares its files; one map-sort-group job; the index (per url
 * in the device's order, url hash then bytes, the ids of the files linking to it in ascending
 * order) checked exactly against a CPU scan.
 * Sizes: Mars' InvertedIndex data set is 3 sample HTML files concatenated x1024 (~28 MB) in
 * 1 KB blocks; CBWT (seed 001, HCS benchmark "IIX") uses Mars' inputs: paper = 1024 files of
 * 400 lines (about 26 MB). */
#include <stdlib.h>
#include <string.h>

#include "../common/mars.h"

extern const char workload_mars_iix_ptx[], workload_mars_iix_ptxas[];

/* Lines "<p>words <a href="http://www.W.com/N.html">word</a> words</p>\n". */
static int make_html(wl_rng *r, const mars_zipf *words, const mars_zipf *links, int lines, mars_text *t)
{
    char w[16], site[16];
    int rc = WL_OK;
    for (int l = 0; l < lines && rc == WL_OK; l++) {
        long n = wl_rng_range(r, 3, 10), nlinks = wl_rng_range(r, 0, 2) == 0 ? wl_rng_range(r, 1, 2) : 0;
        rc = mars_text_add(t, "<p>", 3);
        for (long i = 0; i < n && rc == WL_OK; i++) {
            if (nlinks && wl_rng_range(r, 0, n - 1) < 2) {
                int target = mars_zipf_draw(links, r);
                mars_word(target % 997, site);
                mars_word(mars_zipf_draw(words, r), w);
                rc = mars_text_printf(t, "<a href=\"http://www.%s.com/%d.html\">%s</a> ", site, target, w);
                nlinks--;
            } else {
                int len = mars_word(mars_zipf_draw(words, r), w);
                rc = mars_text_add(t, w, len);
                if (rc == WL_OK) rc = mars_text_add(t, " ", 1);
            }
        }
        if (rc == WL_OK) rc = mars_text_add(t, "</p>\n", 5);
    }
    return rc;
}

typedef struct href {
    const char *s;
    int n, file;
    int32_t hash;
} href;

static int href_cmp(const void *a, const void *b)
{
    const href *x = a, *y = b;
    int d = mars_hashed_cmp(x->hash, x->s, x->n, y->hash, y->s, y->n);
    return d ? d : (x->file > y->file) - (x->file < y->file);
}

/* The index as a listing: "url file file ...\n" per url, in (hash, url, file) order. */
static int list_index(href *k, long n, mars_text *out)
{
    qsort(k, (size_t)n, sizeof *k, href_cmp);
    int rc = WL_OK;
    for (long i = 0; i < n && rc == WL_OK; i++) {
        int first = i == 0 || mars_hashed_cmp(k[i].hash, k[i].s, k[i].n, k[i - 1].hash, k[i - 1].s, k[i - 1].n);
        if (first && i) rc = mars_text_add(out, "\n", 1);
        if (first && rc == WL_OK) rc = mars_text_add(out, k[i].s, k[i].n);
        if (rc == WL_OK) rc = mars_text_printf(out, " %d", k[i].file);
    }
    if (n && rc == WL_OK) rc = mars_text_add(out, "\n", 1);
    return rc;
}

/* CPU reference: every `<a href="` target of every file. */
static int cpu_index(mars_text *html, int files, mars_text *out, long *n_links)
{
    long cap = 1, n = 0;
    for (int f = 0; f < files; f++) cap += html[f].len / 16;
    href *k = malloc((size_t)cap * sizeof *k);
    if (!k) return WL_ERROR;
    for (int f = 0; f < files; f++)
        for (const char *p = html[f].s; (p = strstr(p, "<a href=\"")) != NULL;) {
            p += 9;
            int len = (int)strcspn(p, "\"");
            k[n++] = (href){p, len, f, mars_hash(p, len)};
            p += len;
        }
    int rc = list_index(k, n, out);
    *n_links = n;
    free(k);
    return rc;
}

typedef struct iix_key {
    uint64_t file;
    int32_t url, hash;
} iix_key;

/* Records for one file's blocks: key {file, 0, 0}, value {block offset, block size, file id};
 * block ends become NULs in text (the device copy). */
static int add_blocks(mars_text *text, gtlm_devptr file, int id, long block, mars_host_kv *h, long *cap)
{
    for (long start = 0; start < text->len;) {
        long end = start + block - 1;
        if (end >= text->len) end = text->len - 1;
        while (text->s[end] != '\n') end++;
        text->s[end] = '\0';
        if (h->n + 1 > *cap) {
            *cap = 2 * *cap + 64;
            char *k = realloc(h->keys, (size_t)*cap * 16), *v = realloc(h->vals, (size_t)*cap * 12);
            int32_t *x = realloc(h->index, (size_t)*cap * 16);
            if (k) h->keys = k;
            if (v) h->vals = v;
            if (x) h->index = x;
            if (!k || !v || !x) return WL_ERROR;
        }
        iix_key k = {file, 0, 0};
        int32_t v[3] = {(int32_t)start, (int32_t)(end + 1 - start), id}, *r = h->index + 4 * h->n;
        memcpy(h->keys + 16 * (size_t)h->n, &k, 16);
        memcpy(h->vals + 12 * (size_t)h->n, v, 12);
        r[0] = 16 * h->n;
        r[1] = 16;
        r[2] = 12 * h->n;
        r[3] = 12;
        h->n++;
        start = end + 1;
    }
    h->key_bytes = 16L * h->n;
    h->val_bytes = 12L * h->n;
    return WL_OK;
}

static int run(wl_ctx *c)
{
    int files = (int)wl_param(c, "files"), lines = (int)wl_param(c, "lines"), targets = (int)wl_param(c, "targets");
    long block = wl_param(c, "block"), cap = 0, n_links = 0, bytes = 0;
    mars_text *html = calloc((size_t)files, sizeof *html), want = {0}, got = {0};
    gtlm_devptr *d_file = calloc((size_t)files, sizeof *d_file);
    mars_host_kv input = {0}, result = {0};
    mars_job job = {0};
    mars_zipf words = {0}, links = {0};
    int32_t *starts = NULL;
    href *k = NULL;
    int rc = html && d_file ? WL_OK : WL_ERROR;
    if (rc == WL_OK) rc = mars_zipf_init(&words, 5000, 1.0);
    if (rc == WL_OK) rc = mars_zipf_init(&links, targets, 1.0);
    wl_rng r;
    wl_rng_seed(&r, 3001 + (uint64_t)files * lines);
    for (int f = 0; f < files && rc == WL_OK; f++) {
        rc = make_html(&r, &words, &links, lines, &html[f]);
        bytes += html[f].len;
    }
    if (rc == WL_OK) rc = cpu_index(html, files, &want, &n_links);
    for (int f = 0; f < files && rc == WL_OK; f++) {
        mars_text copy = {0};
        rc = mars_text_add(&copy, html[f].s, html[f].len);
        if (rc == WL_OK) rc = wl_alloc(c, &d_file[f], (size_t)copy.len);
        if (rc == WL_OK) rc = add_blocks(&copy, d_file[f], f, block, &input, &cap);
        if (rc == WL_OK)
            rc = wl_check(c, gtlm_memcpy_htod(c->sim, d_file[f], copy.s, (size_t)copy.len), "gtlm_memcpy_htod");
        free(copy.s);
    }
    if (rc == WL_OK) rc = mars_kv_upload(c, &job.in, &input);
    if (rc == WL_OK) rc = mars_run_job(c, &job, MARS_GROUP, 0);
    if (rc == WL_OK)
        fprintf(c->out, "IIX: %d files, %ld bytes in %d blocks, %d links (%ld expected) to %d urls\n", files, bytes,
                input.n, job.inter.n, n_links, job.groups);
    if (rc == WL_OK) rc = mars_download_groups(c, &job, job.inter.vals, &result, &starts);
    /* The device's groups as the same listing (file ids sorted within a url). */
    if (rc == WL_OK) {
        k = malloc(((size_t)job.inter.n + 1) * sizeof *k);
        if (!k) rc = WL_ERROR;
    }
    for (int g = 0; rc == WL_OK && g < job.groups; g++)
        for (int i = starts[g]; i < starts[g + 1] && rc == WL_OK; i++) {
            iix_key key;
            int32_t file;
            memcpy(&key, result.keys + result.index[4 * starts[g]], sizeof key);
            memcpy(&file, result.vals + result.index[4 * i + 2], 4);
            int f = (int)(file < 0 || file >= files ? 0 : file), head = 0;
            for (; head < files && d_file[head] != key.file; head++) {
            }
            if (file != f || head == files || key.url < 0 || key.url >= html[head].len)
                rc = wl_fail(c, "group %d: record %d names no file or url (file %d, url %d)", g, i, file, key.url);
            else
                k[i] = (href){html[head].s + key.url, (int)strcspn(html[head].s + key.url, "\""), f, key.hash};
        }
    if (rc == WL_OK) rc = list_index(k, job.inter.n, &got);
    if (rc == WL_OK && mars_compare_text(c, "index", got.s ? got.s : "", want.s ? want.s : "")) rc = WL_WRONG;
    mars_job_free(c, &job);
    for (int f = 0; f < files && html && d_file; f++) {
        if (d_file[f]) gtlm_free(c->sim, d_file[f]);
        free(html[f].s);
    }
    free(html);
    free(d_file);
    mars_zipf_free(&words);
    mars_zipf_free(&links);
    mars_host_kv_free(&input);
    mars_host_kv_free(&result);
    free(starts);
    free(k);
    free(want.s);
    free(got.s);
    return rc;
}

const wl_desc workload_mars_iix = {
    .name = "IIX",
    .suite = "mars",
    .description = "Mars inverted index: a state machine finds the href urls of ~1 KB blocks of HTML files, bitonic "
                   "sort by (hash, url), group",
    .kernels = MARS_KERNELS_GROUP,
    .ptx = workload_mars_iix_ptx,
    .ptxas = workload_mars_iix_ptxas,
    .params = {"files", "lines", "targets", "block"},
    .tiny = {3, 96, 128, 128},
    .sim = {128, 256, 2048, 1024},
    .paper = {1024, 400, 16384, 1024},
    .run = run,
};
