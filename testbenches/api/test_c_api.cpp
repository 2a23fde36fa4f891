// The public C API as a user links it: lifetimes, misuse, options and statistics.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "gtlm/gtlm.h"

namespace {

const std::string tiny = std::string(GTLM_SOURCE_DIR) + "/configs/tiny.config";

gtlm_sim *make_sim(const std::vector<const char *> &files, const std::vector<const char *> &overrides = {})
{
    gtlm_sim_options o;
    EXPECT_EQ(gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION), GTLM_OK);
    o.config_files = files.data();
    o.n_config_files = files.size();
    o.overrides = overrides.data();
    o.n_overrides = overrides.size();
    gtlm_sim *sim = nullptr;
    EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_OK) << gtlm_last_error();
    return sim;
}

std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

TEST(CApi, Version)
{
    int maj = -1, min = -1, pat = -1;
    EXPECT_EQ(gtlm_version(&maj, &min, &pat), GTLM_VERSION_NUMBER);
    EXPECT_EQ(maj, GTLM_VERSION_MAJOR);
    EXPECT_EQ(min, GTLM_VERSION_MINOR);
    EXPECT_EQ(pat, GTLM_VERSION_PATCH);
    EXPECT_EQ(gtlm_version(nullptr, nullptr, nullptr), GTLM_VERSION_NUMBER);
    EXPECT_NE(std::string(gtlm_version_string()).find("SystemC 2.3"), std::string::npos);
}

TEST(CApi, OptionsInitRejectsUnknownVersionAndNull)
{
    gtlm_sim_options o;
    EXPECT_EQ(gtlm_sim_options_init(nullptr, GTLM_SIM_OPTIONS_VERSION), GTLM_EINVAL);
    EXPECT_STREQ(gtlm_last_error(), "gtlm_sim_options_init: opts is NULL");
    EXPECT_EQ(gtlm_sim_options_init(&o, 99), GTLM_EVERSION);
    EXPECT_NE(std::string(gtlm_last_error()).find("unknown options version 99"), std::string::npos);
}

TEST(CApi, CreateWithDefaultsAndDestroy)
{
    gtlm_sim *sim = nullptr;
    ASSERT_EQ(gtlm_sim_create(&sim, nullptr), GTLM_OK) << gtlm_last_error();
    ASSERT_NE(sim, nullptr);
    char buf[64];
    ASSERT_EQ(gtlm_option_value(sim, "-gpgpu_n_clusters", buf, sizeof buf), GTLM_OK);
    EXPECT_STREQ(buf, "15");
    gtlm_sim_destroy(sim);
    gtlm_sim_destroy(nullptr); // accepted
}

TEST(CApi, MisuseReturnsCodesWithMessages)
{
    EXPECT_EQ(gtlm_sim_create(nullptr, nullptr), GTLM_EINVAL);
    EXPECT_STREQ(gtlm_last_error(), "gtlm_sim_create: out is NULL");
    double v = 0;
    EXPECT_EQ(gtlm_stat_get(nullptr, "gpu_sim_cycle", &v), GTLM_EINVAL);
    EXPECT_STREQ(gtlm_last_error(), "gtlm_stat_get: sim is NULL");
    EXPECT_EQ(gtlm_stats_write(nullptr, "x", GTLM_STATS_TEXT), GTLM_EINVAL);
    size_t n;
    EXPECT_EQ(gtlm_option_count(nullptr, &n), GTLM_EINVAL);
    EXPECT_STREQ(gtlm_sim_warnings(nullptr), "");
    EXPECT_STREQ(gtlm_sim_describe(nullptr), "");

    gtlm_sim *sim = make_sim({tiny.c_str()});
    ASSERT_NE(sim, nullptr);
    EXPECT_EQ(gtlm_stat_get(sim, "gpu_sim_cycle", nullptr), GTLM_EINVAL);
    EXPECT_STREQ(gtlm_last_error(), "gtlm_stat_get: out is NULL");
    EXPECT_EQ(gtlm_stat_get(sim, nullptr, &v), GTLM_EINVAL);
    EXPECT_EQ(gtlm_stat_get(sim, "no_such_stat", &v), GTLM_ENOTFOUND);
    EXPECT_STREQ(gtlm_last_error(), "gtlm_stat_get: no statistic named 'no_such_stat'");
    EXPECT_EQ(gtlm_option_count(sim, nullptr), GTLM_EINVAL);
    gtlm_option_info info;
    EXPECT_EQ(gtlm_option_info_get(sim, 100000, &info), GTLM_ENOTFOUND);
    char buf[8];
    EXPECT_EQ(gtlm_option_value(sim, "-nope", buf, sizeof buf), GTLM_ENOTFOUND);
    EXPECT_EQ(gtlm_option_value(sim, "-gpgpu_n_clusters", buf, 0), GTLM_EINVAL);
    EXPECT_EQ(gtlm_stats_write(sim, nullptr, GTLM_STATS_TEXT), GTLM_EINVAL);
    EXPECT_EQ(gtlm_stats_write(sim, "x", 0), GTLM_EINVAL);
    EXPECT_EQ(gtlm_stats_write(sim, "x", 0x80), GTLM_EINVAL);
    EXPECT_EQ(gtlm_stats_write(sim, "/no/such/dir/stats.txt", GTLM_STATS_TEXT), GTLM_EIO);
    EXPECT_NE(std::string(gtlm_last_error()).find("cannot open '/no/such/dir/stats.txt'"), std::string::npos);
    gtlm_sim_destroy(sim);
}

TEST(CApi, NullEntriesInOptionArraysAreRejected)
{
    gtlm_sim_options o;
    gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION);
    const char *files[] = {nullptr};
    o.config_files = files;
    o.n_config_files = 1;
    gtlm_sim *sim = reinterpret_cast<gtlm_sim *>(1);
    EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_EINVAL);
    EXPECT_EQ(sim, nullptr) << "out is cleared on failure";
    EXPECT_STREQ(gtlm_last_error(), "gtlm_sim_create: config_files[0] is NULL");
    o.n_config_files = 0;
    o.n_overrides = 2;
    EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_EINVAL);
    o.n_overrides = 0;
    o.version = 7;
    EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_EVERSION);
}

TEST(CApi, BadPathAndBadConfigGiveConfigErrors)
{
    gtlm_sim_options o;
    gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION);
    const char *files[] = {"no/such.config"};
    o.config_files = files;
    o.n_config_files = 1;
    gtlm_sim *sim = nullptr;
    EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_ECONFIG);
    EXPECT_EQ(sim, nullptr);
    EXPECT_STREQ(gtlm_last_error(), "no/such.config: cannot open configuration file: No such file or directory");

    const char *bad[] = {"-gpgpu_n_clusters", "many"};
    o.n_config_files = 0;
    o.overrides = bad;
    o.n_overrides = 2;
    EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_ECONFIG);
    EXPECT_STREQ(gtlm_last_error(),
                 "command line (argument 1): option '-gpgpu_n_clusters': expected an integer, got 'many'");
}

TEST(CApi, OverridesAndOptionInfo)
{
    gtlm_sim *sim = make_sim({tiny.c_str()}, {"-gpgpu_scheduler", "gto", "-gpgpu_cache:dl1", "N:16:128:4,L:L:m:N:L,A:16:4,4"});
    ASSERT_NE(sim, nullptr);
    char buf[128];
    ASSERT_EQ(gtlm_option_value(sim, "-gpgpu_scheduler", buf, sizeof buf), GTLM_OK);
    EXPECT_STREQ(buf, "gto");
    size_t n = 0;
    ASSERT_EQ(gtlm_option_count(sim, &n), GTLM_OK);
    bool seen = false;
    for (size_t i = 0; i < n; i++) {
        gtlm_option_info info;
        ASSERT_EQ(gtlm_option_info_get(sim, i, &info), GTLM_OK);
        EXPECT_GT(std::string(info.description).size(), 5u) << info.name;
        if (std::string(info.name) == "-gpgpu_cache:dl1") {
            seen = true;
            EXPECT_STREQ(info.type, "cache");
            EXPECT_STREQ(info.block, "l1");
            EXPECT_STREQ(info.source, "command line (argument 3)");
        }
    }
    EXPECT_TRUE(seen);
    // Truncation keeps the buffer NUL-terminated.
    char small[5];
    ASSERT_EQ(gtlm_option_value(sim, "-gpgpu_cache:dl1", small, sizeof small), GTLM_OK);
    EXPECT_STREQ(small, "N:16");
    gtlm_sim_destroy(sim);
}

TEST(CApi, StatisticsBeforeAnyKernelAreZeroAndNamed)
{
    gtlm_sim *sim = make_sim({tiny.c_str()});
    ASSERT_NE(sim, nullptr);
    double v = -1;
    ASSERT_EQ(gtlm_stat_get(sim, "gpu_tot_sim_cycle", &v), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(v, 0);
    ASSERT_EQ(gtlm_stat_get(sim, "gpu.cycles", &v), GTLM_OK);
    ASSERT_EQ(gtlm_stat_get_kernel(sim, "gpu_sim_insn", &v), GTLM_OK);
    ASSERT_EQ(gtlm_stat_get(sim, "L1D_total_cache_miss_rate", &v), GTLM_OK);
    EXPECT_EQ(v, 0) << "a ratio over zero accesses is 0";
    gtlm_sim_destroy(sim);
}

TEST(CApi, StatsWriteTextAndJson)
{
    gtlm_sim *sim = make_sim({tiny.c_str()});
    ASSERT_NE(sim, nullptr);
    std::string base = ::testing::TempDir() + "gtlm_api_stats";
    ASSERT_EQ(gtlm_stats_write(sim, base.c_str(), GTLM_STATS_TEXT | GTLM_STATS_JSON), GTLM_OK) << gtlm_last_error();
    std::string text = slurp(base);
    for (const char *name : {"gpu_tot_sim_cycle = 0", "gpu_tot_sim_insn = 0", "gpu_tot_ipc = 0",
                             "L1D_total_cache_accesses = 0", "L1D_total_cache_misses = 0", "L2_total_cache_accesses = 0",
                             "gpgpu_simulation_time = ", "gpgpu_simulation_rate = "})
        EXPECT_NE(text.find(name), std::string::npos) << name << "\n" << text;
    nlohmann::json j = nlohmann::json::parse(slurp(base + ".json"));
    EXPECT_EQ(j["run"]["gpu"]["cycles"]["value"], 0);
    EXPECT_EQ(j["run"]["gpu"]["cycles"]["unit"], "cycles");
    EXPECT_EQ(j["run"]["host"]["sim_seconds"]["host"], true);
    EXPECT_TRUE(j["kernels"].is_array());
    std::remove(base.c_str());
    std::remove((base + ".json").c_str());
    gtlm_sim_destroy(sim);
}

TEST(CApi, SeveralSimulatorsLiveSideBySide)
{
    gtlm_sim *a = make_sim({tiny.c_str()});
    gtlm_sim *b = make_sim({}, {"-gpgpu_n_clusters", "4"});
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    char va[16], vb[16];
    gtlm_option_value(a, "-gpgpu_n_clusters", va, sizeof va);
    gtlm_option_value(b, "-gpgpu_n_clusters", vb, sizeof vb);
    EXPECT_STRNE(va, vb);
    gtlm_sim_destroy(a);
    gtlm_sim *c = make_sim({tiny.c_str()});
    ASSERT_NE(c, nullptr);
    gtlm_sim_destroy(b);
    gtlm_sim_destroy(c);
    for (int i = 0; i < 20; i++) gtlm_sim_destroy(make_sim({tiny.c_str()}));
}

TEST(CApi, DescribeSummarisesTheGpu)
{
    gtlm_sim *sim = make_sim({}, {"-gpgpu_n_clusters", "3", "-gpgpu_n_cores_per_cluster", "2"});
    ASSERT_NE(sim, nullptr);
    std::string d = gtlm_sim_describe(sim);
    EXPECT_NE(d.find("GPU: 6 SMs (3 clusters x 2)"), std::string::npos) << d;
    EXPECT_NE(d.find("L2: 12 slices x 64 KB = 768 KB"), std::string::npos) << d;
    gtlm_sim_destroy(sim);
}

} // namespace

namespace {

TEST(CApi, PtxasReportGivesKernelResources)
{
    gtlm_sim *sim = make_sim({tiny.c_str()});
    ASSERT_NE(sim, nullptr);
    const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
                      ".visible .entry k(.param .u64 p)\n{\n .shared .align 4 .b8 buf[512];\n ret;\n}\n";
    gtlm_module *m = nullptr;
    ASSERT_EQ(gtlm_module_load_ptx(sim, ptx, "k.ptx", &m), GTLM_OK) << gtlm_last_error();
    gtlm_kernel_resources r{};
    ASSERT_EQ(gtlm_kernel_resources_get(sim, m, "k", &r), GTLM_OK);
    EXPECT_EQ(r.registers, 0u) << "no report yet";
    EXPECT_EQ(r.shared_bytes, 512u) << "from the PTX declarations";
    EXPECT_EQ(r.param_bytes, 8u);
    const char *rep = "ptxas info    : Compiling entry function 'k' for 'sm_75'\n"
                      "ptxas info    : Function properties for k\n"
                      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                      "ptxas info    : Used 7 registers, used 0 barriers, 512 bytes smem, 360 bytes cmem[0]\n";
    ASSERT_EQ(gtlm_module_set_ptxas_info(sim, m, rep), GTLM_OK) << gtlm_last_error();
    ASSERT_EQ(gtlm_kernel_resources_get(sim, m, "k", &r), GTLM_OK);
    EXPECT_EQ(r.registers, 7u);
    EXPECT_EQ(gtlm_kernel_resources_get(sim, m, "nope", &r), GTLM_ENOTFOUND);
    EXPECT_EQ(gtlm_module_set_ptxas_info(sim, m, "ptxas info : Compiling entry function 'other' for 'sm_75'\n"),
              GTLM_ECONFIG);
    EXPECT_NE(std::string(gtlm_last_error()).find("'other'"), std::string::npos);
    gtlm_sim_destroy(sim);
}

} // namespace

namespace {

// gtlm_run_trace on bad arguments returns codes with messages and never crashes; on a public
// trace it fills the report with one line per kernel.
TEST(CApi, RunTraceMisuseAndReport)
{
    char report[512] = "";
    EXPECT_EQ(gtlm_run_trace(nullptr, "x", report, sizeof report), GTLM_EINVAL);
    EXPECT_STREQ(gtlm_last_error(), "gtlm_run_trace: sim is NULL");
    gtlm_sim *sim = make_sim({tiny.c_str()});
    ASSERT_NE(sim, nullptr);
    EXPECT_EQ(gtlm_run_trace(sim, nullptr, report, sizeof report), GTLM_EINVAL);
    EXPECT_STREQ(gtlm_last_error(), "gtlm_run_trace: dir is NULL");
    EXPECT_EQ(gtlm_run_trace(sim, "/nonexistent-trace-dir", report, sizeof report), GTLM_EINVAL);
    EXPECT_NE(std::string(gtlm_last_error()).find("/nonexistent-trace-dir/kernelslist.g: cannot open"), std::string::npos)
        << gtlm_last_error();
    std::string dir = std::string(GTLM_SOURCE_DIR) + "/testbenches/data/traces/microgpusim-vectoradd-100-32";
    ASSERT_EQ(gtlm_run_trace(sim, dir.c_str(), report, sizeof report), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(std::string(report).rfind("kernel _Z6vecAddIfEvPT_S1_S1_i cycles ", 0), 0u) << report;
    EXPECT_NE(std::string(report).find(" warp_insn 344 ctas 1 "), std::string::npos) << report;
    double insn = 0;
    ASSERT_EQ(gtlm_stat_get(sim, "gpgpu_n_tot_w_icount", &insn), GTLM_OK);
    EXPECT_EQ(insn, 344);
    gtlm_sim_destroy(sim);

    gtlm_sim *functional = make_sim({tiny.c_str()}, {"-gtlm_mode", "functional"});
    ASSERT_NE(functional, nullptr);
    EXPECT_EQ(gtlm_run_trace(functional, dir.c_str(), nullptr, 0), GTLM_EINVAL);
    EXPECT_NE(std::string(gtlm_last_error()).find("need -gtlm_mode timing"), std::string::npos) << gtlm_last_error();
    gtlm_sim_destroy(functional);
}

} // namespace
