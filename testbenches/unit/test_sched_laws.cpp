// LAWS (APRES' locality-aware warp scheduler): the document's Fig. 8 example driven through the
// scheduler interface, WGT allocation and release, hit-reserved handling, greedy queue order.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

extern "C" {
#include "sm/sched_laws.h"
}

namespace {

using V = std::vector<uint32_t>;
enum : uint8_t { I = SCHED_WARP_IDLE, R = SCHED_WARP_READY, S = SCHED_WARP_STALL };

struct Laws {
    sched s;
    strbuf err;
    explicit Laws(uint32_t slots, std::vector<long long> p = {}, uint32_t n_sched = 1)
    {
        gsim_policy_spec sp;
        std::memset(&sp, 0, sizeof sp);
        std::snprintf(sp.name, sizeof sp.name, "laws");
        sp.nparams = (int)p.size();
        for (size_t i = 0; i < p.size(); i++) sp.params[i] = p[i];
        strbuf_init(&err);
        EXPECT_EQ(sched_init(&s, &sp, slots, 0, n_sched, &err), 0) << (err.data ? err.data : "");
        for (uint32_t w = 0; w < s.n_local; w++) EXPECT_EQ(sched_warp_start(&s, w * n_sched, w), 0);
    }
    ~Laws()
    {
        sched_free(&s);
        strbuf_free(&err);
    }
    laws_state *st() { return (laws_state *)s.pstate; }
    V queue() { return V(st()->queue, st()->queue + st()->n_queue); }
    void load(uint32_t slot, uint64_t pc)
    {
        ASSERT_EQ(sched_issued(&s, slot, pc), 0);
        ASSERT_EQ(sched_global_load_issued(&s, slot, pc), 0);
    }
    V order(std::vector<uint8_t> status)
    {
        V out(s.n_slots + 1, 0xdead);
        out.resize(sched_order(&s, status.data(), out.data()));
        return out;
    }
    // Fig. 8's LLT before Warp 0 issues the load at 0x20: warps 0, 2, 3 last loaded at 0x10.
    void fig8_llt()
    {
        const uint64_t llt[5] = {0x10, 0x08, 0x10, 0x10, 0x30};
        for (uint32_t w = 0; w < 5; w++) st()->llt[w] = llt[w];
    }
};

} // namespace

TEST(Laws, Fig8GroupFormation)
{
    Laws l(5);
    l.fig8_llt();
    l.load(0, 0x20);
    int g = laws_find_group(l.st(), 0, 0x20);
    ASSERT_GE(g, 0);
    const laws_group &gr = l.st()->wgt[g];
    EXPECT_EQ(std::vector<uint8_t>(gr.member, gr.member + 5), (std::vector<uint8_t>{1, 0, 1, 1, 0}));
    EXPECT_EQ(l.st()->llt[0], 0x20u); // "the LLT entry of Warp 0 is updated to 0x20"
    EXPECT_EQ(l.st()->groups, 1u);
    EXPECT_EQ(l.st()->group_members, 3u);
}

TEST(Laws, Fig8HitMovesGroupToHead)
{
    Laws l(5);
    l.fig8_llt();
    l.load(0, 0x20);
    EXPECT_EQ(l.queue(), (V{0, 1, 2, 3, 4}));
    ASSERT_EQ(sched_mem_feedback(&l.s, 0, 0x20, SCHED_MEM_HIT), 0);
    EXPECT_EQ(l.queue(), (V{0, 2, 3, 1, 4})); // Warps 2 and 3 are prioritised
    EXPECT_EQ(l.order({S, R, R, R, R}), (V{2, 3, 1, 4}));
    EXPECT_EQ(laws_find_group(l.st(), 0, 0x20), -1); // invalidated after prioritisation
    EXPECT_EQ(l.st()->head_moves, 1u);
}

TEST(Laws, Fig8MissMovesGroupToTail)
{
    Laws l(5);
    l.fig8_llt();
    l.load(0, 0x20);
    ASSERT_EQ(sched_mem_feedback(&l.s, 0, 0x20, SCHED_MEM_MISS), 0);
    EXPECT_EQ(l.queue(), (V{1, 4, 0, 2, 3})); // Warps 0, 2 and 3 go to the tail
    EXPECT_EQ(l.order({R, R, R, R, R}), (V{1, 4, 0, 2, 3}));
    EXPECT_EQ(l.st()->tail_moves, 1u);
}

TEST(Laws, HitMovePutsHeadWarpFirstThenQueueOrder)
{
    Laws l(6);
    const uint64_t llt[6] = {0x10, 0x10, 0x08, 0x10, 0x08, 0x10};
    for (uint32_t w = 0; w < 6; w++) l.st()->llt[w] = llt[w];
    l.load(3, 0x20); // group {0, 1, 3, 5}, head 3
    ASSERT_EQ(sched_mem_feedback(&l.s, 3, 0x20, SCHED_MEM_HIT), 0);
    EXPECT_EQ(l.queue(), (V{3, 0, 1, 5, 2, 4}));
}

TEST(Laws, HitReservedFollowsParameter)
{
    for (long long merge_is_hit : {0, 1}) {
        Laws l(5, {3, merge_is_hit});
        l.fig8_llt();
        l.load(0, 0x20);
        ASSERT_EQ(sched_mem_feedback(&l.s, 0, 0x20, SCHED_MEM_MERGE), 0);
        EXPECT_EQ(l.queue(), merge_is_hit ? (V{0, 2, 3, 1, 4}) : (V{1, 4, 0, 2, 3}));
    }
}

TEST(Laws, FreshWarpsGroupAtTheirFirstLoad)
{
    Laws l(4);
    l.load(2, 0x40); // every warp still has the start sentinel
    int g = laws_find_group(l.st(), 2, 0x40);
    ASSERT_GE(g, 0);
    EXPECT_EQ(std::vector<uint8_t>(l.st()->wgt[g].member, l.st()->wgt[g].member + 4),
              (std::vector<uint8_t>{1, 1, 1, 1}));
    EXPECT_EQ(l.st()->llt[1], LAWS_LLT_START);
}

TEST(Laws, WgtAllocationAndRelease)
{
    Laws l(6); // 3 entries
    for (uint32_t w = 0; w < 3; w++) l.load(w, 0x100);
    EXPECT_EQ(l.st()->groups, 3u);
    l.load(3, 0x100); // table full: ungrouped, but the LLT still learns
    EXPECT_EQ(l.st()->wgt_full, 1u);
    EXPECT_EQ(laws_find_group(l.st(), 3, 0x100), -1);
    EXPECT_EQ(l.st()->llt[3], 0x100u);
    ASSERT_EQ(sched_mem_feedback(&l.s, 3, 0x100, SCHED_MEM_MISS), 0); // no group: no move
    EXPECT_EQ(l.queue(), (V{0, 1, 2, 3, 4, 5}));
    ASSERT_EQ(sched_mem_feedback(&l.s, 1, 0x999, SCHED_MEM_MISS), 0); // other PC: ignored
    EXPECT_GE(laws_find_group(l.st(), 1, 0x100), 0);
    ASSERT_EQ(sched_mem_feedback(&l.s, 1, 0x100, SCHED_MEM_MISS), 0); // releases warp 1's entry
    EXPECT_EQ(laws_find_group(l.st(), 1, 0x100), -1);
    l.load(4, 0x100);
    int g = laws_find_group(l.st(), 4, 0x100);
    ASSERT_GE(g, 0);
    ASSERT_EQ(sched_mem_feedback(&l.s, 1, 0x100, SCHED_MEM_HIT), 0); // a second request: group gone
    EXPECT_EQ(l.st()->head_moves, 0u);
    l.load(0, 0x200); // warp 0's previous group never got feedback: stale, freed
    EXPECT_EQ(l.st()->stale_groups, 1u);
    EXPECT_GE(laws_find_group(l.st(), 0, 0x200), 0);
    ASSERT_EQ(sched_warp_exit(&l.s, 4), 0); // head exits: its group is freed, warp leaves queue
    EXPECT_EQ(laws_find_group(l.st(), 4, 0x100), -1);
    EXPECT_EQ(l.queue().size(), 5u);
    for (const laws_group &gr : l.st()->wgt) {
        if (gr.valid) {
            EXPECT_EQ(gr.member[4], 0);
        }
    }
}

TEST(Laws, GreedyQueueOrderAndTwoSchedulers)
{
    Laws l(8, {}, 2); // this scheduler owns slots 0, 2, 4, 6 (local 0..3)
    EXPECT_EQ(l.order({R, I, R, I, R, I, R, I}), (V{0, 2, 4, 6}));
    EXPECT_EQ(l.order({S, I, S, I, R, I, R, I}), (V{4, 6})); // head stalls: next in queue order
    l.load(4, 0x30);                                          // local 2; all fresh: group of 4
    ASSERT_EQ(sched_mem_feedback(&l.s, 4, 0x30, SCHED_MEM_MISS), 0);
    EXPECT_EQ(l.queue(), (V{0, 1, 2, 3}));
    EXPECT_EQ(sched_global_load_issued(&l.s, 1, 0x30), -1); // foreign slot
}

TEST(Laws, BadParameters)
{
    for (std::vector<long long> p : {std::vector<long long>{0}, {17}, {3, 2}, {3, 1, 0}}) {
        gsim_policy_spec sp;
        std::memset(&sp, 0, sizeof sp);
        std::snprintf(sp.name, sizeof sp.name, "laws");
        sp.nparams = (int)p.size();
        for (size_t i = 0; i < p.size(); i++) sp.params[i] = p[i];
        sched s;
        strbuf e;
        strbuf_init(&e);
        EXPECT_EQ(sched_init(&s, &sp, 8, 0, 1, &e), -1);
        EXPECT_NE(e.data, nullptr);
        strbuf_free(&e);
    }
}

// Energy accounting (Fig. 15): the bits of the LLT and WGT a load and its feedback touch.
TEST(Laws, TableBitsCountTheLltAndWgtAccesses)
{
    Laws l(5); // 5 warps, 3 WGT entries
    l.fig8_llt();
    l.load(0, 0x20);
    // LLT: own entry read + written, 5 live entries compared (32 bits each); WGT entry written:
    // head ID and PC (6 + 32 bits) and 5 member bits.
    const uint64_t load_bits = 32 * (2 + 5) + (38 + 5);
    EXPECT_EQ(l.st()->table_bits, load_bits);
    ASSERT_EQ(sched_mem_feedback(&l.s, 0, 0x20, SCHED_MEM_HIT), 0);
    // Feedback: 3 WGT entries' keys compared, the group's 5 member bits read.
    EXPECT_EQ(l.st()->table_bits, load_bits + 3 * 38 + 5);
    ASSERT_EQ(sched_mem_feedback(&l.s, 0, 0x20, SCHED_MEM_HIT), 0); // group gone: the search only
    EXPECT_EQ(l.st()->table_bits, load_bits + 3 * 38 + 5 + 3 * 38);
}
