// Trace-driven mode of the simulator (Simulator::run_trace): Accel-Sim traces through the same
// SMs, memory hierarchy and statistics as PTX-driven kernels.
#include <memory>

#include "top/simulator.h"
#include "top/trace_source.h"

namespace gtlm {

namespace {

struct OpcodeTable { // the run's opcode table, freed on every path
    trace_opcode_table t{};
    OpcodeTable() { trace_opcode_table_init(&t); }
    ~OpcodeTable() { trace_opcode_table_free(&t); }
};

struct CommandList {
    trace_cmd *cmds = nullptr;
    size_t n = 0;
    ~CommandList() { trace_list_free(cmds, n); }
};

} // namespace

Simulator::TraceRun Simulator::run_trace(const std::string &dir)
{
    if (cfg_.gpu.mode != GPU_MODE_TIMING)
        throw Error(GTLM_ST_EINVAL, "trace-driven runs need -gtlm_mode timing (a trace has no data to execute)");
    CommandList list;
    strbuf err;
    strbuf_init(&err);
    if (trace_list_read(dir.c_str(), &list.cmds, &list.n, &err) != 0) {
        std::string msg = strbuf_str(&err);
        strbuf_free(&err);
        throw Error(GTLM_ST_EINVAL, msg);
    }
    strbuf_free(&err);
    OpcodeTable ops;
    TraceRun run;
    uint64_t n_kernels = 0; // progress numbers the trace's kernels 1 .. n_kernels
    for (size_t i = 0; i < list.n; i++) n_kernels += list.cmds[i].kind != TRACE_CMD_MEMCPY_HTOD;
    kernel_base_ = progress_.kernel;
    for (size_t i = 0; i < list.n; i++) {
        const trace_cmd &c = list.cmds[i];
        if (c.kind == TRACE_CMD_MEMCPY_HTOD) {
            run.memcpys++;
            continue;
        }
        TraceKernelSource src(c.path, &ops.t, cfg_.trace.unknown_as_alu != 0);
        const trace_kernel_info &info = src.info();
        uint32_t threads = info.block[0] * info.block[1] * info.block[2];
        occ_result occ = fit(info.name, threads, info.nregs, info.shmem, 0);
        TraceKernelRun k;
        progress_.n_kernels = n_kernels;
        KernelRun r = run_timed(
            info.name, occ, [&] { return gpu_->run_trace_kernel(src.source(), info.grid, info.warps_per_tb, occ.ctas); },
            &k.seconds);
        k.name = info.name;
        k.file = c.path;
        k.cycles = r.cycles;
        k.warp_insn = r.warp_insn;
        k.ctas = r.ctas;
        k.kept = src.kept();
        if (!r.ok)
            throw Error(src.bad_input() ? GTLM_ST_EINVAL : GTLM_ST_ESIM, "trace kernel '" + std::string(info.name) + "' (" + c.path + "): " + r.error);
        run.kernels.push_back(k);
    }
    run.unknown_opcode_lines = trace_opcode_unknown_uses(&ops.t);
    for (uint32_t id = 0; id < trace_opcode_count(&ops.t); id++) {
        const trace_op_info *oi = trace_opcode_info(&ops.t, static_cast<int>(id));
        if (oi && oi->unknown) run.unknown_opcodes.push_back(trace_opcode_name(&ops.t, static_cast<int>(id)));
    }
    return run;
}

} // namespace gtlm
