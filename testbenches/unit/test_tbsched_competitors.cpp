// PAVER's competing TB schedulers (thesis Sec. 3.5): BCS issues neighbouring pairs only where both
// fit, cache-fit caps the CTAs an SM runs. The dispatcher's view of the asking SM (free slots,
// running CTAs) is set by hand as the dispatcher would.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "tbsched/paver_groups.h"
#include "tbsched/tbsched.h"
}

namespace {

void begin(tbsched &t, const char *name, std::initializer_list<long long> params, uint64_t n_ctas, uint32_t n_sms,
           uint32_t occupancy = 0)
{
    tbsched_launch l{};
    l.ctas_per_sm = occupancy;
    l.grid[0] = static_cast<uint32_t>(n_ctas), l.grid[1] = l.grid[2] = 1;
    l.n_ctas = n_ctas;
    l.n_sms = n_sms;
    gsim_policy_spec spec{};
    strcpy(spec.name, name);
    for (long long p : params) spec.params[spec.nparams++] = p;
    strbuf err;
    strbuf_init(&err);
    ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
    strbuf_free(&err);
}

uint64_t ask(tbsched &t, uint32_t sm, uint32_t free_slots, uint32_t live)
{
    t.sm_free = free_slots;
    t.sm_live = live;
    return tbsched_next(&t, sm);
}

TEST(TbschedBcs, PairsGoToOneSmOnlyWithRoomForBoth)
{
    tbsched t;
    begin(t, "bcs", {}, 7, 2);
    // SM0 with 3 free slots takes 0, then its partner 1 (now 2 free); SM1 takes 2 and 3.
    EXPECT_EQ(ask(t, 0, 3, 0), 0u);
    EXPECT_EQ(ask(t, 1, 3, 0), 2u);
    EXPECT_EQ(ask(t, 0, 2, 1), 1u);
    EXPECT_EQ(ask(t, 1, 2, 1), 3u);
    // SM0 has one slot left (occupancy 3 is odd): it is throttled to the pair.
    EXPECT_EQ(ask(t, 0, 1, 2), TBSCHED_NONE);
    // One CTA of SM1 finished: still one free slot only, BCS waits for two.
    EXPECT_EQ(ask(t, 1, 1, 1), TBSCHED_NONE);
    EXPECT_EQ(ask(t, 1, 2, 0), 4u);
    EXPECT_EQ(ask(t, 1, 1, 1), 5u);
    // The lone last CTA needs one slot.
    EXPECT_EQ(ask(t, 0, 1, 2), 6u);
    EXPECT_EQ(ask(t, 0, 3, 0), TBSCHED_NONE);
    EXPECT_TRUE(tbsched_all_issued(&t));
    tbsched_end(&t);
    // A kernel of which one CTA fills an SM (occupancy 1) can never take a pair: CTAs go singly.
    begin(t, "bcs", {}, 3, 2, 1);
    EXPECT_EQ(ask(t, 0, 1, 0), 0u);
    EXPECT_EQ(ask(t, 1, 1, 0), 1u);
    EXPECT_EQ(ask(t, 0, 1, 0), 2u);
    EXPECT_TRUE(tbsched_all_issued(&t));
    tbsched_end(&t);
    begin(t, "bcs", {}, 3, 2, 2); // occupancy 2: pairs again
    EXPECT_EQ(ask(t, 0, 1, 1), TBSCHED_NONE);
    tbsched_end(&t);
}

TEST(TbschedCacheFit, CapsRunningCtasPerSm)
{
    tbsched t;
    begin(t, "cachefit", {2}, 5, 2);
    EXPECT_EQ(ask(t, 0, 5, 0), 0u);
    EXPECT_EQ(ask(t, 0, 4, 1), 1u);
    EXPECT_EQ(ask(t, 0, 3, 2), TBSCHED_NONE) << "cap 2 reached although 3 slots are free";
    EXPECT_EQ(ask(t, 1, 5, 0), 2u);
    EXPECT_EQ(ask(t, 0, 4, 1), 3u);
    tbsched_end(&t);
    // default cap 1; a cap outside 1..1024 is refused
    begin(t, "cachefit", {}, 4, 1);
    EXPECT_EQ(ask(t, 0, 8, 0), 0u);
    EXPECT_EQ(ask(t, 0, 7, 1), TBSCHED_NONE);
    tbsched_end(&t);
    tbsched_launch l{};
    l.n_ctas = 1, l.n_sms = 1, l.grid[0] = l.grid[1] = l.grid[2] = 1;
    gsim_policy_spec spec{};
    strcpy(spec.name, "cachefit");
    spec.nparams = 1;
    spec.params[0] = 0;
    strbuf err;
    strbuf_init(&err);
    EXPECT_EQ(tbsched_begin(&t, &spec, &l, &err), -1);
    strbuf_free(&err);
}

// PAVER's nextTB register (spec A.3.7, A.8.9): after taking a group or issuing a TB, an SM's next
// TB id arrives fetch_latency cycles later; asks before then are refused and counted.
TEST(PaverQueue, NextTbFetchLatency)
{
    paver_groups gr{};
    gr.n_tbs = 4;
    gr.n_groups = 2;
    gr.tbs = static_cast<uint32_t *>(malloc(4 * sizeof(uint32_t)));
    gr.start = static_cast<uint64_t *>(malloc(3 * sizeof(uint64_t)));
    for (uint32_t k = 0; k < 4; k++) gr.tbs[k] = 3 - k;
    gr.start[0] = 0, gr.start[1] = 2, gr.start[2] = 4;
    paver_queue q;
    ASSERT_EQ(paver_queue_init(&q, &gr, 2, 0), 0);
    q.fetch_latency = 10;
    q.now = 100;
    EXPECT_EQ(paver_queue_next(&q, 0), PAVER_NONE) << "group taken at 100: TB id valid at 110";
    q.now = 109;
    EXPECT_EQ(paver_queue_next(&q, 0), PAVER_NONE);
    q.now = 110;
    EXPECT_EQ(paver_queue_next(&q, 0), 3u);
    EXPECT_EQ(paver_queue_next(&q, 0), PAVER_NONE) << "the next id is fetched after the issue";
    q.now = 120;
    EXPECT_EQ(paver_queue_next(&q, 0), 2u);
    EXPECT_EQ(q.fetch_stalls, 3u);
    paver_queue_free(&q);
}

// With a fetch latency and stealing, idle SMs that steal at once must not pass a range around
// forever (each theft restarting the fetch): the TB in a donor's nextTB stays with it.
TEST(PaverQueue, StealingWithFetchLatencyMakesProgress)
{
    paver_groups gr{};
    gr.n_tbs = 5;
    gr.n_groups = 1;
    gr.tbs = static_cast<uint32_t *>(malloc(5 * sizeof(uint32_t)));
    gr.start = static_cast<uint64_t *>(malloc(2 * sizeof(uint64_t)));
    for (uint32_t k = 0; k < 5; k++) gr.tbs[k] = k;
    gr.start[0] = 0, gr.start[1] = 5;
    paver_queue q;
    ASSERT_EQ(paver_queue_init(&q, &gr, 4, 1), 0);
    q.fetch_latency = 3;
    std::vector<int> seen(5, 0);
    unsigned issued = 0;
    for (q.now = 0; q.now < 100 && issued < 5; q.now++)
        for (uint32_t sm = 0; sm < 4; sm++) {
            uint32_t tb = paver_queue_next(&q, sm);
            if (tb == PAVER_NONE) continue;
            ASSERT_LT(tb, 5u);
            EXPECT_EQ(seen[tb]++, 0) << "TB " << tb << " issued twice";
            issued++;
        }
    EXPECT_EQ(issued, 5u) << "every TB issued within 100 cycles";
    EXPECT_GT(q.steal_events, 0u);
    paver_queue_free(&q);
}

} // namespace
