// Unit tests of CBWT's PDP policy (model/cbwt/pdp.h) and PD predictor (pdp_predictor.h) against
// hand-worked sequences: protection, decrement on set access, bypass when every line of the set
// is protected, RD sampling, and the exact argmax of E(dp) from known histograms.
#include <gtest/gtest.h>

#include <string>
#include <vector>

extern "C" {
#include "../../model/cbwt/pdp.h"
#include "../../model/cbwt/pdp_predictor.h"
}

namespace {

// One L1 set driven by loads the way the L1 applies PDP (spec 3.2.2): decrement the set, then
// hit -> promote; miss -> unprotected victim (insert) or bypass. Returns H/M/B per access.
struct PdpSet {
    pdp_policy p{};
    std::vector<cache_line> lines;
    uint64_t stamp = 0;
    PdpSet(int assoc, int pd) : lines(assoc)
    {
        EXPECT_EQ(pdp_init(&p, 1, assoc, pd), 0);
    }
    ~PdpSet() { pdp_free(&p); }
    char load(uint64_t tag)
    {
        pdp_set_access(&p, 0);
        for (size_t w = 0; w < lines.size(); w++)
            if (lines[w].allocated && lines[w].tag == tag) {
                lines[w].last_use = ++stamp;
                pdp_protect(&p, 0, (int)w);
                return 'H';
            }
        int v = pdp_victim(&p, 0, lines.data(), 0);
        if (v < 0) return 'B';
        lines[v] = cache_line{};
        lines[v].tag = tag;
        lines[v].allocated = 1;
        lines[v].valid = 1;
        lines[v].last_use = ++stamp;
        pdp_protect(&p, 0, v);
        return 'M';
    }
    std::string run(const std::string &seq)
    {
        std::string out;
        for (char c : seq) out += load((uint64_t)c);
        return out;
    }
};

TEST(CbwtPdp, ProtectsAndDecrementsOnSetAccess)
{
    PdpSet s(2, 3);
    EXPECT_EQ(s.load('A'), 'M');
    EXPECT_EQ(pdp_rpd(&s.p, 0, 0), 3);
    EXPECT_EQ(s.load('B'), 'M'); // A's RPD 3 -> 2, B inserted with 3
    EXPECT_EQ(pdp_rpd(&s.p, 0, 0), 2);
    EXPECT_EQ(pdp_rpd(&s.p, 0, 1), 3);
    EXPECT_EQ(s.load('C'), 'B'); // RPDs 1 and 2: both protected -> bypass, nothing inserted
    EXPECT_EQ(pdp_rpd(&s.p, 0, 0), 1);
    EXPECT_EQ(pdp_rpd(&s.p, 0, 1), 2);
    EXPECT_EQ(s.load('A'), 'H'); // A 1 -> 0, then promoted to 3
    EXPECT_EQ(pdp_rpd(&s.p, 0, 0), 3);
    EXPECT_EQ(pdp_rpd(&s.p, 0, 1), 1);
}

TEST(CbwtPdp, CyclicThreeLinesOnTwoWays)
{
    // PD 3 protects A and B across C's access: LRU would miss every access of ABCABC...
    PdpSet s(2, 3);
    EXPECT_EQ(s.run("ABCABCABC"), "MMBHHBHHB");
    // PD 1 protects nothing beyond the next access: LRU behaviour, all misses.
    PdpSet l(2, 1);
    EXPECT_EQ(l.run("ABCABCABC"), "MMMMMMMMM");
}

TEST(CbwtPdp, UnprotectedLruVictimAndReservedLines)
{
    pdp_policy p{};
    ASSERT_EQ(pdp_init(&p, 2, 4, 5), 0);
    cache_line l[4] = {};
    for (int w = 0; w < 4; w++) {
        l[w].allocated = 1;
        l[w].last_use = (uint64_t)(10 - w); // way 3 least recently used
    }
    pdp_protect(&p, 1, 3);
    pdp_protect(&p, 1, 1);
    // ways 0 and 2 unprotected: LRU among them is way 2 (last_use 8)
    EXPECT_EQ(pdp_victim(&p, 1, l, 0), 2);
    l[2].reserved = 1;
    EXPECT_EQ(pdp_victim(&p, 1, l, 0), 0);
    pdp_protect(&p, 1, 0);
    EXPECT_EQ(pdp_victim(&p, 1, l, 0), -1); // all protected or reserved: bypass
    l[1].allocated = 0;
    EXPECT_EQ(pdp_victim(&p, 1, l, 0), 1);  // a free way always wins
    l[1].allocated = 1;
    for (int i = 0; i < 5; i++) pdp_set_access(&p, 1);
    EXPECT_EQ(pdp_rpd(&p, 1, 0), 0);
    EXPECT_EQ(pdp_victim(&p, 1, l, 0), 3);  // set 1's protection ran out; set 0 untouched
    EXPECT_EQ(pdp_rpd(&p, 0, 0), 0);
    pdp_free(&p);
    EXPECT_EQ(pdp_init(&p, 1, 4, PDP_PD_MAX + 1), -1);
    pdp_free(&p);
}

TEST(CbwtPdpPredictor, ExactArgmaxFromKnownHistogram)
{
    // N[2] = 30, N[6] = 40, N_t = 100, de = 4: E(4) = 30/620, E(5) = 30/690, E(6) = 70/600,
    // E(7) = 70/630, E(8) = 70/660 -> PD 6.
    std::vector<uint64_t> n(9, 0);
    n[2] = 30;
    n[6] = 40;
    EXPECT_EQ(pdp_predict(n.data(), 100, 8, 4, 4, 4), 6);
    // N[2] = 30, N[8] = 10: E(4) = 30/620 = 0.0484 > E(8) = 40/860 = 0.0465 -> PD 4.
    n[6] = 0;
    n[8] = 10;
    EXPECT_EQ(pdp_predict(n.data(), 100, 8, 4, 4, 7), 4);
    // No reuse, or no accesses: the PD is kept.
    std::vector<uint64_t> z(9, 0);
    EXPECT_EQ(pdp_predict(z.data(), 100, 8, 4, 4, 7), 7);
    EXPECT_EQ(pdp_predict(z.data(), 0, 8, 4, 4, 9), 9);
}

TEST(CbwtPdpPredictor, SamplerCountsReuseDistances)
{
    pdp_predictor p{};
    ASSERT_EQ(pdp_predictor_init(&p, 8, 4, 8, 4, 4), 0); // sets 0 and 4 sampled
    // set 0: A B A -> RD(A) = 2; A -> RD 1; set 1 ignored; set 4: C D E F G H I J K C -> RD 9 > dmax
    for (uint64_t a : {1, 2, 1, 1}) pdp_predictor_access(&p, 0, a);
    pdp_predictor_access(&p, 1, 1);
    pdp_predictor_access(&p, 1, 1);
    for (uint64_t a : {3, 4, 5, 6, 7, 8, 9, 10, 11, 3}) pdp_predictor_access(&p, 4, a);
    EXPECT_EQ(p.nt, 14u);
    EXPECT_EQ(p.n[1], 1u);
    EXPECT_EQ(p.n[2], 1u);
    for (int d = 3; d <= 8; d++) EXPECT_EQ(p.n[d], 0u) << d;
    // E(4) = 2 / (3 + 12 * 8) is the best (more PD only adds misses' cost)
    EXPECT_EQ(pdp_predictor_period(&p, 9), 4);
    EXPECT_EQ(p.nt, 0u);
    // the FIFO persists across periods: B was set 0's access 2, this is its access 6 -> RD 4
    pdp_predictor_access(&p, 0, 9);
    pdp_predictor_access(&p, 0, 2);
    EXPECT_EQ(p.n[4], 1u);
    pdp_predictor_free(&p);
}

} // namespace
