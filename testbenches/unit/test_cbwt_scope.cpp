// CBWT's per-core MAW scope (-cbwt_maw_scope core, spec gap G2 option; model/cbwt/cbwt_ctl.h):
// every SM steps its own controller on its own L1's loads and bypasses, the LLS of its own
// requests to the sampled L2 sets and the sampled NoC packets it sent or received. Scripted
// per-core inputs: two SMs in the same period take different steps.
#include <gtest/gtest.h>

extern "C" {
#include "../../model/cbwt/cbwt_ctl.h"
}

#include "cbwt_ctl_fixture.h"

TEST(CbwtScope, LlsAndNocSamplesAreAttributedToTheRequestingSm)
{
    lls_detector d;
    ASSERT_EQ(lls_init(&d, 64, 16, 64, 4, 1), 0);
    lls_on_fill(&d, 0, 0, 1u << 1);     // the L2 served SM 1 the line in (0, 0)
    lls_on_hit(&d, 0, 0, 1);             // SM 1 asks again: LLS of SM 1
    lls_on_hit(&d, 0, 0, 2);             // SM 2's first request: an access, no LLS
    lls_on_miss(&d, 0, 2);
    lls_on_hit(&d, 1, 0, 2);             // set 1 is not sampled
    uint64_t lls = 0, acc = 0;
    lls_core_period(&d, 1, &lls, &acc);
    EXPECT_EQ(lls, 1u);
    EXPECT_EQ(acc, 1u);
    lls = acc = 0;
    lls_core_period(&d, 2, &lls, &acc);
    EXPECT_EQ(lls, 0u);
    EXPECT_EQ(acc, 2u);
    lls = acc = 0;
    lls_core_period(&d, 1, &lls, &acc); // restarted
    EXPECT_EQ(acc, 0u);
    EXPECT_EQ(d.lls, 1u);               // the GPU-wide period counters run on
    EXPECT_EQ(d.accesses, 3u);
    lls_free(&d);

    noc_sampler s;
    ASSERT_EQ(noc_sampler_init(&s, 1, 2), 0);
    noc_sampler_record(&s, 1, 10, NOC_DIR_REQ, 0); // SM 0's request
    noc_sampler_record(&s, 1, 30, NOC_DIR_RSP, 0); // its reply
    noc_sampler_record(&s, 1, 5, NOC_DIR_RSP, 1);
    noc_sampler_record(&s, 0, 99, NOC_DIR_REQ, 1); // not sampled: no per-SM count
    EXPECT_DOUBLE_EQ(noc_sampler_sm_period(&s, 0, -1), 20.0);
    EXPECT_DOUBLE_EQ(noc_sampler_sm_period(&s, 1, -1), 5.0);
    EXPECT_DOUBLE_EQ(noc_sampler_sm_period(&s, 1, -1), -1.0); // nothing since: the previous value
    EXPECT_DOUBLE_EQ(noc_sampler_period(&s, -1), 15.0);       // GPU-wide: (10 + 30 + 5) / 3
    noc_sampler_free(&s);
}

TEST(CbwtScope, TwoCoresWithDifferentInputsTakeDifferentSteps)
{
    cbwt_config cfg = cbwt_ctl_test_cfg(CBWT_SCOPE_CORE);
    cbwt_ctl c;
    ASSERT_EQ(cbwt_ctl_init(&c, &cfg, 1, 64, 16, 2, 4.0), 0); // T_NoC_L 8, T_NoC_H 16
    ASSERT_NE(c.core, nullptr);
    uint64_t loads[2] = {0, 0}, byp[2] = {0, 0};
    cbwt_ctl_kernel_begin_cores(&c, 24, loads, byp, 0);
    EXPECT_EQ(c.core[0].maw.maw, 24);
    EXPECT_EQ(c.core[1].maw.maw, 24);

    // SM 0: contended (its re-requests hit set victim bits) and congested (its packets take 40
    // cycles), 75 of 100 loads bypassed: step 1, Eq. 1 gives (1 - 0.75) * 24 = 6.
    lls_on_fill(&c.hw[0], 0, 0, 1u << 0);
    for (int i = 0; i < 4; i++) lls_on_hit(&c.hw[0], 0, 0, 0); // 4 LLS of 4 accesses
    for (int i = 0; i < 8; i++) noc_sampler_record(&c.noc, 1, 40, i & 1 ? NOC_DIR_RSP : NOC_DIR_REQ, 0);
    // SM 1: the same L2 line served to it once, no re-request (no LLS), packets of 4 cycles
    // (below T_NoC_L), 10 of 100 loads bypassed: at n_max nothing to do (no step).
    lls_on_miss(&c.hw[0], 0, 1);
    for (int i = 0; i < 8; i++) noc_sampler_record(&c.noc, 1, 4, NOC_DIR_REQ, 1);
    // the GPU-wide signals would be lls_rate 4/5 and latency 22: both SMs would step alike

    loads[0] = 100;
    byp[0] = 75;
    loads[1] = 99;
    byp[1] = 10;
    EXPECT_EQ(cbwt_ctl_poll_cores(&c, loads, byp, 50), 1); // only SM 0 has its 100 loads
    EXPECT_EQ(c.core[0].maw.maw, 6);
    EXPECT_EQ(c.core[0].step, (uint64_t)MAW_STEP_1);
    EXPECT_DOUBLE_EQ(c.core[0].lls_rate, 1.0);
    EXPECT_DOUBLE_EQ(c.core[0].noc_lat, 40.0);
    EXPECT_DOUBLE_EQ(c.core[0].bratio, 0.75);
    EXPECT_EQ(c.core[1].maw.periods, 0u);

    loads[1] = 100;
    EXPECT_EQ(cbwt_ctl_poll_cores(&c, loads, byp, 60), 1);
    EXPECT_EQ(c.core[1].maw.maw, 24);
    EXPECT_EQ(c.core[1].step, (uint64_t)MAW_STEP_NONE);
    EXPECT_DOUBLE_EQ(c.core[1].lls_rate, 0.0);
    EXPECT_DOUBLE_EQ(c.core[1].noc_lat, 4.0);
    EXPECT_DOUBLE_EQ(c.core[1].bratio, 0.1);

    // next period: SM 0 (fine region, MAW 6 < T_w) sees its latency fall from 40 to 4 after a
    // decrement: the gradient rule (drop > T_NoC_G) takes step 2 down to 5; SM 1 sees 40-cycle
    // packets with LLS: step 1 from its own m_b/m = 50/100, to 12
    for (int i = 0; i < 4; i++) noc_sampler_record(&c.noc, 1, 4, NOC_DIR_RSP, 0);
    for (int i = 0; i < 4; i++) noc_sampler_record(&c.noc, 1, 40, NOC_DIR_RSP, 1);
    lls_on_fill(&c.hw[0], 0, 1, 1u << 1);
    lls_on_hit(&c.hw[0], 0, 1, 1);
    loads[0] = 200;
    byp[0] = 75;
    loads[1] = 200;
    byp[1] = 60;
    EXPECT_EQ(cbwt_ctl_poll_cores(&c, loads, byp, 70), 2);
    EXPECT_EQ(c.core[0].step, (uint64_t)MAW_STEP_2);
    EXPECT_EQ(c.core[0].maw.maw, 5);
    EXPECT_EQ(c.core[1].step, (uint64_t)MAW_STEP_1);
    EXPECT_EQ(c.core[1].maw.maw, 12);
    EXPECT_EQ(c.periods, 4u);
    EXPECT_EQ(c.steps[MAW_STEP_1], 2u);
    // MAW integrated per SM: 2 x 24 until cycle 50, then 6 + 24 until 70
    EXPECT_EQ(c.maw_cycles, 48u * 50 + 30u * 20);
    EXPECT_EQ(c.cycles, 2u * 70);
    cbwt_ctl_free(&c);
}

TEST(CbwtScope, GlobalScopeHasNoPerCoreControllers)
{
    cbwt_config cfg = cbwt_ctl_test_cfg(CBWT_SCOPE_GLOBAL);
    cbwt_ctl c;
    ASSERT_EQ(cbwt_ctl_init(&c, &cfg, 1, 64, 16, 2, 4.0), 0);
    EXPECT_EQ(c.core, nullptr);
    uint64_t loads[2] = {100, 100}, byp[2] = {0, 0};
    EXPECT_EQ(cbwt_ctl_poll_cores(&c, loads, byp, 10), 0);
    cbwt_ctl_free(&c);
}

TEST(CbwtScope, VictimBitsSurviveAKernelLaunchUnlessCleared)
{
    // The L1s are invalidated at every launch, so a re-request in the next kernel is no early
    // eviction; the document clears victim bits only on L2 evictions (keep), clear is the option.
    for (int mode : {CBWT_VB_KEEP, CBWT_VB_CLEAR}) {
        cbwt_config cfg = cbwt_ctl_test_cfg(CBWT_SCOPE_GLOBAL);
        cfg.vb_launch = mode;
        cbwt_ctl c;
        ASSERT_EQ(cbwt_ctl_init(&c, &cfg, 1, 64, 16, 2, 4.0), 0);
        cbwt_ctl_kernel_begin(&c, 24, 0, 0, 0);
        lls_on_fill(&c.hw[0], 0, 0, 1u << 0);
        lls_on_fill(&c.full[0], 0, 0, 1u << 0);
        cbwt_ctl_kernel_begin(&c, 24, 0, 0, 100);
        lls_on_hit(&c.hw[0], 0, 0, 0);
        lls_on_hit(&c.full[0], 0, 0, 0);
        EXPECT_EQ(c.hw[0].lls, mode == CBWT_VB_KEEP ? 1u : 0u);
        EXPECT_EQ(c.full[0].lls_total, mode == CBWT_VB_KEEP ? 1u : 0u);
        cbwt_ctl_free(&c);
    }
}

// -cbwt_step1 congestion through the GPU-wide controller: a period with congested packets (40
// cycles > T_NoC_H 16) and no LLS takes step 1 to Eq. 1's (1 - 50/100) x 24 = 12 and counts as a
// congestion-only step; the document's trigger (both) holds at n_max on the same inputs.
TEST(CbwtScope, CongestionTriggerTakesStep1WithoutContention)
{
    for (int trig : {CBWT_STEP1_BOTH, CBWT_STEP1_CONGESTION}) {
        cbwt_config cfg = cbwt_ctl_test_cfg(CBWT_SCOPE_GLOBAL);
        cfg.step1 = trig;
        cbwt_ctl c;
        ASSERT_EQ(cbwt_ctl_init(&c, &cfg, 1, 64, 16, 2, 4.0), 0); // T_NoC_L 8, T_NoC_H 16
        cbwt_ctl_kernel_begin(&c, 24, 0, 0, 0);
        lls_on_miss(&c.hw[0], 0, 0); // one access to a sampled set, no LLS: lls_rate 0
        for (int i = 0; i < 8; i++) noc_sampler_record(&c.noc, 1, 40, NOC_DIR_REQ, 0);
        EXPECT_EQ(cbwt_ctl_poll(&c, 100, 50, 10), 1);
        EXPECT_DOUBLE_EQ(c.g.lls_rate, 0.0);
        EXPECT_DOUBLE_EQ(c.g.noc_lat, 40.0);
        if (trig == CBWT_STEP1_CONGESTION) {
            EXPECT_EQ(c.g.step, (uint64_t)MAW_STEP_1);
            EXPECT_EQ(c.g.maw.maw, 12);
            EXPECT_EQ(c.congestion_only, 1u);
        } else {
            EXPECT_EQ(c.g.step, (uint64_t)MAW_STEP_NONE);
            EXPECT_EQ(c.g.maw.maw, 24);
            EXPECT_EQ(c.congestion_only, 0u);
        }
        cbwt_ctl_free(&c);
    }
}
