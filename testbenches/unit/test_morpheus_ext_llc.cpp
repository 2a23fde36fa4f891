// The extended-LLC server model (model/llc/ext_llc.h): capacities of the storage variants (the
// document's 192 KiB RF and 328 KiB RF+L1 points), LRU with dirty write-backs, service times.
#include <gtest/gtest.h>

#include "morpheus_fixture.h"

extern "C" {
#include "llc/ext_llc.h"
}

namespace {

llc_config defaults() { return morpheus_server_defaults(); }

uint64_t capacity(const llc_config &c)
{
    ellc_server e;
    EXPECT_EQ(ellc_init(&e, &c, 1, 2048, 255, 1, 1000), 0);
    uint64_t b = ellc_capacity_bytes(&e, 0);
    ellc_free(&e);
    return b;
}

TEST(MorpheusExtLlc, CapacitiesOfTheStorageVariants)
{
    llc_config c = defaults();
    int unit = -1;
    EXPECT_EQ(ellc_ways(&c, 2048, 255, 0, &unit), 50u); // G12: 61 registers - 9 aux - 2 metadata
    EXPECT_EQ(unit, ELLC_UNIT_RF);
    EXPECT_EQ(ellc_ways(&c, 2048, 255, 40, &unit), 64u); // 128 KiB / 128 B / 16 L1 warps
    EXPECT_EQ(unit, ELLC_UNIT_L1);
    EXPECT_EQ(capacity(c), 328u * 1024);                 // the document's RF+L1 point
    c.storage = LLC_ST_RF;
    EXPECT_EQ(ellc_ways(&c, 2048, 255, 7, &unit), 32u);  // Fig. 8: 42 registers, 32 data
    EXPECT_EQ(capacity(c), 192u * 1024);                 // the document's RF, 48-warp point
    c.warps = 8;
    EXPECT_EQ(ellc_ways(&c, 2048, 255, 0, &unit), 238u); // 255 registers: 238 data + 8 metadata + 9 aux
    c = defaults();
    c.storage = LLC_ST_L1;
    EXPECT_EQ(ellc_ways(&c, 2048, 255, 3, &unit), 21u);
    c.storage = LLC_ST_SMEM;
    EXPECT_EQ(ellc_ways(&c, 2048, 255, 3, &unit), 16u);
    EXPECT_EQ(unit, ELLC_UNIT_SMEM);
}

struct Small {
    ellc_server e;
    Small()
    {
        llc_config c = defaults();
        c.storage = LLC_ST_L1;
        c.l1_kib = 1; // 8 blocks
        c.warps = 2;  // 4 ways per set
        EXPECT_EQ(ellc_init(&e, &c, 1, 2048, 255, 1, 1000), 0);
    }
    ~Small() { ellc_free(&e); }
    ellc_done op(int kind, uint64_t key, uint64_t arrive, uint8_t dirty = 0)
    {
        ellc_req r{};
        r.key = key;
        r.set = 0;
        r.kind = static_cast<uint8_t>(kind);
        r.dirty = dirty;
        EXPECT_EQ(ellc_submit(&e, &r, arrive), 0);
        ellc_done d{};
        EXPECT_EQ(ellc_pop_done(&e, 0, ELLC_NEVER - 1, &d), 0);
        return d;
    }
};

TEST(MorpheusExtLlc, LruVictimsAndDirtyWritebacks)
{
    Small s;
    uint64_t t = 0;
    for (uint64_t k : {1, 2, 3, 4}) EXPECT_FALSE(s.op(ELLC_FILL, k, t += 1000).writeback);
    EXPECT_TRUE(s.op(ELLC_READ, 1, t += 1000).hit);
    EXPECT_TRUE(s.op(ELLC_WRITE, 2, t += 1000).hit); // 2 dirty
    EXPECT_FALSE(s.op(ELLC_READ, 9, t += 1000).hit);
    EXPECT_FALSE(s.op(ELLC_FILL, 5, t += 1000).writeback); // evicts 3 (LRU, clean)
    EXPECT_FALSE(ellc_resident(&s.e, 0, 3));
    EXPECT_FALSE(s.op(ELLC_FILL, 6, t += 1000).writeback); // evicts 4
    EXPECT_FALSE(s.op(ELLC_FILL, 7, t += 1000).writeback); // evicts 1
    ellc_done d = s.op(ELLC_FILL, 8, t += 1000);           // evicts 2, dirty
    EXPECT_TRUE(d.writeback);
    EXPECT_EQ(d.victim[0], 2u);
    d = s.op(ELLC_FILL, 10, t += 1000, 1); // an atomic's dirty fill evicts 5 (clean) ...
    EXPECT_FALSE(d.writeback);
    EXPECT_FALSE(s.op(ELLC_FILL, 11, t += 1000).writeback);
    EXPECT_FALSE(s.op(ELLC_FILL, 12, t += 1000).writeback);
    EXPECT_FALSE(s.op(ELLC_FILL, 13, t += 1000).writeback); // evicts 8
    d = s.op(ELLC_FILL, 14, t += 1000); // ... and is written back when it leaves
    EXPECT_TRUE(d.writeback);
    EXPECT_EQ(d.victim[0], 10u);
    const ellc_sm_stats &st = s.e.st[0];
    EXPECT_EQ(st.writebacks, 2u);
    EXPECT_EQ(st.hits, 2u);
    EXPECT_EQ(st.misses, 1u);
    EXPECT_EQ(st.fills, 13u);
}

TEST(MorpheusExtLlc, ServiceTimesAndTheSetQueue)
{
    Small s; // 1000 MHz: tag 103, move 31, store 51 cycles
    ellc_done d = s.op(ELLC_FILL, 1, 100);
    EXPECT_EQ(d.done, 100u + 185);
    d = s.op(ELLC_READ, 1, 1000);
    EXPECT_EQ(d.done, 1000u + 185);
    d = s.op(ELLC_READ, 2, 2000);
    EXPECT_EQ(d.done, 2000u + 154); // a miss: tag lookup and result only
    // Two operations for one set: the second waits for the warp.
    ellc_req r{};
    r.key = 1;
    r.kind = ELLC_READ;
    ASSERT_EQ(ellc_submit(&s.e, &r, 3000), 0);
    ASSERT_EQ(ellc_submit(&s.e, &r, 3010), 0);
    EXPECT_EQ(ellc_next_done(&s.e, 0), 3185u);
    ellc_done a{}, b{};
    EXPECT_NE(ellc_pop_done(&s.e, 0, 3184, &a), 0);
    ASSERT_EQ(ellc_pop_done(&s.e, 0, 3185, &a), 0);
    ASSERT_EQ(ellc_pop_done(&s.e, 0, 4000, &b), 0);
    EXPECT_EQ(b.start, 3185u);
    EXPECT_EQ(b.done, 3185u + 185);
    EXPECT_EQ(s.e.st[0].queue_cycles, 175u);
    EXPECT_EQ(ellc_ns_to_cycles(185, 1132), 210u); // ceil(209.4)
}

} // namespace
