// The gtlm command: exit codes (0 success, 1 failure, 2 bad usage or input) and messages.
#include <gtest/gtest.h>

#include "cli_run.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

const std::string configs = std::string(GTLM_SOURCE_DIR) + "/configs/";

TEST(Cli, Version)
{
    Result r = run("version");
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out.rfind("gtlm 0.", 0), 0u) << r.out;
}

TEST(Cli, NoCommandAndUnknownCommandAreUsageErrors)
{
    Result r = run("");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("usage: gtlm <command>"), std::string::npos);
    r = run("frobnicate");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("unknown command 'frobnicate'"), std::string::npos);
    r = run("run --bogus");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("unknown flag '--bogus'"), std::string::npos);
    r = run("run --config");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("'--config' expects a value"), std::string::npos);
}

TEST(Cli, RunWithoutWorkloadShowsTheConfiguration)
{
    Result r = run("run --config " + configs + "gtx480.config");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("GPU: 15 SMs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("L2: 12 slices"), std::string::npos) << r.out;
}

TEST(Cli, ListRunAndProfileAWorkload)
{
    Result r = run("list");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("sdk/VectorAdd (sdk/vectoradd): "), std::string::npos) << r.out;
    r = run("run sdk/VectorAdd --size tiny --config " + configs + "tiny.config");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("VectorAdd: verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("gpgpu_n_tot_w_icount = "), std::string::npos) << r.out;
    r = run("run VectorAdd --set n=100 --set bogus=3");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("bad size parameter 'bogus=3'"), std::string::npos) << r.out;
    r = run("profile VectorAdd --set n=1024");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("2 global loads, 64 line requests"), std::string::npos) << r.out;
    r = run("run VectorAdd --mode timing --check-stats --config " + configs + "tiny.config");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("VectorAdd: verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("stats check: "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("gpu_sim_cycle = 0\n"), std::string::npos) << r.out;
    r = run("run VectorAdd --mode sideways");
    EXPECT_EQ(r.code, 2);
}

TEST(Cli, UnknownWorkloadIsBadInput)
{
    Result r = run("run NOSUCH --config " + configs + "tiny.config");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("no workload named 'NOSUCH'"), std::string::npos) << r.out;
    r = run("frobnicate --help");
    EXPECT_EQ(r.code, 2);
}

TEST(Cli, ConfigErrorsNameFileLineAndOption)
{
    std::string path = ::testing::TempDir() + "gtlm_cli_bad.config";
    {
        std::ofstream f(path);
        f << "-gpgpu_n_clusters 4\n-gpgpu_cache:dl1 N:64:128\n";
    }
    Result r = run("run --config " + path);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find(path + ":2:18: option '-gpgpu_cache:dl1': expected ':'"), std::string::npos) << r.out;
    r = run("options -gpgpu_n_clusters x");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("option '-gpgpu_n_clusters': expected an integer, got 'x'"), std::string::npos) << r.out;
    r = run("run --config no/such/file.config");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("no/such/file.config: cannot open configuration file"), std::string::npos) << r.out;
    std::remove(path.c_str());
}

TEST(Cli, OptionsListsValuesDefaultsAndSources)
{
    Result r = run("options --config " + configs + "tiny.config -gpgpu_scheduler gto");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("-gpgpu_scheduler                         gto\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("default lrr; from command line (argument 1)]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("from " + configs + "tiny.config:"), std::string::npos);
    EXPECT_NE(r.out.find("# block dram"), std::string::npos);
}

TEST(Cli, GpgpusimConfigNeedsTheCompatFlag)
{
    std::string cfg = std::string(GTLM_TEST_DATA) + "/gpgpusim-gtx480.config";
    Result r = run("run --config " + cfg);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("is not modelled by gtlm"), std::string::npos);
    r = run("run --gpgpusim-compat --config " + cfg);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("warning: GPGPU-Sim option"), std::string::npos);
}

TEST(Cli, StatsJsonIsWritten)
{
    std::string path = ::testing::TempDir() + "gtlm_cli_stats.json";
    Result r = run("run --config " + configs + "tiny.config --stats-json " + path);
    EXPECT_EQ(r.code, 0) << r.out;
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    nlohmann::json j = nlohmann::json::parse(s.str());
    EXPECT_TRUE(j["run"]["gpu"].contains("cycles"));
    // An unwritable path is bad usage, found before the run.
    r = run("run parboil/SGEMM --config " + configs + "tiny.config --stats-json /no/such/dir/x.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("--stats-json /no/such/dir/x.json: cannot write"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("SGEMM: verified"), std::string::npos) << r.out;
    std::remove(path.c_str());
}

std::vector<std::vector<std::string>> read_csv(const std::string &path)
{
    std::vector<std::vector<std::string>> rows;
    std::ifstream f(path);
    std::string line;
    while (std::getline(f, line)) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ',')) cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

// The line of the printed speedup table that starts with name.
std::string table_row(const std::string &out, const std::string &name)
{
    size_t at = out.find("\n" + name + " ");
    if (at == std::string::npos) return "";
    return out.substr(at + 1, out.find('\n', at + 1) - at - 1);
}

std::vector<std::string> words(const std::string &line)
{
    std::vector<std::string> w;
    std::stringstream ss(line);
    std::string x;
    while (ss >> x) w.push_back(x);
    return w;
}

long mtime_ns(const std::string &path)
{
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return -1;
    return (long)st.st_mtim.tv_sec * 1000000000L + st.st_mtim.tv_nsec;
}

TEST(Cli, SweepRunsEveryPointOnceAndComparesWithTheBaseline)
{
    std::string dir = ::testing::TempDir() + "gtlm_cli_sweep_" + std::to_string(getpid()); // /tmp is shared
    std::string out = dir + "/out";
    std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str());
    {
        std::ofstream f(dir + "/spec.txt");
        f << "# two workloads on two configurations\n"
             "workload sdk/VectorAdd\nworkload polybench/ATAX\nsize tiny\n"
             "config base " << configs << "tiny.config\n"
             "config fast " << configs << "tiny.config -gpgpu_l1_latency 1 -rop_latency 10  # shorter latencies\n"
             "baseline base\n";
    }
    Result r = run("sweep " + dir + "/spec.txt -j 2 --out " + out);
    ASSERT_EQ(r.code, 0) << r.out;
    auto rows = read_csv(out + "/results.csv");
    ASSERT_EQ(rows.size(), 5u) << r.out;
    EXPECT_EQ(rows[0][0], "workload");
    EXPECT_EQ(rows[0][2], "status");
    EXPECT_NE(std::find(rows[0].begin(), rows[0].end(), "gpu_tot_sim_cycle"), rows[0].end());
    for (size_t i = 1; i < rows.size(); i++) {
        EXPECT_EQ(rows[i][2], "ok") << rows[i][0] << " " << rows[i][1];
        EXPECT_EQ(rows[i].size(), rows[0].size());
    }
    EXPECT_NE(table_row(r.out, "geomean"), "") << r.out;
    for (const char *w : {"sdk/VectorAdd", "polybench/ATAX"}) {
        std::vector<std::string> cells = words(table_row(r.out, w));
        ASSERT_EQ(cells.size(), 3u) << r.out;
        EXPECT_EQ(cells[1], "1.000") << r.out; // base over itself
        EXPECT_GT(std::stod(cells[2]), 0.0) << r.out;
    }
    std::string log = out + "/fast__polybench_ATAX/log.txt";
    long before = mtime_ns(log);
    ASSERT_GT(before, 0);

    r = run("sweep " + dir + "/spec.txt --out " + out);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("skipped " + out + "/base__sdk_VectorAdd"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("] " + out), std::string::npos) << r.out; // nothing ran
    EXPECT_EQ(mtime_ns(log), before);
    EXPECT_EQ(read_csv(out + "/results.csv"), rows);
    std::system(("rm -rf " + dir).c_str());
}

TEST(Cli, SweepRecordsAFailedPointAndCompletesTheOthers)
{
    std::string dir = ::testing::TempDir() + "gtlm_cli_sweep_fail_" + std::to_string(getpid());
    std::string out = dir + "/out";
    std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str());
    {
        std::ofstream f(dir + "/spec.txt");
        f << "workload sdk/VectorAdd\nworkload polybench/ATAX\n"
             "config base " << configs << "tiny.config\n"
             "config broken " << configs << "tiny.config --corrupt-output\n";
    }
    Result r = run("sweep " + dir + "/spec.txt -j 3 --out " + out + " --baseline base");
    EXPECT_EQ(r.code, 1) << r.out;
    auto rows = read_csv(out + "/results.csv");
    ASSERT_EQ(rows.size(), 5u) << r.out;
    for (size_t i = 1; i < rows.size(); i++)
        EXPECT_EQ(rows[i][2], rows[i][1] == "base" ? "ok" : "failed 1") << rows[i][0] << " " << rows[i][1];
    EXPECT_EQ(words(table_row(r.out, "sdk/VectorAdd")), (std::vector<std::string>{"sdk/VectorAdd", "1.000", "failed"}))
        << r.out;
    EXPECT_EQ(words(table_row(r.out, "geomean")), (std::vector<std::string>{"geomean", "1.000", "n/a"})) << r.out;
    std::ifstream status(out + "/broken__polybench_ATAX/status");
    std::string line;
    std::getline(status, line);
    EXPECT_EQ(line, "failed 1");

    r = run("sweep " + dir + "/spec.txt --baseline nosuch --out " + out);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("baseline 'nosuch' is not a config"), std::string::npos) << r.out;
    std::system(("rm -rf " + dir).c_str());
}

} // namespace
