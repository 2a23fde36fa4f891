/* gtlm reproduce NAME: run an experiment (experiments/NAME/spec, resuming finished points) on
 * this machine or a SLURM cluster, then report it beside the document's numbers
 * (experiments/NAME/numbers): markdown tables, CSV, plots and verdicts. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sweep.h"


typedef struct repro_args {
    const char *name, *size, *backend, *shared, *out, *plot, *workloads, *configs;
    int jobs, quick, no_plots;
} repro_args;

static int parse(int argc, char **argv, repro_args *a)
{
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        int value = strcmp(s, "-j") == 0 || strcmp(s, "--size") == 0 || strcmp(s, "--backend") == 0 ||
                    strcmp(s, "--shared") == 0 || strcmp(s, "--out") == 0 || strcmp(s, "--plot") == 0 ||
                    strcmp(s, "--workloads") == 0 || strcmp(s, "--configs") == 0;
        if (value && i + 1 >= argc) {
            fprintf(stderr, "gtlm reproduce: '%s' expects a value\n", s);
            return CLI_USAGE;
        }
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            exit(cli_help("reproduce", stdout));
        } else if (strcmp(s, "-j") == 0) {
            char *end;
            long j = strtol(argv[++i], &end, 10);
            if (*end || j < 1 || j > 1024) {
                fprintf(stderr, "gtlm reproduce: -j expects a positive count, got '%s'\n", argv[i]);
                return CLI_USAGE;
            }
            a->jobs = (int)j;
        } else if (strcmp(s, "--size") == 0) {
            a->size = argv[++i];
            if (strcmp(a->size, "tiny") != 0 && strcmp(a->size, "sim") != 0 && strcmp(a->size, "paper") != 0 &&
                strcmp(a->size, "doc") != 0) {
                fprintf(stderr, "gtlm reproduce: --size expects tiny, sim, paper or doc, got '%s'\n", a->size);
                return CLI_USAGE;
            }
        } else if (strcmp(s, "--backend") == 0) {
            a->backend = argv[++i];
            if (strcmp(a->backend, "local") != 0 && strcmp(a->backend, "slurm") != 0) {
                fprintf(stderr, "gtlm reproduce: --backend expects local or slurm, got '%s'\n", a->backend);
                return CLI_USAGE;
            }
        } else if (strcmp(s, "--shared") == 0) {
            a->shared = argv[++i];
        } else if (strcmp(s, "--out") == 0) {
            a->out = argv[++i];
        } else if (strcmp(s, "--plot") == 0) {
            a->plot = argv[++i];
        } else if (strcmp(s, "--workloads") == 0) {
            a->workloads = argv[++i];
        } else if (strcmp(s, "--configs") == 0) {
            a->configs = argv[++i];
        } else if (strcmp(s, "--quick") == 0) {
            a->quick = 1;
        } else if (strcmp(s, "--no-plots") == 0) {
            a->no_plots = 1;
        } else if (s[0] != '-' && !a->name) {
            a->name = s;
        } else {
            if (s[0] == '-') cli_unknown_flag(s);
            else fprintf(stderr, "gtlm reproduce: unexpected argument '%s' (gtlm reproduce --help lists the options)\n", s);
            return CLI_USAGE;
        }
    }
    if (!a->name) {
        fprintf(stderr, "gtlm reproduce: expects an experiment NAME (gtlm reproduce --help)\n");
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* tools/plot: --plot, $GTLM_PLOT, ./tools/plot, then the source tree this binary was built from;
 * NULL (no plots, said why) when none is there or gnuplot is missing. */
static const char *find_plot(const repro_args *a)
{
    if (a->no_plots) return NULL;
    const char *cands[] = {a->plot, getenv("GTLM_PLOT"), "tools/plot",
#ifdef GTLM_PLOT_DEFAULT
                           GTLM_PLOT_DEFAULT,
#endif
                           NULL};
    const char *plot = NULL;
    for (size_t i = 0; i < sizeof cands / sizeof *cands && !plot; i++)
        if (cands[i] && is_file(cands[i])) plot = cands[i];
    if (!plot) {
        fprintf(stderr, "gtlm reproduce: no plots: tools/plot not found (give --plot FILE)\n");
        return NULL;
    }
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "gtlm reproduce: no plots: gnuplot is not installed (tools/setup.sh installs it)\n");
        return NULL;
    }
    return plot;
}

int cmd_reproduce(int argc, char **argv)
{
    repro_args a = {.jobs = 2, .backend = "local"};
    int rc = parse(argc, argv, &a);
    if (rc != CLI_OK) return rc;
    static char dir[SW_LINE], spec_path[SW_LINE + 8], numbers[SW_LINE + 16], out[SW_LINE + 64], shared[SW_LINE + 128];
    if (is_dir(a.name)) snprintf(dir, sizeof dir, "%s", a.name);
    else snprintf(dir, sizeof dir, "experiments/%s", a.name);
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') dir[--len] = '\0';
    static char full[PATH_MAX];
    const char *named = realpath(dir, full) ? full : dir; /* "." names the folder it is */
    const char *base = strrchr(named, '/') && strrchr(named, '/')[1] ? strrchr(named, '/') + 1 : named;
    snprintf(spec_path, sizeof spec_path, "%s/spec", dir);
    snprintf(numbers, sizeof numbers, "%s/numbers", dir);
    if (!is_file(spec_path)) {
        fprintf(stderr, "gtlm reproduce: no experiment '%s': %s is missing (an experiment is a folder holding spec "
                        "and numbers; run from the source tree for experiments/NAME)\n", a.name, spec_path);
        return CLI_USAGE;
    }
    static sw_spec sp;
    static doc_numbers dn;
    if ((rc = sw_read_spec(spec_path, &sp)) != CLI_OK || (rc = sw_check_spec(&sp)) != CLI_OK) return rc;
    if (is_file(numbers) && (rc = doc_read_numbers(numbers, &sp, &dn)) != CLI_OK) return rc;
    if (a.out) snprintf(out, sizeof out, "%s", a.out);
    else if (a.quick) snprintf(out, sizeof out, "reproduce_out/%s/quick", base);
    else if (a.size) snprintf(out, sizeof out, "reproduce_out/%s/size-%s", base, a.size);
    else snprintf(out, sizeof out, "reproduce_out/%s", base);
    if (sw_make_dirs(out) != 0) {
        fprintf(stderr, "gtlm reproduce: cannot create '%s': %s\n", out, strerror(errno));
        return CLI_FAIL;
    }
    sw_run r = {.spec = &sp, .size = a.quick ? "tiny" : a.size, .quick = a.quick, .name = base,
                .only_workloads = a.workloads, .only_configs = a.configs};
    if ((rc = sw_check_subset(&r)) != CLI_OK) return rc;
    sw_make_points(&r, out);
    if (strcmp(a.backend, "slurm") == 0) {
        if (a.shared) snprintf(shared, sizeof shared, "%s", a.shared);
        else snprintf(shared, sizeof shared, "%s/slurm", out);
        if ((rc = sw_run_slurm(&r, shared, 0)) != CLI_OK) return rc;
    } else {
        sw_run_local(&r, a.jobs, 0);
    }
    sw_read_all_stats(&r);
    sw_resolve_oracles(&r);
    int wrote = sw_write_results_csv(&r, out);
    fflush(stdout);
    if (sw_report(&r, &dn, out, find_plot(&a)) != CLI_OK) wrote = CLI_FAIL;
    int failed = 0, total = 0;
    for (int i = 0; i < r.n; i++) {
        if (sp.configs[r.pts[i].c].oracle || !sw_point_in_run(&r, &r.pts[i])) continue;
        total++;
        failed += !r.pts[i].ok;
    }
    if (failed) printf("%d of %d points failed (their log.txt in %s says why)\n", failed, total, out);
    return failed || wrote != CLI_OK ? CLI_FAIL : CLI_OK;
}
