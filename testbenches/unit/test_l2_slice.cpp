// Unit tests of the L2 slice core (model/l2/l2_slice.h): ROP delay, tag stage, data-port
// serialisation, miss merging, write allocation and write-back, atomics, reservation-fail retry,
// the controller seam (forward hook), perfect L2. Expected cycles are worked out by hand in each
// test from the slice's timing rules: push at t -> tag lookup at t + rop -> data port from the
// next cycle, ceil(bytes / port_width) cycles; a miss is in the DRAM queue one cycle after its
// lookup; a fill at f puts the woken requests on the data port from f.
#include <gtest/gtest.h>

#include <string>
#include <vector>

extern "C" {
#include "../../model/l2/l2_slice.h"
}

namespace {

struct Slice {
    l2_slice s;
    uint64_t now = 0; // next cycle the driver may tick

    Slice(const char *cache, int rop, bool perfect = false)
    {
        l2_slice_params p{};
        char err[256];
        EXPECT_EQ(gsim_cache_cfg_parse(cache, &p.dl2, err, sizeof err), 0) << err;
        p.rop_cycles = rop;
        p.perfect = perfect;
        EXPECT_EQ(l2_slice_init(&s, &p), 0);
    }
    ~Slice() { l2_slice_free(&s); }

    int push(uint64_t addr, uint64_t cookie, uint64_t cycle, int kind = L2_REQ_READ, uint32_t bytes = 128,
             uint8_t mask = 0)
    {
        l2_req r{};
        r.addr = addr;
        r.cookie = cookie;
        r.bytes = bytes;
        r.kind = (uint8_t)kind;
        r.sector_mask = mask;
        return l2_slice_push(&s, &r, cycle);
    }
    // Ticks the cycles up to `last` the way a clock domain does: only where next_work says so.
    void run_to(uint64_t last)
    {
        for (;;) {
            uint64_t w = l2_slice_next_work(&s, now);
            if (w == L2_NEVER || w > last) break;
            l2_slice_tick(&s, w);
            now = w + 1;
        }
        if (now < last + 1) now = last + 1;
    }
    // Runs cycle by cycle until a response is ready; returns its cycle and pops it into *out.
    uint64_t next_response(l2_rsp *out, uint64_t limit = 10000)
    {
        for (uint64_t c = now; c < limit; c++) {
            run_to(c);
            if (l2_slice_rsp_peek(&s, c)) {
                l2_slice_rsp_pop(&s, out);
                return c;
            }
        }
        return L2_NEVER;
    }
    std::vector<l2_dram_req> drain_dram(uint64_t cycle)
    {
        std::vector<l2_dram_req> v;
        l2_dram_req d;
        while (l2_slice_dram_peek(&s, cycle) && l2_slice_dram_pop(&s, &d) == 0) v.push_back(d);
        return v;
    }
};

// 4 sets x 2 ways of 128 B lines, write-back, allocate on miss, naive write allocation,
// 4 MSHRs merging 4, miss queue 4, 32 B data port.
const char *kNormal = "N:4:128:2,L:B:m:W:L,A:4:4,4:0,32";
const int kRop = 10;

TEST(L2SliceTest, RopLatencyConvertsCoreCyclesToL2Cycles)
{
    EXPECT_EQ(l2_core_to_l2_cycles(120, 1400.0, 700.0), 60);
    EXPECT_EQ(l2_core_to_l2_cycles(120, 700.0, 700.0), 120);
    EXPECT_EQ(l2_core_to_l2_cycles(150, 1000.0, 1417.0), 213); // 212.55 rounds up
    EXPECT_EQ(l2_core_to_l2_cycles(0, 1000.0, 1417.0), 0);
}

TEST(L2SliceTest, ReadMissGoesToDramThenHitLatencyIsRopPlusTagPlusPort)
{
    Slice t(kNormal, kRop);
    ASSERT_EQ(t.push(0x1000, 7, 0), 0);
    t.run_to(10); // tag lookup at 0 + 10: a miss
    EXPECT_EQ(l2_slice_dram_peek(&t.s, 10), nullptr);
    t.run_to(11); // in the DRAM queue one cycle after the lookup
    auto d = t.drain_dram(11);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].addr, 0x1000u);
    EXPECT_EQ(d[0].bytes, 128u);
    EXPECT_EQ(d[0].is_write, 0);
    EXPECT_EQ(d[0].cookie, 7u);
    ASSERT_EQ(l2_slice_dram_fill(&t.s, 0x1000, 0, 40), 0);
    l2_rsp r;
    EXPECT_EQ(t.next_response(&r), 40u + 4u) << "128 B over a 32 B port: 4 cycles from the fill";
    EXPECT_EQ(r.cookie, 7u);
    EXPECT_EQ(r.hit, 0);
    EXPECT_EQ(r.bytes, 128u);

    // A hit pushed at 100: lookup at 110, port 111..114, ready at 115 = 100 + 10 + 1 + 4.
    t.run_to(99);
    ASSERT_EQ(t.push(0x1040, 8, 100), 0); // same line
    EXPECT_EQ(t.next_response(&r), 115u);
    EXPECT_EQ(r.cookie, 8u);
    EXPECT_EQ(r.hit, 1);
    // A 32 B hit needs one port cycle: ready at 200 + 10 + 1 + 1.
    t.run_to(199);
    ASSERT_EQ(t.push(0x1000, 9, 200, L2_REQ_READ, 32), 0);
    EXPECT_EQ(t.next_response(&r), 212u);
    EXPECT_EQ(t.s.st.accesses, 3u);
    EXPECT_EQ(t.s.st.hits, 2u);
    EXPECT_EQ(t.s.st.misses, 1u);
    EXPECT_EQ(t.s.st.dram_reads, 1u);
    EXPECT_FALSE(l2_slice_busy(&t.s));
}

TEST(L2SliceTest, MissGoesToDramOnceAndWakesEveryMergedRequest)
{
    // Sectored: 32 B sectors, the DRAM read covers only the missing sector.
    Slice t("S:4:128:2,L:B:m:W:L,A:4:4,4:0,32", kRop);
    ASSERT_EQ(t.push(0x2000, 1, 0, L2_REQ_READ, 32, 0x1), 0);
    ASSERT_EQ(t.push(0x2000, 2, 0, L2_REQ_READ, 32, 0x1), 0);
    ASSERT_EQ(t.push(0x2000, 3, 1, L2_REQ_READ, 32, 0x1), 0);
    t.run_to(60);
    EXPECT_EQ(l2_slice_rsp_peek(&t.s, 60), nullptr) << "nobody answered before the fill";
    auto d = t.drain_dram(60);
    ASSERT_EQ(d.size(), 1u) << "one DRAM read for three requests";
    EXPECT_EQ(d[0].bytes, 32u);
    EXPECT_EQ(d[0].sector_mask, 0x1);
    EXPECT_EQ(t.s.st.misses, 1u);
    EXPECT_EQ(t.s.st.hit_reserved, 2u);
    ASSERT_EQ(l2_slice_dram_fill(&t.s, 0x2000, 0x1, 70), 0);
    l2_rsp r;
    // The three wake at 70 and leave the 32 B port one per cycle, in MSHR order.
    EXPECT_EQ(t.next_response(&r), 71u);
    EXPECT_EQ(r.cookie, 1u);
    EXPECT_EQ(t.next_response(&r), 72u);
    EXPECT_EQ(r.cookie, 2u);
    EXPECT_EQ(t.next_response(&r), 73u);
    EXPECT_EQ(r.cookie, 3u);
    t.run_to(200);
    EXPECT_TRUE(t.drain_dram(200).empty());
    EXPECT_EQ(t.s.st.dram_reads, 1u);
    EXPECT_FALSE(l2_slice_busy(&t.s));
}

TEST(L2SliceTest, WriteAllocatesAndLaterEvictionWritesItBack)
{
    // One set, one way; write-back with fetch-on-write: the write waits for the line and dirties it.
    Slice t("N:1:128:1,L:B:m:F:L,A:4:4,4:0,32", kRop);
    ASSERT_EQ(t.push(0x3000, 11, 0, L2_REQ_WRITE, 32), 0);
    l2_rsp r;
    // Acknowledged once past the tag stage: lookup at 10, one 32 B port cycle, ready at 12.
    EXPECT_EQ(t.next_response(&r), 12u);
    EXPECT_EQ(r.cookie, 11u);
    EXPECT_EQ(r.bytes, 0u) << "a write acknowledgement carries no data";
    EXPECT_EQ(r.hit, 0);
    auto d = t.drain_dram(12);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].is_write, 0) << "fetch-on-write reads the line";
    ASSERT_EQ(l2_slice_dram_fill(&t.s, 0x3000, 0, 30), 0);
    t.run_to(30);
    uint8_t valid = 0;
    ASSERT_EQ(cache_probe(&t.s.cache, 0x3000, &valid), 0);
    EXPECT_EQ(cache_line_at(&t.s.cache, 0, 0)->dirty, 1) << "the write dirtied the line at the fill";

    // A read of another line evicts it: a write-back and a read go to DRAM.
    ASSERT_EQ(t.push(0x8000, 12, 31), 0);
    t.run_to(43); // lookup at 41; one record moves per cycle: 42, 43
    d = t.drain_dram(43);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].kind, CACHE_OUT_WRITEBACK);
    EXPECT_EQ(d[0].addr, 0x3000u);
    EXPECT_EQ(d[0].is_write, 1);
    EXPECT_EQ(d[0].bytes, 128u);
    EXPECT_EQ(d[0].cookie, 0u);
    EXPECT_EQ(d[1].kind, CACHE_OUT_READ);
    EXPECT_EQ(d[1].addr, 0x8000u);
    EXPECT_EQ(d[1].cookie, 12u);
    EXPECT_EQ(t.s.st.writebacks, 1u);
    EXPECT_EQ(t.s.st.dram_writes, 1u);
    EXPECT_EQ(t.s.st.dram_reads, 2u);
}

TEST(L2SliceTest, NaiveWriteAllocationSendsTheWriteAndFetchesTheLine)
{
    Slice t(kNormal, kRop);
    ASSERT_EQ(t.push(0x3000, 21, 0, L2_REQ_WRITE, 128), 0);
    t.run_to(12);
    auto d = t.drain_dram(12);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].kind, CACHE_OUT_READ);
    EXPECT_EQ(d[1].kind, CACHE_OUT_WRITE);
    EXPECT_EQ(d[1].cookie, 21u) << "the write passed down names its request";
    l2_rsp r;
    EXPECT_EQ(t.next_response(&r), 15u) << "128 B of write data: 4 port cycles after the lookup";
    EXPECT_EQ(r.cookie, 21u);
}

TEST(L2SliceTest, PortSerialisesTwoHits)
{
    Slice t(kNormal, kRop);
    ASSERT_EQ(t.push(0x1000, 1, 0), 0);
    t.run_to(11);
    t.drain_dram(11);
    l2_slice_dram_fill(&t.s, 0x1000, 0, 20);
    l2_rsp r;
    ASSERT_EQ(t.next_response(&r), 24u);
    t.run_to(99);
    // Both pushed at 100: lookups at 110 and 111; the first holds the port 111..114 (ready 115),
    // the second waits for it: 115..118, ready at 119.
    ASSERT_EQ(t.push(0x1000, 2, 100), 0);
    ASSERT_EQ(t.push(0x1000, 3, 100), 0);
    EXPECT_EQ(t.next_response(&r), 115u);
    EXPECT_EQ(r.cookie, 2u);
    EXPECT_EQ(t.next_response(&r), 119u);
    EXPECT_EQ(r.cookie, 3u);
    EXPECT_EQ(t.s.st.hits, 2u);
}

TEST(L2SliceTest, ReservationFailStaysAtTheHeadAndRetriesEveryCycle)
{
    // One MSHR: a second missing line cannot enter the tag stage until the first fill.
    Slice t("N:4:128:2,L:B:m:W:L,A:1:4,4:0,32", kRop);
    ASSERT_EQ(t.push(0x1000, 1, 0), 0);
    ASSERT_EQ(t.push(0x2000, 2, 0), 0); // ready at 10, looked up from 11
    ASSERT_EQ(t.push(0x1000, 3, 0), 0); // behind it (head-of-line)
    t.run_to(29);
    EXPECT_EQ(t.s.st.misses, 1u);
    EXPECT_EQ(t.s.st.reservation_fails, 19u) << "attempts at cycles 11..29";
    EXPECT_EQ(t.s.st.res_fail[CACHE_FAIL_MSHR_ENTRY], 19u);
    EXPECT_EQ(t.s.st.hit_reserved, 0u);
    strbuf sb;
    strbuf_init(&sb);
    l2_slice_describe(&t.s, &sb);
    EXPECT_NE(std::string(strbuf_str(&sb)).find("head stalled since 11"), std::string::npos) << strbuf_str(&sb);
    strbuf_free(&sb);
    auto d = t.drain_dram(29);
    ASSERT_EQ(d.size(), 1u);
    // The fill at 30 frees the MSHR before that cycle's lookup: request 2 misses at 30,
    // request 3 (line 0x1000, now present) hits at 31.
    l2_slice_dram_fill(&t.s, 0x1000, 0, 30);
    l2_rsp r;
    EXPECT_EQ(t.next_response(&r), 34u);
    EXPECT_EQ(r.cookie, 1u);
    // Request 3: lookup at 31, the port is busy with the fill's 30..33, so 34..37, ready 38.
    EXPECT_EQ(t.next_response(&r), 38u);
    EXPECT_EQ(r.cookie, 3u);
    EXPECT_EQ(t.s.st.rop_stall_cycles, 19u);
    EXPECT_EQ(t.s.st.reservation_fails, 19u);
    d = t.drain_dram(31);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].addr, 0x2000u);
}

l2_front_decision forward_high(void *ctx, const l2_req *r)
{
    ++*static_cast<int *>(ctx);
    return r->addr >= 0x100000 ? L2_FRONT_FORWARD : L2_FRONT_LOCAL;
}

TEST(L2SliceTest, FrontHookForwardsRequestsAroundTheBank)
{
    Slice t(kNormal, kRop);
    int asked = 0;
    l2_front f{&asked, forward_high};
    l2_slice_set_front(&t.s, &f);
    ASSERT_EQ(t.push(0x100080, 5, 3), 0);
    ASSERT_EQ(t.push(0x80, 6, 3), 0);
    EXPECT_EQ(asked, 2);
    EXPECT_EQ(l2_slice_fwd_peek(&t.s, 2), nullptr);
    const l2_req *q = l2_slice_fwd_peek(&t.s, 3);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->cookie, 5u);
    EXPECT_EQ(q->addr, 0x100080u);
    l2_req out;
    ASSERT_EQ(l2_slice_fwd_pop(&t.s, &out), 0);
    EXPECT_EQ(l2_slice_fwd_pop(&t.s, &out), -1);
    t.run_to(20);
    EXPECT_EQ(t.s.st.forwarded, 1u);
    EXPECT_EQ(t.s.st.accesses, 1u) << "only the local request reached the tag stage";
    auto d = t.drain_dram(20);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].cookie, 6u);
    // The forward queue is bounded: while it is full nothing is accepted.
    for (int i = 0; i < L2_FWD_QUEUE_CAP; i++) ASSERT_EQ(t.push(0x200000, 100 + i, 21), 0);
    EXPECT_FALSE(l2_slice_can_accept(&t.s));
    EXPECT_EQ(t.push(0x80, 9, 21), -1);
    EXPECT_EQ(t.s.st.rop_full, 1u);
    // Without the hook every request is local.
    l2_slice_set_front(&t.s, nullptr);
    while (l2_slice_fwd_pop(&t.s, &out) == 0) {}
    ASSERT_EQ(t.push(0x100080, 10, 22), 0);
    EXPECT_EQ(t.s.st.forwarded, 1u + L2_FWD_QUEUE_CAP);
}

TEST(L2SliceTest, RopQueueHoldsRopCyclesPlusExtra)
{
    Slice t(kNormal, kRop);
    for (int i = 0; i < kRop + L2_ROP_EXTRA; i++) ASSERT_EQ(t.push(0x1000 + 128 * i, i + 1, 0), 0) << i;
    EXPECT_FALSE(l2_slice_can_accept(&t.s));
    EXPECT_EQ(t.push(0x9000, 99, 0), -1);
    EXPECT_EQ(t.s.st.rop_full, 1u);
}

TEST(L2SliceTest, AtomicRespondsAfterTheFillAndDirtiesTheLine)
{
    Slice t(kNormal, kRop);
    ASSERT_EQ(t.push(0x4000, 31, 0, L2_REQ_ATOMIC, 32), 0);
    t.run_to(11);
    auto d = t.drain_dram(11);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].is_write, 0) << "an atomic missing reads the line like a load";
    EXPECT_EQ(l2_slice_rsp_peek(&t.s, 11), nullptr);
    l2_slice_dram_fill(&t.s, 0x4000, 0, 50);
    l2_rsp r;
    EXPECT_EQ(t.next_response(&r), 51u);
    EXPECT_EQ(r.cookie, 31u);
    EXPECT_EQ(r.bytes, 32u) << "an atomic returns data";
    EXPECT_EQ(r.kind, L2_REQ_ATOMIC);
    int way = cache_probe(&t.s.cache, 0x4000, nullptr);
    ASSERT_GE(way, 0);
    EXPECT_EQ(cache_line_at(&t.s.cache, cache_set_index(&t.s.cache, 0x4000), way)->dirty, 1);
    // An atomic hit answers at once (lookup + one port cycle) and keeps the line dirty.
    ASSERT_EQ(t.push(0x4000, 32, 60, L2_REQ_ATOMIC, 32), 0);
    EXPECT_EQ(t.next_response(&r), 72u);
    EXPECT_EQ(r.hit, 1);
    EXPECT_EQ(t.s.st.atomics, 2u);
}

TEST(L2SliceTest, AtomicHitDirtiesACleanLine)
{
    Slice t(kNormal, kRop);
    ASSERT_EQ(t.push(0x4000, 1, 0), 0);
    t.run_to(11);
    t.drain_dram(11);
    l2_slice_dram_fill(&t.s, 0x4000, 0, 20);
    l2_rsp r;
    t.next_response(&r);
    int set = cache_set_index(&t.s.cache, 0x4000), way = cache_probe(&t.s.cache, 0x4000, nullptr);
    ASSERT_GE(way, 0);
    EXPECT_EQ(cache_line_at(&t.s.cache, set, way)->dirty, 0);
    ASSERT_EQ(t.push(0x4000, 2, 30, L2_REQ_ATOMIC, 32), 0);
    t.next_response(&r);
    EXPECT_EQ(cache_line_at(&t.s.cache, set, way)->dirty, 1);
}

TEST(L2SliceTest, PerfectL2HitsEverythingAndNeverUsesDram)
{
    Slice t(kNormal, kRop, true);
    ASSERT_EQ(t.push(0x1000, 1, 0), 0);
    ASSERT_EQ(t.push(0x5000, 2, 0, L2_REQ_WRITE, 32), 0);
    l2_rsp r;
    EXPECT_EQ(t.next_response(&r), 15u);
    EXPECT_EQ(r.hit, 1);
    EXPECT_EQ(t.next_response(&r), 16u); // lookup 11, port 15
    EXPECT_EQ(r.hit, 1);
    t.run_to(100);
    EXPECT_TRUE(t.drain_dram(100).empty());
    EXPECT_EQ(t.s.st.hits, 2u);
    EXPECT_EQ(t.s.st.misses, 0u);
}

TEST(L2SliceTest, ResponseQueueFullStallsTheTagStage)
{
    Slice t("N:4:128:2,L:B:m:W:L,A:4:4,4:0,128", 2); // 128 B port: one cycle per response
    ASSERT_EQ(t.push(0x1000, 1, 0), 0);
    t.run_to(3);
    t.drain_dram(3);
    l2_slice_dram_fill(&t.s, 0x1000, 0, 4);
    l2_rsp r;
    ASSERT_EQ(t.next_response(&r), 5u);
    // Lookups at 12..19 fill the response queue; the 9th, ready at 12, could go at 20.
    for (int i = 0; i < L2_RSP_QUEUE_CAP + 2; i++) ASSERT_EQ(t.push(0x1000, 10 + i, 10), 0);
    t.run_to(40);
    EXPECT_EQ(t.s.rsp_n, L2_RSP_QUEUE_CAP) << "nobody drains: the tag stage stops at the limit";
    EXPECT_EQ(t.s.rop_n, 2);
    EXPECT_EQ(l2_slice_next_work(&t.s, 41), L2_NEVER) << "idle until a response is popped";
    l2_slice_rsp_pop(&t.s, &r);
    EXPECT_EQ(r.cookie, 10u);
    EXPECT_EQ(l2_slice_next_work(&t.s, 41), 41u);
    t.run_to(41);
    EXPECT_EQ(t.s.rop_n, 1);
    EXPECT_EQ(t.s.st.rop_stall_cycles, 41u - 20u) << "the 9th request could go at 20 and went at 41";
}

} // namespace

namespace {

TEST(L2SliceTest, MshrStorageGrowsWithUseNotWithTheConfiguredLimit)
{
    // A:1024:1024 (a public GTX 1080 configuration) would be a million waiter slots up front.
    Slice t("N:64:128:8,L:B:m:W:L,A:1024:1024,4:0,32", kRop);
    EXPECT_EQ(t.s.wait_cap, 1024 * 1024);
    EXPECT_LE(t.s.wait_alloc, 64);
    const int n = 300; // merged into one MSHR entry: more waiters than the first allocation
    uint64_t c = 0;
    for (int i = 0; i < n; c++) {
        if (t.push(0x4000, static_cast<uint64_t>(i) + 1, c) == 0) i++;
        t.run_to(c);
    }
    t.run_to(c + 60);
    auto d = t.drain_dram(c + 60);
    ASSERT_EQ(d.size(), 1u) << "one DRAM read for every merged request";
    EXPECT_GE(t.s.wait_alloc, n);
    EXPECT_LE(t.s.wait_alloc, 2 * n) << "grown by doubling to what is used";
    ASSERT_EQ(l2_slice_dram_fill(&t.s, 0x4000, 0, c + 70), 0);
    l2_rsp r;
    for (int i = 0; i < n; i++) {
        t.next_response(&r, c + 100000);
        EXPECT_EQ(r.cookie, static_cast<uint64_t>(i) + 1) << "woken in MSHR order";
    }
    EXPECT_EQ(t.s.st.misses, 1u);
    EXPECT_EQ(t.s.st.hit_reserved, static_cast<uint64_t>(n) - 1);
}

} // namespace
