// Clock domains and the edge runner: a unit ticks exactly at the edges its next_work names, a
// sleeping unit is not asked at other units' edges, a woken unit is asked at the domain's next
// run (even at the current time when the domain has not ticked yet), and domains sharing an edge
// tick in attachment order whatever else SystemC has scheduled.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel/clock_domain.h"
#include "kernel/edge_runner.h"
#include "kernel/sc_context.h"

namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// Works at the cycles in `due` (ascending); counts how often it is asked.
struct Unit : gtlm::Tickable {
    std::vector<uint64_t> due, ticked;
    mutable int asked = 0;
    std::vector<std::string> *log = nullptr;
    std::string name;
    void tick(uint64_t c) override
    {
        ticked.push_back(c);
        if (log) log->push_back(name + "@" + std::to_string(c));
        while (!due.empty() && due.front() <= c) due.erase(due.begin());
    }
    uint64_t next_work(uint64_t c) const override
    {
        asked++;
        for (uint64_t d : due)
            if (d >= c) return d;
        return gtlm::kNever;
    }
    void describe(std::string &) const override {}
    bool busy() const override { return !due.empty(); }
};

TEST(ClockDomain, SleepingUnitsAreNotAskedAtOtherUnitsEdges)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    gtlm::ClockDomain dom("clk", sc_time(1, SC_NS));
    gtlm::EdgeRunner runner("edges");
    runner.attach(dom);
    Unit busy, sleeper;
    for (uint64_t c = 1; c <= 100; c++) busy.due.push_back(c);
    sleeper.due = {50, 90};
    dom.add(&busy);
    dom.add(&sleeper);
    dom.wake_at(1);
    sc_core::sc_start();
    EXPECT_EQ(busy.ticked.size(), 100u);
    EXPECT_EQ(sleeper.ticked, (std::vector<uint64_t>{50, 90}));
    // Asked at the first edge (twice: now, and for its next edge), then only around its own edges.
    EXPECT_LE(sleeper.asked, 8) << "a sleeping unit was polled at the busy unit's edges";
    // Once per edge: a unit whose hint is this very edge is ticked without being asked again.
    EXPECT_GE(busy.asked, 100);
    EXPECT_LE(busy.asked, 101);
}

TEST(ClockDomain, AWokenUnitIsAskedAtTheDomainsNextRun)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    gtlm::ClockDomain dom("clk", sc_time(1, SC_NS));
    gtlm::EdgeRunner runner("edges");
    runner.attach(dom);
    Unit a, b;
    a.due = {10, 20};
    dom.add(&a);
    dom.add(&b);
    dom.wake_at(1);
    sc_core::sc_start(sc_time(12.5, SC_NS)); // a ticked at 10; b sleeps (no work)
    EXPECT_EQ(a.ticked, (std::vector<uint64_t>{10}));
    int before = b.asked;
    b.due = {13}; // an input arrives for b, visible at the next edge
    dom.wake_at(dom.next_edge(), &b);
    sc_core::sc_start();
    EXPECT_EQ(b.ticked, (std::vector<uint64_t>{13}));
    EXPECT_GT(b.asked, before);
    EXPECT_EQ(a.ticked, (std::vector<uint64_t>{10, 20}));
}

TEST(EdgeRunner, DomainsSharingAnEdgeTickInAttachmentOrder)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    gtlm::ClockDomain fast("fast", sc_time(1, SC_NS)), slow("slow", sc_time(2, SC_NS));
    gtlm::EdgeRunner runner("edges");
    runner.attach(slow); // slow first
    runner.attach(fast);
    std::vector<std::string> log;
    Unit f, s;
    f.log = s.log = &log;
    f.name = "fast";
    s.name = "slow";
    f.due = {2, 3, 4};
    s.due = {1, 2};
    fast.add(&f);
    slow.add(&s);
    fast.wake_at(1);
    slow.wake_at(1);
    sc_core::sc_start();
    // time 2 ns: slow edge 1 and fast edge 2; time 4 ns: slow 2, fast 4; fast 3 alone at 3 ns.
    EXPECT_EQ(log, (std::vector<std::string>{"slow@1", "fast@2", "fast@3", "slow@2", "fast@4"}));
}

} // namespace
