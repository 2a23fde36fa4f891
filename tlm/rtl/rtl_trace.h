// The RTL's own VCD: Verilator's tracing of every RTL block of a run into one second VCD next to
// the model's (-vcd_file F: F.rtl.vcd), in the model VCD's time unit (1 fs) and at the SystemC time
// of the cycle that drove the RTL, so both files line up in a viewer. Built with Verilator only.
//
// Why a second file: the model's VCD is SystemC's sc_trace_file, which takes only sc_trace'd
// variables; Verilator writes its own VCD of the Verilated hierarchy, with every internal signal.
// Merging them would mean mirroring each RTL signal into a SystemC variable (a copy per signal per
// sample). Verilator traces several models into one file only from one VerilatedContext, so the
// traced transactors share this object's context.
//
// Sampling: a transactor calls touch() before each op. Verilator's dump time must increase, and a
// block takes several ops in one model cycle, so the state of a time step is dumped when the next
// time step begins (and at the end): the values at time t are the RTL's after the model's cycle at t,
// as the model's VCD shows its units after the edge at t.
#ifndef GTLM_TLM_RTL_RTL_TRACE_H
#define GTLM_TLM_RTL_RTL_TRACE_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"
#include "verilated_vcd_c.h"

namespace gtlm {

class RtlTrace {
public:
    // The run's trace for the model VCD at vcd_file, created by the first caller; null without a VCD.
    static std::shared_ptr<RtlTrace> get(const char *vcd_file);
    explicit RtlTrace(const std::string &path);
    ~RtlTrace();
    VerilatedContext *context() { return ctx_.get(); }
    // Traces a model built in context() (before the first touch) and keeps it alive until the file closes.
    template <class M> void add(const std::shared_ptr<M> &m)
    {
        m->trace(&vcd_, 99);
        keep_.push_back(m);
    }
    void touch();

private:
    std::unique_ptr<VerilatedContext> ctx_;
    VerilatedVcdC vcd_;
    std::string path_;
    std::vector<std::shared_ptr<void>> keep_;
    bool open_ = false;
    uint64_t pending_ = 0;
    bool has_pending_ = false;
};

// A Verilated model of a transactor: in its own context, or in the run's RTL trace when a VCD is on.
template <class M> class RtlModel {
public:
    RtlModel(const char *vcd_file, const std::string &name) : trace_(RtlTrace::get(vcd_file))
    {
        if (!trace_) own_ = std::make_unique<VerilatedContext>();
        top_ = std::make_shared<M>(trace_ ? trace_->context() : own_.get(), name.c_str());
        if (trace_) trace_->add(top_);
    }
    M *operator->() { return top_.get(); }
    // Before an op changes the RTL's pins or state.
    void touch()
    {
        if (trace_) trace_->touch();
    }

private:
    std::shared_ptr<RtlTrace> trace_;
    std::unique_ptr<VerilatedContext> own_;
    std::shared_ptr<M> top_;
};

} // namespace gtlm

#endif
