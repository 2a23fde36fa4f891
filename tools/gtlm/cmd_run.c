/* gtlm run: load a configuration, run a workload on it, verify, print a GPU-level summary (every
 * statistic with --per-unit), write statistics files; progress on stderr while it runs. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "workload.h"

/* The per-load-PC L1 record of every kernel of the run. */
static void print_load_pcs(gtlm_sim *sim)
{
    size_t n = gtlm_load_pc_count(sim);
    printf("load PC record (L1D, all SMs): kernel function pc line accesses hits misses merged miss_rate\n");
    for (size_t i = 0; i < n; i++) {
        gtlm_load_pc_stat r;
        if (gtlm_load_pc_get(sim, i, &r) != GTLM_OK) break;
        printf("load_pc %s %s %u %u %llu %llu %llu %llu %.4f\n", r.kernel, r.function, r.pc, r.line, r.accesses, r.hits,
               r.misses, r.merged, r.accesses ? (double)r.misses / (double)r.accesses : 0.0);
    }
}

static int write_stats(gtlm_sim *sim, const cli_args *a)
{
    if (a->stats_text && gtlm_stats_write(sim, a->stats_text, GTLM_STATS_TEXT) != GTLM_OK) {
        fprintf(stderr, "gtlm: %s\n", gtlm_last_error());
        return CLI_FAIL;
    }
    if (a->stats_json && gtlm_stats_write(sim, a->stats_json, GTLM_STATS_JSON) != GTLM_OK) {
        fprintf(stderr, "gtlm: %s\n", gtlm_last_error());
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* The summary, and with --per-unit every statistic, on standard output. */
static void print_stats(gtlm_sim *sim, const cli_args *a, const cli_progress *p)
{
    cli_print_summary(p, sim, stdout);
    if (!a->per_unit) return;
    printf("every statistic (--per-unit):\n");
    fflush(stdout);
    if (gtlm_stats_write(sim, "-", GTLM_STATS_TEXT) != GTLM_OK) fprintf(stderr, "gtlm: %s\n", gtlm_last_error());
}

/* gtlm run --trace DIR: the traces of DIR through the timing model. The library's per-kernel
 * report lines are shown with --per-unit; the summary has a row per kernel name. */
static int run_trace(gtlm_sim *sim, const cli_args *a, cli_progress *p)
{
    static char report[1 << 16];
    printf("trace: %s\n", a->trace);
    int st = gtlm_run_trace(sim, a->trace, report, sizeof report);
    static char why[4096];
    snprintf(why, sizeof why, "%s", st != GTLM_OK ? gtlm_last_error() : ""); /* before the next API call */
    cli_progress_stop(p);
    for (const char *l = report; *l;) {
        const char *nl = strchr(l, '\n');
        int len = nl ? (int)(nl - l + 1) : (int)strlen(l);
        if (a->per_unit || strncmp(l, "kernel ", 7) != 0) printf("%.*s", len, l);
        l += len;
    }
    if (st != GTLM_OK) {
        fprintf(stderr, "gtlm: %s\n", why);
        return st == GTLM_EINVAL ? CLI_USAGE : CLI_FAIL;
    }
    print_stats(sim, a, p);
    return CLI_OK;
}

int cmd_run(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse(argc, argv, 1, 1, &a);
    if (rc != CLI_OK) return rc;
    if (a.trace && (a.workload || (a.mode && strcmp(a.mode, "timing") != 0))) {
        fprintf(stderr, "gtlm: --trace runs the traces of a directory in timing mode: give no workload and no --mode "
                        "functional\n");
        return CLI_USAGE;
    }
    if ((rc = cli_check_output(a.stats_text, "--stats")) != CLI_OK ||
        (rc = cli_check_output(a.stats_json, "--stats-json")) != CLI_OK)
        return rc;
    const wl_desc *d = NULL;
    if (a.workload && !(d = wl_find(a.workload))) {
        fprintf(stderr, "gtlm: no workload named '%s' (gtlm list shows them; name the suite, e.g. rodinia/BFS, when "
                        "two suites share a name)\n", a.workload);
        return CLI_USAGE;
    }
    if (a.mode) {
        if (strcmp(a.mode, "functional") != 0 && strcmp(a.mode, "timing") != 0) {
            fprintf(stderr, "gtlm: --mode expects functional or timing, got '%s'\n", a.mode);
            return CLI_USAGE;
        }
        a.overrides[a.n_overrides++] = "-gtlm_mode";
        a.overrides[a.n_overrides++] = a.mode;
    }
    gtlm_sim *sim = NULL;
    if ((rc = cli_create_sim(&a, &sim)) != CLI_OK) return rc;
    printf("%s", gtlm_sim_describe(sim));
    fflush(stdout);
    static cli_progress progress;
    cli_progress_start(&progress, sim, !a.quiet, a.progress_interval);
    if (a.trace) {
        rc = run_trace(sim, &a, &progress);
        if (rc == CLI_OK && a.check_stats) rc = cli_check_stats(sim);
    } else if (!d) {
        printf("no workload given: configuration loaded, nothing to simulate\n");
    } else {
        int w = wl_run(d, sim, a.size ? a.size : "tiny", a.sets, (size_t)a.n_sets, a.corrupt, stdout);
        cli_progress_stop(&progress);
        if (w == WL_OK) print_stats(sim, &a, &progress);
        rc = w == WL_OK ? CLI_OK : w == WL_USAGE ? CLI_USAGE : CLI_FAIL;
        if (rc == CLI_OK && a.check_stats) rc = cli_check_stats(sim);
        if (rc == CLI_OK && a.load_pcs) print_load_pcs(sim);
    }
    cli_progress_stop(&progress);
    int s = write_stats(sim, &a);
    if (rc == CLI_OK) rc = s;
    gtlm_sim_destroy(sim);
    return rc;
}
