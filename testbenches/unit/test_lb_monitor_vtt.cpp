// Linebacker Load Monitor and Victim Tag Table (model/linebacker, spec linebacker.md §3.2-3.3).
#include <gtest/gtest.h>

#include <cstdint>

extern "C" {
#include "linebacker/lb_monitor.h"
#include "linebacker/lb_vtt.h"
}

namespace {

void accesses(lb_monitor *m, uint32_t pc, int hits, int misses)
{
    for (int i = 0; i < hits; i++) lb_monitor_access(m, lb_hpc(pc), pc, 1);
    for (int i = 0; i < misses; i++) lb_monitor_access(m, lb_hpc(pc), pc, 0);
}

lb_vtt_config vtt48x32(uint32_t vp_ways = 4) { return lb_vtt_config{48, 32, vp_ways, 3}; }

struct Vtt {
    lb_vtt v;
    explicit Vtt(lb_vtt_config c) { EXPECT_EQ(lb_vtt_init(&v, &c), 0); }
    ~Vtt() { lb_vtt_free(&v); }
};

} // namespace

TEST(LbHpc, XorFoldOfThePc)
{
    EXPECT_EQ(lb_hpc(0), 0u);
    EXPECT_EQ(lb_hpc(0x1F), 0x1Fu);
    EXPECT_EQ(lb_hpc(0x20), 1u);                 // bit 5 folds onto bit 0
    EXPECT_EQ(lb_hpc(0x21), 0u);                 // 1 ^ 1
    EXPECT_EQ(lb_hpc(0xC0000000u), 0x3u);        // bits 30,31 are the 7th chunk's bits 0,1
    EXPECT_EQ(lb_hpc(0x128), (0x08u ^ 0x09u));   // 0x128 = chunk0 0x08, chunk1 0x09
}

TEST(LbMonitor, SameLoadsInTwoPeriodsAreSelected)
{
    lb_monitor m;
    lb_monitor_reset(&m, 0.20);
    const uint32_t ld0 = 0x10, ld1 = 0x48; // HPC 0x10 and 0x08 ^ 0x02 = 0x0A
    accesses(&m, ld0, 30, 70);  // 30% > 20%: high locality
    accesses(&m, ld1, 20, 80);  // exactly 20% is not above the threshold
    EXPECT_EQ(lb_monitor_period_end(&m), LB_MONITOR);
    EXPECT_EQ(m.e[lb_hpc(ld0)].valid, 1u);
    EXPECT_EQ(m.e[lb_hpc(ld0)].pc, ld0);
    EXPECT_EQ(m.e[lb_hpc(ld0)].hit, 0u); // counts cleared, PC kept
    accesses(&m, ld0, 50, 50);
    accesses(&m, ld1, 1, 99);
    EXPECT_EQ(lb_monitor_period_end(&m), LB_ACTIVE);
    EXPECT_EQ(m.e[lb_hpc(ld0)].valid, 3u);
    EXPECT_TRUE(lb_monitor_selected(&m, lb_hpc(ld0)));
    EXPECT_FALSE(lb_monitor_selected(&m, lb_hpc(ld1)));
    accesses(&m, ld1, 100, 0); // no more counting once ACTIVE (the last period's 1 hit stays)
    EXPECT_EQ(m.e[lb_hpc(ld1)].hit, 1u);
}

TEST(LbMonitor, ASubsetInTheNextPeriodKeepsMonitoring)
{
    lb_monitor m;
    lb_monitor_reset(&m, 0.20);
    accesses(&m, 0x1, 50, 50);
    accesses(&m, 0x2, 50, 50);
    EXPECT_EQ(lb_monitor_period_end(&m), LB_MONITOR);
    accesses(&m, 0x1, 50, 50); // only load 0x1 stays high: no load is tagged
    accesses(&m, 0x2, 0, 50);
    EXPECT_EQ(lb_monitor_period_end(&m), LB_MONITOR);
    EXPECT_FALSE(lb_monitor_selected(&m, lb_hpc(0x1)));
    accesses(&m, 0x1, 50, 50); // {0x1} twice in a row
    EXPECT_EQ(lb_monitor_period_end(&m), LB_ACTIVE);
    EXPECT_EQ(m.periods, 3u);
    EXPECT_TRUE(lb_monitor_selected(&m, lb_hpc(0x1)));
}

TEST(LbMonitor, NoHighLocalityInTheFirstTwoPeriodsDisables)
{
    lb_monitor m;
    lb_monitor_reset(&m, 0.20);
    accesses(&m, 0x4, 1, 99);
    EXPECT_EQ(lb_monitor_period_end(&m), LB_MONITOR);
    EXPECT_EQ(lb_monitor_period_end(&m), LB_DISABLED); // a period with no loads at all
    EXPECT_EQ(lb_monitor_period_end(&m), LB_DISABLED);
}

TEST(LbVtt, MonitorModeUsesAllWaysWithoutLatency)
{
    Vtt t(vtt48x32());
    lb_vtt_reset(&t.v, 1);
    lb_vtt_hit h;
    int ev = 0;
    for (uint64_t tag = 0; tag < 32; tag++) ASSERT_EQ(lb_vtt_insert(&t.v, 5, tag, &h, &ev), 1);
    EXPECT_EQ(ev, 0);
    EXPECT_EQ(h.vp, 7u); // the 32nd tag fills the last way of VP 7
    EXPECT_EQ(h.way, 3u);
    ASSERT_EQ(lb_vtt_lookup(&t.v, 5, 31, &h), 1);
    EXPECT_EQ(h.latency, 0u);
    EXPECT_EQ(lb_vtt_lookup(&t.v, 6, 31, &h), 0); // another set
}

TEST(LbVtt, SearchLatencyIsThreeCyclesPerActivePartitionSearched)
{
    Vtt t(vtt48x32());
    lb_vtt_reset(&t.v, 0);
    lb_vtt_set_active(&t.v, (1u << 2) | (1u << 5) | (1u << 7)); // VP2, VP5, VP7 active
    EXPECT_EQ(lb_vtt_n_active(&t.v), 3u);
    lb_vtt_hit h;
    int ev = 0;
    for (uint64_t tag = 100; tag < 112; tag++) ASSERT_EQ(lb_vtt_insert(&t.v, 0, tag, &h, &ev), 1);
    // invalid-first, lowest partition first: tags 100-103 in VP2, 104-107 in VP5, 108-111 in VP7
    for (uint32_t k = 1; k <= 3; k++) {
        ASSERT_EQ(lb_vtt_lookup(&t.v, 0, 100 + 4 * (k - 1) + 2, &h), 1);
        EXPECT_EQ(h.latency, 3u * k) << "hit in the " << k << "-th active partition";
        EXPECT_EQ(h.way, 2u);
    }
    EXPECT_EQ(h.vp, 7u);
    ASSERT_EQ(lb_vtt_lookup(&t.v, 0, 999, &h), 0);
    EXPECT_EQ(h.latency, 9u); // a miss searches all three
}

TEST(LbVtt, ReplacementIsInvalidFirstThenLru)
{
    Vtt t(vtt48x32());
    lb_vtt_reset(&t.v, 0);
    lb_vtt_set_active(&t.v, 1u); // VP0 only: 4 ways
    lb_vtt_hit h;
    int ev = 0;
    for (uint64_t tag = 1; tag <= 4; tag++) ASSERT_EQ(lb_vtt_insert(&t.v, 3, tag, &h, &ev), 1);
    ASSERT_EQ(lb_vtt_lookup(&t.v, 3, 1, &h), 1); // tag 1 becomes most recent; LRU is tag 2
    ASSERT_EQ(lb_vtt_insert(&t.v, 3, 5, &h, &ev), 1);
    EXPECT_EQ(ev, 1);
    EXPECT_EQ(h.way, 1u); // tag 2's way
    EXPECT_EQ(lb_vtt_lookup(&t.v, 3, 2, &h), 0);
    // An invalidated entry is reused before any LRU victim.
    ASSERT_EQ(lb_vtt_invalidate(&t.v, 3, 4, &h), 1);
    EXPECT_EQ(h.way, 3u);
    ASSERT_EQ(lb_vtt_insert(&t.v, 3, 6, &h, &ev), 1);
    EXPECT_EQ(ev, 0);
    EXPECT_EQ(h.way, 3u);
    EXPECT_EQ(lb_vtt_lookup(&t.v, 3, 1, &h), 1);
    EXPECT_EQ(lb_vtt_lookup(&t.v, 3, 3, &h), 1);
}

TEST(LbVtt, StoreInvalidatesAndNoActivePartitionStoresNothing)
{
    Vtt t(vtt48x32());
    lb_vtt_reset(&t.v, 0);
    lb_vtt_hit h;
    int ev = 0;
    EXPECT_EQ(lb_vtt_insert(&t.v, 0, 7, &h, &ev), 0); // no partition active
    lb_vtt_set_active(&t.v, 0x3);
    ASSERT_EQ(lb_vtt_insert(&t.v, 0, 7, &h, &ev), 1);
    EXPECT_EQ(lb_vtt_invalidate(&t.v, 0, 7, &h), 1); // the store's write-evict
    EXPECT_EQ(lb_vtt_invalidate(&t.v, 0, 7, &h), 0);
    EXPECT_EQ(lb_vtt_lookup(&t.v, 0, 7, &h), 0);
}

TEST(LbVtt, DeactivatingAPartitionDropsItsTags)
{
    Vtt t(vtt48x32());
    lb_vtt_reset(&t.v, 0);
    lb_vtt_set_active(&t.v, 0x3);
    lb_vtt_hit h;
    int ev = 0;
    for (uint64_t tag = 1; tag <= 8; tag++) ASSERT_EQ(lb_vtt_insert(&t.v, 9, tag, &h, &ev), 1);
    lb_vtt_set_active(&t.v, 0x1); // VP1's registers go back to a restored CTA
    EXPECT_EQ(lb_vtt_lookup(&t.v, 9, 4, &h), 1);
    EXPECT_EQ(lb_vtt_lookup(&t.v, 9, 5, &h), 0);
    lb_vtt_set_active(&t.v, 0x3); // reactivated: empty
    EXPECT_EQ(lb_vtt_lookup(&t.v, 9, 8, &h), 0);
}

TEST(LbVtt, OneWayAndThirtyTwoWayPartitions)
{
    lb_vtt_config bad{48, 32, 5, 3};
    lb_vtt v;
    EXPECT_EQ(lb_vtt_init(&v, &bad), -1);
    Vtt one(vtt48x32(1)); // 32 partitions of one way
    EXPECT_EQ(one.v.n_vp, 32u);
    lb_vtt_reset(&one.v, 0);
    lb_vtt_set_active(&one.v, 0xFFFFFFFFu);
    lb_vtt_hit h;
    int ev = 0;
    for (uint64_t tag = 0; tag < 32; tag++) ASSERT_EQ(lb_vtt_insert(&one.v, 1, tag, &h, &ev), 1);
    ASSERT_EQ(lb_vtt_lookup(&one.v, 1, 31, &h), 1);
    EXPECT_EQ(h.latency, 96u); // the 32nd partition: 32 x 3
    Vtt all(vtt48x32(32));
    lb_vtt_reset(&all.v, 0);
    lb_vtt_set_active(&all.v, 1u);
    ASSERT_EQ(lb_vtt_insert(&all.v, 1, 77, &h, &ev), 1);
    ASSERT_EQ(lb_vtt_lookup(&all.v, 1, 77, &h), 1);
    EXPECT_EQ(h.latency, 3u);
}
