#include "opt.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

void opt_registry_init(opt_registry *r) { memset(r, 0, sizeof *r); }

void opt_registry_free(opt_registry *r)
{
    for (size_t i = 0; i < r->n; i++) {
        opt_entry *e = &r->v[i];
        if (e->type == OPT_STRING && !e->alias_of) {
            free(*(char **)e->dst);
            *(char **)e->dst = NULL;
        }
        free(e->name);
        free(e->block);
        free(e->desc);
        free(e->def);
    }
    free(r->v);
    memset(r, 0, sizeof *r);
}

const opt_entry *opt_find(const opt_registry *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->v[i].name, name) == 0) return &r->v[i];
    return NULL;
}

/* ---- scalar parsers: each says what it expected ---- */

static int parse_i64(const char *t, int64_t lo, int64_t hi, int64_t *out, char *err, size_t len)
{
    char *end;
    errno = 0;
    long long v = strtoll(t, &end, 0);
    if (end == t || *end != '\0') {
        snprintf(err, len, "expected an integer, got '%s'", t);
        return -1;
    }
    if (errno == ERANGE || v < lo || v > hi) {
        snprintf(err, len, "expected an integer in [%" PRId64 ", %" PRId64 "], got '%s'", lo, hi, t);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_double(const char *t, double lo, double hi, double *out, char *err, size_t len)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (end == t || *end != '\0' || !isfinite(v)) {
        snprintf(err, len, "expected a finite number, got '%s'", t);
        return -1;
    }
    /* ERANGE also flags an underflow (1e-400): out of range like any other tiny value. */
    if (errno == ERANGE || !(v >= lo && v <= hi)) {
        snprintf(err, len, "expected a number in [%g, %g], got '%s'", lo, hi, t);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_bool(const char *t, int *out, char *err, size_t len)
{
    static const char *const yes[] = {"1", "true", "on", "yes"};
    static const char *const no[] = {"0", "false", "off", "no"};
    for (int i = 0; i < 4; i++) {
        if (strcmp(t, yes[i]) == 0) { *out = 1; return 0; }
        if (strcmp(t, no[i]) == 0) { *out = 0; return 0; }
    }
    snprintf(err, len, "expected 0 or 1 (or true/false), got '%s'", t);
    return -1;
}

static int parse_enum(const char *const *choices, const char *t, int *out, char *err, size_t len)
{
    for (int i = 0; choices[i]; i++)
        if (strcmp(choices[i], t) == 0) { *out = i; return 0; }
    size_t o = (size_t)snprintf(err, len, "expected one of");
    for (int i = 0; choices[i] && o < len; i++)
        o += (size_t)snprintf(err + o, len - o, "%s %s", i ? "," : "", choices[i]);
    if (o < len) snprintf(err + o, len - o, "; got '%s'", t);
    return -1;
}

/* Parses text into a scratch copy first so a bad value never clobbers the current one. */
static int parse_value(const opt_entry *e, const char *t, char *err, size_t len)
{
    switch (e->type) {
    case OPT_INT: {
        int64_t v;
        if (parse_i64(t, e->lo, e->hi, &v, err, len)) return -1;
        *(int *)e->dst = (int)v;
        return 0;
    }
    case OPT_I64: {
        int64_t v;
        if (parse_i64(t, e->lo, e->hi, &v, err, len)) return -1;
        *(int64_t *)e->dst = v;
        return 0;
    }
    case OPT_DOUBLE: return parse_double(t, e->dlo, e->dhi, (double *)e->dst, err, len);
    case OPT_BOOL: return parse_bool(t, (int *)e->dst, err, len);
    case OPT_ENUM: return parse_enum(e->choices, t, (int *)e->dst, err, len);
    case OPT_STRING: {
        char *p = dup_str(t);
        if (!p) { snprintf(err, len, "out of memory"); return -1; }
        free(*(char **)e->dst);
        *(char **)e->dst = p;
        return 0;
    }
    case OPT_CUSTOM: return e->custom->parse(e->custom->param, t, e->dst, err, len);
    }
    snprintf(err, len, "internal: unknown option type");
    return -1;
}

void opt_format(const opt_entry *e, char *buf, size_t len)
{
    switch (e->type) {
    case OPT_INT: snprintf(buf, len, "%d", *(const int *)e->dst); return;
    case OPT_I64: snprintf(buf, len, "%" PRId64, *(const int64_t *)e->dst); return;
    case OPT_DOUBLE: snprintf(buf, len, "%.17g", *(const double *)e->dst); return;
    case OPT_BOOL: snprintf(buf, len, "%d", *(const int *)e->dst ? 1 : 0); return;
    case OPT_ENUM: snprintf(buf, len, "%s", e->choices[*(const int *)e->dst]); return;
    case OPT_STRING: {
        const char *s = *(char *const *)e->dst;
        snprintf(buf, len, "%s", s ? s : "");
        return;
    }
    case OPT_CUSTOM: e->custom->format(e->custom->param, e->dst, buf, len); return;
    }
    snprintf(buf, len, "?");
}

/* The accepted range of a numeric option (unused by the other types). */
typedef struct range {
    int64_t lo, hi;
    double dlo, dhi;
} range;
static const range no_range = {0, 0, 0.0, 0.0};

static void type_text(opt_entry *e)
{
    switch (e->type) {
    case OPT_INT:
    case OPT_I64:
        snprintf(e->type_text, sizeof e->type_text, "%s in [%" PRId64 ", %" PRId64 "]",
                 e->type == OPT_INT ? "int" : "int64", e->lo, e->hi);
        return;
    case OPT_DOUBLE: snprintf(e->type_text, sizeof e->type_text, "double in [%g, %g]", e->dlo, e->dhi); return;
    case OPT_BOOL: snprintf(e->type_text, sizeof e->type_text, "bool"); return;
    case OPT_STRING: snprintf(e->type_text, sizeof e->type_text, "string"); return;
    case OPT_ENUM: snprintf(e->type_text, sizeof e->type_text, "enum"); return;
    case OPT_CUSTOM: snprintf(e->type_text, sizeof e->type_text, "%s", e->custom->name); return;
    }
}

/* fresh: dst has never held a value (a new field, not an alias of a registered one). */
static int add_entry(opt_registry *r, const char *block, const char *name, opt_type type, void *dst,
                     const char *const *choices, const opt_custom_type *custom, range rg, const char *def,
                     const char *desc, int fresh, strbuf *err)
{
    if (rg.lo > rg.hi || !(rg.dlo <= rg.dhi)) {
        strbuf_line(err, "option '%s' has an empty range", name);
        return -1;
    }
    if (name[0] != '-') {
        strbuf_line(err, "option '%s' must start with '-'", name);
        return -1;
    }
    if (opt_find(r, name)) {
        strbuf_line(err, "option '%s' registered twice", name);
        return -1;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        opt_entry *v = realloc(r->v, cap * sizeof *v);
        if (!v) return -1;
        r->v = v;
        r->cap = cap;
    }
    opt_entry *e = &r->v[r->n];
    memset(e, 0, sizeof *e);
    e->type = type;
    e->dst = dst;
    e->choices = choices;
    e->custom = custom;
    e->lo = rg.lo;
    e->hi = rg.hi;
    e->dlo = rg.dlo;
    e->dhi = rg.dhi;
    type_text(e);
    if (type == OPT_STRING && fresh) *(char **)dst = NULL;
    e->name = dup_str(name);
    e->block = dup_str(block);
    e->desc = dup_str(desc);
    e->def = dup_str(def);
    if (!e->name || !e->block || !e->desc || !e->def) {
        free(e->name); free(e->block); free(e->desc); free(e->def);
        strbuf_line(err, "out of memory registering '%s'", name);
        return -1;
    }
    r->n++;
    char msg[512];
    if (parse_value(e, def, msg, sizeof msg) != 0) {
        strbuf_line(err, "bad default '%s' for option '%s': %s", def, name, msg);
        return -1;
    }
    snprintf(e->source, sizeof e->source, "default");
    return 0;
}

static int add(opt_registry *r, const char *block, const char *name, opt_type type, void *dst,
               const char *const *choices, const opt_custom_type *custom, range rg, const char *def,
               const char *desc, strbuf *err)
{
    return add_entry(r, block, name, type, dst, choices, custom, rg, def, desc, 1, err);
}

int opt_add_int(opt_registry *r, const char *b, const char *n, int *d, const char *def, int lo, int hi,
                const char *desc, strbuf *e)
{
    range rg = {lo, hi, 0.0, 0.0};
    return add(r, b, n, OPT_INT, d, NULL, NULL, rg, def, desc, e);
}
int opt_add_i64(opt_registry *r, const char *b, const char *n, int64_t *d, const char *def, int64_t lo, int64_t hi,
                const char *desc, strbuf *e)
{
    range rg = {lo, hi, 0.0, 0.0};
    return add(r, b, n, OPT_I64, d, NULL, NULL, rg, def, desc, e);
}
int opt_add_double(opt_registry *r, const char *b, const char *n, double *d, const char *def, double lo, double hi,
                   const char *desc, strbuf *e)
{
    range rg = {0, 0, lo, hi};
    return add(r, b, n, OPT_DOUBLE, d, NULL, NULL, rg, def, desc, e);
}
int opt_add_bool(opt_registry *r, const char *b, const char *n, int *d, const char *def, const char *desc, strbuf *e)
{ return add(r, b, n, OPT_BOOL, d, NULL, NULL, no_range, def, desc, e); }
int opt_add_string(opt_registry *r, const char *b, const char *n, char **d, const char *def, const char *desc, strbuf *e)
{ return add(r, b, n, OPT_STRING, d, NULL, NULL, no_range, def, desc, e); }
int opt_add_enum(opt_registry *r, const char *b, const char *n, int *d, const char *const *choices,
                 const char *def, const char *desc, strbuf *e)
{ return add(r, b, n, OPT_ENUM, d, choices, NULL, no_range, def, desc, e); }
int opt_add_custom(opt_registry *r, const char *b, const char *n, const opt_custom_type *t, void *d,
                   const char *def, const char *desc, strbuf *e)
{ return add(r, b, n, OPT_CUSTOM, d, NULL, t, no_range, def, desc, e); }

int opt_add_alias(opt_registry *r, const char *alias, const char *target, const char *desc, strbuf *err)
{
    const opt_entry *t = opt_find(r, target);
    if (!t || t->alias_of) {
        strbuf_line(err, "alias '%s' names '%s', which is not a registered option", alias, target);
        return -1;
    }
    size_t ti = (size_t)(t - r->v);
    char def[1024];
    opt_format(t, def, sizeof def);
    /* Register as a copy of the target's type, then point it at the target. The default
     * re-parse writes the target's current value back unchanged. */
    char *block = dup_str(t->block);
    if (!block) return -1;
    range rg = {t->lo, t->hi, t->dlo, t->dhi};
    int rc = add_entry(r, block, alias, t->type, t->dst, t->choices, t->custom, rg, def, desc, 0, err);
    free(block);
    if (rc == 0) r->v[r->n - 1].alias_of = ti + 1;
    return rc;
}

int opt_set(opt_registry *r, const char *name, const char *value, const char *where, strbuf *err)
{
    opt_entry *e = (opt_entry *)opt_find(r, name);
    char alias_where[900];
    if (e && e->alias_of) {
        snprintf(alias_where, sizeof alias_where, "%s (as %s)", where, name);
        where = alias_where;
        e = &r->v[e->alias_of - 1];
        name = e->name;
    }
    if (!e) {
        const char *s = opt_suggest(r, name);
        if (s)
            strbuf_line(err, "%s: unknown option '%s' (did you mean '%s'?)", where, name, s);
        else
            strbuf_line(err, "%s: unknown option '%s'", where, name);
        return OPT_ERR_UNKNOWN;
    }
    char msg[768];
    if (parse_value(e, value, msg, sizeof msg) != 0) {
        strbuf_line(err, "%s: option '%s': %s", where, name, msg);
        return -1;
    }
    snprintf(e->source, sizeof e->source, "%s", where);
    return 0;
}

/* Levenshtein distance, bounded by the short names options have. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 127 || lb > 127) return (size_t)-1;
    size_t row[128];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *opt_suggest(const opt_registry *r, const char *name)
{
    const char *best = NULL;
    size_t best_d = 4; /* only near misses are worth suggesting */
    for (size_t i = 0; i < r->n; i++) {
        size_t d = edit_distance(name, r->v[i].name);
        if (d < best_d) { best_d = d; best = r->v[i].name; }
    }
    return best;
}
