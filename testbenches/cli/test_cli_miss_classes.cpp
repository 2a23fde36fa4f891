// Miss classification end to end (-gtlm_dl1_miss_classes, -gtlm_dl2_miss_classes) and the Fermi
// 48 KB L1D of the PAVER cache-size study (experiments/paver/spec, Fermi48-*): ATAX with
// nx = ny = 128 on Fermi's 16 KB L1D has capacity and conflict misses; with 48 KB (64 sets x 6
// ways, 16 KB shared memory) both vanish while the cold misses, a property of the address stream,
// stay the same, and the kernel runs faster. A statistic of an option that is off is not printed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cli_run.h"

namespace {

Result run_atax(const std::string &extra)
{
    return run("run polybench/ATAX --set nx=128 --set ny=128 --config " + std::string(GTLM_SOURCE_DIR) +
               "/configs/gtx480.config " + extra + " --stats - -q");
}

} // namespace

TEST(CliMissClasses, Fermi48KbL1RemovesCapacityAndConflictMisses)
{
    Result l16 = run_atax("-gtlm_dl1_miss_classes 1 -gtlm_dl2_miss_classes 1");
    Result l48 = run_atax("-gtlm_dl1_miss_classes 1 -gpgpu_cache:dl1 N:64:128:6,L:L:m:N:H,A:32:8,8 "
                          "-gpgpu_shmem_size 16384");
    ASSERT_EQ(l16.code, 0) << l16.out;
    ASSERT_EQ(l48.code, 0) << l48.out;
    EXPECT_NE(l16.out.find("L1D: 16 KB per SM"), std::string::npos);
    EXPECT_NE(l48.out.find("L1D: 48 KB per SM"), std::string::npos) << l48.out;
    EXPECT_NE(l48.out.find("16384 B shared memory"), std::string::npos) << "the other 16 KB of the array";

    double cold = stat_number(l16.out, "gpu.l1d.misses_cold"), cap = stat_number(l16.out, "gpu.l1d.misses_capacity"),
           conf = stat_number(l16.out, "gpu.l1d.misses_conflict"), inv = stat_number(l16.out, "gpu.l1d.misses_invalidated");
    ASSERT_GT(cold, 0);
    EXPECT_GT(cap, 0) << "16 KB cannot hold ATAX's rows";
    EXPECT_GT(conf, 0);
    EXPECT_LE(cold + cap + conf + inv, stat_number(l16.out, "L1D_total_cache_misses")) << "read misses only";
    EXPECT_NEAR(stat_number(l16.out, "gpu.l1d.misses_capacity_conflict_share"), (cap + conf) / (cold + cap + conf + inv), 1e-5);

    EXPECT_EQ(stat_number(l48.out, "gpu.l1d.misses_cold"), cold) << "the same address stream";
    EXPECT_EQ(stat_number(l48.out, "gpu.l1d.misses_invalidated"), inv);
    EXPECT_EQ(stat_number(l48.out, "gpu.l1d.misses_capacity"), 0);
    EXPECT_EQ(stat_number(l48.out, "gpu.l1d.misses_conflict"), 0);
    EXPECT_LT(stat_number(l48.out, "gpu_tot_sim_cycle"), stat_number(l16.out, "gpu_tot_sim_cycle"));

    EXPECT_GT(stat_number(l16.out, "gpu.l2.misses_cold"), 0);
    EXPECT_LE(stat_number(l16.out, "gpu.l2.misses_cold"), stat_number(l16.out, "L2_total_cache_misses"));
    EXPECT_EQ(l48.out.find("gpu.l2.misses_cold"), std::string::npos) << "-gtlm_dl2_miss_classes is off there";
}
