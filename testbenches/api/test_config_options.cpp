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

// Lane 0 of each warp stores, at out[2 * warp], the cycles from before eight independent
// sin.approx (all reading f1) to after the last one issued, and at out[2 * warp + 1] the cycles of
// a chain of eight dependent add.u32 r2, r2, r4 (two sources two registers apart).
const char *kSubCorePtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry sub_cores(.param .u64 out)
{
    .reg .b64 %rd<12>;
    .reg .b32 %r<12>;
    .reg .f32 %f<12>;
    .reg .pred %p<2>;
    mov.u32 %r1, %tid.x;
    cvt.rn.f32.u32 %f1, %r1;
    mov.u32 %r2, 3;
    mov.u32 %r4, 5;
    add.f32 %f10, %f1, 1.0;
    add.u32 %r6, %r2, %r4;
    mov.u64 %rd1, %clock64;
    sin.approx.f32 %f2, %f1;
    sin.approx.f32 %f3, %f1;
    sin.approx.f32 %f4, %f1;
    sin.approx.f32 %f5, %f1;
    sin.approx.f32 %f6, %f1;
    sin.approx.f32 %f7, %f1;
    sin.approx.f32 %f8, %f1;
    sin.approx.f32 %f9, %f1;
    mov.u64 %rd2, %clock64;
    mov.u64 %rd3, %clock64;
    add.u32 %r2, %r2, %r4;
    add.u32 %r2, %r2, %r4;
    add.u32 %r2, %r2, %r4;
    add.u32 %r2, %r2, %r4;
    add.u32 %r2, %r2, %r4;
    add.u32 %r2, %r2, %r4;
    add.u32 %r2, %r2, %r4;
    add.u32 %r2, %r2, %r4;
    mov.u32 %r7, %r2;
    mov.u64 %rd4, %clock64;
    and.b32 %r8, %r1, 31;
    setp.ne.u32 %p1, %r8, 0;
    @%p1 ret;
    ld.param.u64 %rd5, [out];
    shr.u32 %r9, %r1, 5;
    mul.wide.u32 %rd6, %r9, 16;
    add.s64 %rd7, %rd5, %rd6;
    sub.s64 %rd8, %rd2, %rd1;
    sub.s64 %rd9, %rd4, %rd3;
    st.global.u64 [%rd7], %rd8;
    st.global.u64 [%rd7+8], %rd9;
    ret;
}
)";

// Two warps (slots 0 and 1: schedulers 0 and 1 of 4) run sub_cores; returns {sin cycles, add-chain
// cycles} per warp.
std::vector<uint64_t> sub_core_run(const char *sub_core, const char *ports = "1")
{
    Sim s({"-gpgpu_num_sched_per_core", "4", "-gpgpu_num_sfu_units", "4", "-gpgpu_num_sp_units", "4",
           "-gpgpu_num_reg_banks", "8", "-ptx_opcode_initiation_sfu", "8", "-gpgpu_sub_core_model", sub_core,
           "-gpgpu_reg_file_port_throughput", ports});
    gtlm_module *m = nullptr;
    EXPECT_EQ(gtlm_module_load_ptx(s.sim, kSubCorePtx, "sub_cores", &m), GTLM_OK) << gtlm_last_error();
    gtlm_devptr out = s.alloc(32);
    const unsigned g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
    const void *args[] = {&out};
    const size_t sizes[] = {8};
    EXPECT_EQ(gtlm_launch(s.sim, m, "sub_cores", g, b, 0, args, sizes, 1), GTLM_OK) << gtlm_last_error();
    std::vector<uint64_t> t(4);
    EXPECT_EQ(gtlm_memcpy_dtoh(s.sim, t.data(), out, 32), GTLM_OK);
    return t;
}

// -gpgpu_sub_core_model 1: a warp issues only to its scheduler's own SFU (one of four) and reads
// its registers from its scheduler's 2 of the 8 banks.
//  - Eight independent sin.approx with initiation interval 8: on the SM's four SFUs they issue in
//    cycles 1, 2, 3, 4, 9, 10, 11, 12 after the first clock read (the clock read after them: 13);
//    on the warp's own SFU in cycles 1, 9, ..., 57 (clock: 58). Warp 1, on scheduler 1, has an SFU
//    of its own, so it takes 58 cycles too, not longer. (With one warp alone the shared SFUs would
//    give 13; with both warps sharing them, 27.)
//  - add r2, r2, r4: banks r mod 8 differ (2, 4), banks r mod 2 coincide: one extra read cycle per
//    add, eight in the chain.
TEST(GpgpuSimOptions, SubCoreModelBindsAWarpToItsSchedulersUnitsAndBanks)
{
    std::vector<uint64_t> shared = sub_core_run("0"), sub = sub_core_run("1");
    EXPECT_EQ(sub[0], 58u);
    EXPECT_EQ(sub[2], 58u);
    // Shared: both warps issue a sin in the same cycles (scheduler 0 picks first), two of the four
    // SFUs each, so each warp's sins go in cycles 1, 2, 9, 10, 17, 18, 25, 26 (clock: 27).
    EXPECT_EQ(shared[0], 27u);
    EXPECT_EQ(shared[2], 27u);
    EXPECT_EQ(sub[1], shared[1] + 8); // warp 0 issues first in its cycle: no other warp's reads before it
    EXPECT_EQ(sub[3], sub[1]);        // warp 1 has banks of its own: the same chain, the same cycles
}

// -gpgpu_reg_file_port_throughput 2: a bank serves two reads per cycle, so the two same-bank reads
// of add r2, r2, r4 under sub-cores (2 banks per scheduler) no longer delay it: the chain takes
// the cycles it takes without the conflict (warp 0 with shared banks, where r2 and r4 differ).
TEST(GpgpuSimOptions, RegisterFilePortThroughputServesThatManyReadsPerBank)
{
    std::vector<uint64_t> shared = sub_core_run("0"), sub = sub_core_run("1"), two = sub_core_run("1", "2");
    EXPECT_EQ(sub[1], shared[1] + 8);
    EXPECT_EQ(two[1], shared[1]);
    EXPECT_EQ(two[3], shared[1]);
    EXPECT_EQ(two[0], sub[0]); // the SFUs are not register banks: unchanged
}

} // namespace
