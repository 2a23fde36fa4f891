#include "kernel/clock_domain.h"

#include "kernel/edge_runner.h"
#include "kernel/tick_pool.h"

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

void ClockDomain::wake_at(uint64_t cycle, Tickable *u)
{
    if (halted_) return;
    // The woken unit is asked again at the domain's next run, which may still be this very edge
    // when the domain has not ticked yet at the current time (then the input may already allow
    // work, e.g. an END_RESP that frees a port).
    if (u) u->hint_ = 0;
    else
        for (Tickable *t : units_) t->hint_ = 0;
    schedule(cycle);
}

void ClockDomain::schedule(uint64_t cycle)
{
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
        schedule(c + 1);
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
    // A unit whose hint lies after this edge has no work now: no call. The others are asked, ticked
    // when due, and asked again for their next edge below.
    // A hint equal to c (never 0: that means "ask") is next_work's own answer for this edge, given
    // after the unit's last change (a change since would have reset it), so the unit is due
    // without asking again (next_work(x) = h for every x up to its answer h).
    // With a pool, due units that split their tick are gathered and ticked together when the
    // next unit that does not split (or the end) is reached, so the order of everything else is
    // unchanged.
    for (Tickable *u : units_) {
        if (!u->poll_always_ && u->hint_ > c) continue;
        bool due = !u->poll_always_ && u->hint_ == c && c != 0;
        if (pool_ && u->splits_tick()) {
            if (due || u->next_work(c) <= c) batch_.push_back(u);
            else u->hint_ = 0;
            continue;
        }
        if (!batch_.empty()) flush(c);
        if (due || u->next_work(c) <= c) u->tick(c);
        u->hint_ = 0;
    }
    if (!batch_.empty()) flush(c);
    if (parallel_now_) parallel_edges_++;
    parallel_now_ = false;
    if (after_tick && !after_tick(c)) return;
    uint64_t next = kNever;
    for (Tickable *u : units_) {
        if (u->poll_always_ || u->hint_ <= c + 1) u->hint_ = u->next_work(c + 1);
        if (u->hint_ < next) next = u->hint_;
    }
    if (next != kNever) schedule(next);
}

void ClockDomain::flush(uint64_t c)
{
    if (batch_.size() >= min_batch_ && pool_->threads() > 1) {
        parallel_now_ = true;
        pool_->run(batch_.size(), [this, c](size_t i) { batch_[i]->tick_local(c, i); });
        for (Tickable *u : batch_) u->tick_commit(c);
    } else {
        for (Tickable *u : batch_) u->tick(c);
    }
    for (Tickable *u : batch_) u->hint_ = 0;
    batch_.clear();
}

} // namespace gtlm
