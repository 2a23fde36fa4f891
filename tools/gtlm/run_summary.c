/* gtlm run: the short GPU-level summary printed after a run (every statistic is in --per-unit,
 * --stats and --stats-json). The headline lines keep GPGPU-Sim's "name = value" form and names,
 * so scripts written for GPGPU-Sim's output still find gpu_tot_sim_cycle and its friends. */
#include <string.h>

#include "progress.h"

static double stat_or(gtlm_sim *sim, const char *name, int *found)
{
    double v = 0;
    *found = gtlm_stat_get(sim, name, &v) == GTLM_OK;
    return v;
}

/* "name = value" for a run statistic that exists. */
static void line(gtlm_sim *sim, FILE *f, const char *name)
{
    int ok;
    double v = stat_or(sim, name, &ok);
    if (!ok) return;
    if (v == (double)(long long)v && v < 1e15 && v > -1e15) fprintf(f, "%s = %lld\n", name, (long long)v);
    else fprintf(f, "%s = %.6g\n", name, v);
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

static void kernel_rows(const cli_progress *p, FILE *f, int timing)
{
    if (p->n_rows == 0) return;
    fprintf(f, "kernels (each summed over its launches):\n");
    for (int i = 0; i < p->n_rows; i++) {
        const cli_kernel_row *r = &p->rows[i];
        fprintf(f, "  %s x%llu: gpu_sim_insn = %.0f, warp_insn = %.0f", r->name, r->launches, r->insn, r->warp_insn);
        if (timing)
            fprintf(f, ", gpu_sim_cycle = %.0f, gpu_ipc = %.4g, L1D miss rate %.3f, L2 miss rate %.3f, DRAM bw %.1f%%",
                    r->cycles, ratio(r->insn, r->cycles), ratio(r->l1_miss, r->l1_acc), ratio(r->l2_miss, r->l2_acc),
                    100 * ratio(r->dram_busy, r->dram_cycles));
        fprintf(f, "\n");
    }
    if (p->other_launches) fprintf(f, "  (%llu more launches of other kernels)\n", p->other_launches);
}

static void stall_line(gtlm_sim *sim, FILE *f)
{
    static const char *const why[] = {"issued", "idle", "memory", "scoreboard", "barrier", "functional_unit",
                                      "throttled"};
    int ok;
    double slots = stat_or(sim, "gpu.issue_slots", &ok);
    if (!ok || slots <= 0) return;
    fprintf(f, "scheduler cycles:");
    for (size_t i = 0; i < sizeof why / sizeof why[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "gpu.stall.%s", why[i]);
        fprintf(f, " %s %.1f%%", why[i], 100 * ratio(stat_or(sim, name, &ok), slots));
    }
    fprintf(f, "\n");
}

void cli_print_summary(const cli_progress *p, gtlm_sim *sim, FILE *f)
{
    char mode[32] = "", warps[32] = "0";
    gtlm_option_value(sim, "-gtlm_mode", mode, sizeof mode);
    int timing = mode[0] == 't';
    kernel_rows(p, f, timing);
    static const char *const head[] = {"gpu_tot_sim_cycle", "gpu_tot_sim_insn", "gpgpu_n_tot_w_icount",
                                       "gpu_tot_ipc", "gpu.ctas"};
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        if (timing || strstr(head[i], "cycle") == NULL) line(sim, f, head[i]);
    if (timing) {
        int ok;
        line(sim, f, "gpu.warp_ipc");
        gtlm_option_value(sim, "-gpgpu_shader_core_pipeline", warps, sizeof warps);
        long threads = 0, width = 32; /* "1536:32": threads per SM, warp size */
        if (sscanf(warps, "%ld:%ld", &threads, &width) < 1 || width <= 0) width = 32;
        double active = stat_or(sim, "gpu.avg_active_warps", &ok), max = (double)(threads / width);
        fprintf(f, "occupancy: %.2f warps resident per active SM cycle of %.0f (%.1f%%), %.0f CTAs per SM at most\n",
                active, max, 100 * ratio(active, max), stat_or(sim, "gpu.ctas_per_sm", &ok));
        stall_line(sim, f);
        line(sim, f, "L1D_total_cache_miss_rate");
        line(sim, f, "L2_total_cache_miss_rate");
        line(sim, f, "gpu.dram.bandwidth_utilization");
        line(sim, f, "gpu.avg_mem_latency");
    }
    line(sim, f, "gpgpu_simulation_time");
    line(sim, f, "gpgpu_simulation_rate");
    line(sim, f, "host.warp_insn_rate");
    if (timing) line(sim, f, "gpgpu_silicon_slowdown");
}
