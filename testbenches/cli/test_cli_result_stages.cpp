// -gtlm_result_stages (issue 13): GPGPU-Sim 4.2's operand-collector and writeback stages add 5
// cycles to every dependent step of a non-memory chain. A hand-written trace of one warp running
// a chain of N dependent FFMAs, with the FFMA latency the configuration gives, must take exactly
// 5 x N cycles more with 5 stages than with none; -1 (the default) is 5 only in compat mode.
#include <gtest/gtest.h>

#include "cli_run.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

const std::string tiny = std::string("--config ") + GTLM_SOURCE_DIR + "/configs/tiny.config ";

long long cycles(const std::string &out)
{
    size_t at = out.find("\ngpu_tot_sim_cycle = ");
    return at == std::string::npos ? -1 : std::stoll(out.substr(at + 21));
}

std::string chain_trace(int n)
{
    std::string dir = ::testing::TempDir() + "gtlm_cli_result_stages";
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/kernelslist.g") << "kernel-1.traceg\n";
    std::ofstream k(dir + "/kernel-1.traceg");
    k << "-kernel name = chain\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n"
         "-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
         "-local mem base_addr = 0x00007e0000000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 5\n"
         "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
         "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n"
         "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = "
      << n + 1 << "\n";
    char line[80];
    for (int i = 0; i < n; i++) {
        std::snprintf(line, sizeof line, "%04x ffffffff 1 R1 FFMA 3 R1 R2 R3 0 0\n", i * 16);
        k << line;
    }
    std::snprintf(line, sizeof line, "%04x ffffffff 0 EXIT 0 0 0\n\n#END_TB\n", n * 16);
    k << line;
    return dir;
}

long long run_chain(const std::string &dir, const std::string &opts)
{
    Result r = run("run --trace " + dir + " " + tiny + "--stats - --quiet " + opts);
    EXPECT_EQ(r.code, 0) << r.out;
    return cycles(r.out);
}

} // namespace

TEST(CliResultStages, EachDependentStepWaitsTheStages)
{
    const int n = 40;
    std::string dir = chain_trace(n);
    long long none = run_chain(dir, "-gtlm_result_stages 0");
    long long five = run_chain(dir, "-gtlm_result_stages 5");
    ASSERT_GT(none, 0);
    EXPECT_EQ(five - none, 5LL * n);
    EXPECT_EQ(run_chain(dir, ""), none);                       // default -1 outside compat mode: 0
    EXPECT_EQ(run_chain(dir, "--gpgpusim-compat"), five);      // and 5 in it
    EXPECT_EQ(run_chain(dir, "--gpgpusim-compat -gtlm_result_stages 0"), none);
    std::filesystem::remove_all(dir);
}
