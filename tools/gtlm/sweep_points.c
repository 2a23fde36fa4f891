/* The points of a sweep: their directories, what a previous run left there, their `gtlm run`
 * arguments and their statistics. A point's directory OUT/<config>__<workload, '/' as '_'>
 * holds log.txt, stats.txt, args (the `gtlm run` arguments it ran with) and status ('ok' or
 * 'failed N'); a point is done when its status is 'ok' and its args are today's, so an
 * interrupted or partly failed run resumes where it stopped and a changed spec re-runs. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sweep.h"

#define CONFIG_ARG 5 /* index of the option file in sw_point.argv */

static void point_file(const sw_point *p, const char *name, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", p->dir, name);
}

void sw_read_status(sw_point *p)
{
    char path[SW_LINE + 16];
    point_file(p, "status", path, sizeof path);
    p->status[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(p->status, sizeof p->status, f)) p->status[0] = '\0';
        fclose(f);
    }
    p->status[strcspn(p->status, "\r\n")] = '\0';
    p->ok = strcmp(p->status, "ok") == 0;
}

/* The args file: one argument a line. Written before the run, compared on resume. */
static int args_match(const sw_point *p)
{
    char path[SW_LINE + 16], buf[SW_LINE];
    point_file(p, "args", path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int i = 0, same = 1;
    while (same && fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = '\0';
        same = i < p->argc && strcmp(buf, p->argv[i]) == 0;
        i++;
    }
    fclose(f);
    return same && i == p->argc;
}

int sw_write_args(const sw_point *p)
{
    char path[SW_LINE + 16];
    point_file(p, "args", path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    for (int i = 0; i < p->argc; i++) fprintf(f, "%s\n", p->argv[i]);
    return fclose(f);
}

void sw_write_status(sw_point *p, int code)
{
    if (code == 0) snprintf(p->status, sizeof p->status, "ok");
    else snprintf(p->status, sizeof p->status, "failed %d", code);
    p->ok = code == 0;
    char path[SW_LINE + 16];
    point_file(p, "status", path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%s\n", p->status) < 0 || fclose(f) != 0) fprintf(stderr, "gtlm: cannot write '%s'\n", path);
}

static int matches(const char *pattern, const char *name)
{
    return strcmp(pattern, "*") == 0 || strcmp(pattern, name) == 0;
}

/* run WORKLOAD --size S --config FILE [config args] [args lines]: the point's identity. */
static void build_argv(sw_run *r, sw_point *p)
{
    const sw_spec *sp = r->spec;
    const sw_workload *w = &sp->workloads[p->w];
    const sw_config *c = &sp->configs[p->c];
    int n = 0;
    p->argv[n++] = "run";
    p->argv[n++] = w->name;
    p->argv[n++] = "--size";
    int own = r->quick && w->n_quick_sets; /* its quick parameters are for its own size */
    p->argv[n++] = (char *)(r->size && !own ? r->size : w->size ? w->size : sp->size);
    p->argv[n++] = "--config";
    for (int i = 0; i < c->n_args; i++) p->argv[n++] = c->args[i];
    for (int i = 0; own && i < w->n_quick_sets; i++) {
        p->argv[n++] = "--set";
        p->argv[n++] = w->quick_sets[i];
    }
    for (int e = 0; e < sp->n_extras; e++) {
        const sw_extra *x = &sp->extras[e];
        if (!matches(x->workload, w->name) || !matches(x->config, c->name)) continue;
        for (int i = 0; i < x->n_args && n < (int)(sizeof p->argv / sizeof *p->argv) - 1; i++) p->argv[n++] = x->args[i];
    }
    p->argc = n;
}

int sw_list_has(const char *list, const char *s)
{
    size_t n = strlen(s);
    for (const char *t = list; t; t = strchr(t, ',') ? strchr(t, ',') + 1 : NULL)
        if (strncmp(t, s, n) == 0 && (t[n] == ',' || t[n] == '\0')) return 1;
    return 0;
}

/* A config that a figure showing a config of the --configs subset normalises over (its metric's
 * over= or the baseline): it runs too, or nothing of that figure could be computed. */
static int is_base(const sw_run *r, const char *name)
{
    const sw_spec *sp = r->spec;
    for (int f = 0; f < sp->n_figures; f++) {
        const sw_metric *m = &sp->metrics[sp->figures[f].metric];
        if (m->kind != SW_SPEEDUP && m->kind != SW_NORMALISED && m->kind != SW_SPEEDUP_JIT) continue;
        const char *base = m->over ? m->over : sp->baseline;
        if (!base || strcmp(base, name) != 0) continue;
        for (int i = 0; i < sp->figures[f].n_configs; i++)
            if (sw_list_has(r->only_configs, sp->configs[sp->figures[f].configs[i]].name)) return 1;
    }
    return 0;
}

int sw_in_run(const sw_run *r, int w)
{
    const sw_workload *wl = &r->spec->workloads[w];
    if (r->only_workloads && !sw_list_has(r->only_workloads, wl->label) && !sw_list_has(r->only_workloads, wl->name))
        return 0;
    if (!r->quick) return 1;
    int any = 0;
    for (int i = 0; i < r->spec->n_workloads; i++) any |= r->spec->workloads[i].quick;
    /* no workload marked quick: the first one stands for the experiment */
    return any ? wl->quick : w == 0;
}

int sw_point_in_run(const sw_run *r, const sw_point *p)
{
    if (!sw_in_run(r, p->w)) return 0;
    const char *list = r->spec->workloads[p->w].quick_configs, *name = r->spec->configs[p->c].name;
    if (r->only_configs && !sw_list_has(r->only_configs, name) && !is_base(r, name)) return 0;
    return !r->quick || !list || sw_list_has(list, name);
}

void sw_make_points(sw_run *r, const char *out)
{
    const sw_spec *sp = r->spec;
    r->n = sp->n_workloads * sp->n_configs;
    r->pts = sw_grow(NULL, (size_t)r->n * sizeof *r->pts);
    memset(r->pts, 0, (size_t)r->n * sizeof *r->pts);
    for (int i = 0; i < r->n; i++) {
        sw_point *p = &r->pts[i];
        p->w = i / sp->n_configs;
        p->c = i % sp->n_configs;
        if (sp->configs[p->c].oracle) continue;
        const char *wl = sp->workloads[p->w].name;
        int len = snprintf(p->dir, sizeof p->dir, "%s/%s__", out, sp->configs[p->c].name);
        for (const char *s = wl; *s && len < (int)sizeof p->dir - 1; s++) p->dir[len++] = *s == '/' ? '_' : *s;
        p->dir[len] = '\0';
        build_argv(r, p);
        sw_read_status(p);
        if (p->ok && !args_match(p)) {
            p->ok = 0; /* finished with other arguments: run again */
            snprintf(p->status, sizeof p->status, "stale");
        }
    }
}

int sw_pending(const sw_run *r, sw_point **todo)
{
    int n = 0;
    for (int i = 0; i < r->n; i++) {
        sw_point *p = &r->pts[i];
        if (!r->spec->configs[p->c].oracle && sw_point_in_run(r, p) && !p->ok) todo[n++] = p;
    }
    return n;
}

int sw_point_argv(const sw_point *p, const char *exe, const char *config_file, const char *stats, const char **argv)
{
    int n = 0;
    argv[n++] = exe;
    for (int i = 0; i < p->argc; i++) argv[n++] = i == CONFIG_ARG && config_file ? config_file : p->argv[i];
    argv[n++] = "--stats";
    argv[n++] = stats;
    argv[n++] = "--check-stats";
    argv[n] = NULL;
    return n;
}

int sw_column(sw_columns *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->names[i], name) == 0) return i;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 128;
        c->names = sw_grow(c->names, (size_t)c->cap * sizeof *c->names);
    }
    c->names[c->n] = sw_strdup(name);
    return c->n++;
}

static int find_column(const sw_columns *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->names[i], name) == 0) return i;
    return -1;
}

static void set_value(sw_point *p, int col, const char *value)
{
    if (col >= p->n_values) {
        p->values = sw_grow(p->values, (size_t)(col + 1) * sizeof *p->values);
        while (p->n_values <= col) p->values[p->n_values++] = NULL;
    }
    free(p->values[col]);
    p->values[col] = sw_strdup(value); /* a name printed twice keeps its last (cumulative) value */
}

/* Reads the `name = value` lines of the point's stats.txt; other lines are headers. */
static void read_stats(sw_point *p, sw_columns *cols)
{
    char path[SW_LINE + 16], buf[SW_LINE];
    point_file(p, "stats.txt", path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return;
    while (fgets(buf, sizeof buf, f)) {
        char *eq = strstr(buf, " = ");
        if (!eq) continue;
        *eq = '\0';
        char *value = eq + 3;
        value[strcspn(value, "\r\n")] = '\0';
        if (buf[0] == '\0' || strpbrk(buf, " \t")) continue;
        set_value(p, sw_column(cols, buf), value);
    }
    fclose(f);
}

void sw_read_all_stats(sw_run *r)
{
    for (int i = 0; i < r->n; i++)
        if (r->pts[i].dir[0] && sw_point_in_run(r, &r->pts[i])) read_stats(&r->pts[i], &r->cols);
}

const char *sw_value(const sw_point *p, int col)
{
    return col >= 0 && col < p->n_values && p->values[col] ? p->values[col] : NULL;
}

double sw_stat(const sw_run *r, const sw_point *p, const char *stat, int *ok)
{
    const char *v = p && p->ok ? sw_value(p, find_column(&r->cols, stat)) : NULL;
    char *end = NULL;
    double x = v ? strtod(v, &end) : 0.0;
    *ok = v && end != v;
    return *ok ? x : 0.0;
}
