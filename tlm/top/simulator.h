// One simulated GPU: its configuration, its SystemC context and modules, and its statistics.
// The C API is a thin shell over this class; everything here may throw.
#ifndef GTLM_TLM_SIMULATOR_H
#define GTLM_TLM_SIMULATOR_H

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include "common/status.h"
#include "config/opt.h"
#include "gpu/gpu_config.h"
#include "log/log.h"
#include "sm/occupancy.h"
#include "stats/stats.h"
}

#include "kernel/error.h"
#include "kernel/sc_context.h"
#include "top/device.h"
#include "top/gpu_stats.h"
#include "top/gpu_top.h"

namespace gtlm {

struct SimSetup {
    std::vector<std::string> config_files;
    std::vector<std::string> overrides; // "-name", "value", ...
    bool gpgpusim_compat = false;
};

// L1 outcomes of one static load over every SM (gtlm_load_pc_stat).
struct LoadPcRecord {
    std::string kernel, function;
    uint32_t pc = 0, line = 0;
    uint64_t accesses = 0, hits = 0, misses = 0, merged = 0;
};

class Simulator {
public:
    explicit Simulator(const SimSetup &setup); // throws Error(GTLM_ST_ECONFIG, every problem)
    ~Simulator();
    Simulator(const Simulator &) = delete;
    Simulator &operator=(const Simulator &) = delete;

    const opt_registry &options() const { return reg_; }
    const gtlm_config &config() const { return cfg_; }
    const std::string &warnings() const { return warnings_; }
    const stat_registry *stats() const { return stats_; }
    const log_sink &log() const { return log_; }

    // A one-screen summary of the configuration (what the main job prints before running).
    std::string summary() const;

    Device &device() { return device_; }
    Gpu &gpu() { return *gpu_; }
    const std::vector<LoadPcRecord> &load_pcs() const { return load_pcs_; }
    // Runs a kernel in the configured mode, with statistics per kernel; throws Error.
    void launch(Module *m, const std::string &kernel, const unsigned grid[3], const unsigned block[3],
                uint64_t dyn_shared, const void *const *args, const size_t *arg_sizes, size_t n_args);

    // Trace-driven mode: runs every command of DIR/kernelslist.g (memory copies carry no data a
    // trace needs; kernels run on the timing model), statistics per kernel as launch() keeps
    // them. Throws Error: a malformed trace with its file:line, a kernel that fails.
    struct TraceKernelRun {
        std::string name, file;
        uint64_t cycles = 0, warp_insn = 0, ctas = 0;
        double seconds = 0;
        size_t kept = 0; // thread blocks read ahead of their dispatch
    };
    struct TraceRun {
        std::vector<TraceKernelRun> kernels;
        uint64_t memcpys = 0, unknown_opcode_lines = 0;
        std::vector<std::string> unknown_opcodes;
    };
    TraceRun run_trace(const std::string &dir);

    // Progress of the kernel in flight (gtlm_set_progress_callback): reported every `every` core
    // cycles of a timing-mode kernel and once when any kernel finishes (done, its statistics
    // closed). Reporting only reads counters: statistics are the same with or without it.
    struct Progress {
        uint64_t kernel = 0, n_kernels = 0; // 1-based; n_kernels 0 when unknown (single launches)
        std::string name;
        uint64_t cycles = 0, warp_insn = 0, total_cycles = 0, total_warp_insn = 0;
        bool done = false;
    };
    using ProgressFn = std::function<void(const Progress &)>;
    void set_progress(uint64_t every, ProgressFn report);

private:
    void report_progress(uint64_t cycles, uint64_t warp_insn, bool done);
    ProgressFn progress_fn_;
    uint64_t progress_every_ = 1;
    Progress progress_;
    uint64_t kernel_base_ = 0; // launches before the trace in progress (its kernels count from 1)
    occ_result occupancy(Module *m, const std::string &kernel, const simt_launch &l);
    KernelRun run_timed(const std::string &kernel, const occ_result &occ, const std::function<KernelRun()> &run,
                        double *seconds);
    occ_result fit(const std::string &kernel, uint32_t threads, unsigned regs, uint64_t shared, uint64_t dyn_shared);
    void collect_load_pcs(const std::string &kernel, const simt_launch &l);
    // After a failed timing-mode kernel: drops its statistics and rebuilds the GPU's modules in a
    // fresh SystemC context, so the next launch starts as on a new simulator (see gtlm.h).
    void recover();
    uint64_t functional_budget() const;
    std::string functional_limit_message(const std::string &msg, uint64_t budget) const;
    void build_gpu(bool outputs);
    std::vector<LoadPcRecord> load_pcs_;
    opt_registry reg_{};
    gtlm_config cfg_{};
    std::string warnings_;
    stat_registry *stats_ = nullptr;
    log_sink log_{};
    GpuCounters counters_;
    std::unique_ptr<ScContext> sc_;
    std::unique_ptr<Gpu> gpu_;
    std::string unusable_; // why the GPU could not be rebuilt after a failure (launches then fail)
    Device device_; // after the stats and config it reads; destroyed before them
};

} // namespace gtlm

#endif
