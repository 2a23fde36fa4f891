#include "gpu_stats.h"

namespace gtlm {

namespace {

struct RateCtx {
    const char *num;
    const char *den;
};

// Per-second rates from a count and the host time (0 before anything ran).
double rate(const stat_registry *r, stat_scope scope, const void *ctx)
{
    const RateCtx *rc = static_cast<const RateCtx *>(ctx);
    double n = 0, s = 0;
    if (stat_get(r, rc->num, scope, &n) || stat_get(r, rc->den, scope, &s) || s <= 0) return 0;
    return n / s;
}

// Host seconds per simulated second at the core clock.
double slowdown(const stat_registry *r, stat_scope scope, const void *ctx)
{
    const GpuCounters *gc = static_cast<const GpuCounters *>(ctx);
    double cycles = 0, s = 0;
    if (stat_get(r, "gpu.cycles", scope, &cycles) || stat_get(r, "host.sim_seconds", scope, &s) || cycles <= 0)
        return 0;
    return s / (cycles / (gc->core_mhz * 1e6));
}

const RateCtx thread_rate{"gpu.thread_insn", "host.sim_seconds"};
const RateCtx warp_rate{"gpu.warp_insn", "host.sim_seconds"};
const RateCtx cycle_rate{"gpu.cycles", "host.sim_seconds"};

} // namespace

int register_gpu_stats(stat_registry *r, GpuCounters *c, double core_mhz)
{
    c->core_mhz = core_mhz;
    int bad = 0;
    auto ok = [&bad](int id) { bad |= id < 0; };
    stat_names n{};

    n = {"gpu_sim_cycle", "gpu_tot_sim_cycle", 0};
    ok(stat_add_counter(r, "gpu.cycles", &c->cycles, "cycles", "core clock cycles", &n));
    n = {"gpu_sim_insn", "gpu_tot_sim_insn", 0};
    ok(stat_add_counter(r, "gpu.thread_insn", &c->thread_insn, "instructions",
                        "thread instructions: active lanes summed over issued warp instructions", &n));
    n = {"gpu_sim_warp_insn", "gpgpu_n_tot_w_icount", 0};
    ok(stat_add_counter(r, "gpu.warp_insn", &c->warp_insn, "instructions", "warp instructions issued", &n));
    n = {"gpu_completed_cta", "gpu_tot_completed_cta", 0};
    ok(stat_add_counter(r, "gpu.ctas", &c->ctas, "CTAs", "thread blocks completed", &n));
    n = {"gpu_ipc", "gpu_tot_ipc", 0};
    ok(stat_add_ratio(r, "gpu.ipc", "gpu.thread_insn", "gpu.cycles", "instructions/cycle",
                      "thread instructions per core cycle", &n));
    n = {nullptr, nullptr, 0};
    ok(stat_add_ratio(r, "gpu.warp_ipc", "gpu.warp_insn", "gpu.cycles", "instructions/cycle",
                      "warp instructions per core cycle", &n));

    // Totals over every SM's L1 data cache and every L2 slice, as GPGPU-Sim prints them.
    n = {nullptr, "L1D_total_cache_accesses", 0};
    ok(stat_add_sum(r, "gpu.l1d.accesses", "gpu.sm[*].l1d.accesses", "accesses", "L1 data cache accesses, all SMs", &n));
    n = {nullptr, "L1D_total_cache_misses", 0};
    ok(stat_add_sum(r, "gpu.l1d.misses", "gpu.sm[*].l1d.misses", "accesses", "L1 data cache misses, all SMs", &n));
    n = {nullptr, "L1D_total_cache_miss_rate", 0};
    ok(stat_add_ratio(r, "gpu.l1d.miss_rate", "gpu.l1d.misses", "gpu.l1d.accesses", "ratio",
                      "L1 data cache misses per access, all SMs", &n));
    n = {nullptr, "L2_total_cache_accesses", 0};
    ok(stat_add_sum(r, "gpu.l2.accesses", "gpu.l2[*].accesses", "accesses", "L2 accesses, all slices", &n));
    n = {nullptr, "L2_total_cache_misses", 0};
    ok(stat_add_sum(r, "gpu.l2.misses", "gpu.l2[*].misses", "accesses", "L2 misses, all slices", &n));
    n = {nullptr, "L2_total_cache_miss_rate", 0};
    ok(stat_add_ratio(r, "gpu.l2.miss_rate", "gpu.l2.misses", "gpu.l2.accesses", "ratio",
                      "L2 misses per access, all slices", &n));

    // Host-side figures: wall time and simulation speed (not deterministic by nature).
    n = {nullptr, "gpgpu_simulation_time", 1};
    ok(stat_add_real(r, "host.sim_seconds", &c->sim_seconds, "s", "host wall time spent simulating", &n));
    n = {nullptr, "gpgpu_simulation_rate", 1};
    ok(stat_add_derived(r, "host.thread_insn_rate", rate, &thread_rate, "instructions/s",
                        "simulated thread instructions per host second", &n));
    n = {nullptr, "gpgpu_simulation_rate_warp_insn", 1};
    ok(stat_add_derived(r, "host.warp_insn_rate", rate, &warp_rate, "instructions/s",
                        "simulated warp instructions per host second", &n));
    n = {nullptr, "gpgpu_simulation_rate_cycles", 1};
    ok(stat_add_derived(r, "host.cycle_rate", rate, &cycle_rate, "cycles/s",
                        "simulated core cycles per host second", &n));
    n = {nullptr, "gpgpu_silicon_slowdown", 1};
    ok(stat_add_derived(r, "host.silicon_slowdown", slowdown, c, "x",
                        "host time per simulated time at the core clock", &n));
    return bad ? -1 : 0;
}

} // namespace gtlm
