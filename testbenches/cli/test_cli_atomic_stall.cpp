// -gtlm_atomic_stalls_warp (issue 13): GPGPU-Sim 4.2 keeps a warp with an atomic in flight from
// issuing anything (shd_warp_t::waiting, m_n_atomic), so a warp's atomics serialise even when no
// register links them. Measured in Accel-Sim (QV100, one warp, one line): 50 / 150 ATOMGs with
// distinct destinations take 8,857 / 26,257 cycles, the same as a chain through one destination
// (8,906 / 26,406); gtlm took 513 / 913 before. Hand-computed here: with the stall, a step of
// independent atomics costs exactly a step of the dependent chain (one atomic's round trip, the
// previous one's completion releasing both the register and the warp); without it they pipeline.
#include <gtest/gtest.h>

#include "cli_chain_trace.h"
#include "cli_run.h"

#include <filesystem>
#include <string>
#include <unistd.h> // getpid: ctest runs a suite's tests as processes in parallel, each its own folder

namespace {

const std::string base = std::string("--config ") + GTLM_SOURCE_DIR + "/configs/tiny.config ";

enum Kind { DEPENDENT, INDEPENDENT, REDUCTION };

// n atomic adds of all 32 lanes to one 128-byte line: through one destination register, through
// a new destination each, or RED (no destination).
std::string write_atomics(Kind kind, int n)
{
    std::string dir = ::testing::TempDir() + "gtlm_cli_atomic_stall_" + std::to_string(::getpid()) + "_" + std::to_string(kind) + "_" +
                      std::to_string(n);
    chain_trace::write(dir, n, 0, [kind](int i) {
        const std::string op = " ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU 2 R2 R3 4 1 0x1000000000 4 0";
        if (kind == REDUCTION) return std::string("ffffffff 0 RED.E.ADD.F32.FTZ.RN.STRONG.GPU 2 R2 R3 4 1 0x1000000000 4 0");
        return "ffffffff 1 R" + std::to_string(kind == DEPENDENT ? 4 : 4 + i) + op;
    });
    return dir;
}

long long run_cycles(const std::string &dir, const std::string &opts)
{
    Result r = run("run --trace " + dir + " " + base + "--stats - --quiet " + opts);
    EXPECT_EQ(r.code, 0) << r.out;
    return chain_trace::cycles(r.out);
}

// Cycles the last n of 2n atomics add.
long long per_step(Kind kind, int n, const std::string &opts)
{
    long long ta = 0, step = chain_trace::per_step(
        n, [kind](int k) { return write_atomics(kind, k); }, [&opts](const std::string &d) { return run_cycles(d, opts); },
        ta);
    EXPECT_GT(ta, 0);
    return step;
}

} // namespace

TEST(CliAtomicStall, IndependentAtomicsWaitForEachOtherLikeADependentChain)
{
    const int n = 16;
    long long chain = per_step(DEPENDENT, n, "");
    ASSERT_GT(chain, 20); // a round trip to the L2 and back
    // The register dependence already waits the round trip; the stall changes nothing there.
    EXPECT_EQ(per_step(DEPENDENT, n, "-gtlm_atomic_stalls_warp 1"), chain);
    // Independent atomics: the stall makes each wait for the previous one's completion.
    EXPECT_EQ(per_step(INDEPENDENT, n, "-gtlm_atomic_stalls_warp 1"), chain);
    long long free_running = per_step(INDEPENDENT, n, "");
    EXPECT_LT(free_running * 4, chain) << "without the stall the atomics pipeline";
    // RED has no destination: only the stall orders it.
    EXPECT_EQ(per_step(REDUCTION, n, "-gtlm_atomic_stalls_warp 1"), chain);
    EXPECT_LT(per_step(REDUCTION, n, "") * 4, chain);
}

TEST(CliAtomicStall, DefaultFollowsCompatMode)
{
    // Compat mode also adds GPGPU-Sim's pipeline stages, so each mode is compared with itself.
    const int n = 16;
    const std::string compat = "--gpgpusim-compat ";
    EXPECT_EQ(per_step(INDEPENDENT, n, ""), per_step(INDEPENDENT, n, "-gtlm_atomic_stalls_warp 0")); // gtlm's own
    long long on = per_step(INDEPENDENT, n, compat);
    EXPECT_EQ(on, per_step(INDEPENDENT, n, compat + "-gtlm_atomic_stalls_warp 1"));                // GPGPU-Sim's
    EXPECT_EQ(on, per_step(DEPENDENT, n, compat));
    EXPECT_LT(per_step(INDEPENDENT, n, compat + "-gtlm_atomic_stalls_warp 0") * 4, on);
}
