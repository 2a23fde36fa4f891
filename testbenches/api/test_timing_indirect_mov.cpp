// mov.indirect in the SM pipeline (docs/morpheus.md, "The native Indirect-MOV"), one warp on
// tiny.config (16 register banks, clocks equal): the clock64 span of the move and its dependent
// add, against a plain mov of the same register. The read form's second, serial register read
// adds -gtlm_indirect_mov_delay cycles whether the indexed register shares the index's bank or
// not (the index's read is over by then); the write form adds none, but its dependent add waits
// for the register it wrote, which is known only once the index was read.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gtlm/gtlm.h"
#include "timing_fixture.h"

namespace {

// %r1 = 1 (the index, slot 1: bank 1), %r17 = 7 (bank 1), %r18 = 9 (bank 2), %r2 = 0, all
// written (two adds read them) before the first clock: the timed move waits for nothing.
std::string span_kernel(const char *name, const char *move, const char *use)
{
    return std::string(".visible .entry ") + name + R"((.param .u64 out)
{
    .reg .b32 %r<20>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r2, 0;
    mov.u32 %r18, 9;
    mov.u32 %r1, 1;
    mov.u32 %r17, 7;
    add.u32 %r5, %r1, %r17;
    add.u32 %r6, %r18, %r2;
    mov.u64 %rd2, %clock64;
    )" + move + R"(
    )" + use + R"(
    mov.u64 %rd3, %clock64;
    sub.s64 %rd4, %rd3, %rd2;
    st.global.u64 [%rd1], %rd4;
    st.global.u32 [%rd1+8], %r4;
    ret;
}
)";
}

const std::string kHead = ".version 7.5\n.target sm_75\n.address_size 64\n";

struct ImovSim : Sim {
    explicit ImovSim(std::vector<std::string> ov = {}) : Sim(ov)
    {
        std::string ptx = kHead + span_kernel("plain", "mov.b32 %r3, %r17;", "add.u32 %r4, %r3, 1;") +
                          span_kernel("same_bank", "mov.indirect.b32 %r3, {%r2, %r17}[%r1];", "add.u32 %r4, %r3, 1;") +
                          span_kernel("other_bank", "mov.indirect.b32 %r3, {%r2, %r18}[%r1];", "add.u32 %r4, %r3, 1;") +
                          span_kernel("plain_write", "mov.b32 %r17, %r18;", "add.u32 %r4, %r17, 1;") +
                          span_kernel("write", "mov.indirect.b32 {%r2, %r17}[%r1], %r18;", "add.u32 %r4, %r17, 1;");
        if (sim) {
            EXPECT_EQ(gtlm_module_load_ptx(sim, ptx.c_str(), "imov", &mod), GTLM_OK) << gtlm_last_error();
        }
    }
    // A statistic summed over the SMs (successive launches start on different SMs).
    double sms(const char *name)
    {
        return sum(name, static_cast<int>(opt("-gpgpu_n_clusters") * opt("-gpgpu_n_cores_per_cluster")));
    }
    // The clock64 span and %r4 of one run of kernel k.
    std::pair<uint64_t, uint32_t> span(const char *k)
    {
        gtlm_devptr out = alloc(16);
        EXPECT_EQ(launch(k, 1, 32, {&out}, {8}), GTLM_OK) << gtlm_last_error();
        uint64_t v[2] = {0, 0};
        EXPECT_EQ(gtlm_memcpy_dtoh(sim, v, out, 16), GTLM_OK);
        return {v[0], static_cast<uint32_t>(v[1])};
    }
};

} // namespace

TEST(TimingIndirectMov, ReadFormAddsItsSerialReadInEitherBank)
{
    ImovSim s({"-gtlm_indirect_mov_stats", "1"});
    ASSERT_EQ(s.opt("-gpgpu_num_reg_banks"), 16);
    auto plain = s.span("plain"), same = s.span("same_bank"), other = s.span("other_bank");
    EXPECT_EQ(plain.second, 8u);
    EXPECT_EQ(same.second, 8u);  // %r17 + 1
    EXPECT_EQ(other.second, 10u); // %r18 + 1
    EXPECT_EQ(same.first, plain.first + 1);
    EXPECT_EQ(other.first, plain.first + 1);
    EXPECT_EQ(s.sms("gpu.sm[*].imov.insn"), 1);
    EXPECT_EQ(s.sms("gpu.sm[*].imov.reads"), 1);
    EXPECT_EQ(s.sms("gpu.sm[*].imov.conflict_cycles"), 0);
}

TEST(TimingIndirectMov, DelayOptionMovesTheSecondRead)
{
    ImovSim s({"-gtlm_indirect_mov_delay", "3"});
    EXPECT_EQ(s.span("other_bank").first, s.span("plain").first + 3);
}

TEST(TimingIndirectMov, WriteFormCostsAPlainMoveAndHoldsItsReader)
{
    ImovSim s({"-gtlm_indirect_mov_stats", "1"});
    auto plain = s.span("plain_write"), wr = s.span("write");
    EXPECT_EQ(plain.second, 10u);
    EXPECT_EQ(wr.second, 10u);
    EXPECT_EQ(wr.first, plain.first); // the add waited for the indexed %r17 as for a named one
    EXPECT_EQ(s.sms("gpu.sm[*].imov.writes"), 1);
    EXPECT_EQ(s.sms("gpu.sm[*].imov.reads"), 0);
}

// Without -gtlm_indirect_mov_stats the statistics are not there (the baseline's list stays).
TEST(TimingIndirectMov, StatisticsOnlyWhenAsked)
{
    ImovSim s;
    s.span("same_bank");
    double v = 0;
    EXPECT_NE(gtlm_stat_get_kernel(s.sim, "gpu.sm[0].imov.insn", &v), GTLM_OK);
}
