// A kernel trace (.traceg) feeding the SMs' trace-driven CTAs: thread blocks are read in file
// order; one the dispatcher asks for before its turn is found by reading on and keeping the
// blocks passed over (with in-order dispatch, LRR, nothing is kept). Memory holds the resident
// blocks and the kept ones, never the whole trace.
#ifndef GTLM_TLM_TRACE_SOURCE_H
#define GTLM_TLM_TRACE_SOURCE_H

#include <cstdint>
#include <map>
#include <string>

extern "C" {
#include "sm/sm_core.h"
#include "trace/trace_reader.h"
}

namespace gtlm {

class TraceKernelSource {
public:
    // Opens the kernel trace; throws Error(GTLM_ST_EINVAL) with the reader's file:line message.
    TraceKernelSource(const std::string &path, trace_opcode_table *ops, bool unknown_as_alu);
    ~TraceKernelSource();
    TraceKernelSource(const TraceKernelSource &) = delete;
    TraceKernelSource &operator=(const TraceKernelSource &) = delete;

    const trace_kernel_info &info() const { return *trace_kernel_info_of(k_); }
    const sm_trace_source &source() const { return src_; }
    size_t kept() const { return kept_.size(); } // blocks read ahead of their dispatch
    // A thread block could not be read (a malformed body, a missing block): bad input, not a
    // simulation failure, so it is reported like a bad header.
    bool bad_input() const { return bad_input_; }

private:
    static int get_tb(void *ctx, const uint32_t ctaid[3], trace_tb *tb, strbuf *err);
    uint64_t linear(const uint32_t id[3]) const;
    trace_kernel *k_ = nullptr;
    sm_trace_source src_{};
    std::map<uint64_t, trace_tb> kept_;
    bool bad_input_ = false;
};

} // namespace gtlm

#endif
