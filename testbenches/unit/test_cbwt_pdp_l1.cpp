// CBWT's PDP on a real L1 cache core through the cache hooks (model/cbwt/pdp_l1.h): a thrashing
// cyclic stream over 5 lines of one 4-way set gets no hit under LRU, while PDP keeps lines
// protected, bypasses the rest and hits; with the policy off the cache is bit-for-bit LRU.
#include <gtest/gtest.h>

extern "C" {
#include "../../model/cbwt/pdp_l1.h"
}

namespace {

struct L1 {
    cache_core c{};
    pdp_l1 p{};
    L1(int mode, int pd, int period = 1 << 20)
    {
        gsim_cache_cfg cfg;
        char err[256];
        EXPECT_EQ(gsim_cache_cfg_parse("N:1:128:4,L:L:m:N:L,A:8:8,8", &cfg, err, sizeof err), 0) << err;
        EXPECT_EQ(cache_init(&c, &cfg), 0);
        if (mode != PDP_MODE_OFF) {
            EXPECT_EQ(pdp_l1_init(&p, &c, mode, pd, period), 0);
        }
    }
    ~L1()
    {
        pdp_l1_free(&p);
        cache_free(&c);
    }
    // One load, its fill at once. Returns H, M or B (a miss that bypassed).
    char load(uint64_t addr)
    {
        cache_req r{};
        r.addr = addr;
        cache_result res;
        cache_status s = cache_access(&c, &r, &res);
        EXPECT_NE(s, CACHE_RESERVATION_FAIL);
        if (s == CACHE_HIT) return 'H';
        cache_out o;
        while (cache_out_pop(&c, &o) == 0) {}
        uint64_t w[8];
        EXPECT_EQ(cache_fill(&c, addr, 0, w, 8), 1);
        return res.bypassed ? 'B' : 'M';
    }
    std::string cyclic(int lines, int rounds)
    {
        std::string s;
        for (int k = 0; k < rounds; k++)
            for (int i = 0; i < lines; i++) s += load((uint64_t)i * 128);
        return s;
    }
};

TEST(CbwtPdpL1, ThrashingStreamLruMissesPdpHits)
{
    L1 lru(PDP_MODE_OFF, 0);
    EXPECT_EQ(lru.cyclic(5, 3), std::string(15, 'M'));
    // PD 5, 4 ways (reuse distance 5): after D, RPDs A..D = 2,3,4,5; E decrements them to
    // 1,2,3,4: all protected, bypass. A..D then hit (each promoted to 5, the others decremented)
    // and every E bypasses.
    L1 pdp(PDP_MODE_STATIC, 5);
    EXPECT_EQ(pdp.cyclic(5, 3), "MMMMBHHHHBHHHHB");
    EXPECT_EQ(pdp.c.st.bypasses, 3u);
    EXPECT_EQ(pdp.p.loads, 15u);
    EXPECT_EQ(pdp.c.st.evictions, 0u);
}

TEST(CbwtPdpL1, ClosedLlsGateEvictsInsteadOfBypassing)
{
    // -cbwt_lls_gate (gap G26): with the gate closed the same stream as above cannot bypass: E
    // evicts the LRU line A although A is protected, and the stream thrashes like LRU. Opened,
    // the next all-protected access bypasses again.
    L1 pdp(PDP_MODE_STATIC, 5);
    pdp.p.bypass_open = 0;
    EXPECT_EQ(pdp.cyclic(5, 3), std::string(15, 'M'));
    EXPECT_EQ(pdp.c.st.bypasses, 0u);
    pdp.p.bypass_open = 1;
    // B..E are cached with RPDs 2..5; a new line F finds them all protected
    EXPECT_EQ(pdp.load(5 * 128), 'B');
    EXPECT_EQ(pdp.c.st.bypasses, 1u);
}

TEST(CbwtPdpL1, StaticPdBelowTheReuseDistanceIsLru)
{
    // PD 4 runs out before the lines recur: E's decrement leaves A at 0: A is the victim, and
    // so on, like LRU: all misses
    L1 pdp(PDP_MODE_STATIC, 4);
    EXPECT_EQ(pdp.cyclic(5, 3), std::string(15, 'M'));
    EXPECT_EQ(pdp.c.st.bypasses, 0u);
}

TEST(CbwtPdpL1, PrivatePredictorLearnsTheProtectionDistance)
{
    // Start at PD 1 (LRU-like); after one 20-load period the sampler has seen RD 5 for every
    // reuse: E(dp) peaks at dp = 5, and the next rounds hit.
    L1 pdp(PDP_MODE_PRIVATE, 1, 20);
    EXPECT_EQ(pdp.cyclic(5, 4), std::string(20, 'M'));
    EXPECT_EQ(pdp.p.predictions, 1u);
    EXPECT_EQ(pdp.p.pol.pd, 5);
    // hand-worked: the LRU-like state (B, C, D unprotected, E just filled with 5) turns over in
    // three misses, D bypasses, then 4 hits and a bypass per round
    EXPECT_EQ(pdp.cyclic(5, 3), "MMMBHHHHBHHHHBH");
    L1 off(PDP_MODE_OFF, 0);
    pdp_l1 bad;
    EXPECT_EQ(pdp_l1_init(&bad, &off.c, PDP_MODE_OFF, 4, 1), -1);
    EXPECT_EQ(pdp_l1_init(&bad, &off.c, PDP_MODE_STATIC, PDP_PD_MAX + 1, 1), -1);
    EXPECT_EQ(pdp_l1_init(&bad, &off.c, PDP_MODE_PRIVATE, 4, 0), -1);
    EXPECT_EQ(off.c.hooks.victim, nullptr); // a failed init leaves the cache as it was
}

TEST(CbwtPdpL1, SharedModeBroadcastsTheSamplerPd)
{
    // PDP-S: the source L1 learns PD 5; a cold follower takes it at its first load and hits from
    // the second round; its loads do not reach the source's sampler.
    L1 src(PDP_MODE_SHARED, 1, 20), f(PDP_MODE_SHARED, 1, 20);
    pdp_l1_follow(&f.p, &f.p); // itself: ignored
    EXPECT_EQ(f.p.source, nullptr);
    pdp_l1_follow(&f.p, &src.p);
    src.cyclic(5, 4);
    EXPECT_EQ(src.p.pol.pd, 5);
    EXPECT_EQ(f.cyclic(5, 3), "MMMMBHHHHBHHHHB");
    EXPECT_EQ(f.p.predictions, 0u);
    EXPECT_EQ(src.p.period_loads, 0u);
    // a static L1 never follows
    L1 st(PDP_MODE_STATIC, 4);
    pdp_l1_follow(&st.p, &src.p);
    EXPECT_EQ(st.p.source, nullptr);
}

TEST(CbwtPdpL1, GlobalModeFeedsTheCentralPredictor)
{
    // PDP-G: the follower's loads are sampled by the source, whose period counts them.
    L1 src(PDP_MODE_GLOBAL, 1, 20), f(PDP_MODE_GLOBAL, 1, 20);
    pdp_l1_follow(&f.p, &src.p);
    EXPECT_EQ(f.cyclic(5, 4), std::string(20, 'M')); // PD 1 until the first prediction
    EXPECT_EQ(src.p.predictions, 1u);                 // made from the follower's stream alone
    EXPECT_EQ(src.p.pol.pd, 5);
    EXPECT_EQ(src.p.loads, 0u);
    f.cyclic(5, 1);
    EXPECT_EQ(src.p.period_loads, 5u);
    EXPECT_EQ(f.p.pol.pd, 5);
}

} // namespace
