// Power modes of storage blocks (model/power/power_mode.h) and the cache's seam: residency,
// wake-up latency, transition energy, break-even time, and data lost in OFF.
#include <gtest/gtest.h>

#include <cstring>

extern "C" {
#include "cache/cache_core.h"
#include "power/power_mode.h"
}

namespace {

// Table 5.2 of the thesis for a cache line; 2 cycles wake and break-even.
pm_table line_table()
{
    pm_table t{};
    t.m[PM_ON] = {1.0, 0, 0};
    t.m[PM_SHALLOW] = {0.228, 2, 2};
    t.m[PM_SLEEP] = {0.228, 2, 2};
    t.m[PM_OFF] = {0.015, 2, 2};
    return t;
}

TEST(PowerMode, AlwaysOnCostsNothingAndLeaksFullPower)
{
    pm_table t = line_table();
    pm_domain d;
    ASSERT_EQ(pm_domain_init(&d, 4, &t, 0.5, 1000.0, pm_policy_find("always_on")), 0);
    EXPECT_FALSE(pm_active(&d));
    pm_kernel_begin(&d, 100);
    int lost = 1;
    EXPECT_EQ(pm_access(&d, 2, 150, &lost), 0);
    EXPECT_EQ(lost, 0);
    pm_set(&d, 2, PM_OFF, 160); // no policy: no per-block state, nothing changes
    EXPECT_EQ(pm_get(&d, 2), PM_ON);
    pm_close(&d, 1100);
    EXPECT_EQ(d.st.residency[PM_ON], 4u * 1000u);
    double res[PM_MODES] = {0, 0, 0, 0};
    // 4 blocks x 0.5 mW x 1000 cycles at 1000 MHz = 2 mW x 1 us = 2 nJ.
    EXPECT_DOUBLE_EQ(pm_leakage_pj(&t, 0.5, 1000.0, 4, 1000, res), 2000.0);
    pm_domain_free(&d);
}

// After pm_close (the kernel ended) a late change (a fill after the kernel exited) changes the mode
// but counts in no kernel: residency stays blocks x kernel cycles, no transition energy; the next
// kernel counts again.
TEST(PowerMode, ChangesAfterCloseCountUntilTheNextKernelNothing)
{
    pm_table t = line_table();
    pm_domain d;
    ASSERT_EQ(pm_domain_init(&d, 2, &t, 0.5, 1000.0, pm_policy_find("off_when_unused")), 0);
    pm_kernel_begin(&d, 0);
    pm_close(&d, 100);
    pm_set(&d, 0, PM_ON, 150);
    pm_set(&d, 0, PM_SLEEP, 170);
    pm_close(&d, 180);
    EXPECT_EQ(d.st.residency[PM_OFF], 200u);
    EXPECT_EQ(d.st.residency[PM_ON] + d.st.residency[PM_SLEEP], 0u);
    EXPECT_EQ(d.st.transition_pj, 0.0);
    EXPECT_EQ(pm_get(&d, 0), PM_SLEEP);
    pm_kernel_begin(&d, 200); // off_when_unused: every block OFF again
    pm_set(&d, 1, PM_ON, 210);
    pm_close(&d, 220);
    EXPECT_EQ(d.st.residency[PM_ON], 10u);
    pm_domain_free(&d);
}

TEST(PowerMode, SleepForNCyclesThenWakeCostsItsLatencyAndEnergy)
{
    pm_table t = line_table();
    pm_domain d;
    ASSERT_EQ(pm_domain_init(&d, 2, &t, 0.5, 1000.0, pm_policy_find("off_when_unused")), 0);
    pm_kernel_begin(&d, 0);
    pm_set(&d, 0, PM_ON, 0);
    pm_set(&d, 1, PM_ON, 0);
    pm_set(&d, 0, PM_SLEEP, 10);
    int lost = 1;
    EXPECT_EQ(pm_access(&d, 0, 110, &lost), 2); // asleep 100 cycles: waits the 2-cycle wake
    EXPECT_EQ(lost, 0);                          // sleep keeps the data
    EXPECT_EQ(pm_get(&d, 0), PM_ON);
    EXPECT_EQ(pm_access(&d, 0, 111, nullptr), 0); // now ON
    pm_close(&d, 200);
    EXPECT_EQ(d.st.residency[PM_SLEEP], 100u);
    EXPECT_EQ(d.st.residency[PM_ON], 2u * 200u - 100u);
    EXPECT_EQ(d.st.wakes, 1u);
    EXPECT_EQ(d.st.wake_cycles, 2u);
    // One round trip: break-even 2 cycles at 1 GHz = 2 ns x 0.5 mW x (1 - 0.228) = 0.772 pJ.
    EXPECT_NEAR(d.st.transition_pj, 2e-9 * 0.5e-3 * 0.772 * 1e12, 1e-12);
    // Leakage: 2 blocks x 200 cycles x 0.5 mW, less 100 sleeping cycles x 77.2% of 0.5 mW.
    double res[PM_MODES];
    for (int m = 0; m < PM_MODES; m++) res[m] = static_cast<double>(d.st.residency[m]);
    double expect = (400.0 - 100.0 * 0.772) * 0.5 / 1000.0 * 1e3;
    EXPECT_NEAR(pm_leakage_pj(&t, 0.5, 1000.0, 2, 200, res), expect, 1e-9);
    pm_domain_free(&d);
}

TEST(PowerMode, BreakEvenTimeFollowsFromTheTable)
{
    pm_table t{};
    t.m[PM_ON] = {1.0, 0, 0};
    t.m[PM_SHALLOW] = {0.94, 4, 4}; // thesis Table 6.1, registers
    t.m[PM_SLEEP] = {0.42, 13, 13};
    t.m[PM_OFF] = {0.0, 16, 16};
    pm_domain d;
    ASSERT_EQ(pm_domain_init(&d, 1, &t, 0.25, 700.0, pm_policy_find("off_when_unused")), 0);
    for (int m = PM_SHALLOW; m < PM_MODES; m++) {
        double e = pm_transition_pj(&d, m);
        EXPECT_GT(e, 0);
        EXPECT_NEAR(pm_breakeven_cycles(e, 0.25, t.m[m].leak_fraction, 700.0), t.m[m].breakeven_cycles, 1e-9);
    }
    // Sleeping exactly the break-even time saves exactly the transition energy: net zero.
    pm_kernel_begin(&d, 0);
    pm_set(&d, 0, PM_ON, 0);
    pm_set(&d, 0, PM_SLEEP, 0);
    pm_access(&d, 0, 13, nullptr);
    pm_close(&d, 13);
    double res[PM_MODES];
    for (int m = 0; m < PM_MODES; m++) res[m] = static_cast<double>(d.st.residency[m]);
    const double none[PM_MODES] = {0, 0, 0, 0};
    double always_on = pm_leakage_pj(&t, 0.25, 700.0, 1, 13, none);
    EXPECT_NEAR(pm_leakage_pj(&t, 0.25, 700.0, 1, 13, res) + d.st.transition_pj, always_on, 1e-9);
    pm_domain_free(&d);
}

TEST(PowerMode, PolicyNamesAreKnown)
{
    EXPECT_EQ(pm_policy_find("always_on"), &pm_policy_always_on);
    EXPECT_EQ(pm_policy_find("off_when_unused"), &pm_policy_off_when_unused);
    EXPECT_EQ(pm_policy_find("snooze"), &pm_policy_snooze);
    EXPECT_EQ(pm_policy_find("slumber_unknown"), nullptr);
    EXPECT_STREQ(pm_mode_name(PM_OFF), "off");
}

// A 4-set, 2-way normal cache (write-back) whose lines are each a power block.
struct GatedCache {
    cache_core c{};
    explicit GatedCache(const char *policy)
    {
        gsim_cache_cfg cfg{};
        char err[128];
        EXPECT_EQ(gsim_cache_cfg_parse("N:4:128:2,L:B:m:W:L,A:4:4,4", &cfg, err, sizeof err), 0) << err;
        EXPECT_EQ(cache_init(&c, &cfg), 0);
        pm_table t = line_table();
        EXPECT_EQ(cache_pm_init(&c, &t, 8.0, 1000.0, pm_policy_find(policy), 1), 0);
        pm_kernel_begin(&c.pm, 0);
    }
    ~GatedCache() { cache_free(&c); }
    cache_status read(uint64_t addr, uint64_t now)
    {
        cache_req r{};
        r.addr = addr;
        c.now = now;
        return cache_access(&c, &r, nullptr);
    }
    void fill(uint64_t addr, uint64_t now)
    {
        uint64_t woken[8];
        c.now = now;
        cache_fill(&c, addr, 0, woken, 8);
        cache_out o;
        while (cache_out_pop(&c, &o) == 0) {
        }
    }
    uint32_t block_of(uint64_t addr)
    {
        int set = cache_set_index(&c, addr);
        return static_cast<uint32_t>(set * c.assoc + cache_probe(&c, addr, nullptr));
    }
};

TEST(CachePower, AnOffLineHasLostItsDataAndMisses)
{
    GatedCache g("off_when_unused");
    EXPECT_EQ(g.c.pm.count[PM_OFF], 8u); // every line starts OFF under this policy
    EXPECT_EQ(g.read(0x1000, 1), CACHE_MISS);
    g.fill(0x1000, 5);
    EXPECT_EQ(g.c.pm.count[PM_ON], 1u); // the fill allocated a line: its block is ON
    EXPECT_EQ(g.read(0x1000, 6), CACHE_HIT);
    EXPECT_EQ(g.c.pm_wait, 0);
    uint32_t b = g.block_of(0x1000);
    pm_set(&g.c.pm, b, PM_OFF, 10); // a gating policy switches the line off
    EXPECT_EQ(g.read(0x1000, 20), CACHE_MISS) << "an OFF line must not return stale data";
    EXPECT_EQ(g.c.pm.st.lost, 1u);
    EXPECT_EQ(g.c.pm_wait, 2);
    uint8_t valid = 0xff;
    cache_probe(&g.c, 0x1000, &valid); // the miss reserved a line again ('m' allocation): no valid data
    EXPECT_EQ(valid, 0);
    EXPECT_EQ(g.c.pm.count[PM_ON], 1u); // the refetch's line is ON
}

TEST(CachePower, ASleepingLineKeepsItsDataAndWaitsToWake)
{
    GatedCache g("off_when_unused");
    g.read(0x2000, 1);
    g.fill(0x2000, 3);
    pm_set(&g.c.pm, g.block_of(0x2000), PM_SLEEP, 4);
    EXPECT_EQ(g.read(0x2000, 50), CACHE_HIT);
    EXPECT_EQ(g.c.pm_wait, 2);
    EXPECT_EQ(g.c.pm.st.wakes, 1u);
    EXPECT_EQ(g.c.pm.st.lost, 0u);
    EXPECT_EQ(g.read(0x2000, 51), CACHE_HIT);
    EXPECT_EQ(g.c.pm_wait, 0);
}

TEST(CachePower, AlwaysOnLeavesTheCacheUntouched)
{
    GatedCache g("always_on");
    EXPECT_FALSE(pm_active(&g.c.pm));
    g.read(0x3000, 1);
    g.fill(0x3000, 2);
    EXPECT_EQ(g.read(0x3000, 3), CACHE_HIT);
    EXPECT_EQ(g.c.pm_wait, 0);
    pm_close(&g.c.pm, 103);
    EXPECT_EQ(g.c.pm.st.residency[PM_ON], 8u * 103u);
}

} // namespace
