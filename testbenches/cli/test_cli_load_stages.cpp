// -gtlm_ldst_result_stages / -gtlm_smem_result_stages (issue 13): in GPGPU-Sim 4.2 a load passes the
// operand collector's stages before the LD/ST unit, so a dependent chain of L1-hit LDGs costs
// 24 cycles a step and of LDSs 25 (Accel-Sim, QV100, both latencies 20), against gtlm's 21
// (one issue cycle + the latency). Hand-written one-warp chains with those latencies: each added
// load adds exactly 1 + 20 + 3 (LDG) or 1 + 20 + 4 (LDS) cycles in compat mode, 21 without it.
#include <gtest/gtest.h>

#include "cli_chain_trace.h"
#include "cli_run.h"

#include <filesystem>
#include <string>
#include <unistd.h> // getpid: ctest runs a suite's tests as processes in parallel, each its own folder

namespace {

const std::string base = std::string("--config ") + GTLM_SOURCE_DIR +
                         "/configs/tiny.config -gpgpu_l1_latency 20 -gpgpu_smem_latency 20 ";

// n dependent loads of one word per lane (all lanes the same 128-byte line / shared word).
std::string write_chain(const std::string &name, int n, bool shared)
{
    std::string dir = ::testing::TempDir() + "gtlm_cli_load_stages_" + std::to_string(::getpid()) + "_" + name;
    chain_trace::write(dir, n, shared ? 4096 : 0, [shared](int) {
        return std::string(shared ? "ffffffff 1 R1 LDS 1 R1 4 1 0x7f0000000000 4 0"
                                  : "ffffffff 1 R1 LDG.E 1 R1 4 1 0x1000000000 4 0");
    });
    return dir;
}

long long run_chain(const std::string &dir, const std::string &opts)
{
    Result r = run("run --trace " + dir + " " + base + "--stats - --quiet " + opts);
    EXPECT_EQ(r.code, 0) << r.out;
    return chain_trace::cycles(r.out);
}

// Cycles the last n of 2n dependent loads add.
long long per_step(bool shared, int n, const std::string &opts)
{
    std::string tag = shared ? "lds_" : "ldg_";
    long long ta = 0, step = chain_trace::per_step(
        n, [&](int k) { return write_chain(tag + std::to_string(k), k, shared); },
        [&opts](const std::string &d) { return run_chain(d, opts); }, ta);
    EXPECT_GT(ta, 0);
    return step;
}

} // namespace

TEST(CliLoadStages, L1HitChainStepIsLatencyPlusTheCollectorStages)
{
    const int n = 20;
    EXPECT_EQ(per_step(false, n, ""), 21);                        // gtlm's own: issue + latency
    EXPECT_EQ(per_step(false, n, "--gpgpusim-compat"), 24);       // + 3 stages, Accel-Sim's 24
    EXPECT_EQ(per_step(false, n, "--gpgpusim-compat -gtlm_ldst_result_stages 0"), 21);
    EXPECT_EQ(per_step(false, n, "-gtlm_ldst_result_stages 7"), 28);
}

TEST(CliLoadStages, SharedChainStepAddsTheWritebackRegister)
{
    const int n = 20;
    EXPECT_EQ(per_step(true, n, ""), 21);
    EXPECT_EQ(per_step(true, n, "--gpgpusim-compat"), 25);        // + 4, Accel-Sim's 25
    EXPECT_EQ(per_step(true, n, "--gpgpusim-compat -gtlm_smem_result_stages 0"), 21);
    EXPECT_EQ(per_step(true, n, "-gtlm_ldst_result_stages 3"), 21); // the L1 path's stages leave LDS alone
}
