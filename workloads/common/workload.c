/* Helpers every workload driver uses: buffers, launches, inputs, verification. */
#include "workload.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

long wl_param(const wl_ctx *c, const char *name)
{
    for (int i = 0; i < WL_MAX_PARAMS && c->desc->params[i]; i++)
        if (strcmp(c->desc->params[i], name) == 0) return c->p[i];
    fprintf(c->out, "%s: internal error: no size parameter '%s'\n", c->desc->name, name);
    abort();
}

int wl_check(wl_ctx *c, int rc, const char *what)
{
    if (rc == GTLM_OK) return WL_OK;
    fprintf(c->out, "%s: %s failed: %s: %s\n", c->desc->name, what, gtlm_status_name(rc), gtlm_last_error());
    return WL_ERROR;
}

int wl_alloc(wl_ctx *c, gtlm_devptr *p, size_t bytes) { return wl_check(c, gtlm_malloc(c->sim, bytes, p), "gtlm_malloc"); }

int wl_upload(wl_ctx *c, gtlm_devptr *p, const void *host, size_t bytes)
{
    if (wl_alloc(c, p, bytes) != WL_OK) return WL_ERROR;
    return wl_check(c, gtlm_memcpy_htod(c->sim, *p, host, bytes), "gtlm_memcpy_htod");
}

int wl_download(wl_ctx *c, void *host, gtlm_devptr p, size_t bytes)
{
    int rc = wl_check(c, gtlm_memcpy_dtoh(c->sim, host, p, bytes), "gtlm_memcpy_dtoh");
    const unsigned char *b = host;
    for (size_t i = 0; rc == WL_OK && i < bytes; i++) c->digest = (c->digest ^ b[i]) * 0x100000001b3ull;
    return rc;
}

int wl_launch(wl_ctx *c, const char *kernel, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
              unsigned bz, size_t dyn_shared, const void *const *args, const size_t *sizes, size_t n)
{
    unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    int rc = gtlm_launch(c->sim, c->mod, kernel, grid, block, dyn_shared, args, sizes, n);
    if (rc == GTLM_OK) return WL_OK;
    fprintf(c->out, "%s: launch of %s failed: %s: %s\n", c->desc->name, kernel, gtlm_status_name(rc),
            gtlm_last_error());
    return WL_ERROR;
}

int wl_sm_count(wl_ctx *c)
{
    char a[32] = "", b[32] = "";
    if (gtlm_option_value(c->sim, "-gpgpu_n_clusters", a, sizeof a) != GTLM_OK ||
        gtlm_option_value(c->sim, "-gpgpu_n_cores_per_cluster", b, sizeof b) != GTLM_OK)
        return 0;
    return atoi(a) * atoi(b);
}

int wl_corrupt(wl_ctx *c, gtlm_devptr p, size_t elem)
{
    if (!c->corrupt) return WL_OK;
    unsigned char b[16] = {0};
    if (elem > sizeof b) elem = sizeof b;
    if (wl_download(c, b, p, elem) != WL_OK) return WL_ERROR;
    b[elem >= 4 ? elem - 2 : 0] ^= 0x40; /* a bit that changes integers and floats */
    return wl_check(c, gtlm_memcpy_htod(c->sim, p, b, elem), "gtlm_memcpy_htod (corrupt)");
}

void wl_rng_seed(wl_rng *r, uint64_t seed) { r->s = seed ? seed : 0x9E3779B97F4A7C15ull; }

uint64_t wl_rng_next(wl_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

double wl_rng_unit(wl_rng *r) { return (double)(wl_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

long wl_rng_range(wl_rng *r, long lo, long hi)
{
    return lo + (long)(wl_rng_next(r) % (uint64_t)(hi - lo + 1));
}

void wl_fill_f32(wl_rng *r, float *v, size_t n, double scale)
{
    for (size_t i = 0; i < n; i++) v[i] = (float)(wl_rng_unit(r) * scale);
}

int wl_fail(wl_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(c->out, "%s: verification failed: ", c->desc->name);
    vfprintf(c->out, fmt, ap);
    fprintf(c->out, "\n");
    va_end(ap);
    c->failures++;
    return WL_WRONG;
}

#define REPORT_LIMIT 5

long wl_compare_i32(wl_ctx *c, const char *what, const int32_t *got, const int32_t *want, size_t n)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (got[i] == want[i]) continue;
        if (bad++ < REPORT_LIMIT) wl_fail(c, "%s[%zu] = %d, expected %d", what, i, got[i], want[i]);
    }
    if (bad > REPORT_LIMIT) wl_fail(c, "%s: %ld mismatches in all", what, bad);
    return bad;
}

long wl_compare_u32(wl_ctx *c, const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (got[i] == want[i]) continue;
        if (bad++ < REPORT_LIMIT) wl_fail(c, "%s[%zu] = %u, expected %u", what, i, got[i], want[i]);
    }
    if (bad > REPORT_LIMIT) wl_fail(c, "%s: %ld mismatches in all", what, bad);
    return bad;
}

static int differs(double got, double want, double pct, double small)
{
    if (isnan(got) != isnan(want)) return 1;
    if (isnan(got)) return 0;
    if (fabs(got) < small && fabs(want) < small) return 0;
    return fabs(got - want) / (fabs(want) + 1e-8) * 100.0 > pct;
}

long wl_compare_f32(wl_ctx *c, const char *what, const float *got, const float *want, size_t n, double pct,
                    double small)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (!differs(got[i], want[i], pct, small)) continue;
        if (bad++ < REPORT_LIMIT) wl_fail(c, "%s[%zu] = %.9g, expected %.9g (tolerance %g%%)", what, i, got[i], want[i], pct);
    }
    if (bad > REPORT_LIMIT) wl_fail(c, "%s: %ld mismatches in all", what, bad);
    return bad;
}

long wl_compare_f64(wl_ctx *c, const char *what, const double *got, const double *want, size_t n, double pct,
                    double small)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (!differs(got[i], want[i], pct, small)) continue;
        if (bad++ < REPORT_LIMIT) wl_fail(c, "%s[%zu] = %.17g, expected %.17g (tolerance %g%%)", what, i, got[i], want[i], pct);
    }
    if (bad > REPORT_LIMIT) wl_fail(c, "%s: %ld mismatches in all", what, bad);
    return bad;
}

static int same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

const wl_desc *wl_find(const char *name)
{
    const wl_desc *found = NULL;
    for (size_t i = 0; i < wl_registry_count; i++) {
        const wl_desc *d = wl_registry[i];
        char full[128];
        snprintf(full, sizeof full, "%s/%s", d->suite, d->name);
        if (same_name(full, name) || same_name(wl_registry_ids[i], name)) return d;
        if (same_name(d->name, name)) {
            if (found) return NULL; /* ambiguous: the suite must be named */
            found = d;
        }
    }
    return found;
}
