// Idle periods of power blocks (model/power/idle_hist.c, Snooze's idleness statistics): a
// hand-computed access sequence, the bins' edges, the hook in the power-mode domain (Snooze and
// [151] keep it, other policies do not), and the thesis' trend that L2 banks idle more than L1s.
#include <gtest/gtest.h>

extern "C" {
#include "power/idle_hist.h"
#include "power/power_mode.h"
}

TEST(IdleHist, HandComputedSequence)
{
    idle_hist h;
    ASSERT_EQ(idle_hist_init(&h, 2), 0);
    idle_hist_begin(&h, 10);
    idle_hist_access(&h, 0, 10);   // no leading span
    idle_hist_access(&h, 0, 11);   // back to back: no period
    idle_hist_access(&h, 0, 14);   // 12, 13 idle: 2 cycles (le2)
    idle_hist_access(&h, 0, 14);   // same cycle: ignored
    idle_hist_access(&h, 0, 24);   // 15..23: 9 cycles (le9)
    idle_hist_access(&h, 1, 40);   // leading 10..39: 30 cycles (le31)
    idle_hist_close(&h, 1050);     // trailing: block 0 25..1049 = 1025, block 1 41..1049 = 1009 (le9999)
    EXPECT_EQ(h.periods[0], 1u);
    EXPECT_EQ(h.cycles[0], 2u);
    EXPECT_EQ(h.periods[1], 1u);
    EXPECT_EQ(h.cycles[1], 9u);
    EXPECT_EQ(h.periods[2], 1u);
    EXPECT_EQ(h.cycles[2], 30u);
    EXPECT_EQ(h.periods[3] + h.periods[4], 0u);
    EXPECT_EQ(h.periods[5], 2u);
    EXPECT_EQ(h.cycles[5], 1025u + 1009u);
    EXPECT_EQ(h.idle_cycles, 2u + 9u + 30u + 1025u + 1009u);
    EXPECT_EQ(h.block_cycles, 2u * 1040u);
    // Every observed block-cycle is either an access cycle or idle: 5 access cycles here.
    EXPECT_EQ(h.block_cycles - h.idle_cycles, 5u);
    idle_hist_free(&h);
}

TEST(IdleHist, BinEdges)
{
    idle_hist h;
    ASSERT_EQ(idle_hist_init(&h, 1), 0);
    idle_hist_begin(&h, 0);
    uint64_t t = 0;
    for (uint64_t len : {1u, 2u, 3u, 9u, 10u, 31u, 32u, 99u, 100u, 999u, 1000u, 9999u, 10000u}) {
        t += len;                    // len idle cycles, then an access
        idle_hist_access(&h, 0, t);
        t++;
    }
    const uint64_t want[IDLE_BINS] = {2, 2, 2, 2, 2, 2, 1};
    for (int k = 0; k < IDLE_BINS; k++) EXPECT_EQ(h.periods[k], want[k]) << idle_hist_bin_name[k];
    EXPECT_EQ(h.cycles[6], 10000u);
    idle_hist_free(&h);
}

TEST(IdleHist, KeptBySnoozeDomainsOnly)
{
    pm_table t{};
    t.m[PM_ON] = {1.0, 0, 0};
    for (int m = PM_SHALLOW; m < PM_MODES; m++) t.m[m] = {0.228, 2, 2};
    for (const char *name : {"snooze", "snooze_destroy", "coarse151"}) {
        pm_domain d;
        ASSERT_EQ(pm_domain_init(&d, 3, &t, 0.5, 1000.0, pm_policy_find(name)), 0);
        ASSERT_NE(d.idle, nullptr) << name;
        pm_kernel_begin(&d, 100);
        pm_access(&d, 1, 110, nullptr);    // leading 100..109 of block 1
        pm_note_access(&d, 2, 105);
        pm_close(&d, 200);
        // Block 0: 100 idle; block 1: 10 + 89; block 2: 5 + 94.
        EXPECT_EQ(d.idle->idle_cycles, 100u + 10u + 89u + 5u + 94u) << name;
        EXPECT_EQ(d.idle->block_cycles, 300u) << name;
        pm_domain_free(&d);
    }
    for (const char *name : {"always_on", "off_when_unused", "slumber"}) {
        pm_domain d;
        ASSERT_EQ(pm_domain_init(&d, 3, &t, 0.5, 1000.0, pm_policy_find(name)), 0);
        EXPECT_EQ(d.idle, nullptr) << name;
        pm_domain_free(&d);
    }
}
