// -gtlm_result_stages (issue 13): GPGPU-Sim 4.2's operand-collector and writeback stages add 5
// cycles to every dependent step of a non-memory chain. A hand-written trace of one warp running
// a chain of N dependent FFMAs, with the FFMA latency the configuration gives, must take exactly
// 5 x N cycles more with 5 stages than with none; -1 (the default) is 5 only in compat mode.
#include <gtest/gtest.h>

#include "cli_chain_trace.h"
#include "cli_run.h"

#include <filesystem>
#include <string>
#include <unistd.h> // getpid: ctest runs a suite's tests as processes in parallel, each its own folder

namespace {

const std::string tiny = std::string("--config ") + GTLM_SOURCE_DIR + "/configs/tiny.config ";

std::string ffma_chain(int n)
{
    std::string dir = ::testing::TempDir() + "gtlm_cli_result_stages_" + std::to_string(::getpid());
    chain_trace::write(dir, n, 0, [](int) { return std::string("ffffffff 1 R1 FFMA 3 R1 R2 R3 0 0"); });
    return dir;
}

long long run_chain(const std::string &dir, const std::string &opts)
{
    Result r = run("run --trace " + dir + " " + tiny + "--stats - --quiet " + opts);
    EXPECT_EQ(r.code, 0) << r.out;
    return chain_trace::cycles(r.out);
}

} // namespace

TEST(CliResultStages, EachDependentStepWaitsTheStages)
{
    const int n = 40;
    std::string dir = ffma_chain(n);
    long long none = run_chain(dir, "-gtlm_result_stages 0");
    long long five = run_chain(dir, "-gtlm_result_stages 5");
    ASSERT_GT(none, 0);
    EXPECT_EQ(five - none, 5LL * n);
    EXPECT_EQ(run_chain(dir, ""), none);                       // default -1 outside compat mode: 0
    EXPECT_EQ(run_chain(dir, "--gpgpusim-compat"), five);      // and 5 in it
    EXPECT_EQ(run_chain(dir, "--gpgpusim-compat -gtlm_result_stages 0"), none);
    std::filesystem::remove_all(dir);
}
