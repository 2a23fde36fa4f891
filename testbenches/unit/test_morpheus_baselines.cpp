// Morpheus' baselines and the controller's cost (model/llc/llc_baselines.h): hand-computed
// larger-LLC ways, Frequency-Boost percentages, Unified-SM-Mem L1D ways, the storage report of the
// document's 21 KiB per partition, and the dirty lines written back at the application's end.
#include <gtest/gtest.h>

#include "morpheus_fixture.h"

extern "C" {
#include "llc/bdi.h"
#include "llc/ext_llc.h"
#include "llc/llc_baselines.h"
}

namespace {

llc_config morpheus_defaults()
{
    llc_config c = morpheus_server_defaults();
    c.bloom_bits = 256;
    c.queue_depth = 32;
    c.wst_rows = 128;
    c.rbuf_entries = 8;
    c.wbuf_entries = 4;
    c.boost_gated_max = 44;
    return c;
}

// rtx3080-morpheus: 10 channels x 2 slices of 128 sets x 16 ways x 128 B (5 MiB).
gtlm_config rtx3080()
{
    gtlm_config g{};
    g.gpu.n_clusters = 68;
    g.gpu.cores_per_cluster = 1;
    g.gpu.n_mem = 10;
    g.gpu.sub_partitions_per_channel = 2;
    g.sm.registers = 65536;
    g.sm.max_regs_per_thread = 255;
    g.l2.dl2.nsets = 128;
    g.l2.dl2.line_size = 128;
    g.l2.dl2.assoc = 16;
    g.l1.dl1.nsets = 4;
    g.l1.dl1.line_size = 128;
    g.l1.dl1.assoc = 192;
    g.gpu.clocks = {1132, 1132, 1132, 4750};
    g.morpheus = morpheus_defaults();
    return g;
}

TEST(MorpheusBaselines, LargerLlcAddsTheCacheModeSmsCapacityAsWays)
{
    gtlm_config g = rtx3080();
    EXPECT_EQ(llc_ext_bytes_per_sm(&g.morpheus, 65536, 255), 328u * 1024);
    // Morpheus-ALL's p-bfs: 28 cache-mode SMs x 328 KiB = 9184 KiB over 20 slices of 16 KiB per way:
    // 28.7 -> 29 more ways, 45 in all (14.1 MiB of L2, the same 20 slices).
    g.morpheus.larger_llc_sms = 28;
    EXPECT_EQ(llc_larger_llc_ways(&g), 45);
    strbuf e;
    strbuf_init(&e);
    ASSERT_EQ(llc_baselines_apply(&g, &e), 0);
    EXPECT_EQ(g.l2.dl2.assoc, 45);
    EXPECT_EQ(g.l2.dl2.nsets, 128); // same sets, slices, latency
    EXPECT_EQ(g.gpu.clocks.l2_mhz, 1132);
    // 42 SMs (nw) would need 16 + 43 ways; 1 SM: 16.4 -> 16 + 1
    g = rtx3080();
    g.morpheus.larger_llc_sms = 1;
    EXPECT_EQ(llc_larger_llc_ways(&g), 17);
    strbuf_free(&e);
}

TEST(MorpheusBaselines, FrequencyBoostFollowsTheGatedSms)
{
    llc_config c = morpheus_defaults();
    c.freq_boost = -1; // the document's 10%..20% by gated cores (G17)
    EXPECT_DOUBLE_EQ(llc_freq_boost_pct(&c, 0), 10.0);
    EXPECT_DOUBLE_EQ(llc_freq_boost_pct(&c, 22), 15.0);
    EXPECT_DOUBLE_EQ(llc_freq_boost_pct(&c, 44), 20.0);
    EXPECT_DOUBLE_EQ(llc_freq_boost_pct(&c, 60), 20.0);
    c.freq_boost = 12.5;
    EXPECT_DOUBLE_EQ(llc_freq_boost_pct(&c, 44), 12.5);
    // Applied: IBL of spmv gates 26 SMs -> 10 + 10 x 26 / 44 = 15.91%, on icnt, L2 and DRAM only.
    gtlm_config g = rtx3080();
    g.morpheus.freq_boost = -1;
    g.morpheus.gated_sms = 26;
    strbuf e;
    strbuf_init(&e);
    ASSERT_EQ(llc_baselines_apply(&g, &e), 0) << strbuf_str(&e);
    double f = 1 + (10 + 10.0 * 26 / 44) / 100;
    EXPECT_DOUBLE_EQ(g.gpu.clocks.core_mhz, 1132);
    EXPECT_DOUBLE_EQ(g.gpu.clocks.icnt_mhz, 1132 * f);
    EXPECT_DOUBLE_EQ(g.gpu.clocks.l2_mhz, 1132 * f);
    EXPECT_DOUBLE_EQ(g.gpu.clocks.dram_mhz, 4750 * f);
    strbuf_free(&e);
}

TEST(MorpheusBaselines, UnifiedSmMemTurnsUnusedRegistersIntoL1Ways)
{
    gtlm_config g = rtx3080();
    g.morpheus.unified_sm_mem = 1;
    strbuf e;
    strbuf_init(&e);
    ASSERT_EQ(llc_baselines_apply(&g, &e), 0);
    // Built for the whole register file: 2048 warp registers x 128 B / (4 sets x 128 B) = 512 ways.
    EXPECT_EQ(g.morpheus.unified_base_ways, 192);
    EXPECT_EQ(g.l1.dl1.assoc, 192 + 512);
    // A kernel leaving 1000 warp registers unused: 1000 x 128 B = 250 ways of 512 B.
    EXPECT_EQ(llc_unified_l1_ways(&g.morpheus, &g.l1.dl1, 1000), 192 + 250);
    EXPECT_EQ(llc_unified_l1_ways(&g.morpheus, &g.l1.dl1, 0), 192);
    EXPECT_EQ(llc_unified_l1_ways(&g.morpheus, &g.l1.dl1, 3), 192); // less than a way
    strbuf_free(&e);
}

TEST(MorpheusBaselines, OffLeavesTheConfigurationAlone)
{
    gtlm_config g = rtx3080(), h = rtx3080();
    strbuf e;
    strbuf_init(&e);
    ASSERT_EQ(llc_baselines_apply(&g, &e), 0);
    EXPECT_EQ(g.l2.dl2.assoc, h.l2.dl2.assoc);
    EXPECT_EQ(g.l1.dl1.assoc, h.l1.dl1.assoc);
    EXPECT_EQ(g.gpu.clocks.dram_mhz, h.gpu.clocks.dram_mhz);
    strbuf_free(&e);
}

TEST(MorpheusBaselines, StorageReportMatchesTheDocumentsPartition)
{
    llc_config c = morpheus_defaults();
    llc_storage_bits s = llc_storage_report(&c, 68, 34);
    EXPECT_EQ(s.bloom, 2u * 256 * 128);       // 8 KiB per slice: 16 KiB per partition (§4.1.2)
    EXPECT_EQ(s.wst_row_bits, 27u + 7 + 1 + 2 + 1 + 4);
    EXPECT_EQ(s.wst, 128u * 42);
    EXPECT_EQ(s.queue, 32u * 128);
    EXPECT_EQ(s.rbuf, 8u * 1024);
    EXPECT_EQ(s.wbuf, 4u * 1024);
    EXPECT_EQ(s.total, s.bloom + s.wst + s.queue + s.rbuf + s.wbuf);
    // Query logic per two-slice partition: 2 x 21760 bits = 5.3 KiB (the document: 5 KiB); all: 21.3 KiB.
    double query_kib = 2.0 * static_cast<double>(s.wst + s.queue + s.rbuf + s.wbuf) / 8192;
    EXPECT_NEAR(query_kib, 5.31, 0.01);
    EXPECT_NEAR(2.0 * static_cast<double>(s.total) / 8192, 21.31, 0.01);
}

TEST(MorpheusBaselines, DirtyLinesLeftAtTheEndAreCounted)
{
    llc_config c = morpheus_defaults();
    c.storage = LLC_ST_L1;
    c.l1_kib = 1; // 8 blocks
    c.warps = 2;  // 4 ways per set
    ellc_server e;
    ASSERT_EQ(ellc_init(&e, &c, 1, 2048, 255, 1, 1000), 0);
    uint64_t t = 0;
    auto op = [&](int kind, uint64_t key, uint32_t set, uint8_t dirty = 0) {
        ellc_req r{};
        r.key = key;
        r.set = set;
        r.kind = static_cast<uint8_t>(kind);
        r.dirty = dirty;
        ASSERT_EQ(ellc_submit(&e, &r, t += 1000), 0);
        ellc_done d{};
        ASSERT_EQ(ellc_pop_done(&e, 0, ELLC_NEVER - 1, &d), 0);
    };
    for (uint64_t k : {1, 2, 3, 4}) op(ELLC_FILL, k, 0);
    EXPECT_EQ(ellc_dirty_lines(&e, 0), 0u);
    op(ELLC_WRITE, 2, 0);      // dirty
    op(ELLC_WRITE, 3, 0);      // dirty
    op(ELLC_WRITE, 3, 0);      // still one line
    op(ELLC_FILL, 9, 1, 1);    // an atomic's fill in the other set: dirty
    op(ELLC_WRITE, 77, 1);     // a write miss allocates nothing
    EXPECT_EQ(ellc_dirty_lines(&e, 0), 3u);
    op(ELLC_READ, 3, 0);
    op(ELLC_READ, 4, 0);
    op(ELLC_FILL, 5, 0);       // evicts 1 (LRU, clean)
    op(ELLC_FILL, 6, 0);       // evicts 2 (dirty: written back now, not at the end)
    EXPECT_EQ(ellc_dirty_lines(&e, 0), 2u);
    EXPECT_EQ(e.st[0].writebacks, 1u);
    ellc_free(&e);
}

} // namespace

// BDI compression (model/llc/bdi.h, ext_llc with -morpheus_compression): the levels of crafted
// blocks, and a set of 2 ways (256 bytes) holding 7 high-level blocks (36 bytes each), whose
// associativity (the Bloom swap threshold) follows what it holds.
namespace {

TEST(MorpheusBdi, LevelsOfCraftedBlocks)
{
    uint32_t w[32];
    for (int i = 0; i < 32; i++) w[i] = 1000000u + static_cast<uint32_t>(i); // deltas 0..31: 1 byte
    EXPECT_EQ(bdi_classify(reinterpret_cast<uint8_t *>(w), 128), BDI_HIGH);
    w[5] = 1000000u - 128; // delta -128 still fits a signed byte
    EXPECT_EQ(bdi_classify(reinterpret_cast<uint8_t *>(w), 128), BDI_HIGH);
    w[5] = 1000000u + 128; // 128 needs 2 bytes
    EXPECT_EQ(bdi_classify(reinterpret_cast<uint8_t *>(w), 128), BDI_LOW);
    w[9] = 1000000u - 32768; // the low level's edge
    EXPECT_EQ(bdi_classify(reinterpret_cast<uint8_t *>(w), 128), BDI_LOW);
    w[9] = 1000000u + 32768;
    EXPECT_EQ(bdi_classify(reinterpret_cast<uint8_t *>(w), 128), BDI_NONE);
    uint32_t z[32] = {0};
    EXPECT_EQ(bdi_classify(reinterpret_cast<uint8_t *>(z), 128), BDI_HIGH); // zeros
    EXPECT_EQ(bdi_bytes(BDI_HIGH, 128, 4), 36u);
    EXPECT_EQ(bdi_bytes(BDI_LOW, 128, 4), 68u);
    EXPECT_EQ(bdi_bytes(BDI_NONE, 128, 4), 128u);
}

TEST(MorpheusBdi, CompressedSetsHoldMoreBlocksAndEvictByLru)
{
    llc_config c = morpheus_defaults();
    c.storage = LLC_ST_L1;
    c.l1_kib = 1; // 8 blocks
    c.warps = 4;  // 2 ways (256 bytes) per set
    c.compression = 1;
    c.bdi_base_bytes = 4;
    c.svc_decomp_ns = 10;
    ellc_server e;
    ASSERT_EQ(ellc_init(&e, &c, 1, 2048, 255, 1, 1000), 0);
    EXPECT_EQ(e.sets[0].slots, 7u); // 256 / 36
    uint64_t t = 0;
    auto op = [&](int kind, uint64_t key, uint8_t size, uint8_t dirty = 0) {
        ellc_req r{};
        r.key = key;
        r.kind = static_cast<uint8_t>(kind);
        r.size = size;
        r.dirty = dirty;
        EXPECT_EQ(ellc_submit(&e, &r, t += 1000), 0);
        ellc_done d{};
        EXPECT_EQ(ellc_pop_done(&e, 0, ELLC_NEVER - 1, &d), 0);
        return d;
    };
    for (uint64_t k = 1; k <= 7; k++) EXPECT_EQ(op(ELLC_FILL, k, 36, k == 2).writeback, 0);
    EXPECT_EQ(ellc_assoc(&e, 0), 7u); // 7 x 36 = 252 of 256 bytes
    EXPECT_EQ(e.sets[0].used, 252u);
    // A fill service time: tag + move + store + the compression's 10 ns (1000 MHz: cycles = ns).
    ellc_done d = op(ELLC_READ, 3, 0);
    EXPECT_TRUE(d.hit);
    EXPECT_EQ(d.done - d.start, 103u + 31 + 51 + 10);
    // An uncompressed block (128 B) needs 124 more bytes: the 4 LRU blocks (1, 2 dirty, 4, 5) leave.
    d = op(ELLC_FILL, 8, 0);
    EXPECT_EQ(d.writeback, 1);
    EXPECT_EQ(d.victim[0], 2u);
    EXPECT_EQ(d.done - d.start, 103u + 31 + 51); // uncompressed: no decompression
    for (uint64_t k : {1, 2, 4, 5}) EXPECT_FALSE(ellc_resident(&e, 0, k)) << k;
    for (uint64_t k : {3, 6, 7, 8}) EXPECT_TRUE(ellc_resident(&e, 0, k)) << k;
    EXPECT_EQ(ellc_assoc(&e, 0), 4u);
    EXPECT_EQ(e.sets[0].used, 3u * 36 + 128);
    // A write that makes block 6 uncompressible grows it to 128 B: 7 (the LRU) leaves, then 3.
    d = op(ELLC_WRITE, 6, 128);
    EXPECT_TRUE(d.hit);
    EXPECT_FALSE(ellc_resident(&e, 0, 3));
    EXPECT_FALSE(ellc_resident(&e, 0, 7));
    EXPECT_EQ(ellc_assoc(&e, 0), 2u);
    EXPECT_EQ(e.sets[0].used, 256u);
    EXPECT_EQ(e.st[0].bdi_high, 7u);
    EXPECT_EQ(e.st[0].bdi_low, 0u);
    ellc_free(&e);
}

} // namespace
