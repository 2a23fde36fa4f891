// The gtlm command: exit codes (0 success, 1 failure, 2 bad usage or input) and messages.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {

struct Result {
    int code = -1;
    std::string out; // stdout and stderr together
};

Result run(const std::string &args)
{
    Result r;
    std::string cmd = std::string(GTLM_CLI) + " " + args + " 2>&1";
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    int st = pclose(p);
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

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
    r = run("run --config " + configs + "tiny.config --stats-json /no/such/dir/x.json");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("cannot open '/no/such/dir/x.json'"), std::string::npos) << r.out;
    std::remove(path.c_str());
}

} // namespace
