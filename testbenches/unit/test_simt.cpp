// The SIMT executor on hand-written PTX: divergence and reconvergence, loops, early exit,
// calls, brx.idx, barriers, atomics, warp operations, and the errors of bad accesses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "simt_fixture.h"

namespace {

const char *header = ".version 9.0\n.target sm_75\n.address_size 64\n";

// out[tid] = tid odd ? tid * 3 : tid + 100, then activemask after the join.
TEST_F(Simt, IfElseReconvergesToTheFullWarp)
{
    load(std::string(header) + R"(
.visible .entry k(.param .u64 out, .param .u64 mask)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [mask];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 1;
    setp.eq.s32 %p1, %r2, 0;
    @%p1 bra $EVEN;
    mul.lo.s32 %r3, %r1, 3;
    bra.uni $JOIN;
$EVEN:
    add.s32 %r3, %r1, 100;
$JOIN:
    activemask.b32 %r4;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    st.global.u32 [%rd4], %r3;
    add.s64 %rd5, %rd2, %rd3;
    st.global.u32 [%rd5], %r4;
    ret;
}
)");
    uint64_t out = buffer(64 * 4), mask = buffer(64 * 4);
    ASSERT_EQ(run("k", 1, 64, {out, mask}), SIMT_OK) << message;
    auto o = read<uint32_t>(out, 64);
    auto m = read<uint32_t>(mask, 64);
    for (uint32_t t = 0; t < 64; t++) {
        EXPECT_EQ(o[t], t % 2 ? t * 3 : t + 100) << t;
        EXPECT_EQ(m[t], 0xffffffffu) << t;
    }
}

// Each lane loops tid % 5 times; lanes leave the loop at different iterations.
TEST_F(Simt, DivergentLoopTripCounts)
{
    load(std::string(header) + R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    rem.u32 %r2, %r1, 5;
    mov.u32 %r3, 0;
    mov.u32 %r4, 0;
$LOOP:
    setp.ge.u32 %p1, %r4, %r2;
    @%p1 bra $DONE;
    add.s32 %r3, %r3, %r4;
    add.s32 %r3, %r3, 10;
    add.s32 %r4, %r4, 1;
    bra.uni $LOOP;
$DONE:
    activemask.b32 %r5;
    setp.ne.s32 %p2, %r5, -1;
    @%p2 bra $BAD;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    ret;
$BAD:
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    ret;
}
)");
    uint64_t out = buffer(32 * 4);
    ASSERT_EQ(run("k", 1, 32, {out}), SIMT_OK) << message;
    auto o = read<uint32_t>(out, 32);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t n = t % 5, want = 0;
        for (uint32_t i = 0; i < n; i++) want += i + 10;
        EXPECT_EQ(o[t], want) << "lane " << t;
    }
}

// Lanes below 10 return early; the rest keep going and write afterwards.
TEST_F(Simt, EarlyReturnOfSomeLanes)
{
    load(std::string(header) + R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    setp.lt.u32 %p1, %r1, 10;
    @%p1 bra $EARLY;
    activemask.b32 %r2;
    st.global.u32 [%rd3], %r2;
    ret;
$EARLY:
    st.global.u32 [%rd3], 7;
    ret;
}
)");
    uint64_t out = buffer(32 * 4);
    ASSERT_EQ(run("k", 1, 32, {out}), SIMT_OK) << message;
    auto o = read<uint32_t>(out, 32);
    for (uint32_t t = 0; t < 32; t++) EXPECT_EQ(o[t], t < 10 ? 7u : 0xfffffc00u) << t;
}

// A .func taking two parameters and returning their weighted sum, called under divergence.
TEST_F(Simt, CallWithParamsUnderDivergence)
{
    load(std::string(header) + R"(
.func (.param .b32 ret0) wsum(.param .b32 a, .param .b32 b)
{
    .reg .b32 %r<4>;
    ld.param.u32 %r1, [a];
    ld.param.u32 %r2, [b];
    mad.lo.s32 %r3, %r2, 10, %r1;
    st.param.b32 [ret0], %r3;
    ret;
}
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r5, 0;
    setp.lt.u32 %p1, %r1, 20;
    @%p1 bra $SKIP;
    add.s32 %r2, %r1, 1;
    {
    .param .b32 p0;
    st.param.b32 [p0], %r1;
    .param .b32 p1;
    st.param.b32 [p1], %r2;
    .param .b32 rv;
    call.uni (rv), wsum, (p0, p1);
    ld.param.b32 %r5, [rv];
    }
$SKIP:
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    ret;
}
)");
    uint64_t out = buffer(32 * 4);
    ASSERT_EQ(run("k", 1, 32, {out}), SIMT_OK) << message;
    auto o = read<uint32_t>(out, 32);
    for (uint32_t t = 0; t < 32; t++) EXPECT_EQ(o[t], t < 20 ? 0u : t + (t + 1) * 10) << t;
}

// brx.idx to one of three targets by tid % 3, joining afterwards.
TEST_F(Simt, IndirectBranchBrxIdx)
{
    load(std::string(header) + R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    rem.u32 %r2, %r1, 3;
    $TARGETS: .branchtargets $A, $B, $C;
    brx.idx %r2, $TARGETS;
$A:
    mov.u32 %r3, 1000;
    bra.uni $JOIN;
$B:
    mov.u32 %r3, 2000;
    bra.uni $JOIN;
$C:
    mov.u32 %r3, 3000;
$JOIN:
    activemask.b32 %r4;
    add.s32 %r3, %r3, %r1;
    setp.eq.s32 %p1, %r4, -1;
    selp.b32 %r5, %r3, 0, %p1;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    ret;
}
)");
    uint64_t out = buffer(32 * 4);
    ASSERT_EQ(run("k", 1, 32, {out}), SIMT_OK) << message;
    auto o = read<uint32_t>(out, 32);
    for (uint32_t t = 0; t < 32; t++) EXPECT_EQ(o[t], 1000 * (t % 3 + 1) + t) << t;
}

// Warp 1 reads what warp 0 wrote to shared memory before the barrier.
TEST_F(Simt, BarrierOrdersSharedMemoryAcrossWarps)
{
    load(std::string(header) + R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .shared .align 4 .b8 buf[256];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, buf;
    shl.b32 %r3, %r1, 2;
    add.s32 %r4, %r2, %r3;
    mul.lo.s32 %r5, %r1, %r1;
    st.shared.u32 [%r4], %r5;
    bar.sync 0;
    xor.b32 %r6, %r1, 32;
    shl.b32 %r6, %r6, 2;
    add.s32 %r6, %r2, %r6;
    ld.shared.u32 %r7, [%r6];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r7;
    ret;
}
)");
    uint64_t out = buffer(64 * 4);
    ASSERT_EQ(run("k", 3, 64, {out}), SIMT_OK) << message;
    auto o = read<uint32_t>(out, 64);
    for (uint32_t t = 0; t < 64; t++) EXPECT_EQ(o[t], (t ^ 32) * (t ^ 32)) << t;
}

// 96 threads atomically increment one counter; the old values are a permutation of 0..95.
TEST_F(Simt, AtomicsGiveASerialOrder)
{
    load(std::string(header) + R"(
.visible .entry k(.param .u64 counter, .param .u64 olds)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [counter];
    ld.param.u64 %rd2, [olds];
    atom.global.add.u32 %r1, [%rd1], 1;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.s32 %r3, %r2, 32, %r3;
    mul.wide.u32 %rd3, %r3, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.global.u32 [%rd4], %r1;
    ret;
}
)");
    uint64_t counter = buffer(4), olds = buffer(96 * 4);
    ASSERT_EQ(run("k", 3, 32, {counter, olds}), SIMT_OK) << message;
    EXPECT_EQ(read<uint32_t>(counter, 1)[0], 96u);
    auto o = read<uint32_t>(olds, 96);
    std::sort(o.begin(), o.end());
    for (uint32_t i = 0; i < 96; i++) EXPECT_EQ(o[i], i);
}

// shfl.down by 1 with clamp 31, and a ballot of odd lanes.
TEST_F(Simt, ShuffleAndBallot)
{
    load(std::string(header) + R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %laneid;
    mul.lo.s32 %r2, %r1, 10;
    shfl.sync.down.b32 %r3|%p1, %r2, 1, 31, -1;
    and.b32 %r4, %r1, 1;
    setp.ne.s32 %p2, %r4, 0;
    vote.sync.ballot.b32 %r5, %p2, -1;
    selp.u32 %r6, 1, 0, %p1;
    mul.wide.u32 %rd2, %r1, 12;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    st.global.u32 [%rd3+4], %r5;
    st.global.u32 [%rd3+8], %r6;
    ret;
}
)");
    uint64_t out = buffer(32 * 12);
    ASSERT_EQ(run("k", 1, 32, {out}), SIMT_OK) << message;
    auto o = read<uint32_t>(out, 96);
    for (uint32_t l = 0; l < 32; l++) {
        EXPECT_EQ(o[l * 3], l < 31 ? (l + 1) * 10 : l * 10) << l;
        EXPECT_EQ(o[l * 3 + 1], 0xAAAAAAAAu) << l;
        EXPECT_EQ(o[l * 3 + 2], l < 31 ? 1u : 0u) << l;
    }
}

const char *oob_kernel = R"(
.visible .entry oob(.param .u64 in, .param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r2, [%rd4+64];
    add.s64 %rd5, %rd2, %rd3;
    st.global.u32 [%rd5], %r2;
    ret;
}
.visible .entry misaligned(.param .u64 in, .param .u64 out)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [in];
    ld.global.u32 %r1, [%rd1+2];
    ret;
}
)";

TEST_F(Simt, OutOfBoundsNamesKernelPcWarpLaneAndAddress)
{
    load(std::string(header) + oob_kernel);
    uint64_t in = buffer(32 * 4), out = buffer(32 * 4);
    ASSERT_EQ(run("oob", 1, 32, {in, out}), SIMT_ERR_BOUNDS);
    // Lanes 0..15 read inside (offset 64 + 4 * lane < 128); lane 16 is the first outside.
    EXPECT_EQ(err.lane, 16u);
    EXPECT_EQ(err.warp, 0u);
    EXPECT_EQ(err.addr, in + 128);
    std::string m = message;
    EXPECT_NE(m.find("kernel 'oob'"), std::string::npos) << m;
    EXPECT_NE(m.find("ld.global.u32"), std::string::npos) << m;
    EXPECT_NE(m.find("warp 0 lane 16"), std::string::npos) << m;
    char hex[32];
    snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(in + 128));
    EXPECT_NE(m.find(hex), std::string::npos) << m;
    EXPECT_NE(m.find("test.ptx:"), std::string::npos) << m;
}

TEST_F(Simt, MisalignedAccessIsReported)
{
    load(std::string(header) + oob_kernel);
    uint64_t in = buffer(64), out = buffer(64);
    ASSERT_EQ(run("misaligned", 1, 1, {in, out}), SIMT_ERR_MISALIGNED);
    EXPECT_EQ(err.addr, in + 2);
    EXPECT_NE(std::string(message).find("misaligned 4-byte global access"), std::string::npos) << message;
}

TEST_F(Simt, InstructionCountsAreExact)
{
    load(std::string(header) + oob_kernel);
    uint64_t in = buffer(200 * 4), out = buffer(200 * 4);
    simt_run_stats s{};
    ASSERT_EQ(run("oob", 2, 48, {in, out}, &s), SIMT_OK) << message;
    // 9 instructions per warp; 2 CTAs of 2 warps (48 threads: 32 + 16).
    EXPECT_EQ(s.warp_insn, 2u * 2u * 9u);
    EXPECT_EQ(s.thread_insn, 2u * 48u * 9u);
    EXPECT_EQ(s.ctas, 2u);
}

} // namespace

namespace {

// CTA 0's thread 0 waits for a flag that the last CTA sets: functional mode sets the spinning CTA
// aside, runs the others, and lets it finish once the flag is written.
TEST_F(Simt, SpinWaitOnALaterCtaCompletes)
{
    load(std::string(header) + R"(
.visible .entry k(.param .u64 flag, .param .u64 out)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    .reg .pred %p<3>;
    ld.param.u64 %rd1, [flag];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %nctaid.x;
    add.u32 %r3, %r1, 1;
    setp.eq.u32 %p1, %r3, %r2;
    @%p1 st.global.u32 [%rd1], 7;
    setp.ne.u32 %p2, %r1, 0;
    @%p2 bra DONE;
WAIT:
    ld.volatile.global.u32 %r4, [%rd1];
    setp.eq.u32 %p1, %r4, 0;
    @%p1 bra WAIT;
    st.global.u32 [%rd2], %r4;
DONE:
    ret;
}
)");
    uint64_t flag = buffer(4), out = buffer(4);
    simt_run_stats s{};
    ASSERT_EQ(run("k", 3, 32, {flag, out}, &s), SIMT_OK) << message;
    EXPECT_EQ(read<uint32_t>(out, 1)[0], 7u);
    EXPECT_EQ(s.ctas, 3u);
}

// A long counting loop changes its state every iteration: never taken for a spin, and the run
// (one CTA at a time) counts exactly its instructions: 5 before, 3 per iteration, 2 after.
TEST_F(Simt, CountingLoopIsNotASpin)
{
    load(std::string(header) + R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, 0;
    mov.u32 %r2, 0;
    bra LOOP;
    mov.u32 %r2, 1;
LOOP:
    add.u32 %r1, %r1, 1;
    setp.lt.u32 %p1, %r1, 5000;
    @%p1 bra LOOP;
    st.global.u32 [%rd1], %r1;
    ret;
}
)");
    uint64_t out = buffer(4);
    simt_run_stats s{};
    ASSERT_EQ(run("k", 1, 32, {out}, &s), SIMT_OK) << message;
    EXPECT_EQ(read<uint32_t>(out, 1)[0], 5000u);
    EXPECT_EQ(s.warp_insn, 4u + 3u * 5000u + 2u);
}

// Every CTA waits for a flag no one writes: a deadlock naming the spinning warp, not a hang.
TEST_F(Simt, SpinOnAFlagNoOneWritesIsADeadlock)
{
    load(std::string(header) + R"(
.visible .entry k(.param .u64 flag)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [flag];
WAIT:
    ld.volatile.global.u32 %r1, [%rd1];
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra WAIT;
    ret;
}
)");
    uint64_t flag = buffer(4);
    EXPECT_EQ(run("k", 2, 64, {flag}), SIMT_ERR_SPIN);
    EXPECT_NE(std::string(message).find("spin deadlock at"), std::string::npos) << message;
    EXPECT_NE(std::string(message).find("2 resident CTAs spin on memory none of them writes"), std::string::npos)
        << message;
    EXPECT_NE(std::string(message).find("test.ptx:"), std::string::npos) << message;
}

} // namespace
