// A software barrier across CTAs (each CTA's thread 0 adds one to a counter in global memory and
// spins until every CTA arrived): it completes when all CTAs are resident at once, in timing
// mode and in functional mode (which runs CTAs that spin on memory interleaved). When they
// cannot all be resident the resident ones spin for ever: the run stops with a livelock report
// naming the spinning warps and the loop, not a hang. (Functional mode's deadlock report for a
// flag no one writes: testbenches/unit/test_simt.cpp.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "top/simulator.h"

#ifndef GTLM_SOURCE_DIR
#define GTLM_SOURCE_DIR "."
#endif

namespace {

// out[ctaid] = the counter value that let the CTA through (gridDim.x when the barrier is right).
const char *kPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry spin_barrier(.param .u64 cnt, .param .u64 out)
{
    .reg .b64 %rd<4>;
    .reg .b32 %r<6>;
    .reg .pred %p<3>;
    ld.param.u64 %rd1, [cnt];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra DONE;
    atom.global.add.u32 %r2, [%rd1], 1;
    mov.u32 %r3, %nctaid.x;
WAIT:
    ld.volatile.global.u32 %r4, [%rd1];
    setp.lt.u32 %p2, %r4, %r3;
    @%p2 bra WAIT;
    mov.u32 %r5, %ctaid.x;
    mul.wide.u32 %rd3, %r5, 4;
    add.u64 %rd3, %rd2, %rd3;
    st.global.u32 [%rd3], %r4;
DONE:
    bar.sync 0;
    ret;
}
)";

// Runs spin_barrier with `ctas` CTAs of 1024 threads (one per SM of tiny.config: 1536 threads).
std::vector<uint32_t> run(const char *mode, unsigned ctas)
{
    gtlm::SimSetup setup;
    setup.config_files = {std::string(GTLM_SOURCE_DIR) + "/configs/tiny.config"};
    setup.overrides = {"-gtlm_mode", mode};
    gtlm::Simulator sim(setup);
    gtlm::Module *m = sim.device().load_ptx(kPtx, "spin", nullptr);
    uint64_t cnt = sim.device().malloc_bytes(4), out = sim.device().malloc_bytes(4 * ctas);
    sim.device().fill(cnt, 0, 4);
    sim.device().fill(out, 0, 4 * ctas);
    const void *args[] = {&cnt, &out};
    const size_t sizes[] = {8, 8};
    const unsigned grid[3] = {ctas, 1, 1}, block[3] = {1024, 1, 1};
    sim.launch(m, "spin_barrier", grid, block, 0, args, sizes, 2);
    std::vector<uint32_t> got(ctas);
    sim.device().copy_out(got.data(), out, 4 * ctas);
    return got;
}

TEST(SpinBarrier, CompletesWhenEveryCtaIsResident)
{
    EXPECT_EQ(run("timing", 2), std::vector<uint32_t>(2, 2u));
}

TEST(SpinBarrier, FunctionalModeInterleavesSpinningCtas)
{
    EXPECT_EQ(run("functional", 5), std::vector<uint32_t>(5, 5u));
}

TEST(SpinBarrier, TooManyCtasStopWithALivelockReport)
{
    try {
        run("timing", 3);
        FAIL() << "the third CTA can never become resident: the launch must stop";
    } catch (const gtlm::Error &e) {
        std::string msg = e.what();
        EXPECT_EQ(e.status(), GTLM_ST_ESIM);
        EXPECT_NE(msg.find("livelock"), std::string::npos) << msg;
        EXPECT_NE(msg.find("1 CTAs of the kernel wait to start"), std::string::npos) << msg;
        EXPECT_NE(msg.find("(CTA (0,0,0) warp 0)"), std::string::npos) << msg;
        EXPECT_NE(msg.find("SPINS in the loop spin_barrier:"), std::string::npos) << msg;
    }
}

} // namespace
