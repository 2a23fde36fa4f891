// The GPU's top SystemC module: the four clock domains (core, interconnect, L2, DRAM), the SMs,
// the crossbar, the L2 slices and the DRAM channels, bound with AT sockets:
//   sm[i].sm2icnt_req -> icnt.from_sm[i];  icnt.to_l2[j] -> l2[j].icnt2l2_req;
//   l2[j].l22dram_req -> dram[j / slices_per_channel].from_l2[j % slices_per_channel]
// (responses return on the same links). With -gtlm_check_protocol 1 a base-protocol checker sits
// on every link. It runs one kernel launch at a time in timing mode (run_kernel).
#ifndef GTLM_TLM_GPU_TOP_H
#define GTLM_TLM_GPU_TOP_H

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

extern "C" {
#include "analysis/locality_refs.h"
#include "dram/dram_addr.h"
#include "gpu/gpu_config.h"
#include "log/log.h"
#include "simt/simt.h"
#include "stats/stats.h"
}

#include "kernel/clock_domain.h"
#include "kernel/edge_runner.h"
#include "top/cta_dispatch.h"
#include "top/timeseries.h"

namespace gtlm {

class SmModule;
class Icnt;
class L2Slice;
class DramChannel;
class ProtocolChecker;
class VcdTracer;
class PowerStats;
class CbwtGlue;
class Morpheus;

struct KernelRun {
    bool ok = true;
    std::string error;       // what stopped the kernel, with the stuck units' state for a watchdog stop
    bool functional_fault = false; // the kernel itself failed (bad address, trap)
    uint64_t cycles = 0;     // core cycles from launch to completion
    uint64_t warp_insn = 0, thread_insn = 0, ctas = 0;
    double jit_seconds = 0;  // PAVER's host-side locality graph and partitioning
    tbsched_counters sched{}; // the TB scheduler's counts (PAVER's stealing and nextTB fetches)
    // SM idle cycles at the kernel tail: per SM that ran a CTA, cycles from its last CTA's end to
    // the kernel's last cycle, summed over SMs and the largest of them.
    uint64_t tail_idle_sum = 0, tail_idle_max = 0;
    // PAVER's locality graph (0 without one): TBs, n^2, non-zeros (both triangles), TBs sharing.
    uint64_t graph_tbs = 0, graph_cells = 0, graph_nonzeros = 0, shared_tbs = 0;
    lg_ref_breakdown refs{}; // -gtlm_tb_graph_refs: Fig. 3.2's categories of the global reads
};

class Gpu : public sc_core::sc_module {
public:
    // outputs: open the VCD and time-series files the configuration names (false for a GPU
    // rebuilt after a failed launch, which must not overwrite them).
    Gpu(sc_core::sc_module_name name, const gtlm_config &cfg, const log_sink &log, stat_registry *stats,
        bool outputs = true);
    ~Gpu() override;

    const sc_core::sc_time &core_period() const { return core_.period(); }
    const sc_core::sc_time &icnt_period() const { return icnt_.period(); }
    const sc_core::sc_time &l2_period() const { return l2_.period(); }
    const sc_core::sc_time &dram_period() const { return dram_.period(); }

    // Runs a prepared launch to completion (ctas_per_sm from the occupancy calculation).
    // regs_per_thread: the kernel's ptxas register count (0: unknown), which places CTAs in the register file.
    KernelRun run_kernel(const simt_launch &l, uint32_t ctas_per_sm, uint32_t regs_per_thread = 0);
    // Runs a trace-driven kernel to completion: CTAs of grid from src, warps_per_cta each.
    KernelRun run_trace_kernel(const sm_trace_source &src, const uint32_t grid[3], uint32_t warps_per_cta,
                               uint32_t ctas_per_sm);

    int n_sms() const { return static_cast<int>(sms_.size()); }
    SmModule &sm(int i) { return *sms_[static_cast<size_t>(i)]; }
    const SmModule &sm(int i) const { return *sms_[static_cast<size_t>(i)]; }
    int n_l2() const { return static_cast<int>(l2s_.size()); }
    L2Slice &l2(int j) { return *l2s_[static_cast<size_t>(j)]; }
    const L2Slice &l2(int j) const { return *l2s_[static_cast<size_t>(j)]; }
    int n_dram() const { return static_cast<int>(drams_.size()); }
    const DramChannel &dram(int c) const { return *drams_[static_cast<size_t>(c)]; }
    const Icnt &icnt() const { return *icnt_mod_; }
    Icnt &icnt_mut() { return *icnt_mod_; }
    // CBWT's detectors and controller (null unless -cbwt_ctrl or -cbwt_stats).
    const CbwtGlue *cbwt() const { return cbwt_.get(); }
    double core_mhz() const { return cfg_.gpu.clocks.core_mhz; }
    double dram_mhz() const { return cfg_.gpu.clocks.dram_mhz; }
    // Ticks u with the core clock's units from now on: a seam for tests (a unit that keeps
    // ticking without progress, which the watchdog must stop).
    void add_core_unit(Tickable &u) { core_.add(&u); }
    // Brings time-integrated statistics up to the current time (before a kernel's statistics
    // are opened or closed).
    void sync_stats();
    // Every domain's units' descriptions (the watchdog's dump).
    std::string describe_busy() const;
    // Calls report(kernel cycles so far, warp instructions so far) at the first core tick at or
    // after every `every` cycles of a running kernel (null report: none). It only reads counters.
    using ProgressFn = std::function<void(uint64_t cycles, uint64_t warp_insn)>;
    void set_progress(uint64_t every, ProgressFn report)
    {
        progress_every_ = every ? every : 1;
        progress_fn_ = std::move(report);
    }
    // Warps waiting at barriers, one line per CTA; empty when none waits.
    std::string describe_barriers() const;
    // The VCD tracer when -vcd_file is set (else null).
    const VcdTracer *vcd() const { return vcd_.get(); }
    // -gtlm_threads after the forced cases (1: sequential), and core edges ticked on the pool.
    int threads() const;
    uint64_t parallel_edges() const { return core_.parallel_edges(); }
    // The energy statistics (null without a statistics registry).
    const PowerStats *power() const { return power_.get(); }
    const stat_registry *stats() const { return stats_; }
    // Mode of SM i for the run (sm_mode of model/llc/sm_modes.h: compute, cache, gated).
    int sm_mode(int i) const { return sm_modes_[static_cast<size_t>(i)]; }
    // The Morpheus controllers and extended LLC (null without cache-mode SMs).
    const Morpheus *morpheus() const { return morpheus_.get(); }

private:
    KernelRun run(const uint32_t grid[3], uint32_t ctas_per_sm, const std::function<int(sm_core &)> &begin,
                  const struct lg_graph *graph = nullptr);
    bool watch(uint64_t cycle, bool core_edge);
    void open_vcd();
    void start_threads(stat_registry *stats);
    void abort_run(const std::string &why);
    std::vector<ClockDomain *> domains();
    void resolve_sm_modes(int n_sms);
    std::vector<uint8_t> sm_modes_;
    const gtlm_config &cfg_;
    logger log_;
    ClockDomain core_, icnt_, l2_, dram_;
    EdgeRunner runner_; // ticks the four domains in this order at shared edges
    std::unique_ptr<class TickPool> tick_pool_; // -gtlm_threads > 1: ticks the SMs of a core edge
    dram_addr_map map_{};
    std::vector<std::unique_ptr<SmModule>> sms_;
    std::unique_ptr<Icnt> icnt_mod_;
    std::vector<std::unique_ptr<L2Slice>> l2s_;
    std::vector<std::unique_ptr<DramChannel>> drams_;
    std::unique_ptr<Morpheus> morpheus_; // after the slices: detaches from them first
    std::vector<std::unique_ptr<ProtocolChecker>> checkers_;
    CtaDispatcher dispatcher_;
    TimeSeries ts_;
    std::unique_ptr<VcdTracer> vcd_;
    std::unique_ptr<PowerStats> power_;
    std::unique_ptr<CbwtGlue> cbwt_;
    stat_registry *stats_ = nullptr;
    void power_modes(uint64_t core_cycle, bool begin); // kernel start / end of every power-mode domain
    // the run in progress
    bool running_ = false, aborted_ = false;
    std::string abort_why_;
    uint64_t start_cycle_ = 0, last_progress_ = 0, last_progress_cycle_ = 0, insn_ = 0;
    uint64_t last_work_ = 0, last_work_cycle_ = 0; // the livelock watchdog: work of warps that do not spin
    ProgressFn progress_fn_;
    uint64_t progress_every_ = 1, next_report_ = 0;
    std::vector<uint64_t> ctas_seen_, cta_done_at_; // per SM: CTAs done so far, cycle of the last
};

} // namespace gtlm

#endif
