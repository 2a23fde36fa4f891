// GPGPU-Sim options modelled for issue 13's fidelity work, each with a hand-computed effect:
// -gpgpu_dram_partition_queues (the L2 slice's queue bounds), -gpgpu_memory_partition_indexing
// (the sub-partition of an address), the adaptive L1 carve-out (-gpgpu_adaptive_cache_config,
// -gpgpu_shmem_option, -gpgpu_unified_l1d_size) and the cache core's re-shaping under it.
#include <gtest/gtest.h>

#include "cache_cfg_fixture.h"

#include <cstring>

extern "C" {
#include "../../model/cache/l1_carveout.h"
#include "../../model/common/status.h"
#include "../../model/dram/dram_addr.h"
#include "../../model/l2/l2_slice.h"
#include "../../model/sm/coalescer.h"
}

namespace {

struct Slice {
    l2_slice s;
    Slice(int icnt_l2, int l2_dram, int l2_icnt)
    {
        l2_slice_params p{};
        p.dl2 = cfg_of("N:4:128:2,L:T:m:N:L,A:4:4,4:0,128"); // write-through: a write needs no MSHR
        p.rop_cycles = 10;
        p.icnt_l2_q = icnt_l2;
        p.l2_dram_q = l2_dram;
        p.l2_icnt_q = l2_icnt;
        EXPECT_EQ(l2_slice_init(&s, &p), 0);
    }
    ~Slice() { l2_slice_free(&s); }
    int push(uint64_t addr, uint64_t cookie, uint64_t cycle, int kind = L2_REQ_READ)
    {
        l2_req r{};
        r.addr = addr;
        r.cookie = cookie;
        r.bytes = 128;
        r.kind = (uint8_t)kind;
        return l2_slice_push(&s, &r, cycle);
    }
    void tick_to(uint64_t last)
    {
        for (uint64_t c = 0; c <= last; c++) l2_slice_tick(&s, c);
    }
};

} // namespace

TEST(GpgpuSimOptions, PartitionQueuesParseAsFourColonSeparatedSizes)
{
    static const gsim_list_limits lim = {4, 4, 1, 65536, ':'};
    gsim_int_list l{};
    char err[256] = "";
    ASSERT_EQ(gsim_parse_int_list(&lim, "64:32:16:8", &l, err, sizeof err), 0) << err;
    ASSERT_EQ(l.n, 4);
    EXPECT_EQ(l.v[0], 64);
    EXPECT_EQ(l.v[3], 8);
    char buf[64];
    gsim_format_int_list(&lim, &l, buf, sizeof buf);
    EXPECT_STREQ(buf, "64:32:16:8");
    EXPECT_NE(gsim_parse_int_list(&lim, "8,8,8,8", &l, err, sizeof err), 0) << "commas are not the separator";
    EXPECT_NE(std::strstr(err, "':'"), nullptr) << err;
    EXPECT_NE(gsim_parse_int_list(&lim, "8:8:8", &l, err, sizeof err), 0) << "four sizes";
    EXPECT_NE(gsim_parse_int_list(&lim, "8:0:8:8", &l, err, sizeof err), 0) << "each at least 1";
}

// icnt->L2: the ROP queue holds the ROP delay's 10 cycles of requests plus this many.
TEST(GpgpuSimOptions, PartitionQueueIcntToL2BoundsTheRopQueue)
{
    for (int q : {3, 64}) {
        Slice t(q, 8, 8);
        int taken = 0;
        for (int i = 0; i < 100; i++) taken += t.push(0x1000 + 128 * (uint64_t)i, (uint64_t)i + 1, 0) == 0;
        EXPECT_EQ(taken, 10 + q);
        EXPECT_EQ(t.s.st.rop_full, (uint64_t)(100 - 10 - q));
    }
    Slice d(0, 0, 0); // 0: GPGPU-Sim's default 8
    int taken = 0;
    for (int i = 0; i < 100; i++) taken += d.push(0x1000 + 128 * (uint64_t)i, (uint64_t)i + 1, 0) == 0;
    EXPECT_EQ(taken, 10 + L2_ROP_EXTRA);
}

// L2->DRAM: three misses (lookups at 10, 11, 12) and nobody drains the DRAM queue: with room for
// 2 the third miss stays in the miss queue; with 8 all three are in the DRAM queue by cycle 13.
TEST(GpgpuSimOptions, PartitionQueueL2ToDramBoundsTheDramQueue)
{
    for (int q : {2, 8}) {
        Slice t(8, q, 8);
        for (int i = 0; i < 3; i++) ASSERT_EQ(t.push(0x1000 + 128 * (uint64_t)i, (uint64_t)i + 1, 0), 0);
        t.tick_to(30);
        EXPECT_EQ(t.s.dram_n, q < 3 ? q : 3) << q;
        EXPECT_EQ(cache_out_count(&t.s.cache), q < 3 ? 3 - q : 0) << q;
        EXPECT_EQ(t.s.st.misses, 3u);
    }
}

// L2->icnt: writes are acknowledged once past the tag stage; with nobody popping responses the
// tag stage stops when the response queue holds this many.
TEST(GpgpuSimOptions, PartitionQueueL2ToIcntStopsTheTagStage)
{
    for (int q : {2, 5}) {
        Slice t(8, 8, q);
        for (int i = 0; i < 6; i++) ASSERT_EQ(t.push(0x1000 + 128 * (uint64_t)i, (uint64_t)i + 1, 0, L2_REQ_WRITE), 0);
        t.tick_to(100);
        EXPECT_EQ(t.s.rsp_n, q);
        EXPECT_EQ(t.s.rop_n, 6 - q);
    }
}

// QV100-like mapping with 4 channels x 2 sub-partitions: channel = (addr >> 8) mod 4, the bits
// above it ("upper") = addr >> 10, the sub-partition's bank bit = address bit 10.
TEST(GpgpuSimOptions, PartitionIndexingHashesTheSubPartition)
{
    const char *map = "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS";
    dram_addr_map m;
    char why[160] = "";
    ASSERT_EQ(dram_addr_map_init(&m, map, 4, 16, why, sizeof why), GTLM_ST_OK) << why;
    struct Case {
        uint64_t addr;
        uint32_t linear, xr, ipoly;
    };
    // 0x100: channel 1, bank 0, upper 0: s = 2 under every hash (IPOLY keeps indices < 8).
    // 0x400: channel 0, bank 1, upper 1: linear 1; XOR channel 0^1 -> 3; IPOLY (1<<3|1) mod
    //        (x^3+x+1) = 1001 ^ 1011 = 010 -> 2.
    // 0x1100: channel 1, bank 0, upper 4: linear 2; XOR 1^(4&3) -> 2; IPOLY 100010 mod 1011:
    //        100010 ^ 101100 = 001110, ^ 1011 = 0101 -> 5.
    const Case cases[] = {{0x100, 2, 2, 2}, {0x400, 1, 3, 2}, {0x1100, 2, 2, 5}};
    for (const Case &c : cases) EXPECT_EQ(dram_addr_subpartition(&m, 2, c.addr), c.linear) << std::hex << c.addr;
    ASSERT_EQ(dram_addr_set_partition_indexing(&m, DRAM_PART_XOR, 2, why, sizeof why), GTLM_ST_OK) << why;
    for (const Case &c : cases) EXPECT_EQ(dram_addr_subpartition(&m, 2, c.addr), c.xr) << std::hex << c.addr;
    ASSERT_EQ(dram_addr_set_partition_indexing(&m, DRAM_PART_IPOLY, 2, why, sizeof why), GTLM_ST_OK) << why;
    for (const Case &c : cases) EXPECT_EQ(dram_addr_subpartition(&m, 2, c.addr), c.ipoly) << std::hex << c.addr;
    // Every sub-partition is reached (IPOLY is a bijection on each block of 8 consecutive indices).
    unsigned seen = 0;
    for (uint64_t a = 0; a < 64 * 256; a += 256) seen |= 1u << dram_addr_subpartition(&m, 2, a);
    EXPECT_EQ(seen, 0xFFu);
    dram_addr_map six;
    ASSERT_EQ(dram_addr_map_init(&six, map, 6, 16, why, sizeof why), GTLM_ST_OK) << why;
    EXPECT_EQ(dram_addr_set_partition_indexing(&six, DRAM_PART_IPOLY, 2, why, sizeof why), GTLM_ST_ECONFIG);
    EXPECT_NE(std::strstr(why, "12"), nullptr) << why;
    EXPECT_EQ(dram_addr_set_partition_indexing(&six, DRAM_PART_XOR, 2, why, sizeof why), GTLM_ST_ECONFIG);
    EXPECT_EQ(dram_addr_set_partition_indexing(&six, 3, 2, why, sizeof why), GTLM_ST_ECONFIG);
}

// GPGPU-Sim's RANDOM (4): every 128-byte chunk (dramid@8 less one sub-partition bit) gets a
// pseudo-random one of the 8 sub-partitions; CUSTOM (5) is linear (GPGPU-Sim's hook is empty);
// PAE (3) has no implementation in GPGPU-Sim 4.2 and is refused. SM6_TITANX sets 4.
TEST(GpgpuSimOptions, RandomPartitionIndexingSpreadsChunksAndCustomIsLinear)
{
    const char *map = "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS";
    dram_addr_map lin, rnd, cus;
    char why[160] = "";
    for (dram_addr_map *m : {&lin, &rnd, &cus}) ASSERT_EQ(dram_addr_map_init(m, map, 4, 16, why, sizeof why), GTLM_ST_OK);
    ASSERT_EQ(dram_addr_set_partition_indexing(&rnd, DRAM_PART_RANDOM, 2, why, sizeof why), GTLM_ST_OK) << why;
    ASSERT_EQ(dram_addr_set_partition_indexing(&cus, DRAM_PART_CUSTOM, 2, why, sizeof why), GTLM_ST_OK) << why;
    EXPECT_EQ(dram_addr_set_partition_indexing(&lin, DRAM_PART_PAE, 2, why, sizeof why), GTLM_ST_ECONFIG);
    int count[8] = {0}, differ = 0, same_in_chunk = 1;
    const int chunks = 8192;
    for (uint64_t c = 0; c < (uint64_t)chunks; c++) {
        uint64_t a = c * 128;
        uint32_t s = dram_addr_subpartition(&rnd, 2, a);
        ASSERT_LT(s, 8u);
        count[s]++;
        same_in_chunk &= dram_addr_subpartition(&rnd, 2, a + 127) == s; // one slice per chunk
        differ += s != dram_addr_subpartition(&lin, 2, a);
        EXPECT_EQ(dram_addr_subpartition(&cus, 2, a), dram_addr_subpartition(&lin, 2, a));
    }
    EXPECT_TRUE(same_in_chunk);
    // Uniform: each slice within 10% of 8192 / 8 = 1024 chunks (a fixed hash: the counts are fixed).
    for (int s = 0; s < 8; s++) EXPECT_NEAR(count[s], chunks / 8, chunks / 80) << "slice " << s;
    // Not the linear map in disguise: a random map agrees with it on about 1/8 of the chunks.
    EXPECT_GT(differ, chunks * 3 / 4);
    // Deterministic: the same address gives the same slice in a second map.
    dram_addr_map again;
    ASSERT_EQ(dram_addr_map_init(&again, map, 4, 16, why, sizeof why), GTLM_ST_OK);
    ASSERT_EQ(dram_addr_set_partition_indexing(&again, DRAM_PART_RANDOM, 2, why, sizeof why), GTLM_ST_OK);
    for (uint64_t a = 0; a < 1u << 20; a += 4096) EXPECT_EQ(dram_addr_subpartition(&again, 2, a), dram_addr_subpartition(&rnd, 2, a));
}

// QV100: 4 sets x 128 B x 64 ways (32 KB) in a 128 KB unified array: 256 ways at most.
TEST(GpgpuSimOptions, AdaptiveCarveOutGivesTheL1DTheUnusedWays)
{
    l1_config c{};
    c.dl1 = cfg_of("S:4:128:64,L:T:m:L:L,A:512:8,16:0,32");
    c.unified_l1d_kb = 128;
    const int opts[] = {0, 8, 16, 32, 64, 96};
    c.shmem_options.n = 6;
    for (int i = 0; i < 6; i++) c.shmem_options.v[i] = opts[i];
    EXPECT_EQ(l1_carveout_dl1(&c, 0).assoc, 64) << "option off: -gpgpu_cache:dl1 as configured";
    c.adaptive_cache = 1;
    EXPECT_EQ(l1_carveout_max_ways(&c), 256);
    EXPECT_EQ(l1_carveout_dl1(&c, 0).assoc, 256);                 // 128 KB L1D
    EXPECT_EQ(l1_carveout_dl1(&c, 8 * 1024).assoc, 240);          // 256 x 120/128
    EXPECT_EQ(l1_carveout_dl1(&c, 10 * 1024).assoc, 224);         // the 16 KB entry: 256 x 112/128
    EXPECT_EQ(l1_carveout_dl1(&c, 96 * 1024).assoc, 64);          // 256 x 32/128
    EXPECT_EQ(l1_carveout_dl1(&c, 100 * 1024).assoc, 64);         // beyond every entry: the largest
    EXPECT_EQ(l1_carveout_dl1(&c, 0).nsets, 4);
    EXPECT_EQ(l1_carveout_dl1(&c, 0).alloc_policy, 'm');
    c.unified_l1d_kb = 100; // max 200 ways; 16 KB: 200 x 84/100 = 168; 8 KB: 200 x 92/100 = 184
    EXPECT_EQ(l1_carveout_dl1(&c, 16 * 1024).assoc, 168);
    EXPECT_EQ(l1_carveout_dl1(&c, 1).assoc, 184);
    c.unified_l1d_kb = 96; // the 96 KB entry leaves nothing: at least one way
    EXPECT_EQ(l1_carveout_dl1(&c, 96 * 1024).assoc, 1);
    c.unified_l1d_kb = 128;
    c.dl1 = cfg_of("S:4:128:64,L:T:s:L:L,A:512:8,16:0,32"); // streaming
    EXPECT_EQ(l1_carveout_dl1(&c, 0).alloc_policy, 'm');
    EXPECT_EQ(l1_carveout_dl1(&c, 1).alloc_policy, 'f');
}

// 1 set, allocated for 4 ways; LRU. Reads of lines 0, 1, 2 then 0 again: with 2 ways line 0 was
// evicted by line 2 (miss); with 4 ways it is still there (hit).
TEST(CacheCore, SetWaysReshapesAnIdleCache)
{
    gsim_cache_cfg cfg = cfg_of("N:1:128:4,L:R:m:N:L,A:4:4,8");
    cache_core c;
    ASSERT_EQ(cache_init(&c, &cfg), 0);
    auto read = [&](uint64_t line) {
        cache_req r{};
        r.addr = line * 128;
        cache_result res;
        cache_status s = cache_access(&c, &r, &res);
        if (s == CACHE_MISS) {
            cache_out o;
            while (cache_out_pop(&c, &o) == 0) {
            }
            uint64_t woken[8];
            cache_fill(&c, r.addr, 0, woken, 8);
        }
        return s == CACHE_HIT ? 'H' : 'M';
    };
    ASSERT_EQ(cache_set_ways(&c, 2, 'm'), 0);
    std::string seq;
    for (uint64_t l : {0, 1, 2, 0}) seq += read(l);
    EXPECT_EQ(seq, "MMMM");
    ASSERT_EQ(cache_set_ways(&c, 4, 'm'), 0);
    EXPECT_LT(cache_probe(&c, 0, nullptr), 0) << "re-shaping drops every line";
    seq.clear();
    for (uint64_t l : {0, 1, 2, 0}) seq += read(l);
    EXPECT_EQ(seq, "MMMH");
    EXPECT_EQ(cache_set_ways(&c, 5, 'm'), -1) << "more ways than allocated";
    EXPECT_EQ(cache_set_ways(&c, 0, 'm'), -1);
    cache_req r{};
    r.addr = 7 * 128;
    cache_result res;
    ASSERT_EQ(cache_access(&c, &r, &res), CACHE_MISS);
    EXPECT_EQ(cache_set_ways(&c, 2, 'm'), -1) << "an MSHR in use: not idle";
    EXPECT_EQ(c.assoc, 4);
    cache_free(&c);
}

// Lazy fetch-on-read write allocation (L) with the partial-sector rule: a store that writes 16 of
// sector 0's 32 bytes allocates the line but leaves sector 0 unreadable (the next read misses);
// a store that writes all of sector 1 makes it readable (the next read hits). Without the rule
// both hit.
TEST(CacheCore, PartlyWrittenSectorIsUnreadableUnderLazyFetch)
{
    for (int rule : {1, 0}) {
        gsim_cache_cfg cfg = cfg_of("S:4:128:4,L:T:m:L:L,A:8:8,8");
        cache_core c;
        ASSERT_EQ(cache_init(&c, &cfg), 0);
        cache_set_partial_unreadable(&c, rule);
        cache_result res;
        cache_req w{};
        w.addr = 0x1000;
        w.is_write = 1;
        w.sector_mask = 0x1;
        w.partial_mask = 0x1;
        EXPECT_EQ(cache_access(&c, &w, &res), CACHE_MISS);
        w.sector_mask = 0x2;
        w.partial_mask = 0;
        EXPECT_EQ(cache_access(&c, &w, &res), CACHE_HIT) << "the line is allocated: a write hit";
        cache_req r{};
        r.addr = 0x1000;
        r.sector_mask = 0x2;
        EXPECT_EQ(cache_access(&c, &r, &res), CACHE_HIT);
        r.sector_mask = 0x1;
        EXPECT_EQ(cache_access(&c, &r, &res), rule ? CACHE_MISS : CACHE_HIT) << "rule " << rule;
        cache_free(&c);
    }
}

// The coalescer's full-sector mask: 8 lanes x 4 bytes cover sector 0; 4 lanes x 4 bytes half of
// sector 1; a 16-byte access at byte 24 covers 8 bytes of sector 0 and 8 of sector 1.
TEST(GpgpuSimOptions, CoalescerMarksFullyWrittenSectors)
{
    uint64_t addr[COAL_LANES] = {};
    for (int l = 0; l < 8; l++) addr[l] = 0x1000 + 4 * (uint64_t)l;
    for (int l = 8; l < 12; l++) addr[l] = 0x1020 + 4 * (uint64_t)(l - 8);
    coal_result out;
    ASSERT_EQ(coal_coalesce(COAL_SECTORED, addr, 0xFFFu, 4, &out), 0);
    ASSERT_EQ(out.n, 2);
    EXPECT_EQ(out.req[0].full, 0x1);
    EXPECT_EQ(out.req[1].full, 0x0);
    ASSERT_EQ(coal_coalesce(COAL_FERMI, addr, 0xFFFu, 4, &out), 0);
    ASSERT_EQ(out.n, 1);
    EXPECT_EQ(out.req[0].sectors, 0x3);
    EXPECT_EQ(out.req[0].full, 0x1);
    uint64_t one[COAL_LANES] = {0x1018};
    ASSERT_EQ(coal_coalesce(COAL_SECTORED, one, 0x1u, 16, &out), 0);
    ASSERT_EQ(out.n, 2);
    EXPECT_EQ(out.req[0].full | out.req[1].full, 0);
}
