// Unit tests of the cache core (model/cache/cache_core.h): replacement, set-index functions, MSHR
// merging and its limits, write policies, sectors, hooks, and a randomized run against a
// list-based reference.
#include <gtest/gtest.h>

#include "cache_cfg_fixture.h"

#include <algorithm>
#include <cstring>
#include <list>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "../../model/cache/cache_core.h"
}

namespace {

struct Cache {
    cache_core c;
    explicit Cache(const char *text)
    {
        gsim_cache_cfg cfg = cfg_of(text);
        EXPECT_EQ(cache_init(&c, &cfg), 0) << text;
    }
    ~Cache() { cache_free(&c); }
    cache_status access(uint64_t addr, bool write = false, uint64_t cookie = 0, uint8_t mask = 0,
                        cache_result *res = nullptr, uint32_t pc = 0, bool local = false)
    {
        cache_req r{};
        r.addr = addr;
        r.cookie = cookie;
        r.pc_hash = pc;
        r.sector_mask = mask;
        r.is_write = write;
        r.is_local = local;
        return cache_access(&c, &r, res);
    }
    std::vector<uint64_t> fill(uint64_t addr, uint8_t mask = 0)
    {
        uint64_t buf[64];
        int n = cache_fill(&c, addr, mask, buf, 64);
        if (n < 0) return {~0ull};
        return std::vector<uint64_t>(buf, buf + n);
    }
    std::vector<cache_out> drain()
    {
        std::vector<cache_out> v;
        cache_out o;
        while (cache_out_pop(&c, &o) == 0) v.push_back(o);
        return v;
    }
    // A read; on a miss the fill comes back at once. Returns 'H' or 'M'.
    char read_now(uint64_t addr)
    {
        cache_status s = access(addr);
        if (s == CACHE_MISS) {
            drain();
            fill(addr);
            return 'M';
        }
        return s == CACHE_HIT ? 'H' : '?';
    }
};

std::string run_seq(Cache &k, const std::vector<int> &lines)
{
    std::string s;
    for (int n : lines) s += k.read_now((uint64_t)n * 128);
    return s;
}

// ---- replacement: hand-computed sequences (2 sets x 2 ways, line n -> set n % 2) ----

const std::vector<int> kSeq = {0, 2, 0, 4, 0, 2, 4, 1, 3, 1, 5, 3};

TEST(CacheCore, LruExactSequence)
{
    Cache k("N:2:128:2,L:R:m:N:L,A:4:4,8");
    EXPECT_EQ(run_seq(k, kSeq), "MMHMHMMMMHMM");
    EXPECT_EQ(k.c.st.evictions, 5u);
    EXPECT_EQ(k.c.st.hits, 3u);
    EXPECT_EQ(k.c.st.misses, 9u);
    EXPECT_EQ(k.c.st.accesses, 12u);
    // Remaining: set 0 {4, 2}, set 1 {3, 5}.
    for (int n : {4, 2, 3, 5}) EXPECT_GE(cache_probe(&k.c, n * 128, nullptr), 0) << n;
    for (int n : {0, 1}) EXPECT_LT(cache_probe(&k.c, n * 128, nullptr), 0) << n;
}

TEST(CacheCore, FifoExactSequence)
{
    Cache k("N:2:128:2,F:R:m:N:L,A:4:4,8");
    EXPECT_EQ(run_seq(k, kSeq), "MMHMMMMMMHMH");
    EXPECT_EQ(k.c.st.evictions, 5u);
    for (int n : {2, 4, 3, 5}) EXPECT_GE(cache_probe(&k.c, n * 128, nullptr), 0) << n;
    for (int n : {0, 1}) EXPECT_LT(cache_probe(&k.c, n * 128, nullptr), 0) << n;
}

// ---- set-index functions ----

TEST(CacheCore, SetIndexLinear)
{
    Cache k("N:32:128:4,L:R:m:N:L,A:4:4,8");
    EXPECT_EQ(cache_set_index(&k.c, 0x12345680), 13); // (0x12345680 >> 7) & 31
    EXPECT_EQ(cache_set_index(&k.c, 0x7F), 0);
    EXPECT_EQ(cache_set_index(&k.c, 32 * 128), 0);
    Cache n("N:48:128:8,L:R:m:N:L,A:4:4,8"); // non-power-of-two sets: modulo
    EXPECT_EQ(cache_set_index(&n.c, 100 * 128), 4);
    EXPECT_EQ(cache_set_index(&n.c, 47 * 128 + 5), 47);
}

TEST(CacheCore, SetIndexXor)
{
    Cache k("N:16:128:4,L:R:m:N:X,A:4:4,8");
    EXPECT_EQ(cache_set_index(&k.c, 0x35 * 128), 6);  // 0x5 ^ 0x3
    EXPECT_EQ(cache_set_index(&k.c, 0x100 * 128), 0); // bits above 2k do not count
    EXPECT_EQ(cache_set_index(&k.c, 0x10 * 128), 1);
}

TEST(CacheCore, SetIndexFermiHash)
{
    Cache k("N:32:128:4,L:L:m:N:H,A:4:4,8");
    EXPECT_EQ(cache_set_index(&k.c, 0x2000), 1);        // a13 -> bit 0
    EXPECT_EQ(cache_set_index(&k.c, 0x4000), 2);        // a14 -> bit 1
    EXPECT_EQ(cache_set_index(&k.c, 0x8000), 4);        // a15 -> bit 2
    EXPECT_EQ(cache_set_index(&k.c, 0x20000), 8);       // a17 -> bit 3
    EXPECT_EQ(cache_set_index(&k.c, 0x80000), 16);      // a19 -> bit 4
    EXPECT_EQ(cache_set_index(&k.c, 0x10000), 0);       // a16 is not used
    EXPECT_EQ(cache_set_index(&k.c, 0x1000), 0);        // a12 is not used with 32 sets
    EXPECT_EQ(cache_set_index(&k.c, 0x2080), 0);        // 1 ^ 1
    EXPECT_EQ(cache_set_index(&k.c, 0xF80 | 0x80000), 15); // 31 ^ 16
    Cache w("N:64:128:6,L:L:m:N:H,A:4:4,8");
    EXPECT_EQ(cache_set_index(&w.c, 0x1000), 32);                 // a12 -> bit 5
    EXPECT_EQ(cache_set_index(&w.c, 0x1080 | 0x20000), 32 + 1 + 8);
}

TEST(CacheCore, SetIndexIpoly)
{
    // 16 sets: x^4 + x + 1.
    EXPECT_EQ(cache_ipoly_poly(4), 0x13u);
    Cache k("N:16:128:4,L:R:m:N:P,A:4:4,8");
    EXPECT_EQ(cache_set_index(&k.c, 0x7 * 128), 7);   // below x^4: unchanged
    EXPECT_EQ(cache_set_index(&k.c, 0x10 * 128), 3);  // x^4 = x + 1
    EXPECT_EQ(cache_set_index(&k.c, 0x80 * 128), 11); // x^7 = x^3 + x + 1
    EXPECT_EQ(cache_set_index(&k.c, 0x100 * 128), 5); // x^8 = x^2 + 1
    EXPECT_EQ(cache_set_index(&k.c, 0x110 * 128), 6); // linear: 5 ^ 3
    // Properties for 64 sets: consecutive blocks and power-of-two strides spread over every set.
    Cache p("N:64:128:4,L:R:m:N:P,A:4:4,8");
    for (int stride_log : {0, 6, 7, 10, 13}) {
        std::set<int> seen;
        for (uint64_t i = 0; i < 64; i++) seen.insert(cache_set_index(&p.c, ((i << stride_log) | (5ull << 20)) * 128));
        EXPECT_EQ(seen.size(), 64u) << "stride 2^" << stride_log;
    }
    // Linear indexing collapses a stride of 64 blocks onto one set; ipoly does not (checked above).
    Cache l("N:64:128:4,L:R:m:N:L,A:4:4,8");
    std::set<int> lin;
    for (uint64_t i = 0; i < 64; i++) lin.insert(cache_set_index(&l.c, (i << 6) * 128));
    EXPECT_EQ(lin.size(), 1u);
    for (int d = 1; d <= 16; d++) {
        uint32_t poly = cache_ipoly_poly(d);
        EXPECT_EQ(poly >> d, 1u) << d; // degree d
        EXPECT_EQ(poly & 1, 1u) << d;  // constant term: x is invertible
    }
}

// ---- MSHRs and the miss queue ----

TEST(CacheCore, MshrMergeLimit)
{
    Cache k("N:4:128:2,L:R:m:N:L,A:2:3,8"); // 2 entries, 3 requests per entry
    cache_result r;
    EXPECT_EQ(k.access(0, false, 1, 0, &r), CACHE_MISS);
    EXPECT_TRUE(r.read_sent);
    EXPECT_EQ(k.access(4, false, 2), CACHE_HIT_RESERVED);
    EXPECT_EQ(k.access(8, false, 3), CACHE_HIT_RESERVED);
    EXPECT_EQ(k.access(12, false, 4, 0, &r), CACHE_RESERVATION_FAIL);
    EXPECT_EQ(r.fail, CACHE_FAIL_MSHR_MERGE);
    EXPECT_EQ(k.c.st.res_fail[CACHE_FAIL_MSHR_MERGE], 1u);
    EXPECT_EQ(k.c.st.hit_reserved, 2u);
    EXPECT_EQ(cache_out_count(&k.c), 1); // one read for the three requests
    EXPECT_EQ(k.fill(0), (std::vector<uint64_t>{1, 2, 3}));
    EXPECT_EQ(cache_mshr_in_use(&k.c), 0);
    EXPECT_EQ(k.access(12, false, 4), CACHE_HIT);
    EXPECT_EQ(k.fill(0), (std::vector<uint64_t>{~0ull})); // nothing waits any more
}

// GPGPU-Sim 4.2 keys MSHRs by sector in a sectored cache: requests to different sectors of one line
// do not share a merge limit, and each pending sector takes one of the MSHR entries.
TEST(CacheCore, SectorMshrLimitsCountPerSector)
{
    const char *cfg = "S:4:128:4,L:R:m:N:L,A:3:2,8"; // 3 entries, 2 requests per entry
    for (int per_sector = 0; per_sector < 2; per_sector++) {
        Cache k(cfg);
        cache_set_sector_mshr(&k.c, per_sector);
        cache_result r;
        EXPECT_EQ(k.access(0, false, 1, 0x1), CACHE_MISS);            // sector 0
        EXPECT_EQ(k.access(4, false, 2, 0x1), CACHE_HIT_RESERVED);    // sector 0: 2 waiting
        cache_status s = k.access(32, false, 3, 0x2, &r);             // sector 1 of the same line
        if (per_sector) {
            EXPECT_EQ(s, CACHE_MISS) << "sector 1 has its own entry and merge count";
            EXPECT_EQ(k.access(36, false, 4, 0x2), CACHE_HIT_RESERVED);
            EXPECT_EQ(k.access(8, false, 5, 0x1, &r), CACHE_RESERVATION_FAIL) << "sector 0 is full";
            EXPECT_EQ(r.fail, CACHE_FAIL_MSHR_MERGE);
            EXPECT_EQ(k.access(64, false, 6, 0x4), CACHE_MISS);         // third sector: third entry
            EXPECT_EQ(k.access(96, false, 7, 0x8, &r), CACHE_RESERVATION_FAIL) << "3 sectors pending";
            EXPECT_EQ(r.fail, CACHE_FAIL_MSHR_ENTRY);
            EXPECT_EQ(cache_mshr_max_waiters(&k.c), 8);
            std::vector<uint64_t> woken = k.fill(0, 0x7);
            std::sort(woken.begin(), woken.end());
            EXPECT_EQ(woken, (std::vector<uint64_t>{1, 2, 3, 4, 6}));
        } else {
            EXPECT_EQ(s, CACHE_RESERVATION_FAIL) << "the line's entry already holds 2 requests";
            EXPECT_EQ(r.fail, CACHE_FAIL_MSHR_MERGE);
            EXPECT_EQ(cache_mshr_max_waiters(&k.c), 2);
        }
        EXPECT_EQ(k.c.mshr_sectors, per_sector ? 0 : 1);
    }
}

TEST(CacheCore, MshrEntryLimit)
{
    Cache k("N:4:128:2,L:R:m:N:L,A:2:3,8");
    cache_result r;
    EXPECT_EQ(k.access(0 * 128, false, 1), CACHE_MISS);
    EXPECT_EQ(k.access(1 * 128, false, 2), CACHE_MISS);
    EXPECT_EQ(k.access(2 * 128, false, 3, 0, &r), CACHE_RESERVATION_FAIL);
    EXPECT_EQ(r.fail, CACHE_FAIL_MSHR_ENTRY);
    EXPECT_EQ(k.access(1 * 128 + 64, false, 4), CACHE_HIT_RESERVED); // merging still works
    EXPECT_EQ(k.c.st.res_fail[CACHE_FAIL_MSHR_ENTRY], 1u);
    EXPECT_EQ(k.fill(1 * 128), (std::vector<uint64_t>{2, 4}));
    EXPECT_EQ(k.access(2 * 128, false, 3), CACHE_MISS);
    EXPECT_EQ(k.c.st.misses, 3u);
}

TEST(CacheCore, MissQueueFull)
{
    Cache k("N:4:128:2,L:R:m:N:L,A:8:3,2");
    cache_result r;
    EXPECT_EQ(k.access(0 * 128), CACHE_MISS);
    EXPECT_EQ(k.access(1 * 128), CACHE_MISS);
    EXPECT_TRUE(cache_needs_tick(&k.c));
    EXPECT_EQ(k.access(2 * 128, false, 0, 0, &r), CACHE_RESERVATION_FAIL);
    EXPECT_EQ(r.fail, CACHE_FAIL_MISS_QUEUE);
    EXPECT_EQ(k.c.st.res_fail[CACHE_FAIL_MISS_QUEUE], 1u);
    EXPECT_EQ(cache_mshr_in_use(&k.c), 2); // the failed request took nothing
    cache_out o;
    ASSERT_EQ(cache_out_pop(&k.c, &o), 0);
    EXPECT_EQ(o.addr, 0u);
    EXPECT_EQ(o.kind, CACHE_OUT_READ);
    EXPECT_EQ(k.access(2 * 128), CACHE_MISS);
    EXPECT_EQ(k.drain().size(), 2u);
    EXPECT_FALSE(cache_needs_tick(&k.c));
}

// GPGPU-Sim 4.2's read-miss rule: a read that misses or merges needs 2 free miss-queue slots, so a
// queue of 3 takes two misses; the third read, and even a merge into a pending line, is refused.
TEST(CacheCore, ReadMissQueueReserveNeedsTwoFreeSlots)
{
    Cache k("N:4:128:2,L:R:m:N:L,A:8:3,3");
    cache_set_read_mq_reserve(&k.c, 1);
    cache_result r;
    EXPECT_EQ(k.access(0 * 128), CACHE_MISS);
    EXPECT_EQ(k.access(1 * 128, false, 0, 0, &r), CACHE_MISS) << "2 slots were free";
    EXPECT_EQ(k.access(2 * 128, false, 0, 0, &r), CACHE_RESERVATION_FAIL) << "1 slot free";
    EXPECT_EQ(r.fail, CACHE_FAIL_MISS_QUEUE);
    EXPECT_EQ(k.access(0 * 128 + 4, false, 0, 0, &r), CACHE_RESERVATION_FAIL) << "a merge too";
    EXPECT_EQ(r.fail, CACHE_FAIL_MISS_QUEUE);
    EXPECT_EQ(k.c.st.res_fail[CACHE_FAIL_MISS_QUEUE], 2u);
    ASSERT_EQ(cache_out_pop(&k.c, nullptr), 0);
    EXPECT_EQ(k.access(0 * 128 + 4), CACHE_HIT_RESERVED);
    EXPECT_EQ(k.access(2 * 128), CACHE_MISS);
    cache_set_read_mq_reserve(&k.c, 0); // gtlm's own rule: the one slot a read uses
    EXPECT_EQ(k.access(3 * 128 + 128 * 4), CACHE_MISS);
}

TEST(CacheCore, AllWaysReservedIsLineAllocFail)
{
    Cache k("N:1:128:2,L:R:m:N:L,A:8:3,8");
    cache_result r;
    EXPECT_EQ(k.access(0 * 128), CACHE_MISS);
    EXPECT_EQ(k.access(1 * 128), CACHE_MISS);
    EXPECT_EQ(k.access(2 * 128, false, 0, 0, &r), CACHE_RESERVATION_FAIL);
    EXPECT_EQ(r.fail, CACHE_FAIL_LINE_ALLOC);
    EXPECT_EQ(k.c.st.res_fail[CACHE_FAIL_LINE_ALLOC], 1u);
    k.fill(1 * 128);
    EXPECT_EQ(k.access(2 * 128), CACHE_MISS); // evicts line 1, the only unreserved way
    EXPECT_LT(cache_probe(&k.c, 1 * 128, nullptr), 0);
    EXPECT_EQ(k.c.st.evictions, 1u);
}

// A retried read whose reservation failed counts every attempt, and the first change of the cache
// (a fill, a popped miss-queue entry, another access) ends the remembered failure.
TEST(CacheCore, RetriedFailureCountsEachTimeAndEndsAtTheFirstChange)
{
    Cache k("N:1:128:2,L:R:m:N:L,A:8:3,8");
    cache_result r;
    EXPECT_EQ(k.access(0 * 128), CACHE_MISS);
    EXPECT_EQ(k.access(1 * 128), CACHE_MISS);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(k.access(2 * 128, false, 0, 0, &r), CACHE_RESERVATION_FAIL);
        EXPECT_EQ(r.fail, CACHE_FAIL_LINE_ALLOC);
    }
    EXPECT_EQ(k.c.st.res_fail[CACHE_FAIL_LINE_ALLOC], 3u);
    EXPECT_EQ(k.c.st.accesses, 5u);
    EXPECT_EQ(k.c.st.reads, 5u);
    EXPECT_EQ(k.access(1 * 128 + 32), CACHE_HIT_RESERVED); // another access in between
    EXPECT_EQ(k.access(2 * 128), CACHE_RESERVATION_FAIL);
    k.fill(1 * 128);
    EXPECT_EQ(k.access(2 * 128), CACHE_MISS); // the fill freed a way: not the remembered failure
    EXPECT_EQ(k.c.st.res_fail[CACHE_FAIL_LINE_ALLOC], 4u);

    Cache q("N:4:128:2,L:R:m:N:L,A:8:3,2"); // miss queue of 2
    EXPECT_EQ(q.access(0 * 128), CACHE_MISS);
    EXPECT_EQ(q.access(1 * 128), CACHE_MISS);
    EXPECT_EQ(q.access(2 * 128, false, 0, 0, &r), CACHE_RESERVATION_FAIL);
    EXPECT_EQ(q.access(2 * 128, false, 0, 0, &r), CACHE_RESERVATION_FAIL);
    EXPECT_EQ(r.fail, CACHE_FAIL_MISS_QUEUE);
    cache_out o;
    ASSERT_EQ(cache_out_pop(&q.c, &o), 0);
    EXPECT_EQ(q.access(2 * 128), CACHE_MISS); // the pop made room
    EXPECT_EQ(q.c.st.res_fail[CACHE_FAIL_MISS_QUEUE], 2u);
}

TEST(CacheCore, AllocateOnFillChoosesVictimAtFill)
{
    Cache k("N:1:128:1,L:R:f:N:L,A:8:3,8");
    EXPECT_EQ(k.access(0 * 128, false, 1), CACHE_MISS);
    EXPECT_EQ(k.access(1 * 128, false, 2), CACHE_MISS); // 'm' would fail here (the way is reserved)
    EXPECT_LT(cache_probe(&k.c, 0, nullptr), 0);        // nothing allocated yet
    EXPECT_EQ(k.fill(0), std::vector<uint64_t>{1});
    EXPECT_GE(cache_probe(&k.c, 0, nullptr), 0);
    EXPECT_EQ(k.access(0, false, 3), CACHE_HIT);
    EXPECT_EQ(k.fill(128), std::vector<uint64_t>{2});
    EXPECT_LT(cache_probe(&k.c, 0, nullptr), 0);
    EXPECT_GE(cache_probe(&k.c, 128, nullptr), 0);
    EXPECT_EQ(k.c.st.evictions, 1u);
}

// ---- write policies ----

TEST(CacheCore, WriteEvict)
{
    Cache k("N:2:128:2,L:E:m:N:L,A:8:4,8");
    EXPECT_EQ(k.read_now(0), 'M');
    cache_result r;
    EXPECT_EQ(k.access(0, true, 77, 0, &r), CACHE_HIT);
    EXPECT_TRUE(r.write_sent);
    EXPECT_LT(cache_probe(&k.c, 0, nullptr), 0); // evicted on the write hit
    auto out = k.drain();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].kind, CACHE_OUT_WRITE);
    EXPECT_EQ(out[0].cookie, 77u);
    EXPECT_EQ(k.access(256, true, 78), CACHE_MISS); // no allocation on a write miss
    EXPECT_LT(cache_probe(&k.c, 256, nullptr), 0);
    EXPECT_EQ(cache_mshr_in_use(&k.c), 0);
    EXPECT_EQ(k.drain().size(), 1u);
    EXPECT_EQ(k.c.st.dirty_writebacks, 0u);
    EXPECT_EQ(k.c.st.writes_sent, 2u);
}

TEST(CacheCore, WriteBackFetchOnWrite)
{
    Cache k("N:1:128:1,L:B:m:F:L,A:8:4,8");
    cache_result r;
    EXPECT_EQ(k.access(0x40, true, 5, 0, &r), CACHE_MISS); // write miss: fetch the line, write waits
    EXPECT_TRUE(r.read_sent);
    EXPECT_FALSE(r.write_sent);
    auto out = k.drain();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].kind, CACHE_OUT_READ);
    EXPECT_EQ(k.fill(0), std::vector<uint64_t>{5});
    EXPECT_EQ(cache_line_at(&k.c, 0, 0)->dirty, 1);
    EXPECT_EQ(k.access(0, true, 6), CACHE_HIT); // write hit: nothing goes down
    EXPECT_FALSE(cache_needs_tick(&k.c));
    EXPECT_EQ(k.access(128, false, 7, 0, &r), CACHE_MISS); // evicts the dirty line
    EXPECT_TRUE(r.writeback_sent);
    EXPECT_EQ(r.n_out, 2);
    out = k.drain();
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].kind, CACHE_OUT_WRITEBACK);
    EXPECT_EQ(out[0].addr, 0u);
    EXPECT_EQ(out[1].kind, CACHE_OUT_READ);
    EXPECT_EQ(out[1].addr, 128u);
    EXPECT_EQ(k.c.st.dirty_writebacks, 1u);
    k.fill(128);
    EXPECT_EQ(k.access(256, false, 8), CACHE_MISS); // clean victim: no write-back
    EXPECT_EQ(k.drain().size(), 1u);
    EXPECT_EQ(k.c.st.dirty_writebacks, 1u);
    EXPECT_EQ(k.c.st.evictions, 2u);
}

TEST(CacheCore, WriteBackNeedsQueueRoomForTheWriteBack)
{
    Cache k("N:1:128:1,L:B:m:L:L,A:8:4,1"); // miss queue of one
    EXPECT_EQ(k.access(0, true, 1), CACHE_MISS); // lazy allocation: dirty, nothing queued
    EXPECT_FALSE(cache_needs_tick(&k.c));
    cache_result r;
    EXPECT_EQ(k.access(128, false, 2, 0, &r), CACHE_RESERVATION_FAIL); // write-back + read = 2 slots
    EXPECT_EQ(r.fail, CACHE_FAIL_MISS_QUEUE);
    EXPECT_GE(cache_probe(&k.c, 0, nullptr), 0);
    EXPECT_EQ(k.access(128, true, 3, 0, &r), CACHE_MISS); // write-back only: fits
    EXPECT_TRUE(r.writeback_sent);
    EXPECT_EQ(k.drain().size(), 1u);
}

TEST(CacheCore, WritePolicyLocalWriteBackGlobalEvict)
{
    Cache k("N:2:128:2,L:L:m:L:L,A:8:4,8");
    EXPECT_EQ(k.access(0, true, 1, 0, nullptr, 0, true), CACHE_MISS); // local: write-back, lazy alloc
    EXPECT_GE(cache_probe(&k.c, 0, nullptr), 0);
    EXPECT_FALSE(cache_needs_tick(&k.c));
    EXPECT_EQ(k.access(256, true, 2), CACHE_MISS); // global: write-around
    EXPECT_LT(cache_probe(&k.c, 256, nullptr), 0);
    EXPECT_EQ(k.drain().size(), 1u);
    cache_result r;
    EXPECT_EQ(k.access(0, true, 3, 0, &r), CACHE_HIT); // global write hit on the dirty line: evict
    EXPECT_TRUE(r.writeback_sent);
    auto out = k.drain();
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].kind, CACHE_OUT_WRITEBACK);
    EXPECT_EQ(out[1].kind, CACHE_OUT_WRITE);
    EXPECT_LT(cache_probe(&k.c, 0, nullptr), 0);
}

TEST(CacheCore, WriteThroughKeepsLineClean)
{
    Cache k("N:2:128:2,L:T:m:N:L,A:8:4,8");
    EXPECT_EQ(k.read_now(0), 'M');
    EXPECT_EQ(k.access(0, true, 1), CACHE_HIT);
    EXPECT_GE(cache_probe(&k.c, 0, nullptr), 0);
    EXPECT_EQ(cache_line_at(&k.c, 0, cache_probe(&k.c, 0, nullptr))->dirty, 0);
    EXPECT_EQ(k.drain().size(), 1u);
    EXPECT_EQ(k.access(256, true, 2), CACHE_MISS); // N: no allocation
    EXPECT_LT(cache_probe(&k.c, 256, nullptr), 0);
    Cache n("N:2:128:2,L:T:m:W:L,A:8:4,8");
    cache_result r;
    EXPECT_EQ(n.access(256, true, 2, 0, &r), CACHE_MISS); // W: write down + read of the line
    EXPECT_TRUE(r.write_sent && r.read_sent);
    EXPECT_EQ(n.drain().size(), 2u);
    EXPECT_EQ(n.fill(256), std::vector<uint64_t>{}); // the write did not wait
    EXPECT_GE(cache_probe(&n.c, 256, nullptr), 0);
}

TEST(CacheCore, WriteEvictOnPendingLineKeepsReservation)
{
    Cache k("S:1:128:1,L:E:m:N:L,A:8:4,8");
    EXPECT_EQ(k.access(0x00, false, 1, 0x1), CACHE_MISS);
    k.fill(0, 0x1);
    EXPECT_EQ(k.access(0x20, false, 2, 0x2), CACHE_MISS); // sector 1 reserved in the line
    EXPECT_EQ(k.access(0x00, true, 3, 0x1), CACHE_HIT);   // write-evict cannot drop a reserved line
    uint8_t valid = 0xFF;
    EXPECT_GE(cache_probe(&k.c, 0, &valid), 0);
    EXPECT_EQ(valid, 0); // the written sector is invalidated
    EXPECT_EQ(k.c.st.evictions, 0u);
    EXPECT_EQ(k.fill(0, 0x2), std::vector<uint64_t>{2});
    EXPECT_GE(cache_probe(&k.c, 0, &valid), 0);
    EXPECT_EQ(valid, 0x2);
    cache_result r;
    EXPECT_EQ(k.access(0x00, false, 4, 0x1, &r), CACHE_MISS);
    EXPECT_TRUE(r.sector_miss);
}

TEST(CacheCore, InvalidateAllKeepsReservedLines)
{
    Cache k("N:2:128:2,L:B:m:L:L,A:8:4,8");
    k.read_now(0);
    EXPECT_EQ(k.access(128, true, 1), CACHE_MISS); // dirty line
    EXPECT_EQ(k.access(256, false, 2), CACHE_MISS); // pending
    cache_invalidate_all(&k.c);
    EXPECT_LT(cache_probe(&k.c, 0, nullptr), 0);
    EXPECT_LT(cache_probe(&k.c, 128, nullptr), 0);
    EXPECT_GE(cache_probe(&k.c, 256, nullptr), 0); // still reserved for its fill
    EXPECT_EQ(k.c.st.dirty_writebacks, 0u);        // invalidation does not write back
    EXPECT_EQ(k.fill(256), std::vector<uint64_t>{2});
    EXPECT_EQ(k.access(256, false, 3), CACHE_HIT);
}

TEST(CacheCore, InitRejectsBadConfigsAndNormalCachesIgnoreSectorMask)
{
    cache_core c;
    gsim_cache_cfg none = cfg_of("none");
    EXPECT_EQ(cache_init(&c, &none), -1);
    gsim_cache_cfg bad = cfg_of("N:4:128:2,L:R:m:N:L,A:8:4,8");
    bad.line_size = 96;
    EXPECT_EQ(cache_init(&c, &bad), -1);
    Cache k("N:2:128:2,L:R:m:N:L,A:8:4,8");
    EXPECT_EQ(k.access(0x40, false, 1, 0x4), CACHE_MISS);
    EXPECT_EQ(k.drain()[0].sector_mask, 0x1); // one state bit per line
    EXPECT_EQ(k.fill(0, 0x2), std::vector<uint64_t>{1});
    EXPECT_EQ(k.access(0x00, false, 2, 0x1), CACHE_HIT);
    EXPECT_EQ(k.c.st.sector_fills, 1u);
}

// ---- sectors ----

TEST(CacheCore, SectoredPartialHits)
{
    Cache k("S:2:128:2,L:R:m:N:L,A:8:4,8");
    cache_result r;
    EXPECT_EQ(k.access(0x00, false, 1, 0x1, &r), CACHE_MISS);
    EXPECT_FALSE(r.sector_miss);
    auto out = k.drain();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].sector_mask, 0x1);
    EXPECT_EQ(k.fill(0, 0x1), std::vector<uint64_t>{1});
    EXPECT_EQ(k.access(0x10, false, 2, 0x1), CACHE_HIT);
    EXPECT_EQ(k.access(0x20, false, 3, 0x2, &r), CACHE_MISS); // tag present, sector absent
    EXPECT_TRUE(r.sector_miss);
    EXPECT_EQ(k.c.st.sector_misses, 1u);
    EXPECT_EQ(k.access(0x00, false, 4, 0x3), CACHE_HIT_RESERVED); // sector 0 valid, 1 pending
    EXPECT_EQ(k.access(0x40, false, 5, 0x6, &r), CACHE_MISS);     // 1 pending, 2 missing
    out = k.drain();
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].sector_mask, 0x2);
    EXPECT_EQ(out[1].sector_mask, 0x4);
    EXPECT_EQ(k.fill(0, 0x2), (std::vector<uint64_t>{3, 4})); // 5 still waits for sector 2
    EXPECT_EQ(k.fill(0, 0x4), std::vector<uint64_t>{5});
    EXPECT_EQ(cache_mshr_in_use(&k.c), 0);
    uint8_t valid = 0;
    EXPECT_GE(cache_probe(&k.c, 0, &valid), 0);
    EXPECT_EQ(valid, 0x7);
    EXPECT_EQ(k.c.st.sector_fills, 3u);
    EXPECT_EQ(k.access(0x60, false, 6, 0x8), CACHE_MISS);
    EXPECT_EQ(k.access(0x00, false, 7, 0xF), CACHE_HIT_RESERVED);
    EXPECT_EQ(k.fill(0, 0xF), (std::vector<uint64_t>{6, 7})); // extra sectors in a fill are ignored
    EXPECT_EQ(k.c.st.sector_fills, 4u);
}

TEST(CacheCore, SectoredWriteBackDirtyMask)
{
    Cache k("S:1:128:1,L:B:m:L:L,A:8:4,8");
    EXPECT_EQ(k.access(0x20, true, 1, 0x2), CACHE_MISS); // lazy: sector 1 valid and dirty
    EXPECT_EQ(k.access(0x20, false, 2, 0x2), CACHE_HIT);
    EXPECT_EQ(k.access(0x00, false, 3, 0x1), CACHE_MISS); // unwritten sector: fetch on read
    k.drain();
    k.fill(0, 0x1);
    EXPECT_EQ(k.access(0x80, false, 4, 0x1), CACHE_MISS);
    auto out = k.drain();
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].kind, CACHE_OUT_WRITEBACK);
    EXPECT_EQ(out[0].sector_mask, 0x2);
}

// ---- hooks ----

struct HookLog {
    std::vector<std::string> ev;
    bool bypass_next = false;
};

void on_hit(void *ctx, cache_line *l, int set, int way, const cache_req *)
{
    static_cast<HookLog *>(ctx)->ev.push_back("hit " + std::to_string(l->tag) + " " + std::to_string(set) + "/" +
                                              std::to_string(way) + " meta " + std::to_string(l->meta));
}
void on_fill(void *ctx, cache_line *l, int, int, uint8_t sectors)
{
    l->meta = 100 + (uint32_t)(l->tag / 128);
    static_cast<HookLog *>(ctx)->ev.push_back("fill " + std::to_string(l->tag) + " s" + std::to_string(sectors) +
                                              " pc " + std::to_string(l->owner_pc_hash));
}
void on_evict(void *ctx, const cache_line *l, int, int)
{
    static_cast<HookLog *>(ctx)->ev.push_back("evict " + std::to_string(l->tag) + " meta " + std::to_string(l->meta));
}
cache_alloc_decision alloc_hook(void *ctx, const cache_req *r)
{
    auto *h = static_cast<HookLog *>(ctx);
    h->ev.push_back("alloc? " + std::to_string(r->addr));
    bool b = h->bypass_next;
    h->bypass_next = false;
    return b ? CACHE_BYPASS : CACHE_ALLOCATE;
}

TEST(CacheCore, HooksSeeEvents)
{
    Cache k("N:1:128:1,L:R:m:N:L,A:8:4,8");
    HookLog log;
    cache_hooks h{&log, on_hit, on_fill, on_evict, alloc_hook, nullptr, nullptr};
    cache_set_hooks(&k.c, &h);
    EXPECT_EQ(k.access(0, false, 1, 0, nullptr, 21), CACHE_MISS);
    EXPECT_EQ(k.access(0, false, 2, 0, nullptr, 22), CACHE_HIT_RESERVED);
    k.fill(0);
    EXPECT_EQ(k.access(4, false, 3, 0, nullptr, 23), CACHE_HIT);
    EXPECT_EQ(cache_line_at(&k.c, 0, 0)->owner_pc_hash, 23u);
    log.bypass_next = true;
    cache_result r;
    EXPECT_EQ(k.access(128, false, 4, 0, &r, 24), CACHE_MISS);
    EXPECT_TRUE(r.bypassed);
    EXPECT_EQ(k.access(132, false, 5), CACHE_HIT_RESERVED); // merges into the bypassing MSHR
    EXPECT_EQ(k.fill(128), (std::vector<uint64_t>{4, 5}));
    EXPECT_GE(cache_probe(&k.c, 0, nullptr), 0); // bypassed: line 0 stays
    EXPECT_EQ(k.access(256, false, 6, 0, nullptr, 25), CACHE_MISS);
    k.fill(256);
    std::vector<std::string> want = {
        "alloc? 0",    "fill 0 s1 pc 22", "hit 0 0/0 meta 100", "alloc? 128",
        "alloc? 256",  "evict 0 meta 100", "fill 256 s1 pc 25",
    };
    EXPECT_EQ(log.ev, want);
    EXPECT_EQ(k.c.st.bypasses, 1u);
}

// A request that may not allocate (PCAL's token-less loads with -pcal_bypass_mshr 1) still takes an
// MSHR: a second read of the line merges into it, one read goes out, the fill wakes both and
// installs nothing.
TEST(CacheCore, NoAllocateReadsMergeInOneMshrAndInstallNothing)
{
    Cache k("N:1:128:1,L:L:m:N:L,A:8:4,8");
    cache_req q{};
    q.addr = 0;
    q.cookie = 1;
    q.no_allocate = 1;
    cache_result r;
    EXPECT_EQ(cache_access(&k.c, &q, &r), CACHE_MISS);
    EXPECT_TRUE(r.bypassed);
    q.addr = 64;
    q.cookie = 2;
    EXPECT_EQ(cache_access(&k.c, &q, &r), CACHE_HIT_RESERVED);
    std::vector<cache_out> out = k.drain();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].kind, CACHE_OUT_READ);
    EXPECT_EQ(k.fill(0), (std::vector<uint64_t>{1, 2}));
    EXPECT_LT(cache_probe(&k.c, 0, nullptr), 0);
    EXPECT_EQ(k.c.st.bypasses, 1u);
    EXPECT_EQ(k.c.st.hit_reserved, 1u);
}

// ---- randomized: immediate fills against a list-based reference (LRU or FIFO) ----

struct RefCache {
    int sets, ways;
    bool fifo;
    std::vector<std::list<std::pair<uint64_t, bool>>> s; // front = most recent; (line, dirty)
    RefCache(int sets_, int ways_, bool fifo_) : sets(sets_), ways(ways_), fifo(fifo_), s(sets_) {}
    // Returns hit; *wb = written-back line or ~0.
    bool access(int set, uint64_t line, bool write, uint64_t *wb)
    {
        *wb = ~0ull;
        auto &l = s[set];
        for (auto it = l.begin(); it != l.end(); ++it)
            if (it->first == line) {
                auto e = *it;
                e.second = e.second || write;
                if (fifo) {
                    it->second = e.second;
                } else {
                    l.erase(it);
                    l.push_front(e);
                }
                return true;
            }
        if ((int)l.size() == ways) {
            if (l.back().second) *wb = l.back().first;
            l.pop_back();
        }
        l.push_front({line, write});
        return false;
    }
};

void random_vs_reference(const char *text, int sets, int ways, bool fifo, uint32_t seed)
{
    Cache k(text);
    RefCache ref(sets, ways, fifo);
    std::mt19937 g(seed);
    int hits = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t line = g() % (uint64_t)(sets * ways * 3);
        uint64_t addr = line * 128 + g() % 128;
        bool write = g() % 4 == 0;
        uint64_t wb;
        bool ref_hit = ref.access(cache_set_index(&k.c, addr), line * 128, write, &wb);
        cache_result r;
        cache_status st = k.access(addr, write, i, 0, &r);
        ASSERT_EQ(st == CACHE_HIT, ref_hit) << "step " << i << " line " << line;
        ASSERT_NE(st, CACHE_RESERVATION_FAIL);
        auto out = k.drain();
        if (wb != ~0ull) {
            ASSERT_FALSE(out.empty()) << i;
            EXPECT_EQ(out[0].kind, CACHE_OUT_WRITEBACK);
            EXPECT_EQ(out[0].addr, wb) << i;
        } else {
            for (auto &o : out) {
                EXPECT_NE(o.kind, CACHE_OUT_WRITEBACK) << i;
            }
        }
        if (st == CACHE_MISS && !write) {
            ASSERT_EQ(k.fill(addr), std::vector<uint64_t>{(uint64_t)i});
        }
        hits += ref_hit;
    }
    EXPECT_GT(hits, 2000); // the run exercises both outcomes
    EXPECT_EQ(k.c.st.hits, (uint64_t)hits);
}

TEST(CacheCore, RandomAgainstLruReference)
{
    random_vs_reference("N:4:128:4,L:B:m:L:L,A:8:4,8", 4, 4, false, 1);
    random_vs_reference("N:8:128:2,L:B:m:L:P,A:8:4,8", 8, 2, false, 2);
    random_vs_reference("N:32:128:4,L:B:m:L:H,A:8:4,8", 32, 4, false, 3);
}

TEST(CacheCore, RandomAgainstFifoReference)
{
    random_vs_reference("N:4:128:4,F:B:m:L:L,A:8:4,8", 4, 4, true, 4);
    random_vs_reference("N:6:128:3,F:B:m:L:X,A:8:4,8", 6, 3, true, 5);
}

// ---- randomized: delayed fills; every accepted request wakes exactly once ----

TEST(CacheCore, RandomDelayedFillsWakeEveryRequestOnce)
{
    for (const char *text : {"S:4:128:4,L:B:m:F:P,A:6:3,4", "S:4:128:2,L:T:f:N:L,A:6:3,4",
                             "N:2:128:2,F:E:m:N:X,A:3:2,2"}) {
        Cache k(text);
        std::mt19937 g(7);
        std::set<uint64_t> waiting, done;
        std::vector<cache_out> in_flight;
        uint64_t next = 1;
        for (int step = 0; step < 20000; step++) {
            int op = g() % 3;
            if (op == 0 && !in_flight.empty()) {
                size_t j = g() % in_flight.size();
                cache_out o = in_flight[j];
                in_flight.erase(in_flight.begin() + j);
                for (uint64_t c : k.fill(o.addr, o.sector_mask)) {
                    ASSERT_EQ(waiting.erase(c), 1u) << text << " cookie " << c;
                    done.insert(c);
                }
            } else if (op == 1) {
                cache_out o;
                if (cache_out_pop(&k.c, &o) == 0 && o.kind == CACHE_OUT_READ) in_flight.push_back(o);
            } else {
                uint64_t addr = (g() % 24) * 128 + (g() % 4) * 32;
                uint8_t mask = (uint8_t)(1 + g() % 15);
                bool write = g() % 4 == 0;
                cache_result r;
                cache_status st = k.access(addr, write, next, mask, &r);
                if (st == CACHE_HIT_RESERVED || (st == CACHE_MISS && !write) ||
                    (st == CACHE_MISS && write && k.c.cfg.write_policy == 'B' && r.read_sent))
                    waiting.insert(next);
                next++;
            }
            ASSERT_LE(cache_mshr_in_use(&k.c), k.c.cfg.mshr_entries);
        }
        // Drain everything: every waiting request must wake.
        for (;;) {
            cache_out o;
            while (cache_out_pop(&k.c, &o) == 0)
                if (o.kind == CACHE_OUT_READ) in_flight.push_back(o);
            if (in_flight.empty()) break;
            cache_out o2 = in_flight.back();
            in_flight.pop_back();
            for (uint64_t c : k.fill(o2.addr, o2.sector_mask)) ASSERT_EQ(waiting.erase(c), 1u);
        }
        EXPECT_TRUE(waiting.empty()) << text << " " << waiting.size();
        EXPECT_EQ(cache_mshr_in_use(&k.c), 0) << text;
        EXPECT_GT(k.c.st.hit_reserved, 0u) << text;
        EXPECT_GT(k.c.st.res_fail[CACHE_FAIL_MSHR_ENTRY] + k.c.st.res_fail[CACHE_FAIL_MSHR_MERGE], 0u) << text;
    }
}

} // namespace
