/* WC driver (Mars Word Count): English-like text from mars_zipf_text (lines of 4..16 words
 * drawn from a Zipf(1.0) vocabulary, seed fixed per size), upper-cased and cut into chunks of
 * about `chunk` bytes ending at a non-letter (replaced by a NUL), as Mars' WordCount prepares
 * its file; one map-group job; the (word, count) list of the words of six letters or more, in
 * byte order, checked exactly against a CPU count.
 * Sizes: Mars runs WordCount on its `sample` text x4 (size not stated) in 2 KB chunks; CBWT
 * (seed 001, HCS benchmark "WC") uses Mars' inputs without giving them. paper = 65536 lines
 * (about 3.7 MB) in 2 KB chunks. */
#include <stdlib.h>
#include <string.h>

#include "../common/mars.h"

extern const char workload_mars_wc_ptx[], workload_mars_wc_ptxas[];

typedef struct word {
    const char *s;
    int n;
} word;

static int word_cmp(const void *a, const void *b)
{
    const word *x = a, *y = b;
    return mars_bytes_cmp(x->s, x->n, y->s, y->n);
}

static int is_letter(char ch) { return ch >= 'A' && ch <= 'Z'; }

/* CPU reference: every run of six letters or more, sorted, counted. */
static int cpu_word_count(const char *text, long len, mars_text *out, long *n_words)
{
    long cap = len / 7 + 1, n = 0;
    word *w = malloc((size_t)cap * sizeof *w);
    if (!w) return WL_ERROR;
    for (long i = 0; i < len;) {
        while (i < len && !is_letter(text[i])) i++;
        long start = i;
        while (i < len && is_letter(text[i])) i++;
        if (i - start >= 6) w[n++] = (word){text + start, (int)(i - start)};
    }
    qsort(w, (size_t)n, sizeof *w, word_cmp);
    int rc = WL_OK;
    for (long i = 0; i < n && rc == WL_OK;) {
        long j = i;
        while (j < n && word_cmp(&w[i], &w[j]) == 0) j++;
        rc = mars_text_add(out, w[i].s, w[i].n);
        if (rc == WL_OK) rc = mars_text_printf(out, " %ld\n", j - i);
        i = j;
    }
    *n_words = n;
    free(w);
    return rc;
}

/* Upper-cases the text and cuts it into NUL-terminated chunks (records keyed by their bytes). */
static int make_chunks(mars_text *text, int chunk, mars_host_kv *h)
{
    memset(h, 0, sizeof *h);
    for (long i = 0; i < text->len; i++)
        if (text->s[i] >= 'a' && text->s[i] <= 'z') text->s[i] = (char)(text->s[i] - 'a' + 'A');
    h->index = malloc(((size_t)text->len / (size_t)chunk + 2) * 16);
    if (!h->index) return WL_ERROR;
    for (long start = 0; start < text->len;) {
        long end = start + chunk - 1;
        if (end >= text->len - 1) end = text->len - 1;
        else
            while (is_letter(text->s[end])) end++;
        text->s[end] = '\0';
        int32_t *r = h->index + 4 * h->n++;
        r[0] = (int32_t)start;
        r[1] = (int32_t)(end + 1 - start);
        r[2] = r[3] = 0;
        start = end + 1;
    }
    h->keys = text->s;
    h->key_bytes = text->len;
    text->s = NULL;
    text->len = text->cap = 0;
    return WL_OK;
}

static int run(wl_ctx *c)
{
    int lines = (int)wl_param(c, "lines"), vocab = (int)wl_param(c, "vocab"), chunk = (int)wl_param(c, "chunk");
    mars_text text = {0}, want = {0}, got = {0};
    mars_host_kv input = {0}, result = {0};
    mars_job job = {0};
    int32_t *starts = NULL;
    long n_words = 0;
    int rc = mars_zipf_text(7001 + (uint64_t)lines, lines, vocab, &text);
    if (rc == WL_OK) rc = make_chunks(&text, chunk, &input);
    if (rc == WL_OK) rc = cpu_word_count(input.keys, input.key_bytes, &want, &n_words);
    if (rc == WL_OK) rc = mars_kv_upload(c, &job.in, &input);
    if (rc == WL_OK) rc = mars_run_job(c, &job, MARS_GROUP, 0);
    if (rc == WL_OK)
        fprintf(c->out, "WC: %d lines, %ld bytes in %d chunks, %d long words (%ld expected), %d distinct\n", lines,
                input.key_bytes, input.n, job.inter.n, n_words, job.groups);
    if (rc == WL_OK) rc = mars_download_groups(c, &job, job.starts, &result, &starts);
    for (int g = 0; rc == WL_OK && g < job.groups; g++) {
        const int32_t *r = result.index + 4 * starts[g];
        rc = mars_text_add(&got, result.keys + r[0], r[1] - 1);
        if (rc == WL_OK) rc = mars_text_printf(&got, " %d\n", starts[g + 1] - starts[g]);
    }
    if (rc == WL_OK && mars_compare_text(c, "word counts", got.s ? got.s : "", want.s ? want.s : "")) rc = WL_WRONG;
    mars_job_free(c, &job);
    mars_host_kv_free(&input);
    mars_host_kv_free(&result);
    free(starts);
    free(text.s);
    free(want.s);
    free(got.s);
    return rc;
}

const wl_desc workload_mars_wc = {
    .name = "WC",
    .suite = "mars",
    .description = "Mars word count: map (word, size) per long word of each 2 KB chunk, bitonic sort, group sizes count",
    .kernels = MARS_KERNELS_GROUP,
    .ptx = workload_mars_wc_ptx,
    .ptxas = workload_mars_wc_ptxas,
    .params = {"lines", "vocab", "chunk"},
    .tiny = {256, 1000, 256},
    .sim = {8192, 10000, 2048},
    .paper = {65536, 20000, 2048},
    .run = run,
};
