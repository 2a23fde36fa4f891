// Unit tests of the statistics registry (model/stats).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

extern "C" {
#include "stats/stats.h"
}

namespace {

// Owns a registry for one test.
struct Reg {
    stat_registry *r = stat_registry_new();
    ~Reg() { stat_registry_free(r); }
    operator stat_registry *() const { return r; }
};

// Reads back everything a dump function wrote into a temporary file.
template <typename Fn>
std::string capture(Fn fn)
{
    FILE *f = std::tmpfile();
    EXPECT_NE(f, nullptr);
    if (!f) return "";
    EXPECT_EQ(fn(f), 0);
    std::rewind(f);
    std::string s;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    std::fclose(f);
    return s;
}

std::string text(const stat_registry *r, stat_scope scope)
{
    return capture([&](FILE *f) { return stat_dump_text(r, f, scope); });
}

std::string json(const stat_registry *r)
{
    return capture([&](FILE *f) { return stat_dump_json(r, f); });
}

double get(const stat_registry *r, const char *name, stat_scope scope)
{
    double v = -12345.0;
    EXPECT_EQ(stat_get(r, name, scope, &v), 0) << name;
    return v;
}

}  // namespace

TEST(Stats, AcceptsWellFormedPaths)
{
    Reg r;
    uint64_t c = 0;
    EXPECT_EQ(stat_add_counter(r, "cycles", &c, "cycle", "", nullptr), 0);
    EXPECT_EQ(stat_add_counter(r, "gpu.sm[3].l1d.misses", &c, "", "", nullptr), 1);
    EXPECT_EQ(stat_add_counter(r, "gpu.sm[12].l1d.misses", &c, nullptr, nullptr, nullptr), 2);
    EXPECT_EQ(stat_add_counter(r, "A_b9.x_Y", &c, "", "", nullptr), 3);
    EXPECT_EQ(stat_count(r), 4);
    EXPECT_STREQ(stat_path(r, 1), "gpu.sm[3].l1d.misses");
    EXPECT_EQ(stat_find(r, "gpu.sm[12].l1d.misses"), 2);
    EXPECT_EQ(stat_find(r, "gpu.sm[1].l1d.misses"), -1);
    EXPECT_EQ(stat_path(r, 4), nullptr);
    EXPECT_EQ(stat_path(r, -1), nullptr);
}

TEST(Stats, RejectsBadPaths)
{
    Reg r;
    uint64_t c = 0;
    const char *bad[] = {"",       ".a",       "a.",       "a..b",     "a b",      "sm[]",     "sm[x]",
                         "[3]",    "a.[3]",    "sm[3]x",   "sm[3][4]", "sm[-1]",   "a-b",      "a/b",
                         "sm[3",   "sm3]",     "sm[*]",    "gpu.\xc3\xa9",    " a",       "a\n"};
    for (const char *p : bad) EXPECT_EQ(stat_add_counter(r, p, &c, "", "", nullptr), -1) << "'" << p << "'";
    EXPECT_EQ(stat_add_counter(r, nullptr, &c, "", "", nullptr), -1);
    EXPECT_EQ(stat_add_counter(r, "ok", nullptr, "", "", nullptr), -1);  // no source
    EXPECT_EQ(stat_add_derived(r, "ok", nullptr, nullptr, "", "", nullptr), -1);
    EXPECT_EQ(stat_count(r), 0);
    // Failed registrations do not use up ids.
    EXPECT_EQ(stat_add_counter(r, "ok", &c, "", "", nullptr), 0);
}

TEST(Stats, RejectsDuplicatesAndPrefixConflicts)
{
    Reg r;
    uint64_t c = 0;
    double d = 0;
    ASSERT_EQ(stat_add_counter(r, "gpu.sm", &c, "", "", nullptr), 0);
    EXPECT_EQ(stat_add_counter(r, "gpu.sm", &c, "", "", nullptr), -1);
    EXPECT_EQ(stat_add_real(r, "gpu.sm", &d, "", "", nullptr), -1);
    EXPECT_EQ(stat_add_counter(r, "gpu.sm.x", &c, "", "", nullptr), -1);  // gpu.sm is a leaf
    EXPECT_EQ(stat_add_counter(r, "gpu", &c, "", "", nullptr), -1);       // gpu is an object
    // Neither an indexed sibling nor a longer name is a conflict.
    EXPECT_EQ(stat_add_counter(r, "gpu.sm[3].x", &c, "", "", nullptr), 1);
    EXPECT_EQ(stat_add_counter(r, "gpu.smx", &c, "", "", nullptr), 2);
    EXPECT_EQ(stat_add_counter(r, "gpu.sm[3]", &c, "", "", nullptr), -1);  // gpu.sm[3] is an object
    EXPECT_EQ(stat_add_counter(r, "gpu.sm[3].x.y", &c, "", "", nullptr), -1);
    EXPECT_EQ(stat_count(r), 3);
}

// Setup of the largest GPU (4096 SMs, issue 12) registers hundreds of thousands of statistics:
// registration with its duplicate and prefix checks, sums over every SM and lookup by path must
// stay near-linear. A quadratic registry needs about 10^10 name comparisons here (minutes);
// the bound is generous for a loaded machine and a sanitizer build, which take about a second.
TEST(Stats, TheLargestGpusStatisticsRegisterAndResolveInNearLinearTime)
{
    Reg r;
    const int sms = 4096, per_sm = 64;
    std::vector<uint64_t> src((size_t)sms * per_sm, 1);
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < per_sm; k++) {
        const std::string pattern = "gpu.sm[*].unit.c" + std::to_string(k);
        ASSERT_GE(stat_add_sum(r, ("gpu.total.c" + std::to_string(k)).c_str(), pattern.c_str(), "", "", nullptr), 0);
    }
    for (int i = 0; i < sms; i++)
        for (int k = 0; k < per_sm; k++) {
            const std::string path = "gpu.sm[" + std::to_string(i) + "].unit.c" + std::to_string(k);
            ASSERT_GE(stat_add_counter(r, path.c_str(), &src[(size_t)i * per_sm + k], "", "", nullptr), 0) << path;
        }
    for (int i = 0; i < sms; i += 7)
        for (int k = 0; k < per_sm; k++) {
            const std::string path = "gpu.sm[" + std::to_string(i) + "].unit.c" + std::to_string(k);
            ASSERT_EQ(stat_find(r, path.c_str()), per_sm + i * per_sm + k) << path;
        }
    EXPECT_EQ(stat_find(r, "gpu.sm[4096].unit.c0"), -1);
    stat_kernel_begin(r, "k");
    for (auto &v : src) v = 1;
    stat_kernel_end(r);
    EXPECT_EQ(get(r, "gpu.total.c63", STAT_SCOPE_RUN), sms);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(seconds, 60.0) << (sms * per_sm) << " statistics took " << seconds << " s";
    std::printf("%d statistics registered, resolved and summed in %.2f s\n", sms * per_sm, seconds);
}

TEST(Stats, RejectsClashingGpgpusimNames)
{
    Reg r;
    uint64_t c = 0;
    stat_names n1 = {"gpu_sim_cycle", "gpu_tot_sim_cycle", 0};
    ASSERT_EQ(stat_add_counter(r, "gpu.cycles", &c, "", "", &n1), 0);
    stat_names same_kernel = {"gpu_sim_cycle", nullptr, 0};
    stat_names kernel_is_run = {"gpu_tot_sim_cycle", nullptr, 0};
    stat_names path_name = {nullptr, "gpu.cycles", 0};
    stat_names both_same = {"x_y", "x_y", 0};
    stat_names spaces = {"gpu sim", nullptr, 0};
    EXPECT_EQ(stat_add_counter(r, "a", &c, "", "", &same_kernel), -1);
    EXPECT_EQ(stat_add_counter(r, "b", &c, "", "", &kernel_is_run), -1);
    EXPECT_EQ(stat_add_counter(r, "c", &c, "", "", &path_name), -1);
    EXPECT_EQ(stat_add_counter(r, "d", &c, "", "", &both_same), -1);
    EXPECT_EQ(stat_add_counter(r, "e", &c, "", "", &spaces), -1);
    EXPECT_EQ(stat_add_counter(r, "gpu_sim_cycle", &c, "", "", nullptr), -1);  // path equal to a name
    EXPECT_EQ(stat_count(r), 1);
}

TEST(Stats, CounterKernelAndRunScopes)
{
    Reg r;
    uint64_t cycles = 0;
    int id = stat_add_counter(r, "gpu.cycles", &cycles, "cycle", "core cycles", nullptr);
    ASSERT_GE(id, 0);

    cycles = 99;  // counted before any kernel: begin must zero it
    stat_kernel_begin(r, "k1");
    EXPECT_EQ(cycles, 0u);
    cycles = 10;
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_KERNEL), 10.0);
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_RUN), 10.0);  // live value of the open kernel
    stat_kernel_end(r);
    EXPECT_EQ(stat_kernel_count(r), 1);
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_RUN), 10.0);

    stat_kernel_begin(r, "k2");
    EXPECT_EQ(cycles, 0u);
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_KERNEL), 0.0);
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_RUN), 10.0);
    cycles = 5;
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_RUN), 15.0);
    stat_kernel_end(r);

    stat_kernel_begin(r, "k3");
    cycles = 7;
    stat_kernel_end(r);
    EXPECT_EQ(stat_kernel_count(r), 3);
    // The kernel scope is the last finished kernel, the run scope the sum of all three.
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_KERNEL), 7.0);
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_RUN), 22.0);
    // Ending twice does not count the kernel twice.
    stat_kernel_end(r);
    EXPECT_EQ(stat_kernel_count(r), 3);
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_RUN), 22.0);
}

TEST(Stats, BeginWithoutEndKeepsThePreviousKernel)
{
    Reg r;
    uint64_t c = 0;
    int id = stat_add_counter(r, "c", &c, "", "", nullptr);
    stat_kernel_begin(r, "k1");
    c = 4;
    stat_kernel_begin(r, "k2");  // k1 is ended implicitly, not lost
    EXPECT_EQ(stat_kernel_count(r), 1);
    c = 1;
    stat_kernel_end(r);
    EXPECT_EQ(stat_kernel_count(r), 2);
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_RUN), 5.0);
}

TEST(Stats, RealKernelAndRunScopes)
{
    Reg r;
    double energy = 0;
    int id = stat_add_real(r, "gpu.energy", &energy, "J", "dynamic energy", nullptr);
    ASSERT_EQ(id, 0);
    stat_kernel_begin(r, "a");
    energy = 0.5;
    stat_kernel_end(r);
    stat_kernel_begin(r, "b");
    EXPECT_EQ(energy, 0.0);
    energy = 0.25;
    EXPECT_DOUBLE_EQ(stat_value(r, id, STAT_SCOPE_RUN), 0.75);
    stat_kernel_end(r);
    EXPECT_DOUBLE_EQ(stat_value(r, id, STAT_SCOPE_KERNEL), 0.25);
    EXPECT_DOUBLE_EQ(stat_value(r, id, STAT_SCOPE_RUN), 0.75);
}

TEST(Stats, RatioUsesScopeAndZeroDenominator)
{
    Reg r;
    uint64_t inst = 0, cycles = 0;
    stat_add_counter(r, "gpu.inst", &inst, "", "", nullptr);
    stat_add_counter(r, "gpu.cycles", &cycles, "", "", nullptr);
    int ipc = stat_add_ratio(r, "gpu.ipc", "gpu.inst", "gpu.cycles", "inst/cycle", "", nullptr);
    ASSERT_GE(ipc, 0);
    EXPECT_EQ(stat_add_ratio(r, "gpu.bad", "gpu.inst", "gpu.nothing", "", "", nullptr), -1);
    EXPECT_EQ(stat_add_ratio(r, "gpu.bad", "nothing", "gpu.cycles", "", "", nullptr), -1);

    stat_kernel_begin(r, "k1");
    inst = 7;
    EXPECT_EQ(stat_value(r, ipc, STAT_SCOPE_KERNEL), 0.0);  // no cycles yet: 0, not inf or nan
    inst = 10;
    cycles = 5;
    stat_kernel_end(r);
    stat_kernel_begin(r, "k2");
    inst = 30;
    cycles = 5;
    stat_kernel_end(r);
    EXPECT_DOUBLE_EQ(stat_value(r, ipc, STAT_SCOPE_KERNEL), 6.0);
    EXPECT_DOUBLE_EQ(stat_value(r, ipc, STAT_SCOPE_RUN), 4.0);  // 40 / 10, not the mean of ratios
}

static double twice_cycles(const stat_registry *r, stat_scope scope, const void *ctx)
{
    double v = 0;
    stat_get(r, "gpu.cycles", scope, &v);
    return v * *static_cast<const double *>(ctx);
}

TEST(Stats, DerivedGetsScopeAndContext)
{
    Reg r;
    uint64_t cycles = 0;
    double factor = 2.0;
    stat_add_counter(r, "gpu.cycles", &cycles, "", "", nullptr);
    int id = stat_add_derived(r, "gpu.twice", twice_cycles, &factor, "", "", nullptr);
    ASSERT_EQ(id, 1);
    stat_kernel_begin(r, "k1");
    cycles = 3;
    stat_kernel_end(r);
    stat_kernel_begin(r, "k2");
    cycles = 4;
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_KERNEL), 8.0);
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_RUN), 14.0);
    factor = 3.0;
    EXPECT_EQ(stat_value(r, id, STAT_SCOPE_KERNEL), 12.0);
}

TEST(Stats, SumIncludesLaterRegistrations)
{
    Reg r;
    uint64_t m[4] = {0, 0, 0, 0};
    uint64_t hits = 0, plain = 0, other = 0;
    double real_part = 0;
    stat_add_counter(r, "gpu.sm[0].l1d.misses", &m[0], "", "", nullptr);
    stat_add_counter(r, "gpu.sm[1].l1d.misses", &m[1], "", "", nullptr);
    stat_add_counter(r, "gpu.sm[1].l1d.hits", &hits, "", "", nullptr);
    EXPECT_EQ(stat_add_sum(r, "gpu.bad", "gpu.sm[*.l1d.misses", "", "", nullptr), -1);
    EXPECT_EQ(stat_add_sum(r, "gpu.bad", "gpu..misses", "", "", nullptr), -1);
    int sum = stat_add_sum(r, "gpu.l1d_misses", "gpu.sm[*].l1d.misses", "miss", "", nullptr);
    ASSERT_GE(sum, 0);
    // Registered after the sum: the matching ones must count too.
    stat_add_counter(r, "gpu.sm[10].l1d.misses", &m[2], "", "", nullptr);
    stat_add_real(r, "gpu.sm[2].l1d.misses", &real_part, "", "", nullptr);
    stat_add_counter(r, "gpu.sm.l1d.misses", &plain, "", "", nullptr);        // no index: no match
    stat_add_counter(r, "gpu.sm[3].l1d.misses_x", &other, "", "", nullptr);  // longer name: no match

    stat_kernel_begin(r, "k1");
    m[0] = 1;
    m[1] = 2;
    m[2] = 4;
    real_part = 0.5;
    hits = 100;
    plain = 1000;
    other = 10000;
    EXPECT_DOUBLE_EQ(stat_value(r, sum, STAT_SCOPE_KERNEL), 7.5);
    stat_kernel_end(r);
    stat_kernel_begin(r, "k2");
    m[1] = 8;
    EXPECT_DOUBLE_EQ(stat_value(r, sum, STAT_SCOPE_KERNEL), 8.0);
    EXPECT_DOUBLE_EQ(stat_value(r, sum, STAT_SCOPE_RUN), 15.5);
    stat_kernel_end(r);
}

TEST(Stats, GpgpusimNamesSelectTheirScope)
{
    Reg r;
    uint64_t cycles = 0, inst = 0;
    stat_names cn = {"gpu_sim_cycle", "gpu_tot_sim_cycle", 0};
    stat_names in = {nullptr, "gpu_tot_sim_insn", 0};
    stat_add_counter(r, "gpu.cycles", &cycles, "", "", &cn);
    stat_add_counter(r, "gpu.inst", &inst, "", "", &in);
    stat_kernel_begin(r, "k1");
    cycles = 3;
    inst = 30;
    stat_kernel_end(r);
    stat_kernel_begin(r, "k2");
    cycles = 4;
    inst = 40;
    stat_kernel_end(r);
    // The name's own scope wins over the scope argument.
    EXPECT_EQ(get(r, "gpu_sim_cycle", STAT_SCOPE_RUN), 4.0);
    EXPECT_EQ(get(r, "gpu_sim_cycle", STAT_SCOPE_KERNEL), 4.0);
    EXPECT_EQ(get(r, "gpu_tot_sim_cycle", STAT_SCOPE_KERNEL), 7.0);
    EXPECT_EQ(get(r, "gpu_tot_sim_insn", STAT_SCOPE_KERNEL), 70.0);
    // A path follows the scope argument.
    EXPECT_EQ(get(r, "gpu.cycles", STAT_SCOPE_KERNEL), 4.0);
    EXPECT_EQ(get(r, "gpu.cycles", STAT_SCOPE_RUN), 7.0);
    double v = -1;
    EXPECT_EQ(stat_get(r, "gpu_sim_insn", STAT_SCOPE_RUN, &v), -1);
    EXPECT_EQ(stat_get(r, "gpu.nothing", STAT_SCOPE_RUN, &v), -1);
    EXPECT_EQ(v, -1);
}

// cycles and inst carry GPGPU-Sim names, ipc only a kernel one, energy none.
static void fill_text_registry(stat_registry *r, uint64_t *cycles, uint64_t *inst, double *energy)
{
    stat_names cn = {"gpu_sim_cycle", "gpu_tot_sim_cycle", 0};
    stat_names in = {"gpu_sim_insn", "gpu_tot_sim_insn", 0};
    stat_names ipcn = {"gpu_ipc", nullptr, 0};
    ASSERT_EQ(stat_add_real(r, "gpu.energy", energy, "J", "", nullptr), 0);
    ASSERT_EQ(stat_add_counter(r, "gpu.cycles", cycles, "cycle", "", &cn), 1);
    ASSERT_EQ(stat_add_counter(r, "gpu.inst", inst, "inst", "", &in), 2);
    ASSERT_EQ(stat_add_ratio(r, "gpu.ipc", "gpu.inst", "gpu.cycles", "", "", &ipcn), 3);
}

TEST(Stats, TextDumpGpgpusimNamesFirst)
{
    Reg r;
    uint64_t cycles = 0, inst = 0;
    double energy = 0;
    fill_text_registry(r, &cycles, &inst, &energy);
    stat_kernel_begin(r, "k1");
    cycles = 100;
    inst = 250;
    energy = 1.5;
    stat_kernel_end(r);
    stat_kernel_begin(r, "k2");
    cycles = 30;
    inst = 20;
    energy = 0.25;
    stat_kernel_end(r);

    EXPECT_EQ(text(r, STAT_SCOPE_KERNEL),
              "gpu_sim_cycle = 30\n"
              "gpu_sim_insn = 20\n"
              "gpu_ipc = 0.666667\n"
              "gpu.energy = 0.25\n");
    EXPECT_EQ(text(r, STAT_SCOPE_RUN),
              "gpu_tot_sim_cycle = 130\n"
              "gpu_tot_sim_insn = 270\n"
              "gpu.energy = 1.75\n"
              "gpu.ipc = 2.07692\n");
}

TEST(Stats, TextDumpPrintsLargeCountersExactly)
{
    Reg r;
    uint64_t big = 0;
    double whole = 0;
    stat_add_counter(r, "big", &big, "", "", nullptr);
    stat_add_real(r, "whole", &whole, "", "", nullptr);
    stat_kernel_begin(r, "k");
    big = UINT64_MAX;
    whole = -3.0;
    EXPECT_EQ(text(r, STAT_SCOPE_KERNEL), "big = 18446744073709551615\nwhole = -3\n");
}

static double not_a_number(const stat_registry *, stat_scope, const void *) { return std::nan(""); }

TEST(Stats, JsonDumpNestsByPathAndKeepsHistory)
{
    Reg r;
    uint64_t cycles = 0, m0 = 0, m1 = 0, big = 0, late = 0;
    double wall = 0;
    const std::string tricky = "say \"hi\"\\ then\nnew line\ttab\x01";
    stat_names host = {nullptr, nullptr, 1};
    ASSERT_EQ(stat_add_counter(r, "gpu.cycles", &cycles, "cycle", tricky.c_str(), nullptr), 0);
    ASSERT_EQ(stat_add_counter(r, "gpu.sm[0].l1d.misses", &m0, "miss", "L1D misses", nullptr), 1);
    ASSERT_EQ(stat_add_counter(r, "gpu.sm[1].l1d.misses", &m1, "miss", "L1D misses", nullptr), 2);
    ASSERT_EQ(stat_add_sum(r, "gpu.l1d_misses", "gpu.sm[*].l1d.misses", "miss", "all", nullptr), 3);
    ASSERT_EQ(stat_add_real(r, "host.wall_time", &wall, "s", "wall clock", &host), 4);
    ASSERT_EQ(stat_add_derived(r, "gpu.broken", not_a_number, nullptr, "", "", nullptr), 5);
    ASSERT_EQ(stat_add_counter(r, "big", &big, "", "", nullptr), 6);

    stat_kernel_begin(r, "k\"one\"");
    cycles = 10;
    m0 = 1;
    m1 = 2;
    wall = 0.125;
    big = UINT64_MAX;
    stat_kernel_end(r);
    // Registered between kernels: only in the second kernel's record.
    ASSERT_EQ(stat_add_counter(r, "gpu.late", &late, "", "", nullptr), 7);
    stat_kernel_begin(r, "two");
    cycles = 20;
    m1 = 5;
    late = 3;
    stat_kernel_end(r);

    std::string s = json(r);
    EXPECT_EQ(s, json(r));  // deterministic
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(s)) << s;

    const auto &run = j.at("run");
    const auto &gc = run.at("gpu").at("cycles");
    EXPECT_TRUE(gc.at("value").is_number_integer());
    EXPECT_EQ(gc.at("value").get<uint64_t>(), 30u);
    EXPECT_EQ(gc.at("unit"), "cycle");
    EXPECT_EQ(gc.at("description").get<std::string>(), tricky);
    EXPECT_EQ(gc.at("host"), false);
    EXPECT_EQ(run.at("gpu").at("sm[1]").at("l1d").at("misses").at("value").get<uint64_t>(), 7u);
    EXPECT_EQ(run.at("gpu").at("sm[0]").at("l1d").at("misses").at("unit"), "miss");
    EXPECT_DOUBLE_EQ(run.at("gpu").at("l1d_misses").at("value").get<double>(), 8.0);  // 1 + 2 + 5
    const auto &wt = run.at("host").at("wall_time");
    EXPECT_EQ(wt.at("host"), true);
    EXPECT_DOUBLE_EQ(wt.at("value").get<double>(), 0.125);
    EXPECT_EQ(wt.at("description"), "wall clock");
    EXPECT_TRUE(run.at("gpu").at("broken").at("value").is_null());
    EXPECT_EQ(run.at("big").at("value").get<uint64_t>(), UINT64_MAX);  // exact, not via double
    EXPECT_EQ(run.at("gpu").at("late").at("value").get<uint64_t>(), 3u);
    EXPECT_EQ(run.size(), 3u);  // gpu, host, big

    const auto &k = j.at("kernels");
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].at("index"), 0);
    EXPECT_EQ(k[0].at("name"), "k\"one\"");
    EXPECT_EQ(k[1].at("index"), 1);
    EXPECT_EQ(k[1].at("name"), "two");
    const auto &s0 = k[0].at("stats");
    const auto &s1 = k[1].at("stats");
    EXPECT_EQ(s0.at("gpu.cycles").get<uint64_t>(), 10u);
    EXPECT_EQ(s1.at("gpu.cycles").get<uint64_t>(), 20u);
    EXPECT_EQ(s0.at("gpu.sm[1].l1d.misses").get<uint64_t>(), 2u);
    EXPECT_DOUBLE_EQ(s0.at("gpu.l1d_misses").get<double>(), 3.0);  // derived values are in history
    EXPECT_DOUBLE_EQ(s1.at("gpu.l1d_misses").get<double>(), 5.0);
    EXPECT_DOUBLE_EQ(s0.at("host.wall_time").get<double>(), 0.125);
    EXPECT_DOUBLE_EQ(s1.at("host.wall_time").get<double>(), 0.0);
    EXPECT_TRUE(s0.at("gpu.broken").is_null());
    EXPECT_EQ(s0.at("big").get<uint64_t>(), UINT64_MAX);
    EXPECT_FALSE(s0.contains("gpu.late"));
    EXPECT_EQ(s1.at("gpu.late").get<uint64_t>(), 3u);
    EXPECT_EQ(s0.size(), 7u);
    EXPECT_EQ(s1.size(), 8u);
}

TEST(Stats, JsonDumpOfEmptyRegistry)
{
    Reg r;
    nlohmann::json j = nlohmann::json::parse(json(r));
    EXPECT_TRUE(j.at("run").is_object());
    EXPECT_TRUE(j.at("run").empty());
    EXPECT_TRUE(j.at("kernels").is_array());
    EXPECT_TRUE(j.at("kernels").empty());
}

TEST(Stats, JsonRealsRoundTrip)
{
    Reg r;
    double a = 0, b = 0;
    stat_add_real(r, "a", &a, "", "", nullptr);
    stat_add_real(r, "b", &b, "", "", nullptr);
    stat_kernel_begin(r, "k");
    a = 0.1;
    b = 1.0 / 3.0;
    nlohmann::json j = nlohmann::json::parse(json(r));
    EXPECT_EQ(j["run"]["a"]["value"].get<double>(), 0.1);
    EXPECT_EQ(j["run"]["b"]["value"].get<double>(), 1.0 / 3.0);
}
