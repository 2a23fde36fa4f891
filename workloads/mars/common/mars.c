/* Mars MapReduce runtime, host side (see mars.h). */
#include "mars.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 256
#define SCAN_ELEMS 512
#define SORT_CHUNK 512
#define PER_TASK 1 /* records (or groups) per thread, Mars' default */

static unsigned blocks_for(long items, long per_block) { return items > 0 ? (unsigned)((items + per_block - 1) / per_block) : 1; }

static int launch(wl_ctx *c, const char *kernel, unsigned blocks, const void *const *args, const size_t *sizes,
                  size_t n)
{
    return wl_launch(c, kernel, blocks, 1, 1, BLOCK, 1, 1, 0, args, sizes, n);
}

/* Exclusive prefix sum of n ints (recursive over the block sums). */
static int scan(wl_ctx *c, gtlm_devptr in, gtlm_devptr out, int n)
{
    unsigned blocks = blocks_for(n, SCAN_ELEMS);
    gtlm_devptr sums = 0, sums_scanned = 0;
    int rc = wl_alloc(c, &sums, (size_t)blocks * 4);
    const void *a[] = {&in, &out, &sums, &n};
    const size_t s[] = {8, 8, 8, 4};
    if (rc == WL_OK) rc = launch(c, "mars_prescan", blocks, a, s, 4);
    if (rc == WL_OK && blocks > 1) {
        int nb = (int)blocks;
        rc = wl_alloc(c, &sums_scanned, (size_t)blocks * 4);
        if (rc == WL_OK) rc = scan(c, sums, sums_scanned, nb);
        const void *u[] = {&out, &sums_scanned, &n};
        const size_t us[] = {8, 8, 4};
        if (rc == WL_OK) rc = launch(c, "mars_uniform_add", blocks, u, us, 3);
    }
    if (sums) gtlm_free(c->sim, sums);
    if (sums_scanned) gtlm_free(c->sim, sums_scanned);
    return rc;
}

/* Scan, and the total (last input + last output). */
static int scan_total(wl_ctx *c, gtlm_devptr in, gtlm_devptr out, int n, long *total)
{
    int32_t last_in = 0, last_out = 0;
    int rc = scan(c, in, out, n);
    if (rc == WL_OK) rc = wl_download(c, &last_in, in + (gtlm_devptr)(n - 1) * 4, 4);
    if (rc == WL_OK) rc = wl_download(c, &last_out, out + (gtlm_devptr)(n - 1) * 4, 4);
    *total = (long)last_in + last_out;
    return rc;
}

static int pow2_cap(int n)
{
    int cap = SORT_CHUNK;
    while (cap < n) cap *= 2;
    return cap;
}

/* Allocates a set of n records with the given byte totals; the index tail is padding. */
static int kv_alloc(wl_ctx *c, mars_kv *kv, int n, long key_bytes, long val_bytes)
{
    memset(kv, 0, sizeof *kv);
    kv->n = n;
    kv->cap = pow2_cap(n);
    kv->key_bytes = key_bytes;
    kv->val_bytes = val_bytes;
    int rc = wl_alloc(c, &kv->keys, (size_t)(key_bytes > 4 ? key_bytes : 4));
    if (rc == WL_OK) rc = wl_alloc(c, &kv->vals, (size_t)(val_bytes > 4 ? val_bytes : 4));
    if (rc == WL_OK) rc = wl_alloc(c, &kv->index, (size_t)kv->cap * 16);
    if (rc == WL_OK)
        rc = wl_check(c, gtlm_memset(c->sim, kv->index + (gtlm_devptr)n * 16, 0xff, (size_t)(kv->cap - n) * 16),
                      "gtlm_memset");
    return rc;
}

static int zeroed(wl_ctx *c, gtlm_devptr *p, size_t bytes)
{
    int rc = wl_alloc(c, p, bytes);
    return rc == WL_OK ? wl_check(c, gtlm_memset(c->sim, *p, 0, bytes), "gtlm_memset") : rc;
}

/* The count pass, three scans and the write pass of a map or reduce phase. args holds the
 * phase's leading arguments (np of them) and room for eight more. */
static int two_pass(wl_ctx *c, const char *count_kernel, const char *write_kernel, const void **args, size_t *sizes,
                    size_t np, int items, mars_kv *out)
{
    unsigned blocks = blocks_for(items, (long)BLOCK * PER_TASK);
    int tasks = (int)blocks * BLOCK;
    gtlm_devptr cnt[3] = {0, 0, 0}, base[3] = {0, 0, 0}, offsets = 0, emitted = 0;
    long total[3] = {0, 0, 0};
    int rc = WL_OK;
    for (int i = 0; i < 3 && rc == WL_OK; i++) rc = zeroed(c, &cnt[i], (size_t)tasks * 4);
    for (int i = 0; i < 3 && rc == WL_OK; i++) rc = wl_alloc(c, &base[i], (size_t)tasks * 4);
    if (rc == WL_OK) rc = zeroed(c, &offsets, (size_t)tasks * 8);
    if (rc == WL_OK) rc = zeroed(c, &emitted, (size_t)tasks * 4);
    for (int i = 0; i < 3; i++) {
        args[np + i] = &cnt[i];
        sizes[np + i] = 8;
    }
    if (rc == WL_OK) rc = launch(c, count_kernel, blocks, args, sizes, np + 3);
    for (int i = 0; i < 3 && rc == WL_OK; i++) rc = scan_total(c, cnt[i], base[i], tasks, &total[i]);
    if (rc == WL_OK && (total[0] > INT32_MAX || total[1] > INT32_MAX || total[2] > INT32_MAX))
        rc = wl_fail(c, "%s: output too large for int offsets", write_kernel);
    if (rc == WL_OK) rc = kv_alloc(c, out, (int)total[2], total[0], total[1]);
    const gtlm_devptr *tail[8] = {&base[0], &base[1], &base[2], &offsets, &emitted, &out->keys, &out->vals, &out->index};
    for (int i = 0; i < 8; i++) {
        args[np + i] = tail[i];
        sizes[np + i] = 8;
    }
    if (rc == WL_OK) rc = launch(c, write_kernel, blocks, args, sizes, np + 8);
    gtlm_devptr all[] = {cnt[0], cnt[1], cnt[2], base[0], base[1], base[2], offsets, emitted};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i]) gtlm_free(c->sim, all[i]);
    return rc;
}

int mars_map_phase(wl_ctx *c, const mars_kv *in, int stage, mars_kv *out)
{
    int per_task = PER_TASK;
    const void *args[15] = {&in->keys, &in->vals, &in->index, &in->n, &per_task, &stage};
    size_t sizes[15] = {8, 8, 8, 4, 4, 4};
    return two_pass(c, "mars_map_count", "mars_map", args, sizes, 6, in->n, out);
}

int mars_reduce_phase(wl_ctx *c, const mars_kv *in, gtlm_devptr starts, int groups, int stage, mars_kv *out)
{
    int per_task = PER_TASK;
    const void *args[15] = {&in->keys, &in->vals, &in->index, &starts, &groups, &per_task, &stage};
    size_t sizes[15] = {8, 8, 8, 8, 4, 4, 4};
    return two_pass(c, "mars_reduce_count", "mars_reduce", args, sizes, 7, groups, out);
}

/* Copies the keys (part 0) or values (part 1) into a new buffer in the sorted order. */
static int copy_sorted(wl_ctx *c, mars_kv *kv, int part)
{
    int n = kv->n;
    unsigned blocks = blocks_for(n, BLOCK);
    gtlm_devptr chunk = 0, at = 0, dst = 0, *src = part == 0 ? &kv->keys : &kv->vals;
    long total = 0;
    int rc = wl_alloc(c, &chunk, (size_t)n * 4 + 4);
    if (rc == WL_OK) rc = wl_alloc(c, &at, (size_t)n * 4 + 4);
    const void *a[] = {&kv->index, &n, &part, &chunk};
    const size_t as[] = {8, 4, 4, 8};
    if (rc == WL_OK) rc = launch(c, "mars_chunk_sizes", blocks, a, as, 4);
    if (rc == WL_OK) rc = scan_total(c, chunk, at, n, &total);
    if (rc == WL_OK) rc = wl_alloc(c, &dst, (size_t)(total > 4 ? total : 4));
    const void *b[] = {src, &kv->index, &at, &n, &part, &dst};
    const size_t bs[] = {8, 8, 8, 4, 4, 8};
    if (rc == WL_OK) rc = launch(c, "mars_copy_chunks", blocks, b, bs, 6);
    if (rc == WL_OK) {
        gtlm_free(c->sim, *src);
        *src = dst;
    } else if (dst) {
        gtlm_free(c->sim, dst);
    }
    if (chunk) gtlm_free(c->sim, chunk);
    if (at) gtlm_free(c->sim, at);
    return rc;
}

int mars_sort_phase(wl_ctx *c, mars_kv *kv, int stage)
{
    unsigned chunks = (unsigned)(kv->cap / SORT_CHUNK), pairs_blocks = (unsigned)(kv->cap / 2 / BLOCK);
    const void *a[] = {&kv->keys, &kv->vals, &kv->index, &stage};
    const size_t s[] = {8, 8, 8, 4};
    int rc = launch(c, "mars_sort_chunk", chunks, a, s, 4);
    for (int k = 2 * SORT_CHUNK; k <= kv->cap && rc == WL_OK; k *= 2) {
        for (int j = k / 2; j >= SORT_CHUNK && rc == WL_OK; j /= 2) {
            const void *g[] = {&kv->keys, &kv->vals, &kv->index, &j, &k, &stage};
            const size_t gs[] = {8, 8, 8, 4, 4, 4};
            rc = launch(c, "mars_sort_step", pairs_blocks, g, gs, 6);
        }
        const void *m[] = {&kv->keys, &kv->vals, &kv->index, &k, &stage};
        const size_t ms[] = {8, 8, 8, 4, 4};
        if (rc == WL_OK) rc = launch(c, "mars_sort_merge", chunks, m, ms, 5);
    }
    if (rc == WL_OK && kv->val_bytes) rc = copy_sorted(c, kv, 1);
    if (rc == WL_OK && kv->key_bytes) rc = copy_sorted(c, kv, 0);
    return rc;
}

int mars_group_phase(wl_ctx *c, const mars_kv *kv, int stage, gtlm_devptr *starts, int *groups)
{
    int n = kv->n;
    unsigned blocks = blocks_for(n, BLOCK);
    gtlm_devptr flags = 0, ids = 0;
    long total = 0;
    *starts = 0;
    *groups = 0;
    int rc = wl_alloc(c, &flags, (size_t)n * 4 + 4);
    if (rc == WL_OK) rc = wl_alloc(c, &ids, (size_t)n * 4 + 4);
    const void *f[] = {&kv->keys, &kv->index, &n, &stage, &flags};
    const size_t fs[] = {8, 8, 4, 4, 8};
    if (rc == WL_OK) rc = launch(c, "mars_group_flags", blocks, f, fs, 5);
    if (rc == WL_OK) rc = scan_total(c, flags, ids, n, &total);
    if (rc == WL_OK) rc = wl_alloc(c, starts, (size_t)(total + 1) * 4);
    const void *g[] = {&flags, &ids, &n, starts};
    const size_t gs[] = {8, 8, 4, 8};
    if (rc == WL_OK) rc = launch(c, "mars_group_starts", blocks, g, gs, 4);
    if (rc == WL_OK)
        rc = wl_check(c, gtlm_memcpy_htod(c->sim, *starts + (gtlm_devptr)total * 4, &n, 4), "gtlm_memcpy_htod");
    *groups = (int)total;
    if (flags) gtlm_free(c->sim, flags);
    if (ids) gtlm_free(c->sim, ids);
    return rc;
}

int mars_kv_upload(wl_ctx *c, mars_kv *kv, const mars_host_kv *h)
{
    int rc = kv_alloc(c, kv, h->n, h->key_bytes, h->val_bytes);
    if (rc == WL_OK && h->key_bytes)
        rc = wl_check(c, gtlm_memcpy_htod(c->sim, kv->keys, h->keys, (size_t)h->key_bytes), "gtlm_memcpy_htod");
    if (rc == WL_OK && h->val_bytes)
        rc = wl_check(c, gtlm_memcpy_htod(c->sim, kv->vals, h->vals, (size_t)h->val_bytes), "gtlm_memcpy_htod");
    if (rc == WL_OK && h->n)
        rc = wl_check(c, gtlm_memcpy_htod(c->sim, kv->index, h->index, (size_t)h->n * 16), "gtlm_memcpy_htod");
    return rc;
}

int mars_kv_download(wl_ctx *c, const mars_kv *kv, mars_host_kv *h)
{
    memset(h, 0, sizeof *h);
    h->n = kv->n;
    h->key_bytes = kv->key_bytes;
    h->val_bytes = kv->val_bytes;
    h->keys = malloc((size_t)kv->key_bytes + 1);
    h->vals = malloc((size_t)kv->val_bytes + 4);
    h->index = malloc((size_t)kv->n * 16 + 16);
    if (!h->keys || !h->vals || !h->index) return wl_fail(c, "out of host memory");
    int rc = WL_OK;
    if (kv->key_bytes) rc = wl_download(c, h->keys, kv->keys, (size_t)kv->key_bytes);
    if (rc == WL_OK && kv->val_bytes) rc = wl_download(c, h->vals, kv->vals, (size_t)kv->val_bytes);
    if (rc == WL_OK && kv->n) rc = wl_download(c, h->index, kv->index, (size_t)kv->n * 16);
    /* Records must lie inside their buffers before anyone reads through them. */
    for (int i = 0; rc == WL_OK && i < kv->n; i++) {
        const int32_t *r = h->index + 4 * i;
        if (r[0] < 0 || r[1] < 0 || r[0] + (long)r[1] > kv->key_bytes || r[2] < 0 || r[3] < 0 ||
            r[2] + (long)r[3] > kv->val_bytes)
            rc = wl_fail(c, "record %d {%d, %d, %d, %d} outside its buffers", i, r[0], r[1], r[2], r[3]);
    }
    return rc;
}

void mars_kv_free(wl_ctx *c, mars_kv *kv)
{
    gtlm_devptr all[] = {kv->keys, kv->vals, kv->index};
    for (int i = 0; i < 3; i++)
        if (all[i]) gtlm_free(c->sim, all[i]);
    memset(kv, 0, sizeof *kv);
}

void mars_host_kv_free(mars_host_kv *h)
{
    free(h->keys);
    free(h->vals);
    free(h->index);
    memset(h, 0, sizeof *h);
}

int mars_zipf_init(mars_zipf *z, int n, double s)
{
    z->n = n;
    z->cdf = malloc((size_t)n * sizeof *z->cdf);
    if (!z->cdf) return WL_ERROR;
    double sum = 0;
    for (int r = 0; r < n; r++) z->cdf[r] = sum += 1.0 / pow(r + 1.0, s);
    for (int r = 0; r < n; r++) z->cdf[r] /= sum;
    return WL_OK;
}

int mars_zipf_draw(const mars_zipf *z, wl_rng *r)
{
    double u = wl_rng_unit(r);
    int lo = 0, hi = z->n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (z->cdf[mid] > u) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

void mars_zipf_free(mars_zipf *z)
{
    free(z->cdf);
    z->cdf = NULL;
}

int mars_word(int rank, char *buf)
{
    uint64_t h = (uint64_t)rank * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    /* Frequent words are short (Zipf's law of abbreviation): 2..4 letters at the top ranks,
     * about 7..9 at rank 1000, at most 12. */
    int len = 2 + (int)(h % 3) + (int)(log2(rank + 1.0) / 2);
    if (len > 12) len = 12;
    h /= 3;
    for (int i = 0; i < len; i++, h /= 26) buf[i] = (char)('a' + h % 26);
    buf[len] = 0;
    return len;
}

int mars_text_add(mars_text *t, const char *s, long n)
{
    if (t->len + n + 1 > t->cap) {
        long cap = t->cap ? t->cap : 4096;
        while (cap < t->len + n + 1) cap *= 2;
        char *p = realloc(t->s, (size_t)cap);
        if (!p) return WL_ERROR;
        t->s = p;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, (size_t)n);
    t->len += n;
    t->s[t->len] = 0;
    return WL_OK;
}

int mars_text_printf(mars_text *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof buf) return WL_ERROR;
    return mars_text_add(t, buf, n);
}

int mars_lines_kv(mars_text *text, mars_host_kv *h)
{
    memset(h, 0, sizeof *h);
    long lines = 0;
    for (long i = 0; i < text->len; i++) lines += text->s[i] == '\n';
    h->keys = text->s;
    h->key_bytes = text->len;
    text->s = NULL;
    text->len = text->cap = 0;
    h->index = calloc((size_t)lines * 4 + 4, sizeof *h->index);
    if (!h->index) return WL_ERROR;
    long start = 0;
    for (long i = 0; i < h->key_bytes; i++) {
        if (h->keys[i] != '\n') continue;
        int32_t *r = h->index + 4 * h->n++;
        r[0] = (int32_t)start;
        r[1] = (int32_t)(i - start);
        start = i + 1;
    }
    return WL_OK;
}

long mars_compare_text(wl_ctx *c, const char *what, const char *got, const char *want)
{
    long bad = 0, line = 1;
    while (*got || *want) {
        size_t gn = strcspn(got, "\n"), wn = strcspn(want, "\n");
        if (gn != wn || memcmp(got, want, gn) != 0) {
            if (bad++ < 5) wl_fail(c, "%s line %ld: '%.*s', expected '%.*s'", what, line, (int)gn, got, (int)wn, want);
        }
        got += gn + (got[gn] == '\n');
        want += wn + (want[wn] == '\n');
        line++;
    }
    if (bad > 5) wl_fail(c, "%s: %ld differing lines in all", what, bad);
    return bad;
}

int mars_bytes_cmp(const char *a, int na, const char *b, int nb)
{
    int m = na < nb ? na : nb;
    int d = memcmp(a, b, (size_t)m);
    if (d) return d < 0 ? -1 : 1;
    return na < nb ? -1 : na > nb ? 1 : 0;
}

int mars_list_kv(const mars_host_kv *h, int int_keys, mars_text *t)
{
    int rc = WL_OK;
    for (int i = 0; i < h->n && rc == WL_OK; i++) {
        const int32_t *r = h->index + 4 * i;
        if (int_keys) {
            int32_t k;
            memcpy(&k, h->keys + r[0], 4);
            rc = mars_text_printf(t, "%d", k);
        } else {
            rc = mars_text_add(t, h->keys + r[0], r[1]);
        }
        for (int v = 0; v < r[3] / 4 && rc == WL_OK; v++) {
            int32_t x;
            memcpy(&x, h->vals + r[2] + 4 * v, 4);
            rc = mars_text_printf(t, " %d", x);
        }
        if (rc == WL_OK) rc = mars_text_add(t, "\n", 1);
    }
    return rc;
}

int mars_zipf_text(uint64_t seed, int lines, int vocab, mars_text *t)
{
    mars_zipf z;
    if (mars_zipf_init(&z, vocab, 1.0) != WL_OK) return WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, seed);
    int rc = WL_OK;
    char word[16];
    for (int l = 0; l < lines && rc == WL_OK; l++) {
        long words = wl_rng_range(&r, 4, 16);
        for (long w = 0; w < words && rc == WL_OK; w++) {
            int n = mars_word(mars_zipf_draw(&z, &r), word);
            if (w == 0) word[0] = (char)(word[0] - 'a' + 'A'); /* a capital starts the sentence */
            rc = mars_text_add(t, word, n);
            const char *sep = w + 1 == words ? ".\n" : wl_rng_range(&r, 0, 7) == 0 ? ", " : " ";
            if (rc == WL_OK) rc = mars_text_add(t, sep, (long)strlen(sep));
        }
    }
    mars_zipf_free(&z);
    return rc;
}

int mars_url(int page, char *buf) { return snprintf(buf, 64, "http://www.abcdefg.com/%d.html", page); }

int mars_web_log(uint64_t seed, int lines, int pages, int visitors, mars_text *t, int32_t *page, int32_t *visitor)
{
    mars_zipf zp, zv;
    if (mars_zipf_init(&zp, pages, 1.0) != WL_OK) return WL_ERROR;
    if (mars_zipf_init(&zv, visitors, 0.8) != WL_OK) {
        mars_zipf_free(&zp);
        return WL_ERROR;
    }
    wl_rng r;
    wl_rng_seed(&r, seed);
    int rc = WL_OK;
    char url[64];
    for (int l = 0; l < lines && rc == WL_OK; l++) {
        int p = mars_zipf_draw(&zp, &r), v = mars_zipf_draw(&zv, &r);
        if (page) page[l] = p;
        if (visitor) visitor[l] = v;
        mars_url(p, url);
        rc = mars_text_printf(t, "%s\t10.%d.%d.%d\t%d\n", url, v >> 16, (v >> 8) & 255, v & 255, (v * 7919 + 13) % 1000);
    }
    mars_zipf_free(&zp);
    mars_zipf_free(&zv);
    return rc;
}

int mars_run_job(wl_ctx *c, mars_job *j, int kind, int stage)
{
    int rc = mars_map_phase(c, &j->in, stage, &j->inter);
    if (rc == WL_OK && kind >= MARS_SORT) rc = mars_sort_phase(c, &j->inter, stage);
    if (rc == WL_OK && kind >= MARS_GROUP) rc = mars_group_phase(c, &j->inter, stage, &j->starts, &j->groups);
    if (rc == WL_OK && kind >= MARS_REDUCE) rc = mars_reduce_phase(c, &j->inter, j->starts, j->groups, stage, &j->out);
    return rc;
}

void mars_job_free(wl_ctx *c, mars_job *j)
{
    if (j->starts) gtlm_free(c->sim, j->starts);
    mars_kv_free(c, &j->in);
    mars_kv_free(c, &j->inter);
    mars_kv_free(c, &j->out);
    memset(j, 0, sizeof *j);
}

int mars_check_kv(wl_ctx *c, const mars_kv *kv, int int_keys, gtlm_devptr main, const char *what,
                  const mars_text *want)
{
    mars_host_kv h = {0};
    mars_text got = {0};
    int rc = main && kv->n > 0 ? wl_corrupt(c, main, 4) : WL_OK;
    if (rc == WL_OK) rc = mars_kv_download(c, kv, &h);
    if (rc == WL_OK) rc = mars_list_kv(&h, int_keys, &got);
    if (rc == WL_OK && mars_compare_text(c, what, got.s ? got.s : "", want->s ? want->s : "")) rc = WL_WRONG;
    mars_host_kv_free(&h);
    free(got.s);
    return rc;
}

int mars_download_groups(wl_ctx *c, const mars_job *j, gtlm_devptr main, mars_host_kv *h, int32_t **starts)
{
    int rc = main && j->inter.n > 0 ? wl_corrupt(c, main, 4) : WL_OK;
    *starts = malloc(((size_t)j->groups + 1) * 4);
    if (rc == WL_OK && !*starts) rc = WL_ERROR;
    if (rc == WL_OK) rc = wl_download(c, *starts, j->starts, ((size_t)j->groups + 1) * 4);
    if (rc == WL_OK) rc = mars_kv_download(c, &j->inter, h);
    const int32_t *s = *starts;
    for (int g = 0; rc == WL_OK && g < j->groups; g++)
        if (s[g] < 0 || s[g] >= s[g + 1] || s[g + 1] > j->inter.n)
            rc = wl_fail(c, "group %d has bad bounds [%d, %d)", g, s[g], s[g + 1]);
    return rc;
}

int32_t mars_hash(const char *s, int n)
{
    uint32_t h = (uint32_t)n;
    for (int i = 0; i < n; i++) h = (h * 33u) ^ (unsigned char)s[i];
    return (int32_t)h;
}

int mars_hashed_cmp(int32_t ha, const char *a, int na, int32_t hb, const char *b, int nb)
{
    if (ha != hb) return ha > hb ? 1 : -1;
    return mars_bytes_cmp(a, na, b, nb);
}
