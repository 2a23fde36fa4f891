// Prefetch requests in the cache core: an MSHR without a waiter and a read down, dropped when the
// MSHRs are full, demand-into-prefetch merge, prefetch / demanded-since-fill bits and the
// useful / late-merged / evicted-unused / early-evicted counts.
#include <gtest/gtest.h>

#include <vector>

extern "C" {
#include "../../model/cache/cache_core.h"
}

namespace {

struct Pf {
    cache_core c;
    explicit Pf(const char *text)
    {
        gsim_cache_cfg cfg;
        char err[256];
        EXPECT_EQ(gsim_cache_cfg_parse(text, &cfg, err, sizeof err), 0) << err;
        EXPECT_EQ(cache_init(&c, &cfg), 0);
        EXPECT_EQ(cache_prefetch_enable(&c), 0);
    }
    ~Pf() { cache_free(&c); }
    cache_status read(uint64_t addr, uint64_t cookie = 7)
    {
        cache_req r{};
        r.addr = addr;
        r.cookie = cookie;
        return cache_access(&c, &r, nullptr);
    }
    std::vector<uint64_t> fill(uint64_t addr)
    {
        uint64_t buf[16];
        int n = cache_fill(&c, addr, 0, buf, 16);
        return n < 0 ? std::vector<uint64_t>{~0ull} : std::vector<uint64_t>(buf, buf + n);
    }
    int reads_down()
    {
        int n = 0;
        cache_out o;
        while (cache_out_pop(&c, &o) == 0) n += o.kind == CACHE_OUT_READ;
        return n;
    }
};

// 2 sets x 2 ways x 128 B, 2 MSHRs x 4 merges, miss queue 8
const char *kSmall = "N:2:128:2,L:L:m:N:L,A:2:4,8";

} // namespace

TEST(CachePrefetch, IssueMergeFillUseful)
{
    Pf p(kSmall);
    EXPECT_EQ(cache_prefetch(&p.c, 0x1000, 0), CACHE_MISS);
    EXPECT_EQ(p.reads_down(), 1);
    EXPECT_EQ(p.c.st.misses, 0u); // a prefetch is not a demand miss
    EXPECT_EQ(cache_prefetch(&p.c, 0x1010, 0), CACHE_HIT); // same line pending: redundant
    EXPECT_EQ(p.read(0x1004, 42), CACHE_HIT_RESERVED);    // demand merges into the prefetch MSHR
    EXPECT_EQ(p.reads_down(), 0);
    EXPECT_EQ(p.fill(0x1000), (std::vector<uint64_t>{42}));
    EXPECT_EQ(p.c.pf.late_merged, 1u);
    EXPECT_EQ(p.read(0x1000), CACHE_HIT);
    EXPECT_EQ(p.c.pf.useful, 0u); // already demanded (merged) before the fill
    EXPECT_EQ(p.c.pf.issued, 1u);
    EXPECT_EQ(p.c.pf.redundant, 1u);
}

TEST(CachePrefetch, FirstDemandHitCountsUsefulOnce)
{
    Pf p(kSmall);
    ASSERT_EQ(cache_prefetch(&p.c, 0x2000, 0), CACHE_MISS);
    EXPECT_TRUE(p.fill(0x2000).empty()); // nobody waits
    int way = cache_probe(&p.c, 0x2000, nullptr);
    ASSERT_GE(way, 0);
    const cache_line *l = cache_line_at(&p.c, cache_set_index(&p.c, 0x2000), way);
    EXPECT_EQ(l->prefetched, 1);
    EXPECT_EQ(l->demanded, 0);
    EXPECT_EQ(p.read(0x2000), CACHE_HIT);
    EXPECT_EQ(p.read(0x2040), CACHE_HIT);
    EXPECT_EQ(p.c.pf.useful, 1u);
    EXPECT_EQ(l->demanded, 1);
    EXPECT_EQ(cache_prefetch(&p.c, 0x2000, 0), CACHE_HIT); // present: redundant
}

TEST(CachePrefetch, DroppedWhenMshrsFull)
{
    Pf p(kSmall);
    EXPECT_EQ(p.read(0x0000), CACHE_MISS);
    EXPECT_EQ(p.read(0x0100), CACHE_MISS); // 2 MSHRs in use
    uint64_t fail_before = p.c.st.res_fail[CACHE_FAIL_MSHR_ENTRY];
    EXPECT_EQ(cache_prefetch(&p.c, 0x0200, 0), CACHE_RESERVATION_FAIL);
    EXPECT_EQ(p.c.pf.dropped, 1u);
    EXPECT_EQ(p.c.st.res_fail[CACHE_FAIL_MSHR_ENTRY], fail_before); // demand stats untouched
    EXPECT_EQ(p.reads_down(), 2);
}

TEST(CachePrefetch, EvictedUnusedThenDemandedIsEarlyEviction)
{
    Pf p(kSmall); // set = line index % 2 (linear): 0x000, 0x100, 0x200 share set 0
    ASSERT_EQ(cache_prefetch(&p.c, 0x000, 0), CACHE_MISS);
    p.fill(0x000);
    ASSERT_EQ(p.read(0x100), CACHE_MISS);
    p.fill(0x100);
    ASSERT_EQ(p.read(0x200), CACHE_MISS); // evicts the LRU line: the unused prefetch at 0x000
    p.fill(0x200);
    EXPECT_EQ(p.c.pf.evicted_unused, 1u);
    EXPECT_EQ(p.read(0x000), CACHE_MISS);
    EXPECT_EQ(p.c.pf.early_evicted, 1u);
    EXPECT_EQ(p.c.pf.useful, 0u);
}
