#include "locality_graph.h"

#include <stdlib.h>
#include <string.h>

#include "../common/mix64.h"

static uint64_t mix(uint64_t x) { return mix64(x); }

void lg_builder_init(lg_builder *b, uint32_t n_tbs, int granularity)
{
    memset(b, 0, sizeof *b);
    b->n_tbs = n_tbs;
    b->granularity = granularity;
}

void lg_builder_free(lg_builder *b)
{
    free(b->gran);
    free(b->tb);
    memset(b, 0, sizeof *b);
}

/* Slot of (g, tb1) or the empty slot where it belongs. */
static size_t find_slot(const lg_builder *b, uint64_t g, uint32_t tb1)
{
    size_t m = b->cap - 1, s = mix(g * 0x9e3779b97f4a7c15ULL + tb1) & m;
    while (b->tb[s] && (b->tb[s] != tb1 || b->gran[s] != g)) s = (s + 1) & m;
    return s;
}

static int grow(lg_builder *b)
{
    size_t cap = b->cap ? b->cap * 2 : 1024;
    lg_builder nb = *b;
    nb.gran = malloc(cap * sizeof *nb.gran);
    nb.tb = calloc(cap, sizeof *nb.tb);
    if (!nb.gran || !nb.tb) {
        free(nb.gran);
        free(nb.tb);
        return -1;
    }
    nb.cap = cap;
    for (size_t s = 0; s < b->cap; s++) {
        if (!b->tb[s]) continue;
        size_t d = find_slot(&nb, b->gran[s], b->tb[s]);
        nb.gran[d] = b->gran[s];
        nb.tb[d] = b->tb[s];
    }
    free(b->gran);
    free(b->tb);
    *b = nb;
    return 0;
}

int lg_builder_add(lg_builder *b, uint32_t tb, uint64_t addr, unsigned bytes)
{
    if (tb >= b->n_tbs) return -1;
    if ((b->n + 1) * 2 > b->cap && grow(b)) return -1; /* load factor <= 1/2 */
    uint64_t g = b->granularity == LG_LINE ? addr >> 7 : addr / (bytes ? bytes : 1);
    size_t s = find_slot(b, g, tb + 1);
    if (!b->tb[s]) {
        b->gran[s] = g;
        b->tb[s] = tb + 1;
        b->n++;
    }
    return 0;
}

int lg_builder_add_warp(lg_builder *b, uint32_t tb, uint32_t mask, const uint64_t *addr, unsigned bytes)
{
    for (unsigned l = 0; l < 32; l++)
        if ((mask >> l & 1) && lg_builder_add(b, tb, addr[l], bytes)) return -1;
    return 0;
}

uint64_t lg_builder_refs(const lg_builder *b, uint32_t tb)
{
    uint64_t n = 0;
    for (size_t s = 0; s < b->cap; s++) n += b->tb[s] == tb + 1;
    return n;
}

typedef struct ref { uint64_t gran; uint32_t tb; } ref;
typedef struct entry { uint32_t i, j; uint64_t v; } entry;

static int cmp_ref(const void *x, const void *y)
{
    const ref *a = x, *b = y;
    if (a->gran != b->gran) return a->gran < b->gran ? -1 : 1;
    return (a->tb > b->tb) - (a->tb < b->tb);
}

static int cmp_entry(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

/* (i < j) pair -> weight, open addressing. */
int lg_pairs_add(lg_pairs *p, uint32_t i, uint32_t j, uint64_t w)
{
    uint64_t key = i < j ? (uint64_t)i << 32 | j : (uint64_t)j << 32 | i;
    if ((p->n + 1) * 2 > p->cap) {
        lg_pairs q = {0};
        q.cap = p->cap ? p->cap * 2 : 1024;
        q.key = malloc(q.cap * sizeof *q.key);
        q.val = malloc(q.cap * sizeof *q.val);
        q.used = calloc(q.cap, 1);
        if (!q.key || !q.val || !q.used) {
            free(q.key), free(q.val), free(q.used);
            return -1;
        }
        for (size_t s = 0; s < p->cap; s++) {
            if (!p->used[s]) continue;
            size_t d = mix(p->key[s]) & (q.cap - 1);
            while (q.used[d]) d = (d + 1) & (q.cap - 1);
            q.used[d] = 1, q.key[d] = p->key[s], q.val[d] = p->val[s];
        }
        q.n = p->n;
        lg_pairs_free(p);
        *p = q;
    }
    size_t s = mix(key) & (p->cap - 1);
    while (p->used[s] && p->key[s] != key) s = (s + 1) & (p->cap - 1);
    if (!p->used[s]) p->used[s] = 1, p->key[s] = key, p->val[s] = 0, p->n++;
    p->val[s] += w;
    return 0;
}

void lg_pairs_free(lg_pairs *p)
{
    free(p->key), free(p->val), free(p->used);
    memset(p, 0, sizeof *p);
}

int lg_pairs_graph(const lg_pairs *pm, uint32_t n_tbs, lg_graph *g)
{
    memset(g, 0, sizeof *g);
    entry *e = malloc((pm->n ? pm->n : 1) * 2 * sizeof *e);
    g->row = calloc((size_t)n_tbs + 1, sizeof *g->row);
    g->col = malloc((pm->n ? pm->n : 1) * 2 * sizeof *g->col);
    g->val = malloc((pm->n ? pm->n : 1) * 2 * sizeof *g->val);
    if (!e || !g->row || !g->col || !g->val) {
        free(e);
        lg_graph_free(g);
        return -1;
    }
    size_t m = 0;
    for (size_t s = 0; s < pm->cap; s++) {
        if (!pm->used[s]) continue;
        uint32_t i = (uint32_t)(pm->key[s] >> 32), j = (uint32_t)pm->key[s];
        e[m++] = (entry){i, j, pm->val[s]};
        e[m++] = (entry){j, i, pm->val[s]};
    }
    qsort(e, m, sizeof *e, cmp_entry);
    g->n = n_tbs;
    for (size_t x = 0; x < m; x++) {
        g->row[e[x].i + 1]++;
        g->col[x] = e[x].j;
        g->val[x] = e[x].v;
    }
    for (uint32_t i = 0; i < g->n; i++) g->row[i + 1] += g->row[i];
    free(e);
    return 0;
}

int lg_builder_graph(const lg_builder *b, lg_graph *g)
{
    memset(g, 0, sizeof *g);
    ref *refs = malloc((b->n ? b->n : 1) * sizeof *refs);
    lg_pairs pm = {0};
    if (!refs) return -1;
    size_t k = 0;
    for (size_t s = 0; s < b->cap; s++)
        if (b->tb[s]) refs[k].gran = b->gran[s], refs[k].tb = b->tb[s] - 1, k++;
    qsort(refs, k, sizeof *refs, cmp_ref);
    /* Every granule adds one to each pair of the TBs that read it. */
    int rc = 0;
    for (size_t lo = 0, hi; lo < k && !rc; lo = hi) {
        for (hi = lo + 1; hi < k && refs[hi].gran == refs[lo].gran; hi++) {}
        for (size_t x = lo; x < hi && !rc; x++)
            for (size_t y = x + 1; y < hi && !rc; y++) rc = lg_pairs_add(&pm, refs[x].tb, refs[y].tb, 1);
    }
    if (!rc) rc = lg_pairs_graph(&pm, b->n_tbs, g);
    free(refs);
    lg_pairs_free(&pm);
    return rc;
}

void lg_graph_free(lg_graph *g)
{
    free(g->row), free(g->col), free(g->val);
    memset(g, 0, sizeof *g);
}

int lg_graph_subgraph(const lg_graph *g, const uint32_t *vertices, uint32_t n, lg_graph *sub)
{
    memset(sub, 0, sizeof *sub);
    uint32_t *local = malloc((g->n ? g->n : 1) * sizeof *local);
    uint64_t m = 0;
    if (!local) return -1;
    for (uint32_t v = 0; v < g->n; v++) local[v] = UINT32_MAX;
    for (uint32_t k = 0; k < n; k++) {
        local[vertices[k]] = k;
        m += g->row[vertices[k] + 1] - g->row[vertices[k]];
    }
    sub->n = n;
    sub->row = calloc((size_t)n + 1, sizeof *sub->row);
    sub->col = malloc((m ? m : 1) * sizeof *sub->col);
    sub->val = malloc((m ? m : 1) * sizeof *sub->val);
    if (!sub->row || !sub->col || !sub->val) {
        free(local);
        lg_graph_free(sub);
        return -1;
    }
    uint64_t e = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t v = vertices[k];
        uint64_t first = e;
        for (uint64_t x = g->row[v]; x < g->row[v + 1]; x++)
            if (local[g->col[x]] != UINT32_MAX) sub->col[e] = local[g->col[x]], sub->val[e++] = g->val[x];
        /* keep rows ascending: local ids follow vertices[], which need not be sorted */
        for (uint64_t a = first + 1; a < e; a++)
            for (uint64_t b = a; b > first && sub->col[b - 1] > sub->col[b]; b--) {
                uint32_t c = sub->col[b]; sub->col[b] = sub->col[b - 1]; sub->col[b - 1] = c;
                uint64_t w = sub->val[b]; sub->val[b] = sub->val[b - 1]; sub->val[b - 1] = w;
            }
        sub->row[k + 1] = e;
    }
    free(local);
    return 0;
}

uint64_t lg_graph_get(const lg_graph *g, uint32_t i, uint32_t j)
{
    if (i >= g->n || j >= g->n) return 0;
    uint64_t lo = g->row[i], hi = g->row[i + 1];
    while (lo < hi) { /* binary search of the ascending row */
        uint64_t mid = lo + (hi - lo) / 2;
        if (g->col[mid] == j) return g->val[mid];
        if (g->col[mid] < j) lo = mid + 1;
        else hi = mid;
    }
    return 0;
}

void lg_graph_summary(const lg_graph *g, lg_summary *s)
{
    memset(s, 0, sizeof *s);
    for (uint32_t i = 0; i < g->n; i++) {
        if (g->row[i] == g->row[i + 1]) s->isolated++;
        for (uint64_t x = g->row[i]; x < g->row[i + 1]; x++) {
            if (g->col[x] <= i) continue;
            s->edges++;
            s->total_weight += g->val[x];
            if (g->val[x] > s->max_weight) s->max_weight = g->val[x], s->max_i = i, s->max_j = g->col[x];
        }
    }
}

int lg_graph_equal(const lg_graph *a, const lg_graph *b, uint32_t *pi, uint32_t *pj)
{
    if (a->n != b->n) {
        if (pi) *pi = 0, *pj = 0;
        return 0;
    }
    for (uint32_t i = 0; i < a->n; i++) {
        uint64_t x = a->row[i], y = b->row[i], xe = a->row[i + 1], ye = b->row[i + 1];
        while (x < xe || y < ye) {
            uint32_t ca = x < xe ? a->col[x] : UINT32_MAX, cb = y < ye ? b->col[y] : UINT32_MAX;
            uint32_t c = ca < cb ? ca : cb;
            if (ca != cb || a->val[x] != b->val[y]) {
                if (pi) *pi = i, *pj = c;
                return 0;
            }
            x++, y++;
        }
    }
    return 1;
}

int lg_graph_write_mm(const lg_graph *g, FILE *f)
{
    uint64_t nnz = 0;
    for (uint32_t i = 0; i < g->n; i++)
        for (uint64_t x = g->row[i]; x < g->row[i + 1]; x++) nnz += g->col[x] < i;
    if (fprintf(f, "%%%%MatrixMarket matrix coordinate integer symmetric\n"
                   "%% gtlm thread-block locality graph: L[i][j] = shared granules of TBs i-1, j-1\n"
                   "%u %u %llu\n", g->n, g->n, (unsigned long long)nnz) < 0)
        return -1;
    for (uint32_t i = 0; i < g->n; i++)
        for (uint64_t x = g->row[i]; x < g->row[i + 1]; x++)
            if (g->col[x] < i && fprintf(f, "%u %u %llu\n", i + 1, g->col[x] + 1, (unsigned long long)g->val[x]) < 0)
                return -1;
    return ferror(f) ? -1 : 0;
}
