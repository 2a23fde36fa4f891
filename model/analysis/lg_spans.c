#include "lg_spans.h"

#include <stdlib.h>
#include <string.h>

int lg_spans_init(lg_spans *s, uint32_t n_tbs, int granularity)
{
    memset(s, 0, sizeof *s);
    s->n_tbs = n_tbs;
    s->granularity = granularity;
    s->first = calloc((size_t)n_tbs + 1, sizeof *s->first);
    return s->first ? 0 : -1;
}

void lg_spans_free(lg_spans *s)
{
    free(s->span), free(s->first), free(s->single), free(s->tmp), free(s->run);
    memset(s, 0, sizeof *s);
}

/* Room for one more element of size sz in *p (count n, capacity *cap). */
static int reserve(void **p, size_t n, size_t *cap, size_t sz)
{
    if (n < *cap) return 0;
    size_t c = *cap ? *cap * 2 : 256;
    void *q = realloc(*p, c * sz);
    if (!q) return -1;
    *p = q, *cap = c;
    return 0;
}

static int add_single(lg_spans *s, uint64_t g)
{
    size_t cap = s->cs;
    if (reserve((void **)&s->single, s->ns, &s->cs, sizeof *s->single)) return -1;
    if (s->cs != cap) {
        uint64_t *t = realloc(s->tmp, s->cs * sizeof *t);
        if (!t) return -1;
        s->tmp = t;
    }
    s->single[s->ns++] = g;
    return 0;
}

static int add_run(lg_spans *s, uint64_t lo, uint64_t hi)
{
    if (hi - lo == 1) return add_single(s, lo);
    if (reserve((void **)&s->run, s->nr, &s->cr, sizeof *s->run)) return -1;
    s->run[s->nr++] = (lg_span){lo, hi};
    return 0;
}

/* LSD radix sort of the singles, 11 bits a pass over (value - min). */
static void sort_singles(lg_spans *s)
{
    if (s->ns < 2) return;
    uint64_t lo = s->single[0], hi = lo;
    for (size_t i = 1; i < s->ns; i++) {
        if (s->single[i] < lo) lo = s->single[i];
        if (s->single[i] > hi) hi = s->single[i];
    }
    uint64_t *a = s->single, *b = s->tmp;
    for (unsigned shift = 0; shift < 64 && ((hi - lo) >> shift); shift += 11) {
        size_t count[2049] = {0};
        for (size_t i = 0; i < s->ns; i++) count[(((a[i] - lo) >> shift) & 2047) + 1]++;
        for (unsigned d = 0; d < 2048; d++) count[d + 1] += count[d];
        for (size_t i = 0; i < s->ns; i++) b[count[((a[i] - lo) >> shift) & 2047]++] = a[i];
        uint64_t *t = a;
        a = b, b = t;
    }
    s->single = a, s->tmp = b;
}

static int cmp_span(const void *x, const void *y)
{
    const lg_span *a = x, *b = y;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* Appends [lo, hi) to the finished spans, merging with the last one when they touch. */
static int emit(lg_spans *s, uint64_t first, uint64_t lo, uint64_t hi)
{
    if (s->n > first && lo <= s->span[s->n - 1].hi) {
        if (hi > s->span[s->n - 1].hi) s->span[s->n - 1].hi = hi;
        return 0;
    }
    if (reserve((void **)&s->span, s->n, &s->cap, sizeof *s->span)) return -1;
    s->span[s->n++] = (lg_span){lo, hi};
    return 0;
}

/* Sorts and merges the current TB's granules into its spans. */
static int finish_tb(lg_spans *s)
{
    sort_singles(s);
    qsort(s->run, s->nr, sizeof *s->run, cmp_span);
    uint64_t first = s->first[s->cur];
    size_t i = 0, r = 0;
    while (i < s->ns || r < s->nr) {
        int take_single = r == s->nr || (i < s->ns && s->single[i] < s->run[r].lo);
        lg_span x = take_single ? (lg_span){s->single[i], s->single[i] + 1} : s->run[r];
        if (take_single) i++;
        else r++;
        if (emit(s, first, x.lo, x.hi)) return -1;
    }
    s->first[s->cur + 1] = s->n;
    s->ns = s->nr = 0;
    return 0;
}

/* Finishes TBs cur .. tb - 1. */
static int advance(lg_spans *s, uint32_t tb)
{
    while (s->cur < tb) {
        if (finish_tb(s)) return -1;
        s->cur++;
    }
    return 0;
}

int lg_spans_add_warp(lg_spans *s, uint32_t tb, uint32_t mask, const uint64_t *addr, unsigned bytes)
{
    if (s->done || tb >= s->n_tbs || tb < s->cur || advance(s, tb)) return -1;
    uint64_t g = s->granularity == LG_LINE ? 128 : bytes ? bytes : 1;
    uint64_t a[32], lo = UINT64_MAX, hi = 0;
    unsigned n = 0;
    for (; mask; mask &= mask - 1) {
        uint64_t x = addr[__builtin_ctz(mask)];
        a[n++] = x;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
    }
    if (!n) return 0;
    /* An arithmetic progression with |step| <= one granule covers every granule from lo to hi. */
    uint64_t step = n > 1 ? a[1] - a[0] : 0, mag = (int64_t)step < 0 ? 0 - step : step;
    int run = mag <= g && hi - lo == (uint64_t)(n - 1) * mag;
    for (unsigned k = 2; k < n && run; k++) run = a[k] - a[k - 1] == step;
    if (run) return add_run(s, lo / g, hi / g + 1);
    for (unsigned k = 0; k < n; k++)
        if (add_single(s, a[k] / g)) return -1;
    return 0;
}

int lg_spans_add_run(lg_spans *s, uint32_t tb, uint64_t lo, uint64_t hi)
{
    if (s->done || tb >= s->n_tbs || tb < s->cur || hi <= lo || advance(s, tb)) return -1;
    return add_run(s, lo, hi);
}

typedef struct event { uint64_t pos; uint32_t tb; int32_t delta; } event;

static int cmp_event(const void *x, const void *y)
{
    const event *a = x, *b = y;
    if (a->pos != b->pos) return a->pos < b->pos ? -1 : 1;
    return (a->tb > b->tb) - (a->tb < b->tb);
}

int lg_spans_graph(lg_spans *s, lg_graph *g)
{
    memset(g, 0, sizeof *g);
    if (!s->done && s->n_tbs) {
        if (advance(s, s->n_tbs - 1) || finish_tb(s)) return -1;
        s->done = 1;
    }
    event *ev = malloc((s->n ? s->n : 1) * 2 * sizeof *ev);
    uint32_t *act = malloc(((size_t)s->n_tbs + 1) * sizeof *act), *where = malloc(((size_t)s->n_tbs + 1) * sizeof *where);
    lg_pairs pm = {0};
    int rc = !ev || !act || !where ? -1 : 0;
    size_t m = 0;
    for (uint32_t t = 0; t < s->n_tbs && !rc; t++)
        for (uint64_t x = s->first[t]; x < s->first[t + 1]; x++) {
            ev[m++] = (event){s->span[x].lo, t, 1};
            ev[m++] = (event){s->span[x].hi, t, -1};
        }
    if (!rc) qsort(ev, m, sizeof *ev, cmp_event);
    /* Between two consecutive span ends the TBs reading the granules do not change. */
    uint32_t na = 0;
    for (size_t k = 0; k < m && !rc;) {
        uint64_t pos = ev[k].pos;
        for (; k < m && ev[k].pos == pos; k++) {
            uint32_t t = ev[k].tb;
            if (ev[k].delta > 0) {
                where[t] = na, act[na++] = t;
            } else {
                act[where[t]] = act[--na], where[act[where[t]]] = where[t];
            }
        }
        if (k == m || na < 2) continue;
        uint64_t len = ev[k].pos - pos;
        for (uint32_t a = 0; a < na && !rc; a++)
            for (uint32_t b = a + 1; b < na && !rc; b++) rc = lg_pairs_add(&pm, act[a], act[b], len);
    }
    if (!rc) rc = lg_pairs_graph(&pm, s->n_tbs, g);
    free(ev), free(act), free(where);
    lg_pairs_free(&pm);
    return rc;
}

uint64_t lg_spans_refs(const lg_spans *s, uint32_t tb)
{
    uint64_t n = 0;
    if (tb >= s->n_tbs) return 0;
    for (uint64_t x = s->first[tb]; x < s->first[tb + 1]; x++) n += s->span[x].hi - s->span[x].lo;
    return n;
}
