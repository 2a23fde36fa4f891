/* The gtlm command: shared pieces of its subcommands. Exit codes: 0 success,
 * 1 simulation or workload failure, 2 bad usage or bad input. */
#ifndef GTLM_CLI_H
#define GTLM_CLI_H

#include <stdio.h>

#include <gtlm/gtlm.h>

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

#define CLI_MAX_FILES 32
#define CLI_MAX_OVERRIDES 512

/* What the subcommands share: configuration files, overrides and output files. */
typedef struct cli_args {
    const char *files[CLI_MAX_FILES];
    int n_files;
    const char *overrides[CLI_MAX_OVERRIDES];
    int n_overrides;
    int gpgpusim_compat;
    const char *workload;   /* run: the positional argument */
    const char *size;       /* run: --size tiny|sim|paper */
    const char *mode;       /* run: --mode functional|timing */
    const char *sets[16];   /* run: --set NAME=VALUE size parameters */
    int n_sets;
    int corrupt;            /* run: --corrupt-output (test hook) */
    int check_stats;        /* run: --check-stats: the statistics' invariants must hold */
    int load_pcs;           /* run: --load-pcs: print the per-load-PC L1 record */
    const char *trace;      /* run: --trace DIR (Accel-Sim traces instead of a workload) */
    const char *stats_json; /* run: --stats-json F */
    const char *stats_text; /* run: --stats F */
    int per_unit;           /* run: --per-unit / -v: every statistic on screen */
    int quiet;              /* run: --quiet / -q: no progress line */
    double progress_interval; /* run: --progress-interval S (default 10) */
} cli_args;

/* Parses the arguments after the subcommand; allow_workload accepts one positional name.
 * Prints what is wrong and returns CLI_USAGE on bad usage. */
int cli_parse(int argc, char **argv, int allow_workload, int allow_stats, cli_args *a);
/* Fails (CLI_USAGE, with a message) when path, the value of flag, cannot be written, so that a
 * bad --stats path is found before a long run rather than after it. "-" and NULL pass. */
int cli_check_output(const char *path, const char *flag);
/* Creates a simulator from the arguments, printing warnings; CLI_USAGE on bad configuration. */
int cli_create_sim(const cli_args *a, gtlm_sim **sim);

/* help.c: the subcommand being run (for messages), its --help text, the nearest flag to a wrong one. */
void cli_set_command(const char *name);
int cli_has_help(const char *name);
int cli_help(const char *name, FILE *f);
void cli_print_commands(FILE *f);
const char *cli_nearest_flag(const char *command, const char *bad);
const char *cli_nearest_command(const char *bad);
/* Prints "unknown flag" with the nearest right flag of the current subcommand. */
void cli_unknown_flag(const char *bad);

int cmd_options(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_bench_timing(int argc, char **argv);
/* gtlm microbench [--config F...]: microbenchmarks measured beside their derived cycles (cmd_microbench.c). */
int cmd_microbench(int argc, char **argv);
/* Checks invariants of a finished timing run's statistics (hits + merges + misses + reservation
 * failures = accesses per cache, DRAM data-bus use within peak, IPC within the issue width, every request answered);
 * prints each violation. Returns CLI_OK or CLI_FAIL. */
int cli_check_stats(gtlm_sim *sim);
int cmd_list(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_locality(int argc, char **argv);
/* gtlm sweep SPEC: workloads x configs as child runs; the SPEC format is in cmd_sweep.c. */
int cmd_sweep(int argc, char **argv);
/* gtlm reproduce NAME: an experiment's sweep, report and verdicts (cmd_reproduce.c). */
int cmd_reproduce(int argc, char **argv);
/* gtlm trace WORKLOAD --out DIR: functional run writing an Accel-Sim trace (docs/traces.md). */
int cmd_trace(int argc, char **argv);

#endif
