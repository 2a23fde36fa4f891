// One SystemC process that ticks several clock domains at their edges in a fixed order.
//
// With one process per domain, domains sharing an edge would tick in whatever order SystemC's
// event queue yields, and that order can change when any other process adds an event (for
// instance the VCD tracer). Blocks exchange transactions synchronously inside ticks, so a few
// decisions (does a queue have room now, may a port send again) would then depend on it. The
// runner keeps the earliest edge any attached domain wants, and at each such time ticks every
// domain due then in attachment order, then calls after_edge.
#ifndef GTLM_TLM_EDGE_RUNNER_H
#define GTLM_TLM_EDGE_RUNNER_H

#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

#include "kernel/clock_domain.h"

namespace gtlm {

class EdgeRunner : public sc_core::sc_module {
public:
    explicit EdgeRunner(sc_core::sc_module_name name);

    // Ticks d through this runner from now on (attachment order = tick order at a shared edge).
    void attach(ClockDomain &d);
    // Run at time t (in the kernel's time resolution, > now): a domain or an observer wants it.
    void want(uint64_t t);
    // Called at every run after the due domains ticked (also when none was due).
    std::function<void()> after_edge;

private:
    void run();
    std::vector<ClockDomain *> domains_;
    sc_core::sc_event ev_;
    uint64_t pending_ = kNever; // time of the next run
};

} // namespace gtlm

#endif
