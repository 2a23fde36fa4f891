// GPGPU-Sim configuration options gtlm models (docs/gpgpusim-options.md), each with a
// hand-computed effect on a hand-written kernel: clocks equal (timing_fixture.h), so cycle counts
// are exact arithmetic.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gtlm/gtlm.h"
#include "timing_fixture.h"

namespace {

double total(Sim &s, const char *name)
{
    double v = -1;
    EXPECT_EQ(gtlm_stat_get(s.sim, name, &v), GTLM_OK) << name;
    return v;
}

// -gpgpu_kernel_launch_latency L: every launch waits L core cycles before its first CTA; the rest
// of the kernel is unchanged, so each launch's cycles grow by exactly L. 250000 is longer than the
// watchdog's 100000 cycles without progress: the wait is not a stall.
TEST(GpgpuSimOptions, KernelLaunchLatencyAddsItsCyclesToEveryLaunch)
{
    uint64_t base = 0, base_load = 0;
    for (long lat : {0L, 777L, 250000L}) {
        Sim s({"-gpgpu_kernel_launch_latency", std::to_string(lat)});
        gtlm_devptr in = s.alloc(256, 7);
        unsigned twice = 1;
        for (int launch = 1; launch <= 2; launch++) {
            ASSERT_EQ(s.launch("loads", 1, 1, {&in, &twice}, {8, 4}), GTLM_OK) << gtlm_last_error();
            uint64_t cycles = static_cast<uint64_t>(s.stat("gpu_sim_cycle"));
            uint64_t load = static_cast<uint64_t>(s.stat("gpu.sm[0].load_latency_sum"));
            if (lat == 0 && launch == 1) {
                base = cycles;
                base_load = load;
            }
            // The second launch finds the line in L1 and L2 (warm caches), so only the first is
            // compared with the base run; both include the wait.
            if (launch == 1) {
                EXPECT_EQ(cycles, base + static_cast<uint64_t>(lat)) << "latency " << lat;
                EXPECT_EQ(load, base_load) << "latency " << lat;
            } else {
                EXPECT_GE(cycles, static_cast<uint64_t>(lat));
            }
        }
        EXPECT_GE(static_cast<uint64_t>(total(s, "gpu_tot_sim_cycle")), 2 * static_cast<uint64_t>(lat) + base);
    }
}

// Lane l (of 4) loads in[l * stride] twice; the second load depends on the first (so it hits in
// the L1) and lane 0 stores the clock cycles from just before it to just after its data arrived.
const char *kBankPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry bank_hits(.param .u64 out, .param .u64 in, .param .u32 stride)
{
    .reg .b64 %rd<10>;
    .reg .b32 %r<10>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [in];
    ld.param.u32 %r1, [stride];
    ld.param.u64 %rd9, [out];
    mov.u32 %r2, %tid.x;
    mul.lo.u32 %r3, %r2, %r1;
    mul.wide.u32 %rd2, %r3, 4;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r4, [%rd3];
    and.b32 %r5, %r4, 0;
    cvt.u64.u32 %rd4, %r5;
    add.s64 %rd5, %rd3, %rd4;
    mov.u64 %rd6, %clock64;
    ld.global.u32 %r6, [%rd5];
    add.u32 %r7, %r6, 1;
    mov.u64 %rd7, %clock64;
    setp.ne.u32 %p1, %r2, 0;
    @%p1 ret;
    sub.s64 %rd8, %rd7, %rd6;
    st.global.u64 [%rd9], %rd8;
    ret;
}
)";

struct BankRun {
    uint64_t cycles = 0;    // clock cycles around the hitting load
    double conflicts = -1;  // gpu.sm[0].ldst.l1_bank_conflicts (-1: not registered)
};

BankRun bank_run(unsigned stride_words, std::vector<std::string> ov)
{
    ov.insert(ov.end(), {"-gpgpu_l1_banks_byte_interleaving", "128"}); // a 128-byte line per bank
    Sim s(ov);
    gtlm_module *m = nullptr;
    EXPECT_EQ(gtlm_module_load_ptx(s.sim, kBankPtx, "banks", &m), GTLM_OK) << gtlm_last_error();
    gtlm_devptr out = s.alloc(8), in = s.alloc(4 * 4 * 1024, 0);
    const unsigned g[3] = {1, 1, 1}, b[3] = {4, 1, 1};
    const void *args[] = {&out, &in, &stride_words};
    const size_t sizes[] = {8, 8, 4};
    EXPECT_EQ(gtlm_launch(s.sim, m, "bank_hits", g, b, 0, args, sizes, 3), GTLM_OK) << gtlm_last_error();
    BankRun r;
    EXPECT_EQ(gtlm_memcpy_dtoh(s.sim, &r.cycles, out, 8), GTLM_OK);
    if (gtlm_stat_get(s.sim, "gpu.sm[0].ldst.l1_bank_conflicts", &r.conflicts) != GTLM_OK) r.conflicts = -1;
    return r;
}

// -gpgpu_l1_banks 4: four requests (four lines, one per lane) enter the L1 in one cycle when their
// banks differ, in four when they share one (three bank conflicts per instruction, each costing a
// cycle), exactly as one bank takes them. Lines 128 bytes apart are in consecutive banks, lines
// 512 bytes apart all in one bank (linear), or in four banks again with the XOR hash.
TEST(GpgpuSimOptions, L1BankConflictsCostACycleEach)
{
    BankRun one = bank_run(32, {});                                   // one bank: 4 cycles
    BankRun spread = bank_run(32, {"-gpgpu_l1_banks", "4"});          // 4 banks: 1 cycle
    BankRun same = bank_run(128, {"-gpgpu_l1_banks", "4"});           // 4 requests in bank b
    BankRun hashed = bank_run(128, {"-gpgpu_l1_banks", "4", "-gpgpu_l1_banks_hashing_function", "1"});
    EXPECT_EQ(one.cycles, spread.cycles + 3);
    EXPECT_EQ(same.cycles, one.cycles);
    EXPECT_EQ(hashed.cycles, spread.cycles);
    EXPECT_EQ(one.conflicts, -1);    // not registered with one bank: the baseline's statistics stay
    EXPECT_EQ(spread.conflicts, 0);
    EXPECT_EQ(same.conflicts, 2 * 3); // both loads of the instruction pair
    EXPECT_EQ(hashed.conflicts, 0);
}

} // namespace
