/* gtlm bench timing: speed of the timing model on a fixed mix of sim-size workloads on
 * configs/gtx480.config (or --config), and of functional mode on the same mix. Every run is
 * verified against its CPU reference, so a fast wrong answer never counts. Not a test: it prints
 * figures. Rates per wall second and per processor second (host.sim_cpu_seconds): on a shared,
 * busy machine the second is the one to compare. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "workload.h"

/* Memory-bound and compute-bound kernels from four suites. */
static const char *const mix[] = {"polybench/ATAX", "polybench/GEMM", "rodinia/BFS", "rodinia/HOTSPOT",
                                  "sdk/ScalarProd", "parboil/SPMV"};

typedef struct mix_total {
    double warp_insn, cycles, seconds, cpu_seconds;
} mix_total;

static int run_one(const cli_args *base, const char *name, const char *mode, mix_total *t, FILE *sink)
{
    const wl_desc *d = wl_find(name);
    if (!d) {
        fprintf(stderr, "gtlm bench: workload %s is missing\n", name);
        return CLI_FAIL;
    }
    cli_args a = *base;
    if (a.n_overrides + 2 > CLI_MAX_OVERRIDES) return CLI_USAGE;
    a.overrides[a.n_overrides++] = "-gtlm_mode";
    a.overrides[a.n_overrides++] = mode;
    gtlm_sim *sim = NULL;
    int rc = cli_create_sim(&a, &sim);
    if (rc != CLI_OK) return rc;
    int w = wl_run(d, sim, "sim", NULL, 0, 0, sink);
    double insn = 0, cycles = 0, secs = 0, cpu = 0;
    gtlm_stat_get(sim, "gpu.warp_insn", &insn);
    gtlm_stat_get(sim, "gpu.cycles", &cycles);
    gtlm_stat_get(sim, "host.sim_seconds", &secs);
    gtlm_stat_get(sim, "host.sim_cpu_seconds", &cpu);
    gtlm_sim_destroy(sim);
    if (w != WL_OK) {
        fprintf(stderr, "gtlm bench: %s failed in %s mode\n", name, mode);
        return CLI_FAIL;
    }
    printf("%-18s %-10s warp_insn = %.0f  core_cycles = %.0f  seconds = %.3f  warp_insn_per_sec = %.0f  "
           "cpu_seconds = %.3f  warp_insn_per_cpu_sec = %.0f\n",
           name, mode, insn, cycles, secs, secs > 0 ? insn / secs : 0, cpu, cpu > 0 ? insn / cpu : 0);
    t->warp_insn += insn;
    t->cycles += cycles;
    t->seconds += secs;
    t->cpu_seconds += cpu;
    return CLI_OK;
}

int cmd_bench_timing(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse(argc, argv, 0, 0, &a);
    if (rc != CLI_OK) return rc;
    if (a.n_files == 0) a.files[a.n_files++] = "configs/gtx480.config"; /* run from the source tree, or give --config */
    FILE *sink = fopen("/dev/null", "w");
    if (!sink) return CLI_FAIL;
    mix_total timing = {0, 0, 0, 0}, functional = {0, 0, 0, 0};
    for (size_t i = 0; rc == CLI_OK && i < sizeof mix / sizeof *mix; i++) rc = run_one(&a, mix[i], "timing", &timing, sink);
    for (size_t i = 0; rc == CLI_OK && i < sizeof mix / sizeof *mix; i++)
        rc = run_one(&a, mix[i], "functional", &functional, sink);
    fclose(sink);
    if (rc != CLI_OK) return rc;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("timing_warp_insn_per_sec = %.0f\n", timing.seconds > 0 ? timing.warp_insn / timing.seconds : 0);
    printf("timing_core_cycles_per_sec = %.0f\n", timing.seconds > 0 ? timing.cycles / timing.seconds : 0);
    printf("peak_rss_mb = %.1f\n", (double)ru.ru_maxrss / 1024.0);
    printf("functional_warp_insn_per_sec = %.0f\n",
           functional.seconds > 0 ? functional.warp_insn / functional.seconds : 0);
    printf("timing_slowdown_vs_functional = %.2f\n",
           timing.seconds > 0 && functional.warp_insn > 0
               ? (functional.warp_insn / functional.seconds) / (timing.warp_insn / timing.seconds)
               : 0);
    printf("timing_warp_insn_per_cpu_sec = %.0f\n", timing.cpu_seconds > 0 ? timing.warp_insn / timing.cpu_seconds : 0);
    printf("functional_warp_insn_per_cpu_sec = %.0f\n",
           functional.cpu_seconds > 0 ? functional.warp_insn / functional.cpu_seconds : 0);
    printf("timing_cpu_slowdown_vs_functional = %.2f\n",
           timing.warp_insn > 0 && functional.cpu_seconds > 0 && timing.cpu_seconds > 0
               ? (functional.warp_insn / functional.cpu_seconds) / (timing.warp_insn / timing.cpu_seconds)
               : 0);
    return CLI_OK;
}
