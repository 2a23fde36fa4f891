/* SM driver (Mars String Match): English-like text from mars_zipf_text (Zipf(1.0) vocabulary,
 * seed fixed per size), keyword = the vocabulary word of rank `rank` (a frequent short word, as
 * Mars' keyword "org"), one map-only job; the (position, line offset) list in line order
 * (one record per task, positions ascending within a line) checked exactly against a CPU scan.
 * Sizes: Mars runs StringMatch on `sample.txt` x1024 with the keyword "org" (size not stated);
 * CBWT (seed 001, MCS benchmark "SM") uses Mars' inputs: paper = 262144 lines (about 16 MB). */
#include <stdlib.h>
#include <string.h>

#include "../common/mars.h"

extern const char workload_mars_sm_ptx[], workload_mars_sm_ptxas[];

/* CPU reference: every occurrence, line by line. */
static int cpu_match(const mars_host_kv *in, const char *word, int wlen, mars_text *out, long *matches)
{
    int rc = WL_OK;
    *matches = 0;
    for (int l = 0; l < in->n && rc == WL_OK; l++) {
        const int32_t *r = in->index + 4 * l;
        for (int i = 0; i + wlen <= r[1] && rc == WL_OK; i++)
            if (memcmp(in->keys + r[0] + i, word, (size_t)wlen) == 0) {
                rc = mars_text_printf(out, "%d %d\n", r[0] + i, r[0]);
                ++*matches;
            }
    }
    return rc;
}

static int run(wl_ctx *c)
{
    int lines = (int)wl_param(c, "lines"), vocab = (int)wl_param(c, "vocab"), rank = (int)wl_param(c, "rank");
    if (rank >= vocab) return wl_fail(c, "rank must be below vocab");
    char word[16];
    int wlen = mars_word(rank, word);
    mars_text text = {0}, want = {0};
    mars_host_kv input = {0};
    mars_job job = {0};
    long matches = 0;
    int rc = mars_zipf_text(5001 + (uint64_t)lines, lines, vocab, &text);
    if (rc == WL_OK) rc = mars_lines_kv(&text, &input);
    if (rc == WL_OK) {
        input.vals = malloc(sizeof word);
        if (!input.vals) rc = WL_ERROR;
    }
    if (rc == WL_OK) {
        memcpy(input.vals, word, (size_t)wlen);
        input.val_bytes = wlen;
        for (int l = 0; l < input.n; l++) input.index[4 * l + 3] = wlen; /* value = the keyword at offset 0 */
        rc = cpu_match(&input, word, wlen, &want, &matches);
    }
    if (rc == WL_OK) rc = mars_kv_upload(c, &job.in, &input);
    if (rc == WL_OK) rc = mars_run_job(c, &job, MARS_MAP_ONLY, 0);
    if (rc == WL_OK)
        fprintf(c->out, "SM: %d lines, %ld bytes, keyword '%s': %d matches (%ld expected)\n", input.n,
                input.key_bytes, word, job.inter.n, matches);
    if (rc == WL_OK) rc = mars_check_kv(c, &job.inter, 1, job.inter.keys, "matches", &want);
    mars_job_free(c, &job);
    mars_host_kv_free(&input);
    free(text.s);
    free(want.s);
    return rc;
}

const wl_desc workload_mars_sm = {
    .name = "SM",
    .suite = "mars",
    .description = "Mars string match: map-only keyword search, one line per thread, byte-wise compares",
    .kernels = MARS_KERNELS_MAP,
    .ptx = workload_mars_sm_ptx,
    .ptxas = workload_mars_sm_ptxas,
    .params = {"lines", "vocab", "rank"},
    .tiny = {512, 1000, 5},
    .sim = {8192, 10000, 5},
    .paper = {262144, 20000, 5},
    .run = run,
};
