// Slumber and the Warped Register File (thesis Ch. 6, model/power/policy_slumber.c): one test per
// transition of the spec's reconstructed FSM (D.3.5: T1-T12, the ALU destination TA, the finish TF)
// on scripted sequences, the wake latency charged exactly once, no access before the register is
// ON, the idle thresholds of Sec. 6.2, the countdown's width, and a hand-computed leakage case.
#include <gtest/gtest.h>

extern "C" {
#include "analysis/reg_hints.h"
#include "power/policy_slumber.h"
#include "power/power_mode.h"
}

namespace {

// Thesis Table 6.1: SS 94 % / 4 cycles, DS 42 % / 13, PG 0 % / 16 (break-even = enabling idle length).
pm_table rf_table()
{
    pm_table t{};
    t.m[PM_ON] = {1.0, 0, 0};
    t.m[PM_SHALLOW] = {0.94, 4, 4};
    t.m[PM_SLEEP] = {0.42, 13, 13};
    t.m[PM_OFF] = {0.0, 16, 16};
    return t;
}

slumber_config cfg()
{
    slumber_config c{};
    c.lat[0] = 30, c.lat[1] = 200, c.lat[2] = 400;
    c.min_idle[PM_SHALLOW] = 4, c.min_idle[PM_SLEEP] = 13, c.min_idle[PM_OFF] = 16;
    c.lookahead = 3, c.lookahead_deep = 1, c.ibuffer = 2, c.fetch_list = 16, c.fetch_line = 16;
    c.counter_bits = 10, c.long_alu_ds = 0, c.hint_loops = REG_HINTS_LOOPS_CONSERVATIVE, c.wrf_wake = 1;
    return c;
}

struct Rf {
    pm_domain d{};
    explicit Rf(const char *policy = "slumber", uint32_t n = 4, slumber_config c = cfg())
    {
        pm_table t = rf_table();
        EXPECT_EQ(pm_domain_init(&d, n, &t, 1.0, 1000.0, pm_policy_find(policy)), 0);
        rfp_configure(&d, &c);
        pm_kernel_begin(&d, 0);
    }
    ~Rf() { pm_domain_free(&d); }
    pm_mode mode(uint32_t b) const { return pm_get(&d, b); }
    uint64_t t(int id) const { return rfp_get_stats(&d)->trans[id]; }
    const rfp_stats &st() const { return *rfp_get_stats(&d); }
    // Brings register b ON at cycle now with nothing pending (a read that finds it OFF is a lost
    // read: use a write-back, which may find it anywhere).
    void on(uint32_t b, uint64_t now) { rfp_load_dest(&d, b, now); rfp_advance(&d, now + 16); (void)rfp_writeback(&d, b, now + 16); }
};

}  // namespace

TEST(Slumber, IdleThresholdsOfSection62)
{
    slumber_config c = cfg();
    EXPECT_EQ(rfp_mode_for(&c, 3, RH_READ), PM_ON);
    EXPECT_EQ(rfp_mode_for(&c, 4, RH_READ), PM_SHALLOW);
    EXPECT_EQ(rfp_mode_for(&c, 12, RH_WRITE), PM_SHALLOW);
    EXPECT_EQ(rfp_mode_for(&c, 13, RH_READ), PM_SLEEP);
    EXPECT_EQ(rfp_mode_for(&c, 15, RH_WRITE), PM_SLEEP);
    EXPECT_EQ(rfp_mode_for(&c, 16, RH_WRITE), PM_OFF);
    EXPECT_EQ(rfp_mode_for(&c, 5000, RH_READ), PM_SLEEP);  // a read-next register is never gated
    EXPECT_EQ(rfp_mode_for(&c, 0, RH_NONE), PM_OFF);       // dead
}

TEST(Slumber, T1_UnallocatedAndUnusedRegistersStayOff)
{
    Rf r;
    for (uint32_t b = 0; b < 4; b++) EXPECT_EQ(r.mode(b), PM_OFF);  // kernel start
    rfp_alloc(&r.d, 0, RH_NONE, 0, 10);                              // allocated, never used
    rfp_advance(&r.d, 5000);
    EXPECT_EQ(r.mode(0), PM_OFF);
    EXPECT_EQ(r.t(1), 1u);
    EXPECT_EQ(r.t(2), 0u);
}

TEST(Slumber, T2_CountdownBringsAnAllocatedRegisterToShallowSleepBeforeItsFirstUse)
{
    Rf r;
    rfp_alloc(&r.d, 0, RH_WRITE, 100, 0);  // first use 100 cycles away
    rfp_advance(&r.d, 87);
    EXPECT_EQ(r.mode(0), PM_OFF);          // OFF -> SS takes 16 - 4 = 12 cycles: starts at 88
    rfp_advance(&r.d, 88);
    EXPECT_EQ(r.mode(0), PM_SHALLOW);
    EXPECT_EQ(r.t(2), 1u);
    // Written at 100 without a look-ahead: the SS wake (4 cycles) shows, once.
    EXPECT_EQ(rfp_access(&r.d, 0, 1, 100), 4);
    EXPECT_EQ(r.mode(0), PM_ON);
    EXPECT_EQ(r.st().stalls[RFP_WRITE][PM_SHALLOW], 1u);
    EXPECT_EQ(r.st().stall_cycles[RFP_WRITE][PM_SHALLOW], 4u);
    EXPECT_EQ(r.st().lost, 0u);
    EXPECT_EQ(rfp_access(&r.d, 0, 0, 120), 0);  // read after its write: nothing lost
    EXPECT_EQ(r.st().lost, 0u);
}

TEST(Slumber, T3_LookAheadWakesShallowSleepAndTheWakeCountsOnce)
{
    Rf r;
    rfp_alloc(&r.d, 0, RH_WRITE, 100, 0);
    rfp_advance(&r.d, 100);
    ASSERT_EQ(r.mode(0), PM_SHALLOW);
    rfp_lookahead(&r.d, 0, 100);           // the warp is among the scheduler's next three
    EXPECT_EQ(r.mode(0), PM_ON);
    EXPECT_EQ(r.t(3), 1u);
    EXPECT_EQ(rfp_access(&r.d, 0, 1, 102), 2);  // issued 2 cycles later: waits the rest only
    EXPECT_EQ(rfp_access(&r.d, 0, 1, 103), 0);  // the wake is not charged again
    EXPECT_EQ(r.d.st.wake_cycles, 2u);
    EXPECT_EQ(r.d.st.wakes, 1u);
}

TEST(Slumber, T4_LoadDestinationStaysOnUntilTheL1Outcome)
{
    Rf r;
    r.on(1, 0);
    uint64_t before = r.t(4);
    rfp_load_dest(&r.d, 1, 20);
    EXPECT_EQ(r.mode(1), PM_ON);
    EXPECT_EQ(r.t(4), before + 1);
    EXPECT_EQ(rfp_writeback(&r.d, 1, 50), 0);  // an L1 hit writes it at once
}

TEST(Slumber, T5_T6_L1MissGatesTheDestinationAndTheCountdownWakesItForTheData)
{
    Rf r;
    r.on(1, 0);
    rfp_load_dest(&r.d, 1, 100);
    rfp_load_miss(&r.d, 1, 100, 200, 1);      // tracker: L2 hit, minimum 200 cycles
    EXPECT_EQ(r.mode(1), PM_OFF);
    EXPECT_EQ(r.t(5), 1u);
    rfp_advance(&r.d, 283);
    EXPECT_EQ(r.mode(1), PM_OFF);
    rfp_advance(&r.d, 284);                // 300 - 16
    EXPECT_EQ(r.mode(1), PM_ON);
    EXPECT_EQ(r.t(6), 1u);
    EXPECT_EQ(rfp_writeback(&r.d, 1, 300), 0);  // on time: no stall
    EXPECT_EQ(r.st().lost, 0u);
}

TEST(Slumber, T3_LookAheadLeavesARegisterWaitingForItsResult)
{
    Rf r;
    r.on(1, 0);
    rfp_load_dest(&r.d, 1, 100);
    rfp_load_miss(&r.d, 1, 100, 200, 1);
    rfp_lookahead(&r.d, 1, 150);           // the next instruction reads it: it cannot issue yet
    EXPECT_EQ(r.mode(1), PM_OFF);
    rfp_advance(&r.d, 284);
    EXPECT_EQ(r.mode(1), PM_ON);           // the countdown still works
    EXPECT_EQ(r.t(3), 0u);
}

TEST(Slumber, T6_DataEarlierThanPredictedWaitsTheRestOfTheWakeOnce)
{
    Rf r;
    r.on(1, 0);
    rfp_load_dest(&r.d, 1, 100);
    rfp_load_miss(&r.d, 1, 100, 200, 1);
    rfp_advance(&r.d, 290);                // woken at 284, ON by 300
    EXPECT_EQ(rfp_writeback(&r.d, 1, 290), 10);
    EXPECT_EQ(r.st().stalls[RFP_WRITEBACK][PM_OFF], 1u);
    EXPECT_EQ(r.st().stall_cycles[RFP_WRITEBACK][PM_OFF], 10u);
    EXPECT_EQ(rfp_writeback(&r.d, 1, 300), 0);
    // Before the countdown fired at all: the whole OFF wake.
    rfp_load_dest(&r.d, 2, 400);
    rfp_load_miss(&r.d, 2, 400, 200, 1);
    rfp_advance(&r.d, 450);
    EXPECT_EQ(rfp_writeback(&r.d, 2, 450), 16);
    rfp_advance(&r.d, 700);                // the stale countdown does nothing
    EXPECT_EQ(r.t(6), 1u);
}

TEST(Slumber, T7_NextUseCloseStaysOn)
{
    Rf r;
    r.on(0, 0);
    rfp_after_access(&r.d, 0, RH_READ, 3, 50);
    EXPECT_EQ(r.mode(0), PM_ON);
    EXPECT_EQ(r.t(7), 1u);
}

TEST(Slumber, T8_NextUseInTheBufferGoesToShallowSleepAndWaitsForTheScheduler)
{
    Rf r;
    r.on(0, 0);
    rfp_after_access(&r.d, 0, RH_READ, 8, 50);
    EXPECT_EQ(r.mode(0), PM_SHALLOW);
    EXPECT_EQ(r.t(8), 1u);
    rfp_advance(&r.d, 5000);               // no countdown: the look-ahead wakes it
    EXPECT_EQ(r.mode(0), PM_SHALLOW);
}

TEST(Slumber, T9_T11_FarReadGoesToDeepSleepAndTheCountdownWakesIt)
{
    Rf r;
    r.on(0, 0);
    rfp_after_access(&r.d, 0, RH_READ, 100, 50);
    EXPECT_EQ(r.mode(0), PM_SLEEP);        // read next: data kept
    EXPECT_EQ(r.t(9), 1u);
    rfp_advance(&r.d, 136);
    EXPECT_EQ(r.mode(0), PM_SLEEP);
    rfp_advance(&r.d, 137);                // 150 - 13
    EXPECT_EQ(r.mode(0), PM_ON);
    EXPECT_EQ(r.t(11), 1u);
    EXPECT_EQ(rfp_access(&r.d, 0, 0, 150), 0);
    EXPECT_EQ(r.st().lost, 0u);
}

TEST(Slumber, T10_T12_FarWriteIsGatedAndTheCountdownWakesIt)
{
    Rf r;
    r.on(0, 0);
    rfp_after_access(&r.d, 0, RH_WRITE, 100, 50);
    EXPECT_EQ(r.mode(0), PM_OFF);
    EXPECT_EQ(r.t(10), 1u);
    rfp_advance(&r.d, 134);                // 150 - 16
    EXPECT_EQ(r.mode(0), PM_ON);
    EXPECT_EQ(r.t(12), 1u);
    // Between the DS and OFF thresholds a write-next register only sleeps deep.
    r.on(1, 200);
    rfp_after_access(&r.d, 1, RH_WRITE, 14, 300);
    EXPECT_EQ(r.mode(1), PM_SLEEP);
    // A dead register (no next access) is gated without a countdown.
    r.on(2, 400);
    rfp_after_access(&r.d, 2, RH_NONE, 0, 500);
    rfp_advance(&r.d, 5000);
    EXPECT_EQ(r.mode(2), PM_OFF);
}

TEST(Slumber, TA_AluDestinationSleepsForTheUnitsLatency)
{
    Rf r;
    r.on(0, 0), r.on(1, 0), r.on(2, 0);
    rfp_alu_dest(&r.d, 0, 100, 102, 1);       // 2 cycles (a branch): stays ON
    EXPECT_EQ(r.mode(0), PM_ON);
    EXPECT_EQ(rfp_writeback(&r.d, 0, 102), 0);
    rfp_alu_dest(&r.d, 1, 100, 106, 1);       // 6 cycles (integer add): SS, woken at 102
    EXPECT_EQ(r.mode(1), PM_SHALLOW);
    rfp_alu_dest(&r.d, 2, 100, 253, 1);       // 153 cycles (integer divide): OFF (Sec. 6.3.2), woken at 237
    EXPECT_EQ(r.mode(2), PM_OFF);
    EXPECT_EQ(r.t(RFP_TA), 3u);
    rfp_advance(&r.d, 102);
    EXPECT_EQ(r.mode(1), PM_ON);
    EXPECT_EQ(rfp_writeback(&r.d, 1, 106), 0);
    rfp_advance(&r.d, 237);
    EXPECT_EQ(r.mode(2), PM_ON);
    EXPECT_EQ(rfp_writeback(&r.d, 2, 253), 0);
    EXPECT_EQ(r.d.st.wake_cycles, 0u);
    // Sec. 6.3.3's variant: deep sleep for the long latency.
    slumber_config c = cfg();
    c.long_alu_ds = 1;
    Rf v("slumber", 4, c);
    v.on(0, 0);
    rfp_alu_dest(&v.d, 0, 100, 253, 1);
    EXPECT_EQ(v.mode(0), PM_SLEEP);
    // A register shared by several PTX registers keeps its other values: deep sleep at most.
    r.on(3, 300);
    rfp_alu_dest(&r.d, 3, 400, 553, 0);
    EXPECT_EQ(r.mode(3), PM_SLEEP);
    r.on(0, 600);
    rfp_load_dest(&r.d, 0, 700);
    rfp_load_miss(&r.d, 0, 700, 200, 0);
    EXPECT_EQ(r.mode(0), PM_SLEEP);
}

TEST(Slumber, TA_TwoResultsInFlightKeepTheRegisterOn)
{
    Rf r;
    r.on(0, 0);
    rfp_alu_dest(&r.d, 0, 100, 200, 1);    // OFF until 184 ...
    EXPECT_EQ(r.mode(0), PM_OFF);
    rfp_alu_dest(&r.d, 0, 101, 130, 1);    // ... but a second result lands at 130
    EXPECT_EQ(r.mode(0), PM_ON);
    rfp_advance(&r.d, 130);
    EXPECT_EQ(rfp_writeback(&r.d, 0, 130), 0);  // woken at 101: ON from 117
    EXPECT_EQ(rfp_writeback(&r.d, 0, 200), 0);
}

TEST(Slumber, TF_FinishedWarpsRegistersAreGatedAndReadingThemIsALostRead)
{
    Rf r;
    r.on(3, 0);
    rfp_after_access(&r.d, 3, RH_READ, 100, 20);  // a countdown pending
    rfp_finish(&r.d, 3, 30);
    EXPECT_EQ(r.mode(3), PM_OFF);
    EXPECT_EQ(r.t(RFP_TF), 1u);
    rfp_advance(&r.d, 1000);               // the countdown was cancelled
    EXPECT_EQ(r.mode(3), PM_OFF);
    EXPECT_EQ(rfp_access(&r.d, 3, 0, 1000), 16);
    EXPECT_EQ(r.st().lost, 1u);
    EXPECT_EQ(r.d.st.lost, 1u);
    // The TB's release: OFF again (T1).
    pm_event_report(&r.d, 3, PM_EV_FREE, 1100);
    EXPECT_EQ(r.mode(3), PM_OFF);
}

TEST(Slumber, CountdownSaturatesAtItsWidth)
{
    Rf r;
    r.on(0, 0);
    rfp_after_access(&r.d, 0, RH_WRITE, 5000, 100);  // a 10-bit counter holds 1023
    rfp_advance(&r.d, 100 + 1023 - 16 - 1);
    EXPECT_EQ(r.mode(0), PM_OFF);
    rfp_advance(&r.d, 100 + 1023 - 16);
    EXPECT_EQ(r.mode(0), PM_ON);
}

TEST(Slumber, IdlePeriodsAreBinnedByLengthAndNextAccess)
{
    Rf r;
    r.on(0, 0);                            // write-back at 16
    (void)rfp_access(&r.d, 0, 0, 18);      // read 2 cycles later: < 4
    (void)rfp_access(&r.d, 0, 0, 38);      // read after 20: >= 16
    (void)rfp_writeback(&r.d, 0, 48);      // write after 10: 4..12
    EXPECT_EQ(r.st().idle_hist[0][0], 1u);
    EXPECT_EQ(r.st().idle_hist[0][3], 1u);
    EXPECT_EQ(r.st().idle_hist[1][1], 1u);
    EXPECT_EQ(r.st().idle_cycles[0][3], 20u);
}

// One register, 1 mW ON at 1 GHz (1 pJ per cycle): OFF 0..88, SS 88..100 (T2), ON 100..120 (T3).
// Leakage = 1 pJ x (120 - 88 x (1 - 0) - 12 x (1 - 0.94)) = 31.28 pJ; one SS entry costs
// B / f x P x (1 - F) = 4 ns x 1 mW x 0.06 = 0.24 pJ.
TEST(Slumber, HandComputedLeakage)
{
    Rf r("slumber", 1);
    rfp_alloc(&r.d, 0, RH_WRITE, 100, 0);
    rfp_advance(&r.d, 100);
    rfp_lookahead(&r.d, 0, 100);
    pm_close(&r.d, 120);
    EXPECT_EQ(r.d.st.residency[PM_OFF], 88u);
    EXPECT_EQ(r.d.st.residency[PM_SHALLOW], 12u);
    EXPECT_EQ(r.d.st.residency[PM_ON], 20u);
    double res[PM_MODES];
    for (int m = 0; m < PM_MODES; m++) res[m] = static_cast<double>(r.d.st.residency[m]);
    pm_table t = rf_table();
    EXPECT_NEAR(pm_leakage_pj(&t, 1.0, 1000.0, 1, 120, res), 31.28, 1e-12);
    EXPECT_NEAR(r.d.st.transition_pj, 0.24, 1e-15);
}

TEST(Wrf, AllocatedDrowsyAccessWakesWithAHiddenLatencyAndGoesBackToDrowsy)
{
    Rf r("wrf");
    pm_event_report(&r.d, 0, PM_EV_ALLOC, 10);
    EXPECT_EQ(r.mode(0), PM_SLEEP);        // allocated: drowsy
    EXPECT_EQ(r.mode(1), PM_OFF);          // unallocated: OFF
    EXPECT_EQ(rfp_access(&r.d, 0, 0, 20), 1);  // -wrf_wake 1 of the 13 shows
    EXPECT_EQ(r.st().stall_cycles[RFP_READ][PM_SLEEP], 1u);
    EXPECT_EQ(r.d.st.wake_cycles, 1u);
    rfp_after_access(&r.d, 0, RH_WRITE, 500, 20);
    EXPECT_EQ(r.mode(0), PM_SLEEP);        // drowsy right after the access, never OFF
    rfp_load_dest(&r.d, 0, 30);
    rfp_load_miss(&r.d, 0, 30, 400, 1);
    EXPECT_EQ(r.mode(0), PM_ON);           // write-conservative: ON until the data comes
    EXPECT_EQ(rfp_writeback(&r.d, 0, 430), 0);
    rfp_finish(&r.d, 0, 500);
    EXPECT_EQ(r.mode(0), PM_SLEEP);        // a finished warp's registers stay drowsy
    pm_event_report(&r.d, 0, PM_EV_FREE, 600);
    EXPECT_EQ(r.mode(0), PM_OFF);
    rfp_lookahead(&r.d, 0, 700);           // WRF has no look-ahead
    EXPECT_EQ(r.mode(0), PM_OFF);
}

TEST(Wrf, FullDrowsyWakeVariant)
{
    slumber_config c = cfg();
    c.wrf_wake = 13;
    Rf r("wrf", 2, c);
    pm_event_report(&r.d, 0, PM_EV_ALLOC, 0);
    EXPECT_EQ(rfp_access(&r.d, 0, 0, 5), 13);
}

TEST(Slumber, PoliciesGateRegistersOnly)
{
    EXPECT_EQ(pm_policy_find("slumber"), &pm_policy_slumber);
    EXPECT_EQ(pm_policy_find("wrf"), &pm_policy_wrf);
    EXPECT_EQ(pm_policy_cache(&pm_policy_slumber), &pm_policy_always_on);
    EXPECT_EQ(pm_policy_sm(&pm_policy_wrf), &pm_policy_always_on);
    EXPECT_EQ(pm_policy_non_cache(&pm_policy_slumber), &pm_policy_slumber);
    EXPECT_EQ(pm_policy_cache(&pm_policy_snooze), &pm_policy_snooze);
}

// The memory-wait predictor (-slumber_mem_wait, a proposal: the thesis predicts a register's idle
// period from the issue rate and the MSHR tracker for a load's own destination only). Scripted: a
// warp issuing an instruction every 2 cycles (interval x16 = 32) issues a load (stream index 0) at
// cycle 100 that misses, predicted back at 100 + 139 (L2 minimum); its data is first read at index
// 2. At cycle 102 instruction 1 reads register 0, next read at index 4 (3 instructions on).
TEST(Slumber, MemWaitBoundsAUseBehindAMissedLoad)
{
    const uint64_t stall_idx = 2, until = 239;
    // Issue interval alone: 3 x 2 = 6 cycles, shallow sleep (woken by the scheduler's look-ahead).
    slumber_config c = cfg();
    EXPECT_EQ(rfp_mode_for(&c, 6, RH_READ), PM_SHALLOW);
    // With the wait: the warp stalls at index 2 until 239, then issues 2 more: 239 - 102 + 2 x 2.
    uint64_t idle = rfp_mem_wait(stall_idx, until, 2, 4, 102, 32);
    EXPECT_EQ(idle, 141u);
    EXPECT_EQ(rfp_mem_wait(stall_idx, until, 2, 1, 102, 32), 0u);   // a use before the stall
    EXPECT_EQ(rfp_mem_wait(stall_idx, until, 2, 2, 102, 32), 137u); // the stalled instruction itself
    EXPECT_EQ(rfp_mem_wait(stall_idx, until, 3, 4, 102, 32), 0u);   // the warp passed the stall
    EXPECT_EQ(rfp_mem_wait(stall_idx, until, 2, 4, 239, 32), 0u);   // the data is due
    // The register then deep sleeps and its countdown wakes it 13 cycles before 102 + 141 = 243.
    Rf r;
    r.on(0, 0);
    rfp_after_access(&r.d, 0, RH_READ, static_cast<uint32_t>(idle), 102);
    EXPECT_EQ(r.mode(0), PM_SLEEP);
    rfp_advance(&r.d, 229);
    EXPECT_EQ(r.mode(0), PM_SLEEP);
    rfp_advance(&r.d, 230);
    EXPECT_EQ(r.mode(0), PM_ON);
    EXPECT_EQ(rfp_access(&r.d, 0, 0, 243), 0); // ON in time: no stall
    EXPECT_EQ(r.st().stalls[RFP_READ][PM_SLEEP], 0u);
    pm_close(&r.d, 243);
    EXPECT_EQ(r.d.st.residency[PM_SLEEP], 230u - 102u); // 128 cycles at 42 % instead of 94 %
}

// A warp demoted to the two-level scheduler's pending pool (-slumber_park, a proposal: the thesis'
// look-ahead covers only the active warps). Scripted: registers 0 (next access a read), 1 (a write)
// and 2 (a read, with a load's result in flight) are ON from cycle 16; the warp is demoted at 100 and
// promoted at 400. TP: 0 deep sleeps, 1 is gated, 2 keeps its result's plan, none has a countdown.
// TW: 0 is read by the first instruction after the promotion (predicted idle 0): its 13-cycle wake
// delays that read, once; 1 is written 100 cycles later: gated again, its countdown wakes it in time.
TEST(Slumber, TP_TW_DemotedWarpSleepsUntilItsPromotionWhichPaysTheWake)
{
    Rf r;
    r.on(0, 0), r.on(1, 0), r.on(2, 0);
    rfp_load_dest(&r.d, 2, 90);
    rfp_park(&r.d, 0, RH_READ, 0, 100);
    rfp_park(&r.d, 1, RH_WRITE, 0, 100);
    rfp_park(&r.d, 2, RH_READ, 0, 100);
    EXPECT_EQ(r.mode(0), PM_SLEEP);
    EXPECT_EQ(r.mode(1), PM_OFF);
    EXPECT_EQ(r.mode(2), PM_ON); // a result in flight: its write-back decides
    EXPECT_EQ(r.t(RFP_TP), 2u);
    rfp_advance(&r.d, 399);      // no countdown: asleep however long the warp waits
    EXPECT_EQ(r.mode(0), PM_SLEEP);
    EXPECT_EQ(r.mode(1), PM_OFF);
    rfp_promote(&r.d, 0, RH_READ, 0, 400);
    rfp_promote(&r.d, 1, RH_WRITE, 100, 400);
    EXPECT_EQ(r.t(RFP_TW), 2u);
    EXPECT_EQ(r.mode(1), PM_OFF);
    EXPECT_EQ(rfp_access(&r.d, 0, 0, 401), 12); // woken at 400 from DS: ON at 413
    EXPECT_EQ(rfp_access(&r.d, 0, 0, 402), 0);  // charged once
    EXPECT_EQ(r.st().promo_stalls, 1u);
    EXPECT_EQ(r.st().promo_stall_cycles, 12u);
    EXPECT_EQ(r.st().stalls[RFP_READ][PM_SLEEP], 1u);
    rfp_advance(&r.d, 483);
    EXPECT_EQ(r.mode(1), PM_OFF);
    rfp_advance(&r.d, 484);                     // 500 - 16
    EXPECT_EQ(r.mode(1), PM_ON);
    EXPECT_EQ(rfp_access(&r.d, 1, 1, 500), 0);
    EXPECT_EQ(r.st().promo_stalls, 1u);
    EXPECT_EQ(r.st().lost, 0u);
    pm_close(&r.d, 500);
    // Residency, block-cycles: 0 ON 0-100 and 400-500, DS 100-400; 1 ON 0-100 and 484-500, OFF 100-484;
    // 2 ON 0-500; 3 never used (OFF).
    EXPECT_EQ(r.d.st.residency[PM_SLEEP], 300u);
    EXPECT_EQ(r.d.st.residency[PM_OFF], 384u + 500u);
    EXPECT_EQ(r.d.st.residency[PM_ON], 200u + 116u + 500u);
}

// -slumber_park ibuffer: an operand of the parked warp's buffered instructions waits in SS, so the
// first access after the promotion waits the 4-cycle SS wake instead of 13 (DS) or 16 (OFF); a dead
// register is gated whatever its place.
TEST(Slumber, TP_BufferedOperandWaitsInShallowSleep)
{
    Rf r;
    r.on(0, 0), r.on(1, 0), r.on(2, 0);
    rfp_park(&r.d, 0, RH_READ, 1, 100);
    rfp_park(&r.d, 1, RH_WRITE, 1, 100);
    rfp_park(&r.d, 2, RH_NONE, 1, 100);
    EXPECT_EQ(r.mode(0), PM_SHALLOW);
    EXPECT_EQ(r.mode(1), PM_SHALLOW);
    EXPECT_EQ(r.mode(2), PM_OFF);
    rfp_promote(&r.d, 0, RH_READ, 0, 300);
    EXPECT_EQ(rfp_access(&r.d, 0, 0, 300), 4);
    EXPECT_EQ(r.st().promo_stall_cycles, 4u);
    pm_close(&r.d, 300);
    EXPECT_EQ(r.d.st.residency[PM_SHALLOW], 400u); // 0 and 1 from 100 to 300
}

// A write-back that found its register asleep lands when the wake completes (the SM retries it):
// a demotion or promotion in between leaves the register ON, else the value written would be gated
// (the lost reads CP showed before this rule).
TEST(Slumber, TP_WriteWaitingForItsWakeKeepsTheRegisterOn)
{
    Rf r;
    rfp_load_dest(&r.d, 0, 0);
    rfp_load_miss(&r.d, 0, 0, 100, 1);   // gated, countdown for 100
    EXPECT_EQ(r.mode(0), PM_OFF);
    EXPECT_EQ(rfp_writeback(&r.d, 0, 50), 16); // data early: the write waits the whole OFF wake
    rfp_park(&r.d, 0, RH_WRITE, 0, 55);
    rfp_promote(&r.d, 0, RH_WRITE, 500, 60);
    EXPECT_EQ(r.mode(0), PM_ON);
    EXPECT_EQ(r.t(RFP_TP), 0u);
    EXPECT_EQ(r.t(RFP_TW), 0u);
    rfp_park(&r.d, 0, RH_READ, 0, 66);   // written at 66: now it may sleep
    EXPECT_EQ(r.mode(0), PM_SLEEP);
    EXPECT_EQ(rfp_access(&r.d, 0, 0, 200), 13);
    EXPECT_EQ(r.st().lost, 0u);
}

// A 64-bit result written to a pair of warp registers whose halves wake differently (NW's, CFD's and
// MUM's lost reads at tiny size): the half already ON is written at once, the other waits 13 cycles
// from deep sleep, and the SM retries the write then. Held (rfp_hold) until the slower half lands, a
// demotion in between cannot gate the written half; the read after it finds its data.
TEST(Slumber, TP_PairHalfWrittenFirstIsHeldUntilTheOtherHalfLands)
{
    Rf r;
    r.on(0, 0);                                // half 0: its write-back found it ON (written at 16)
    rfp_hold(&r.d, 0, 33);                     // the pair's write waits for half 1 until 33
    rfp_park(&r.d, 0, RH_WRITE, 0, 21);        // the warp is demoted while the write waits
    EXPECT_EQ(r.mode(0), PM_ON) << "the written half stays ON until the pair's write lands";
    EXPECT_EQ(r.t(RFP_TP), 0u);
    rfp_park(&r.d, 0, RH_READ, 0, 33);         // landed: now it may sleep, keeping its data
    EXPECT_EQ(r.mode(0), PM_SLEEP);
    EXPECT_EQ(rfp_access(&r.d, 0, 0, 100), 13);
    EXPECT_EQ(r.st().lost, 0u);
    // without the hold, the same demotion (with the hint's "write next") gates the written half and
    // its read is a lost read
    Rf bad;
    bad.on(0, 0);
    rfp_park(&bad.d, 0, RH_WRITE, 0, 21);
    EXPECT_EQ(bad.mode(0), PM_OFF);
    (void)rfp_access(&bad.d, 0, 0, 100);
    EXPECT_EQ(bad.st().lost, 1u);
}
