// APRES prefetchers: SAP's Fig. 9 example and stride-match gate, STR per-PC strides, SLD macro
// blocks, and Table II's 724-byte storage.
#include <gtest/gtest.h>

#include <random>
#include <vector>

extern "C" {
#include "prefetch/sap.h"
#include "prefetch/sld.h"
#include "prefetch/str.h"
}

TEST(Sap, Fig9Example)
{
    sap p;
    ASSERT_EQ(sap_init(&p, 10), 0);
    // PT entry for PC 200: warp 10, address 2800, stride 100 (trained by two earlier accesses)
    sap_train(&p, 200, 9, 2700);
    sap_train(&p, 200, 10, 2800);
    ASSERT_TRUE(p.pt[0].stride_valid);
    EXPECT_EQ(p.pt[0].stride, 100);
    // Warp 2 misses at 2000: (2000 - 2800) / (2 - 10) = 100 matches; group {1, 2, 3}
    const int64_t members[] = {1, 2, 3};
    sap_prefetch out[SAP_WQ];
    uint32_t n = sap_on_miss(&p, 200, 2, 2000, members, 3, out);
    ASSERT_EQ(n, 2u);
    EXPECT_EQ(out[0].warp, 1);
    EXPECT_EQ(out[0].addr, 1900u); // "2000 + (-1) x 100 = 1900"
    EXPECT_EQ(out[1].warp, 3);
    EXPECT_EQ(out[1].addr, 2100u);
    EXPECT_EQ(p.stride_matches, 1u);
}

TEST(Sap, ConstantInterWarpStrideGivesBasePlusDeltaWarpTimesStride)
{
    sap p;
    ASSERT_EQ(sap_init(&p, 10), 0);
    const uint64_t base = 0x10000, stride = 16384; // SRAD's stride in Table I's text
    for (int64_t w = 0; w < 4; w++) sap_train(&p, 0x250, w, base + (uint64_t)w * stride);
    std::vector<int64_t> members;
    for (int64_t w = 0; w < 48; w += 3) members.push_back(w);
    sap_prefetch out[SAP_WQ];
    uint64_t miss = base + 6 * stride;
    uint32_t n = sap_on_miss(&p, 0x250, 6, miss, members.data(), (uint32_t)members.size(), out);
    ASSERT_EQ(n, members.size() - 1);
    for (uint32_t i = 0; i < n; i++) EXPECT_EQ(out[i].addr, miss + (uint64_t)((out[i].warp - 6) * (int64_t)stride));
}

TEST(Sap, RandomAccessesNeverPassTheGate)
{
    sap p;
    ASSERT_EQ(sap_init(&p, 10), 0);
    std::mt19937_64 rng(7);
    const int64_t members[] = {0, 1, 2, 3, 4, 5, 6, 7};
    sap_prefetch out[SAP_WQ];
    uint64_t total = 0;
    for (int i = 0; i < 2000; i++) {
        int64_t w = (int64_t)(rng() % 48);
        uint64_t a = (rng() % (1u << 26)) * 128;
        total += sap_on_miss(&p, 0x300, w, a, members, 8, out);
        sap_train(&p, 0x300, w, a);
    }
    EXPECT_EQ(total, 0u);
    EXPECT_EQ(p.triggers, 2000u);
}

TEST(Sap, StrideChangeRetrainsAndNoEntryNoPrefetch)
{
    sap p;
    ASSERT_EQ(sap_init(&p, 2), 0);
    const int64_t members[] = {0, 1};
    sap_prefetch out[SAP_WQ];
    EXPECT_EQ(sap_on_miss(&p, 0x10, 0, 0, members, 2, out), 0u); // not in the PT
    sap_train(&p, 0x10, 0, 1000);
    sap_train(&p, 0x10, 2, 1256); // stride 128
    EXPECT_EQ(sap_on_miss(&p, 0x10, 3, 1256 + 256, members, 2, out), 0u); // stride 256: no match
    sap_train(&p, 0x10, 4, 1256 + 7); // 7 B over 2 warps: not divisible, invalid
    EXPECT_FALSE(p.pt[0].stride_valid);
    sap_train(&p, 0x20, 0, 0);
    sap_train(&p, 0x30, 0, 0); // LRU replaces 0x10
    EXPECT_EQ(sap_on_miss(&p, 0x10, 4, 2000, members, 2, out), 0u);
    EXPECT_EQ(sap_init(&p, 0), -1);
    EXPECT_EQ(sap_init(&p, SAP_PT_MAX + 1), -1);
}

TEST(Sap, TableIIStorage) { EXPECT_EQ(apres_storage_bytes(10, 48, 3), 724u); }

TEST(Str, PerPcStrideAfterTwoMatchingDeltas)
{
    str_pf p;
    ASSERT_EQ(str_init(&p, 10, 2, 1), 0);
    uint64_t out[STR_MAX_DEGREE];
    EXPECT_EQ(str_access(&p, 0x40, 1000, out), 0u);
    EXPECT_EQ(str_access(&p, 0x40, 1512, out), 0u); // first stride 512 learnt
    EXPECT_EQ(str_access(&p, 0x80, 77, out), 0u);   // another PC does not disturb 0x40
    ASSERT_EQ(str_access(&p, 0x40, 2024, out), 2u); // 512 confirmed
    EXPECT_EQ(out[0], 2536u);
    EXPECT_EQ(out[1], 3048u);
    EXPECT_EQ(str_access(&p, 0x40, 2024 - 100, out), 0u); // stride broken
    EXPECT_EQ(str_init(&p, 0, 1, 1), -1);
}

TEST(Sld, TwoOfFourLinesPrefetchTheRest)
{
    sld_pf p;
    ASSERT_EQ(sld_init(&p, 32, 128), 0);
    uint64_t out[SLD_LINES];
    EXPECT_EQ(sld_access(&p, 512 * 10 + 5, out), 0u);
    ASSERT_EQ(sld_access(&p, 512 * 10 + 3 * 128, out), 2u);
    EXPECT_EQ(out[0], 512u * 10 + 128);
    EXPECT_EQ(out[1], 512u * 10 + 256);
    EXPECT_EQ(sld_access(&p, 512 * 10 + 128, out), 0u); // fires once per block
    EXPECT_EQ(sld_access(&p, 512 * 11, out), 0u);
    EXPECT_EQ(sld_init(&p, 32, 100), -1);
}

// Energy accounting (Fig. 15): a PT lookup compares n_pt 32-bit tags and reads a 21-byte entry; a
// train writes the entry back; each prefetch reads a 1-byte WQ entry and writes an 8-byte DRQ one.
TEST(Sap, TableBitsCountThePtWqAndDrqAccesses)
{
    sap p;
    ASSERT_EQ(sap_init(&p, 10), 0);
    const uint64_t lookup = 10 * 32 + 168, train = lookup + 168;
    sap_train(&p, 200, 9, 2700);
    sap_train(&p, 200, 10, 2800);
    EXPECT_EQ(p.table_bits, 2 * train);
    const int64_t members[] = {1, 2, 3};
    sap_prefetch out[SAP_WQ];
    ASSERT_EQ(sap_on_miss(&p, 200, 2, 2000, members, 3, out), 2u);
    EXPECT_EQ(p.table_bits, 2 * train + lookup + 2 * (8 + 64));
}
