// gtlm trace: the Accel-Sim trace of a workload, checked against what `gtlm run` reports.
#include <gtest/gtest.h>

#include "cli_run.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

std::vector<std::string> file_lines(const std::string &path)
{
    std::ifstream f(path);
    std::vector<std::string> v;
    std::string l;
    while (std::getline(f, l)) v.push_back(l);
    return v;
}

// The number after "key = " in text, or -1.
long long stat_value(const std::string &text, const std::string &key)
{
    size_t at = text.find("\n" + key + " = ");
    if (at == std::string::npos) return -1;
    return std::stoll(text.substr(at + key.size() + 4));
}

// SPMV at its tiny size launches its kernel twice (reps=2) after five host-to-device copies.
TEST(CliTrace, TraceOfAWorkloadMatchesItsFunctionalRun)
{
    std::string dir = ::testing::TempDir() + "gtlm_cli_trace";
    std::remove((dir + "/kernelslist.g").c_str());
    Result t = run("trace parboil/SPMV --size tiny --out " + dir);
    ASSERT_EQ(t.code, 0) << t.out;
    EXPECT_NE(t.out.find("SPMV: verified"), std::string::npos) << t.out;
    Result r = run("run parboil/SPMV --size tiny --mode functional");
    ASSERT_EQ(r.code, 0) << r.out;
    long long insn = stat_value(r.out, "gpgpu_n_tot_w_icount");
    ASSERT_GT(insn, 0) << r.out;
    EXPECT_NE(t.out.find("trace: 2 kernels, " + std::to_string(insn) + " warp instructions, 5 host-to-device copies"),
              std::string::npos)
        << t.out;

    std::vector<std::string> list = file_lines(dir + "/kernelslist.g");
    ASSERT_EQ(list.size(), 7u);
    for (int i = 0; i < 5; i++) EXPECT_EQ(list[i].rfind("MemcpyHtoD,0x", 0), 0u) << list[i];
    EXPECT_EQ(list[5], "kernel-1.traceg");
    EXPECT_EQ(list[6], "kernel-2.traceg");
    long long sum = 0;
    for (const char *k : {"kernel-1.traceg", "kernel-2.traceg"}) {
        std::vector<std::string> lines = file_lines(dir + "/" + k);
        ASSERT_GT(lines.size(), 14u) << k;
        EXPECT_EQ(lines[0], "-kernel name = spmv_jds");
        EXPECT_EQ(lines[11], "-accelsim tracer version = 5");
        for (const std::string &l : lines) {
            long long n;
            if (std::sscanf(l.c_str(), "insts = %lld", &n) == 1) sum += n;
        }
    }
    EXPECT_EQ(sum, insn);
}

// Sum of a per-SM statistic over the SMs of a statistics text ("gpu.sm[i].leaf = v" lines).
long long sm_sum(const std::string &text, const std::string &leaf)
{
    long long sum = 0;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("gpu.sm[", 0) != 0) continue;
        size_t close = line.find("].");
        if (close == std::string::npos || line.compare(close + 2, leaf.size() + 3, leaf + " = ") != 0) continue;
        sum += std::stoll(line.substr(close + 2 + leaf.size() + 3));
    }
    return sum;
}

// Round trip: a workload's trace run trace-driven issues the same warp instructions and sends
// the same global-memory requests as the PTX-driven run of the workload (cycles differ a little:
// the trace has no parameter or constant-bank loads, and see docs/traces.md).
TEST(CliTrace, RoundTripKeepsInstructionsAndMemoryRequests)
{
    const std::string cfg = std::string(GTLM_SOURCE_DIR) + "/configs/tiny.config";
    for (const char *wl : {"parboil/SPMV", "rodinia/BFS", "rodinia/HotSpot", "polybench/ATAX", "sdk/MatrixMul"}) {
        std::string dir = ::testing::TempDir() + "gtlm_round_trip_" + std::to_string(getpid()); // other builds share /tmp
        std::system(("rm -rf " + dir).c_str());
        Result t = run(std::string("trace ") + wl + " --size tiny --config " + cfg + " --out " + dir);
        ASSERT_EQ(t.code, 0) << wl << ": " << t.out;
        Result traced = run("run --trace " + dir + " --config " + cfg + " --check-stats --per-unit");
        ASSERT_EQ(traced.code, 0) << wl << ": " << traced.out;
        Result ptx = run(std::string("run ") + wl + " --size tiny --config " + cfg + " --per-unit");
        ASSERT_EQ(ptx.code, 0) << wl << ": " << ptx.out;
        long long insn = stat_value(ptx.out, "gpgpu_n_tot_w_icount");
        ASSERT_GT(insn, 0) << ptx.out;
        EXPECT_EQ(stat_value(traced.out, "gpgpu_n_tot_w_icount"), insn) << wl;
        for (const char *leaf : {"gmem.insn", "gmem.requests", "lmem.requests", "shmem.insn", "shmem.passes"})
            EXPECT_EQ(sm_sum(traced.out, leaf), sm_sum(ptx.out, leaf)) << wl << " " << leaf;
        EXPECT_GT(sm_sum(ptx.out, "gmem.requests"), 0) << wl;
        long long c1 = stat_value(traced.out, "gpu_tot_sim_cycle"), c0 = stat_value(ptx.out, "gpu_tot_sim_cycle");
        EXPECT_GT(c1, c0 / 2) << wl;
        EXPECT_LT(c1, c0 * 2) << wl;
        std::system(("rm -rf " + dir).c_str());
    }
}

TEST(CliTrace, UsageErrors)
{
    Result r = run("trace parboil/SPMV");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("usage: gtlm trace WORKLOAD --out DIR"), std::string::npos) << r.out;
    r = run("trace nonesuch --out x");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("no workload named 'nonesuch'"), std::string::npos) << r.out;
    r = run("trace parboil/SPMV --mode timing --out x");
    EXPECT_EQ(r.code, 2);
    // The option alone in timing mode is a configuration error.
    r = run("run parboil/SPMV --mode timing -gtlm_trace_out " + ::testing::TempDir() + "gtlm_cli_trace_timing");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("trace writing needs -gtlm_mode functional"), std::string::npos) << r.out;
}

} // namespace
