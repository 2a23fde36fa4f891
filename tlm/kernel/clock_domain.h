// A clock domain: one SC_METHOD that ticks the domain's units on its clock edges, and only when
// some unit has work (DESIGN.md §3: idle skipping). Edge k is at time k * period.
//
// A unit says when it next needs a tick (next_work); an input arriving from another block makes
// its receiver call wake_at(next_edge()) so the domain ticks again. Inputs arriving at time t are
// visible from the first edge strictly after t, whichever domain's method SystemC runs first at
// t. Domains that share an edge tick in a fixed order when they are attached to an EdgeRunner
// (the GPU's are: core, interconnect, L2, DRAM), so the order never depends on how SystemC
// happens to order simultaneous events (which other processes, e.g. the VCD tracer, can change).
#ifndef GTLM_TLM_CLOCK_DOMAIN_H
#define GTLM_TLM_CLOCK_DOMAIN_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

namespace gtlm {

constexpr uint64_t kNever = UINT64_MAX;

class Tickable {
public:
    virtual ~Tickable() = default;
    // The work of edge `cycle` of its domain (cycles only grow; skipped ones had nothing to do).
    virtual void tick(uint64_t cycle) = 0;
    // First cycle >= `cycle` at which tick has work; kNever when it waits for an input.
    virtual uint64_t next_work(uint64_t cycle) const = 0;
    // For the watchdog: appends the unit's state when it is not idle.
    virtual void describe(std::string &out) const = 0;
    virtual bool busy() const = 0;
    // -gtlm_threads (docs/timing-model.md, "Parallel edges"): a unit whose tick splits into a
    // part touching only its own state (tick_local, run in parallel with the other such units
    // of the edge; order: its position among them, for TickPool::wait_turn) and a part that
    // talks to other blocks (tick_commit, run afterwards in unit order). tick(c) must equal
    // tick_local(c) then tick_commit(c).
    virtual bool splits_tick() const { return false; }
    virtual void tick_local(uint64_t cycle, size_t order) { (void)order; tick(cycle); }
    virtual void tick_commit(uint64_t cycle) { (void)cycle; }

private:
    friend class ClockDomain;
    // Lower bound on the next cycle with work, kept by the domain so that a sleeping unit costs
    // no next_work call per edge: next_work(c + 1) after each edge it was asked at, 0 (ask again)
    // after wake_at(cycle, this) or poke(). Valid because next_work depends only on the unit's
    // state, and every input that can bring work forward comes with a wake of the unit. Units whose work can appear without an input (the CTA dispatcher)
    // set poll_always_.
    uint64_t hint_ = 0;

protected:
    bool poll_always_ = false;
};

class EdgeRunner;
class TickPool;

class ClockDomain : public sc_core::sc_module {
public:
    ClockDomain(sc_core::sc_module_name name, const sc_core::sc_time &period);

    void add(Tickable *u) { units_.push_back(u); }
    const std::vector<Tickable *> &units() const { return units_; }

    // The first edge strictly after the current time: where an input arriving now is seen.
    uint64_t next_edge() const;
    // The edge at or after time t (for inputs annotated with a delay).
    uint64_t edge_at_or_after(const sc_core::sc_time &t) const;
    // Make sure the domain ticks at edge `cycle` (>= next_edge()) or earlier, for unit u's new
    // input (u null: any unit may have work; every unit is asked again).
    void wake_at(uint64_t cycle, Tickable *u = nullptr);
    void wake(Tickable *u = nullptr) { wake_at(next_edge(), u); }
    // Unit u of this domain got work from another unit of it during this edge: ask it again.
    static void poke(Tickable &u) { u.hint_ = 0; }

    uint64_t cycle() const { return cycle_; }  // the last edge ticked
    uint64_t scheduled() const { return scheduled_; } // the next edge it will tick, kNever if none
    const sc_core::sc_time &period() const { return period_; }
    uint64_t ticks() const { return ticks_; }  // edges at which the method ran (host-cost measure)

    // Called after every tick with the cycle just done (the watchdog hangs here). May stop the
    // domain by returning false.
    std::function<bool(uint64_t)> after_tick;
    // Stops ticking for good (an aborted run); wake_at is ignored afterwards until resume().
    void halt() { halted_ = true; ev_.cancel(); scheduled_ = kNever; }
    void resume() { halted_ = false; }

    // Ticks through a runner shared with other domains (edge_runner.h) instead of its own process.
    void attach(EdgeRunner *r) { runner_ = r; }
    // The runner found this domain due at edge `cycle`: tick it.
    void tick_edge(uint64_t cycle);
    // Ticks the due units that split their tick on pool's threads when at least min_batch of
    // them are due at an edge (null: every unit on the calling thread).
    void set_pool(TickPool *pool, size_t min_batch) { pool_ = pool; min_batch_ = min_batch; }
    TickPool *pool() const { return pool_; }
    uint64_t parallel_edges() const { return parallel_edges_; } // edges ticked on the pool

private:
    void run();
    void schedule(uint64_t cycle);
    sc_core::sc_time period_;
    uint64_t period_units_; // period in the kernel's time resolution
    sc_core::sc_event ev_;
    std::vector<Tickable *> units_;
    uint64_t cycle_ = 0;
    uint64_t scheduled_ = kNever;
    uint64_t ticks_ = 0;
    bool halted_ = false;
    EdgeRunner *runner_ = nullptr;
    void flush(uint64_t cycle); // ticks batch_ (the due splitting units met so far)
    TickPool *pool_ = nullptr;
    size_t min_batch_ = 0;
    std::vector<Tickable *> batch_;
    uint64_t parallel_edges_ = 0;
    bool parallel_now_ = false; // the current edge ran a batch on the pool
};

} // namespace gtlm

#endif
