/* LocalityGuru's closed form per TB (guru_sym.h): each event's index box is the block's thread
 * box and its loops' trip ranges, clipped by the path's atoms with the TB's ctaid substituted;
 * a load then reads the affine image of the box: runs of granules along its smallest stride when
 * that stride is at most a granule, single granules otherwise. Obligations are checked over the
 * same boxes. */
#include "guru_sym.h"
#include "lg_spans.h"
#include "locality_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct box { int64_t lo[GA_NV], hi[GA_NV]; } box;

static int mul_ok(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }

/* min and max of a over b; -1 on overflow. */
static int range(const ga_aff *a, const box *b, int64_t *mn, int64_t *mx)
{
    int64_t lo = a->c0, hi = a->c0;
    for (int v = 0; v < GA_NV; v++) {
        int64_t x, y;
        if (!a->c[v]) continue;
        if (!mul_ok(a->c[v], b->lo[v], &x) || !mul_ok(a->c[v], b->hi[v], &y)) return -1;
        if (x > y) {
            int64_t t = x;
            x = y, y = t;
        }
        if (__builtin_add_overflow(lo, x, &lo) || __builtin_add_overflow(hi, y, &hi)) return -1;
    }
    *mn = lo, *mx = hi;
    return 0;
}

/* The event's box for the TB at ctaid: 1, 0 when empty, -1 (why set) when it is not a box. */
static int clip(const gs_event *e, const uint32_t ctaid[3], const simt_launch *l, box *b, char *why, size_t len)
{
    for (int c = 0; c < 3; c++) {
        b->lo[GA_TID + c] = 0, b->hi[GA_TID + c] = (int64_t)l->block[c] - 1;
        b->lo[GA_CTAID + c] = b->hi[GA_CTAID + c] = ctaid[c];
    }
    for (int d = 0; d < GA_MAXLOOP; d++) {
        b->lo[GA_K + d] = 0;
        b->hi[GA_K + d] = d < e->depth ? (int64_t)e->trip[d] - 1 : 0;
        if (b->hi[GA_K + d] < 0) return 0;
    }
    uint8_t done[GS_ATOMS] = {0};
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < e->n_atoms; i++) {
            if (done[i]) continue;
            const ga_aff *a = &e->atom[i];
            int64_t cst = a->c0, t;
            int nfree = 0, fv = -1;
            for (int v = 0; v < GA_NV; v++) {
                if (!a->c[v]) continue;
                if (b->lo[v] == b->hi[v]) {
                    if (!mul_ok(a->c[v], b->lo[v], &t) || __builtin_add_overflow(cst, t, &cst)) return -1;
                } else {
                    nfree++, fv = v;
                }
            }
            if (nfree > 1) continue;
            done[i] = 1, changed = 1;
            if (nfree == 0) {
                if (cst < 0) return 0;
                continue;
            }
            int64_t s = a->c[fv];
            if (s > 0) {
                int64_t m = ga_ceildiv(-cst, s);
                if (m > b->lo[fv]) b->lo[fv] = m;
            } else {
                int64_t m = ga_floordiv(cst, -s);
                if (m < b->hi[fv]) b->hi[fv] = m;
            }
            if (b->lo[fv] > b->hi[fv]) return 0;
        }
    }
    for (int i = 0; i < e->n_atoms; i++)
        if (!done[i]) {
            snprintf(why, len, "line %u: a condition couples two thread or loop indices", e->line);
            return -1;
        }
    return 1;
}

static int overlaps(int64_t lo, int64_t hi, uint64_t base)
{
    return (uint64_t)hi >= base && (uint64_t)lo < base + SIMT_WINDOW_SIZE;
}

/* The granules of load e over box b into TB tb's spans. 0, or -1 (why set). */
static int emit(const gs_event *e, const box *b, int granularity, lg_spans *sp, uint32_t tb, char *why, size_t len)
{
    int64_t mn, mx, g = granularity == LG_LINE ? 128 : e->bytes ? e->bytes : 1;
    if (range(&e->val, b, &mn, &mx) || mn < 0) {
        snprintf(why, len, "line %u: the address leaves 0 .. 2^63 (TB %u)", e->line, tb);
        return -1;
    }
    if (e->space == PS_GENERIC &&
        (overlaps(mn, mx, SIMT_SHARED_WINDOW) || overlaps(mn, mx, SIMT_LOCAL_WINDOW) || overlaps(mn, mx, SIMT_CONST_WINDOW))) {
        snprintf(why, len, "line %u: a generic load may read shared, local or constant memory", e->line);
        return -1;
    }
    int free_v[GA_NV], nf = 0, r = -1;
    int64_t base = e->val.c0, cur[GA_NV];
    for (int v = 0; v < GA_NV; v++) {
        if (!e->val.c[v]) continue;
        if (b->lo[v] == b->hi[v]) {
            base += e->val.c[v] * b->lo[v]; /* in range: the whole sum was */
            continue;
        }
        if (r < 0 || llabs(e->val.c[v]) < llabs(e->val.c[r])) r = v;
        free_v[nf++] = v;
    }
    int run = r >= 0 && llabs(e->val.c[r]) <= g;
    int64_t rlo = 0, rhi = 0;
    if (run) {
        rlo = e->val.c[r] * (e->val.c[r] > 0 ? b->lo[r] : b->hi[r]);
        rhi = e->val.c[r] * (e->val.c[r] > 0 ? b->hi[r] : b->lo[r]);
    }
    for (int i = 0; i < nf; i++) cur[free_v[i]] = b->lo[free_v[i]];
    for (;;) {
        int64_t off = base;
        for (int i = 0; i < nf; i++)
            if (!(run && free_v[i] == r)) off += e->val.c[free_v[i]] * cur[free_v[i]];
        uint64_t lo = (uint64_t)(off + rlo) / (uint64_t)g, hi = (uint64_t)(off + rhi) / (uint64_t)g + 1;
        if (lg_spans_add_run(sp, tb, lo, hi)) {
            snprintf(why, len, "out of memory");
            return -1;
        }
        int i = 0;
        for (; i < nf; i++) {
            int v = free_v[i];
            if (run && v == r) continue;
            if (cur[v] < b->hi[v]) {
                cur[v]++;
                break;
            }
            cur[v] = b->lo[v];
        }
        if (i == nf) break;
    }
    return 0;
}

/* One TB's events. 0, or -1 (why set). */
static int do_tb(const guru_sym *s, const simt_launch *l, const uint32_t ctaid[3], uint32_t tb, int granularity,
                 lg_spans *sp, char *why, size_t len)
{
    for (size_t i = 0; i < s->n; i++) {
        const gs_event *e = &s->ev[i];
        box b;
        int in = clip(e, ctaid, l, &b, why, len);
        if (in < 0) return -1;
        if (!in) continue;
        if (e->kind == GS_LOAD) {
            if (emit(e, &b, granularity, sp, tb, why, len)) return -1;
            continue;
        }
        int64_t mn, mx;
        if (range(&e->val, &b, &mn, &mx) || mn < e->lo || mx > e->hi) {
            snprintf(why, len, "line %u: a value may wrap around its %s range (TB %u)", e->line,
                     e->lo < 0 ? "signed" : "unsigned", tb);
            return -1;
        }
    }
    return 0;
}

int guru_sym_graph(const guru_kernel *k, const simt_launch *l, int granularity, lg_graph *g, char *why,
                   size_t len)
{
    memset(g, 0, sizeof *g);
    guru_sym s;
    if (guru_sym_build(k, l, &s)) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    if (s.failed || s.n_fallback) {
        char lines[96] = "";
        uint32_t first = UINT32_MAX, listed = 0;
        for (uint32_t i = 0; i < s.n_loads; i++) {
            if (!s.load_why[i][0]) continue;
            if (first == UINT32_MAX) first = i;
            size_t used = strlen(lines);
            if (listed++ < 8)
                snprintf(lines + used, sizeof lines - used, "%s%u", used ? ", " : "", k->loads[i].line);
            else if (listed == 9 && used + 5 < sizeof lines)
                snprintf(lines + used, sizeof lines - used, ", ...");
        }
        if (first != UINT32_MAX)
            snprintf(why, len, "%u of %u loads fall back (lines %s); line %u: %s", s.n_fallback, s.n_loads, lines,
                     k->loads[first].line, s.load_why[first]);
        if (!s.n_fallback) snprintf(why, len, "%s", s.why);
        guru_sym_free(&s);
        return 1;
    }
    uint32_t n;
    if (lg_launch_tbs(l, &n, why, len)) {
        guru_sym_free(&s);
        return -1;
    }
    lg_spans sp;
    if (lg_spans_init(&sp, n, granularity)) {
        guru_sym_free(&s);
        snprintf(why, len, "out of memory");
        return -1;
    }
    int rc = 0;
    uint32_t ctaid[3];
    for (ctaid[2] = 0; ctaid[2] < l->grid[2] && !rc; ctaid[2]++)
        for (ctaid[1] = 0; ctaid[1] < l->grid[1] && !rc; ctaid[1]++)
            for (ctaid[0] = 0; ctaid[0] < l->grid[0] && !rc; ctaid[0]++) {
                uint32_t tb = ctaid[0] + l->grid[0] * (ctaid[1] + l->grid[1] * ctaid[2]);
                rc = do_tb(&s, l, ctaid, tb, granularity, &sp, why, len);
            }
    if (!rc && lg_spans_graph(&sp, g)) {
        snprintf(why, len, "out of memory");
        rc = -1;
    } else if (rc && strcmp(why, "out of memory")) {
        rc = 1; /* an obligation or a box failed for some TB: the caller steps instead */
    }
    lg_spans_free(&sp);
    guru_sym_free(&s);
    return rc;
}
