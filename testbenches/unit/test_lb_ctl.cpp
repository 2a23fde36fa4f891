// Linebacker CTA Throttling Logic (model/linebacker/lb_ctl): the IPC monitor's +-10% bounds, the
// CTA manager's LIFO backup region and LRN, and the document's worked example (spec §3.6, Fig 6).
#include <gtest/gtest.h>

#include <cstdint>

extern "C" {
#include "linebacker/lb_ctl.h"
#include "linebacker/lb_monitor.h"
}

namespace {

// Fig 6's SM: 10 registers, 4 CTAs x 2 registers; one VP = 2 registers (1 set x 2 ways) from RN 0.
uint32_t fig6_vps(const lb_ctl &t) { return lb_ctl_vp_mask(lb_ctl_lrn(&t), lb_ctl_n_active(&t) > 0, 0, 2, 5, 10); }

lb_ctl_action period(lb_ctl *t, uint64_t insn)
{
    lb_ctl_retire(t, insn);
    return lb_ctl_period_end(t, 1000);
}

} // namespace

TEST(LbCtl, Fig6WorkedExample)
{
    lb_ctl t;
    lb_monitor m;
    const uint64_t base = 0x10000;
    ASSERT_EQ(lb_ctl_reset(&t, 2, 4, base, 0.10, -0.10), 0);
    lb_monitor_reset(&m, 0.20);
    for (uint32_t k = 0; k < 4; k++) lb_ctl_cta_start(&t, k);
    EXPECT_EQ(lb_ctl_lrn(&t), 7u);
    EXPECT_EQ(fig6_vps(t), 0x10u); // RN 8-9: the 2 SUR registers

    // P0-P1: monitoring; load 0 is high-locality in both periods.
    const uint32_t load0 = 0x100, load1 = 0x204;
    for (int p = 0; p < 2; p++) {
        for (int i = 0; i < 10; i++) lb_monitor_access(&m, lb_hpc(load0), load0, i < 5);
        for (int i = 0; i < 10; i++) lb_monitor_access(&m, lb_hpc(load1), load1, 0);
        period(&t, 1000); // IPC 1.0 (decisions ignored while monitoring)
        EXPECT_EQ(lb_monitor_period_end(&m), p == 0 ? LB_MONITOR : LB_ACTIVE);
    }
    EXPECT_TRUE(lb_monitor_selected(&m, lb_hpc(load0)));
    EXPECT_FALSE(lb_monitor_selected(&m, lb_hpc(load1)));

    // T0 (start of P2): throttling starts with CTA 3; its backup frees RN 6-7 for the victim cache.
    EXPECT_EQ(lb_ctl_throttle(&t), 3u);
    EXPECT_EQ(lb_ctl_n_active(&t), 3u);
    EXPECT_EQ(lb_ctl_backup_done(&t, 3), base);
    EXPECT_EQ(t.bp, base + 2 * 128);
    EXPECT_EQ(lb_ctl_lrn(&t), 5u);
    EXPECT_EQ(fig6_vps(t), 0x18u); // CTA 3's 2 registers plus the 2 SUR registers

    // End of P2: IPC_Var(P1, P2) = +20% > 10%: CTA 2 is throttled in P3.
    ASSERT_EQ(period(&t, 1200), LB_CTL_THROTTLE);
    EXPECT_EQ(lb_ctl_throttle(&t), 2u);
    EXPECT_EQ(lb_ctl_backup_done(&t, 2), base + 256);
    EXPECT_EQ(lb_ctl_lrn(&t), 3u);
    EXPECT_EQ(fig6_vps(t), 0x1Cu);

    // End of P3: the IPC dropped (-16.7%): CTA 2, the last one backed up, is restored in P4.
    ASSERT_EQ(period(&t, 1000), LB_CTL_RESTORE);
    ASSERT_EQ(lb_ctl_restore_pick(&t), 2u);
    ASSERT_EQ(lb_ctl_restore_done(&t, 2, 2), 0);
    EXPECT_EQ(t.bp, base + 256);
    EXPECT_EQ(lb_ctl_lrn(&t), 5u);
    EXPECT_EQ(fig6_vps(t), 0x18u);

    // P4 -> P5 within the bounds: nothing changes.
    EXPECT_EQ(period(&t, 1050), LB_CTL_KEEP);

    // Middle of P5: CTA 0 finishes and throttled CTA 3 is re-scheduled into its slot.
    lb_ctl_cta_done(&t, 0);
    ASSERT_EQ(lb_ctl_restore_pick(&t), 3u);
    ASSERT_EQ(lb_ctl_restore_done(&t, 3, 0), 0);
    EXPECT_EQ(t.cta[0].frn, 0u);
    EXPECT_EQ(t.bp, base);
    EXPECT_EQ(lb_ctl_lrn(&t), 5u); // CTA 2 still ends at RN 5
    EXPECT_EQ(fig6_vps(t), 0x18u);
    // No inactive CTA left: the next free slot takes a new CTA.
    EXPECT_EQ(lb_ctl_restore_pick(&t), LB_CTL_NONE);
}

TEST(LbCtl, BoundsAreAHysteresisBand)
{
    lb_ctl t;
    ASSERT_EQ(lb_ctl_reset(&t, 4, 2, 0, 0.10, -0.10), 0);
    lb_ctl_cta_start(&t, 0);
    lb_ctl_cta_start(&t, 1);
    EXPECT_EQ(period(&t, 1000), LB_CTL_KEEP); // first period: no previous IPC
    EXPECT_EQ(period(&t, 1099), LB_CTL_KEEP); // +9.9% is inside the band
    EXPECT_EQ(period(&t, 1000), LB_CTL_KEEP); // -9.0%
    EXPECT_EQ(period(&t, 1101), LB_CTL_THROTTLE);
    EXPECT_EQ(lb_ctl_throttle(&t), 1u);
    lb_ctl_backup_done(&t, 1);
    EXPECT_EQ(period(&t, 2000), LB_CTL_KEEP); // +81% but one active CTA is the floor
    EXPECT_EQ(period(&t, 1000), LB_CTL_RESTORE);
    EXPECT_EQ(lb_ctl_restore_done(&t, 0, 0), -1); // slot 0 is not the backed-up CTA
    EXPECT_EQ(lb_ctl_restore_done(&t, 1, 1), 0);
    EXPECT_EQ(period(&t, 500), LB_CTL_KEEP);      // nothing left to restore
}

TEST(LbCtl, BackupsAreALifoRegion)
{
    lb_ctl t;
    ASSERT_EQ(lb_ctl_reset(&t, 3, 4, 1 << 20, 0.1, -0.1), 0);
    for (uint32_t k = 0; k < 4; k++) lb_ctl_cta_start(&t, k);
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t k = lb_ctl_throttle(&t);
        EXPECT_EQ(k, 3u - i);
        EXPECT_EQ(lb_ctl_backup_done(&t, k), (1u << 20) + i * 3u * 128u);
    }
    EXPECT_EQ(lb_ctl_throttle(&t), 0u); // the IPC rule keeps one CTA; the manager itself can take all
    lb_ctl_backup_done(&t, 0);
    EXPECT_EQ(lb_ctl_lrn(&t), 0u);
    EXPECT_EQ(lb_ctl_vp_mask(0, 0, 0, 3, 4, 12), 0xFu); // nothing active: the whole file
    const uint32_t order[4] = {0, 1, 2, 3};
    for (uint32_t k : order) {
        ASSERT_EQ(lb_ctl_restore_pick(&t), k);
        ASSERT_EQ(lb_ctl_restore_done(&t, k, k), 0);
    }
    EXPECT_EQ(t.bp, 1u << 20);
    EXPECT_EQ(lb_ctl_lrn(&t), 11u);
    EXPECT_EQ(lb_ctl_reset(&t, 1, 33, 0, 0.1, -0.1), -1);
}
