// Miss classification (model/cache/cache_miss_class.h) through the cache core: a hand-computed
// sequence on a direct-mapped cache (cold, conflict, capacity, write-evict and flush
// invalidations), sector-granular cold misses, and a random read stream against a list-based
// reference (a seen set and a fully-associative LRU list).
#include <gtest/gtest.h>

#include "cache_cfg_fixture.h"

#include <algorithm>
#include <list>
#include <random>
#include <set>
#include <string>

extern "C" {
#include "../../model/cache/cache_core.h"
#include "../../model/cache/cache_miss_class.h"
}

namespace {

struct Classified {
    cache_core c;
    explicit Classified(const char *text)
    {
        gsim_cache_cfg cfg = cfg_of(text);
        EXPECT_EQ(cache_init(&c, &cfg), 0) << text;
        EXPECT_EQ(cache_miss_classes_enable(&c), 0);
    }
    ~Classified() { cache_free(&c); }
    // A read of line n (sectors mask); a miss is filled at once. 'H' hit, 'M' miss.
    char read(uint64_t n, uint8_t mask = 0)
    {
        cache_req r{};
        r.addr = n * 128;
        r.sector_mask = mask;
        cache_status s = cache_access(&c, &r, nullptr);
        cache_out o;
        while (cache_out_pop(&c, &o) == 0) {
        }
        if (s == CACHE_MISS) {
            uint64_t woken[8];
            cache_fill(&c, n * 128, mask, woken, 8);
            return 'M';
        }
        return s == CACHE_HIT ? 'H' : '?';
    }
    void write(uint64_t n)
    {
        cache_req r{};
        r.addr = n * 128;
        r.is_write = 1;
        cache_access(&c, &r, nullptr);
        cache_out o;
        while (cache_out_pop(&c, &o) == 0) {
        }
    }
    std::string counts() const
    {
        const cache_miss_class *m = c.mclass;
        return "cold " + std::to_string(m->cold) + " capacity " + std::to_string(m->capacity) + " conflict " +
               std::to_string(m->conflict) + " invalidated " + std::to_string(m->invalidated);
    }
};

} // namespace

// Direct-mapped, 2 sets (line n -> set n % 2), write-evict; the shadow holds 2 lines (LRU).
TEST(CacheMissClass, HandComputedSequence)
{
    Classified k("N:2:128:1,L:E:m:N:L,A:4:4,8");
    std::string got;
    got += k.read(0); // cold                      real s0={0}        shadow [0]
    got += k.read(2); // cold                      s0={2}             [2 0]
    got += k.read(0); // shadow holds 0: conflict  s0={0}             [0 2]
    got += k.read(1); // cold                      s1={1}             [1 0] (2 leaves the shadow)
    got += k.read(2); // not in shadow: capacity   s0={2}             [2 1]
    got += k.read(1); // hit                                          [1 2]
    got += k.read(0); // capacity                  s0={0}             [0 1]
    EXPECT_EQ(k.counts(), "cold 3 capacity 2 conflict 1 invalidated 0");
    k.write(1);       // write-evict: line 1 leaves the cache and the shadow [0]
    got += k.read(1); // invalidated               s1={1}             [1 0]
    got += k.read(0); // hit                                          [0 1]
    cache_invalidate_all(&k.c); // kernel-boundary flush: the shadow empties too
    got += k.read(0); // invalidated (the flush took it)              [0]
    got += k.read(2); // 2 left the shadow by capacity (step 4): capacity
    EXPECT_EQ(got, "MMMMMHMMHMM");
    EXPECT_EQ(k.counts(), "cold 3 capacity 3 conflict 1 invalidated 2");
    EXPECT_EQ(k.c.st.misses, 9u); // the four classes add up to the read misses
}

// Sectored: a sector never read before is a cold miss even when its line was (a sector miss).
TEST(CacheMissClass, SectorsAreColdOnTheirFirstRead)
{
    Classified k("S:2:128:1,L:E:m:N:L,A:4:4,8");
    std::string got;
    got += k.read(0, 0x1); // cold
    got += k.read(0, 0x2); // sector miss, sector 1 never read: cold
    got += k.read(0, 0x1); // hit
    got += k.read(2, 0x1); // cold; line 0 leaves set 0
    got += k.read(0, 0x2); // the shadow (2 lines) still holds line 0's sector 1: conflict
    got += k.read(0, 0x4); // cold
    EXPECT_EQ(got, "MMHMMM");
    EXPECT_EQ(k.counts(), "cold 4 capacity 0 conflict 1 invalidated 0");
}

// Random reads on 4 sets x 2 ways against a reference: seen set and an 8-line LRU list.
TEST(CacheMissClass, RandomReadsMatchAListReference)
{
    Classified k("N:4:128:2,L:R:m:N:L,A:4:4,8");
    std::mt19937 rng(7);
    std::set<uint64_t> seen;
    std::list<uint64_t> lru; // front = most recent
    uint64_t cold = 0, capacity = 0, conflict = 0;
    for (int i = 0; i < 5000; i++) {
        uint64_t n = rng() % (i < 2500 ? 14 : 40);
        bool miss = k.read(n) == 'M';
        auto it = std::find(lru.begin(), lru.end(), n);
        if (miss) {
            if (!seen.count(n)) cold++;
            else if (it == lru.end()) capacity++;
            else conflict++;
        }
        seen.insert(n);
        if (it != lru.end()) lru.erase(it);
        lru.push_front(n);
        if (lru.size() > 8) lru.pop_back();
    }
    EXPECT_EQ(k.counts(), "cold " + std::to_string(cold) + " capacity " + std::to_string(capacity) + " conflict " +
                              std::to_string(conflict) + " invalidated 0");
    EXPECT_GT(capacity, 0u);
    EXPECT_GT(conflict, 0u);
    EXPECT_EQ(k.c.st.misses, cold + capacity + conflict);
}
