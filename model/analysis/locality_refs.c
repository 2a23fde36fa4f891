#include "locality_refs.h"

#include <stdlib.h>
#include <string.h>

#include "locality_graph.h"

void lg_refs_init(lg_refs *r, int granularity)
{
    memset(r, 0, sizeof *r);
    r->granularity = granularity;
}

void lg_refs_free(lg_refs *r)
{
    free(r->gran), free(r->warp), free(r->count), free(r->tb), free(r->multi);
    lg_refs_init(r, r->granularity);
}

static size_t slot(const lg_refs *r, uint64_t g, uint32_t tb1)
{
    uint64_t h = (g * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)tb1 * 0xC2B2AE3D27D4EB4Full);
    size_t s = (size_t)(h ^ (h >> 29)) & (r->cap - 1);
    while (r->tb[s] && (r->tb[s] != tb1 || r->gran[s] != g)) s = (s + 1) & (r->cap - 1);
    return s;
}

static int grow(lg_refs *r)
{
    lg_refs q;
    lg_refs_init(&q, r->granularity);
    q.cap = r->cap ? r->cap * 2 : 4096;
    q.gran = malloc(q.cap * sizeof *q.gran);
    q.warp = malloc(q.cap * sizeof *q.warp);
    q.count = malloc(q.cap * sizeof *q.count);
    q.tb = calloc(q.cap, sizeof *q.tb);
    q.multi = malloc(q.cap);
    if (!q.gran || !q.warp || !q.count || !q.tb || !q.multi) {
        lg_refs_free(&q);
        return -1;
    }
    for (size_t i = 0; i < r->cap; i++) {
        if (!r->tb[i]) continue;
        size_t s = slot(&q, r->gran[i], r->tb[i]);
        q.gran[s] = r->gran[i], q.tb[s] = r->tb[i], q.warp[s] = r->warp[i];
        q.count[s] = r->count[i], q.multi[s] = r->multi[i];
    }
    q.n = r->n;
    lg_refs_free(r);
    *r = q;
    return 0;
}

int lg_refs_add_warp(lg_refs *r, uint32_t tb, uint64_t warp, uint32_t mask, const uint64_t *addr, unsigned bytes)
{
    for (unsigned l = 0; l < 32; l++) {
        if (!(mask >> l & 1)) continue;
        if ((r->n + 1) * 2 > r->cap && grow(r)) return -1;
        uint64_t g = r->granularity == LG_LINE ? addr[l] >> 7 : addr[l] / (bytes ? bytes : 1);
        size_t s = slot(r, g, tb + 1);
        if (!r->tb[s]) {
            r->gran[s] = g, r->tb[s] = tb + 1, r->warp[s] = warp, r->count[s] = 0, r->multi[s] = 0;
            r->n++;
        }
        r->count[s]++;
        if (r->warp[s] != warp) r->multi[s] = 1;
    }
    return 0;
}

static const lg_refs *sort_ctx;
static int by_granule(const void *a, const void *b)
{
    uint64_t x = sort_ctx->gran[*(const size_t *)a], y = sort_ctx->gran[*(const size_t *)b];
    return (x > y) - (x < y);
}

int lg_refs_breakdown(const lg_refs *r, lg_ref_breakdown *out)
{
    memset(out, 0, sizeof *out);
    size_t *idx = malloc((r->n ? r->n : 1) * sizeof *idx), n = 0;
    if (!idx) return -1;
    for (size_t i = 0; i < r->cap; i++)
        if (r->tb[i]) idx[n++] = i;
    sort_ctx = r;
    qsort(idx, n, sizeof *idx, by_granule);
    for (size_t a = 0; a < n;) {
        size_t b = a;
        uint64_t acc = 0;
        int intra = 0;
        while (b < n && r->gran[idx[b]] == r->gran[idx[a]]) {
            acc += r->count[idx[b]];
            intra |= r->multi[idx[b]];
            b++;
        }
        int inter = b - a > 1;
        out->accesses += acc;
        if (inter && intra) out->both += acc;
        else if (inter) out->inter += acc;
        else if (intra) out->intra += acc;
        else out->unshared += acc;
        a = b;
    }
    free(idx);
    return 0;
}
