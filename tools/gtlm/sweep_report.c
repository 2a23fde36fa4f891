/* The reproduction report: per figure a markdown table (rows = workloads and means per class,
 * columns = configs, each cell ours and the document's number beside it), the same as CSV, the
 * plot's table and PNG (tools/plot), and a verdict line per headline claim. Nothing in it
 * depends on timing or paths, so a resumed run's report equals an uninterrupted one's. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "sweep.h"

/* A table row: a workload, or a mean over a class (-1: all workloads). */
typedef struct row {
    int w, mean, cls;
} row;

/* The value of one cell; 0: none (failed point), -1: empty class. */
static int cell(const sw_run *r, const sw_figure *f, row rw, int c, double *v)
{
    if (rw.w >= 0) {
        int ok;
        *v = sw_metric_value(r, f->metric, rw.w, c, &ok);
        return ok;
    }
    const sw_spec *sp = r->spec;
    double *vals = sw_grow(NULL, (size_t)sp->n_workloads * sizeof *vals);
    int n = 0, members = 0;
    for (int w = 0; w < sp->n_workloads; w++) {
        const char *cls = sp->workloads[w].cls;
        if (!sw_in_run(r, w) || (rw.cls >= 0 && (!cls || strcmp(cls, sp->classes[rw.cls]) != 0))) continue;
        members++;
        int ok;
        double x = sw_metric_value(r, f->metric, w, c, &ok);
        if (ok) vals[n++] = x;
    }
    int got = members == 0 ? -1 : n == members && sw_mean(rw.mean, vals, n, v);
    free(vals);
    return got;
}

static void row_name(const sw_spec *sp, row rw, char *out, size_t n)
{
    if (rw.w >= 0) snprintf(out, n, "%s", sp->workloads[rw.w].label);
    else if (rw.cls < 0) snprintf(out, n, "%s", sw_mean_name(rw.mean));
    else snprintf(out, n, "%s:%s", sw_mean_name(rw.mean), sp->classes[rw.cls]);
}

static const doc_number *find_doc(const doc_numbers *dn, int figure, row rw, int c)
{
    for (int i = 0; dn && i < dn->n; i++) {
        const doc_number *d = &dn->v[i];
        if (d->figure != figure || d->config != c || d->w != rw.w) continue;
        if (rw.w >= 0 || (d->mean == rw.mean && d->cls == rw.cls)) return d;
    }
    return NULL;
}

static int rows_of(const sw_run *r, const sw_figure *f, row *rows)
{
    const sw_spec *sp = r->spec;
    int n = 0;
    for (int w = 0; w < sp->n_workloads; w++)
        if (sw_in_run(r, w)) rows[n++] = (row){w, 0, -1};
    static const int kinds[] = {SW_GEOMEAN, SW_HMEAN, SW_AMEAN};
    for (int k = 0; k < 3; k++) {
        if (!(f->means & kinds[k])) continue;
        rows[n++] = (row){-1, kinds[k], -1};
        for (int c = 0; c < sp->n_classes; c++) rows[n++] = (row){-1, kinds[k], c};
    }
    return n;
}

static const char *metric_text(const sw_spec *sp, const sw_metric *m, char *buf, size_t n)
{
    const char *base = m->over ? m->over : sp->baseline;
    switch (m->kind) {
    case SW_SPEEDUP: snprintf(buf, n, "%s of %s / of the config", m->stat, base); break;
    case SW_NORMALISED: snprintf(buf, n, "%s of the config / of %s", m->stat, base); break;
    case SW_VALUE: snprintf(buf, n, "%s", m->stat); break;
    case SW_SPEEDUP_JIT:
        snprintf(buf, n, "time of %s / (time + %s), time = %s / %g MHz", base, m->stat2, m->stat, m->mhz);
        break;
    default: snprintf(buf, n, "%s / %s", m->stat, m->stat2); break;
    }
    return buf;
}

typedef struct files {
    FILE *md, *csv, *plot;
} files;

/* One figure: the markdown table with the document's numbers, its CSV and the plot's table. */
static void figure_tables(const sw_run *r, const doc_numbers *dn, int fi, files *o)
{
    const sw_spec *sp = r->spec;
    const sw_figure *f = &sp->figures[fi];
    char buf[512], name[256], doc[64], why[256];
    row *rows = sw_grow(NULL, (size_t)(sp->n_workloads + 3 * (sp->n_classes + 1)) * sizeof *rows);
    int n = rows_of(r, f, rows);
    fprintf(o->md, "## %s: %s\n\n%s (%s)\n\n| row | class |", f->name, f->title ? f->title : sp->metrics[f->metric].name,
            sp->metrics[f->metric].name, metric_text(sp, &sp->metrics[f->metric], buf, sizeof buf));
    fprintf(o->csv, "row,class,config,ours,winner,document\n");
    fprintf(o->plot, "row");
    for (int i = 0; i < f->n_configs; i++) {
        fprintf(o->md, " %s |", sp->configs[f->configs[i]].name);
        fprintf(o->plot, ",%s", sp->configs[f->configs[i]].name);
    }
    fprintf(o->md, "\n|---|---|");
    for (int i = 0; i < f->n_configs; i++) fprintf(o->md, "---:|");
    fprintf(o->md, "\n");
    fprintf(o->plot, "\n");
    int stated = 0, agree = 0;
    char differ[SW_LINE] = "";
    for (int k = 0; k < n; k++) {
        row rw = rows[k];
        row_name(sp, rw, name, sizeof name);
        const char *cls = rw.w >= 0 ? (sp->workloads[rw.w].cls ? sp->workloads[rw.w].cls : "")
                        : rw.cls >= 0 ? sp->classes[rw.cls] : "all";
        fprintf(o->md, "| %s | %s |", name, cls);
        if (rw.w >= 0 || rw.cls < 0) fprintf(o->plot, "%s", name);
        for (int i = 0; i < f->n_configs; i++) {
            int c = f->configs[i];
            double v = 0;
            int got = cell(r, f, rw, c, &v);
            const sw_point *win = rw.w >= 0 && sp->configs[c].oracle ? sw_effective(r, rw.w, c) : NULL;
            const char *winner = win ? sp->configs[win->c].name : "";
            const doc_number *d = find_doc(dn, fi, rw, c);
            doc[0] = '\0';
            if (d) doc_format(d, doc, sizeof doc);
            if (got > 0) fprintf(o->md, " %.3f", v);
            else fprintf(o->md, " %s", got < 0 ? "empty" : "n/a");
            if (winner[0]) fprintf(o->md, " [%s]", winner);
            if (d) fprintf(o->md, " (doc %s)", doc);
            fprintf(o->md, " |");
            if (got > 0) snprintf(buf, sizeof buf, "%.6g", v);
            else snprintf(buf, sizeof buf, "%s", got < 0 ? "empty" : "n/a");
            fprintf(o->csv, "%s,%s,%s,%s,%s,%s\n", name, cls, sp->configs[c].name, buf, winner, doc);
            if (rw.w >= 0 || rw.cls < 0) fprintf(o->plot, ",%s", got > 0 ? buf : "");
            if (d && !d->claim) {
                stated++;
                if (got > 0 && doc_agrees(sp, d, v, why, sizeof why)) agree++;
                else {
                    size_t len = strlen(differ);
                    snprintf(differ + len, sizeof differ - len, "%s%s %s", len ? ", " : "", name, sp->configs[c].name);
                }
            }
        }
        fprintf(o->md, "\n");
        if (rw.w >= 0 || rw.cls < 0) fprintf(o->plot, "\n");
    }
    if (stated)
        fprintf(o->md, "\nthe document's numbers: ours agrees with %d of %d%s%s\n", agree, stated,
                differ[0] ? "; differs at " : "", differ);
    fprintf(o->md, "\n");
    free(rows);
}

/* The verdict of every headline claim, after the tables. */
static void verdicts(const sw_run *r, const doc_numbers *dn, FILE *md)
{
    int any = 0;
    for (int i = 0; dn && i < dn->n; i++) {
        const doc_number *d = &dn->v[i];
        if (!d->claim) continue;
        if (!any++) fprintf(md, "## Verdicts\n\n");
        const sw_figure *f = &r->spec->figures[d->figure];
        row rw = {d->w, d->mean, d->cls};
        char name[256], doc[64], why[256];
        row_name(r->spec, rw, name, sizeof name);
        doc_format(d, doc, sizeof doc);
        double v = 0;
        int got = cell(r, f, rw, d->config, &v);
        if (got <= 0 || (d->w >= 0 && !sw_in_run(r, d->w))) {
            fprintf(md, "- verdict: NO DATA: %s (%s %s %s: document %s, ours %s)\n", d->text, f->name,
                    r->spec->configs[d->config].name, name, doc, got < 0 ? "empty" : "n/a");
            continue;
        }
        int ok = doc_agrees(r->spec, d, v, why, sizeof why);
        fprintf(md, "- verdict: %s: %s (%s %s %s: document %s, ours %.3f; %s)\n", ok ? "AGREES" : "DIFFERS", d->text,
                f->name, r->spec->configs[d->config].name, name, doc, v, why);
    }
    if (any) fprintf(md, "\n");
}

static FILE *open_out(const char *out, const char *name, const char *ext)
{
    char path[SW_LINE + 256];
    snprintf(path, sizeof path, "%s/%s%s", out, name, ext);
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "gtlm: cannot write '%s': %s\n", path, strerror(errno));
    return f;
}

/* tools/plot bars|lines TABLE PNG --title T; a failed plot is reported, not fatal. */
static void draw(const char *plot, const char *out, const sw_figure *f)
{
    char csv[SW_LINE + 256], png[SW_LINE + 256];
    snprintf(csv, sizeof csv, "%s/%s.plot.csv", out, f->name);
    snprintf(png, sizeof png, "%s/%s.png", out, f->name);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        execlp("bash", "bash", plot, f->lines ? "lines" : "bars", csv, png, "--title", f->title ? f->title : f->name,
               (char *)NULL);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fprintf(stderr, "gtlm: plotting %s failed (%s)\n", f->name, plot);
}

int sw_report(const sw_run *r, const doc_numbers *dn, const char *out, const char *plot)
{
    FILE *md = open_out(out, "report", ".md");
    if (!md) return CLI_FAIL;
    fprintf(md, "# Reproduction of %s%s\n\n", r->name ? r->name : r->spec->path, r->quick ? " (--quick subset)" : "");
    if (r->only_workloads) fprintf(md, "Workloads: only %s.\n\n", r->only_workloads);
    if (r->only_configs) fprintf(md, "Configs: only %s (and the configs their figures normalise over).\n\n", r->only_configs);
    int rc = CLI_OK;
    for (int i = 0; i < r->spec->n_figures; i++) {
        files o = {md, open_out(out, r->spec->figures[i].name, ".csv"), open_out(out, r->spec->figures[i].name, ".plot.csv")};
        if (!o.csv || !o.plot) rc = CLI_FAIL;
        else figure_tables(r, dn, i, &o);
        if (o.csv) fclose(o.csv);
        if (o.plot) fclose(o.plot);
        if (o.csv && o.plot && plot) draw(plot, out, &r->spec->figures[i]);
    }
    verdicts(r, dn, md);
    if (fclose(md) != 0) rc = CLI_FAIL;
    /* the same report on standard output */
    char path[SW_LINE + 16], buf[SW_LINE];
    snprintf(path, sizeof path, "%s/report.md", out);
    FILE *f = fopen(path, "r");
    while (f && fgets(buf, sizeof buf, f)) fputs(buf, stdout);
    if (f) fclose(f);
    return rc;
}
