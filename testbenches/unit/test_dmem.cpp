// Device memory: allocation, bounds, paging across page boundaries, zero fill, release.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

extern "C" {
#include "mem/dmem.h"
}

namespace {

class Dmem : public ::testing::Test {
protected:
    void SetUp() override { dmem_init(&m); }
    void TearDown() override { dmem_free_all(&m); }
    dmem m;
};

TEST_F(Dmem, AllocationsAreAlignedDistinctAndZero)
{
    uint64_t a, b, z;
    ASSERT_EQ(dmem_alloc_bytes(&m, 1000, &a), 0);
    ASSERT_EQ(dmem_alloc_bytes(&m, 0, &z), 0);
    ASSERT_EQ(dmem_alloc_bytes(&m, 10, &b), 0);
    EXPECT_EQ(a % DMEM_ALIGN, 0u);
    EXPECT_EQ(b % DMEM_ALIGN, 0u);
    EXPECT_NE(a, 0u);
    EXPECT_GE(z, a + 1000);
    EXPECT_GT(b, z);
    std::vector<uint8_t> buf(1000, 0xAA);
    dmem_read(&m, a, buf.data(), buf.size());
    for (uint8_t v : buf) ASSERT_EQ(v, 0);
}

TEST_F(Dmem, BoundsAreExact)
{
    uint64_t a, b;
    ASSERT_EQ(dmem_alloc_bytes(&m, 100, &a), 0);
    ASSERT_EQ(dmem_alloc_bytes(&m, 100, &b), 0);
    EXPECT_TRUE(dmem_valid(&m, a, 100));
    EXPECT_TRUE(dmem_valid(&m, a + 96, 4));
    EXPECT_FALSE(dmem_valid(&m, a + 97, 4)) << "straddles the end";
    EXPECT_FALSE(dmem_valid(&m, a + 100, 1));
    EXPECT_FALSE(dmem_valid(&m, a - 1, 1));
    EXPECT_FALSE(dmem_valid(&m, a + 100, 0)) << "not inside any allocation";
    EXPECT_TRUE(dmem_valid(&m, b, 4));
    EXPECT_FALSE(dmem_valid(&m, 0, 4));
    EXPECT_EQ(dmem_find(&m, a + 50)->base, a);
    EXPECT_EQ(dmem_find(&m, b)->base, b);
}

TEST_F(Dmem, DataCrossesPagesIntact)
{
    uint64_t a;
    const uint64_t n = 3 * (1ull << DMEM_PAGE_BITS) + 123;
    ASSERT_EQ(dmem_alloc_bytes(&m, n, &a), 0);
    std::vector<uint8_t> in(n), out(n);
    for (uint64_t i = 0; i < n; i++) in[i] = static_cast<uint8_t>(i * 7 + 3);
    ASSERT_EQ(dmem_write(&m, a, in.data(), n), 0);
    dmem_read(&m, a, out.data(), n);
    EXPECT_EQ(in, out);
    ASSERT_EQ(dmem_fill(&m, a + 65530, 0x5A, 20), 0);
    uint8_t x[20];
    dmem_read(&m, a + 65530, x, 20);
    for (uint8_t v : x) EXPECT_EQ(v, 0x5A);
}

TEST_F(Dmem, ReleaseInvalidatesAndRejectsBadPointers)
{
    uint64_t a, b;
    ASSERT_EQ(dmem_alloc_bytes(&m, 64, &a), 0);
    ASSERT_EQ(dmem_alloc_bytes(&m, 64, &b), 0);
    uint32_t v = 0xDEADBEEF;
    ASSERT_EQ(dmem_write(&m, a, &v, 4), 0);
    EXPECT_NE(dmem_release(&m, a + 4), 0) << "not the base";
    EXPECT_EQ(dmem_release(&m, a), 0);
    EXPECT_NE(dmem_release(&m, a), 0) << "double free";
    EXPECT_FALSE(dmem_valid(&m, a, 4));
    EXPECT_TRUE(dmem_valid(&m, b, 4));
    EXPECT_EQ(m.live_bytes, 64u);
}

TEST_F(Dmem, ManyAllocationsStaySearchable)
{
    std::vector<uint64_t> p(5000);
    for (auto &x : p) ASSERT_EQ(dmem_alloc_bytes(&m, 8, &x), 0);
    for (size_t i = 0; i < p.size(); i += 97) {
        EXPECT_TRUE(dmem_valid(&m, p[i], 8));
        EXPECT_FALSE(dmem_valid(&m, p[i] + 8, 1));
    }
}

} // namespace
