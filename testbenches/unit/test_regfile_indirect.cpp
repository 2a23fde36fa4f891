// mov.indirect's second, serial register read in the operand collector (docs/morpheus.md, "The
// native Indirect-MOV"): the collector cycles it adds after the instruction's first reads, by hand.
// A bank serves port_reads reads a cycle; the first reads of an instruction go in collector cycle 0
// (and later ones when they conflict); the indexed register is requested `delay` cycles after the
// first reads end and waits while its bank still serves this cycle's reads.
#include <gtest/gtest.h>

#include <cstdint>

extern "C" {
#include "regfile/regfile.h"
}

namespace {

struct Rf {
    regfile rf;
    explicit Rf(uint32_t banks = 16, uint32_t ports = 1)
    {
        regfile_config c{};
        c.n_regs = 2048;
        c.n_banks = banks;
        c.port_reads = ports;
        c.n_cta_slots = 8;
        c.vc_base = 512;
        c.vtt_sets = 48;
        c.vp_ways = 4;
        EXPECT_EQ(regfile_init(&rf, &c), 0);
    }
    ~Rf() { regfile_free(&rf); }
    // The read form of mov.indirect by warp slot 0: index register idx, then the indexed ones.
    uint32_t imov(uint32_t idx, const uint32_t *reg, int n, uint32_t delay = 1, uint64_t cycle = 10)
    {
        uint32_t first = regfile_operand_reads(&rf, 0, &idx, 1, 0, cycle);
        return first + regfile_indirect_reads(&rf, 0, reg, n, 0, 1 + first, delay, cycle);
    }
};

} // namespace

// Index %r1 in bank 1, the indexed %r2 in bank 2: read 1 in cycle 0, read 2 in cycle 1 (serial).
TEST(RegfileIndirect, OtherBankCostsTheSerialCycle)
{
    Rf r;
    const uint32_t reg[] = {2};
    EXPECT_EQ(r.imov(1, reg, 1), 1u);
    EXPECT_EQ(r.rf.st.operand_reads, 2u); // one more RF read
    EXPECT_EQ(r.rf.st.indirect_reads, 1u);
    EXPECT_EQ(r.rf.st.indirect_conflict_cycles, 0u);
    EXPECT_EQ(r.rf.st.operand_conflict_cycles, 0u);
}

// The indexed %r17 shares bank 1 with the index: the index's read is over when the second read
// is requested, so it does not wait (the serial cycle only).
TEST(RegfileIndirect, FirstReadsBankIsFreeAgain)
{
    Rf r;
    const uint32_t reg[] = {17};
    EXPECT_EQ(r.imov(1, reg, 1), 1u);
    EXPECT_EQ(r.rf.st.indirect_conflict_cycles, 0u);
}

// Another warp read %r18 and %r34 (both bank 2) this cycle: bank 2 is busy in collector cycles 0
// and 1, so the indexed %r2 (bank 2) is read in cycle 2: 3 cycles, 1 of them waiting for the bank.
// With two reads a cycle per bank, bank 2 is free from cycle 1: no wait.
TEST(RegfileIndirect, WaitsForItsBanksQueuedReads)
{
    const uint32_t other[] = {18, 34}, reg[] = {2};
    {
        Rf r;
        EXPECT_EQ(regfile_operand_reads(&r.rf, 1, other, 2, 0, 10), 1u);
        EXPECT_EQ(r.imov(1, reg, 1), 2u);
        EXPECT_EQ(r.rf.st.indirect_conflict_cycles, 1u);
        EXPECT_EQ(r.rf.st.operand_reads, 4u);
    }
    {
        Rf r(16, 2);
        EXPECT_EQ(regfile_operand_reads(&r.rf, 1, other, 2, 0, 10), 0u);
        EXPECT_EQ(r.imov(1, reg, 1), 1u);
        EXPECT_EQ(r.rf.st.indirect_conflict_cycles, 0u);
    }
    { // a read of the previous cycle does not hold the bank
        Rf r;
        regfile_operand_reads(&r.rf, 1, other, 2, 0, 9);
        EXPECT_EQ(r.imov(1, reg, 1), 1u);
    }
}

// The first reads conflict (the write form's guard %r17 and index %r1 share bank 1: cycles 0 and
// 1); the second read of %r33 (bank 1, which this cycle's two reads kept busy through cycle 1) is
// requested in cycle 2 and served then: one cycle beyond the first reads' two.
TEST(RegfileIndirect, StartsAfterConflictingFirstReads)
{
    Rf r;
    const uint32_t first[] = {17, 1}, reg[] = {33};
    uint32_t extra = regfile_operand_reads(&r.rf, 0, first, 2, 0, 10);
    EXPECT_EQ(extra, 1u);
    EXPECT_EQ(regfile_indirect_reads(&r.rf, 0, reg, 1, 0, 1 + extra, 1, 10), 1u);
    EXPECT_EQ(r.rf.st.indirect_conflict_cycles, 0u);
}

// Lanes that index two registers: two serial reads (cycles 1 and 2); a longer delay (the index's
// RF latency) moves the second read to cycle `delay`; one bank never conflicts.
TEST(RegfileIndirect, DivergentIndexDelayAndOneBank)
{
    {
        Rf r;
        const uint32_t reg[] = {2, 3};
        EXPECT_EQ(r.imov(1, reg, 2), 2u);
        EXPECT_EQ(r.rf.st.indirect_reads, 2u);
    }
    {
        Rf r;
        const uint32_t reg[] = {2};
        EXPECT_EQ(r.imov(1, reg, 1, 3), 3u);
    }
    {
        Rf r(1);
        const uint32_t reg[] = {1};
        EXPECT_EQ(r.imov(1, reg, 1), 1u);
        EXPECT_EQ(r.rf.st.indirect_conflict_cycles, 0u);
        EXPECT_EQ(r.rf.st.operand_reads, 0u); // as the baseline counts with one bank
    }
}
