// Unit tests of CBWT's detectors: the L2 victim-bit contention detector (model/cbwt/lls_detector.h)
// counts exactly the early evictions of an access stream, and the NoC sampler
// (model/cbwt/noc_sampler.h) averages exactly the sampled packets' latencies.
#include <gtest/gtest.h>

#include <map>

extern "C" {
#include "../../model/cache/cache_core.h"
#include "../../model/cbwt/lls_detector.h"
#include "../../model/cbwt/noc_sampler.h"
}

namespace {

TEST(CbwtLls, HandCountedVictimBits)
{
    lls_detector d{};
    ASSERT_EQ(lls_init(&d, 512, 16, 64, 16, 1), 0);
    lls_on_fill(&d, 64, 2, 1ull << 3);  // core 3's miss filled line (64, 2)
    lls_on_hit(&d, 64, 2, 5);           // core 5: first request, no LLS
    lls_on_hit(&d, 64, 2, 3);           // core 3 again: early eviction 1
    lls_on_hit(&d, 65, 2, 3);           // set 65 is not sampled
    lls_on_hit(&d, 65, 2, 3);
    lls_on_evict(&d, 64, 2);            // the L2 lost it: bits cleared
    lls_on_miss(&d, 64, 3);
    lls_on_fill(&d, 64, 2, 1ull << 3);
    lls_on_hit(&d, 64, 2, 3);           // early eviction 2
    lls_on_hit(&d, 64, 2, 5);           // not early: the refill cleared core 5's bit
    EXPECT_EQ(d.lls, 2u);
    EXPECT_EQ(d.accesses, 5u);
    EXPECT_DOUBLE_EQ(lls_period(&d), 2.0 / 5.0);
    EXPECT_EQ(d.lls, 0u);
    EXPECT_EQ(d.lls_total, 2u);
    lls_free(&d);
    EXPECT_EQ(lls_init(&d, 512, 16, 64, 65, 1), -1); // 65 bits do not fit
    ASSERT_EQ(lls_init(&d, 512, 16, 64, 64, 4), 0);  // 4 L1s share a bit
    lls_on_hit(&d, 0, 0, 1);
    lls_on_hit(&d, 0, 0, 2); // same group as core 1
    EXPECT_EQ(d.lls, 1u);
    lls_free(&d);
}

// A real L1 (1 set, 2 ways, LRU) runs the stream; each L1 miss is a load to the L2, where every
// line stays resident in sampled set 0. Early evictions = L1 misses to lines this L1 fetched before.
TEST(CbwtLls, StreamWithKnownEarlyEvictions)
{
    gsim_cache_cfg cfg;
    char err[256];
    ASSERT_EQ(gsim_cache_cfg_parse("N:1:128:2,L:R:m:N:L,A:4:8,8", &cfg, err, sizeof err), 0) << err;
    cache_core l1;
    ASSERT_EQ(cache_init(&l1, &cfg), 0);
    lls_detector d{};
    ASSERT_EQ(lls_init(&d, 64, 16, 64, 16, 1), 0);
    std::map<uint64_t, int> l2_way;       // line -> way in L2 set 0
    std::map<uint64_t, bool> fetched;
    uint64_t early = 0, misses = 0;
    const uint64_t seq[] = {0, 128, 256, 0, 0, 128, 256, 128, 0, 256, 256, 0, 128};
    for (int rep = 0; rep < 3; rep++)
        for (uint64_t a : seq) {
            cache_req r{};
            r.addr = a;
            cache_result res;
            cache_status s = cache_access(&l1, &r, &res);
            if (s != CACHE_MISS) continue;
            misses++;
            early += fetched[a];
            fetched[a] = true;
            auto it = l2_way.find(a);
            if (it == l2_way.end()) {
                int w = (int)l2_way.size();
                l2_way[a] = w;
                lls_on_miss(&d, 0, 7);
                lls_on_fill(&d, 0, w, 1ull << 7);
            } else {
                lls_on_hit(&d, 0, it->second, 7);
            }
            cache_out o;
            while (cache_out_pop(&l1, &o) == 0) {}
            uint64_t woken[8];
            ASSERT_EQ(cache_fill(&l1, a, 0, woken, 8), 1);
        }
    EXPECT_GT(early, 10u); // the stream really thrashes
    EXPECT_EQ(d.lls, early);
    EXPECT_EQ(d.accesses, misses);
    lls_free(&d);
    cache_free(&l1);
}

TEST(CbwtNocSampler, AveragesSampledLatencies)
{
    noc_sampler s;
    ASSERT_EQ(noc_sampler_init(&s, 1, 1), 0);
    for (uint64_t lat : {10, 20, 33}) noc_sampler_record(&s, noc_sampler_pick(&s), lat, NOC_DIR_REQ, 0);
    EXPECT_DOUBLE_EQ(noc_sampler_period(&s, 0), 21.0);
    EXPECT_DOUBLE_EQ(noc_sampler_period(&s, 5.5), 5.5); // nothing sampled: keep the last value
    noc_sampler_free(&s);

    ASSERT_EQ(noc_sampler_init(&s, 16, 1), 0);
    uint64_t sum = 0, cnt = 0;
    for (uint64_t i = 0; i < 65535; i++) {
        int pick = noc_sampler_pick(&s);
        uint64_t lat = 7 + i % 13;
        if (pick) {
            sum += lat;
            cnt++;
        }
        noc_sampler_record(&s, pick, lat, NOC_DIR_RSP, 0);
    }
    // one LFSR period: the low 4 bits are zero in 2^12 - 1 of the 2^16 - 1 states
    EXPECT_EQ(cnt, 4095u);
    EXPECT_EQ(s.all_cnt, 65535u);
    EXPECT_DOUBLE_EQ(noc_sampler_period(&s, 0), (double)sum / (double)cnt);
    noc_sampler_free(&s);
    EXPECT_EQ(noc_sampler_init(&s, 12, 1), -1);
}

} // namespace
