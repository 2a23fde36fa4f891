#define _POSIX_C_SOURCE 200809L /* stat */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static int need_value(int argc, char **argv, int i)
{
    if (i + 1 < argc) return 1;
    fprintf(stderr, "gtlm: '%s' expects a value\n", argv[i]);
    return 0;
}

int cli_parse(int argc, char **argv, int allow_workload, int allow_stats, cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->progress_interval = 10;
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--config") == 0) {
            if (!need_value(argc, argv, i)) return CLI_USAGE;
            if (a->n_files == CLI_MAX_FILES) {
                fprintf(stderr, "gtlm: more than %d --config files\n", CLI_MAX_FILES);
                return CLI_USAGE;
            }
            a->files[a->n_files++] = argv[++i];
        } else if (strcmp(s, "--gpgpusim-compat") == 0) {
            a->gpgpusim_compat = 1;
        } else if (allow_workload && (strcmp(s, "--size") == 0 || strcmp(s, "--mode") == 0)) {
            if (!need_value(argc, argv, i)) return CLI_USAGE;
            if (s[2] == 's') a->size = argv[++i];
            else a->mode = argv[++i];
        } else if (allow_workload && strcmp(s, "--trace") == 0) {
            if (!need_value(argc, argv, i)) return CLI_USAGE;
            a->trace = argv[++i];
        } else if (allow_workload && strcmp(s, "--vcd") == 0) {
            /* the waveform file: the -vcd_file option */
            if (!need_value(argc, argv, i)) return CLI_USAGE;
            if (a->n_overrides + 2 > CLI_MAX_OVERRIDES) {
                fprintf(stderr, "gtlm: too many option overrides\n");
                return CLI_USAGE;
            }
            a->overrides[a->n_overrides++] = "-vcd_file";
            a->overrides[a->n_overrides++] = argv[++i];
        } else if (allow_workload && strcmp(s, "--record-block") == 0) {
            /* a block's input/output sequence for the RTL testbench: sched/power/bloom -> -rtl_record_<block> */
            if (i + 2 >= argc) {
                fprintf(stderr, "gtlm: '--record-block' expects a block and a file: --record-block sched|power|bloom FILE\n");
                return CLI_USAGE;
            }
            const char *opt = !strcmp(argv[i + 1], "sched")   ? "-rtl_record_sched"
                              : !strcmp(argv[i + 1], "power") ? "-rtl_record_power"
                              : !strcmp(argv[i + 1], "bloom") ? "-rtl_record_bloom"
                                                              : NULL;
            if (!opt) {
                fprintf(stderr, "gtlm: --record-block: unknown block '%s' (recordable: sched, power, bloom)\n", argv[i + 1]);
                return CLI_USAGE;
            }
            if (a->n_overrides + 2 > CLI_MAX_OVERRIDES) {
                fprintf(stderr, "gtlm: too many option overrides\n");
                return CLI_USAGE;
            }
            a->overrides[a->n_overrides++] = opt;
            a->overrides[a->n_overrides++] = argv[i + 2];
            i += 2;
        } else if (allow_workload && strcmp(s, "--set") == 0) {
            if (!need_value(argc, argv, i)) return CLI_USAGE;
            if (a->n_sets == 16) {
                fprintf(stderr, "gtlm: too many --set parameters\n");
                return CLI_USAGE;
            }
            a->sets[a->n_sets++] = argv[++i];
        } else if (allow_workload && strcmp(s, "--corrupt-output") == 0) {
            a->corrupt = 1;
        } else if (allow_workload && strcmp(s, "--check-stats") == 0) {
            a->check_stats = 1;
        } else if (allow_workload && strcmp(s, "--load-pcs") == 0) {
            a->load_pcs = 1;
        } else if (allow_stats && (strcmp(s, "--per-unit") == 0 || strcmp(s, "-v") == 0)) {
            a->per_unit = 1;
        } else if (allow_stats && (strcmp(s, "--quiet") == 0 || strcmp(s, "-q") == 0)) {
            a->quiet = 1;
        } else if (allow_stats && strcmp(s, "--progress-interval") == 0) {
            if (!need_value(argc, argv, i)) return CLI_USAGE;
            char *end;
            a->progress_interval = strtod(argv[++i], &end);
            if (*end || end == argv[i] || !(a->progress_interval >= 0)) {
                fprintf(stderr, "gtlm: --progress-interval expects seconds >= 0, got '%s'\n", argv[i]);
                return CLI_USAGE;
            }
        } else if (allow_stats && (strcmp(s, "--stats-json") == 0 || strcmp(s, "--stats") == 0)) {
            if (!need_value(argc, argv, i)) return CLI_USAGE;
            if (s[7] == '-') a->stats_json = argv[++i];
            else a->stats_text = argv[++i];
        } else if (s[0] == '-' && s[1] == '-') {
            cli_unknown_flag(s);
            return CLI_USAGE;
        } else if (s[0] == '-' && s[1] != '\0') {
            if (!need_value(argc, argv, i)) return CLI_USAGE;
            if (a->n_overrides + 2 > CLI_MAX_OVERRIDES) {
                fprintf(stderr, "gtlm: too many option overrides\n");
                return CLI_USAGE;
            }
            a->overrides[a->n_overrides++] = s;
            a->overrides[a->n_overrides++] = argv[++i];
        } else if (allow_workload && !a->workload) {
            a->workload = s;
        } else {
            fprintf(stderr, "gtlm: unexpected argument '%s'\n", s);
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

int cli_create_sim(const cli_args *a, gtlm_sim **sim)
{
    gtlm_sim_options o;
    gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION);
    o.config_files = a->files;
    o.n_config_files = (size_t)a->n_files;
    o.overrides = a->overrides;
    o.n_overrides = (size_t)a->n_overrides;
    o.gpgpusim_compat = a->gpgpusim_compat;
    int rc = gtlm_sim_create(sim, &o);
    if (rc == GTLM_ECONFIG || rc == GTLM_EINVAL) {
        fprintf(stderr, "%s\ngtlm: the configuration has errors (listed above)\n", gtlm_last_error());
        return CLI_USAGE;
    }
    if (rc != GTLM_OK) {
        fprintf(stderr, "gtlm: %s: %s\n", gtlm_status_name(rc), gtlm_last_error());
        return CLI_FAIL;
    }
    const char *w = gtlm_sim_warnings(*sim);
    if (w[0]) fprintf(stderr, "%s\n", w);
    return CLI_OK;
}

int cli_check_output(const char *path, const char *flag)
{
    if (!path || strcmp(path, "-") == 0) return CLI_OK;
    struct stat st;
    int existed = stat(path, &st) == 0;
    if (existed && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "gtlm: %s %s: is a directory; give a file name\n", flag, path);
        return CLI_USAGE;
    }
    /* Opened for appending, so an existing file keeps its contents until the run writes it. */
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "gtlm: %s %s: cannot write: %s\n", flag, path, strerror(errno));
        return CLI_USAGE;
    }
    fclose(f);
    if (!existed) remove(path);
    return CLI_OK;
}
