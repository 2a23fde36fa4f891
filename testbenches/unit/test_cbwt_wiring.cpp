// CBWT's wiring pieces (issue 19): the victim-bit contention detector on a real L2 slice
// (model/cbwt/cbwt_l2.h) against a hand-worked load stream, the warp limit's barrier rule
// (sched.h SCHED_AT_BARRIER), the GPU-wide controller's periods (cbwt_ctl.h) and the L1
// reuse-count histogram (pdp_l1.h).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

extern "C" {
#include "../../model/cbwt/cbwt_ctl.h"
#include "../../model/cbwt/cbwt_l2.h"
#include "../../model/cbwt/pdp_l1.h"
#include "../../model/l2/l2_slice.h"
#include "../../model/sm/sched.h"
}

#include "cbwt_ctl_fixture.h"

namespace {

// A 64-set 16-way L2 slice (fermi-cbwt.config's bank) with both detectors attached; loads are
// driven to their response, misses filled from "DRAM" 10 cycles after they leave.
struct L2 {
    l2_slice s;
    lls_detector hw{}, full{};
    cbwt_l2 obs{};
    uint64_t now = 0;
    L2()
    {
        l2_slice_params p{};
        char err[256];
        EXPECT_EQ(gsim_cache_cfg_parse("N:64:128:16,L:B:m:W:L,A:32:4,4:0,32", &p.dl2, err, sizeof err), 0) << err;
        p.rop_cycles = 2;
        EXPECT_EQ(l2_slice_init(&s, &p), 0);
        EXPECT_EQ(lls_init(&hw, 64, 16, 64, 16, 1), 0); // set 0 sampled
        EXPECT_EQ(lls_init(&full, 64, 16, 1, 16, 1), 0);
        EXPECT_EQ(cbwt_l2_attach(&obs, &s, &hw, &full), 0);
    }
    ~L2()
    {
        l2_slice_free(&s);
        lls_free(&hw);
        lls_free(&full);
    }
    // Returns 1 when the load hit in the L2.
    int load(int src, uint64_t addr, int kind = L2_REQ_READ)
    {
        l2_req r{};
        r.addr = addr;
        r.cookie = 1;
        r.bytes = 128;
        r.kind = (uint8_t)kind;
        r.src = src;
        EXPECT_EQ(l2_slice_push(&s, &r, now), 0);
        for (uint64_t c = now; c < now + 10000; c++) {
            l2_slice_tick(&s, c);
            l2_dram_req d;
            while (l2_slice_dram_peek(&s, c) && l2_slice_dram_pop(&s, &d) == 0) {
                if (!d.is_write) {
                    EXPECT_EQ(l2_slice_dram_fill(&s, d.addr, d.sector_mask, c + 10), 0);
                }
            }
            l2_rsp rsp;
            if (l2_slice_rsp_peek(&s, c) && l2_slice_rsp_pop(&s, &rsp) == 0) {
                now = c + 1;
                return rsp.hit;
            }
        }
        ADD_FAILURE() << "no response";
        return -1;
    }
    uint64_t in_set(int set, int k) const { return ((uint64_t)k * 64 + (uint64_t)set) * 128; }
};

} // namespace

TEST(CbwtWiring, VictimBitsCountEarlyEvictionsOfAHandWorkedStream)
{
    L2 t;
    uint64_t a = t.in_set(0, 0), b = t.in_set(1, 0);
    ASSERT_EQ(cache_set_index(&t.s.cache, a), 0);
    ASSERT_EQ(cache_set_index(&t.s.cache, b), 1);
    EXPECT_EQ(t.load(0, a), 0);  // miss: SM 0's bit set at the fill
    EXPECT_EQ(t.load(0, a), 1);  // SM 0 asks again: it lost the line -> LLS 1
    EXPECT_EQ(t.load(1, a), 1);  // SM 1's first: no LLS
    EXPECT_EQ(t.load(1, a), 1);  // LLS 2
    EXPECT_EQ(t.load(-1, a), 1); // a prefetch (no source) counts nowhere
    EXPECT_EQ(t.hw.lls_total, 2u);
    EXPECT_EQ(t.hw.accesses_total, 4u);
    EXPECT_EQ(t.load(0, b), 0); // set 1: not a sampled set, only the full-coverage bits see it
    EXPECT_EQ(t.load(0, b), 1);
    EXPECT_EQ(t.hw.accesses_total, 4u);
    EXPECT_EQ(t.full.lls_total, 3u);
    EXPECT_EQ(t.full.accesses_total, 6u);
    for (int k = 1; k <= 16; k++) EXPECT_EQ(t.load(2, t.in_set(0, k)), 0); // 16 new lines evict a
    EXPECT_EQ(t.load(0, a), 0); // gone from the L2: its bits went with it, no LLS
    EXPECT_EQ(t.load(0, a), 1); // ... and it is SM 0's again: LLS 3
    EXPECT_EQ(t.hw.lls_total, 3u);
    EXPECT_EQ(t.hw.accesses_total, 4u + 16u + 2u);
    EXPECT_DOUBLE_EQ(lls_period(&t.hw), 3.0 / 22.0);
    EXPECT_EQ(t.hw.lls, 0u); // a new period
}

// The residency-free instrument (victim_map.h) beside the victim bits on the stream above: a
// re-request after the L2 evicted the line is a repeat (an L2 miss) the victim bits cannot see.
TEST(CbwtWiring, RepeatRequestsCountWhatL2EvictionsHideFromTheVictimBits)
{
    L2 t;
    victim_map vm;
    ASSERT_EQ(victim_map_init(&vm), 0);
    t.obs.served = &vm;
    uint64_t a = t.in_set(0, 0);
    EXPECT_EQ(t.load(0, a), 0); // first: not a repeat
    EXPECT_EQ(t.load(0, a), 1); // repeat, hit: the victim bits see it too
    EXPECT_EQ(t.load(1, a), 1); // another L1's first
    EXPECT_EQ(vm.repeats, 1u);
    EXPECT_EQ(t.full.lls_total, 1u);
    for (int k = 1; k <= 16; k++) EXPECT_EQ(t.load(2, t.in_set(0, k)), 0); // evict a
    EXPECT_EQ(t.load(0, a), 0); // repeat of SM 0, but an L2 miss: its victim bit went with the line
    EXPECT_EQ(t.load(1, a), 1); // repeat of SM 1, a hit after SM 0's refill: bits cleared, no LLS
    EXPECT_EQ(vm.repeats, 3u);
    EXPECT_EQ(vm.repeats_l2_miss, 1u);
    EXPECT_EQ(t.full.lls_total, 1u); // the victim bits saw one of the three
    EXPECT_EQ(t.load(-1, a), 1);     // no source: counts nowhere
    EXPECT_EQ(vm.repeats, 3u);
    victim_map_clear(&vm); // kernel launch: every line is new again
    EXPECT_EQ(t.load(0, a), 1);
    EXPECT_EQ(vm.repeats, 3u);
    for (uint64_t k = 0; k < 20000; k++) ASSERT_EQ(victim_map_load(&vm, 1000 + k, 3, 1), 0); // grows
    for (uint64_t k = 0; k < 20000; k += 1000) ASSERT_EQ(victim_map_load(&vm, 1000 + k, 3, 0), 0);
    EXPECT_EQ(vm.repeats, 3u + 20u);
    EXPECT_EQ(vm.repeats_l2_miss, 1u + 20u);
    victim_map_free(&vm);
}

TEST(CbwtWiring, MergedLoadsAreServedByTheFill)
{
    L2 t;
    uint64_t a = t.in_set(0, 3);
    l2_req r{};
    r.addr = a;
    r.bytes = 128;
    r.kind = L2_REQ_READ;
    for (int src = 0; src < 3; src++) { // three SMs miss on the same line: one MSHR
        r.src = src;
        r.cookie = (uint64_t)src + 1;
        ASSERT_EQ(l2_slice_push(&t.s, &r, 0), 0);
    }
    int got = 0;
    for (uint64_t c = 0; c < 1000 && got < 3; c++) {
        l2_slice_tick(&t.s, c);
        l2_dram_req d;
        while (l2_slice_dram_peek(&t.s, c) && l2_slice_dram_pop(&t.s, &d) == 0)
            EXPECT_EQ(l2_slice_dram_fill(&t.s, d.addr, d.sector_mask, c + 10), 0);
        l2_rsp rsp;
        while (l2_slice_rsp_peek(&t.s, c) && l2_slice_rsp_pop(&t.s, &rsp) == 0) got++;
        t.now = c + 1;
    }
    ASSERT_EQ(got, 3);
    EXPECT_EQ(t.hw.lls_total, 0u);
    for (int src = 0; src < 3; src++) EXPECT_EQ(t.load(src, a), 1); // each was served: each re-request is LLS
    EXPECT_EQ(t.load(3, a), 1);                                      // SM 3 never was
    EXPECT_EQ(t.hw.lls_total, 3u);
}

namespace {

gsim_policy_spec lrr()
{
    gsim_policy_spec s;
    std::memset(&s, 0, sizeof s);
    std::snprintf(s.name, sizeof s.name, "lrr");
    return s;
}

std::vector<uint32_t> order(sched *s, const std::vector<uint8_t> &st)
{
    std::vector<uint32_t> out(s->n_local + 1);
    out.resize(sched_order(s, st.data(), out.data()));
    return out;
}

} // namespace

TEST(CbwtWiring, WarpsAtABarrierHoldNoSlotOfTheLimit)
{
    for (int free_ : {1, 0}) {
        sched s;
        strbuf err;
        strbuf_init(&err);
        gsim_policy_spec sp = lrr();
        ASSERT_EQ(sched_init(&s, &sp, 4, 0, 1, &err), 0);
        for (uint32_t w = 0; w < 4; w++) ASSERT_EQ(sched_warp_start(&s, w, w), 0); // 0 oldest
        sched_set_warp_limit(&s, 1);
        s.barrier_free = (uint8_t)free_;
        const uint8_t R = SCHED_WARP_READY, B = (uint8_t)(SCHED_WARP_STALL_LONG | SCHED_AT_BARRIER);
        EXPECT_EQ(order(&s, {R, R, R, R}), (std::vector<uint32_t>{0}));
        // warps 0 and 1 wait at the CTA's barrier: with the rule warp 2 takes the one slot (and the
        // policy never sees the flag); without it warp 0 keeps the slot and nothing can issue
        std::vector<uint32_t> o = order(&s, {B, B, R, R});
        if (free_) {
            EXPECT_EQ(o, (std::vector<uint32_t>{2}));
        } else {
            EXPECT_TRUE(o.empty());
        }
        EXPECT_EQ(s.st[0], SCHED_WARP_STALL_LONG);
        sched_free(&s);
        strbuf_free(&err);
    }
}

TEST(CbwtWiring, ControllerClosesPeriodsOnLoadsOrTimeoutAndStartsEachKernelAtNmax)
{
    cbwt_config cfg = cbwt_ctl_test_cfg();
    cbwt_ctl c;
    ASSERT_EQ(cbwt_ctl_init(&c, &cfg, 2, 64, 16, 16, 4.0), 0);
    EXPECT_DOUBLE_EQ(c.params.t_noc_h, 16.0); // 4x and 2x the zero-load latency
    EXPECT_DOUBLE_EQ(c.params.t_noc_l, 8.0);
    cbwt_ctl_kernel_begin(&c, 24, 0, 0, 0);
    EXPECT_EQ(c.g.maw.maw, 24);
    // a congested, contended period: 100 loads, 75 bypassed -> Eq. 1: (1 - 0.75) * 24 = 6
    for (int i = 0; i < 10; i++) noc_sampler_record(&c.noc, 1, 40, NOC_DIR_REQ, 0);
    c.hw[0].lls = 10;
    c.hw[0].accesses = 50;
    EXPECT_EQ(cbwt_ctl_poll(&c, 99, 75, 10), 0);
    EXPECT_EQ(cbwt_ctl_poll(&c, 100, 75, 11), 1);
    EXPECT_EQ(c.g.maw.maw, 6);
    EXPECT_EQ(c.g.step, (uint64_t)MAW_STEP_1);
    EXPECT_DOUBLE_EQ(c.g.lls_rate, 0.2);
    EXPECT_DOUBLE_EQ(c.g.noc_lat, 40.0);
    EXPECT_EQ(c.hw[0].lls, 0u);
    // no loads for -cbwt_timeout cycles: the period closes anyway; the latency (nothing sampled)
    // stays 40 > T_NoC_H in the fine region: step 2
    EXPECT_EQ(cbwt_ctl_poll(&c, 100, 75, 1010), 0);
    EXPECT_EQ(cbwt_ctl_poll(&c, 100, 75, 1011), 1);
    EXPECT_EQ(c.g.maw.maw, 5);
    EXPECT_EQ(c.g.step, (uint64_t)MAW_STEP_2);
    EXPECT_EQ(c.timeouts, 1u);
    EXPECT_EQ(c.maw_cycles, 24u * 11 + 6u * 1000); // MAW integrated over the cycles it held
    cbwt_ctl_kernel_begin(&c, 12, 100, 75, 2000);
    EXPECT_EQ(c.g.maw.maw, 12);
    cbwt_ctl_free(&c);
}

TEST(CbwtWiring, ReuseHistogramCountsLoadHitsFromFillToEviction)
{
    EXPECT_EQ(pdp_reuse_bin(0), 0);
    EXPECT_EQ(pdp_reuse_bin(2), 2);
    EXPECT_EQ(pdp_reuse_bin(3), 3);
    EXPECT_EQ(pdp_reuse_bin(4), 3);
    EXPECT_EQ(pdp_reuse_bin(8), 4);
    EXPECT_EQ(pdp_reuse_bin(9), 5);
    cache_core c;
    gsim_cache_cfg cfg;
    char err[256];
    ASSERT_EQ(gsim_cache_cfg_parse("N:1:128:2,L:L:m:N:L,A:8:8,8", &cfg, err, sizeof err), 0) << err;
    ASSERT_EQ(cache_init(&c, &cfg), 0);
    pdp_l1 p;
    ASSERT_EQ(pdp_l1_init_observe(&p, &c), 0);
    auto read = [&](uint64_t addr) {
        cache_req r{};
        r.addr = addr;
        r.cookie = 1;
        cache_result res;
        cache_status st = cache_access(&c, &r, &res);
        if (st == CACHE_MISS) {
            uint64_t woken[8];
            cache_fill(&c, addr, 0, woken, 8);
        }
        while (cache_out_count(&c)) {
            cache_out o;
            cache_out_pop(&c, &o);
        }
        return st;
    };
    EXPECT_EQ(read(0), CACHE_MISS);
    EXPECT_EQ(read(0), CACHE_HIT);
    EXPECT_EQ(read(0), CACHE_HIT);
    EXPECT_EQ(read(128), CACHE_MISS);
    EXPECT_EQ(read(256), CACHE_MISS); // evicts line 0 (LRU: the cache's own policy): 2 hits
    EXPECT_EQ(read(384), CACHE_MISS); // evicts line 128: 0 hits
    EXPECT_EQ(p.reuse_hist[2], 1u);
    EXPECT_EQ(p.reuse_hist[0], 1u);
    EXPECT_EQ(c.st.bypasses, 0u);
    pdp_l1_free(&p);
    cache_free(&c);
}

TEST(CbwtWiring, CoarseRegionStepsUpWhenUncongestedOnlyWithCoarseUp)
{
    for (int up : {0, 1}) {
        maw_params p{24, 10, 200.0, 100.0, 0.05, 0.05, up, MAW_TRIGGER_BOTH};
        maw_ctrl c;
        ASSERT_EQ(maw_reset(&c, &p), 0);
        maw_inputs hot{300.0, 0.5, 100, 50}; // step 1: MAW = 12 (still >= T_w)
        EXPECT_EQ(maw_period(&c, &hot), MAW_STEP_1);
        EXPECT_EQ(c.maw, 12);
        maw_inputs cool{50.0, 0.5, 100, 0};
        EXPECT_EQ(maw_period(&c, &cool), up ? MAW_STEP_3 : MAW_STEP_NONE);
        EXPECT_EQ(c.maw, up ? 13 : 12);
        maw_inputs mid{150.0, 0.5, 100, 0}; // in range: no action either way
        EXPECT_EQ(maw_period(&c, &mid), MAW_STEP_NONE);
    }
}

TEST(CbwtWiring, BypassAroundTheMshrsWhenAsked)
{
    for (int direct : {0, 1}) {
        cache_core c;
        gsim_cache_cfg cfg;
        char err[256];
        ASSERT_EQ(gsim_cache_cfg_parse("N:1:128:2,L:L:m:N:L,A:8:8,8", &cfg, err, sizeof err), 0) << err;
        ASSERT_EQ(cache_init(&c, &cfg), 0);
        pdp_l1 p;
        ASSERT_EQ(pdp_l1_init(&p, &c, PDP_MODE_STATIC, 16, 1000), 0);
        c.bypass_direct = direct;
        uint64_t woken[8];
        cache_result res;
        for (uint64_t a : {0ull, 128ull}) { // two lines, both protected for 16 set accesses
            cache_req r{};
            r.addr = a;
            r.cookie = 1;
            ASSERT_EQ(cache_access(&c, &r, &res), CACHE_MISS);
            cache_fill(&c, a, 0, woken, 8);
        }
        while (cache_out_count(&c)) {
            cache_out o;
            cache_out_pop(&c, &o);
        }
        cache_req r{};
        r.addr = 256;
        r.cookie = 2;
        cache_status st = cache_access(&c, &r, &res);
        EXPECT_EQ(st, direct ? CACHE_BYPASS_DIRECT : CACHE_MISS);
        EXPECT_EQ(c.st.bypasses, 1u);
        EXPECT_EQ(c.st.misses, 3u);
        EXPECT_EQ(cache_mshr_in_use(&c), direct ? 0 : 1); // the G9 default keeps an MSHR for merging
        EXPECT_EQ(cache_out_count(&c), direct ? 0 : 1);   // the caller sends a direct bypass itself
        pdp_l1_free(&p);
        cache_free(&c);
    }
}

TEST(CbwtWiring, ABypassRefusedForWantOfAnMshrIsNotCounted)
{
    cache_core c;
    gsim_cache_cfg cfg;
    char err[256];
    ASSERT_EQ(gsim_cache_cfg_parse("N:1:128:2,L:L:m:N:L,A:1:8,8", &cfg, err, sizeof err), 0) << err;
    ASSERT_EQ(cache_init(&c, &cfg), 0);
    pdp_l1 p;
    ASSERT_EQ(pdp_l1_init(&p, &c, PDP_MODE_STATIC, 16, 1000), 0);
    uint64_t woken[8];
    cache_result res;
    for (uint64_t a : {0ull, 128ull}) {
        cache_req r{};
        r.addr = a;
        r.cookie = 1;
        ASSERT_EQ(cache_access(&c, &r, &res), CACHE_MISS);
        cache_fill(&c, a, 0, woken, 8);
    }
    cache_req r{};
    r.addr = 256;
    r.cookie = 2;
    EXPECT_EQ(cache_access(&c, &r, &res), CACHE_MISS); // bypass, holding the one MSHR
    r.addr = 384;
    for (int retry = 0; retry < 3; retry++) EXPECT_EQ(cache_access(&c, &r, &res), CACHE_RESERVATION_FAIL);
    EXPECT_EQ(c.st.bypasses, 1u); // the refused attempts bypassed nothing
    pdp_l1_free(&p);
    cache_free(&c);
}
