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
    mars_text text = {0}, want = {0}, got = {0};
    mars_host_kv input = {0}, result = {0};
    mars_kv in = {0}, inter = {0}, out = {0};
    gtlm_devptr starts = 0;
    int groups = 0;
    long n_words = 0;
    int rc = mars_zipf_text(7001 + (uint64_t)lines, lines, vocab, &text);
    if (rc == WL_OK) rc = cpu_word_count(text.s, text.len, &want, &n_words);
    if (rc == WL_OK) rc = mars_lines_kv(&text, &input);
    if (rc == WL_OK) rc = mars_kv_upload(c, &in, &input);
    if (rc == WL_OK) rc = mars_map_phase(c, &in, 0, &inter);
    if (rc == WL_OK) rc = mars_sort_phase(c, &inter, 0);
    if (rc == WL_OK) rc = mars_group_phase(c, &inter, 0, &starts, &groups);
    if (rc == WL_OK) rc = mars_reduce_phase(c, &inter, starts, groups, 0, &out);
    if (rc == WL_OK)
        fprintf(c->out, "WC: %d lines, %ld bytes, %d words (%ld expected), %d distinct\n", input.n,
                input.key_bytes, inter.n, n_words, groups);
    if (rc == WL_OK) rc = wl_corrupt(c, out.vals, 4);
    if (rc == WL_OK) rc = mars_kv_download(c, &out, &result);
    if (rc == WL_OK) rc = mars_list_kv(&result, 0, &got);
    if (rc == WL_OK && mars_compare_text(c, "word counts", got.s ? got.s : "", want.s ? want.s : "")) rc = WL_WRONG;
    if (starts) gtlm_free(c->sim, starts);
    mars_kv_free(c, &in);
    mars_kv_free(c, &inter);
    mars_kv_free(c, &out);
    mars_host_kv_free(&input);
    mars_host_kv_free(&result);
    free(text.s);
    free(want.s);
    free(got.s);
    return rc;
}

const wl_desc workload_mars_wc = {
    .name = "WC",
    .suite = "mars",
    .description = "Mars word count: map (word, 1) per line, bitonic sort by word, group, reduce sums",
    .kernels = "mars_map_count, mars_map, mars_prescan, mars_uniform_add, mars_sort_chunk, mars_sort_step, "
               "mars_sort_merge, mars_chunk_sizes, mars_copy_chunks, mars_group_flags, mars_group_starts, mars_reduce_count, mars_reduce",
    .ptx = workload_mars_wc_ptx,
    .ptxas = workload_mars_wc_ptxas,
    .params = {"lines", "vocab"},
    .tiny = {96, 1000},
    .sim = {2048, 10000},
    .paper = {65536, 20000},
    .run = run,
};
