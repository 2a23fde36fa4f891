/* gtlm sweep: run every workload of a spec on every configuration of it, each as a child
 * `gtlm run`, collect the statistics into one CSV and print speedups over a baseline.
 * The spec format is in sweep_spec.c; the points and how they resume in sweep_points.c. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sweep.h"

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

int sw_write_results_csv(const sw_run *r, const char *out)
{
    char path[SW_LINE + 16];
    snprintf(path, sizeof path, "%s/results.csv", out);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gtlm: cannot write '%s': %s\n", path, strerror(errno));
        return CLI_FAIL;
    }
    const sw_columns *cols = &r->cols;
    csv_cell(f, "workload", 1);
    csv_cell(f, "config", 0);
    csv_cell(f, "status", 0);
    for (int c = 0; c < cols->n; c++) csv_cell(f, cols->names[c], 0);
    fputc('\n', f);
    for (int i = 0; i < r->n; i++) {
        const sw_point *p = &r->pts[i];
        if (r->spec->configs[p->c].oracle || !sw_point_in_run(r, p)) continue;
        csv_cell(f, r->spec->workloads[p->w].name, 1);
        csv_cell(f, r->spec->configs[p->c].name, 0);
        csv_cell(f, p->status, 0);
        for (int c = 0; c < cols->n; c++) {
            const char *v = sw_value(p, c);
            csv_cell(f, v ? v : "", 0);
        }
        fputc('\n', f);
    }
    if (fclose(f) != 0) return CLI_FAIL;
    printf("wrote %s\n", path);
    return CLI_OK;
}

/* Speedup table: baseline cycles / cycles per workload and config (an oracle: its winner's),
 * and their geometric mean over the workloads where both points are ok. */
void sw_print_speedups(const sw_run *r)
{
    const sw_spec *sp = r->spec;
    int nc = sp->n_configs, base = sw_find_config(sp, sp->baseline);
    int wide = 8;
    for (int w = 0; w < sp->n_workloads; w++)
        if ((int)strlen(sp->workloads[w].name) > wide) wide = (int)strlen(sp->workloads[w].name);
    printf("\nspeedup over %s (gpu_tot_sim_cycle of %s / of config)\n%-*s", sp->baseline, sp->baseline, wide, "workload");
    for (int c = 0; c < nc; c++) printf(" %12s", sp->configs[c].name);
    printf("\n");
    double *v = sw_grow(NULL, (size_t)nc * (size_t)sp->n_workloads * sizeof *v);
    int *count = sw_grow(NULL, (size_t)nc * sizeof *count);
    for (int c = 0; c < nc; c++) count[c] = 0;
    for (int w = 0; w < sp->n_workloads; w++) {
        if (!sw_in_run(r, w)) continue;
        printf("%-*s", wide, sp->workloads[w].name);
        int bok;
        double b = sw_stat(r, sw_effective(r, w, base), "gpu_tot_sim_cycle", &bok);
        for (int c = 0; c < nc; c++) {
            const sw_point *p = sw_effective(r, w, c);
            int ok;
            double x = sw_stat(r, p, "gpu_tot_sim_cycle", &ok);
            if (!p || !p->ok) printf(" %12s", "failed");
            else if (!bok || !ok || b <= 0 || x <= 0) printf(" %12s", "n/a");
            else {
                printf(" %12.3f", b / x);
                v[c * sp->n_workloads + count[c]++] = b / x;
            }
        }
        printf("\n");
    }
    printf("%-*s", wide, "geomean");
    for (int c = 0; c < nc; c++) {
        double g;
        if (sw_mean(SW_GEOMEAN, v + c * sp->n_workloads, count[c], &g)) printf(" %12.3f", g);
        else printf(" %12s", "n/a");
    }
    printf("\n");
    free(v);
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

int cmd_sweep(int argc, char **argv)
{
    const char *spec_path = NULL, *out = "sweep_out", *baseline = NULL;
    int jobs = 2;
    int rc = parse_sweep_args(argc, argv, &spec_path, &jobs, &out, &baseline);
    if (rc != CLI_OK) return rc;
    static sw_spec sp; /* large; once per process */
    if ((rc = sw_read_spec(spec_path, &sp)) != CLI_OK) return rc;
    if (baseline) sp.baseline = sw_strdup(baseline);
    if ((rc = sw_check_spec(&sp)) != CLI_OK) return rc;
    if (sw_make_dirs(out) != 0) {
        fprintf(stderr, "gtlm sweep: cannot create '%s': %s\n", out, strerror(errno));
        return CLI_FAIL;
    }
    sw_run r = {.spec = &sp};
    sw_make_points(&r, out);
    sw_run_local(&r, jobs, 1);
    sw_read_all_stats(&r);
    sw_resolve_oracles(&r);
    rc = sw_write_results_csv(&r, out);
    sw_print_speedups(&r);
    int failed = 0, total = 0;
    for (int i = 0; i < r.n; i++) {
        if (sp.configs[r.pts[i].c].oracle) continue;
        total++;
        failed += !r.pts[i].ok;
    }
    if (failed) printf("%d of %d points failed (their log.txt says why)\n", failed, total);
    return failed || rc != CLI_OK ? CLI_FAIL : CLI_OK;
}
