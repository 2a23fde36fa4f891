#include "gpu_stats.h"

#include <string>

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

// A property of the last kernel, not a count: the same in both scopes.
double last_ctas_per_sm(const stat_registry *, stat_scope, const void *ctx)
{
    return static_cast<double>(static_cast<const GpuCounters *>(ctx)->ctas_per_sm);
}

const char *const kFailReasons[] = {"line_alloc", "mshr_entry", "mshr_merge", "miss_queue"};

std::string total_path(const void *level, const char *leaf)
{
    return std::string("gpu.") + static_cast<const char *>(level) + "." + leaf;
}

// Reservation failures of a cache level, every reason (ctx: the level, "l1d" or "l2").
double res_fails(const stat_registry *r, stat_scope scope, const void *level)
{
    double sum = 0;
    for (const char *why : kFailReasons) {
        double v = 0;
        if (!stat_get(r, total_path(level, (std::string("res_fail_") + why).c_str()).c_str(), scope, &v)) sum += v;
    }
    return sum;
}

// GPGPU-Sim's accesses: hits, merges (pending hits) and misses; tag lookups that failed are not accesses.
double accepted(const stat_registry *r, stat_scope scope, const void *level)
{
    double lookups = 0;
    if (stat_get(r, total_path(level, "accesses").c_str(), scope, &lookups)) return 0;
    return lookups - res_fails(r, scope, level);
}

// The GPGPU-Sim-named totals of one cache level: level "l1d"/"l2", gname "L1D"/"L2", unit_pat the
// per-unit prefix ("gpu.sm[*].l1d."), where the text to put in descriptions.
int add_cache_totals(stat_registry *r, const char *level, const char *gname, const char *unit_pat, const char *where)
{
    int bad = 0;
    auto ok = [&bad](int id) { bad |= id < 0; };
    const std::string g = gname, w = where;
    auto path = [level](const char *leaf) { return total_path(level, leaf); };
    stat_names n{nullptr, nullptr, 0};
    for (const char *why : kFailReasons) {
        std::string leaf = std::string("res_fail_") + why;
        ok(stat_add_sum(r, path(leaf.c_str()).c_str(), (unit_pat + leaf).c_str(), "attempts",
                        ("reservation failures (" + std::string(why) + "), " + w).c_str(), &n));
    }
    std::string name = g + "_total_cache_reservation_fails";
    n = {nullptr, name.c_str(), 0};
    ok(stat_add_derived(r, path("reservation_fails").c_str(), res_fails, level, "attempts",
                        ("tag lookups the cache refused (retried later), every reason, " + w).c_str(), &n));
    name = g + "_total_cache_accesses";
    n = {nullptr, name.c_str(), 0};
    ok(stat_add_derived(r, path("accepted").c_str(), accepted, level, "accesses",
                        ("accesses with an outcome (hit, pending hit, miss); reservation failures excluded, " + w)
                            .c_str(),
                        &n));
    name = g + "_total_cache_misses";
    n = {nullptr, name.c_str(), 0};
    ok(stat_add_sum(r, path("misses").c_str(), (unit_pat + std::string("misses")).c_str(), "accesses",
                    ("misses (sector misses included), " + w).c_str(), &n));
    name = g + "_total_cache_miss_rate";
    n = {nullptr, name.c_str(), 0};
    ok(stat_add_ratio(r, path("miss_rate").c_str(), path("misses").c_str(), path("accepted").c_str(), "ratio",
                      ("misses per accepted access, " + w).c_str(), &n));
    name = g + "_total_cache_pending_hits";
    n = {nullptr, name.c_str(), 0};
    ok(stat_add_sum(r, path("hit_reserved").c_str(), (unit_pat + std::string("hit_reserved")).c_str(), "accesses",
                    ("accesses merged into a pending miss (MSHR merges), " + w).c_str(), &n));
    return bad ? -1 : 0;
}

// PAVER's SpScore (thesis Table 3.2): 1 - non-zeros / n^2 of the locality graphs (0 without one).
double spscore(const stat_registry *r, stat_scope scope, const void *)
{
    double nz = 0, cells = 0;
    if (stat_get(r, "tbsched.graph_nonzeros", scope, &nz) || stat_get(r, "tbsched.graph_cells", scope, &cells) ||
        cells <= 0)
        return 0;
    return 1.0 - nz / cells;
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
    n = {nullptr, "gpgpu_n_tot_w_icount", 0};
    ok(stat_add_counter(r, "gpu.warp_insn", &c->warp_insn, "instructions", "warp instructions issued", &n));
    n = {nullptr, nullptr, 0}; // GPGPU-Sim prints CTAs issued (gpu_tot_issued_cta), not completed
    ok(stat_add_counter(r, "gpu.ctas", &c->ctas, "CTAs", "thread blocks completed", &n));
    n = {"gpu_ipc", "gpu_tot_ipc", 0};
    ok(stat_add_ratio(r, "gpu.ipc", "gpu.thread_insn", "gpu.cycles", "instructions/cycle",
                      "thread instructions per core cycle", &n));
    n = {nullptr, nullptr, 0};
    ok(stat_add_ratio(r, "gpu.warp_ipc", "gpu.warp_insn", "gpu.cycles", "instructions/cycle",
                      "warp instructions per core cycle", &n));

    // Totals over every SM's L1 data cache and every L2 slice. gtlm's `accesses` are tag lookups,
    // failed ones included; GPGPU-Sim's *_total_cache_accesses leave reservation failures out and
    // print them apart, so those names go to `accepted` and `reservation_fails`.
    n = {nullptr, nullptr, 0};
    ok(stat_add_sum(r, "gpu.l1d.accesses", "gpu.sm[*].l1d.accesses", "accesses",
                    "L1 data cache tag lookups, reservation failures (retried) included, all SMs", &n));
    ok(add_cache_totals(r, "l1d", "L1D", "gpu.sm[*].l1d.", "L1 data caches, all SMs"));
    ok(stat_add_sum(r, "gpu.l2.accesses", "gpu.l2[*].accesses", "accesses",
                    "L2 tag lookups, reservation failures (retried) included, all slices", &n));
    ok(add_cache_totals(r, "l2", "L2", "gpu.l2[*].", "L2, all slices"));

    n = {nullptr, nullptr, 0};
    ok(stat_add_derived(r, "gpu.ctas_per_sm", last_ctas_per_sm, c, "CTAs",
                        "occupancy: CTAs resident per SM at most, of the last kernel (timing mode)", &n));
    // Issue-slot use and the stall breakdown over every SM's schedulers.
    ok(stat_add_sum(r, "gpu.issue_slots", "gpu.sm[*].issue_slots", "slots", "scheduler cycles, all SMs", &n));
    static const char *const reasons[] = {"issued", "idle", "memory", "scoreboard", "barrier", "functional_unit",
                                          "throttled"};
    for (const char *why : reasons) {
        std::string path = std::string("gpu.stall.") + why;
        std::string pat = std::string("gpu.sm[*].stall.") + why;
        ok(stat_add_sum(r, path.c_str(), pat.c_str(), "slots", "scheduler cycles by outcome, all SMs", &n));
    }
    ok(stat_add_ratio(r, "gpu.issue_utilization", "gpu.stall.issued", "gpu.issue_slots", "ratio",
                      "share of scheduler cycles that issued an instruction", &n));
    ok(stat_add_sum(r, "gpu.active_warps_sum", "gpu.sm[*].active_warps_sum", "warp-cycles", "resident warps summed", &n));
    ok(stat_add_sum(r, "gpu.sm_cycles", "gpu.sm[*].cycles", "cycles", "SM cycles with a CTA resident, all SMs", &n));
    ok(stat_add_ratio(r, "gpu.avg_active_warps", "gpu.active_warps_sum", "gpu.sm_cycles", "warps",
                      "average resident warps per active SM cycle (achieved occupancy)", &n));
    ok(stat_add_sum(r, "gpu.load_latency_sum", "gpu.sm[*].load_latency_sum", "cycles", "global/local load latency summed", &n));
    ok(stat_add_sum(r, "gpu.load_latency_n", "gpu.sm[*].load_latency_n", "instructions", "global/local loads", &n));
    ok(stat_add_ratio(r, "gpu.avg_load_latency", "gpu.load_latency_sum", "gpu.load_latency_n", "cycles",
                      "average issue-to-data latency of global/local load instructions", &n));
    ok(stat_add_sum(r, "gpu.mem_latency_sum", "gpu.sm[*].mem_latency_sum", "cycles", "request round trips summed", &n));
    ok(stat_add_sum(r, "gpu.mem_latency_n", "gpu.sm[*].mem_latency_n", "requests", "requests with a response", &n));
    ok(stat_add_ratio(r, "gpu.avg_mem_latency", "gpu.mem_latency_sum", "gpu.mem_latency_n", "cycles",
                      "average SM-to-memory-and-back latency of a request", &n));
    n = {nullptr, nullptr, 0};
    // DRAM over every channel.
    for (const char *leaf : {"reads", "writes", "row_hits", "row_misses", "row_conflicts", "bus_busy_cycles", "cycles"}) {
        std::string path = std::string("gpu.dram.") + leaf;
        std::string pat = std::string("gpu.dram[*].") + leaf;
        ok(stat_add_sum(r, path.c_str(), pat.c_str(), leaf[0] == 'b' || leaf[0] == 'c' ? "cycles" : "requests",
                        "summed over every DRAM channel", &n));
    }
    // GPGPU-Sim counts DRAM reads and writes per column command (a burst), not per request.
    n = {nullptr, "gpgpu_n_dram_reads", 0};
    ok(stat_add_sum(r, "gpu.dram.read_bursts", "gpu.dram[*].read_bursts", "commands",
                    "DRAM RD commands (bursts), all channels", &n));
    n = {nullptr, "gpgpu_n_dram_writes", 0};
    ok(stat_add_sum(r, "gpu.dram.write_bursts", "gpu.dram[*].write_bursts", "commands",
                    "DRAM WR commands (bursts), write-backs included, all channels", &n));
    n = {nullptr, "gpgpu_n_dram_activate", 0};
    ok(stat_add_sum(r, "gpu.dram.activates", "gpu.dram[*].activates", "commands", "DRAM ACT commands, all channels",
                    &n));
    n = {nullptr, nullptr, 0};
    ok(stat_add_ratio(r, "gpu.dram.bandwidth_utilization", "gpu.dram.bus_busy_cycles", "gpu.dram.cycles", "ratio",
                      "share of DRAM data-bus cycles carrying data, all channels (1 = peak bandwidth)", &n));
    ok(stat_add_sum(r, "gpu.dram.accesses", "gpu.dram[*].completed", "requests", "DRAM requests completed", &n));
    ok(stat_add_ratio(r, "gpu.dram.row_hit_rate", "gpu.dram.row_hits", "gpu.dram.accesses", "ratio",
                      "DRAM requests whose first command was a column command", &n));

    // The TB scheduler (docs/paver.md).
    n = {nullptr, nullptr, 0};
    ok(stat_add_counter(r, "tbsched.stolen_tbs", &c->stolen_tbs, "CTAs", "CTAs PAVER's task stealing moved", &n));
    ok(stat_add_counter(r, "tbsched.steal_events", &c->steal_events, "events", "PAVER task-stealing events", &n));
    ok(stat_add_counter(r, "tbsched.fetch_stalls", &c->fetch_stalls, "asks",
                        "asks of an SM with a free CTA slot refused while its nextTB id was fetched (PAVER)", &n));
    ok(stat_add_counter(r, "tbsched.tail_idle_cycles", &c->tail_idle_sum, "cycles",
                        "SM idle cycles at the kernel tail: from an SM's last CTA end to the kernel end, summed "
                        "over the SMs that ran a CTA", &n));
    ok(stat_add_counter(r, "tbsched.tail_idle_max", &c->tail_idle_max, "cycles",
                        "the longest of those tails (summed over kernels)", &n));
    ok(stat_add_counter(r, "tbsched.graph_tbs", &c->graph_tbs, "TBs", "TBs of PAVER's locality graphs", &n));
    ok(stat_add_counter(r, "tbsched.shared_tbs", &c->shared_tbs, "TBs",
                        "TBs sharing at least one reference with another TB (Table 3.2's shared TBs)", &n));
    ok(stat_add_counter(r, "tbsched.graph_nonzeros", &c->graph_nonzeros, "elements",
                        "non-zero elements of the locality graphs (both triangles)", &n));
    ok(stat_add_counter(r, "tbsched.graph_cells", &c->graph_cells, "elements", "n^2 of the locality graphs", &n));
    ok(stat_add_counter(r, "tbsched.refs_accesses", &c->refs_accesses, "accesses",
                        "global read lane accesses classified (-gtlm_tb_graph_refs 1; else 0)", &n));
    ok(stat_add_counter(r, "tbsched.refs_unshared", &c->refs_unshared, "accesses",
                        "of them, to a granule only one warp of one TB reads (Fig. 3.2)", &n));
    ok(stat_add_counter(r, "tbsched.refs_intra_tb", &c->refs_intra, "accesses",
                        "of them, to a granule several warps of one TB read, no other TB (Fig. 3.2)", &n));
    ok(stat_add_counter(r, "tbsched.refs_inter_tb", &c->refs_inter, "accesses",
                        "of them, to a granule several TBs read, one warp each (Fig. 3.2)", &n));
    ok(stat_add_counter(r, "tbsched.refs_intra_inter_tb", &c->refs_both, "accesses",
                        "of them, to a granule several TBs read, several warps in one at least (Fig. 3.2)", &n));
    ok(stat_add_derived(r, "tbsched.spscore", spscore, nullptr, "ratio",
                        "SpScore (Table 3.2): 1 - non-zeros / n^2 of the locality graphs (0 without one)", &n));

    // Host-side figures: wall time and simulation speed (not deterministic by nature).
    n = {nullptr, "gpgpu_simulation_time", 1};
    ok(stat_add_real(r, "host.sim_seconds", &c->sim_seconds, "s", "host wall time spent simulating", &n));
    n = {nullptr, nullptr, 1};
    ok(stat_add_real(r, "host.sim_cpu_seconds", &c->sim_cpu_seconds, "s",
                     "host processor time spent simulating, every thread of the process", &n));
    ok(stat_add_real(r, "host.jit_seconds", &c->jit_seconds, "s",
                     "host wall time of PAVER's JIT step: locality graph and TB partitioning (0 without PAVER)", &n));
    n = {nullptr, "gpgpu_simulation_rate", 1};
    ok(stat_add_derived(r, "host.thread_insn_rate", rate, &thread_rate, "instructions/s",
                        "simulated thread instructions per host second", &n));
    n = {nullptr, nullptr, 1}; // no GPGPU-Sim name: it prints no warp-instruction rate
    ok(stat_add_derived(r, "host.warp_insn_rate", rate, &warp_rate, "instructions/s",
                        "simulated warp instructions per host second", &n));
    n = {nullptr, nullptr, 1}; // GPGPU-Sim prints this as a second gpgpu_simulation_rate line
    ok(stat_add_derived(r, "host.cycle_rate", rate, &cycle_rate, "cycles/s",
                        "simulated core cycles per host second", &n));
    n = {nullptr, "gpgpu_silicon_slowdown", 1};
    ok(stat_add_derived(r, "host.silicon_slowdown", slowdown, c, "x",
                        "host time per simulated time at the core clock", &n));
    return bad ? -1 : 0;
}

} // namespace gtlm
