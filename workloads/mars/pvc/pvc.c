/* PVC driver (Mars Page View Count): a synthetic web log from mars_web_log (pages Zipf(1.0),
 * visitors Zipf(0.8), seed fixed per size), two MapReduce jobs (remove duplicate (url, ip)
 * entries; count the entries per url), the (url, distinct visitors) list in byte order of the
 * urls checked exactly against a CPU count.
 * Sizes: Mars' PageViewCount data set is `Gen data 1000000` (1 M log lines, 1024 pages); CBWT
 * (seed 001, HCS benchmark "PVC") uses Mars' inputs without stating them: paper = 1 M lines. */
#include <stdlib.h>
#include <string.h>

#include "../common/mars.h"

extern const char workload_mars_pvc_ptx[], workload_mars_pvc_ptxas[];

typedef struct page_count {
    char url[64];
    int len, count;
} page_count;

static int by_url(const void *a, const void *b)
{
    const page_count *x = a, *y = b;
    return mars_bytes_cmp(x->url, x->len, y->url, y->len);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* CPU reference: distinct (page, visitor) pairs counted per page, listed by url bytes. */
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
            n++;
        }
    qsort(pc, (size_t)n, sizeof *pc, by_url);
    int rc = WL_OK;
    for (int i = 0; i < n && rc == WL_OK; i++) rc = mars_text_printf(out, "%s %d\n", pc[i].url, pc[i].count);
    free(pair);
    free(pc);
    return rc;
}

static int run(wl_ctx *c)
{
    int lines = (int)wl_param(c, "lines"), pages = (int)wl_param(c, "pages"), visitors = (int)wl_param(c, "visitors");
    mars_text text = {0}, want = {0};
    mars_host_kv input = {0};
    mars_job dedup = {0}, count = {0};
    int32_t *page = malloc((size_t)lines * 4), *visitor = malloc((size_t)lines * 4);
    int rc = page && visitor ? WL_OK : WL_ERROR;
    if (rc == WL_OK) rc = mars_web_log(1001 + (uint64_t)lines, lines, pages, visitors, &text, page, visitor);
    if (rc == WL_OK) rc = cpu_page_views(page, visitor, lines, pages, &want);
    if (rc == WL_OK) rc = mars_lines_kv(&text, &input);
    if (rc == WL_OK) rc = mars_kv_upload(c, &dedup.in, &input);
    /* Job 1: distinct (url, ip) entries; job 2 counts them per url. */
    if (rc == WL_OK) rc = mars_run_job(c, &dedup, MARS_REDUCE, 0);
    if (rc == WL_OK) {
        count.in = dedup.out;
        memset(&dedup.out, 0, sizeof dedup.out);
        rc = mars_run_job(c, &count, MARS_REDUCE, 1);
    }
    if (rc == WL_OK)
        fprintf(c->out, "PVC: %d log lines, %ld bytes, %d distinct (url, ip) entries, %d pages viewed\n", input.n,
                input.key_bytes, dedup.groups, count.groups);
    if (rc == WL_OK) rc = mars_check_kv(c, &count.out, 0, count.out.vals, "page views", &want);
    mars_job_free(c, &dedup);
    mars_job_free(c, &count);
    mars_host_kv_free(&input);
    free(text.s);
    free(want.s);
    free(page);
    free(visitor);
    return rc;
}

const wl_desc workload_mars_pvc = {
    .name = "PVC",
    .suite = "mars",
    .description = "Mars page view count: two MapReduce jobs (distinct (url, ip) entries, then entries per url)",
    .kernels = MARS_KERNELS_REDUCE,
    .ptx = workload_mars_pvc_ptx,
    .ptxas = workload_mars_pvc_ptxas,
    .params = {"lines", "pages", "visitors"},
    .tiny = {128, 64, 16},
    .sim = {8192, 1024, 1024},
    .paper = {1000000, 1024, 65536},
    .run = run,
};
