// -gtlm_threads' pool (tlm/kernel/tick_pool.h) and the clock domain's parallel edges: every item of
// a batch runs once, the work after wait_turn happens in index order whatever the thread count,
// and a domain with a pool ticks and commits its units in the same order as without one.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "kernel/clock_domain.h"
#include "kernel/edge_runner.h"
#include "kernel/sc_context.h"
#include "kernel/tick_pool.h"

namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

TEST(TickPool, WorkAfterTheTurnRunsInIndexOrder)
{
    for (int threads : {2, 3, 5}) {
        gtlm::TickPool pool(threads);
        EXPECT_EQ(pool.threads(), threads);
        for (int batch = 0; batch < 500; batch++) {
            size_t n = 1 + static_cast<size_t>(batch % 9);
            std::vector<size_t> order;
            std::vector<std::atomic<int>> runs(n);
            pool.run(n, [&](size_t i) {
                runs[i]++;
                volatile uint64_t x = 0; // some work before the turn, so items overlap
                for (size_t k = 0; k < 200 * (n - i); k++) x = x + k;
                pool.wait_turn(i);
                order.push_back(i); // unsynchronised on purpose: the turns serialise it
            });
            ASSERT_EQ(order.size(), n) << threads << " threads, batch " << batch;
            for (size_t i = 0; i < n; i++) {
                EXPECT_EQ(order[i], i);
                EXPECT_EQ(runs[i].load(), 1);
            }
        }
    }
}

// Ticks on every edge up to `last`; logs its local part, commit or whole tick.
struct Unit : gtlm::Tickable {
    std::string name;
    bool split = true;
    uint64_t last = 20;
    std::vector<std::string> *log = nullptr;
    std::vector<uint64_t> local; // edges of tick_local (any thread; one unit per item)
    void tick(uint64_t c) override { log->push_back(name + "@" + std::to_string(c)); }
    bool splits_tick() const override { return split; }
    void tick_local(uint64_t c, size_t) override { local.push_back(c); }
    void tick_commit(uint64_t c) override { log->push_back(name + "@" + std::to_string(c)); }
    uint64_t next_work(uint64_t c) const override { return c <= last ? c : gtlm::kNever; }
    void describe(std::string &) const override {}
    bool busy() const override { return false; }
};

std::vector<std::string> run_units(gtlm::TickPool *pool, size_t min_batch, uint64_t *parallel)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    gtlm::ClockDomain dom("clk", sc_time(1, SC_NS));
    gtlm::EdgeRunner runner("edges");
    runner.attach(dom);
    std::vector<std::string> log;
    Unit u[5];
    const char *names[] = {"a", "b", "c", "d", "e"};
    for (int i = 0; i < 5; i++) {
        u[i].name = names[i];
        u[i].log = &log;
        u[i].split = i != 2;     // c does not split: a and b form one batch, d and e another
        u[i].last = i == 4 ? 10 : 20;
        dom.add(&u[i]);
    }
    if (pool) dom.set_pool(pool, min_batch);
    dom.wake_at(1);
    sc_core::sc_start(sc_time(30, SC_NS));
    *parallel = dom.parallel_edges();
    if (pool) {
        // a and b locally at every edge; d only while e keeps its batch at the minimum of two
        // (alone at edges 11..20 it ticks whole, on the calling thread)
        for (int i : {0, 1, 3, 4}) EXPECT_EQ(u[i].local.size(), i == 3 ? 10u : u[i].last) << u[i].name;
    }
    return log;
}

TEST(TickPool, DomainTicksInUnitOrderWithAPool)
{
    uint64_t parallel = 0;
    std::vector<std::string> seq = run_units(nullptr, 0, &parallel);
    EXPECT_EQ(parallel, 0u);
    ASSERT_EQ(seq.size(), 4u * 20 + 10u); // a, b, c, d on edges 1..20, e on 1..10
    EXPECT_EQ(seq[0], "a@1");
    EXPECT_EQ(seq[2], "c@1");
    EXPECT_EQ(seq[4], "e@1");
    gtlm::TickPool pool(3);
    std::vector<std::string> par = run_units(&pool, 2, &parallel);
    EXPECT_EQ(par, seq);
    EXPECT_EQ(parallel, 20u); // edges 1..20 had a batch of two (a, b) at least
}

} // namespace
