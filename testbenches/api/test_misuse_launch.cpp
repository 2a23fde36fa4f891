// A failed launch leaves the simulator as it was: after each way a kernel can fail, in timing
// and functional mode and trace-driven, a valid kernel gives statistics bit-identical to a
// fresh simulator's, and the failure changed no statistic. Launch shapes beyond CUDA's limits
// and sizes that would wrap are refused before anything runs.
#include <climits>

#include "misuse_fixture.h"

namespace {

using misuse::load;
using misuse::make_sim;
using misuse::run_bad_store;
using misuse::run_plain;
using misuse::run_scale;
using misuse::stats_of;

struct Failure {
    const char *name;
    std::vector<const char *> overrides;
    int (*fail)(gtlm_sim *, gtlm_module *);
};

// The valid kernel after a failure == the valid kernel on a fresh simulator.
void expect_recovers(const std::vector<const char *> &overrides, int (*fail)(gtlm_sim *, gtlm_module *))
{
    gtlm_sim *fresh = make_sim(overrides);
    gtlm_module *fm = load(fresh);
    std::vector<uint32_t> want;
    ASSERT_EQ(run_scale(fresh, fm, 1000, &want), GTLM_OK) << gtlm_last_error();
    std::string want_stats = stats_of(fresh);

    gtlm_sim *sim = make_sim(overrides);
    gtlm_module *m = load(sim);
    std::string before = stats_of(sim);
    EXPECT_EQ(fail(sim, m), GTLM_ESIM);
    std::string why = gtlm_last_error();
    EXPECT_EQ(stats_of(sim), before) << "the failed kernel changed statistics: " << why;
    EXPECT_EQ(gtlm_synchronize(sim), GTLM_ESIM) << "the failure is reported once more by synchronize";
    EXPECT_EQ(gtlm_synchronize(sim), GTLM_OK);
    std::vector<uint32_t> got;
    ASSERT_EQ(run_scale(sim, m, 1000, &got), GTLM_OK) << gtlm_last_error() << " (after: " << why << ")";
    EXPECT_EQ(got, want);
    EXPECT_EQ(stats_of(sim), want_stats);
    gtlm_sim_destroy(sim);
    gtlm_sim_destroy(fresh);
}

int fail_bad_store(gtlm_sim *s, gtlm_module *m) { return run_bad_store(s, m); }
int fail_barrier(gtlm_sim *s, gtlm_module *m) { return run_plain(s, m, "split_barrier", 128); }
int fail_spin(gtlm_sim *s, gtlm_module *m) { return run_plain(s, m, "spin"); }

TEST(MisuseLaunch, TimingOutOfBoundsThenValidIsLikeFresh) { expect_recovers({}, fail_bad_store); }
TEST(MisuseLaunch, TimingBarrierDeadlockThenValidIsLikeFresh) { expect_recovers({}, fail_barrier); }
TEST(MisuseLaunch, TimingMaxCycleThenValidIsLikeFresh)
{
    expect_recovers({"-gpgpu_max_cycle", "5000"}, fail_spin);
}
TEST(MisuseLaunch, TimingMaxInsnThenValidIsLikeFresh) { expect_recovers({"-gpgpu_max_insn", "3000"}, fail_spin); }
TEST(MisuseLaunch, TimingWatchdogThenValidIsLikeFresh)
{
    // Half the CTA waits at a barrier the other half never reaches: nothing progresses.
    expect_recovers({"-gtlm_watchdog_cycles", "1000"}, fail_barrier); // > twice tiny.config's longest latency
}
TEST(MisuseLaunch, FunctionalFailuresThenValidIsLikeFresh)
{
    expect_recovers({"-gtlm_mode", "functional"}, fail_bad_store);
    expect_recovers({"-gtlm_mode", "functional"}, fail_barrier);
    expect_recovers({"-gtlm_mode", "functional", "-gpgpu_max_insn", "3000"}, fail_spin);
}

TEST(MisuseLaunch, AValidKernelBeforeTheFailureKeepsItsStatistics)
{
    gtlm_sim *sim = make_sim();
    gtlm_module *m = load(sim);
    ASSERT_EQ(run_scale(sim, m, 500), GTLM_OK);
    std::string after_first = stats_of(sim);
    double cycles = 0;
    ASSERT_EQ(gtlm_stat_get_kernel(sim, "gpu.cycles", &cycles), GTLM_OK);
    EXPECT_GT(cycles, 0);
    EXPECT_EQ(run_bad_store(sim, m), GTLM_ESIM);
    EXPECT_EQ(run_plain(sim, m, "split_barrier", 128), GTLM_ESIM);
    EXPECT_EQ(stats_of(sim), after_first) << "run totals, kernel history and last-kernel values are kept";
    double again = 0;
    ASSERT_EQ(gtlm_stat_get_kernel(sim, "gpu.cycles", &again), GTLM_OK);
    EXPECT_EQ(again, cycles);
    ASSERT_EQ(run_scale(sim, m, 500), GTLM_OK) << gtlm_last_error();
    gtlm_sim_destroy(sim);
}

// Trace-driven: a kernel stopped by -gpgpu_max_cycle, then the same trace with a limit it fits in.
TEST(MisuseLaunch, TraceKernelFailureThenValidIsLikeFresh)
{
    std::string dir = std::string(GTLM_SOURCE_DIR) + "/testbenches/data/traces/microgpusim-vectoradd-100-32";
    gtlm_sim *fresh = make_sim();
    ASSERT_EQ(gtlm_run_trace(fresh, dir.c_str(), nullptr, 0), GTLM_OK) << gtlm_last_error();
    std::string want = stats_of(fresh);
    double cycles = 0;
    ASSERT_EQ(gtlm_stat_get(fresh, "gpu.cycles", &cycles), GTLM_OK);
    ASSERT_GT(cycles, 20);

    std::string limit = std::to_string(static_cast<long long>(cycles) / 2);
    gtlm_sim *sim = make_sim({"-gpgpu_max_cycle", limit.c_str()});
    std::string before = stats_of(sim);
    EXPECT_EQ(gtlm_run_trace(sim, dir.c_str(), nullptr, 0), GTLM_ESIM);
    EXPECT_NE(std::string(gtlm_last_error()).find("-gpgpu_max_cycle"), std::string::npos) << gtlm_last_error();
    EXPECT_EQ(stats_of(sim), before);
    gtlm_sim_destroy(sim);
    gtlm_sim_destroy(fresh);
}

// ---- launch shapes (CUDA's limits, overflow-checked) ----

int launch_shape(gtlm_sim *sim, gtlm_module *m, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                 unsigned bz, size_t dyn = 0)
{
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    return gtlm_launch(sim, m, "spin", grid, block, dyn, nullptr, nullptr, 0);
}

void expect_shapes_refused(const std::vector<const char *> &overrides)
{
    gtlm_sim *sim = make_sim(overrides);
    gtlm_module *m = load(sim);
    std::string before = stats_of(sim);
    // 536838145 * 536903681 * 64 wraps to 64 in 64 bits.
    EXPECT_EQ(launch_shape(sim, m, 1, 1, 1, 536838145u, 536903681u, 64), GTLM_EINVAL);
    EXPECT_NE(std::string(gtlm_last_error()).find("larger than CUDA's"), std::string::npos) << gtlm_last_error();
    EXPECT_EQ(launch_shape(sim, m, UINT_MAX, UINT_MAX, UINT_MAX, 32, 1, 1), GTLM_EINVAL);
    EXPECT_EQ(launch_shape(sim, m, 1u << 31, 1, 1, 32, 1, 1), GTLM_EINVAL);
    EXPECT_EQ(launch_shape(sim, m, 1, 65536, 1, 32, 1, 1), GTLM_EINVAL);
    EXPECT_EQ(launch_shape(sim, m, 1, 1, 65536, 32, 1, 1), GTLM_EINVAL);
    EXPECT_EQ(launch_shape(sim, m, 1, 1, 1, 1025, 1, 1), GTLM_EINVAL);
    EXPECT_EQ(launch_shape(sim, m, 1, 1, 1, 1, 1025, 1), GTLM_EINVAL);
    EXPECT_EQ(launch_shape(sim, m, 1, 1, 1, 1, 1, 65), GTLM_EINVAL);
    EXPECT_EQ(launch_shape(sim, m, 1, 1, 1, 64, 32, 1), GTLM_EINVAL); // 2048 threads
    EXPECT_NE(std::string(gtlm_last_error()).find("2048 threads, at most 1024"), std::string::npos);
    EXPECT_EQ(launch_shape(sim, m, 0, 1, 1, 32, 1, 1), GTLM_EINVAL);
    // Shared memory: above 4 GiB (once truncated to 32 bits), and above the SM's 48 KiB.
    EXPECT_EQ(launch_shape(sim, m, 1, 1, 1, 32, 1, 1, (size_t(1) << 32) + 16), GTLM_EINVAL);
    EXPECT_EQ(launch_shape(sim, m, 1, 1, 1, 32, 1, 1, 49153), GTLM_EINVAL);
    EXPECT_NE(std::string(gtlm_last_error()).find("shared memory"), std::string::npos) << gtlm_last_error();
    EXPECT_EQ(launch_shape(sim, m, 1, 1, 1, 32, 1, 1, SIZE_MAX), GTLM_EINVAL);
    EXPECT_EQ(gtlm_synchronize(sim), GTLM_OK) << "a refused launch is not a simulation failure";
    EXPECT_EQ(stats_of(sim), before);
    ASSERT_EQ(run_scale(sim, m, 300), GTLM_OK) << gtlm_last_error();
    gtlm_sim_destroy(sim);
}

TEST(MisuseLaunch, ShapesBeyondCudaLimitsAreRefusedInTimingMode) { expect_shapes_refused({}); }
TEST(MisuseLaunch, ShapesBeyondCudaLimitsAreRefusedInFunctionalMode)
{
    expect_shapes_refused({"-gtlm_mode", "functional"});
}

TEST(MisuseLaunch, LargestLegalShapesPassTheChecks)
{
    // 1024 threads of 1024 x 1 x 1 and 1 x 1024 x 1 and 16 x 1 x 64 are legal shapes.
    gtlm_sim *sim = make_sim({"-gtlm_mode", "functional", "-gpgpu_max_insn", "100"});
    gtlm_module *m = load(sim);
    const unsigned shapes[][3] = {{1024, 1, 1}, {1, 1024, 1}, {16, 1, 64}};
    for (const auto &b : shapes) {
        EXPECT_EQ(launch_shape(sim, m, 1, 1, 1, b[0], b[1], b[2]), GTLM_ESIM) << "runs (and stops at the limit)";
        EXPECT_NE(std::string(gtlm_last_error()).find("-gpgpu_max_insn"), std::string::npos) << gtlm_last_error();
    }
    gtlm_sim_destroy(sim);
}

} // namespace
