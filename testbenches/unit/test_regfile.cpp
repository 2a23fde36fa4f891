// Register file as addressable storage (model/regfile, Linebacker spec §3.1): Eq. 2 register
// numbers in both Gap G1 variants, contiguous CTA allocation, LRN / SUR / DUR, the arbiter's bank
// conflicts between operand reads and non-operand accesses.
#include <gtest/gtest.h>

#include <cstdint>

extern "C" {
#include "regfile/regfile.h"
}

namespace {

// GTX980 SM: 65536 registers = 2048 warp registers of 128 B, 16 banks (Table 3 uses 24 banks,
// here the config's), 32 CTA slots, VTT 48 sets, 4-way VPs.
regfile_config gtx980(uint32_t vc_base = 512)
{
    regfile_config c{};
    c.n_regs = 2048;
    c.n_banks = 16;
    c.bank_use_warp_id = 0;
    c.n_cta_slots = 32;
    c.vc_base = vc_base;
    c.vtt_sets = 48;
    c.vp_ways = 4;
    return c;
}

struct Rf {
    regfile rf;
    explicit Rf(const regfile_config &c) { EXPECT_EQ(regfile_init(&rf, &c), 0); }
    ~Rf() { regfile_free(&rf); }
};

} // namespace

TEST(RegfileRn, Eq2ProposalBase512CoversRn512To2047)
{
    regfile_config c = gtx980(512);
    EXPECT_EQ(regfile_victim_rn(&c, 0, 0, 0), 512u);
    EXPECT_EQ(regfile_victim_rn(&c, 0, 47, 3), 703u);       // 512 + 4*47 + 3
    EXPECT_EQ(regfile_victim_rn(&c, 1, 0, 0), 704u);        // VP1 starts 192 later
    EXPECT_EQ(regfile_victim_rn(&c, 3, 10, 2), 512u + 576u + 40u + 2u);
    EXPECT_EQ(regfile_victim_rn(&c, 7, 47, 3), 2047u);      // the last warp register
    EXPECT_EQ(regfile_vp_first_rn(&c, 7), 1856u);
    EXPECT_EQ(regfile_victim_rn(&c, 8, 0, 0), REGFILE_NO_RN); // past the file
    EXPECT_EQ(regfile_victim_rn(&c, 0, 48, 0), REGFILE_NO_RN);
    EXPECT_EQ(regfile_victim_rn(&c, 0, 0, 4), REGFILE_NO_RN);
}

TEST(RegfileRn, Eq2VerbatimOffset511CoversRn511To2046)
{
    regfile_config c = gtx980(511);
    EXPECT_EQ(regfile_victim_rn(&c, 0, 0, 0), 511u);
    EXPECT_EQ(regfile_victim_rn(&c, 7, 47, 3), 2046u);
    EXPECT_EQ(regfile_vp_first_rn(&c, 2), 511u + 384u);
}

TEST(RegfileRn, WiderPartitionsChangeTheStride)
{
    regfile_config c = gtx980(512);
    c.vp_ways = 8; // 4 VPs of 48 x 8 = 384 entries
    EXPECT_EQ(regfile_victim_rn(&c, 1, 2, 5), 512u + 384u + 16u + 5u);
    EXPECT_EQ(regfile_victim_rn(&c, 3, 47, 7), 2047u);
}

TEST(RegfileAlloc, ContiguousBySlotWithLrnSurDur)
{
    Rf r(gtx980());
    // 256-thread CTA, 24 registers/thread: 8 warps x 24 = 192 warp registers; 8 resident CTAs.
    ASSERT_EQ(regfile_kernel_start(&r.rf, 192, 8), 0);
    EXPECT_EQ(regfile_sur(&r.rf), 2048u - 8u * 192u); // 512 statically unused
    EXPECT_EQ(regfile_lrn(&r.rf), 0u);                // the CTL's initial LRN
    for (uint32_t k = 0; k < 8; k++) ASSERT_EQ(regfile_alloc_cta(&r.rf, k), 0);
    EXPECT_EQ(regfile_frn(&r.rf, 0), 0u);
    EXPECT_EQ(regfile_frn(&r.rf, 5), 960u);
    EXPECT_EQ(regfile_lrn(&r.rf), 8u * 192u - 1u);    // 1535
    EXPECT_EQ(regfile_alloc_cta(&r.rf, 3), -1);       // already allocated
    EXPECT_EQ(regfile_alloc_cta(&r.rf, 8), -1);       // beyond the kernel's residency
    // Throttle the last CTA: its range becomes DUR and LRN drops to the previous CTA's end.
    ASSERT_EQ(regfile_set_cta_active(&r.rf, 7, 0), 0);
    EXPECT_EQ(regfile_dur(&r.rf), 192u);
    EXPECT_EQ(regfile_lrn(&r.rf), 7u * 192u - 1u);    // 1343
    ASSERT_EQ(regfile_set_cta_active(&r.rf, 7, 1), 0);
    EXPECT_EQ(regfile_dur(&r.rf), 0u);
    ASSERT_EQ(regfile_release_cta(&r.rf, 7), 0);
    EXPECT_EQ(regfile_release_cta(&r.rf, 7), -1);
    EXPECT_EQ(regfile_set_cta_active(&r.rf, 7, 0), -1); // not allocated
    EXPECT_EQ(regfile_lrn(&r.rf), 1343u);
}

TEST(RegfileAlloc, KernelThatDoesNotFitIsRefusedAndStateKept)
{
    Rf r(gtx980());
    ASSERT_EQ(regfile_kernel_start(&r.rf, 100, 4), 0);
    EXPECT_EQ(regfile_kernel_start(&r.rf, 1024, 3), -1); // 3072 > 2048
    EXPECT_EQ(regfile_kernel_start(&r.rf, 1, 33), -1);   // more CTAs than slots
    EXPECT_EQ(regfile_sur(&r.rf), 2048u - 400u);         // unchanged
}

TEST(RegfileArbiter, OperandConflictsFollowTheBaselineRule)
{
    Rf r(gtx980());
    uint32_t a[3] = {1, 17, 33}; // all bank 1 with base 0: three reads, two extra cycles
    EXPECT_EQ(regfile_operand_reads(&r.rf, 0, a, 3, 0, 10), 2u);
    uint32_t b[2] = {2, 3};      // banks 2 and 3, fresh in this cycle
    EXPECT_EQ(regfile_operand_reads(&r.rf, 1, b, 2, 0, 10), 0u);
    uint32_t c[2] = {0, UINT32_MAX}; // bank 1 via base 1 (4th read of bank 1 this cycle); no-reg skipped
    EXPECT_EQ(regfile_operand_reads(&r.rf, 2, c, 2, 1, 10), 3u);
    EXPECT_EQ(regfile_operand_reads(&r.rf, 2, c, 2, 1, 11), 0u); // a new cycle clears the banks
    EXPECT_EQ(r.rf.st.operand_conflict_cycles, 5u);
    EXPECT_EQ(r.rf.st.operand_reads, 7u);
}

TEST(RegfileArbiter, WarpIdShiftsTheBank)
{
    regfile_config c = gtx980();
    c.bank_use_warp_id = 1;
    Rf r(c);
    uint32_t a[1] = {1};
    EXPECT_EQ(regfile_operand_reads(&r.rf, 0, a, 1, 0, 5), 0u); // bank 1
    EXPECT_EQ(regfile_operand_reads(&r.rf, 1, a, 1, 0, 5), 0u); // bank 2
    EXPECT_EQ(regfile_operand_reads(&r.rf, 16, a, 1, 0, 5), 1u); // bank 17 % 16 = 1 again
}

TEST(RegfileArbiter, NonOperandAccessWaitsBehindOperandReadsOfItsBank)
{
    Rf r(gtx980());
    uint32_t a[2] = {4, 20}; // bank 4 twice
    EXPECT_EQ(regfile_operand_reads(&r.rf, 0, a, 2, 0, 7), 1u);
    EXPECT_EQ(regfile_nonop_access(&r.rf, 516, 0, 7), 2u); // RN 516 -> bank 4, third in line
    EXPECT_EQ(regfile_nonop_access(&r.rf, 517, 1, 7), 0u); // bank 5 is free
    EXPECT_EQ(regfile_nonop_access(&r.rf, 516, 1, 8), 0u); // next cycle
    EXPECT_EQ(r.rf.st.nonop_reads, 1u);
    EXPECT_EQ(r.rf.st.nonop_writes, 2u);
    EXPECT_EQ(r.rf.st.nonop_conflict_cycles, 2u);
}

TEST(RegfileArbiter, SingleBankNeverDelaysOperands)
{
    regfile_config c = gtx980();
    c.n_banks = 1;
    Rf r(c);
    uint32_t a[3] = {1, 2, 3};
    EXPECT_EQ(regfile_operand_reads(&r.rf, 0, a, 3, 0, 1), 0u);
}

TEST(RegfileInit, BadConfigurationsFail)
{
    regfile rf;
    regfile_config c = gtx980();
    c.n_banks = 0;
    EXPECT_EQ(regfile_init(&rf, &c), -1);
    EXPECT_EQ(regfile_init(&rf, nullptr), -1);
    regfile_free(&rf); // safe after a failed init
}
