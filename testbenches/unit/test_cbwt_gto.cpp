// CBWT under GTO (Fig. 18, spec 3.5): the MAW limit (-cbwt_maw N, or the controller's MAW through
// sched_set_warp_limit) leaves only the N oldest live warps of a scheduler eligible; GTO orders
// those (the greedy warp first while it is ready, then oldest first). Slots and ages are scrambled
// so that "oldest" cannot be confused with "lowest slot".
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

extern "C" {
#include "../../model/sm/sched.h"
}

namespace {

using V = std::vector<uint32_t>;
constexpr uint8_t R = SCHED_WARP_READY, S = SCHED_WARP_STALL, I = SCHED_WARP_IDLE;

struct Gto {
    sched s;
    strbuf err;
    explicit Gto(uint32_t slots)
    {
        gsim_policy_spec sp;
        std::memset(&sp, 0, sizeof sp);
        std::snprintf(sp.name, sizeof sp.name, "gto");
        strbuf_init(&err);
        EXPECT_EQ(sched_init(&s, &sp, slots, 0, 1, &err), 0);
    }
    ~Gto()
    {
        sched_free(&s);
        strbuf_free(&err);
    }
    V order(const std::vector<uint8_t> &st)
    {
        V out(s.n_local + 1);
        out.resize(sched_order(&s, st.data(), out.data()));
        return out;
    }
    // One cycle: issue the first candidate.
    V cycle(const std::vector<uint8_t> &st)
    {
        V o = order(st);
        if (!o.empty()) {
            EXPECT_EQ(sched_issued(&s, o[0], 0x80), 0);
        }
        return o;
    }
};

} // namespace

TEST(CbwtGto, MawKeepsOnlyTheOldestWarpsEligible)
{
    Gto t(6);
    // launch order (age): slot 4, 1, 5, 0, 3, 2 -> the 3 oldest are 4, 1, 5
    const uint32_t by_age[6] = {4, 1, 5, 0, 3, 2};
    for (uint32_t a = 0; a < 6; a++) ASSERT_EQ(sched_warp_start(&t.s, by_age[a], a), 0);
    sched_set_warp_limit(&t.s, 3);
    const std::vector<uint8_t> all(6, R);
    EXPECT_EQ(t.cycle(all), (V{4, 1, 5})); // oldest first; 4 issues and becomes the greedy warp
    EXPECT_EQ(t.cycle(all), (V{4, 1, 5})); // greedy while ready
    // 4 stalls: GTO takes the oldest ready of the eligible (1), never 0, 3 or 2 though ready
    EXPECT_EQ(t.cycle({R, R, R, R, S, R}), (V{1, 5}));
    EXPECT_EQ(t.cycle(all), (V{1, 4, 5})); // 1 greedy now, then oldest first
    EXPECT_GT(t.s.throttled_cycles, 0u);   // ready warps were held back by the limit
    // the oldest warp exits: the next oldest (0) becomes eligible
    ASSERT_EQ(sched_warp_exit(&t.s, 4), 0);
    EXPECT_EQ(t.cycle({R, R, R, R, I, R}), (V{1, 5, 0}));
    // the controller lowers MAW to 1: the greedy warp 1 is the oldest, it stays
    sched_set_warp_limit(&t.s, 1);
    EXPECT_EQ(t.cycle({R, R, R, R, I, R}), (V{1}));
    // 1 stalls: nothing else may issue (MAW 1: only the oldest live warp is eligible)
    EXPECT_EQ(t.cycle({R, S, R, R, I, R}), V{});
}

TEST(CbwtGto, AGreedyWarpBeyondALoweredLimitLosesItsTurn)
{
    Gto t(4);
    for (uint32_t w = 0; w < 4; w++) ASSERT_EQ(sched_warp_start(&t.s, w, w), 0); // 0 oldest
    const std::vector<uint8_t> all(4, R);
    EXPECT_EQ(t.cycle({S, S, S, R}), (V{3})); // no limit: 3 issues, greedy
    EXPECT_EQ(t.cycle(all), (V{3, 0, 1, 2}));
    sched_set_warp_limit(&t.s, 2); // MAW 2 from the controller
    EXPECT_EQ(t.cycle(all), (V{0, 1})); // 3 is beyond the 2 oldest: not even greedy
    EXPECT_EQ(t.cycle({S, R, R, R}), (V{1}));
}
