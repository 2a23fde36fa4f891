// gtlm run's everyday output: a short summary with GPGPU-Sim's headline names, every statistic on
// request, progress on stderr that never changes statistics, --help, flag suggestions, options --search.
#include <gtest/gtest.h>

#include "cli_run.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

const std::string configs = std::string(GTLM_SOURCE_DIR) + "/configs/";

// A scratch file of this process (other builds on the machine share the temporary directory).
std::string scratch(const std::string &name) { return ::testing::TempDir() + std::to_string(getpid()) + "_" + name; }

size_t count_lines(const std::string &s, const std::string &prefix = "")
{
    size_t n = 0, at = 0;
    while (at < s.size()) {
        size_t nl = s.find('\n', at);
        if (nl == std::string::npos) nl = s.size();
        if (s.compare(at, prefix.size(), prefix) == 0) n++;
        at = nl + 1;
    }
    return n;
}

nlohmann::json read_json(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return nlohmann::json::parse(s.str());
}

// Leaves ({"value": ...}) of a statistics tree; host: only wall-time ones, or only the others.
void leaves(const nlohmann::json &j, const std::string &path, bool want_host, std::map<std::string, double> &out)
{
    if (j.is_object() && j.contains("value")) {
        if (j.value("host", false) == want_host) out[path] = j["value"].is_number() ? j["value"].get<double>() : -1;
        return;
    }
    if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it) leaves(it.value(), path + "." + it.key(), want_host, out);
    if (j.is_array())
        for (size_t i = 0; i < j.size(); i++) leaves(j[i], path + "[" + std::to_string(i) + "]", want_host, out);
}

// BFS at tiny size: 16 launches of two kernels on the 15-SM GTX480.
const std::string bfs = "run rodinia/BFS --size tiny --config " + configs + "gtx480.config";

TEST(CliOutput, DefaultRunIsShortWithTheGpgpuSimHeadline)
{
    Result r = run(bfs + " --quiet");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_LE(count_lines(r.out), 40u) << r.out; // was 1,679 lines with every unit's statistics
    for (const char *name : {"gpu_tot_sim_cycle = ", "gpu_tot_sim_insn = 1769201\n", "gpgpu_n_tot_w_icount = ",
                             "gpu_tot_ipc = ", "L1D_total_cache_miss_rate = ", "L2_total_cache_miss_rate = ",
                             "gpgpu_simulation_rate = ", "occupancy: ", "scheduler cycles: issued "})
        EXPECT_NE(r.out.find(name), std::string::npos) << name << "\n" << r.out;
    // One row per kernel name, summed over its 8 launches each.
    EXPECT_NE(r.out.find("  bfs_expand x8: gpu_sim_insn = "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  bfs_update x8: gpu_sim_insn = "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("gpu.sm[0]."), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("gtlm: kernel "), std::string::npos) << "--quiet printed progress";
}

TEST(CliOutput, PerUnitAndJsonHoldEveryStatistic)
{
    std::string json = scratch("gtlm_cli_output.json");
    Result r = run(bfs + " --quiet --per-unit --stats-json " + json);
    ASSERT_EQ(r.code, 0) << r.out;
    std::map<std::string, double> stats, host;
    nlohmann::json j = read_json(json);
    leaves(j["run"], "", false, stats);
    leaves(j["run"], "", true, host);
    ASSERT_GT(stats.size(), 1000u);
    size_t at = r.out.find("every statistic (--per-unit):\n");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::string all = r.out.substr(at);
    EXPECT_EQ(count_lines(all) - 1, stats.size() + host.size()) << "every statistic has its line";
    for (const char *unit : {"gpu.sm[14].l1d.misses = ", "gpu.l2[11].accesses = ", "gpu.dram[5].reads = "})
        EXPECT_NE(all.find(unit), std::string::npos) << unit;
    // -v is --per-unit.
    Result v = run(bfs + " --quiet -v");
    EXPECT_NE(v.out.find("gpu.sm[14].l1d.misses = "), std::string::npos);
    std::remove(json.c_str());
}

// Progress only reads counters: every statistic but host wall time is the same with a progress line
// at every report (1,000 core cycles) as with none, and without a terminal the lines are periodic.
TEST(CliOutput, ProgressLinesLeaveStatisticsIdentical)
{
    std::string quiet = scratch("gtlm_quiet.json"), loud = scratch("gtlm_loud.json");
    Result q = run(bfs + " --quiet --stats-json " + quiet);
    Result l = run(bfs + " --progress-interval 0 --stats-json " + loud);
    ASSERT_EQ(q.code, 0) << q.out;
    ASSERT_EQ(l.code, 0) << l.out;
    std::map<std::string, double> a, b;
    leaves(read_json(quiet), "", false, a);
    leaves(read_json(loud), "", false, b);
    ASSERT_GT(a.size(), 1000u);
    EXPECT_EQ(a, b);
    // 38,674 cycles: at least one line per 1,000 cycles, and one per finished kernel.
    size_t lines = count_lines(l.out, "gtlm: kernel ");
    EXPECT_GE(lines, 38u) << l.out;
    EXPECT_NE(l.out.find("gtlm: kernel 16 bfs_update: 38.7k cycles, 122k warp insn, warp IPC "), std::string::npos)
        << l.out;
    EXPECT_EQ(l.out.find('\r'), std::string::npos) << "not a terminal: no carriage returns";
    // The default (10 s between lines) prints none on a run this short.
    Result d = run(bfs);
    EXPECT_EQ(count_lines(d.out, "gtlm: kernel "), 0u) << d.out;
    std::remove(quiet.c_str());
    std::remove(loud.c_str());
}

TEST(CliOutput, TraceRunsHaveProgressOfKernelIOfN)
{
    std::string dir = std::string(GTLM_TEST_DATA) + "/traces/microgpusim-matrixmul-32-32";
    Result r = run("run --trace " + dir + " --config " + configs + "tiny.config --progress-interval 0");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("gtlm: kernel 1 of 1 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("gpgpu_n_tot_w_icount = "), std::string::npos) << r.out;
}

TEST(CliOutput, EveryCommandHasHelpListingItsFlags)
{
    for (const char *cmd : {"version", "options", "list", "run", "profile", "bench", "sweep", "trace", "help"}) {
        Result r = run(std::string(cmd) + " --help");
        EXPECT_EQ(r.code, 0) << cmd << ": " << r.out;
        EXPECT_NE(r.out.find(std::string("usage: gtlm ") + cmd), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("  --help "), std::string::npos) << r.out;
    }
    Result r = run("run --help");
    for (const char *flag : {"--size", "--set", "--mode", "--trace", "--vcd", "--check-stats", "--load-pcs",
                             "--per-unit", "-v ", "--stats ", "--stats-json", "--quiet", "--progress-interval",
                             "--corrupt-output", "--config", "--gpgpusim-compat", "-NAME"})
        EXPECT_NE(r.out.find("\n  " + std::string(flag)), std::string::npos) << flag;
    r = run("sweep -h");
    for (const char *flag : {"-j N", "--out DIR", "--baseline NAME"})
        EXPECT_NE(r.out.find("\n  " + std::string(flag)), std::string::npos) << flag << r.out;
    r = run("help trace");
    EXPECT_NE(r.out.find("--out DIR"), std::string::npos) << r.out;
    r = run("help nosuch");
    EXPECT_EQ(r.code, 2);
}

TEST(CliOutput, AWrongFlagSuggestsTheNearestOne)
{
    Result r = run("run --per-unt");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("unknown flag '--per-unt'; did you mean '--per-unit'?"), std::string::npos) << r.out;
    r = run("options --serch l1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("did you mean '--search'?"), std::string::npos) << r.out;
    r = run("sweep x.spec --baseilne a");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("did you mean '--baseline'?"), std::string::npos) << r.out;
    r = run("rnu rodinia/BFS");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("unknown command 'rnu'; did you mean 'run'?"), std::string::npos) << r.out;
    r = run("run --frobnicate");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out.find("did you mean"), std::string::npos) << r.out;
}

TEST(CliOutput, OptionsSearchFindsByNameOrDescription)
{
    Result r = run("options --search DL1");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("-gpgpu_cache:dl1 "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("-gpgpu_n_clusters "), std::string::npos) << r.out;
    r = run("options --search 'burst BYTE'"); // description words, not a name
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("# block dram"), std::string::npos) << r.out;
    r = run("options --search zzzqqq");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("no option's name or description contains 'zzzqqq'"), std::string::npos) << r.out;
}

} // namespace
