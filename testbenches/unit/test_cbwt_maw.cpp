// Unit tests of CBWT's MAW controller (model/cbwt/maw_ctrl.h): scripted per-period inputs give the
// document's steps 1-6 (seeds/001 Sec. V-C, Fig. 12; spec 3.6.3), one test per step.
#include <gtest/gtest.h>

extern "C" {
#include "../../model/cbwt/maw_ctrl.h"
}

namespace {

// n_max 24, T_w 10 (doc), latency range [100, 200], T_NoC_G 5% (doc), T_LLS 0.05.
struct Maw {
    maw_ctrl c{};
    Maw()
    {
        maw_params p{24, 10, 200.0, 100.0, 0.05, 0.05, 0, MAW_TRIGGER_BOTH};
        EXPECT_EQ(maw_reset(&c, &p), 0);
    }
    maw_step period(double lat, double lls = 0.1, uint64_t m = 1000, uint64_t mb = 750)
    {
        maw_inputs in{lat, lls, m, mb};
        return maw_period(&c, &in);
    }
};

TEST(CbwtMaw, StartsAtNmaxAndHoldsWithoutContentionAndCongestion)
{
    Maw m;
    EXPECT_EQ(m.c.maw, 24);
    EXPECT_EQ(m.period(300, 0.01), MAW_STEP_NONE); // congestion but no contention
    EXPECT_EQ(m.period(150, 0.5), MAW_STEP_NONE);  // contention but no congestion
    EXPECT_EQ(m.c.maw, 24);
    maw_params bad{24, 10, 100.0, 200.0, 0.05, 0.05, 0, MAW_TRIGGER_BOTH};
    EXPECT_EQ(maw_reset(&m.c, &bad), -1);
}

TEST(CbwtMaw, Step1CoarseJumpToEq1)
{
    Maw m;
    // m_b/m = 0.75: n_t = (1 - 0.75) * 24 = 6
    EXPECT_EQ(m.period(300), MAW_STEP_1);
    EXPECT_EQ(m.c.maw, 6);
    // Eq. 1 not below MAW: one step down, still coarse while MAW >= T_w
    Maw k;
    EXPECT_EQ(k.period(300, 0.1, 1000, 0), MAW_STEP_1_DEC);
    EXPECT_EQ(k.c.maw, 23);
}

TEST(CbwtMaw, Step2DecrementOnHighLatencyAndGradient)
{
    Maw m;
    m.period(300); // -> 6
    EXPECT_EQ(m.period(250), MAW_STEP_2); // above T_NoC_H
    EXPECT_EQ(m.c.maw, 5);
    EXPECT_EQ(m.period(150), MAW_STEP_2); // in range but the decrement cut latency by 40% > 5%
    EXPECT_EQ(m.c.maw, 4);
}

// Fine region, search stopped (MAW 5, no direction, last latency 148).
void stop_at_5(Maw &m)
{
    m.period(300);                        // step 1 -> 6
    EXPECT_EQ(m.period(150), MAW_STEP_2); // gradient -> 5
    EXPECT_EQ(m.period(148), MAW_STEP_5); // stop
}

TEST(CbwtMaw, Step3IncrementOnLowLatency)
{
    Maw m;
    stop_at_5(m);
    EXPECT_EQ(m.period(50), MAW_STEP_3);
    EXPECT_EQ(m.c.maw, 6);
    EXPECT_EQ(m.period(60), MAW_STEP_3);
    EXPECT_EQ(m.c.maw, 7);
    // Step 2's gradient rule comes first (spec 3.6.3): right after a decrement, a latency drop
    // of more than T_NoC_G decrements again even below T_NoC_L.
    Maw g;
    g.period(300);                        // -> 6, direction DEC
    EXPECT_EQ(g.period(50), MAW_STEP_2);
    EXPECT_EQ(g.c.maw, 5);
    EXPECT_EQ(g.period(50), MAW_STEP_3);  // no further drop: now the low latency counts
    EXPECT_EQ(g.c.maw, 6);
}

TEST(CbwtMaw, Step4RollbackWhenTheStepLeftTheRange)
{
    Maw m;
    m.period(300);                        // -> 6
    EXPECT_EQ(m.period(150), MAW_STEP_2); // gradient: -> 5, latency was in range
    EXPECT_EQ(m.period(90), MAW_STEP_4);  // fell below the range: undo
    EXPECT_EQ(m.c.maw, 6);
    EXPECT_EQ(m.c.dir, MAW_DIR_NONE);
}

TEST(CbwtMaw, Step5HoldAfterDecrement)
{
    Maw m;
    m.period(300);                        // -> 6
    EXPECT_EQ(m.period(150), MAW_STEP_2); // -> 5
    EXPECT_EQ(m.period(148), MAW_STEP_5); // in range, drop 1.3% < 5%: stop
    EXPECT_EQ(m.c.maw, 5);
    EXPECT_EQ(m.period(160), MAW_STEP_6); // stays stopped (no direction any more)
    EXPECT_EQ(m.c.maw, 5);
}

TEST(CbwtMaw, Step6HoldAfterIncrement)
{
    Maw m;
    stop_at_5(m);
    EXPECT_EQ(m.period(50), MAW_STEP_3);  // -> 6
    EXPECT_EQ(m.period(150), MAW_STEP_6); // came into range from below: stop
    EXPECT_EQ(m.c.maw, 6);
    EXPECT_EQ(m.c.steps[MAW_STEP_6], 1u);
    EXPECT_EQ(m.c.periods, 5u);
}

TEST(CbwtMaw, BoundsAndReturnToCoarseRegion)
{
    Maw m;
    m.period(300, 0.1, 1000, 1000); // n_t = 0 -> clamped to 1
    EXPECT_EQ(m.c.maw, 1);
    EXPECT_EQ(m.period(500), MAW_STEP_2);
    EXPECT_EQ(m.c.maw, 1);          // never below 1
    EXPECT_EQ(m.period(50), MAW_STEP_2); // the 90% drop after a decrement
    EXPECT_EQ(m.c.maw, 1);
    for (int i = 0; i < 9; i++) EXPECT_EQ(m.period(50), MAW_STEP_3);
    EXPECT_EQ(m.c.maw, 10);         // +1 per period until T_w ...
    EXPECT_EQ(m.period(50, 0.0), MAW_STEP_NONE); // ... then coarse rules apply again
    EXPECT_STREQ(maw_step_name(MAW_STEP_4), "4");
}

// -cbwt_step1 congestion: NoC congestion alone (lat > T_NoC_H) takes step 1, Eq. 1 on the
// sampler L1's m_b/m (seed Sec. V-B: with NoC congestion "the warp schedulers are notified and they
// may try to reduce the number of active warps according to the statistical information related to
// congestion and bypassing"); without congestion nothing changes, contention or not.
TEST(CbwtMaw, Step1OnCongestionAloneWithTheCongestionTrigger)
{
    maw_params p{24, 10, 200.0, 100.0, 0.05, 0.05, 0, MAW_TRIGGER_CONGESTION};
    maw_ctrl c{};
    ASSERT_EQ(maw_reset(&c, &p), 0);
    auto period = [&c](double lat, double lls, uint64_t mb) {
        maw_inputs in{lat, lls, 1000, mb};
        return maw_period(&c, &in);
    };
    EXPECT_EQ(period(150, 0.5, 750), MAW_STEP_NONE); // contention, latency in range: no step
    EXPECT_EQ(period(300, 0.0, 400), MAW_STEP_1);    // congestion alone, m_b/m 0.4: n_t = 0.6 x 24 = 14.4 -> 14
    EXPECT_EQ(c.maw, 14);
    EXPECT_EQ(c.congestion_only, 1u);
    EXPECT_EQ(period(300, 0.01, 500), MAW_STEP_1);    // n_t = 0.5 x 24 = 12 < 14
    EXPECT_EQ(c.maw, 12);
    EXPECT_EQ(period(300, 0.0, 200), MAW_STEP_1_DEC); // n_t = 0.8 x 24 = 19.2 -> 19, not below 12: -1
    EXPECT_EQ(c.maw, 11);
    EXPECT_EQ(c.congestion_only, 3u);
    EXPECT_EQ(period(300, 0.2, 600), MAW_STEP_1);     // contention too: n_t = 0.4 x 24 = 9.6 -> 10
    EXPECT_EQ(c.maw, 10);
    EXPECT_EQ(c.congestion_only, 3u);                 // not a congestion-only step
    EXPECT_EQ(period(300, 0.0, 0), MAW_STEP_1_DEC);   // MAW 10 = T_w is still coarse: n_t 24, -1
    EXPECT_EQ(c.maw, 9);
    EXPECT_EQ(period(300, 0.0, 900), MAW_STEP_2);     // fine region: latency alone, as without the option
    EXPECT_EQ(c.maw, 8);
    EXPECT_EQ(c.congestion_only, 4u);
    EXPECT_EQ(c.steps[MAW_STEP_1], 3u);
    EXPECT_EQ(c.steps[MAW_STEP_1_DEC], 2u);
    maw_params bad = p;
    bad.trigger = static_cast<maw_trigger>(2);
    EXPECT_EQ(maw_reset(&c, &bad), -1);
    // the same congested period without contention under the document's trigger: no step
    maw_params both = p;
    both.trigger = MAW_TRIGGER_BOTH;
    ASSERT_EQ(maw_reset(&c, &both), 0);
    EXPECT_EQ(period(300, 0.0, 400), MAW_STEP_NONE);
    EXPECT_EQ(c.maw, 24);
    EXPECT_EQ(c.congestion_only, 0u);
}

} // namespace
