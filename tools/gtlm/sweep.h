/* Sweeps and reproductions: the spec, its points, how they run (local processes or a SLURM job
 * array), and what is computed from their statistics (oracles, derived metrics, means, figures).
 * The spec format is described in sweep_spec.c and by `gtlm reproduce --help`. */
#ifndef GTLM_SWEEP_H
#define GTLM_SWEEP_H

#include <stdio.h>

#define SW_MAX_WORKLOADS 256
#define SW_MAX_CONFIGS 96
#define SW_MAX_ARGS 64
#define SW_MAX_QUICK_SETS 8
#define SW_MAX_CLASSES 32
#define SW_MAX_EXTRAS 256
#define SW_MAX_METRICS 32
#define SW_MAX_FIGURES 32
#define SW_LINE 4096

typedef struct sw_config {
    char *name;
    char *args[SW_MAX_ARGS]; /* args[0] is the option file, the rest go to `gtlm run` verbatim */
    int n_args;
    /* An oracle is no run of its own: per workload, the member with the best `by` statistic. */
    int oracle;
    int members[SW_MAX_CONFIGS];
    int n_members;
    char *by;     /* a statistic or metric name */
    int maximize; /* 1: the largest wins, 0: the smallest */
} sw_config;

typedef struct sw_workload {
    char *name;  /* as `gtlm run` names it */
    char *label; /* the document's abbreviation (default: the name) */
    char *cls;   /* index into classes as a name, NULL when unclassified */
    char *size;  /* NULL: the spec's size */
    int quick;   /* part of the --quick subset */
    /* quick-set=NAME=VALUE: under --quick it runs at its own size with these parameters (the quick
     * size would not show the effect), not at size tiny */
    char *quick_sets[SW_MAX_QUICK_SETS];
    int n_quick_sets;
    char *quick_configs; /* quick-configs=A,B,...: under --quick only these configs run for it (NULL: all) */
} sw_workload;

/* `args WORKLOAD|* CONFIG|* ARG...`: extra `gtlm run` arguments of the matching points. */
typedef struct sw_extra {
    char *workload, *config;
    char *args[SW_MAX_ARGS];
    int n_args;
} sw_extra;

enum { SW_SPEEDUP, SW_NORMALISED, SW_VALUE, SW_RATIO, SW_SPEEDUP_JIT };

/* A statistic derived per point: speedup = base STAT / STAT, normalised = STAT / base STAT,
 * value = STAT, ratio = STAT / STAT2 of the same point, speedup_jit = the thesis' (PAVER Sec. 3.5)
 * base time / (time + JIT): times are STAT cycles / mhz, the JIT is STAT2 seconds of the point. */
typedef struct sw_metric {
    char *name;
    int kind;
    char *stat, *stat2;
    char *over; /* the normalisation config of speedup and normalised (default the baseline) */
    double mhz; /* speedup_jit: the core clock that turns cycles into seconds */
} sw_metric;

enum { SW_GEOMEAN = 1, SW_HMEAN = 2, SW_AMEAN = 4 };

typedef struct sw_figure {
    char *name;
    int metric;
    int configs[SW_MAX_CONFIGS]; /* the columns */
    int n_configs;
    int means; /* SW_GEOMEAN | SW_HMEAN | SW_AMEAN */
    int lines; /* plot as lines (x = configs) instead of grouped bars */
    char *title;
} sw_figure;

typedef struct sw_spec {
    const char *path;
    sw_workload workloads[SW_MAX_WORKLOADS];
    int n_workloads;
    sw_config configs[SW_MAX_CONFIGS];
    int n_configs;
    char *classes[SW_MAX_CLASSES]; /* declared or first-used order */
    int n_classes;
    sw_extra extras[SW_MAX_EXTRAS];
    int n_extras;
    sw_metric metrics[SW_MAX_METRICS];
    int n_metrics;
    sw_figure figures[SW_MAX_FIGURES];
    int n_figures;
    char *size;
    char *baseline;
} sw_spec;

/* One point (workload x config). An oracle's point is no run: `winner` is the member's point. */
typedef struct sw_point {
    int w, c;
    char dir[SW_LINE];
    char *argv[2 * SW_MAX_ARGS + 8]; /* `gtlm run` arguments without the statistics file */
    int argc;
    int ok;
    char status[64];
    char **values; /* one per column, NULL when the point lacks it */
    int n_values;
    const struct sw_point *winner;
} sw_point;

/* The union of statistic names over all points, in first-seen order. */
typedef struct sw_columns {
    char **names;
    int n, cap;
} sw_columns;

typedef struct sw_run {
    sw_spec *spec;
    sw_point *pts; /* workload-major: pts[w * n_configs + c] */
    int n;
    sw_columns cols;
    const char *size; /* overrides every size (--size, --quick), or NULL */
    int quick;
    const char *name; /* the experiment's name, for the report's title */
    /* --workloads / --configs: comma lists (workload labels or names, config names) that limit the
     * run to a subset; the other points are not run and report n/a. NULL: no limit. A config that a
     * figure showing one of the subset normalises over (the baseline, over=) runs too. */
    const char *only_workloads, *only_configs;
} sw_run;

/* Helpers that exit on out-of-memory (a sweep cannot continue without memory). */
char *sw_strdup(const char *s);
void *sw_grow(void *p, size_t n);
int sw_make_dirs(const char *path);

/* Parses SPEC; prints FILE:LINE: what was expected, and returns CLI_USAGE on a bad one. */
int sw_read_spec(const char *path, sw_spec *sp);
/* Defaults and cross-checks once every line is read (baseline, oracle members, figures). */
int sw_check_spec(sw_spec *sp);
int sw_find_config(const sw_spec *sp, const char *name);
int sw_find_metric(const sw_spec *sp, const char *name);
int sw_find_class(const sw_spec *sp, const char *name);
int sw_find_figure(const sw_spec *sp, const char *name);
/* The workload whose label or name is s, or -1. */
int sw_find_workload(const sw_spec *sp, const char *s);

/* Builds the points under OUT and reads what a previous run left (status and arguments). */
void sw_make_points(sw_run *r, const char *out);
/* Whether s is one of the comma-separated names of list. */
int sw_list_has(const char *list, const char *s);
/* Whether workload w is in this run (all, or the --quick subset, within --workloads). */
int sw_in_run(const sw_run *r, int w);
/* Whether point p runs: its workload is in the run, its config within --configs and, under --quick,
 * in the workload's quick-configs. */
int sw_point_in_run(const sw_run *r, const sw_point *p);
/* Points of the run still to do (not ok, real configs, in the run's workloads). */
int sw_pending(const sw_run *r, sw_point **todo);
void sw_write_status(sw_point *p, int code);
/* Records the point's `gtlm run` arguments (its args file) before it runs. */
int sw_write_args(const sw_point *p);
void sw_read_status(sw_point *p);
/* Runs the pending points as local child processes, at most jobs at once. */
void sw_run_local(sw_run *r, int jobs, int verbose);
/* Runs the pending points as one SLURM job array staged in shared; CLI_OK or why not. */
int sw_run_slurm(sw_run *r, const char *shared, int verbose);
/* The `gtlm run` argument vector of a point, with the binary, configuration and statistics
 * file given (the staged ones for SLURM). */
int sw_point_argv(const sw_point *p, const char *exe, const char *config_file, const char *stats, const char **argv);
/* Reads every point's stats.txt into the shared columns. */
void sw_read_all_stats(sw_run *r);
int sw_column(sw_columns *c, const char *name);
const char *sw_value(const sw_point *p, int col);
/* The statistic of a point as a number; 0 when missing (*ok = 0). */
double sw_stat(const sw_run *r, const sw_point *p, const char *stat, int *ok);

/* Progress on stderr: one updating line on a terminal, a plain line per point otherwise. */
typedef struct sw_progress sw_progress;
sw_progress *sw_progress_start(int total);
void sw_progress_point(sw_progress *pr, int ok);
/* While waiting: on a terminal, the elapsed time moves once a second. */
void sw_progress_tick(sw_progress *pr);
void sw_progress_end(sw_progress *pr);

/* Means over n values; 0 when undefined (n == 0, or a non-positive value for geo/harmonic). */
int sw_mean(int kind, const double *v, int n, double *out);
const char *sw_mean_name(int kind);

/* Picks each oracle's winner per workload (first member wins a tie). */
void sw_resolve_oracles(sw_run *r);
/* The point that carries the statistics of (w, c): the winner's for an oracle. */
const sw_point *sw_effective(const sw_run *r, int w, int c);
/* A metric of one point; 0 with *ok = 0 when a statistic is missing or the point failed. */
double sw_metric_value(const sw_run *r, int metric, int w, int c, int *ok);

/* The speedup over the baseline table of `gtlm sweep`. */
void sw_print_speedups(const sw_run *r);
/* results.csv: every point's status and statistics. */
int sw_write_results_csv(const sw_run *r, const char *out);

/* One number the document states: FIGURE SERIES ROW VALUE NORMALISATION [TEXT...] (doc_numbers.c). */
typedef struct doc_number {
    int claim;    /* a headline claim: gets a verdict line */
    int figure;   /* index into the spec's figures */
    int config;   /* the series: a config of the figure */
    int w;        /* the row: a workload, or -1 for a mean row */
    int mean;     /* SW_GEOMEAN, SW_HMEAN or SW_AMEAN for a mean row */
    int cls;      /* the mean row's class, -1: every workload */
    char bound;   /* 0: the value itself; '>' '<' 'g' (>=) 'l' (<=): a bound the document states */
    double value;
    char *text;   /* where the document says it, or the claim */
    int line;
} doc_number;

typedef struct doc_numbers {
    doc_number *v;
    int n;
} doc_numbers;

/* Reads a numbers file against the spec; prints FILE:LINE: what was expected on a bad line. */
int doc_read_numbers(const char *path, const sw_spec *sp, doc_numbers *dn);
/* Whether ours agrees with a stated number: a bound holds, or the sign of the effect is right
 * and its size within a factor of 2 (the effect is x - 1 for normalised metrics, x otherwise).
 * Writes the reason into why. */
int doc_agrees(const sw_spec *sp, const doc_number *d, double ours, char *why, size_t n);
/* The stated value as text: 1.3, >1.3, <=1.3. */
void doc_format(const doc_number *d, char *out, size_t n);

/* Writes OUT/report.md (also to standard output), OUT/<figure>.csv and the plots' tables
 * OUT/<figure>.plot.csv; plot is tools/plot or NULL for no plots. Returns CLI_OK or CLI_FAIL. */
int sw_report(const sw_run *r, const doc_numbers *dn, const char *out, const char *plot);

#endif
