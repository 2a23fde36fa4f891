#include "kernel/edge_runner.h"

namespace gtlm {

EdgeRunner::EdgeRunner(sc_core::sc_module_name name) : sc_core::sc_module(name)
{
    SC_HAS_PROCESS(EdgeRunner);
    SC_METHOD(run);
    sensitive << ev_;
    dont_initialize();
}

void EdgeRunner::attach(ClockDomain &d)
{
    domains_.push_back(&d);
    d.attach(this);
}

void EdgeRunner::want(uint64_t t)
{
    if (t >= pending_) return;
    pending_ = t;
    ev_.notify(sc_core::sc_time::from_value(t - sc_core::sc_time_stamp().value()));
}

void EdgeRunner::run()
{
    uint64_t now = sc_core::sc_time_stamp().value();
    pending_ = kNever;
    for (ClockDomain *d : domains_) {
        uint64_t c = d->scheduled();
        if (c != kNever && c * d->period().value() == now) d->tick_edge(c);
    }
    if (after_edge) after_edge();
    // Domains ticked above asked for their next edges through want(); those that did not tick
    // keep theirs.
    for (ClockDomain *d : domains_) {
        uint64_t c = d->scheduled();
        if (c != kNever) want(c * d->period().value());
    }
}

} // namespace gtlm
