// Energy and power statistics (gpu.power.*, per SM / slice / channel / crossbar): the counts
// every block already keeps, mapped to energy by model/power/energy.h with the configuration's
// table, and the power-mode residency of every gated block.
#ifndef GTLM_TLM_POWER_STATS_H
#define GTLM_TLM_POWER_STATS_H

#include <deque>
#include <functional>
#include <string>
#include <vector>

extern "C" {
#include "cache/cache_core.h"
#include "gpu/gpu_config.h"
#include "linebacker/lb_energy.h"
#include "power/energy.h"
#include "stats/stats.h"
}

#include "wave/probe.h"

namespace gtlm {

// Waveform levels <prefix><mode>: how many blocks of the domain are in each power mode.
void observe_pm(ProbeList &out, const std::string &prefix, const pm_domain *d);
// <prefix>state: the 2-bit power mode (0 ON, 1 shallow, 2 sleep, 3 OFF) of a domain of one block under
// a policy (a cache gated at bank level: the thesis' per-bank state signal); nothing otherwise.
void observe_pm_state(ProbeList &out, const std::string &prefix, const pm_domain *d);
// <prefix>r<k>.state: the 2-bit modes of blocks 0 .. n-1 (a sample of per-block states) under a policy.
void observe_pm_sample(ProbeList &out, const std::string &prefix, const pm_domain *d, uint32_t n);
// <prefix>r<k>.countdown: Slumber's countdown of blocks 0 .. n-1 at the core cycle now() (rfp_countdown;
// -slumber_counter_bits wide, 0 when none runs) under a register-file policy.
void observe_rfp_countdown(ProbeList &out, const std::string &prefix, const pm_domain *d, uint32_t n,
                           std::function<uint64_t()> now);

// A power-mode domain's counters under prefix: <mode>_block_cycles, wakes, wake_cycles, lost,
// transition_energy. Returns 0 or -1.
int register_pm_stats(stat_registry *r, const std::string &prefix, pm_domain *d);
// Snooze's reservation queue of a cache (resq_overflows; only under snooze / snooze_destroy).
int register_resq_stats(stat_registry *r, const std::string &prefix, cache_core *c);

// A register-file policy's counters (Slumber, WRF: power/policy_slumber.h) under prefix
// (gpu.sm[i].power.reg.): fsm.<T>, stall.<access>_<mode>, stall_cycles.*, lost_reads, idle.*.
int register_rfp_stats(stat_registry *r, const std::string &prefix, pm_domain *d);

struct PowerBreakdown {
    double dyn[PWR_C_N] = {};  // pJ
    double stat[PWR_C_N] = {}; // pJ
    double dynamic() const;
    double leakage() const;
};

class PowerStats {
public:
    PowerStats(const gtlm_config &cfg, int n_sms, int n_slices);
    // Registers every energy statistic; call after every block registered its counters.
    int register_stats(stat_registry *r);

    // Energy of a scope: the whole GPU, or one unit (which: 's' SM, 'l' L2 slice, 'd' DRAM
    // channel, 'n' crossbar; index within its kind).
    PowerBreakdown gpu(const stat_registry *r, stat_scope scope) const;
    PowerBreakdown unit(const stat_registry *r, stat_scope scope, char which, int index) const;
    // The same for the running kernel after core_cycles of it (the time series: gpu.cycles is
    // only known at the kernel's end).
    PowerBreakdown unit_live(const stat_registry *r, char which, int index, double core_cycles) const;
    double seconds(const stat_registry *r, stat_scope scope) const;
    // Morpheus' controllers draw this fraction of the GPU's power (§7.5: 0.93%), charged to the L2
    // component of the GPU totals; 0 (the default) without Morpheus.
    void set_controller_frac(double f) { ctl_frac_ = f; morpheus_ = true; }
    // Morpheus (G24): energy of the dirty extended-LLC lines written back at the application's end
    // (run scope only; 0 without Morpheus): each line read out of its cache-mode SM, one packet to
    // the controller, one DRAM write with its activate and precharge.
    PowerBreakdown end_writebacks(const stat_registry *r, stat_scope scope) const;

    // Bits accessed in the SMs' technique tables (APRES) in a scope.
    double table_bits(const stat_registry *r, stat_scope s) const;
    // Linebacker's structures in a scope, all SMs (pJ per lb_energy_part; zeros without -lb_enable).
    void linebacker_pj(const stat_registry *r, stat_scope s, double *pj) const;

private:
    struct Ctx {
        const PowerStats *ps;
        int what; // see power_stats.cpp
        int comp;
        char which;
        int index;
    };
    // Ids of the statistics read (stat_find scans): resolved on first use and when more were added.
    void resolve(const stat_registry *r) const;
    pwr_time time(const stat_registry *r, stat_scope s) const;
    PowerBreakdown unit_at(const stat_registry *r, stat_scope s, char which, int i, const pwr_time &t) const;
    void sm_linebacker_pj(const stat_registry *r, stat_scope s, const int *id, double *pj) const;
    static double derive(const stat_registry *r, stat_scope scope, const void *ctx);
    mutable const stat_registry *resolved_for_ = nullptr;
    mutable int resolved_n_ = -1;
    mutable std::vector<std::vector<int>> sm_ids_, l2_ids_, dram_ids_;
    mutable int cycles_id_ = -1, flits_id_[3] = {-1, -1, -1}, ipc_id_ = -1, insn_id_ = -1, end_wb_id_ = -1;

    const gtlm_config &cfg_;
    int n_sms_, n_slices_;
    double ctl_frac_ = 0;
    bool morpheus_ = false;
    std::deque<Ctx> ctx_; // the derived statistics' contexts (a deque keeps their addresses)
};

} // namespace gtlm

#endif
