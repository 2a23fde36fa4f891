/* gtlm sweep: run every workload of a spec on every configuration of it, each as a child
 * `gtlm run`, collect the statistics into one CSV and print speedups over a baseline.
 *
 * The spec is a text file, one directive a line, '#' starts a comment:
 *   workload NAME                    a workload, as `gtlm run` names it (repeatable)
 *   config NAME FILE [ARG ...]       a configuration: an option file (relative to the current
 *                                    directory) and arguments passed verbatim to `gtlm run`
 *                                    after it, e.g. `-gpgpu_l1_latency 1` (repeatable)
 *   size tiny|sim|paper|doc             the size preset of every run (default tiny)
 *   baseline NAME                    the config speedups are relative to (default the first)
 * The points are workloads x configs. Each point runs in its own directory
 * OUT/<config>__<workload, '/' as '_'> holding log.txt, stats.txt and status ('ok' or
 * 'failed N'); a point whose status is already 'ok' is not run again, so an interrupted or
 * partly failed sweep resumes where it stopped. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#define SW_MAX_WORKLOADS 256
#define SW_MAX_CONFIGS 64
#define SW_MAX_ARGS 64
#define SW_LINE 4096

typedef struct sw_config {
    char *name;
    char *args[SW_MAX_ARGS]; /* args[0] is the option file, the rest go to `gtlm run` verbatim */
    int n_args;
} sw_config;

typedef struct sw_spec {
    char *workloads[SW_MAX_WORKLOADS];
    int n_workloads;
    sw_config configs[SW_MAX_CONFIGS];
    int n_configs;
    char *size;
    char *baseline;
} sw_spec;

/* One point's outcome and statistics (values index the sweep-wide column list). */
typedef struct sw_point {
    const char *workload;
    const sw_config *config;
    char dir[SW_LINE];
    int ok;
    char status[64];
    char **values; /* one per column, NULL when the point lacks it */
    int n_values;
} sw_point;

/* The union of statistic names over all points, in first-seen order. */
typedef struct sw_columns {
    char **names;
    int n, cap;
} sw_columns;

static char *dup_str(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (!d) {
        fprintf(stderr, "gtlm sweep: out of memory\n");
        exit(CLI_FAIL);
    }
    return strcpy(d, s);
}

static void *grow(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "gtlm sweep: out of memory\n");
        exit(CLI_FAIL);
    }
    return q;
}

/* Names become directory names and CSV cells, so keep them plain. */
static int plain_name(const char *s)
{
    if (!s[0]) return 0;
    for (; *s; s++)
        if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9') || *s == '_' ||
              *s == '-' || *s == '.'))
            return 0;
    return 1;
}

static int find_config(const sw_spec *sp, const char *name)
{
    for (int i = 0; i < sp->n_configs; i++)
        if (strcmp(sp->configs[i].name, name) == 0) return i;
    return -1;
}

/* Applies one tokenized spec line; prints FILE:LINE: reason and returns CLI_USAGE when bad. */
static int spec_line(sw_spec *sp, char **tok, int n, const char *path, int line)
{
    const char *d = tok[0];
    if (strcmp(d, "workload") == 0 && n == 2 && sp->n_workloads < SW_MAX_WORKLOADS) {
        sp->workloads[sp->n_workloads++] = dup_str(tok[1]);
    } else if (strcmp(d, "config") == 0 && n >= 3 && n - 2 <= SW_MAX_ARGS && sp->n_configs < SW_MAX_CONFIGS) {
        if (!plain_name(tok[1]) || find_config(sp, tok[1]) >= 0) {
            fprintf(stderr, "%s:%d: config name '%s' is repeated or not [A-Za-z0-9_.-]\n", path, line, tok[1]);
            return CLI_USAGE;
        }
        sw_config *c = &sp->configs[sp->n_configs++];
        c->name = dup_str(tok[1]);
        for (int i = 2; i < n; i++) c->args[c->n_args++] = dup_str(tok[i]);
    } else if (strcmp(d, "size") == 0 && n == 2) {
        sp->size = dup_str(tok[1]);
    } else if (strcmp(d, "baseline") == 0 && n == 2) {
        sp->baseline = dup_str(tok[1]);
    } else {
        fprintf(stderr, "%s:%d: expected 'workload NAME', 'config NAME FILE [ARG...]', 'size S' or 'baseline NAME' "
                        "(or too many of them)\n", path, line);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int read_spec(const char *path, sw_spec *sp)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "gtlm sweep: cannot open spec '%s': %s\n", path, strerror(errno));
        return CLI_USAGE;
    }
    char buf[SW_LINE];
    int line = 0, rc = CLI_OK;
    while (rc == CLI_OK && fgets(buf, sizeof buf, f)) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        char *tok[SW_MAX_ARGS + 3], *save = NULL;
        int n = 0;
        for (char *t = strtok_r(buf, " \t\r\n", &save); t && n < SW_MAX_ARGS + 3; t = strtok_r(NULL, " \t\r\n", &save))
            tok[n++] = t;
        if (n > 0) rc = spec_line(sp, tok, n, path, line);
    }
    fclose(f);
    return rc;
}

/* A spec that would run nothing or compare against nothing is a mistake, not an empty sweep. */
static int check_spec(sw_spec *sp, const char *path)
{
    if (sp->n_workloads == 0 || sp->n_configs == 0) {
        fprintf(stderr, "gtlm sweep: %s needs at least one workload and one config line\n", path);
        return CLI_USAGE;
    }
    if (!sp->size) sp->size = dup_str("tiny");
    if (strcmp(sp->size, "tiny") != 0 && strcmp(sp->size, "sim") != 0 && strcmp(sp->size, "paper") != 0 &&
        strcmp(sp->size, "doc") != 0) {
        fprintf(stderr, "gtlm sweep: size must be tiny, sim, paper or doc, got '%s'\n", sp->size);
        return CLI_USAGE;
    }
    if (!sp->baseline) sp->baseline = dup_str(sp->configs[0].name);
    if (find_config(sp, sp->baseline) < 0) {
        fprintf(stderr, "gtlm sweep: baseline '%s' is not a config of %s\n", sp->baseline, path);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* mkdir -p: --out may name a nested directory that does not exist yet. */
static int make_dirs(const char *path)
{
    char p[SW_LINE];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) return -1;
        *s = '/';
    }
    return mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static void point_file(const sw_point *p, const char *name, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", p->dir, name);
}

/* Reads the status file: a point is done only when it says exactly 'ok'. */
static void read_status(sw_point *p)
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

static void write_status(sw_point *p, int code)
{
    if (code == 0) snprintf(p->status, sizeof p->status, "ok");
    else snprintf(p->status, sizeof p->status, "failed %d", code);
    p->ok = code == 0;
    char path[SW_LINE + 16];
    point_file(p, "status", path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%s\n", p->status) < 0 || fclose(f) != 0)
        fprintf(stderr, "gtlm sweep: cannot write '%s'\n", path);
}

/* In the child: output to log.txt, then become `gtlm run` for this point. Never returns. */
static void exec_point(const sw_point *p, const char *size)
{
    char log[SW_LINE + 16], stats[SW_LINE + 16];
    point_file(p, "log.txt", log, sizeof log);
    point_file(p, "stats.txt", stats, sizeof stats);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(127);
    close(fd);
    const char *argv[SW_MAX_ARGS + 16];
    int n = 0;
    argv[n++] = "gtlm";
    argv[n++] = "run";
    argv[n++] = p->workload;
    argv[n++] = "--size";
    argv[n++] = size;
    argv[n++] = "--config";
    for (int i = 0; i < p->config->n_args; i++) argv[n++] = p->config->args[i];
    argv[n++] = "--stats";
    argv[n++] = stats;
    argv[n++] = "--check-stats";
    argv[n] = NULL;
    /* The running binary, so a sweep never mixes gtlm versions. */
    execv("/proc/self/exe", (char *const *)argv);
    fprintf(stderr, "gtlm sweep: cannot execute /proc/self/exe: %s\n", strerror(errno));
    _exit(127);
}

/* Clears what a previous failed attempt left, then forks the point's run. */
static pid_t start_point(const sw_point *p, const char *size)
{
    char path[SW_LINE + 16];
    if (make_dirs(p->dir) != 0) {
        fprintf(stderr, "gtlm sweep: cannot create '%s': %s\n", p->dir, strerror(errno));
        return -1;
    }
    point_file(p, "stats.txt", path, sizeof path);
    unlink(path);
    point_file(p, "status", path, sizeof path);
    unlink(path);
    fflush(NULL); /* or the child would repeat buffered output */
    pid_t pid = fork();
    if (pid == 0) exec_point(p, size);
    if (pid < 0) fprintf(stderr, "gtlm sweep: fork failed: %s\n", strerror(errno));
    return pid;
}

static int exit_code(int st)
{
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
}

/* Runs the points that are not ok yet, at most jobs at once; failures are recorded, not fatal. */
static void run_points(sw_point *pts, int n, int jobs, const char *size)
{
    pid_t *pids = grow(NULL, (size_t)n * sizeof *pids);
    int next = 0, running = 0, done = 0;
    for (;;) {
        while (running < jobs && next < n) {
            sw_point *p = &pts[next];
            pids[next] = 0;
            if (p->ok) {
                printf("skipped %s (status ok)\n", p->dir);
            } else if ((pids[next] = start_point(p, size)) > 0) {
                running++;
            } else {
                write_status(p, 255);
            }
            next++;
        }
        if (running == 0) break;
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) break;
        for (int i = 0; i < next; i++) {
            if (pids[i] != pid) continue;
            pids[i] = 0;
            running--;
            write_status(&pts[i], exit_code(st));
            printf("[%d/%d] %s: %s\n", ++done, n, pts[i].dir, pts[i].status);
            fflush(stdout); /* the sweep's progress, also when stdout is a file */
        }
    }
    free(pids);
}

static int column_of(sw_columns *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->names[i], name) == 0) return i;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 128;
        c->names = grow(c->names, (size_t)c->cap * sizeof *c->names);
    }
    c->names[c->n] = dup_str(name);
    return c->n++;
}

static void set_value(sw_point *p, int col, const char *value)
{
    if (col >= p->n_values) {
        p->values = grow(p->values, (size_t)(col + 1) * sizeof *p->values);
        while (p->n_values <= col) p->values[p->n_values++] = NULL;
    }
    free(p->values[col]);
    p->values[col] = dup_str(value); /* a name printed twice keeps its last (cumulative) value */
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
        set_value(p, column_of(cols, buf), value);
    }
    fclose(f);
}

static const char *value_of(const sw_point *p, int col)
{
    return col >= 0 && col < p->n_values && p->values[col] ? p->values[col] : NULL;
}

/* RFC 4180: quote a cell holding a separator, quote or line break. */
static void csv_cell(FILE *f, const char *s, int first)
{
    if (!first) fputc(',', f);
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static int write_csv(const char *out, const sw_point *pts, int n, const sw_columns *cols)
{
    char path[SW_LINE + 16];
    snprintf(path, sizeof path, "%s/results.csv", out);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gtlm sweep: cannot write '%s': %s\n", path, strerror(errno));
        return CLI_FAIL;
    }
    csv_cell(f, "workload", 1);
    csv_cell(f, "config", 0);
    csv_cell(f, "status", 0);
    for (int c = 0; c < cols->n; c++) csv_cell(f, cols->names[c], 0);
    fputc('\n', f);
    for (int i = 0; i < n; i++) {
        csv_cell(f, pts[i].workload, 1);
        csv_cell(f, pts[i].config->name, 0);
        csv_cell(f, pts[i].status, 0);
        for (int c = 0; c < cols->n; c++) {
            const char *v = value_of(&pts[i], c);
            csv_cell(f, v ? v : "", 0);
        }
        fputc('\n', f);
    }
    if (fclose(f) != 0) return CLI_FAIL;
    printf("wrote %s\n", path);
    return CLI_OK;
}

/* The point's simulated cycles, or 0 when it failed or has none. */
static double cycles_of(const sw_point *p, int col)
{
    const char *v = value_of(p, col);
    return p->ok && v ? strtod(v, NULL) : 0.0;
}

/* Speedup table: baseline cycles / cycles per workload and config, and their geometric mean
 * over the workloads where both points are ok. */
static void print_table(const sw_spec *sp, const sw_point *pts, int cycles_col)
{
    int nc = sp->n_configs, base = find_config(sp, sp->baseline);
    int wide = 8;
    for (int w = 0; w < sp->n_workloads; w++)
        if ((int)strlen(sp->workloads[w]) > wide) wide = (int)strlen(sp->workloads[w]);
    printf("\nspeedup over %s (gpu_tot_sim_cycle of %s / of config)\n%-*s", sp->baseline, sp->baseline, wide, "workload");
    for (int c = 0; c < nc; c++) printf(" %12s", sp->configs[c].name);
    printf("\n");
    double *logsum = grow(NULL, (size_t)nc * sizeof *logsum);
    int *count = grow(NULL, (size_t)nc * sizeof *count);
    for (int c = 0; c < nc; c++) logsum[c] = 0, count[c] = 0;
    for (int w = 0; w < sp->n_workloads; w++) {
        printf("%-*s", wide, sp->workloads[w]);
        double b = cycles_of(&pts[w * nc + base], cycles_col);
        for (int c = 0; c < nc; c++) {
            double x = cycles_of(&pts[w * nc + c], cycles_col);
            if (!pts[w * nc + c].ok) printf(" %12s", "failed");
            else if (b <= 0 || x <= 0) printf(" %12s", "n/a");
            else {
                printf(" %12.3f", b / x);
                logsum[c] += log(b / x);
                count[c]++;
            }
        }
        printf("\n");
    }
    printf("%-*s", wide, "geomean");
    for (int c = 0; c < nc; c++) {
        if (count[c]) printf(" %12.3f", exp(logsum[c] / count[c]));
        else printf(" %12s", "n/a");
    }
    printf("\n");
    free(logsum);
    free(count);
}

static int parse_sweep_args(int argc, char **argv, const char **spec, int *jobs, const char **out, const char **baseline)
{
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        int has = i + 1 < argc;
        if ((strcmp(s, "-j") == 0 || strcmp(s, "--out") == 0 || strcmp(s, "--baseline") == 0) && !has) {
            fprintf(stderr, "gtlm: '%s' expects a value\n", s);
            return CLI_USAGE;
        }
        if (strcmp(s, "-j") == 0) {
            char *end;
            long j = strtol(argv[++i], &end, 10);
            if (*end || j < 1 || j > 1024) {
                fprintf(stderr, "gtlm sweep: -j expects a positive count, got '%s'\n", argv[i]);
                return CLI_USAGE;
            }
            *jobs = (int)j;
        } else if (strcmp(s, "--out") == 0) {
            *out = argv[++i];
        } else if (strcmp(s, "--baseline") == 0) {
            *baseline = argv[++i];
        } else if (s[0] != '-' && !*spec) {
            *spec = s;
        } else {
            if (s[0] == '-') cli_unknown_flag(s);
            else fprintf(stderr, "gtlm sweep: unexpected argument '%s'\n", s);
            return CLI_USAGE;
        }
    }
    if (!*spec) {
        fprintf(stderr, "gtlm sweep: expects a SPEC file (gtlm help describes it)\n");
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The points, workload-major, each with its directory and the status a previous sweep left. */
static sw_point *make_points(const sw_spec *sp, const char *out)
{
    int n = sp->n_workloads * sp->n_configs;
    sw_point *pts = grow(NULL, (size_t)n * sizeof *pts);
    memset(pts, 0, (size_t)n * sizeof *pts);
    for (int i = 0; i < n; i++) {
        sw_point *p = &pts[i];
        p->workload = sp->workloads[i / sp->n_configs];
        p->config = &sp->configs[i % sp->n_configs];
        int len = snprintf(p->dir, sizeof p->dir, "%s/%s__", out, p->config->name);
        for (const char *w = p->workload; *w && len < (int)sizeof p->dir - 1; w++) p->dir[len++] = *w == '/' ? '_' : *w;
        p->dir[len] = '\0';
        read_status(p);
    }
    return pts;
}

int cmd_sweep(int argc, char **argv)
{
    const char *spec_path = NULL, *out = "sweep_out", *baseline = NULL;
    int jobs = 2;
    int rc = parse_sweep_args(argc, argv, &spec_path, &jobs, &out, &baseline);
    if (rc != CLI_OK) return rc;
    static sw_spec sp; /* large; once per process */
    if ((rc = read_spec(spec_path, &sp)) != CLI_OK) return rc;
    if (baseline) sp.baseline = dup_str(baseline);
    if ((rc = check_spec(&sp, spec_path)) != CLI_OK) return rc;
    if (make_dirs(out) != 0) {
        fprintf(stderr, "gtlm sweep: cannot create '%s': %s\n", out, strerror(errno));
        return CLI_FAIL;
    }
    int n = sp.n_workloads * sp.n_configs;
    sw_point *pts = make_points(&sp, out);
    run_points(pts, n, jobs, sp.size);
    sw_columns cols = {NULL, 0, 0};
    for (int i = 0; i < n; i++) read_stats(&pts[i], &cols);
    rc = write_csv(out, pts, n, &cols);
    print_table(&sp, pts, column_of(&cols, "gpu_tot_sim_cycle"));
    int failed = 0;
    for (int i = 0; i < n; i++) failed += !pts[i].ok;
    if (failed) printf("%d of %d points failed (their log.txt says why)\n", failed, n);
    return failed || rc != CLI_OK ? CLI_FAIL : CLI_OK;
}
