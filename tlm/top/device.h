// The device side the host API talks to: device memory, loaded modules and kernel launches.
// Functional launches run here directly; timing launches go through the GPU's modules.
#ifndef GTLM_TLM_DEVICE_H
#define GTLM_TLM_DEVICE_H

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "mem/dmem.h"
#include "ptx/ptxas_info.h"
#include "simt/simt.h"
#include "simt/simt_run.h"
#include "trace/trace_writer.h"
}

namespace gtlm {

// A loaded module; the C API's gtlm_module is this.
struct Module {
    simt_module sm{};
    std::string name;
    std::vector<ptxas_func> resources; // from the ptxas -v report, when attached
};

class Device;

// A launch made ready to run: the executor's launch record with its packed parameters.
struct PreparedLaunch {
    simt_launch l{};
    struct HookCtx {
        Device *dev = nullptr;
        Module *mod = nullptr;
    } hook{};
    PreparedLaunch() = default;
    PreparedLaunch(const PreparedLaunch &) = delete;
    PreparedLaunch &operator=(const PreparedLaunch &) = delete;
    ~PreparedLaunch() { std::free(l.params); }
};

struct LaunchResult {
    simt_run_stats stats{};
    double seconds = 0;
    double cpu_seconds = 0; // processor time of the process
};

// Observer of executed memory instructions (module, launch, warp, function, pc, accesses).
using MemHook = std::function<void(Module *, const simt_launch *, const simt_warp *, uint32_t func, uint32_t pc,
                                   const simt_mem_access *)>;

// Observer of every launch once its arguments are packed, before it runs (LocalityGuru).
using LaunchHook = std::function<void(Module *, const simt_launch *)>;

class Device {
public:
    Device();
    ~Device();
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;

    uint64_t malloc_bytes(uint64_t bytes);                 // throws Error
    void free_bytes(uint64_t ptr);                         // throws Error(EINVAL) for a bad pointer
    void copy_in(uint64_t dst, const void *src, uint64_t bytes);
    void copy_out(void *dst, uint64_t src, uint64_t bytes) ;
    void fill(uint64_t dst, int value, uint64_t bytes);

    Module *load_ptx(const std::string &text, const std::string &name, std::string *warnings);
    bool owns(const Module *m) const;
    void copy_to_symbol(Module *m, const std::string &symbol, const void *src, uint64_t bytes, uint64_t offset);
    uint64_t symbol_address(Module *m, const std::string &symbol);
    void set_ptxas_info(Module *m, const std::string &report);
    // Registers, shared memory, stack of a kernel; throws Error(ENOTFOUND) for an unknown kernel.
    void kernel_resources(Module *m, const std::string &kernel, unsigned *regs, unsigned *barriers,
                          uint64_t *shared, uint64_t *stack, uint64_t *params);

    // Checks the kernel and its launch shape and packs its parameters; throws Error.
    void prepare_launch(Module *m, const std::string &kernel, const unsigned grid[3], const unsigned block[3],
                        uint64_t dyn_shared, const void *const *args, const size_t *arg_sizes, size_t n_args,
                        uint32_t n_sms, PreparedLaunch &out);
    // Runs a prepared kernel functionally to completion (at most max_insn warp instructions, 0 =
    // no bound); throws Error(ESIM) with the failing instruction, warp, lane and address.
    LaunchResult launch_functional(Module *m, PreparedLaunch &p, uint64_t max_insn);

    // A launch that failed gives its grid id back (the next launch sees %gridid as without it).
    void undo_grid_id() { next_grid_id_--; }
    dmem *memory() { return &mem_; }
    void set_mem_hook(MemHook h) { mem_hook_ = std::move(h); }
    void set_launch_hook(LaunchHook h) { launch_hook_ = std::move(h); }
    // From now on every host-to-device copy and functional launch is written as an Accel-Sim
    // trace into dir (-gtlm_trace_out); throws Error(EIO) when dir cannot be written.
    void enable_trace(const std::string &dir, unsigned binary_version);
    const trace_writer *tracer() const { return trace_; }

private:
    void check_range(uint64_t addr, uint64_t bytes, const char *what);
    dmem mem_{};
    std::vector<std::unique_ptr<Module>> modules_;
    uint32_t next_grid_id_ = 1;
    MemHook mem_hook_;
    LaunchHook launch_hook_;
    trace_writer *trace_ = nullptr; // -gtlm_trace_out, owned
};

} // namespace gtlm

#endif
