// gtlm reproduce: oracles whose winner is known, means against hand-computed values, empty
// classes, resume after a kill, the committed example experiment, and file:line errors.
#include <gtest/gtest.h>

#include "cli_run.h"

extern "C" {
#include "sweep.h"
}

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <signal.h>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

const std::string tiny = std::string(GTLM_SOURCE_DIR) + "/configs/tiny.config";

std::string fresh_dir(const std::string &name)
{
    // the process id: other builds' tests may run at the same time in the same /tmp
    std::string dir = ::testing::TempDir() + name + "_" + std::to_string(getpid());
    EXPECT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
    return dir;
}

void write(const std::string &path, const std::string &text)
{
    std::ofstream f(path);
    f << text;
}

std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// FIGURE.csv: row,class,config,ours,winner,document -> (row, config) -> cells
std::map<std::pair<std::string, std::string>, std::vector<std::string>> figure(const std::string &path)
{
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> m;
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    while (std::getline(f, line)) {
        std::vector<std::string> cells;
        std::stringstream ss(line + ",");
        std::string c;
        while (std::getline(ss, c, ',')) cells.push_back(c);
        m[{cells[0], cells[2]}] = cells;
    }
    return m;
}

// A shell command line (run() prefixes the gtlm binary).
Result shell(const std::string &cmd)
{
    Result r;
    FILE *p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    int st = pclose(p);
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

using Figure = std::map<std::pair<std::string, std::string>, std::vector<std::string>>;

std::vector<std::string> at(Figure &f, const std::string &row, const std::string &config)
{
    return f[{row, config}];
}

long mtime_ns(const std::string &path)
{
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return -1;
    return (long)st.st_mtim.tv_sec * 1000000000L + st.st_mtim.tv_nsec;
}

TEST(Means, AgainstHandComputedValues)
{
    const double v[] = {1.0, 2.0, 4.0};
    double m;
    ASSERT_TRUE(sw_mean(SW_GEOMEAN, v, 3, &m));
    EXPECT_DOUBLE_EQ(m, 2.0); // cube root of 8
    ASSERT_TRUE(sw_mean(SW_HMEAN, v, 3, &m));
    EXPECT_DOUBLE_EQ(m, 3.0 / 1.75); // 3 / (1 + 1/2 + 1/4)
    ASSERT_TRUE(sw_mean(SW_AMEAN, v, 3, &m));
    EXPECT_DOUBLE_EQ(m, 7.0 / 3.0);
    EXPECT_FALSE(sw_mean(SW_GEOMEAN, v, 0, &m)); // no workloads: no mean, not zero
    const double z[] = {2.0, 0.0};
    EXPECT_FALSE(sw_mean(SW_HMEAN, z, 2, &m));
    ASSERT_TRUE(sw_mean(SW_AMEAN, z, 2, &m));
    EXPECT_DOUBLE_EQ(m, 1.0);
}

// Three configurations whose only difference is the L1 and ROP latency: the one with latency 1
// needs the fewest cycles on any kernel that loads, so it must win both oracles.
std::string latency_spec()
{
    return "size sim   # every workload below has its own size\n"
           "workload sdk/VectorAdd label=VA class=stream size=tiny\n"
           "workload rodinia/HotSpot label=HS class=stream size=tiny\n"
           "class idle   # declared, no workloads\n"
           "config slow " + tiny + " -gpgpu_l1_latency 300 -rop_latency 400\n"
           "config fast " + tiny + " -gpgpu_l1_latency 1 -rop_latency 1\n"
           "config mid  " + tiny + " -gpgpu_l1_latency 60 -rop_latency 100\n"
           "baseline slow\n"
           "oracle best-cycles best-of slow mid fast by gpu_tot_sim_cycle\n"
           "oracle best-ipc best-of mid fast slow by max ipc\n"
           "config fast-again " + tiny + " -gpgpu_l1_latency 1 -rop_latency 1\n"
           "oracle tie best-of fast-again fast by min cycles   # equal cycles: the first member wins\n"
           "metric ipc value gpu_tot_ipc\n"
           "metric speedup speedup gpu_tot_sim_cycle\n"
           "metric cycles value gpu_tot_sim_cycle\n"
           "figure fig_speedup speedup configs=slow,mid,fast,best-cycles,best-ipc,tie\n"
           "figure fig_cycles cycles configs=slow,fast means=geomean,hmean,amean\n";
}

TEST(Reproduce, OracleWinnerMeansAndEmptyClass)
{
    std::string dir = fresh_dir("gtlm_repro_oracle");
    write(dir + "/spec", latency_spec());
    write(dir + "/numbers", "claim fig_speedup fast geomean 2.0 slow short latencies pay\n");
    Result r = run("reproduce " + dir + " --out " + dir + "/out --no-plots");
    ASSERT_EQ(r.code, 0) << r.out;
    auto sp = figure(dir + "/out/fig_speedup.csv");
    for (const char *w : {"VA", "HS"}) {
        ASSERT_EQ(at(sp, w, "best-cycles").size(), 6u) << w;
        EXPECT_EQ(at(sp, w, "best-cycles")[4], "fast") << w;
        EXPECT_EQ(at(sp, w, "best-ipc")[4], "fast") << w;
        EXPECT_EQ(at(sp, w, "tie")[4], "fast-again") << w;
        EXPECT_EQ(at(sp, w, "best-cycles")[3], at(sp, w, "fast")[3]) << w;
        EXPECT_EQ(at(sp, w, "slow")[3], "1") << w;
        EXPECT_GT(std::stod(at(sp, w, "fast")[3]), std::stod(at(sp, w, "mid")[3])) << w;
    }
    EXPECT_EQ(slurp(dir + "/out/fast__rodinia_HotSpot/args").substr(0, 40), "run\nrodinia/HotSpot\n--size\ntiny\n--config")
        << "the workload's own size";
    EXPECT_NE(r.out.find("| VA | stream |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[fast]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("- verdict: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("short latencies pay (fig_speedup fast geomean: document 2"), std::string::npos) << r.out;

    // The means of the cycles against values computed here from the per-workload cells.
    auto cy = figure(dir + "/out/fig_cycles.csv");
    for (const char *c : {"slow", "fast"}) {
        double a = std::stod(at(cy, "VA", c)[3]), b = std::stod(at(cy, "HS", c)[3]);
        EXPECT_NEAR(std::stod(at(cy, "geomean", c)[3]), std::sqrt(a * b), 1e-5 * a);
        EXPECT_NEAR(std::stod(at(cy, "hmean", c)[3]), 2.0 / (1.0 / a + 1.0 / b), 1e-5 * a);
        EXPECT_NEAR(std::stod(at(cy, "amean", c)[3]), (a + b) / 2.0, 1e-5 * a);
        EXPECT_EQ(at(cy, "amean:stream", c)[3], at(cy, "amean", c)[3]);
        EXPECT_EQ(at(cy, "geomean:idle", c)[3], "empty") << "a class without workloads is empty, not 0";
        EXPECT_EQ(at(cy, "hmean:idle", c)[3], "empty");
    }
    EXPECT_NE(r.out.find("| geomean:idle | idle | empty | empty |"), std::string::npos) << r.out;
    std::system(("rm -rf " + dir).c_str());
}

// speedup_jit (PAVER Sec. 3.5): base time / (time + JIT seconds), time = cycles / MHz. With the
// warp instruction count standing in for the JIT seconds (a deterministic stand-in) and 2 MHz:
// (b / 2e6) / (x / 2e6 + w) from the cells of the same runs.
TEST(Reproduce, SpeedupWithJitTimeFormula)
{
    std::string dir = fresh_dir("gtlm_repro_jit");
    write(dir + "/spec", "workload sdk/VectorAdd label=VA\n"
                         "config slow " + tiny + " -gpgpu_l1_latency 300 -rop_latency 400\n"
                         "config fast " + tiny + " -gpgpu_l1_latency 1 -rop_latency 1\n"
                         "metric cycles value gpu_tot_sim_cycle\n"
                         "metric insn value gpgpu_n_tot_w_icount\n"
                         "metric sj speedup_jit gpu_tot_sim_cycle gpgpu_n_tot_w_icount 2 over=slow\n"
                         "figure fig_cycles cycles\nfigure fig_insn insn\nfigure fig_sj sj\n");
    Result r = run("reproduce " + dir + " --out " + dir + "/out --no-plots");
    ASSERT_EQ(r.code, 0) << r.out;
    auto cy = figure(dir + "/out/fig_cycles.csv"), in = figure(dir + "/out/fig_insn.csv"), sj = figure(dir + "/out/fig_sj.csv");
    double b = std::stod(at(cy, "VA", "slow")[3]), x = std::stod(at(cy, "VA", "fast")[3]);
    double w = std::stod(at(in, "VA", "fast")[3]);
    EXPECT_NEAR(std::stod(at(sj, "VA", "fast")[3]), (b / 2e6) / (x / 2e6 + w), 1e-4 * (b / 2e6) / (x / 2e6 + w));
    write(dir + "/spec", "workload sdk/VectorAdd\nconfig a " + tiny + "\nmetric sj speedup_jit gpu_tot_sim_cycle x 0\n");
    r = run("reproduce " + dir + " --out " + dir + "/out3 --no-plots");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("MHZ > 0"), std::string::npos) << r.out;
    std::system(("rm -rf " + dir).c_str());
}

// --quick: a workload marked quick runs at size tiny; one with quick-set=NAME=VALUE runs at its
// own size with those parameters (what tiny cannot show), and with quick-configs only in those
// configs; an unmarked one not at all. The args files are the points' identities.
TEST(Reproduce, QuickSetKeepsItsOwnSizeWithItsParameters)
{
    std::string dir = fresh_dir("gtlm_repro_quickset");
    write(dir + "/spec", "size sim\n"
                         "workload sdk/VectorAdd label=VA quick\n"
                         "workload sdk/ScalarProd label=SP\n"
                         "workload rodinia/HotSpot label=HS size=tiny quick-set=iterations=2 quick-set=n=64 quick-configs=a\n"
                         "config a " + tiny + "\n"
                         "config b " + tiny + " -gpgpu_l1_latency 2\n"
                         "metric cycles value gpu_tot_sim_cycle\nfigure f cycles\n");
    Result r = run("reproduce " + dir + " --quick --out " + dir + "/out --no-plots");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(slurp(dir + "/out/a__sdk_VectorAdd/args"), "run\nsdk/VectorAdd\n--size\ntiny\n--config\n" + tiny + "\n");
    EXPECT_EQ(slurp(dir + "/out/a__rodinia_HotSpot/args"),
              "run\nrodinia/HotSpot\n--size\ntiny\n--config\n" + tiny + "\n--set\niterations=2\n--set\nn=64\n");
    EXPECT_EQ(slurp(dir + "/out/a__sdk_ScalarProd/args"), "") << "not in the quick subset";
    EXPECT_EQ(slurp(dir + "/out/b__rodinia_HotSpot/args"), "") << "not in its quick-configs";
    EXPECT_NE(slurp(dir + "/out/b__sdk_VectorAdd/args"), "") << "quick-configs limits its own workload only";
    EXPECT_NE(r.out.find("| HS |  |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" n/a |"), std::string::npos) << "HS under b: " << r.out;
    EXPECT_EQ(r.out.find("points failed"), std::string::npos) << "a config left out is no failure: " << r.out;
    write(dir + "/spec", "workload sdk/VectorAdd quick-set=n\n");
    r = run("reproduce " + dir + " --quick --out " + dir + "/out2 --no-plots");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("quick-set=NAME=VALUE"), std::string::npos) << r.out;
    write(dir + "/spec", "workload sdk/VectorAdd quick quick-configs=a,c\nconfig a " + tiny + "\n");
    r = run("reproduce " + dir + " --quick --out " + dir + "/out3 --no-plots");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("quick-configs names 'c'"), std::string::npos) << r.out;
    std::system(("rm -rf " + dir).c_str());
}

// --workloads / --configs run a subset (the others are out of the tables, or n/a), a bad name is a
// usage error, and --no-run reports what earlier subsets finished without running anything.
TEST(Reproduce, SubsetsAddUpAndNoRunReportsWhatIsDone)
{
    std::string dir = fresh_dir("gtlm_repro_subset");
    write(dir + "/spec", "size tiny\n"
                         "workload sdk/VectorAdd label=VA class=x\n"
                         "workload sdk/ScalarProd label=SP class=x\n"
                         "config a " + tiny + "\n"
                         "config b " + tiny + " -gpgpu_l1_latency 9\n"
                         "metric cycles value gpu_tot_sim_cycle\nfigure f cycles means=amean\n");
    const std::string out = " --no-plots -j 1 --out " + dir + "/out";
    Result r = run("reproduce " + dir + " --workloads VA --configs a" + out);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(slurp(dir + "/out/a__sdk_VectorAdd/status"), "");
    EXPECT_EQ(slurp(dir + "/out/b__sdk_VectorAdd/status"), "") << "config b is not in the subset";
    EXPECT_EQ(slurp(dir + "/out/a__sdk_ScalarProd/status"), "") << "SP is not in the subset";
    EXPECT_NE(r.out.find("Workloads: only VA."), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("| SP |"), std::string::npos) << "a left-out workload has no row: " << r.out;
    EXPECT_NE(r.out.find(" n/a |"), std::string::npos) << "b is n/a: " << r.out;
    EXPECT_EQ(r.out.find("points failed"), std::string::npos) << r.out;
    auto f1 = figure(dir + "/out/f.csv");
    EXPECT_EQ(at(f1, "amean:x", "a")[3], at(f1, "VA", "a")[3]) << "the class mean is over the subset's members";

    r = run("reproduce " + dir + " --no-run" + out);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(slurp(dir + "/out/b__sdk_VectorAdd/status"), "") << "--no-run ran a point";
    EXPECT_NE(r.out.find("3 of 4 points not run yet"), std::string::npos) << r.out;

    r = run("reproduce " + dir + " --workloads sdk/VectorAdd --configs b" + out);
    ASSERT_EQ(r.code, 0) << r.out;
    r = run("reproduce " + dir + " --no-run --workloads VA" + out);
    ASSERT_EQ(r.code, 0) << r.out;
    auto f = figure(dir + "/out/f.csv");
    double ca = std::atof(at(f, "VA", "a")[3].c_str()), cb = std::atof(at(f, "VA", "b")[3].c_str());
    EXPECT_GT(ca, 0);
    EXPECT_GT(cb, ca) << "a 9-cycle L1 is slower: the two subsets' points are both reported";

    r = run("reproduce " + dir + " --workloads VA,XX" + out);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("--workloads names 'XX'"), std::string::npos) << r.out;
    r = run("reproduce " + dir + " --configs c" + out);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("--configs names 'c'"), std::string::npos) << r.out;
    std::system(("rm -rf " + dir).c_str());
}

// --workloads / --configs: only the named workloads (label or name) and configs run, plus the
// configs metrics normalise over (the baseline, over=), so the subset's cells and means are
// computable; the others are not run and report n/a; an unknown name is a usage error.
TEST(Reproduce, WorkloadAndConfigSubsetsRunOnlyWhatIsNamedAndTheBase)
{
    std::string dir = fresh_dir("gtlm_repro_subset_base");
    write(dir + "/spec", "size tiny\n"
                         "workload sdk/VectorAdd label=VA\n"
                         "workload sdk/ScalarProd label=SP\n"
                         "workload polybench/ATAX label=AT\n"
                         "config base " + tiny + "\n"
                         "config a " + tiny + " -gpgpu_l1_latency 2\n"
                         "config b " + tiny + " -gpgpu_l1_latency 3\n"
                         "config p " + tiny + "\n"
                         "config q " + tiny + " -gpgpu_l1_latency 4\n"
                         "metric cyc normalised gpu_tot_sim_cycle\nfigure f cyc configs=a,b means=geomean\n"
                         // q's figure normalises over p: neither runs when only a is asked for
                         "metric cycp normalised gpu_tot_sim_cycle over=p\nfigure fp cycp configs=q\n"
                         // a ratio's statistics may be sums: x / (x + x) = 0.5; a missing term: n/a
                         "metric half ratio gpu_tot_sim_cycle gpu_tot_sim_cycle+gpu_tot_sim_cycle\n"
                         "metric gap ratio gpu_tot_sim_cycle gpu_tot_sim_cycle+no.such.stat\n"
                         "figure h half configs=a\nfigure g gap configs=a\n");
    Result r = run("reproduce " + dir + " --workloads VA,polybench/ATAX --configs a --out " + dir + "/out --no-plots");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(slurp(dir + "/out/base__sdk_VectorAdd/args"), "") << "the baseline runs though not named";
    EXPECT_NE(slurp(dir + "/out/a__sdk_VectorAdd/args"), "");
    EXPECT_NE(slurp(dir + "/out/a__polybench_ATAX/args"), "") << "a workload named by its name";
    EXPECT_EQ(slurp(dir + "/out/b__sdk_VectorAdd/args"), "") << "config b is not in the subset";
    EXPECT_EQ(slurp(dir + "/out/p__sdk_VectorAdd/args"), "") << "p is the base only of a figure without a";
    EXPECT_EQ(slurp(dir + "/out/a__sdk_ScalarProd/args"), "") << "SP is not in the subset";
    EXPECT_EQ(r.out.find("| SP |"), std::string::npos) << "rows are the subset's: " << r.out;
    EXPECT_NE(r.out.find("| VA |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Workloads: only VA,polybench/ATAX."), std::string::npos) << r.out;
    auto f = figure(dir + "/out/f.csv");
    EXPECT_NE((f[{"geomean", "a"}][3]), "n/a") << "the subset's mean is computed";
    EXPECT_EQ((f[{"geomean", "b"}][3]), "n/a") << "a config not run has no mean";
    EXPECT_EQ((figure(dir + "/out/h.csv")[{"VA", "a"}][3]), "0.5");
    EXPECT_EQ((figure(dir + "/out/g.csv")[{"VA", "a"}][3]), "n/a");
    EXPECT_EQ(r.out.find("points failed"), std::string::npos) << r.out;
    r = run("reproduce " + dir + " --workloads VA,XX --out " + dir + "/out2 --no-plots");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("--workloads names 'XX'"), std::string::npos) << r.out;
    r = run("reproduce " + dir + " --configs a,zz --out " + dir + "/out3 --no-plots");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("--configs names 'zz'"), std::string::npos) << r.out;
    std::system(("rm -rf " + dir).c_str());
}

// results.csv without the host's time columns (gpgpu_simulation_time, _rate...,
// gpgpu_silicon_slowdown, and host.* where no GPGPU-Sim name covers them), which differ from run
// to run by nature.
std::string simulated_results(const std::string &path)
{
    std::ifstream f(path);
    std::string line, text;
    std::vector<bool> keep;
    while (std::getline(f, line)) {
        std::stringstream ss(line);
        std::string cell;
        for (size_t i = 0; std::getline(ss, cell, ','); i++) {
            if (keep.size() <= i) keep.push_back(cell.rfind("gpgpu_simulation_", 0) != 0 && cell != "gpgpu_silicon_slowdown" &&
                                                  cell.rfind("host.", 0) != 0);
            if (keep[i]) text += cell + ",";
        }
        text += "\n";
    }
    return text;
}

// The outputs a reproduction writes, which must not depend on how it got there.
std::string outputs(const std::string &out)
{
    return slurp(out + "/report.md") + slurp(out + "/fig_speedup.csv") + slurp(out + "/fig_cycles.csv") +
           simulated_results(out + "/results.csv");
}

TEST(Reproduce, ResumesAfterAKillWithTheSameTables)
{
    std::string dir = fresh_dir("gtlm_repro_resume");
    std::string spec = latency_spec() + "workload polybench/2DCONV label=2D class=stream size=tiny\n";
    write(dir + "/spec", spec);
    // Killed after the first point finished: the process group, so no child outlives it.
    std::string cmd = "setsid " + std::string(GTLM_CLI) + " reproduce " + dir + " -j 1 --no-plots --out " + dir +
                      "/killed >/dev/null 2>&1 & echo $!";
    FILE *p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    int pid = 0;
    ASSERT_EQ(fscanf(p, "%d", &pid), 1);
    pclose(p);
    std::string first = dir + "/killed/slow__sdk_VectorAdd/status";
    for (int i = 0; i < 6000 && slurp(first) != "ok\n"; i++) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(-pid, SIGKILL);
    ASSERT_EQ(slurp(first), "ok\n");
    std::vector<std::string> done, all;
    for (const char *w : {"sdk_VectorAdd", "rodinia_HotSpot", "polybench_2DCONV"})
        for (const char *c : {"slow", "fast", "mid"}) {
            std::string d = dir + "/killed/" + c + "__" + w;
            all.push_back(d);
            if (slurp(d + "/status") == "ok\n") done.push_back(d);
        }
    ASSERT_LT(done.size(), all.size()) << "the kill came after every point had finished";
    std::map<std::string, long> before;
    for (const auto &d : done) before[d] = mtime_ns(d + "/log.txt");

    Result again = run("reproduce " + dir + " --no-plots --out " + dir + "/killed");
    ASSERT_EQ(again.code, 0) << again.out;
    for (const auto &d : done) EXPECT_EQ(mtime_ns(d + "/log.txt"), before[d]) << d << " ran again";
    Result whole = run("reproduce " + dir + " --no-plots --out " + dir + "/whole");
    ASSERT_EQ(whole.code, 0) << whole.out;
    EXPECT_EQ(outputs(dir + "/killed"), outputs(dir + "/whole"));

    // A changed spec re-runs the points whose arguments changed, and only those.
    write(dir + "/spec", spec + "args VA fast -gpgpu_l1_latency 2\n");
    long untouched = mtime_ns(dir + "/whole/slow__sdk_VectorAdd/log.txt");
    Result changed = run("reproduce " + dir + " --no-plots --out " + dir + "/whole");
    ASSERT_EQ(changed.code, 0) << changed.out;
    EXPECT_EQ(mtime_ns(dir + "/whole/slow__sdk_VectorAdd/log.txt"), untouched);
    EXPECT_NE(slurp(dir + "/whole/fast__sdk_VectorAdd/args").find("-gpgpu_l1_latency\n2\n"), std::string::npos);
    std::system(("rm -rf " + dir).c_str());
}

TEST(Reproduce, MalformedSpecAndNumbersNameFileAndLine)
{
    std::string dir = fresh_dir("gtlm_repro_bad");
    write(dir + "/spec", "workload sdk/VectorAdd\nconfig a " + tiny + "\noracle o best-of a nosuch by ipc\n");
    Result r = run("reproduce " + dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find(dir + "/spec:3: oracle member 'nosuch' is not a config defined above"), std::string::npos)
        << r.out;
    write(dir + "/spec", "workload sdk/VectorAdd size=huge\n");
    r = run("reproduce " + dir);
    EXPECT_NE(r.out.find(dir + "/spec:1: size must be tiny, sim, paper or doc, got 'huge'"), std::string::npos) << r.out;
    write(dir + "/spec", "workload sdk/VectorAdd\nconfig a " + tiny + "\nfigure f nometric\n");
    r = run("reproduce " + dir);
    EXPECT_NE(r.out.find(dir + "/spec:3: 'nometric' is no metric defined above"), std::string::npos) << r.out;
    write(dir + "/spec", "workload sdk/VectorAdd label=VA\nconfig a " + tiny + "\nconfig b " + tiny +
                             "\nmetric s speedup gpu_tot_sim_cycle\nfigure f s\n");
    write(dir + "/numbers", "# comment\nvalue f b VA 1.2 a\nvalue f b VA 1.2 b Fig. 3\n");
    r = run("reproduce " + dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find(dir + "/numbers:3: figure 'f' is normalised to 'a', so the document's number must be too; "
                               "got 'b'"), std::string::npos) << r.out;
    write(dir + "/numbers", "value f b VA about-1.2 a\n");
    r = run("reproduce " + dir);
    EXPECT_NE(r.out.find(dir + "/numbers:1: expected a number or a bound such as >1.3 or <=0.5, got 'about-1.2'"),
              std::string::npos) << r.out;
    write(dir + "/numbers", "value f b XX 1.2 a\n");
    r = run("reproduce " + dir);
    EXPECT_NE(r.out.find(dir + "/numbers:1: row 'XX' is no workload"), std::string::npos) << r.out;
    r = run("reproduce " + dir + " --backend cloud");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("--backend expects local or slurm, got 'cloud'"), std::string::npos) << r.out;
    r = run("reproduce no-such-experiment");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("no experiment 'no-such-experiment'"), std::string::npos) << r.out;
    r = run("reproduce --help");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("--backend local|slurm"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("NAME/numbers"), std::string::npos) << r.out;
    std::system(("rm -rf " + dir).c_str());
}

// The committed example, quick: its spec and numbers parse, both classes appear, the claims get
// verdicts, and the plots are drawn.
TEST(Reproduce, LinebackerSensitivityQuick)
{
    std::string dir = fresh_dir("gtlm_repro_lb");
    Result r = shell("cd " + std::string(GTLM_SOURCE_DIR) + " && " + GTLM_CLI +
                     " reproduce linebacker-sensitivity --quick --out " + dir);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("# Reproduction of linebacker-sensitivity (--quick subset)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| AT | sensitive | 1.000 |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| 2D | insensitive | 1.000 |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("- verdict: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("cache-insensitive benchmarks gain at most 30%"), std::string::npos) << r.out;
    struct stat st;
    EXPECT_EQ(stat((dir + "/table2.png").c_str(), &st), 0) << r.out;
    std::system(("rm -rf " + dir).c_str());
}

// The committed PAVER experiment: its spec and numbers parse (every numbers line names a figure,
// config and row of the spec), --no-run lists every point of the whole study as not run, and the
// headline claims are there without data.
TEST(Reproduce, PaverSpecParsesAndNoRunRunsNothing)
{
    std::string dir = fresh_dir("gtlm_repro_paver");
    Result r = shell("cd " + std::string(GTLM_SOURCE_DIR) + " && " + GTLM_CLI +
                     " reproduce paver --no-run --no-plots --out " + dir);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("432 of 432 points not run yet"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("## fig3_11_fermi: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("NO DATA: Fig. 3.11: RB-TS +29% (Fermi, high)"), std::string::npos) << r.out;
    r = shell("cd " + std::string(GTLM_SOURCE_DIR) + " && " + GTLM_CLI +
              " reproduce paver --no-run --no-plots --workloads SYRK,MM --configs Fermi-LRR,Fermi-RB --out " + dir);
    ASSERT_EQ(r.code, 0) << r.out;
    // the 4 named points and SYRK/MM on Fermi-RB-nosteal: the base the stealing figure, which shows
    // Fermi-RB, normalises over (a subset keeps its figures' bases)
    EXPECT_NE(r.out.find("6 of 6 points not run yet"), std::string::npos) << r.out;
    std::system(("rm -rf " + dir).c_str());
}

} // namespace
