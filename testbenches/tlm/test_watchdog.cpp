// Deadlock detection: when requests are lost (here an L2-side controller forwards every request to
// a destination that never answers, through the controller seam of the L2 slices), every unit goes
// idle waiting for an answer; the run stops at once with an error naming the stuck units. (A unit
// that keeps ticking without progress is stopped by the -gtlm_watchdog_cycles watchdog instead:
// the second test.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

extern "C" {
#include "l2/l2_slice.h"
}

#include "l2/l2_module.h"
#include "top/simulator.h"

#ifndef GTLM_SOURCE_DIR
#define GTLM_SOURCE_DIR "."
#endif

namespace {

const char *kPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry load_one(.param .u64 in)
{
    .reg .b64 %rd<3>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [in];
    ld.global.u32 %r1, [%rd1];
    add.u32 %r1, %r1, 1;
    st.global.u32 [%rd1], %r1;
    ret;
}
)";

l2_front_decision forward_all(void *, const l2_req *) { return L2_FRONT_FORWARD; }

// A unit that has work at every core edge but never moves anything: a stuck block.
class Spinner : public gtlm::Tickable {
public:
    void tick(uint64_t) override { ticks++; }
    uint64_t next_work(uint64_t cycle) const override { return cycle; }
    void describe(std::string &out) const override { out += "spinner: ticks without progress\n"; }
    bool busy() const override { return true; }
    uint64_t ticks = 0;
};

// Runs load_one on tiny.config with every L2 request forwarded to nowhere (and spin, if given,
// ticking with the core clock); returns the error that stopped the run, or why it did not fail.
std::string lost_request_run(const std::vector<std::string> &overrides, Spinner *spin)
{
    std::string dir = GTLM_SOURCE_DIR;
    gtlm::SimSetup setup;
    setup.config_files = {dir + "/configs/tiny.config"};
    setup.overrides = overrides;
    gtlm::Simulator sim(setup);
    l2_front f{nullptr, forward_all};
    for (int j = 0; j < sim.gpu().n_l2(); j++) l2_slice_set_front(&sim.gpu().l2(j).core(), &f);
    if (spin) sim.gpu().add_core_unit(*spin);
    gtlm::Module *m = sim.device().load_ptx(kPtx, "watchdog", nullptr);
    uint64_t p = sim.device().malloc_bytes(256);
    const void *args[] = {&p};
    const size_t sizes[] = {8};
    const unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    try {
        sim.launch(m, "load_one", grid, block, 0, args, sizes, 1);
    } catch (const gtlm::Error &e) {
        EXPECT_EQ(e.status(), GTLM_ST_ESIM);
        return e.what();
    }
    return "the launch was not stopped";
}

TEST(Watchdog, LostRequestsStopTheRunWithTheStuckUnits)
{
    std::string msg = lost_request_run({"-gtlm_watchdog_cycles", "3000"}, nullptr);
    EXPECT_NE(msg.find("deadlock at core cycle"), std::string::npos) << msg;
    EXPECT_NE(msg.find("sm[0]: 1 CTAs, 2 live warps, 1 requests out without response"), std::string::npos) << msg;
    EXPECT_NE(msg.find("waits on memory"), std::string::npos) << msg;
    EXPECT_NE(msg.find("forward 1/8"), std::string::npos) << msg; // the slice holding the forwarded request
}

// The same lost request, but a unit keeps ticking: the all-idle deadlock detector cannot see it,
// and the watchdog stops the run once -gtlm_watchdog_cycles core cycles passed with no instruction
// issued and no request moved. (-gpgpu_max_cycle is the backstop should the watchdog not fire.)
TEST(Watchdog, AUnitTickingWithoutProgressIsStoppedAfterTheWatchdogCycles)
{
    Spinner spin;
    std::string msg = lost_request_run({"-gtlm_watchdog_cycles", "3000", "-gpgpu_max_cycle", "20000"}, &spin);
    EXPECT_NE(msg.find("watchdog: no instruction issued and no memory transaction moved for 3001 core cycles"),
              std::string::npos) << msg;
    EXPECT_NE(msg.find("spinner: ticks without progress"), std::string::npos) << msg;
    EXPECT_NE(msg.find("waits on memory"), std::string::npos) << msg;
    // It ticked every core cycle up to the watchdog, not until the cycle limit.
    EXPECT_GT(spin.ticks, 3000u);
    EXPECT_LT(spin.ticks, 20000u);
}

} // namespace
