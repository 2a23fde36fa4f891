// The L2 bank's set index inside its sub-partition (-gtlm_dl2_partition_set_index, issue 13):
// GPGPU-Sim 4.2 indexes a sub-partition's L2 sets with the address whose channel and
// sub-partition bits are removed; hand-computed addresses, the slice's set, and why it matters.
#include <gtest/gtest.h>

#include "cache_cfg_fixture.h"

#include <set>

extern "C" {
#include "../../model/common/status.h"
#include "../../model/dram/dram_addr.h"
#include "../../model/l2/l2_slice.h"
}

namespace {

// SM7_QV100's mapping: channel-local bits 0-4 S, 5-7 C, 8 B, 9-11 C, 12-14 B, 15-27 R;
// dramid@8 with 32 channels puts the channel at bits 8-12, so the lowest bank bit (the
// sub-partition) is address bit 13.
const char *kQv100 = "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS";

} // namespace

TEST(GpgpuSimOptions, PartitionAddressDropsChannelAndSubPartitionBits)
{
    dram_addr_map m;
    char why[160] = "";
    ASSERT_EQ(dram_addr_map_init(&m, kQv100, 32, 16, why, sizeof why), GTLM_ST_OK) << why;
    // Bits 8..13 go: (a & 0xFF) | (a >> 14) << 8. 0x12345678 -> 0x48D1 << 8 | 0x78.
    EXPECT_EQ(dram_addr_partition_address(&m, 2, 0x12345678), 0x48D178u);
    // One sub-partition per channel: only the channel bits go: 0x91A2 << 8 | 0x78.
    EXPECT_EQ(dram_addr_partition_address(&m, 1, 0x12345678), 0x91A278u);
    // The partition hash changes which slice, not this address (GPGPU-Sim removes the linear bits).
    ASSERT_EQ(dram_addr_set_partition_indexing(&m, DRAM_PART_IPOLY, 2, why, sizeof why), GTLM_ST_OK) << why;
    EXPECT_EQ(dram_addr_partition_address(&m, 2, 0x12345678), 0x48D178u);

    // Explicit D bits (8-9, 4 channels) below the bank bits (10-11): bits 8, 9 and 10 go.
    dram_addr_map d;
    ASSERT_EQ(dram_addr_map_init(&d, "RRRRBBDDCCCSSSSS", 4, 4, why, sizeof why), GTLM_ST_OK) << why;
    EXPECT_EQ(dram_addr_partition_address(&d, 2, 0xF7A5), 0x1EA5u); // 0xA5 | (0xF7A5 >> 11) << 8
}

// The slice's cache indexes its sets with that address; tags still compare the whole line, so a
// line of another channel with the same in-partition address is a different line in the same set.
TEST(GpgpuSimOptions, L2SliceIndexesSetsInsideTheSubPartition)
{
    dram_addr_map m;
    char why[160] = "";
    ASSERT_EQ(dram_addr_map_init(&m, kQv100, 32, 16, why, sizeof why), GTLM_ST_OK) << why;
    l2_slice_params p{};
    p.dl2 = cfg_of("S:32:128:24,L:B:m:L:L,A:192:4,32:0,32"); // QV100's L2, linear set index
    p.partition_set_index = 1;
    p.part_map = &m;
    p.part_n_sub = 2;
    l2_slice on;
    ASSERT_EQ(l2_slice_init(&on, &p), 0);
    p.partition_set_index = 0;
    l2_slice off;
    ASSERT_EQ(l2_slice_init(&off, &p), 0);
    // 0x12345678: in-partition 0x48D178, set (0x48D178 >> 7) & 31 = 2; full address: 12.
    EXPECT_EQ(cache_set_index(&on.cache, 0x12345678), 2);
    EXPECT_EQ(cache_set_index(&off.cache, 0x12345678), 12);
    l2_slice_free(&on);
    l2_slice_free(&off);
}

// Why: with a linear index on the full address, the lines of one channel of a 24-channel GPU
// (titanv-volta's mapping, dramid@8, one slice per channel) reach a few of its 64 sets; inside
// the partition they reach all 64.
TEST(GpgpuSimOptions, PartitionSetIndexReachesEverySetOfAChannel)
{
    dram_addr_map m;
    char why[160] = "";
    const char *titanv = "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBBCCC.CCCSSSSS";
    ASSERT_EQ(dram_addr_map_init(&m, titanv, 24, 16, why, sizeof why), GTLM_ST_OK) << why;
    std::set<uint64_t> full, inside;
    for (uint64_t a = 0; a < (1u << 24); a += 128) {
        if (dram_addr_subpartition(&m, 1, a) != 0) continue;
        full.insert((a >> 7) & 63);
        inside.insert((dram_addr_partition_address(&m, 1, a) >> 7) & 63);
    }
    EXPECT_EQ(full.size(), 8u); // bit 7 and (24 q mod 32) >> 3 in {0, 1, 2, 3}: 2 x 4 sets
    EXPECT_EQ(inside.size(), 64u);
}

// -1 follows compat mode, which loads GPGPU-Sim's files; 0 and 1 (the default) force it.
TEST(GpgpuSimOptions, PartitionSetIndexMinusOneFollowsCompatMode)
{
    gtlm_config cfg{};
    cfg.l2.dl2 = cfg_of("S:32:128:24,L:B:m:L:L,A:192:4,32:0,32");
    cfg.gpu.sub_partitions_per_channel = 2;
    l2_slice_params p;
    const int cases[][3] = {{-1, 0, 0}, {-1, 1, 1}, {0, 1, 0}, {1, 0, 1}}; // option, compat, expected
    for (const auto &c : cases) {
        cfg.l2.dl2_partition_set_index = c[0];
        cfg.gpu.gpgpusim_compat = c[1];
        l2_slice_params_from_config(&cfg, &p);
        EXPECT_EQ(p.partition_set_index, c[2]) << c[0] << " " << c[1];
        EXPECT_EQ(p.part_n_sub, 2);
    }
}
