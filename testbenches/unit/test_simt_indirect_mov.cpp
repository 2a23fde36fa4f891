// mov.indirect (gtlm's extension for Morpheus' Indirect-MOV) in the SIMT executor: the read and
// the write form, each lane with its own index, under a per-lane guard; the destination inside
// the array; an index beyond the array stops the warp with kernel, pc, warp and lane.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "simt_fixture.h"

namespace {

const char *kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

// Lane t: a[k] = 10 t + k (k = 0..3), i = t % 4. rd[t] = a[i]; then the odd lanes write 7000 + t
// into a[i] and wr[4 t + k] = a[k].
const char *kBoth = R"(
.visible .entry both(.param .u64 rd, .param .u64 wr)
{
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [rd];
    ld.param.u64 %rd2, [wr];
    mov.u32 %r1, %tid.x;
    mul.lo.u32 %r2, %r1, 10;
    add.u32 %r10, %r2, 0;
    add.u32 %r11, %r2, 1;
    add.u32 %r12, %r2, 2;
    add.u32 %r13, %r2, 3;
    and.b32 %r3, %r1, 3;
    mov.indirect.b32 %r4, {%r10, %r11, %r12, %r13}[%r3];
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    st.global.u32 [%rd4], %r4;
    and.b32 %r5, %r1, 1;
    setp.ne.u32 %p1, %r5, 0;
    add.u32 %r6, %r1, 7000;
    @%p1 mov.indirect.b32 {%r10, %r11, %r12, %r13}[%r3], %r6;
    mul.wide.u32 %rd5, %r1, 16;
    add.s64 %rd6, %rd2, %rd5;
    st.global.v4.u32 [%rd6], {%r10, %r11, %r12, %r13};
    ret;
}
)";

// The destination is an array register: every lane's %r10 becomes its old %r11 (read first).
// .b64 moves all 64 bits.
const char *kAlias = R"(
.visible .entry alias(.param .u64 out)
{
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    add.u32 %r10, %r1, 100;
    add.u32 %r11, %r1, 200;
    mov.u32 %r2, 1;
    mov.indirect.b32 %r10, {%r10, %r11}[%r2];
    mov.u64 %rd5, 0x123456789;
    mov.u64 %rd6, 0;
    mov.indirect.u64 %rd7, {%rd6, %rd5}[%r2];
    mul.wide.u32 %rd2, %r1, 16;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r10;
    st.global.u64 [%rd3+8], %rd7;
    ret;
}
)";

// Lane t indexes t in a 4-register array; the guard lets lanes 0..3 and 9 run: lane 9 is the
// first beyond the array (lanes 4..8 are predicated off and not checked).
const char *kBeyond = R"(
.visible .entry beyond(.param .u64 out)
{
    .reg .b32 %r<16>;
    .reg .pred %p<4>;
    mov.u32 %r1, %tid.x;
    mov.u32 %r10, 0;
    mov.u32 %r11, 0;
    mov.u32 %r12, 0;
    mov.u32 %r13, 0;
    setp.lt.u32 %p1, %r1, 4;
    setp.eq.u32 %p2, %r1, 9;
    or.pred %p3, %p1, %p2;
    @%p3 mov.indirect.b32 %r4, {%r10, %r11, %r12, %r13}[%r1];
    ret;
}
)";

} // namespace

TEST_F(Simt, IndirectMovReadsAndWritesByLaneIndex)
{
    load(std::string(kHeader) + kBoth);
    uint64_t rd = buffer(32 * 4), wr = buffer(32 * 16);
    ASSERT_EQ(run("both", 1, 32, {rd, wr}), SIMT_OK) << message;
    auto r = read<uint32_t>(rd, 32);
    auto w = read<uint32_t>(wr, 32 * 4);
    for (uint32_t t = 0; t < 32; t++) {
        EXPECT_EQ(r[t], 10 * t + t % 4) << t;
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t want = (t & 1) && k == t % 4 ? 7000 + t : 10 * t + k;
            EXPECT_EQ(w[4 * t + k], want) << "lane " << t << " a[" << k << "]";
        }
    }
}

TEST_F(Simt, IndirectMovDestinationInItsArrayAnd64Bit)
{
    load(std::string(kHeader) + kAlias);
    uint64_t out = buffer(32 * 16);
    ASSERT_EQ(run("alias", 1, 32, {out}), SIMT_OK) << message;
    auto o = read<uint32_t>(out, 32 * 4);
    for (uint32_t t = 0; t < 32; t++) {
        EXPECT_EQ(o[4 * t], 200 + t) << t;
        EXPECT_EQ(o[4 * t + 2], 0x23456789u) << t;
        EXPECT_EQ(o[4 * t + 3], 0x1u) << t;
    }
}

TEST_F(Simt, IndirectMovIndexBeyondItsArrayNamesKernelPcWarpLane)
{
    load(std::string(kHeader) + kBeyond);
    uint64_t out = buffer(4);
    ASSERT_EQ(run("beyond", 1, 32, {out}), SIMT_ERR_BOUNDS);
    EXPECT_EQ(err.lane, 9u);
    EXPECT_EQ(err.warp, 0u);
    EXPECT_EQ(err.pc, 8u);
    std::string m = message;
    EXPECT_NE(m.find("kernel 'beyond'"), std::string::npos) << m;
    EXPECT_NE(m.find("test.ptx:17 (pc 8: mov.indirect.b32)"), std::string::npos) << m;
    EXPECT_NE(m.find("warp 0 lane 9 (thread (9,0,0) of CTA (0,0,0))"), std::string::npos) << m;
    EXPECT_NE(m.find("mov.indirect index 9 beyond its register array (4 registers)"), std::string::npos) << m;
    EXPECT_EQ(m.find("address"), std::string::npos) << m; // an index, not an address
}
