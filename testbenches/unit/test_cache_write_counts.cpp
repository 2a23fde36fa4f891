// How the cache core counts writes to a line whose tag is present (docs/gpgpusim-statistics.md):
// as GPGPU-Sim 4.2's probe does, by the written sector's state (valid or written: hit; pending:
// pending hit; neither: sector miss), while the write is handled as before (status HIT, the same
// messages down). Sequences on QV100's two lazy fetch-on-read caches (L1D write-through, L2
// write-back), each count by hand.
#include <gtest/gtest.h>

#include "cache_cfg_fixture.h"

extern "C" {
#include "../../model/cache/cache_core.h"
}

namespace {

struct Lazy {
    cache_core c;
    explicit Lazy(const char *text)
    {
        gsim_cache_cfg cfg = cfg_of(text);
        EXPECT_EQ(cache_init(&c, &cfg), 0) << text;
    }
    ~Lazy() { cache_free(&c); }
    // One access to sector `sector` of line 0x1000; *counted gets the outcome the counters took.
    cache_status go(int sector, bool write, cache_status *counted, uint8_t partial = 0)
    {
        cache_req r{};
        r.addr = 0x1000 + 32 * (uint64_t)sector;
        r.sector_mask = (uint8_t)(1u << sector);
        r.is_write = write;
        r.partial_mask = partial;
        cache_result res;
        cache_status st = cache_access(&c, &r, &res);
        *counted = (cache_status)res.stat_status;
        return st;
    }
    int drain()
    {
        int n = 0;
        cache_out o;
        while (cache_out_pop(&c, &o) == 0) n++;
        return n;
    }
};

// Read sector 0 (miss, filled), write sector 1 (sector miss), write it again (hit), read sector 3
// (a sector miss left pending), write sector 3 (pending hit), fill it, write sector 2 (sector miss).
void check_sequence(const char *cfg, bool write_through)
{
    Lazy k(cfg);
    cache_status counted;
    EXPECT_EQ(k.go(0, false, &counted), CACHE_MISS);
    k.drain();
    cache_fill(&k.c, 0x1000, 0x1, nullptr, 0);
    EXPECT_EQ(k.go(1, true, &counted), CACHE_HIT) << "served as a hit: the timing does not change";
    EXPECT_EQ(counted, CACHE_MISS) << "GPGPU-Sim's SECTOR_MISS";
    EXPECT_EQ(k.drain(), write_through ? 1 : 0) << "the write goes down as before";
    EXPECT_EQ(k.go(1, true, &counted), CACHE_HIT);
    EXPECT_EQ(counted, CACHE_HIT) << "the sector was written";
    EXPECT_EQ(k.go(3, false, &counted), CACHE_MISS);
    k.drain();
    cache_status st = k.go(3, true, &counted);
    EXPECT_EQ(counted, CACHE_HIT_RESERVED) << "the written sector is pending";
    EXPECT_EQ(st, write_through ? CACHE_HIT : CACHE_HIT_RESERVED);
    cache_fill(&k.c, 0x1000, 0x8, nullptr, 0);
    EXPECT_EQ(k.go(2, true, &counted), CACHE_HIT);
    EXPECT_EQ(counted, CACHE_MISS);
    const cache_stats &s = k.c.st;
    EXPECT_EQ(s.accesses, 6u);
    EXPECT_EQ(s.hits, 1u);
    EXPECT_EQ(s.hit_reserved, 1u);
    EXPECT_EQ(s.misses, 4u) << "the two read misses and the two writes to unwritten sectors";
    EXPECT_EQ(s.sector_misses, 3u);
    EXPECT_EQ(s.served_hits, write_through ? 4u : 3u) << "what the cache served as hits";
    EXPECT_EQ(s.hits + s.hit_reserved + s.misses, s.accesses);
}

TEST(CacheWriteCounts, StoreToUnwrittenSectorIsASectorMissInAWriteThroughLazyL1)
{
    check_sequence("S:4:128:4,L:T:m:L:L,A:8:8,8", true);
}

TEST(CacheWriteCounts, StoreToUnwrittenSectorIsASectorMissInAWriteBackLazyL2)
{
    check_sequence("S:4:128:4,L:B:m:L:L,A:8:8,8", false);
}

// A sector a store wrote in part (unreadable under the partial-sector rule) counts as written for
// the next store (GPGPU-Sim's MODIFIED: a write hit) while a read of it still misses.
TEST(CacheWriteCounts, PartlyWrittenSectorIsWrittenForTheNextStore)
{
    Lazy k("S:4:128:4,L:T:m:L:L,A:8:8,8");
    cache_set_partial_unreadable(&k.c, 1);
    cache_status counted;
    EXPECT_EQ(k.go(0, true, &counted, 0x1), CACHE_MISS) << "allocates the line, sector 0 unreadable";
    EXPECT_EQ(k.go(0, true, &counted, 0x1), CACHE_HIT);
    EXPECT_EQ(counted, CACHE_HIT);
    EXPECT_EQ(k.go(1, true, &counted), CACHE_HIT);
    EXPECT_EQ(counted, CACHE_MISS);
    EXPECT_EQ(k.go(0, false, &counted), CACHE_MISS) << "still unreadable";
    EXPECT_EQ(k.c.st.misses, 3u);
    EXPECT_EQ(k.c.st.sector_misses, 2u);
    EXPECT_EQ(k.c.st.hits, 1u);
}

// Write-evict (a write to a present line invalidates it): a write to an unwritten sector is a
// sector miss to GPGPU-Sim too; one to a valid sector a hit.
TEST(CacheWriteCounts, WriteEvictCountsByTheWrittenSector)
{
    Lazy k("S:4:128:4,L:E:m:N:L,A:8:8,8");
    cache_status counted;
    k.go(0, false, &counted);
    k.drain();
    cache_fill(&k.c, 0x1000, 0x1, nullptr, 0);
    EXPECT_EQ(k.go(1, true, &counted), CACHE_HIT);
    EXPECT_EQ(counted, CACHE_MISS);
    EXPECT_EQ(k.c.st.sector_misses, 1u);
    k.go(0, false, &counted);
    k.drain();
    cache_fill(&k.c, 0x1000, 0x1, nullptr, 0);
    EXPECT_EQ(k.go(0, true, &counted), CACHE_HIT);
    EXPECT_EQ(counted, CACHE_HIT);
}

} // namespace
