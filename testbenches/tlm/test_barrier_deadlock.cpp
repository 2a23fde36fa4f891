// A kernel whose warps wait at different barriers can never finish: both modes report a barrier
// deadlock located at the barrier the first waiting warp stopped at (not at pc 0, and not as a
// lost request); the instruction limit is reported as that, not as a deadlock.
#include <gtest/gtest.h>

#include <string>

#include "top/simulator.h"

#ifndef GTLM_SOURCE_DIR
#define GTLM_SOURCE_DIR "."
#endif

namespace {

// Warp 0 waits at barrier 0 (pc 5, line 14), warp 1 at barrier 1 (pc 3, line 11).
const char *kPtx = R"(.version 7.5
.target sm_75
.address_size 64
.visible .entry bar_split()
{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 32;
    @%p1 bra W0;
    bar.sync 1;
    ret;
W0:
    bar.sync 0;
    ret;
}
.visible .entry spin()
{
    .reg .b32 %r<2>;
    mov.u32 %r1, 0;
L:
    add.u32 %r1, %r1, 1;
    bra L;
}
)";

std::string launch_error(const char *mode, const char *kernel, std::vector<std::string> extra = {})
{
    gtlm::SimSetup setup;
    setup.config_files = {std::string(GTLM_SOURCE_DIR) + "/configs/tiny.config"};
    setup.overrides = {"-gtlm_mode", mode};
    setup.overrides.insert(setup.overrides.end(), extra.begin(), extra.end());
    gtlm::Simulator sim(setup);
    gtlm::Module *m = sim.device().load_ptx(kPtx, "bar.ptx", nullptr);
    const unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    try {
        sim.launch(m, kernel, grid, block, 0, nullptr, nullptr, 0);
    } catch (const gtlm::Error &e) {
        EXPECT_EQ(e.status(), GTLM_ST_ESIM);
        return e.what();
    }
    ADD_FAILURE() << kernel << " in " << mode << " mode should have failed";
    return "";
}

size_t count(const std::string &s, const std::string &what)
{
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) n++;
    return n;
}

TEST(BarrierDeadlock, FunctionalModeNamesTheBarrierAndItsWarps)
{
    std::string msg = launch_error("functional", "bar_split");
    EXPECT_NE(msg.find("barrier deadlock at bar.ptx:14 (pc 5: bar.sync)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("barrier 0 at bar.ptx:14 (pc 5: bar.sync): 1 of 2 live warps wait (warps 0)"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("barrier 1 at bar.ptx:11 (pc 3: bar.sync): 1 of 2 live warps wait (warps 1)"), std::string::npos)
        << msg;
    EXPECT_EQ(count(msg, "kernel 'bar_split'"), 1u) << msg;
}

TEST(BarrierDeadlock, TimingModeIsNotALostRequest)
{
    std::string msg = launch_error("timing", "bar_split");
    EXPECT_NE(msg.find("barrier deadlock at core cycle"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("lost request"), std::string::npos) << msg;
    EXPECT_NE(msg.find("SM 0 CTA (0,0,0) barrier 0 at bar.ptx:14 (pc 5: bar.sync): 1 of 2 live warps wait (warps 0)"),
              std::string::npos)
        << msg;
    EXPECT_EQ(count(msg, "kernel 'bar_split'"), 1u) << msg;
}

TEST(InstructionLimit, ReportedAsTheLimitInBothModes)
{
    std::string f = launch_error("functional", "spin", {"-gpgpu_max_insn", "1000"});
    EXPECT_NE(f.find("instruction limit"), std::string::npos) << f;
    EXPECT_NE(f.find("-gpgpu_max_insn"), std::string::npos) << f;
    EXPECT_EQ(f.find("deadlock"), std::string::npos) << f;
    std::string t = launch_error("timing", "spin", {"-gpgpu_max_insn", "1000"});
    EXPECT_NE(t.find("stopped at -gpgpu_max_insn 1000"), std::string::npos) << t;
    EXPECT_EQ(t.find("deadlock"), std::string::npos) << t;
}

} // namespace
