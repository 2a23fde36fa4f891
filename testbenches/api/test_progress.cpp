// gtlm_set_progress_callback: reports while a timing kernel runs and when it ends, never changes a
// statistic, numbers a trace's kernels i of n, and rejects misuse.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gtlm/gtlm.h"

namespace {

const std::string kSrc = GTLM_SOURCE_DIR;

struct Report {
    int done;
    unsigned long long kernel, n_kernels, cycles, warp_insn, total_cycles;
    std::string name;
};

void collect(const gtlm_progress *p, void *payload)
{
    static_cast<std::vector<Report> *>(payload)->push_back(
        {p->kernel_done, p->kernel, p->n_kernels, p->cycles, p->warp_insn, p->total_cycles, p->kernel_name});
}

gtlm_sim *make_sim()
{
    std::string cfg = kSrc + "/configs/tiny.config";
    const char *files[] = {cfg.c_str()};
    gtlm_sim_options o;
    gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION);
    o.config_files = files;
    o.n_config_files = 1;
    gtlm_sim *sim = nullptr;
    EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_OK) << gtlm_last_error();
    return sim;
}

// vector_add over n floats, twice (two launches).
void run_vector_add(gtlm_sim *sim)
{
    gtlm_module *m = nullptr;
    ASSERT_EQ(gtlm_module_load_ptx_file(sim, (kSrc + "/workloads/sdk/vectoradd/vectoradd.ptx").c_str(), &m), GTLM_OK)
        << gtlm_last_error();
    const int n = 8192;
    std::vector<float> a(n, 1.5f), b(n, 2.0f);
    gtlm_devptr da, db, dc;
    ASSERT_EQ(gtlm_malloc(sim, n * 4, &da), GTLM_OK);
    ASSERT_EQ(gtlm_malloc(sim, n * 4, &db), GTLM_OK);
    ASSERT_EQ(gtlm_malloc(sim, n * 4, &dc), GTLM_OK);
    ASSERT_EQ(gtlm_memcpy_htod(sim, da, a.data(), n * 4), GTLM_OK);
    ASSERT_EQ(gtlm_memcpy_htod(sim, db, b.data(), n * 4), GTLM_OK);
    const void *args[] = {&da, &db, &dc, &n};
    const size_t sizes[] = {8, 8, 8, 4};
    const unsigned grid[3] = {n / 256, 1, 1}, block[3] = {256, 1, 1};
    for (int rep = 0; rep < 2; rep++)
        ASSERT_EQ(gtlm_launch(sim, m, "vector_add", grid, block, 0, args, sizes, 4), GTLM_OK) << gtlm_last_error();
}

double stat(gtlm_sim *sim, const char *name)
{
    double v = -1;
    EXPECT_EQ(gtlm_stat_get(sim, name, &v), GTLM_OK) << name;
    return v;
}

TEST(Progress, ReportsDuringAndAfterKernelsWithoutChangingStatistics)
{
    gtlm_sim *quiet = make_sim(), *watched = make_sim();
    std::vector<Report> r;
    ASSERT_EQ(gtlm_set_progress_callback(watched, collect, &r, 100), GTLM_OK);
    run_vector_add(quiet);
    run_vector_add(watched);
    for (const char *name : {"gpu.cycles", "gpu.warp_insn", "gpu.thread_insn", "gpu.l1d.misses", "gpu.l2.accesses",
                             "gpu.dram.reads", "gpu.dram.bus_busy_cycles", "gpu.stall.memory", "gpu.sm[0].cycles",
                             "gpu.icnt.req.flits", "gpu.avg_mem_latency"})
        EXPECT_EQ(stat(quiet, name), stat(watched, name)) << name;

    ASSERT_GE(r.size(), 4u);
    int done = 0;
    unsigned long long first_cycles = 0;
    for (size_t i = 0; i < r.size(); i++) {
        EXPECT_EQ(r[i].name, "vector_add");
        EXPECT_EQ(r[i].n_kernels, 0u); // single launches: the count is unknown
        if (i && r[i].kernel == r[i - 1].kernel && !r[i - 1].done) {
            EXPECT_GE(r[i].cycles, r[i - 1].cycles + (r[i].done ? 0 : 100)) << i; // at most one per 100 cycles
            EXPECT_GE(r[i].warp_insn, r[i - 1].warp_insn) << i;
        }
        if (r[i].done) {
            done++;
            EXPECT_EQ(r[i].kernel, static_cast<unsigned long long>(done));
            if (done == 1) first_cycles = r[i].cycles;
            if (done == 2) { // the last kernel: its closed statistics agree
                double kc = -1;
                EXPECT_EQ(gtlm_stat_get_kernel(watched, "gpu.cycles", &kc), GTLM_OK);
                EXPECT_EQ(static_cast<double>(r[i].cycles), kc);
            }
        }
    }
    EXPECT_EQ(done, 2);
    EXPECT_TRUE(r.back().done);
    EXPECT_EQ(static_cast<double>(r.back().total_cycles), stat(watched, "gpu_tot_sim_cycle"));
    EXPECT_EQ(r.back().total_cycles, first_cycles + r.back().cycles);

    // Turned off: no more reports.
    size_t before = r.size();
    ASSERT_EQ(gtlm_set_progress_callback(watched, nullptr, nullptr, 0), GTLM_OK);
    run_vector_add(watched);
    EXPECT_EQ(r.size(), before);
    gtlm_sim_destroy(quiet);
    gtlm_sim_destroy(watched);
}

TEST(Progress, TraceKernelsAreNumberedIOfN)
{
    gtlm_sim *sim = make_sim();
    std::vector<Report> r;
    ASSERT_EQ(gtlm_set_progress_callback(sim, collect, &r, 50), GTLM_OK);
    std::string dir = kSrc + "/testbenches/data/traces/microgpusim-matrixmul-32-32";
    ASSERT_EQ(gtlm_run_trace(sim, dir.c_str(), nullptr, 0), GTLM_OK) << gtlm_last_error();
    ASSERT_FALSE(r.empty());
    for (const Report &x : r) {
        EXPECT_EQ(x.kernel, 1u);
        EXPECT_EQ(x.n_kernels, 1u);
    }
    EXPECT_TRUE(r.back().done);
    EXPECT_EQ(static_cast<double>(r.back().warp_insn), stat(sim, "gpgpu_n_tot_w_icount"));
    gtlm_sim_destroy(sim);
}

TEST(Progress, MisuseIsAnError)
{
    int dummy = 0;
    EXPECT_EQ(gtlm_set_progress_callback(nullptr, collect, &dummy, 10), GTLM_EINVAL);
    EXPECT_NE(std::string(gtlm_last_error()).find("sim is NULL"), std::string::npos);
}

} // namespace
