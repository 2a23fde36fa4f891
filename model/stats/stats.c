#include "stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats_internal.h"

/* ---- small helpers ---- */

static char *dup_str(const char *s)
{
    if (!s) s = "";
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

static char *dup_opt(const char *s, int *fail)
{
    if (!s) return NULL;
    char *p = dup_str(s);
    if (!p) *fail = 1;
    return p;
}

/* Grows an array so that it holds at least need elements. */
static int grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int is_word_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* One segment: [A-Za-z0-9_]+ with an optional [digits] (or [*] in a pattern). */
static int scan_segment(const char **pp, int allow_star)
{
    const char *p = *pp;
    const char *start = p;
    while (is_word_char(*p)) p++;
    if (p == start) return 0;
    if (*p == '[') {
        p++;
        if (allow_star && *p == '*') {
            p++;
        } else {
            const char *d = p;
            while (is_digit(*p)) p++;
            if (p == d) return 0;
        }
        if (*p != ']') return 0;
        p++;
    }
    *pp = p;
    return 1;
}

static int valid_path(const char *p, int allow_star)
{
    if (!p) return 0;
    for (;;) {
        if (!scan_segment(&p, allow_star)) return 0;
        if (*p == '\0') return 1;
        if (*p != '.') return 0;
        p++;
    }
}

/* A GPGPU-Sim name is printed as "name = value": keep it to one visible word. */
static int valid_gpgpusim_name(const char *s)
{
    if (!s || !*s) return 0;
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || *s == '=' || *s == 0x7f) return 0;
    return 1;
}

/* "gpu.sm" is a leaf prefix of "gpu.sm.x": both cannot be JSON leaves. */
static int same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* "[*]" in the pattern matches any "[digits]" of the path. */
static int pattern_match(const char *pat, const char *path)
{
    while (*pat) {
        if (pat[0] == '[' && pat[1] == '*' && pat[2] == ']') {
            if (*path++ != '[' || !is_digit(*path)) return 0;
            while (is_digit(*path)) path++;
            if (*path++ != ']') return 0;
            pat += 3;
        } else if (*pat++ != *path++) {
            return 0;
        }
    }
    return *path == '\0';
}

/* ---- registry ---- */

stat_registry *stat_registry_new(void) { return calloc(1, sizeof(stat_registry)); }

static void entry_free(stat_entry *e)
{
    free(e->path);
    free(e->unit);
    free(e->desc);
    free(e->gpgpusim_kernel);
    free(e->gpgpusim_run);
    free(e->pattern);
    free(e->members);
}

void stat_registry_free(stat_registry *r)
{
    if (!r) return;
    for (int i = 0; i < r->n; i++) entry_free(&r->v[i]);
    for (int i = 0; i < r->nk; i++) {
        free(r->k[i].name);
        free(r->k[i].vals);
    }
    free(r->v);
    free(r->k);
    free(r->open_name);
    free(r->saved);
    free(r->sums);
    strset_free(&r->paths);
    strset_free(&r->gnames);
    strset_free(&r->prefixes);
    free(r);
}

/* Checks that the path and GPGPU-Sim names are well formed and clash with nothing registered. */
static int name_taken(const stat_registry *r, const char *n)
{
    return n && (strset_has(&r->paths, n, strlen(n)) || strset_has(&r->gnames, n, strlen(n)));
}

/* A new path may not equal any registered path or GPGPU-Sim name, nor have a registered path as
 * a dot-prefix or be one of a registered path ("a.b" and "a.b.c" cannot both be statistics). */
static int check_names(const stat_registry *r, const char *path, const stat_names *names)
{
    if (!valid_path(path, 0)) return -1;
    const char *gk = names ? names->gpgpusim_kernel : NULL;
    const char *gr = names ? names->gpgpusim_run : NULL;
    if ((gk && !valid_gpgpusim_name(gk)) || (gr && !valid_gpgpusim_name(gr))) return -1;
    if (same(gk, gr) || same(gk, path) || same(gr, path)) return -1;
    if (name_taken(r, path) || strset_has(&r->prefixes, path, strlen(path))) return -1;
    for (const char *d = strchr(path, '.'); d; d = strchr(d + 1, '.'))
        if (strset_has(&r->paths, path, (size_t)(d - path))) return -1;
    return name_taken(r, gk) || name_taken(r, gr) ? -1 : 0;
}

/* Records entry id's names for check_names. */
static int index_names(stat_registry *r, int id)
{
    const stat_entry *e = &r->v[id];
    int rc = strset_put(&r->paths, e->path, strlen(e->path), id);
    for (const char *d = strchr(e->path, '.'); d && !rc; d = strchr(d + 1, '.'))
        rc = strset_add(&r->prefixes, e->path, (size_t)(d - e->path));
    /* A GPGPU-Sim name's value is 2 * id + 1 for a run-scope name (stat_get reads the scope). */
    if (!rc && e->gpgpusim_kernel) rc = strset_put(&r->gnames, e->gpgpusim_kernel, strlen(e->gpgpusim_kernel), 2 * id);
    if (!rc && e->gpgpusim_run) rc = strset_put(&r->gnames, e->gpgpusim_run, strlen(e->gpgpusim_run), 2 * id + 1);
    if (!rc && e->kind == E_SUM) {
        rc = grow((void **)&r->sums, &r->capsums, r->nsums + 1, sizeof(int));
        if (!rc) r->sums[r->nsums++] = id;
    }
    return rc;
}

static int add_member(stat_entry *sum, int id)
{
    if (grow((void **)&sum->members, &sum->capmembers, sum->nmembers + 1, sizeof(int)) != 0) return -1;
    sum->members[sum->nmembers++] = id;
    return 0;
}

/* A new counter/real joins every sum whose pattern it matches. */
static int join_sums(stat_registry *r, int id)
{
    for (int k = 0; k < r->nsums; k++)
        if (pattern_match(r->v[r->sums[k]].pattern, r->v[id].path))
            if (add_member(&r->v[r->sums[k]], id) != 0) return -1;
    return 0;
}

/* Appends an entry with its names copied; the caller fills the kind-specific fields. */
static stat_entry *new_entry(stat_registry *r, const char *path, entry_kind kind, const char *unit,
                             const char *desc, const stat_names *names)
{
    if (!r || check_names(r, path, names) != 0) return NULL;
    if (grow((void **)&r->v, &r->cap, r->n + 1, sizeof(stat_entry)) != 0) return NULL;
    stat_entry *e = &r->v[r->n];
    memset(e, 0, sizeof *e);
    int fail = 0;
    e->kind = kind;
    e->path = dup_opt(path, &fail);
    e->unit = dup_opt(unit ? unit : "", &fail);
    e->desc = dup_opt(desc ? desc : "", &fail);
    if (names) {
        e->gpgpusim_kernel = dup_opt(names->gpgpusim_kernel, &fail);
        e->gpgpusim_run = dup_opt(names->gpgpusim_run, &fail);
        e->host = names->host != 0;
    }
    if (fail) {
        entry_free(e);
        return NULL;
    }
    return e;
}

/* Makes the entry filled by new_entry part of the registry. */
static int commit_entry(stat_registry *r)
{
    int id = r->n++;
    if (r->v[id].kind == E_COUNTER || r->v[id].kind == E_REAL) {
        if (join_sums(r, id) != 0) {
            /* Drop the statistic again: no sum may point at it. */
            for (int i = 0; i < id; i++)
                if (r->v[i].kind == E_SUM && r->v[i].nmembers > 0 && r->v[i].members[r->v[i].nmembers - 1] == id)
                    r->v[i].nmembers--;
            entry_free(&r->v[--r->n]);
            return -1;
        }
    }
    if (index_names(r, id) != 0) return -1; /* out of memory: the statistic stays, unchecked */
    return id;
}

int stat_add_counter(stat_registry *r, const char *path, uint64_t *src, const char *unit, const char *desc,
                     const stat_names *names)
{
    if (!src) return -1;
    stat_entry *e = new_entry(r, path, E_COUNTER, unit, desc, names);
    if (!e) return -1;
    e->csrc = src;
    return commit_entry(r);
}

int stat_add_real(stat_registry *r, const char *path, double *src, const char *unit, const char *desc,
                  const stat_names *names)
{
    if (!src) return -1;
    stat_entry *e = new_entry(r, path, E_REAL, unit, desc, names);
    if (!e) return -1;
    e->rsrc = src;
    return commit_entry(r);
}

int stat_add_derived(stat_registry *r, const char *path, stat_derive_fn fn, const void *ctx, const char *unit,
                     const char *desc, const stat_names *names)
{
    if (!fn) return -1;
    stat_entry *e = new_entry(r, path, E_FN, unit, desc, names);
    if (!e) return -1;
    e->fn = fn;
    e->ctx = ctx;
    return commit_entry(r);
}

int stat_add_ratio(stat_registry *r, const char *path, const char *num_path, const char *den_path,
                   const char *unit, const char *desc, const stat_names *names)
{
    if (!r || !num_path || !den_path) return -1;
    int num = stat_find(r, num_path), den = stat_find(r, den_path);
    if (num < 0 || den < 0) return -1;
    stat_entry *e = new_entry(r, path, E_RATIO, unit, desc, names);
    if (!e) return -1;
    e->num = num;
    e->den = den;
    return commit_entry(r);
}

int stat_add_sum(stat_registry *r, const char *path, const char *pattern, const char *unit, const char *desc,
                 const stat_names *names)
{
    if (!valid_path(pattern, 1)) return -1;
    stat_entry *e = new_entry(r, path, E_SUM, unit, desc, names);
    if (!e) return -1;
    int fail = 0;
    e->pattern = dup_opt(pattern, &fail);
    for (int i = 0; i < r->n && !fail; i++)
        if ((r->v[i].kind == E_COUNTER || r->v[i].kind == E_REAL) && pattern_match(pattern, r->v[i].path))
            fail = add_member(e, i) != 0;
    if (fail) {
        entry_free(e);
        return -1;
    }
    return commit_entry(r);
}

/* ---- values ---- */

stat_val stat_eval(const stat_registry *r, int id, stat_scope scope)
{
    const stat_entry *e = &r->v[id];
    stat_val v = {0, 0, 0.0};
    int run = scope == STAT_SCOPE_RUN;
    switch (e->kind) {
    case E_COUNTER:
        v.is_int = 1;
        v.u = run ? e->run_u + (r->open ? *e->csrc : 0) : *e->csrc;
        v.d = (double)v.u;
        break;
    case E_REAL:
        v.d = run ? e->run_d + (r->open ? *e->rsrc : 0.0) : *e->rsrc;
        break;
    case E_FN:
        v.d = e->fn(r, scope, e->ctx);
        break;
    case E_RATIO: {
        double den = stat_value(r, e->den, scope);
        v.d = den == 0.0 ? 0.0 : stat_value(r, e->num, scope) / den;
        break;
    }
    case E_SUM:
        for (int i = 0; i < e->nmembers; i++) v.d += stat_value(r, e->members[i], scope);
        break;
    }
    return v;
}

double stat_value(const stat_registry *r, int id, stat_scope scope)
{
    if (!r || id < 0 || id >= r->n) return 0.0;
    return stat_eval(r, id, scope).d;
}

int stat_find(const stat_registry *r, const char *path)
{
    if (!r || !path) return -1;
    return strset_get(&r->paths, path, strlen(path));
}

int stat_get(const stat_registry *r, const char *name, stat_scope scope, double *out)
{
    if (!r || !name) return -1;
    int id = stat_find(r, name);
    if (id < 0) {
        int g = strset_get(&r->gnames, name, strlen(name));
        if (g < 0) return -1;
        id = g / 2;
        scope = g % 2 ? STAT_SCOPE_RUN : STAT_SCOPE_KERNEL;
    }
    if (out) *out = stat_value(r, id, scope);
    return 0;
}

int stat_count(const stat_registry *r) { return r ? r->n : 0; }

const char *stat_path(const stat_registry *r, int id)
{
    if (!r || id < 0 || id >= r->n) return NULL;
    return r->v[id].path;
}

/* ---- kernels ---- */

void stat_kernel_begin(stat_registry *r, const char *kernel_name)
{
    if (!r) return;
    if (r->open) stat_kernel_end(r); /* a missing end must not lose the previous kernel */
    /* The last kernel's values, for stat_kernel_abort; without memory an abort restores zeros. */
    r->nsaved = grow((void **)&r->saved, &r->capsaved, r->n, sizeof(stat_val)) == 0 ? r->n : 0;
    for (int i = 0; i < r->nsaved; i++) {
        r->saved[i].u = r->v[i].kind == E_COUNTER ? *r->v[i].csrc : 0;
        r->saved[i].d = r->v[i].kind == E_REAL ? *r->v[i].rsrc : 0.0;
    }
    for (int i = 0; i < r->n; i++) {
        if (r->v[i].kind == E_COUNTER) *r->v[i].csrc = 0;
        if (r->v[i].kind == E_REAL) *r->v[i].rsrc = 0.0;
    }
    free(r->open_name);
    r->open_name = dup_str(kernel_name); /* NULL on no memory: the record then has "" */
    r->open = 1;
}

/* Appends the history record of the running kernel; on no memory the record is skipped. */
static void record_kernel(stat_registry *r)
{
    if (grow((void **)&r->k, &r->capk, r->nk + 1, sizeof(kernel_rec)) != 0) return;
    stat_val *vals = malloc(sizeof(stat_val) * (size_t)(r->n ? r->n : 1));
    if (!vals) return;
    for (int i = 0; i < r->n; i++) vals[i] = stat_eval(r, i, STAT_SCOPE_KERNEL);
    kernel_rec *k = &r->k[r->nk++];
    k->name = r->open_name;
    r->open_name = NULL;
    k->nstats = r->n;
    k->vals = vals;
}

void stat_kernel_end(stat_registry *r)
{
    if (!r || !r->open) return;
    record_kernel(r);
    for (int i = 0; i < r->n; i++) {
        stat_entry *e = &r->v[i];
        if (e->kind == E_COUNTER) e->run_u += *e->csrc;
        if (e->kind == E_REAL) e->run_d += *e->rsrc;
    }
    r->open = 0;
    free(r->open_name);
    r->open_name = NULL;
}

int stat_kernel_count(const stat_registry *r) { return r ? r->nk : 0; }
