// The Morpheus hit/miss predictor (model/llc/bloom_pred.h): never a false negative against an LRU
// set, over random and adversarial streams; the swap rule of Fig. 6(b); exact false-positive counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

extern "C" {
#include "llc/bloom_pred.h"
}

namespace {

// One LRU extended set (MRU at the back), driven as the controller drives it: predict, then the
// block is re-used (resident) or inserted (a miss is filled), and the predictor is updated.
struct LruSet {
    size_t assoc;
    std::vector<uint64_t> blocks;
    bool resident(uint64_t k) const { return std::find(blocks.begin(), blocks.end(), k) != blocks.end(); }
    void access(uint64_t k)
    {
        auto it = std::find(blocks.begin(), blocks.end(), k);
        if (it != blocks.end()) blocks.erase(it);
        else if (blocks.size() == assoc) blocks.erase(blocks.begin());
        blocks.push_back(k);
    }
};

struct Stream {
    uint64_t x;
    uint64_t next()
    {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    }
};

// Runs keys through n_sets sets (set = key % n_sets); returns the predictor's statistics.
bloom_stats drive(uint32_t assoc, uint32_t bits, uint32_t k, const std::vector<uint64_t> &keys, uint32_t n_sets = 4)
{
    bloom_pred p;
    EXPECT_EQ(bloom_init(&p, LLC_PRED_BLOOM, n_sets, bits, k, 1, 42), 0);
    std::vector<LruSet> sets(n_sets, LruSet{assoc, {}});
    for (uint64_t key : keys) {
        uint32_t s = static_cast<uint32_t>(key % n_sets);
        bool res = sets[s].resident(key);
        bloom_predict(&p, s, key, res); // aborts on a false negative (fn_fatal)
        sets[s].access(key);
        bloom_update(&p, s, key, assoc);
    }
    bloom_stats st = p.st;
    bloom_free(&p);
    return st;
}

TEST(MorpheusBloom, NoFalseNegativeOverRandomStreams)
{
    for (uint32_t assoc : {1u, 2u, 7u, 32u, 50u, 64u})
        for (uint32_t bits : {8u, 64u, 256u, 4096u})
            for (uint32_t k : {1u, 2u, 3u, 8u}) {
                Stream r{0x1234567u + assoc * 131u + bits + k};
                std::vector<uint64_t> keys;
                uint64_t space = 4ull * assoc * 4 + 3; // a footprint 4x the sets' capacity
                for (int i = 0; i < 20000; i++) keys.push_back(r.next() % space);
                bloom_stats st = drive(assoc, bits, k, keys);
                EXPECT_EQ(st.false_negatives, 0u) << assoc << " " << bits << " " << k;
                EXPECT_EQ(st.predictions, keys.size());
                EXPECT_GT(st.true_negatives + st.true_positives, 0u);
            }
}

TEST(MorpheusBloom, NoFalseNegativeOverAdversarialStreams)
{
    for (uint32_t assoc : {1u, 4u, 32u, 50u}) {
        std::vector<std::vector<uint64_t>> streams(5);
        for (int i = 0; i < 30000; i++) {
            streams[0].push_back(static_cast<uint64_t>(i % (assoc + 1)) * 4);        // LRU thrash, one set
            streams[1].push_back(i % 97 ? 8 : static_cast<uint64_t>(i) * 4);          // one hot block, rare new ones
            streams[2].push_back((static_cast<uint64_t>(i % (2 * assoc + 3)) << 20) * 4); // keys differing in high bits
            streams[3].push_back(static_cast<uint64_t>(1) << (i % 60));              // single-bit keys
            streams[4].push_back(i % 3 ? static_cast<uint64_t>(i % assoc) * 4 : static_cast<uint64_t>(i) * 4); // hot + scan
        }
        for (size_t s = 0; s < streams.size(); s++)
            for (uint32_t bits : {8u, 256u})
                for (uint32_t k : {1u, 2u, 4u}) {
                    bloom_stats st = drive(assoc, bits, k, streams[s]);
                    EXPECT_EQ(st.false_negatives, 0u) << "stream " << s << " assoc " << assoc;
                }
    }
}

TEST(MorpheusBloom, SwapWhenNDistinctBlocksReachTheAssociativity)
{
    bloom_pred p;
    ASSERT_EQ(bloom_init(&p, LLC_PRED_BLOOM, 1, 65536, 2, 1, 7), 0);
    const uint32_t assoc = 4;
    EXPECT_EQ(bloom_update(&p, 0, 100, assoc), 0);
    EXPECT_EQ(bloom_update(&p, 0, 100, assoc), 0); // re-use of a block BF2 holds: n unchanged
    EXPECT_EQ(bloom_update(&p, 0, 101, assoc), 0);
    EXPECT_EQ(bloom_update(&p, 0, 102, assoc), 0);
    EXPECT_EQ(p.n[0], 3u);
    EXPECT_EQ(bloom_update(&p, 0, 103, assoc), 1); // 4 distinct: clear BF1, swap
    EXPECT_EQ(p.n[0], 0u);
    EXPECT_EQ(p.st.swaps, 1u);
    for (uint64_t b = 100; b <= 103; b++) EXPECT_TRUE(bloom_bf1_has(&p, 0, b)) << b; // the new BF1 = the old BF2
    // The next four distinct blocks swap again, and the first four leave BF1.
    for (uint64_t b = 200; b < 203; b++) EXPECT_EQ(bloom_update(&p, 0, b, assoc), 0);
    EXPECT_TRUE(bloom_bf1_has(&p, 0, 100));
    EXPECT_EQ(bloom_update(&p, 0, 203, assoc), 1);
    for (uint64_t b = 100; b <= 103; b++) EXPECT_FALSE(bloom_bf1_has(&p, 0, b)) << b;
    for (uint64_t b = 200; b <= 203; b++) EXPECT_TRUE(bloom_bf1_has(&p, 0, b)) << b;
    // A pending fill enters BF1 only and does not count towards n.
    bloom_note_pending(&p, 0, 300);
    EXPECT_TRUE(bloom_bf1_has(&p, 0, 300));
    EXPECT_EQ(p.n[0], 0u);
    bloom_free(&p);
}

TEST(MorpheusBloom, ExactFalsePositivesOnACraftedStream)
{
    bloom_pred p;
    ASSERT_EQ(bloom_init(&p, LLC_PRED_BLOOM, 1, 256, 2, 1, 99), 0);
    const uint32_t assoc = 8;
    std::set<uint32_t> bits_a;
    for (uint64_t a = 1; a <= assoc; a++) {
        bloom_update(&p, 0, a * 1000, assoc); // the 8th swaps: BF1 = {A1..A8}, BF2 empty
        for (uint32_t i = 0; i < p.k; i++) bits_a.insert(bloom_hash(&p, i, a * 1000));
    }
    ASSERT_EQ(p.st.swaps, 1u);
    auto covered = [&](uint64_t key, const std::set<uint32_t> &bits) {
        for (uint32_t i = 0; i < p.k; i++)
            if (!bits.count(bloom_hash(&p, i, key))) return false;
        return true;
    };
    // Craft the queries: the first 5 absent keys whose both bits the A blocks set, and 7 that are not.
    std::vector<uint64_t> fp, tn;
    for (uint64_t x = 1; fp.size() < 5 || tn.size() < 7; x++) {
        uint64_t key = 1000000 + x;
        if (covered(key, bits_a)) {
            if (fp.size() < 5) fp.push_back(key);
        } else if (tn.size() < 7) {
            tn.push_back(key);
        }
    }
    for (uint64_t key : fp) EXPECT_EQ(bloom_predict(&p, 0, key, 0), 1);
    for (uint64_t key : tn) EXPECT_EQ(bloom_predict(&p, 0, key, 0), 0);
    for (uint64_t a = 1; a <= assoc; a++) EXPECT_EQ(bloom_predict(&p, 0, a * 1000, 1), 1);
    EXPECT_EQ(p.st.false_positives, 5u);
    EXPECT_EQ(p.st.true_negatives, 7u);
    EXPECT_EQ(p.st.true_positives, assoc);
    EXPECT_EQ(p.st.false_negatives, 0u);
    bloom_free(&p);
}

TEST(MorpheusBloom, NoneAndPerfectModes)
{
    bloom_pred p;
    ASSERT_EQ(bloom_init(&p, LLC_PRED_NONE, 2, 256, 2, 1, 1), 0);
    EXPECT_EQ(bloom_predict(&p, 1, 5, 0), 1);
    EXPECT_EQ(p.st.false_positives, 1u);
    bloom_free(&p);
    ASSERT_EQ(bloom_init(&p, LLC_PRED_PERFECT, 2, 256, 2, 1, 1), 0);
    EXPECT_EQ(bloom_predict(&p, 1, 5, 0), 0);
    EXPECT_EQ(bloom_predict(&p, 1, 5, 1), 1);
    EXPECT_EQ(p.st.true_negatives, 1u);
    EXPECT_EQ(p.st.true_positives, 1u);
    bloom_free(&p);
}

TEST(MorpheusBloomDeathTest, AFalseNegativeStopsTheRunLoudly)
{
    bloom_pred p;
    ASSERT_EQ(bloom_init(&p, LLC_PRED_BLOOM, 1, 256, 2, 1, 3), 0);
    bloom_update(&p, 0, 77, 4);
    bloom_clear_set(&p, 0); // break the invariant: the block stays resident, the filters forget it
    EXPECT_DEATH(bloom_predict(&p, 0, 77, 1), "FALSE NEGATIVE");
    p.fn_fatal = 0; // counted instead
    EXPECT_EQ(bloom_predict(&p, 0, 77, 1), 0);
    EXPECT_EQ(p.st.false_negatives, 1u);
    bloom_free(&p);
}

} // namespace
