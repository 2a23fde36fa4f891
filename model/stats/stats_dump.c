/* Text (GPGPU-Sim style) and JSON dumps of the statistics registry. */
#include "stats_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- text dump ---- */

static void fmt_text(char *buf, size_t n, stat_val v)
{
    if (v.is_int) {
        snprintf(buf, n, "%" PRIu64, v.u);
    } else if (isfinite(v.d) && v.d == floor(v.d) && fabs(v.d) < 1e15) {
        snprintf(buf, n, "%.0f", v.d == 0.0 ? 0.0 : v.d); /* no "-0" */
    } else {
        snprintf(buf, n, "%.6g", v.d);
    }
}

int stat_dump_text(const stat_registry *r, FILE *f, stat_scope scope)
{
    if (!r || !f) return -1;
    char buf[64];
    /* Pass 0: statistics with a GPGPU-Sim name for the scope; pass 1: the others by path. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < r->n; i++) {
            const stat_entry *e = &r->v[i];
            const char *gname = scope == STAT_SCOPE_KERNEL ? e->gpgpusim_kernel : e->gpgpusim_run;
            if ((pass == 0) != (gname != NULL)) continue;
            fmt_text(buf, sizeof buf, stat_eval(r, i, scope));
            fprintf(f, "%s = %s\n", pass == 0 ? gname : e->path, buf);
        }
    }
    return ferror(f) ? -1 : 0;
}

/* ---- JSON dump ---- */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Counters exactly; reals in the shortest form that reads back to the same double. */
static void json_num(FILE *f, stat_val v)
{
    if (v.is_int) {
        fprintf(f, "%" PRIu64, v.u);
        return;
    }
    if (!isfinite(v.d)) {
        fputs("null", f);
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v.d == 0.0 ? 0.0 : v.d);
        if (strtod(buf, NULL) == v.d) break;
    }
    fputs(buf, f);
}

static void indent(FILE *f, int depth)
{
    for (int i = 0; i < depth; i++) fputs("  ", f);
}

/* A node of the path tree: children are kept in first-registration order. */
typedef struct jnode {
    const char *key; /* points into a statistic's path */
    size_t klen;
    int leaf;        /* statistic id, or -1 for an object */
    int first, last, next;
} jnode;

typedef struct jtree {
    jnode *v;
    int n;
} jtree;

static int jtree_child(jtree *t, int parent, const char *key, size_t klen)
{
    for (int c = t->v[parent].first; c >= 0; c = t->v[c].next)
        if (t->v[c].klen == klen && strncmp(t->v[c].key, key, klen) == 0) return c;
    int c = t->n++;
    t->v[c] = (jnode){key, klen, -1, -1, -1, -1};
    if (t->v[parent].last >= 0) t->v[t->v[parent].last].next = c;
    else t->v[parent].first = c;
    t->v[parent].last = c;
    return c;
}

/* Builds the tree of every path; node 0 is the root. */
static int jtree_build(const stat_registry *r, jtree *t)
{
    size_t cap = 1;
    for (int i = 0; i < r->n; i++)
        for (const char *p = r->v[i].path; *p; p++) cap += *p == '.';
    cap += (size_t)r->n;
    t->v = malloc(cap * sizeof(jnode));
    if (!t->v) return -1;
    t->v[0] = (jnode){"", 0, -1, -1, -1, -1};
    t->n = 1;
    for (int i = 0; i < r->n; i++) {
        int node = 0;
        const char *p = r->v[i].path;
        for (;;) {
            size_t len = strcspn(p, ".");
            node = jtree_child(t, node, p, len);
            if (p[len] == '\0') break;
            p += len + 1;
        }
        t->v[node].leaf = i; /* prefix conflicts were rejected, so a leaf has no children */
    }
    return 0;
}

static void json_leaf(const stat_registry *r, FILE *f, int id)
{
    const stat_entry *e = &r->v[id];
    fputs("{\"value\": ", f);
    json_num(f, stat_eval(r, id, STAT_SCOPE_RUN));
    fputs(", \"unit\": ", f);
    json_str(f, e->unit);
    fputs(", \"description\": ", f);
    json_str(f, e->desc);
    fprintf(f, ", \"host\": %s}", e->host ? "true" : "false");
}

static void json_node(const stat_registry *r, const jtree *t, FILE *f, int node, int depth)
{
    if (t->v[node].leaf >= 0) {
        json_leaf(r, f, t->v[node].leaf);
        return;
    }
    if (t->v[node].first < 0) {
        fputs("{}", f);
        return;
    }
    fputs("{\n", f);
    for (int c = t->v[node].first; c >= 0; c = t->v[c].next) {
        indent(f, depth + 1);
        /* Keys are path segments: only [A-Za-z0-9_[]], nothing to escape. */
        fprintf(f, "\"%.*s\": ", (int)t->v[c].klen, t->v[c].key);
        json_node(r, t, f, c, depth + 1);
        fputs(t->v[c].next >= 0 ? ",\n" : "\n", f);
    }
    indent(f, depth);
    fputc('}', f);
}

static void json_kernel(const stat_registry *r, FILE *f, int k)
{
    const kernel_rec *rec = &r->k[k];
    fprintf(f, "    {\"index\": %d, \"name\": ", k);
    json_str(f, rec->name);
    fputs(", \"stats\": {", f);
    for (int i = 0; i < rec->nstats; i++) {
        fputs(i ? ",\n      " : "\n      ", f);
        json_str(f, r->v[i].path);
        fputs(": ", f);
        json_num(f, rec->vals[i]);
    }
    fputs(rec->nstats ? "\n    }}" : "}}", f);
}

int stat_dump_json(const stat_registry *r, FILE *f)
{
    if (!r || !f) return -1;
    jtree t;
    if (jtree_build(r, &t) != 0) return -1;
    fputs("{\n  \"run\": ", f);
    json_node(r, &t, f, 0, 1);
    free(t.v);
    fputs(",\n  \"kernels\": [", f);
    for (int k = 0; k < r->nk; k++) {
        fputs(k ? ",\n" : "\n", f);
        json_kernel(r, f, k);
    }
    fputs(r->nk ? "\n  ]\n}\n" : "]\n}\n", f);
    return ferror(f) ? -1 : 0;
}
