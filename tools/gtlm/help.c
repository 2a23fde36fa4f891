/* Every subcommand's --help text (one line per flag) and the "did you mean" of a wrong flag. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct cli_flag {
    const char *flag, *arg, *text;
} cli_flag;

typedef struct cli_command {
    const char *name, *usage, *what;
    const cli_flag *flags;
} cli_command;

#define CONFIG_FLAGS                                                                                                   \
    {"--config", "FILE", "GPGPU-Sim style option file (repeatable; later files override earlier ones)"},            \
    {"--gpgpusim-compat", NULL, "GPGPU-Sim options gtlm does not model only warn instead of failing"},               \
    {"-NAME", "VALUE", "override one option after the files (gtlm options lists them)"}
#define SIZE_FLAGS                                                                                                     \
    {"--size", "tiny|sim|paper|doc", "the workload's size preset (default tiny)"},                                   \
    {"--set", "NAME=VALUE", "override one size parameter of the preset (repeatable)"}
#define HELP_FLAG {"--help", NULL, "print this text (also -h)"}

static const cli_flag run_flags[] = {
    SIZE_FLAGS,
    {"--mode", "functional|timing", "execution mode (default: -gtlm_mode of the configuration, timing)"},
    {"--trace", "DIR", "run the Accel-Sim traces of DIR (kernelslist.g) instead of a workload"},
    {"--vcd", "FILE", "write a VCD waveform of the run (the -vcd_file option)"},
    {"--record-block", "BLOCK FILE", "record a block's inputs and outputs for the RTL testbench: sched (SM 0 scheduler 0), power (SM 0's L1D Snooze controller), bloom (L2 slice 0's Morpheus predictor); -rtl_record_<block>"},
    {"--check-stats", NULL, "fail unless the statistics' invariants hold (timing mode)"},
    {"--load-pcs", NULL, "print the L1 hits and misses of every static load"},
    {"--per-unit", NULL, "print every statistic, per SM, L2 slice and DRAM channel, after the summary"},
    {"-v", NULL, "the same as --per-unit"},
    {"--stats", "FILE", "write every statistic in GPGPU-Sim style 'name = value' lines ('-' for standard output)"},
    {"--stats-json", "FILE", "write every statistic as JSON"},
    {"--quiet", NULL, "no progress line on standard error (also -q)"},
    {"--progress-interval", "SECONDS", "seconds between progress lines when standard error is not a terminal "
                                       "(default 10; 0: every 1000 core cycles)"},
    {"--corrupt-output", NULL, "flip one output element before verification (test hook: the run must fail)"},
    CONFIG_FLAGS,
    HELP_FLAG,
    {NULL, NULL, NULL}};
static const cli_flag options_flags[] = {
    {"--search", "WORD", "only options whose name or description contains WORD (any case)"},
    CONFIG_FLAGS,
    HELP_FLAG,
    {NULL, NULL, NULL}};
static const cli_flag config_flags[] = {CONFIG_FLAGS, HELP_FLAG, {NULL, NULL, NULL}};
static const cli_flag profile_flags[] = {
    SIZE_FLAGS,
    {"--mode", "functional|timing", "timing: APRES' Table I columns with each load's L1 miss rate (default functional)"},
    CONFIG_FLAGS,
    HELP_FLAG,
    {NULL, NULL, NULL}};
static const cli_flag trace_flags[] = {
    {"--out", "DIR", "the directory the trace is written to (required)"},
    SIZE_FLAGS,
    CONFIG_FLAGS,
    HELP_FLAG,
    {NULL, NULL, NULL}};
static const cli_flag sweep_flags[] = {
    {"-j", "N", "run at most N points at once (default 2)"},
    {"--out", "DIR", "the sweep's directory: DIR/<config>__<workload> per point, DIR/results.csv (default sweep_out)"},
    {"--baseline", "NAME", "the config speedups are relative to (default: the spec's baseline or first config)"},
    HELP_FLAG,
    {NULL, NULL, NULL}};
static const cli_flag reproduce_flags[] = {
    {"-j", "N", "at most N points at once (local backend; default 2)"},
    {"--size", "tiny|sim|paper|doc", "every point at this size instead of the spec's sizes"},
    {"--quick", NULL, "only the workloads marked quick (else the first), at size tiny (or their quick-set)"},
    {"--workloads", "A,B,...", "only these workloads (labels or names): a subset that fits the time at hand; the "
                               "others are left out of the tables and the class means"},
    {"--configs", "A,B,...", "only these configs (and the ones their figures normalise over: the baseline, "
                             "over=); the other columns report n/a (finished points are kept, so subsets run one "
                             "after another add up to the whole study)"},
    {"--backend", "local|slurm", "child processes on this machine (default), or one `sbatch --array` job, a point "
                                 "per task (the binary, its library and the option files are staged in --shared "
                                 "DIR, which every node must see; sbatch's SBATCH_* variables apply; a failed task "
                                 "is recorded like a failed point and a re-run submits only what is missing)"},
    {"--shared", "DIR", "the staging folder of the slurm backend (default OUT/slurm)"},
    {"--out", "DIR", "the output folder (default reproduce_out/NAME, with /quick or /size-S)"},
    {"--plot", "FILE", "tools/plot (default: $GTLM_PLOT, tools/plot, the build's source tree)"},
    {"--no-plots", NULL, "write no PNG"},
    {"--no-run", NULL, "run nothing: report the points earlier runs finished in --out (the others n/a)"},
    HELP_FLAG,
    {NULL, NULL, NULL}};
static const cli_flag locality_flags[] = {
    {"--lines", NULL, "count shared 128-byte lines instead of elements"},
    {"--mtx", "DIR", "write each launch's graph to DIR as a Matrix Market file"},
    {"--groups", "P", "print the TB groups PAVER's partitioner P forms from each graph: rbts:MAXTB (leaves < MAXTB), kway:PARTS or mst:SMS:X"},
    SIZE_FLAGS,
    CONFIG_FLAGS,
    HELP_FLAG,
    {NULL, NULL, NULL}};
static const cli_flag no_flags[] = {HELP_FLAG, {NULL, NULL, NULL}};

static const cli_command commands[] = {
    {"version", "gtlm version", "print the version of gtlm and of SystemC", no_flags},
    {"options", "gtlm options [CONFIG...] [--search WORD]",
     "print every option: value, default, description and where the value came from", options_flags},
    {"list", "gtlm list", "print every workload: suite, description, kernels, sizes", no_flags},
    {"run", "gtlm run [WORKLOAD] [CONFIG...] [flags]",
     "load a configuration, run a workload (or --trace DIR), verify it and print a GPU-level summary;\n"
     "progress goes to standard error",
     run_flags},
    {"profile", "gtlm profile WORKLOAD [CONFIG...] [flags]",
     "per-static-load memory profile of a functional run (requests, reuse, inter-warp stride)", profile_flags},
    {"locality", "gtlm locality WORKLOAD [CONFIG...] [flags]",
     "the thread-block locality graph of each launch (PAVER), profiled from a functional run: a summary\n"
     "per launch, and Matrix Market files with --mtx",
     locality_flags},
    {"bench", "gtlm bench functional|timing [CONFIG...]",
     "functional: measure functional execution speed on a fixed kernel mix;\n"
     "timing: measure timing-model speed on sim-size workloads (default configs/gtx480.config)",
     config_flags},
    {"microbench", "gtlm microbench [--config F...] [-name value...]",
     "run microbenchmarks (pointer chases through L1, shared and constant memory, L2 hits and DRAM row\n"
     "hits / conflicts with the L1 bypassed, 32-lane chases that saturate the L1 and the crossbar,\n"
     "dependent chains and issue rates per instruction class, register-bank conflicts) in timing mode\n"
     "and print each one's measured cycles per step beside the value derived from the configuration's\n"
     "options: exact, or a range on unequal clocks (exit 1 when one is outside; docs/timing-model.md\n"
     "has the formulas)",
     config_flags},
    {"sweep", "gtlm sweep SPEC [-j N] [--out DIR] [--baseline NAME]",
     "run every workload x config of SPEC as `gtlm run` children, skip points whose status is ok,\n"
     "write DIR/results.csv and print the gpu_tot_sim_cycle speedup of each config over the baseline.\n"
     "SPEC, one directive a line ('#' starts a comment):\n"
     "  workload NAME                a workload to run (repeatable)\n"
     "  config NAME FILE [ARG...]    an option FILE plus `run` arguments such as -name value (repeatable)\n"
     "  size tiny|sim|paper|doc      size preset of every run (default tiny)\n"
     "  baseline NAME                the config speedups are relative to (default the first config)",
     sweep_flags},
    {"reproduce", "gtlm reproduce NAME [flags]",
     "run the experiment experiments/NAME and report it beside the document's numbers.\n"
     "\n"
     "Runs an experiment: every workload x configuration of NAME/spec as `gtlm run` points, skipping\n"
     "points that finished with the same arguments, then prints one markdown table per figure (rows:\n"
     "workloads and means per class; columns: configurations; each cell ours and the document's\n"
     "number beside it) and a verdict line per headline claim of NAME/numbers. NAME is a directory, or\n"
     "experiments/NAME under the current directory (run from the source tree).\n"
     "\n"
     "output in DIR: report.md (what is printed), FIGURE.csv (row,class,config,ours,winner,document),\n"
     "FIGURE.plot.csv and FIGURE.png (grouped bars, or lines), results.csv (every point's statistics),\n"
     "and a folder per point (args, log.txt, stats.txt, status). Progress goes to standard error.\n"
     "\n"
     "NAME/spec, one directive a line ('#' starts a comment):\n"
     "  workload NAME [label=L] [class=C] [size=S] [quick] [quick-set=NAME=VALUE...] [quick-configs=A,B...]\n"
     "                        a workload, its abbreviation in the document, its benchmark class, its own\n"
     "                        size preset (documents enlarge some inputs), part of the --quick subset;\n"
     "                        quick-set: under --quick at its own size with these parameters (--set)\n"
     "                        instead of tiny, where tiny cannot show the effect; quick-configs: under\n"
     "                        --quick only these configs run for it (the others report n/a)\n"
     "  config NAME FILE [ARG...]   an option file and `gtlm run` arguments such as -name value\n"
     "  oracle NAME best-of CONFIG... by [min|max] STAT\n"
     "                        per workload, the member with the best statistic or metric (default max;\n"
     "                        min for names containing 'cycle'); the report names the winner\n"
     "  size tiny|sim|paper|doc the default size (tiny)\n"
     "  baseline NAME         what speedups are normalised to (default the first config)\n"
     "  class NAME            a benchmark class (reported, as 'empty', even without workloads)\n"
     "  args WORKLOAD|* CONFIG|* ARG...   extra `gtlm run` arguments of the matching points\n"
     "  metric NAME speedup|normalised STAT [over=CONFIG]   base STAT / STAT, or STAT / base STAT\n"
     "  metric NAME value STAT | metric NAME ratio STAT STAT2   (ratio: either may be a sum A+B+...)\n"
     "  metric NAME speedup_jit STAT JITSTAT MHZ [over=CONFIG]   base time / (time + JIT s), time = STAT / MHZ\n"
     "  figure NAME METRIC [configs=A,B] [means=geomean,hmean,amean] [plot=bars|lines] [title TEXT...]\n"
     "NAME/numbers (optional), the document's numbers, one a line:\n"
     "  value FIGURE SERIES ROW VALUE NORMALISATION [WHERE...]\n"
     "  claim FIGURE SERIES ROW VALUE NORMALISATION CLAIM...   (a headline claim: gets a verdict)\n"
     "  ROW: a workload label or name, or MEAN or MEAN:CLASS (MEAN: geomean, hmean, amean); VALUE: a\n"
     "  number or a stated bound (>1.3, <=1.3); NORMALISATION: the figure's base config, or none.\n"
     "  A verdict AGREES when a bound holds, or when the effect (value - 1 when normalised) has the\n"
     "  document's sign and is within a factor of 2 of its size.\n"
     "exit status: 0 every point ran, 1 some point failed, 2 bad usage, spec or numbers file",
     reproduce_flags},
    {"trace", "gtlm trace WORKLOAD --out DIR [CONFIG...] [flags]",
     "run a workload functionally, verify it, and write its Accel-Sim trace (kernelslist.g, kernel-N.traceg)",
     trace_flags},
    {"help", "gtlm help [COMMAND]", "print the list of commands, or the help of COMMAND", no_flags},
    {NULL, NULL, NULL, NULL}};

static const char *current = NULL;

static const cli_command *find(const char *name)
{
    for (const cli_command *c = commands; name && c->name; c++)
        if (strcmp(c->name, name) == 0) return c;
    return NULL;
}

void cli_set_command(const char *name) { current = name; }

int cli_has_help(const char *name) { return find(name) != NULL; }

void cli_print_commands(FILE *f)
{
    for (const cli_command *c = commands; c->name; c++) {
        const char *nl = strchr(c->what, '\n');
        fprintf(f, "  %-9s %.*s\n", c->name, nl ? (int)(nl - c->what) : (int)strlen(c->what), c->what);
    }
}

int cli_help(const char *name, FILE *f)
{
    const cli_command *c = find(name);
    if (!c) return CLI_USAGE;
    fprintf(f, "usage: %s\n\n%s\n\nflags:\n", c->usage, c->what);
    for (const cli_flag *fl = c->flags; fl->flag; fl++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", fl->flag, fl->arg ? " " : "", fl->arg ? fl->arg : "");
        fprintf(f, "  %-30s %s\n", left, fl->text);
    }
    fprintf(f, "\nexit status: 0 success, 1 simulation or workload failure, 2 bad usage or bad input\n");
    return CLI_OK;
}

/* Levenshtein distance of two short strings (flags). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[64];
    if (la >= 63 || lb >= 63) return 99;
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

const char *cli_nearest_command(const char *bad)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (const cli_command *c = commands; bad && c->name; c++) {
        size_t d = distance(bad, c->name);
        if (d < best_d) best_d = d, best = c->name;
    }
    return best_d <= strlen(bad ? bad : "") / 3 + 1 ? best : NULL; /* a transposition costs 2 */
}

const char *cli_nearest_flag(const char *command, const char *bad)
{
    const cli_command *c = find(command);
    if (!c || !bad) return NULL;
    const char *best = NULL;
    size_t best_d = (size_t)-1, limit = strlen(bad) / 4 + 1; /* a typo or two, not another word */
    for (const cli_flag *fl = c->flags; fl->flag; fl++) {
        if (fl->flag[1] != '-' && fl->flag[1] != 'j' && fl->flag[1] != 'v') continue; /* not -NAME */
        size_t d = strncmp(fl->flag, bad, strlen(bad)) == 0 ? 1 : distance(bad, fl->flag);
        if (d < best_d) best_d = d, best = fl->flag;
    }
    return best_d <= limit ? best : NULL;
}

void cli_unknown_flag(const char *bad)
{
    const char *near = cli_nearest_flag(current, bad);
    fprintf(stderr, "gtlm: unknown flag '%s'", bad);
    if (near) fprintf(stderr, "; did you mean '%s'?", near);
    fprintf(stderr, " (gtlm %s --help lists the flags)\n", current ? current : "help");
}
