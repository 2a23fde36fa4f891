/* WC driver (Mars Word Count): English-like text from mars_zipf_text (lines of 4..16 words
 * drawn from a Zipf(1.0) vocabulary, seed fixed per size), one map-sort-group-reduce job,
 * the (word, count) list in byte order checked exactly against a CPU count.
 * Sizes: Mars runs WordCount on its `sample` text x4 (size not stated); CBWT (seed 001, HCS
 * benchmark "WC") uses Mars' inputs without giving them. paper = 65536 lines (about 4.5 MB). */
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

static int is_letter(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }

/* CPU reference: every word, sorted, counted. */
static int cpu_word_count(const char *text, long len, mars_text *out, long *n_words)
{
    long cap = len / 2 + 1, n = 0;
    word *w = malloc((size_t)cap * sizeof *w);
    if (!w) return WL_ERROR;
    for (long i = 0; i < len;) {
        while (i < len && !is_letter(text[i])) i++;
        long start = i;
        while (i < len && is_letter(text[i])) i++;
        if (i > start) w[n++] = (word){text + start, (int)(i - start)};
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

static int run(wl_ctx *c)
{
    int lines = (int)wl_param(c, "lines"), vocab = (int)wl_param(c, "vocab");
    mars_text text = {0}, want = {0};
    mars_host_kv input = {0};
    mars_job job = {0};
    long n_words = 0;
    int rc = mars_zipf_text(7001 + (uint64_t)lines, lines, vocab, &text);
    if (rc == WL_OK) rc = cpu_word_count(text.s, text.len, &want, &n_words);
    if (rc == WL_OK) rc = mars_lines_kv(&text, &input);
    if (rc == WL_OK) rc = mars_kv_upload(c, &job.in, &input);
    if (rc == WL_OK) rc = mars_run_job(c, &job, MARS_REDUCE, 0);
    if (rc == WL_OK)
        fprintf(c->out, "WC: %d lines, %ld bytes, %d words (%ld expected), %d distinct\n", input.n,
                input.key_bytes, job.inter.n, n_words, job.groups);
    if (rc == WL_OK) rc = mars_check_kv(c, &job.out, 0, job.out.vals, "word counts", &want);
    mars_job_free(c, &job);
    mars_host_kv_free(&input);
    free(text.s);
    free(want.s);
    return rc;
}

const wl_desc workload_mars_wc = {
    .name = "WC",
    .suite = "mars",
    .description = "Mars word count: map (word, 1) per line, bitonic sort by word, group, reduce sums",
    .kernels = MARS_KERNELS_REDUCE,
    .ptx = workload_mars_wc_ptx,
    .ptxas = workload_mars_wc_ptxas,
    .params = {"lines", "vocab"},
    .tiny = {96, 1000},
    .sim = {2048, 10000},
    .paper = {65536, 20000},
    .run = run,
};
