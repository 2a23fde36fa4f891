// MASCAR: the saturation signal switches EP -> MP -> EP; in MP only the owner warp may issue a memory
// instruction while compute warps keep issuing. PA-sched: non-consecutive fetch groups, the current
// group first, and the switch when the group waits on memory.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

extern "C" {
#include "sm/sched_mascar.h"
}

namespace {

using V = std::vector<uint32_t>;

struct Sched {
    sched s;
    strbuf err;
    Sched(const char *name, uint32_t slots, std::vector<long long> p = {})
    {
        gsim_policy_spec sp;
        std::memset(&sp, 0, sizeof sp);
        std::snprintf(sp.name, sizeof sp.name, "%s", name);
        sp.nparams = (int)p.size();
        for (size_t i = 0; i < p.size(); i++) sp.params[i] = p[i];
        strbuf_init(&err);
        EXPECT_EQ(sched_init(&s, &sp, slots, 0, 1, &err), 0) << (err.data ? err.data : "");
        for (uint32_t w = 0; w < slots; w++) EXPECT_EQ(sched_warp_start(&s, w, w), 0);
    }
    ~Sched()
    {
        sched_free(&s);
        strbuf_free(&err);
    }
    V order(const std::vector<uint8_t> &st)
    {
        V out(s.n_slots + 1, 0xdead);
        out.resize(sched_order(&s, st.data(), out.data()));
        return out;
    }
};

} // namespace

TEST(Mascar, SwitchesModeUnderSaturationAndLetsOnlyTheOwnerAccessMemory)
{
    Sched m("mascar", 4);
    mascar_state *st = (mascar_state *)m.s.pstate;
    EXPECT_EQ(st->rexq_entries, 32u);
    std::vector<uint8_t> next_mem = {1, 0, 1, 1}; // warps 0, 2, 3 are at a load, warp 1 at an add
    m.s.slot_next_mem = next_mem.data();
    std::vector<uint8_t> ready(4, SCHED_WARP_READY);
    EXPECT_EQ(m.order(ready), (V{0, 1, 2, 3})); // EP: greedy-then-oldest, everyone
    EXPECT_EQ(st->mode, MASCAR_EP);
    ASSERT_EQ(sched_issued(&m.s, 2, 0x10), 0); // warp 2 issued last
    m.s.mem_saturated = 1;
    EXPECT_EQ(m.order(ready), (V{2, 1})); // MP: owner 2 (last issued, at a load) + the compute warp
    EXPECT_EQ(st->mode, MASCAR_MP);
    EXPECT_EQ(st->owner, 2u);
    EXPECT_EQ(st->to_mp, 1u);
    EXPECT_EQ(st->held_mem_warps, 2u); // warps 0 and 3
    ready[2] = SCHED_WARP_STALL_LONG; // the owner now waits on its load: ownership passes on
    EXPECT_EQ(m.order(ready), (V{0, 1}));
    EXPECT_EQ(st->owner, 0u);
    EXPECT_EQ(st->owner_changes, 2u);
    m.s.mem_saturated = 0;
    EXPECT_EQ(m.order(ready), (V{0, 1, 3})); // back to EP
    EXPECT_EQ(st->mode, MASCAR_EP);
    EXPECT_EQ(st->to_ep, 1u);
    EXPECT_EQ(st->mp_cycles, 2u);
}

TEST(Mascar, RejectsBadParameters)
{
    gsim_policy_spec sp;
    std::memset(&sp, 0, sizeof sp);
    std::snprintf(sp.name, sizeof sp.name, "mascar");
    sp.nparams = 1;
    sp.params[0] = 1000;
    strbuf err;
    strbuf_init(&err);
    sched s;
    EXPECT_NE(sched_init(&s, &sp, 8, 0, 1, &err), 0);
    EXPECT_NE(std::string(err.data).find("rexq_entries"), std::string::npos);
    strbuf_free(&err);
}

TEST(PaSched, NonConsecutiveGroupsCurrentGroupFirst)
{
    Sched p("pa", 8, {4}); // 2 groups: {0, 2, 4, 6} and {1, 3, 5, 7}
    std::vector<uint8_t> ready(8, SCHED_WARP_READY);
    EXPECT_EQ(p.order(ready), (V{0, 2, 4, 6, 1, 3, 5, 7}));
    ASSERT_EQ(sched_issued(&p.s, 2, 0x10), 0); // round-robin inside the group from the next one
    EXPECT_EQ(p.order(ready), (V{4, 6, 0, 2, 1, 3, 5, 7}));
    EXPECT_EQ(pa_current_group(&p.s), 0u);
    for (uint32_t w : {0u, 2u, 4u, 6u}) ready[w] = SCHED_WARP_STALL_LONG; // group 0 waits on memory
    EXPECT_EQ(p.order(ready), (V{1, 3, 5, 7}));
    EXPECT_EQ(pa_current_group(&p.s), 1u);
    EXPECT_EQ(p.s.policy_events, 1u);
    ready[4] = SCHED_WARP_READY; // group 1 still runs: group 0's ready warp comes after it
    EXPECT_EQ(p.order(ready), (V{1, 3, 5, 7, 4}));
    EXPECT_EQ(pa_current_group(&p.s), 1u);
}
