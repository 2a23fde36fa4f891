// The TB scheduler's registry statistics on a crafted imbalance: SYRK with ni = 32 is 4 equal TBs
// on 2 SMs of one CTA slot each. MST-TS with x = 3 gives one SM a group of 3 TBs and the other a
// group of 1: without stealing the second SM idles for two TBs' time at the tail (about 2/3 of the
// kernel) and nothing is stolen; with stealing it takes exactly one TB once (Algorithm 2: 2 or 1
// waiting against an average below 1), the tail almost vanishes. LRR (2 TBs each) has a short tail.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "cli_run.h"

namespace {

Result run_syrk(const std::string &policy)
{
    return run("run polybench/SYRK --set ni=32 --set nj=64 --config " + std::string(GTLM_SOURCE_DIR) +
               "/configs/gtx480.config -gpgpu_n_clusters 2 -gpgpu_shader_cta 1 -gtlm_tb_scheduler " + policy +
               " --stats - -q");
}

TEST(CliTbschedStats, StealingAndKernelTailOnACraftedImbalance)
{
    Result none = run_syrk("mst:3:0"), steal = run_syrk("mst:3:1"), lrr = run_syrk("lrr");
    ASSERT_EQ(none.code, 0) << none.out;
    ASSERT_EQ(steal.code, 0) << steal.out;
    ASSERT_EQ(lrr.code, 0) << lrr.out;
    double cycles = stat_number(none.out, "gpu_tot_sim_cycle");
    ASSERT_GT(cycles, 0);
    EXPECT_EQ(stat_number(none.out, "tbsched.stolen_tbs"), 0);
    EXPECT_EQ(stat_number(none.out, "tbsched.steal_events"), 0);
    double tail = stat_number(none.out, "tbsched.tail_idle_max");
    EXPECT_GT(tail, 0.55 * cycles) << "the one-TB SM idles while the other runs two more TBs";
    EXPECT_LT(tail, 0.75 * cycles);
    EXPECT_EQ(stat_number(none.out, "tbsched.tail_idle_cycles"), tail) << "the SM that finishes last idles 0 cycles";

    EXPECT_EQ(stat_number(steal.out, "tbsched.stolen_tbs"), 1);
    EXPECT_EQ(stat_number(steal.out, "tbsched.steal_events"), 1);
    double steal_cycles = stat_number(steal.out, "gpu_tot_sim_cycle");
    EXPECT_LT(steal_cycles, 0.75 * cycles) << "stealing splits the 3-TB group";
    EXPECT_LT(stat_number(steal.out, "tbsched.tail_idle_max"), 0.1 * steal_cycles);

    EXPECT_EQ(stat_number(lrr.out, "tbsched.stolen_tbs"), 0);
    EXPECT_LT(stat_number(lrr.out, "tbsched.tail_idle_max"), 0.1 * stat_number(lrr.out, "gpu_tot_sim_cycle"));
    EXPECT_EQ(stat_number(lrr.out, "tbsched.graph_tbs"), 0) << "LRR builds no locality graph";
    // The graph of 4 TBs that all read every A[j] row: complete, SpScore = 1 - 12 / 16.
    EXPECT_EQ(stat_number(none.out, "tbsched.graph_tbs"), 4);
    EXPECT_EQ(stat_number(none.out, "tbsched.shared_tbs"), 4);
    EXPECT_EQ(stat_number(none.out, "tbsched.graph_nonzeros"), 12);
    EXPECT_DOUBLE_EQ(stat_number(none.out, "tbsched.spscore"), 0.25);
    EXPECT_EQ(stat_number(none.out, "tbsched.refs_accesses"), 0) << "the breakdown is off by default";
}

// Fig. 3.2's categories as statistics (-gtlm_tb_graph_refs 1), by hand: each of the 32 x 32 threads
// reads its C element once (one warp: unshared, 1024) and A[i][k], A[j][k] for k < 64; every warp
// of every TB reads all 32 rows A[j] (several TBs, several warps: 2 x 1024 x 64 = 131072).
TEST(CliTbschedStats, ReferenceCategoriesOfSyrk)
{
    Result r = run_syrk("lrr -gtlm_tb_graph_refs 1");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(stat_number(r.out, "tbsched.refs_accesses"), 132096);
    EXPECT_EQ(stat_number(r.out, "tbsched.refs_unshared"), 1024);
    EXPECT_EQ(stat_number(r.out, "tbsched.refs_intra_tb"), 0);
    EXPECT_EQ(stat_number(r.out, "tbsched.refs_inter_tb"), 0);
    EXPECT_EQ(stat_number(r.out, "tbsched.refs_intra_inter_tb"), 131072);
}

} // namespace

namespace {

// The statistics without the host-time lines (JIT seconds, simulation rate).
std::string deterministic(const std::string &stats)
{
    std::string out, line;
    std::istringstream in(stats);
    while (std::getline(in, line))
        if (line.find("host") == std::string::npos && line.find("gpgpu_simulation_") == std::string::npos &&
            line.find("silicon_slowdown") == std::string::npos)
            out += line + "\n";
    return out;
}

} // namespace

// LocalityGuru's symbolic closed form (the default) and the stepped evaluation build the same graph,
// so RB-TS schedules the same way: SYRK with ni = 70 (idle lanes, a loop remainder), every statistic
// but the host times equal.
TEST(CliTbschedStats, SymbolicAndSteppedGraphsGiveTheSameRun)
{
    auto go = [](const char *eval) {
        return run("run polybench/SYRK --set ni=70 --set nj=16 --config " + std::string(GTLM_SOURCE_DIR) +
                   "/configs/gtx480.config -gtlm_tb_scheduler rbts:4 -gtlm_tb_graph_eval " + eval + " --stats - -q");
    };
    Result sym = go("symbolic"), step = go("closed");
    ASSERT_EQ(sym.code, 0) << sym.out;
    ASSERT_EQ(step.code, 0) << step.out;
    EXPECT_GT(stat_number(sym.out, "tbsched.graph_nonzeros"), 0);
    EXPECT_EQ(deterministic(sym.out), deterministic(step.out));
}
