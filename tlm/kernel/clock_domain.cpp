#include "kernel/clock_domain.h"

#include "kernel/edge_runner.h"

namespace gtlm {

ClockDomain::ClockDomain(sc_core::sc_module_name name, const sc_core::sc_time &period)
    : sc_core::sc_module(name), period_(period), period_units_(period.value())
{
    if (period_units_ == 0) period_units_ = 1;
    SC_HAS_PROCESS(ClockDomain);
    SC_METHOD(run);
    sensitive << ev_;
    dont_initialize();
}

uint64_t ClockDomain::next_edge() const
{
    return sc_core::sc_time_stamp().value() / period_units_ + 1;
}

uint64_t ClockDomain::edge_at_or_after(const sc_core::sc_time &t) const
{
    uint64_t v = t.value();
    return (v + period_units_ - 1) / period_units_;
}

void ClockDomain::wake_at(uint64_t cycle)
{
    if (halted_) return;
    uint64_t first = next_edge();
    if (cycle < first) cycle = first;
    if (scheduled_ <= cycle) return;
    scheduled_ = cycle;
    if (runner_) {
        runner_->want(cycle * period_units_);
        return;
    }
    uint64_t now = sc_core::sc_time_stamp().value();
    ev_.notify(sc_core::sc_time::from_value(cycle * period_units_ - now));
}

void ClockDomain::run()
{
    if (halted_) return;
    uint64_t now = sc_core::sc_time_stamp().value();
    uint64_t c = now / period_units_;
    scheduled_ = kNever;
    if (c * period_units_ != now) { // not on an edge (cannot happen with wake_at); realign
        wake_at(c + 1);
        return;
    }
    tick_edge(c);
}

void ClockDomain::tick_edge(uint64_t c)
{
    if (halted_) return;
    scheduled_ = kNever;
    cycle_ = c;
    ticks_++;
    for (Tickable *u : units_)
        if (u->next_work(c) <= c) u->tick(c);
    if (after_tick && !after_tick(c)) return;
    uint64_t next = kNever;
    for (Tickable *u : units_) {
        uint64_t w = u->next_work(c + 1);
        if (w < next) next = w;
    }
    if (next != kNever) wake_at(next);
}

} // namespace gtlm
