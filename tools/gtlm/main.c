/* gtlm: run workloads on the GPU timing model, list its options, print its version. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gtlm <command> [arguments]\n\ncommands:\n");
    cli_print_commands(f);
    fprintf(f, "\n`gtlm COMMAND --help` lists every flag of COMMAND; `man gtlm` describes them all.\n"
               "exit status: 0 success, 1 simulation or workload failure, 2 bad usage or bad input\n");
}

/* `gtlm COMMAND ... --help` (or -h) anywhere among the arguments. */
static int wants_help(int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    cli_set_command(cmd);
    if (cli_has_help(cmd) && wants_help(argc, argv)) return cli_help(cmd, stdout);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        if (argc > 2) {
            fprintf(stderr, "gtlm version: unexpected argument '%s'\n", argv[2]);
            return CLI_USAGE;
        }
        printf("%s\n", gtlm_version_string());
        return CLI_OK;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        if (argc > 2 && strcmp(cmd, "help") == 0) {
            if (cli_help(argv[2], stdout) == CLI_OK) return CLI_OK;
            fprintf(stderr, "gtlm help: no command named '%s'\n", argv[2]);
            return CLI_USAGE;
        }
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "options") == 0) return cmd_options(argc - 2, argv + 2);
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0 && argc > 2 && strcmp(argv[2], "timing") == 0) return cmd_bench_timing(argc - 3, argv + 3);
    if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 2, argv + 2);
    if (strcmp(cmd, "microbench") == 0) return cmd_microbench(argc - 2, argv + 2);
    if (strcmp(cmd, "list") == 0) return cmd_list(argc - 2, argv + 2);
    if (strcmp(cmd, "profile") == 0) return cmd_profile(argc - 2, argv + 2);
    if (strcmp(cmd, "locality") == 0) return cmd_locality(argc - 2, argv + 2);
    if (strcmp(cmd, "sweep") == 0) return cmd_sweep(argc - 2, argv + 2);
    if (strcmp(cmd, "reproduce") == 0) return cmd_reproduce(argc - 2, argv + 2);
    if (strcmp(cmd, "trace") == 0) return cmd_trace(argc - 2, argv + 2);
    const char *near = cli_nearest_command(cmd);
    fprintf(stderr, "gtlm: unknown command '%s'", cmd);
    if (near) fprintf(stderr, "; did you mean '%s'?", near);
    fprintf(stderr, " (expected version, options, list, run, profile, locality, bench, microbench, sweep, reproduce, trace or help)\n");
    return CLI_USAGE;
}
