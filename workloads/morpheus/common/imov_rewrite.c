/* Algorithm 2's brx.idx switch -> mov.indirect (imov_rewrite.h). */
#include "imov_rewrite.h"

#include <stdlib.h>
#include <string.h>

typedef struct span {
    const char *s;
    size_t n;
} span;

enum { MAX_TOKS = 1024, MAX_CASES = 256 };

static int eq(span a, span b) { return a.n == b.n && memcmp(a.s, b.s, a.n) == 0; }
static int is(span a, const char *s) { return a.n == strlen(s) && memcmp(a.s, s, a.n) == 0; }

/* Words (labels, registers, opcodes, guards) and the punctuation , ; : of one line; -1 past max. */
static int tokens(const char *s, size_t len, span *t, int max)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
            continue;
        }
        if (n == max) return -1;
        size_t j = i + 1;
        if (c != ',' && c != ';' && c != ':')
            while (j < len && !strchr(" \t\r,;:", s[j])) j++;
        t[n++] = (span){s + i, j - i};
        i = j;
    }
    return n;
}

typedef struct line {
    const char *s;
    size_t n; /* without the newline */
} line;

typedef struct out {
    char *buf;
    size_t len, cap;
    int oom;
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->oom) return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (o->len + n + 1 > cap) cap *= 2;
        char *b = realloc(o->buf, cap);
        if (!b) {
            o->oom = 1;
            return;
        }
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }
static void put_span(out *o, span s) { put(o, s.s, s.n); }

/* One case: "L: [@g] mov.TY D, S; [bra.uni J;]". */
typedef struct kase {
    span label, guard, opc, d, s, join; /* guard.n / join.n 0 when absent */
} kase;

static int parse_case(const line *ln, kase *k, span *t)
{
    int n = tokens(ln->s, ln->n, t, MAX_TOKS), i = 0;
    memset(k, 0, sizeof *k);
    if (n < 8 || !is(t[1], ":")) return -1;
    k->label = t[0];
    i = 2;
    if (t[i].s[0] == '@') k->guard = t[i++];
    if (i + 5 > n || t[i].n < 5 || memcmp(t[i].s, "mov.", 4) != 0 || !is(t[i + 2], ",") || !is(t[i + 4], ";")) return -1;
    k->opc = t[i];
    k->d = t[i + 1];
    k->s = t[i + 3];
    i += 5;
    if (i == n) return 0;
    if (i + 3 != n || !is(t[i], "bra.uni") || !is(t[i + 2], ";")) return -1;
    k->join = t[i + 1];
    return 0;
}

/* Scratch of one rewrite (heap: a site has up to 256 cases). */
typedef struct work {
    span bt[MAX_TOKS], t[MAX_TOKS], labels[MAX_CASES];
    kase k[MAX_CASES];
} work;

/* The site whose .branchtargets list is line L[i] (tokens bt[0..nbt)); returns the lines it spans
 * (0: not a site) and writes the mov.indirect to o. */
static size_t site(const line *L, size_t n_lines, size_t i, work *w, int nbt, out *o)
{
    const span *bt = w->bt;
    span *t = w->t, *labels = w->labels;
    kase *k = w->k;
    int n = 0;
    for (int j = 3; j < nbt; j += 2) { /* T : .branchtargets L0 , L1 , ... ; */
        if (n == MAX_CASES) return 0;
        labels[n++] = bt[j];
        if (j + 1 >= nbt || !(is(bt[j + 1], ",") || (is(bt[j + 1], ";") && j + 2 == nbt))) return 0;
    }
    if (!n || i + 3 + (size_t)n > n_lines) return 0;
    const line *b = &L[i + 1];
    int nb = tokens(b->s, b->n, t, MAX_TOKS);
    if (nb != 5 || !is(t[0], "brx.idx") || !is(t[2], ",") || !eq(t[3], bt[0]) || !is(t[4], ";")) return 0;
    span idx = t[1];
    for (int c = 0; c < n; c++) {
        if (parse_case(&L[i + 2 + c], &k[c], t) || !eq(k[c].label, labels[c])) return 0;
        if (!eq(k[c].opc, k[0].opc) || !eq(k[c].guard, k[0].guard)) return 0;
        if (c < n - 1 && !k[c].join.n) return 0; /* only the last case falls through */
    }
    span join = k[0].join.n ? k[0].join : k[n - 1].join;
    for (int c = 0; c < n; c++)
        if (k[c].join.n && !eq(k[c].join, join)) return 0;
    const line *j = &L[i + 2 + n];
    int nj = tokens(j->s, j->n, t, MAX_TOKS);
    if (nj != 2 || !is(t[1], ":") || (join.n && !eq(t[0], join))) return 0;
    int same_d = 1, same_s = 1;
    for (int c = 1; c < n; c++) {
        same_d &= eq(k[c].d, k[0].d);
        same_s &= eq(k[c].s, k[0].s);
    }
    if (!same_d && !same_s) return 0;
    puts_(o, "\t");
    if (k[0].guard.n) {
        put_span(o, k[0].guard);
        puts_(o, " ");
    }
    puts_(o, "mov.indirect.");
    put(o, k[0].opc.s + 4, k[0].opc.n - 4);
    puts_(o, " ");
    if (same_d) {
        put_span(o, k[0].d);
        puts_(o, ", ");
    }
    puts_(o, "{");
    for (int c = 0; c < n; c++) {
        if (c) puts_(o, ", ");
        put_span(o, same_d ? k[c].s : k[c].d);
    }
    puts_(o, "}[");
    put_span(o, idx);
    puts_(o, "]");
    if (!same_d) {
        puts_(o, ", ");
        put_span(o, k[0].s);
    }
    puts_(o, ";\n");
    return 3 + (size_t)n;
}

char *imov_rewrite(const char *ptx, int *sites)
{
    size_t n_lines = 0, cap = 0;
    line *L = NULL;
    for (const char *p = ptx; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (n_lines == cap) {
            cap = cap ? cap * 2 : 1024;
            line *nl = realloc(L, cap * sizeof *L);
            if (!nl) {
                free(L);
                return NULL;
            }
            L = nl;
        }
        L[n_lines++] = (line){p, len};
        p += len + (e != NULL);
    }
    work *w = malloc(sizeof *w);
    out o = {0};
    put(&o, "", 0);
    *sites = 0;
    for (size_t i = 0; w && i < n_lines;) {
        int nt = tokens(L[i].s, L[i].n, w->bt, MAX_TOKS);
        size_t used = 0;
        if (nt >= 6 && is(w->bt[1], ":") && is(w->bt[2], ".branchtargets")) used = site(L, n_lines, i, w, nt, &o);
        if (used) {
            (*sites)++;
            i += used;
            continue;
        }
        put(&o, L[i].s, L[i].n);
        put(&o, "\n", 1);
        i++;
    }
    free(L);
    if (!w || o.oom) {
        free(w);
        free(o.buf);
        return NULL;
    }
    free(w);
    return o.buf;
}
