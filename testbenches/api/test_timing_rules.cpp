// Timing rules that the microbenchmarks (one warp, one thread) cannot reach: register-bank
// conflicts between warps issued in the same cycle and -gpgpu_reg_bank_use_warp_id; the L1's MSHR
// limit. Clocks equal (timing_fixture.h), tiny.config: every expectation is exact arithmetic.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gtlm/gtlm.h"
#include "timing_fixture.h"

namespace {

// bank_pair: a chain of adds whose only source register is %r1, run by every warp. Two warps on
// the two schedulers of tiny.config issue it in the same cycles (no ld.param: the LD/ST unit
// would take the warps one after the other).
// lanes_own_line: lane t loads in[t * 32] (its own 128-byte line), warps add up nothing else.
const char *kRulesPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry bank_pair(.param .u32 x)
{
    .reg .b32 %r<3>;
    mov.u32 %r1, %tid.x;
    add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1;
    ret;
}
.visible .entry warps_one_line(.param .u64 in)
{
    .reg .b64 %rd<2>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [in];
    ld.global.u32 %r1, [%rd1];
    ret;
}
.visible .entry lanes_own_line(.param .u64 in)
{
    .reg .b64 %rd<4>;
    .reg .b32 %r<4>;
    ld.param.u64 %rd1, [in];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 128;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r2, [%rd3];
    ret;
}
)";

// store_fence / store_plain / store_fence_off: a store between two clock readings, with a membar
// after it, without, or with a membar whose lanes are all predicated off (%p1 is false).
std::string store_kernel(const char *name, const char *membar)
{
    return std::string(".visible .entry ") + name + R"((.param .u64 out)
{
    .reg .b64 %rd<5>;
    .reg .b32 %r<3>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r2, 7;
    setp.eq.u32 %p1, %r2, 0;
    mov.u64 %rd2, %clock64;
    st.global.u32 [%rd1], %r2;
    )" + membar + R"(
    mov.u64 %rd3, %clock64;
    sub.s64 %rd4, %rd3, %rd2;
    st.global.u64 [%rd1+8], %rd4;
    ret;
}
)";
}

struct RulesSim : Sim {
    explicit RulesSim(std::vector<std::string> ov = {}) : Sim(std::move(ov))
    {
        if (sim) {
            std::string ptx = kRulesPtx + store_kernel("store_fence", "membar.gl;") + store_kernel("store_plain", "") +
                              store_kernel("store_fence_off", "@%p1 membar.gl;");
            EXPECT_EQ(gtlm_module_load_ptx(sim, ptx.c_str(), "timing_rules", &mod), GTLM_OK) << gtlm_last_error();
        }
    }
};

double bank_delay(const char *use_warp_id)
{
    RulesSim s({"-gpgpu_reg_bank_use_warp_id", use_warp_id});
    unsigned x = 1;
    EXPECT_EQ(s.launch("bank_pair", 1, 64, {&x}, {4}), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(s.stat("gpgpu_n_tot_w_icount"), 2 * 10);
    return s.stat("gpu.sm[0].regfile.bank_conflict_cycles");
}

// Warps 0 and 1 read their %r1 in the same cycle. Without the warp id both reads are bank 1: the
// second warp's add is one cycle late, and the warps stay one cycle apart after that (one delay).
// With it, warp w reads bank (1 + w) mod banks: no conflict at all.
TEST(TimingTest, RegisterBankWarpIdSeparatesWarpsIssuedTogether)
{
    {
        RulesSim s;
        ASSERT_GE(s.opt("-gpgpu_num_sched_per_core"), 2);
        ASSERT_GE(s.opt("-gpgpu_num_reg_banks"), 2);
    }
    EXPECT_EQ(bank_delay("0"), 1);
    EXPECT_EQ(bank_delay("1"), 0);
}

// 32 lanes miss on 32 lines, one request per cycle. With 4 MSHR entries (-gpgpu_cache:dl1's
// "A:4") the fifth miss fails its reservation (reason: MSHR) until a fill frees an entry; with 32
// entries and a two-entry miss queue (a read needs two free slots, GPGPU-Sim's rule, so one is the
// least that works), misses wait for the queue to drain into the interconnect. With either limit
// ignored no reservation fails for that reason.
struct Fails {
    double mshr, miss_queue;
};
Fails lanes_own_line(const char *dl1)
{
    // The interconnect at a quarter of the core clock takes a request every 4 core cycles: the
    // LD/ST unit's one miss per cycle fills a short miss queue.
    RulesSim s({"-gpgpu_cache:dl1", dl1, "-gpgpu_clock_domains", "1000:250:1000:1000"});
    gtlm_devptr in = s.alloc(32 * 128, 1);
    EXPECT_EQ(s.launch("lanes_own_line", 1, 32, {&in}, {8}), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.misses"), 32);
    EXPECT_EQ(s.stat("gpu.l2.accesses"), 32);
    return {s.stat("gpu.sm[0].l1d.res_fail_mshr_entry"), s.stat("gpu.sm[0].l1d.res_fail_miss_queue")};
}

TEST(TimingTest, L1MshrAndMissQueueLimitsHoldMissesBeyondThem)
{
    Fails few_mshrs = lanes_own_line("N:64:128:4,L:L:m:N:L,A:4:4,32");
    EXPECT_GT(few_mshrs.mshr, 0);
    EXPECT_EQ(few_mshrs.miss_queue, 0);
    Fails short_queue = lanes_own_line("N:64:128:4,L:L:m:N:L,A:32:4,2");
    EXPECT_EQ(short_queue.mshr, 0);
    EXPECT_GT(short_queue.miss_queue, 0);
    Fails neither = lanes_own_line("N:64:128:4,L:L:m:N:L,A:32:4,32");
    EXPECT_EQ(neither.mshr, 0);
    EXPECT_EQ(neither.miss_queue, 0);
}

// Core cycles between the clock readings around a store (and a membar after it in store_fence).
int64_t store_clocks(const char *kernel)
{
    RulesSim s;
    gtlm_devptr out = s.alloc(128);
    EXPECT_EQ(s.launch(kernel, 1, 1, {&out}, {8}), GTLM_OK) << gtlm_last_error();
    int64_t d = -1;
    EXPECT_EQ(gtlm_memcpy_dtoh(s.sim, &d, out + 8, 8), GTLM_OK);
    return d;
}

// membar holds its warp until the warp's stores are acknowledged. The acknowledgement comes back
// from the L2 slice after the store passed its ROP queue (-rop_latency) and the crossbar both
// ways, so the clock reading after the membar is at least that much later than without it.
TEST(TimingTest, MembarWaitsForTheWarpsStores)
{
    int64_t plain = store_clocks("store_plain"), fenced = store_clocks("store_fence");
    RulesSim s;
    EXPECT_GE(plain, 1);
    EXPECT_LE(plain, 8) << "without a membar the store does not hold the warp";
    EXPECT_GE(fenced, plain + s.opt("-rop_latency") + 2 * (1 + s.opt("-icnt_latency"))) << plain << " " << fenced;
}

// A membar whose lanes are all predicated off does nothing: the warp goes on without waiting for
// the store's acknowledgement (the membar's own issue slots cost a cycle or two; the wait would
// be at least the round trip above, 37 cycles on tiny.config).
TEST(TimingTest, PredicatedOffMembarDoesNotWaitForStores)
{
    int64_t plain = store_clocks("store_plain"), off = store_clocks("store_fence_off");
    RulesSim s;
    EXPECT_GE(off, plain);
    EXPECT_LT(off, plain + s.opt("-rop_latency")) << "a membar with every lane off held the warp: " << plain << " " << off;
}

// Four warps load one line, one cycle apart: the first misses, the others find its MSHR entry
// while the line is on its way. An entry takes -gpgpu_cache:dl1's merge count ("A:8:M") of
// requests; beyond that a request fails its reservation (reason: merge limit) until the fill.
TEST(TimingTest, L1MshrMergesUpToItsLimit)
{
    for (int merges : {2, 4}) {
        std::string dl1 = "N:64:128:4,L:L:m:N:L,A:8:" + std::to_string(merges) + ",8";
        RulesSim s({"-gpgpu_cache:dl1", dl1});
        gtlm_devptr in = s.alloc(128, 1);
        ASSERT_EQ(s.launch("warps_one_line", 1, 128, {&in}, {8}), GTLM_OK) << gtlm_last_error();
        EXPECT_EQ(s.stat("gpu.sm[0].l1d.misses"), 1) << merges;
        EXPECT_EQ(s.stat("gpu.sm[0].l1d.hit_reserved"), merges - 1) << merges;
        EXPECT_EQ(s.stat("gpu.sm[0].l1d.res_fail_mshr_merge") > 0, merges < 4) << merges;
    }
}

} // namespace
