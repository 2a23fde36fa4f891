/* SM driver (Mars String Match): a word-per-line text (the words of mars_zipf_text, Zipf(1.0)
 * vocabulary, seed fixed per size), cut into blocks of about `block` bytes ending at a newline
 * as Mars' StringMatch prepares its file (1 KB in Mars; 128 B at tiny size, so that a timing
 * run stays short); keyword = the vocabulary word of rank `rank` (a frequent
 * 3-letter word, as Mars' "org"); one map-only job; the (line offset, line size) matches in
 * block order (one block per task, lines in order) checked exactly against a CPU scan.
 * Sizes: Mars runs StringMatch on `sample.txt` x1024 with the keyword "org" (size not stated);
 * CBWT (seed 001, MCS benchmark "SM") uses Mars' inputs: paper = 262144 text lines (about 2 M
 * words, 12 MB). */
#include <stdlib.h>
#include <string.h>

#include "../common/mars.h"

extern const char workload_mars_sm_ptx[], workload_mars_sm_ptxas[];

/* One word per line: the text's runs of letters. */
static int word_lines(const mars_text *t, mars_text *out)
{
    int rc = WL_OK;
    for (long i = 0; i < t->len && rc == WL_OK;) {
        while (i < t->len && !(t->s[i] >= 'a' && t->s[i] <= 'z') && !(t->s[i] >= 'A' && t->s[i] <= 'Z')) i++;
        long start = i;
        while (i < t->len && ((t->s[i] >= 'a' && t->s[i] <= 'z') || (t->s[i] >= 'A' && t->s[i] <= 'Z'))) i++;
        if (i > start) rc = mars_text_add(out, t->s + start, i - start);
        if (i > start && rc == WL_OK) rc = mars_text_add(out, "\n", 1);
    }
    return rc;
}

/* CPU reference: every line equal to the keyword, in order. */
static int cpu_match(const mars_text *w, const char *word, int wlen, mars_text *out, long *matches)
{
    int rc = WL_OK;
    *matches = 0;
    for (long i = 0; i < w->len && rc == WL_OK;) {
        long n = (long)strcspn(w->s + i, "\n");
        if (n == wlen && memcmp(w->s + i, word, (size_t)wlen) == 0) {
            rc = mars_text_printf(out, "%ld %d\n", i, wlen + 1);
            ++*matches;
        }
        i += n + 1;
    }
    return rc;
}

static int run(wl_ctx *c)
{
    int lines = (int)wl_param(c, "lines"), vocab = (int)wl_param(c, "vocab"), rank = (int)wl_param(c, "rank");
    long block = wl_param(c, "block");
    if (rank >= vocab) return wl_fail(c, "rank must be below vocab");
    char word[16];
    int wlen = mars_word(rank, word), wsize = wlen + 1;
    mars_text text = {0}, words = {0}, want = {0};
    mars_host_kv input = {0};
    mars_job job = {0};
    gtlm_devptr d_text = 0, d_word = 0;
    long matches = 0;
    int rc = mars_zipf_text(5001 + (uint64_t)lines, lines, vocab, &text);
    if (rc == WL_OK) rc = word_lines(&text, &words);
    if (rc == WL_OK) rc = cpu_match(&words, word, wlen, &want, &matches);
    if (rc == WL_OK) rc = wl_upload(c, &d_text, words.s, (size_t)words.len);
    if (rc == WL_OK) rc = wl_upload(c, &d_word, word, (size_t)wsize);
    /* Records: {text, keyword} keys, {offset, size, keyword size} values, one per block. */
    long max_blocks = words.len / block + 2;
    input.keys = malloc((size_t)max_blocks * 16);
    input.vals = malloc((size_t)max_blocks * 12);
    input.index = malloc((size_t)max_blocks * 16);
    if (rc == WL_OK && (!input.keys || !input.vals || !input.index)) rc = WL_ERROR;
    for (long start = 0; rc == WL_OK && start < words.len;) {
        long end = start + block - 1;
        if (end >= words.len) end = words.len - 1;
        while (words.s[end] != '\n') end++;
        uint64_t k[2] = {d_text, d_word};
        int32_t v[3] = {(int32_t)start, (int32_t)(end + 1 - start), wsize}, *r = input.index + 4 * input.n;
        memcpy(input.keys + 16 * input.n, k, 16);
        memcpy(input.vals + 12 * input.n, v, 12);
        r[0] = 16 * input.n;
        r[1] = 16;
        r[2] = 12 * input.n;
        r[3] = 12;
        input.n++;
        start = end + 1;
    }
    input.key_bytes = 16L * input.n;
    input.val_bytes = 12L * input.n;
    if (rc == WL_OK) rc = mars_kv_upload(c, &job.in, &input);
    if (rc == WL_OK) rc = mars_run_job(c, &job, MARS_MAP_ONLY, 0);
    if (rc == WL_OK)
        fprintf(c->out, "SM: %ld text lines as %ld bytes of words in %d blocks, keyword '%s': %d matches (%ld expected)\n",
                (long)lines, words.len, input.n, word, job.inter.n, matches);
    if (rc == WL_OK) rc = mars_check_kv(c, &job.inter, 1, job.inter.keys, "matches", &want);
    mars_job_free(c, &job);
    if (d_text) gtlm_free(c->sim, d_text);
    if (d_word) gtlm_free(c->sim, d_word);
    mars_host_kv_free(&input);
    free(text.s);
    free(words.s);
    free(want.s);
    return rc;
}

const wl_desc workload_mars_sm = {
    .name = "SM",
    .suite = "mars",
    .description = "Mars string match: map-only search of a word-per-line text for lines equal to a keyword, 1 KB "
                   "blocks per thread",
    .kernels = MARS_KERNELS_MAP,
    .ptx = workload_mars_sm_ptx,
    .ptxas = workload_mars_sm_ptxas,
    .params = {"lines", "vocab", "rank", "block"},
    .tiny = {384, 1000, 5, 128},
    .sim = {32768, 10000, 5, 1024},
    .paper = {262144, 20000, 5, 1024},
    .run = run,
};
