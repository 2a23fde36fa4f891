/* PVC driver (Mars Page View Count): a synthetic web log from mars_web_log (pages Zipf(1.0),
 * visitors Zipf(0.8) with their own cookies, seed fixed per size), its lines NUL-terminated in
 * one device buffer as Mars prepares it; job 1 removes duplicate entries, job 2 groups the
 * distinct entries by url. The (url, distinct visitors) list in the device's order (url hash,
 * then url bytes) is checked exactly against a CPU count.
 * Sizes: Mars' PageViewCount data set is `Gen data 1000000` (1 M log lines, 1024 pages); CBWT
 * (seed 001, HCS benchmark "PVC") uses Mars' inputs without stating them: paper = 1 M lines. */
#include <stdlib.h>
#include <string.h>

#include "../common/mars.h"

extern const char workload_mars_pvc_ptx[], workload_mars_pvc_ptxas[];

/* The device's key record (pvc.cu). */
typedef struct pvc_key {
    uint64_t log;
    int32_t entry, hash;
} pvc_key;

typedef struct page_count {
    char url[64];
    int len, count;
    int32_t hash;
} page_count;

static int by_hash_url(const void *a, const void *b)
{
    const page_count *x = a, *y = b;
    return mars_hashed_cmp(x->hash, x->url, x->len, y->hash, y->url, y->len);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* CPU reference: distinct (page, visitor) entries counted per page, in the device's order. */
static int cpu_page_views(const int32_t *page, const int32_t *visitor, int lines, int pages, mars_text *out)
{
    uint64_t *pair = malloc((size_t)lines * sizeof *pair);
    page_count *pc = calloc((size_t)pages, sizeof *pc);
    if (!pair || !pc) {
        free(pair);
        free(pc);
        return WL_ERROR;
    }
    for (int l = 0; l < lines; l++) pair[l] = (uint64_t)page[l] << 32 | (uint32_t)visitor[l];
    qsort(pair, (size_t)lines, sizeof *pair, by_u64);
    for (int l = 0; l < lines; l++)
        if (l == 0 || pair[l] != pair[l - 1]) pc[pair[l] >> 32].count++;
    int n = 0;
    for (int p = 0; p < pages; p++)
        if (pc[p].count) {
            pc[n].count = pc[p].count;
            pc[n].len = mars_url(p, pc[n].url);
            pc[n].hash = mars_hash(pc[n].url, pc[n].len + 1); /* with the NUL the map writes */
            n++;
        }
    qsort(pc, (size_t)n, sizeof *pc, by_hash_url);
    int rc = WL_OK;
    for (int i = 0; i < n && rc == WL_OK; i++) rc = mars_text_printf(out, "%s %d\n", pc[i].url, pc[i].count);
    free(pair);
    free(pc);
    return rc;
}

/* The log in device memory (lines NUL-terminated) and one record per entry: key {log, entry
 * offset, 0}, value {phase 0, entry size}. */
static int make_input(wl_ctx *c, mars_text *log, gtlm_devptr *d_log, mars_host_kv *h)
{
    memset(h, 0, sizeof *h);
    long lines = 0;
    for (long i = 0; i < log->len; i++)
        if (log->s[i] == '\n') {
            log->s[i] = '\0';
            lines++;
        }
    int rc = wl_upload(c, d_log, log->s, (size_t)log->len);
    h->keys = malloc((size_t)lines * sizeof(pvc_key) + 1);
    h->vals = malloc((size_t)lines * 8 + 1);
    h->index = malloc((size_t)lines * 16 + 1);
    if (rc == WL_OK && (!h->keys || !h->vals || !h->index)) rc = WL_ERROR;
    for (long i = 0, start = 0; rc == WL_OK && i < log->len; i++) {
        if (log->s[i] != '\0') continue;
        pvc_key k = {*d_log, (int32_t)start, 0};
        int32_t v[2] = {0, (int32_t)(i + 1 - start)}, *r = h->index + 4 * h->n;
        memcpy(h->keys + sizeof k * (size_t)h->n, &k, sizeof k);
        memcpy(h->vals + 8 * (size_t)h->n, v, 8);
        r[0] = (int32_t)(sizeof k * (size_t)h->n);
        r[1] = (int32_t)sizeof k;
        r[2] = 8 * h->n;
        r[3] = 8;
        h->n++;
        start = i + 1;
    }
    h->key_bytes = (long)sizeof(pvc_key) * h->n;
    h->val_bytes = 8L * h->n;
    return rc;
}

static int run(wl_ctx *c)
{
    int lines = (int)wl_param(c, "lines"), pages = (int)wl_param(c, "pages"), visitors = (int)wl_param(c, "visitors");
    mars_text log = {0}, want = {0}, got = {0};
    mars_host_kv input = {0}, result = {0};
    mars_job dedup = {0}, count = {0};
    gtlm_devptr d_log = 0;
    int32_t *starts = NULL;
    int32_t *page = malloc((size_t)lines * 4), *visitor = malloc((size_t)lines * 4);
    int rc = page && visitor ? WL_OK : WL_ERROR;
    if (rc == WL_OK) rc = mars_web_log(1001 + (uint64_t)lines, lines, pages, visitors, &log, page, visitor);
    if (rc == WL_OK) rc = cpu_page_views(page, visitor, lines, pages, &want);
    if (rc == WL_OK) rc = make_input(c, &log, &d_log, &input);
    if (rc == WL_OK) rc = mars_kv_upload(c, &dedup.in, &input);
    /* Job 1: distinct entries; job 2 groups them by url. */
    if (rc == WL_OK) rc = mars_run_job(c, &dedup, MARS_REDUCE, 0);
    if (rc == WL_OK) {
        count.in = dedup.out;
        memset(&dedup.out, 0, sizeof dedup.out);
        rc = mars_run_job(c, &count, MARS_GROUP, 1);
    }
    if (rc == WL_OK)
        fprintf(c->out, "PVC: %d log lines, %ld bytes, %d distinct entries, %d pages viewed\n", input.n, log.len,
                dedup.groups, count.groups);
    if (rc == WL_OK) rc = mars_download_groups(c, &count, count.starts, &result, &starts);
    for (int g = 0; rc == WL_OK && g < count.groups; g++) {
        pvc_key k;
        memcpy(&k, result.keys + result.index[4 * starts[g]], sizeof k);
        if (k.entry < 0 || k.entry >= log.len) {
            rc = wl_fail(c, "group %d: entry offset %d outside the log", g, k.entry);
            break;
        }
        rc = mars_text_add(&got, log.s + k.entry, (long)strcspn(log.s + k.entry, "\t"));
        if (rc == WL_OK) rc = mars_text_printf(&got, " %d\n", starts[g + 1] - starts[g]);
    }
    if (rc == WL_OK && mars_compare_text(c, "page views", got.s ? got.s : "", want.s ? want.s : "")) rc = WL_WRONG;
    mars_job_free(c, &dedup);
    mars_job_free(c, &count);
    if (d_log) gtlm_free(c->sim, d_log);
    mars_host_kv_free(&input);
    mars_host_kv_free(&result);
    free(starts);
    free(log.s);
    free(want.s);
    free(got.s);
    free(page);
    free(visitor);
    return rc;
}

const wl_desc workload_mars_pvc = {
    .name = "PVC",
    .suite = "mars",
    .description = "Mars page view count: job 1 removes duplicate log entries (map, sort, group, reduce), job 2 "
                   "groups the entries by url",
    .kernels = MARS_KERNELS_REDUCE,
    .ptx = workload_mars_pvc_ptx,
    .ptxas = workload_mars_pvc_ptxas,
    .params = {"lines", "pages", "visitors"},
    .tiny = {128, 64, 16},
    .sim = {8192, 1024, 1024},
    .paper = {1000000, 1024, 65536},
    .run = run,
};
