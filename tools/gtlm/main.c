/* gtlm: run workloads on the GPU timing model, list its options, print its version. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gtlm <command> [arguments]\n"
            "\n"
            "commands:\n"
            "  version                      print the version of gtlm and of SystemC\n"
            "  options [CONFIG...]          print every option: value, default, description, source\n"
            "  list                         print every workload: suite, description, kernels, sizes\n"
            "  run [WORKLOAD] [CONFIG...]   load a configuration, run a workload, verify it, print statistics\n"
            "  profile WORKLOAD [run args]  per-static-load memory profile (requests, reuse, inter-warp stride)\n"
            "  locality WORKLOAD [--lines] [--mtx DIR] [run args]  TB locality graph per launch (PAVER)\n"
            "  bench functional [CONFIG...] measure functional execution speed on a fixed kernel mix\n"
            "  bench timing [--config F]    measure timing-model speed on sim-size workloads (default\n"
            "                               configs/gtx480.config), and functional speed on the same mix\n"
            "  sweep SPEC [-j N] [--out DIR] [--baseline NAME]\n"
            "                               run every workload x config of SPEC as `gtlm run` children (at most N\n"
            "                               at once, default 2) in DIR/<config>__<workload> (default sweep_out),\n"
            "                               skip points whose status is ok, write DIR/results.csv and print the\n"
            "                               gpu_tot_sim_cycle speedup of each config over the baseline\n"
            "  trace WORKLOAD --out DIR [--size S] [CONFIG...]\n"
            "                               run a workload functionally, verify it, and write its Accel-Sim\n"
            "                               trace (kernelslist.g, kernel-N.traceg) into DIR\n"
            "  help                         print this text\n"
            "\n"
            "CONFIG:\n"
            "  --config FILE                GPGPU-Sim style option file (repeatable; later files override)\n"
            "  --gpgpusim-compat            GPGPU-Sim options gtlm does not model only warn\n"
            "  -name value                  override one option after the files\n"
            "run only:\n"
            "  --size tiny|sim|paper|doc    the workload's size preset (default tiny)\n"
            "  --set NAME=VALUE             override one size parameter of the preset\n"
            "  --mode functional|timing     execution mode (default: -gtlm_mode of the configuration, timing)\n"
            "  --check-stats                fail unless the statistics' invariants hold (timing mode)\n"
            "  --load-pcs                   print the L1 hits and misses of every static load\n"
            "  --stats FILE                 write GPGPU-Sim style statistics ('-' for standard output)\n"
            "  --stats-json FILE            write every statistic as JSON\n"
            "SPEC (one directive a line, '#' starts a comment):\n"
            "  workload NAME                a workload to run (repeatable)\n"
            "  config NAME FILE [ARG...]    a configuration: option FILE plus `run` arguments such as -name value\n"
            "                               (repeatable)\n"
            "  size tiny|sim|paper|doc      size preset of every run (default tiny)\n"
            "  baseline NAME                the config speedups are relative to (default the first config)\n"
            "\n"
            "exit status: 0 success, 1 simulation or workload failure, 2 bad usage or bad input\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        if (argc > 2) {
            fprintf(stderr, "gtlm version: unexpected argument '%s'\n", argv[2]);
            return CLI_USAGE;
        }
        printf("%s\n", gtlm_version_string());
        return CLI_OK;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "options") == 0) return cmd_options(argc - 2, argv + 2);
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0 && argc > 2 && strcmp(argv[2], "timing") == 0) return cmd_bench_timing(argc - 3, argv + 3);
    if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 2, argv + 2);
    if (strcmp(cmd, "list") == 0) return cmd_list(argc - 2, argv + 2);
    if (strcmp(cmd, "profile") == 0) return cmd_profile(argc - 2, argv + 2);
    if (strcmp(cmd, "locality") == 0) return cmd_locality(argc - 2, argv + 2);
    if (strcmp(cmd, "sweep") == 0) return cmd_sweep(argc - 2, argv + 2);
    if (strcmp(cmd, "trace") == 0) return cmd_trace(argc - 2, argv + 2);
    fprintf(stderr, "gtlm: unknown command '%s' (expected version, options, list, run, profile, locality, bench, sweep, trace or help)\n", cmd);
    return CLI_USAGE;
}
