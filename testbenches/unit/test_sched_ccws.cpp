// CCWS: victim tags catch a thrashing stream, lost-locality scores rise and cut the active warps,
// then decay back.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

extern "C" {
#include "sm/sched_ccws.h"
}

namespace {

using V = std::vector<uint32_t>;

struct Ccws {
    sched s;
    strbuf err;
    explicit Ccws(uint32_t slots, std::vector<long long> p = {})
    {
        gsim_policy_spec sp;
        std::memset(&sp, 0, sizeof sp);
        std::snprintf(sp.name, sizeof sp.name, "ccws");
        sp.nparams = (int)p.size();
        for (size_t i = 0; i < p.size(); i++) sp.params[i] = p[i];
        strbuf_init(&err);
        EXPECT_EQ(sched_init(&s, &sp, slots, 0, 1, &err), 0) << (err.data ? err.data : "");
        for (uint32_t w = 0; w < slots; w++) EXPECT_EQ(sched_warp_start(&s, w, w), 0);
    }
    ~Ccws()
    {
        sched_free(&s);
        strbuf_free(&err);
    }
    ccws_state *st() { return (ccws_state *)s.pstate; }
    V order()
    {
        std::vector<uint8_t> ready(s.n_slots, SCHED_WARP_READY);
        V out(s.n_slots + 1, 0xdead);
        out.resize(sched_order(&s, ready.data(), out.data()));
        return out;
    }
    // Warp w streams over `lines` lines twice; each line is evicted before its reuse (thrashing).
    void thrash(uint32_t w, uint64_t first, uint32_t lines)
    {
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t i = 0; i < lines; i++) {
                uint64_t line = (first + i) * 128;
                ASSERT_EQ(sched_l1_miss_line(&s, w, line), 0);
                sched_l1_evict(&s, line);
            }
    }
};

} // namespace

TEST(Ccws, ScoresRiseOnThrashingAndCutActiveWarps)
{
    Ccws c(4); // vta 8, k 32, base 100: cutoff 400
    EXPECT_EQ(c.order(), (V{0, 1, 2, 3}));
    EXPECT_EQ(ccws_allowed_count(c.st(), &c.s), 4u);
    c.thrash(2, 1000, 6); // 6 lines fit the 8-entry VTA: 6 hits on the second pass
    EXPECT_EQ(c.st()->vta_hits, 6u);
    EXPECT_EQ(c.st()->lls[2], 100u + 6u * 32u);
    EXPECT_EQ(c.st()->vta_inserts, 12u);
    // order() decays by one first: warp 2 scores 291, stack 291 + 100 = 391 <= 400, + 100 > 400
    EXPECT_EQ(c.order(), (V{0, 2}));
    EXPECT_EQ(ccws_allowed_count(c.st(), &c.s), 2u);
}

TEST(Ccws, StreamLongerThanVtaLosesNothing)
{
    Ccws c(4);
    c.thrash(1, 0, 20); // reuse distance 20 > 8 victim tags: no locality seen as lost
    EXPECT_EQ(c.st()->vta_hits, 0u);
    EXPECT_EQ(c.order(), (V{0, 1, 2, 3}));
}

TEST(Ccws, ScoresDecayBackToAllWarps)
{
    Ccws c(4);
    c.thrash(3, 50, 8);
    EXPECT_EQ(c.order(), (V{3})); // 100 + 256 - 1 = 355 with 355 + 100 > 400: warp 3 alone
    int calls = 1;
    do calls++;
    while (c.order().size() < 4 && calls < 1000);
    EXPECT_EQ(calls, 256); // all four back when the score is 100 again: 256 decays
}

TEST(Ccws, MissOfAnotherWarpIsNoVictimHit)
{
    Ccws c(2);
    ASSERT_EQ(sched_l1_miss_line(&c.s, 0, 0x80), 0);
    sched_l1_evict(&c.s, 0x80);
    ASSERT_EQ(sched_l1_miss_line(&c.s, 1, 0x80), 0); // warp 1 never had the line
    EXPECT_EQ(c.st()->vta_hits, 0u);
    sched_l1_evict(&c.s, 0x1234 * 128); // a line nobody recorded
    EXPECT_EQ(c.st()->vta_inserts, 1u);
}
