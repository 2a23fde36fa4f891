// Unit tests of the warp-wide ALU (model/simt): integer arithmetic and the carry chain.
#include "test_alu_common.h"

#include <limits>
#include <type_traits>

using namespace alu_test;

namespace {

typedef __int128 i128;
typedef unsigned __int128 u128;

const ptx_type kIntTypes[] = {PT_S16, PT_U16, PT_S32, PT_U32, PT_S64, PT_U64};

int width_of(ptx_type t)
{
    switch (t) {
    case PT_S16: case PT_U16: return 16;
    case PT_S32: case PT_U32: return 32;
    default: return 64;
    }
}
bool signed_type(ptx_type t) { return t == PT_S16 || t == PT_S32 || t == PT_S64; }

// The operand's value as the instruction type sees it, widened to 128 bits.
i128 val(uint64_t x, ptx_type t)
{
    switch (t) {
    case PT_S16: return static_cast<int16_t>(x);
    case PT_U16: return static_cast<uint16_t>(x);
    case PT_S32: return static_cast<int32_t>(x);
    case PT_U32: return static_cast<uint32_t>(x);
    case PT_S64: return static_cast<int64_t>(x);
    default: return static_cast<uint64_t>(x);
    }
}
// The low w bits of v, zero-extended.
uint64_t bits(i128 v, int w)
{
    u128 u = static_cast<u128>(v);
    return w >= 64 ? static_cast<uint64_t>(u) : static_cast<uint64_t>(u & ((static_cast<u128>(1) << w) - 1));
}

uint64_t gen_int(std::mt19937_64 &g, int) { return edge_int(g); }

// Wrapping 128-bit arithmetic (a u64 * u64 product does not fit a signed __int128); an
// arithmetic right shift of the result by <= 64 still yields the right bits below 128.
i128 wmul(i128 a, i128 b) { return static_cast<i128>(static_cast<u128>(a) * static_cast<u128>(b)); }
i128 wadd(i128 a, i128 b) { return static_cast<i128>(static_cast<u128>(a) + static_cast<u128>(b)); }

TEST(AluInt, AddSubWrapAllTypes)
{
    for (ptx_type t : kIntTypes) {
        int w = width_of(t);
        check_random(mk(OP_ADD, t), 2, gen_int,
                     [&](const uint64_t *s) { return bits(val(s[0], t) + val(s[1], t), w); }, 100 + t, 16,
                     "add");
        check_random(mk(OP_SUB, t), 2, gen_int,
                     [&](const uint64_t *s) { return bits(val(s[0], t) - val(s[1], t), w); }, 200 + t, 16, "sub");
    }
}

TEST(AluInt, AddSubSatS32Clamps)
{
    auto clamp = [](i128 v) {
        if (v > INT32_MAX)
            v = INT32_MAX;
        if (v < INT32_MIN)
            v = INT32_MIN;
        return bits(v, 32);
    };
    check_random(mk(OP_ADD, PT_S32, PR_NONE, PM_NONE, PF_SAT), 2, gen_int,
                 [&](const uint64_t *s) { return clamp(val(s[0], PT_S32) + val(s[1], PT_S32)); }, 7);
    check_random(mk(OP_SUB, PT_S32, PR_NONE, PM_NONE, PF_SAT), 2, gen_int,
                 [&](const uint64_t *s) { return clamp(val(s[0], PT_S32) - val(s[1], PT_S32)); }, 8);
    Warp w;
    w.src[0][0] = 0x7fffffff;
    w.src[1][0] = 1;
    w.src[0][1] = 0x80000000;
    w.src[1][1] = 0xffffffff;
    ASSERT_EQ(w.run(mk(OP_ADD, PT_S32, PR_NONE, PM_NONE, PF_SAT), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x7fffffffu);
    EXPECT_EQ(w.dst[0][1], 0x80000000u);
}

TEST(AluInt, CarryChain32BuildsA64BitAddAndSub)
{
    std::mt19937_64 g(11);
    for (int rep = 0; rep < 16; rep++) {
        uint64_t x[W], y[W];
        Warp lo, hi;
        for (int l = 0; l < W; l++) {
            x[l] = (l == 0) ? 0xffffffffffffffffull : (l == 1) ? 0x00000000ffffffffull : edge_int(g);
            y[l] = (l == 0) ? 1 : (l == 1) ? 1 : edge_int(g);
            lo.src[0][l] = x[l] & 0xffffffffu;
            lo.src[1][l] = y[l] & 0xffffffffu;
            hi.src[0][l] = x[l] >> 32;
            hi.src[1][l] = y[l] >> 32;
        }
        // add.cc.u32 lo; addc.u32 hi  ==  64-bit add
        uint32_t carry = 0x5a5a5a5au; // stale flags must not leak into add.cc
        Warp l1 = lo, h1 = hi;
        l1.carry = carry;
        ASSERT_EQ(l1.run(mk(OP_ADD, PT_U32, PR_NONE, PM_NONE, PF_CC)), SIMT_ALU_OK);
        for (int l = 0; l < W; l++)
            ASSERT_EQ((l1.carry >> l) & 1u, ((x[l] & 0xffffffffu) + (y[l] & 0xffffffffu)) >> 32) << l;
        h1.carry = l1.carry;
        ASSERT_EQ(h1.run(mk(OP_ADDC, PT_U32)), SIMT_ALU_OK);
        EXPECT_EQ(h1.carry, l1.carry) << "addc without .cc must not write the flag";
        for (int l = 0; l < W; l++)
            ASSERT_EQ((h1.dst[0][l] << 32) | l1.dst[0][l], x[l] + y[l]) << "lane " << l;

        // sub.cc.s32 lo; subc.s32 hi  ==  64-bit sub (borrow chain)
        Warp l2 = lo, h2 = hi;
        ASSERT_EQ(l2.run(mk(OP_SUB, PT_S32, PR_NONE, PM_NONE, PF_CC)), SIMT_ALU_OK);
        h2.carry = l2.carry;
        ASSERT_EQ(h2.run(mk(OP_SUBC, PT_S32)), SIMT_ALU_OK);
        for (int l = 0; l < W; l++) {
            ASSERT_EQ((l2.carry >> l) & 1u, (x[l] & 0xffffffffu) < (y[l] & 0xffffffffu) ? 1u : 0u) << "borrow " << l;
            ASSERT_EQ((h2.dst[0][l] << 32) | l2.dst[0][l], x[l] - y[l]) << "lane " << l;
        }
    }
}

TEST(AluInt, CarryChain96And128Bit)
{
    std::mt19937_64 g(12);
    Warp a0, a1, a2;
    u128 x[W], y[W];
    for (int l = 0; l < W; l++) {
        x[l] = (static_cast<u128>(g() & 0xffffffffu) << 64) | g();
        y[l] = (static_cast<u128>(g() & 0xffffffffu) << 64) | g();
        if (l < 4) { // long carry propagation
            x[l] = (static_cast<u128>(0xffffffffu) << 64) | 0xffffffffffffffffull;
            y[l] = l;
        }
        for (int k = 0; k < 3; k++) {
            Warp &wk = k == 0 ? a0 : k == 1 ? a1 : a2;
            wk.src[0][l] = static_cast<uint32_t>(x[l] >> (32 * k));
            wk.src[1][l] = static_cast<uint32_t>(y[l] >> (32 * k));
        }
    }
    ASSERT_EQ(a0.run(mk(OP_ADD, PT_U32, PR_NONE, PM_NONE, PF_CC)), SIMT_ALU_OK);
    a1.carry = a0.carry;
    ASSERT_EQ(a1.run(mk(OP_ADDC, PT_U32, PR_NONE, PM_NONE, PF_CC)), SIMT_ALU_OK);
    a2.carry = a1.carry;
    ASSERT_EQ(a2.run(mk(OP_ADDC, PT_U32)), SIMT_ALU_OK);
    for (int l = 0; l < W; l++) {
        u128 sum = (x[l] + y[l]) & ((static_cast<u128>(1) << 96) - 1);
        u128 got = (static_cast<u128>(a2.dst[0][l]) << 64) | (static_cast<u128>(a1.dst[0][l]) << 32) | a0.dst[0][l];
        ASSERT_TRUE(got == sum) << "lane " << l;
    }

    // 128-bit add and sub from u64 halves.
    Warp lo, hi;
    for (int l = 0; l < W; l++) {
        x[l] = (static_cast<u128>(g()) << 64) | g();
        y[l] = (static_cast<u128>(g()) << 64) | ((l & 1) ? ~0ull : g());
        if (l == 2) { // carry-in turns an all-ones high sum into a carry-out
            x[l] = ~static_cast<u128>(0);
            y[l] = 1;
        }
        if (l == 3) { // equal high words, borrow-in makes a borrow-out
            x[l] = (static_cast<u128>(5) << 64) | 1;
            y[l] = (static_cast<u128>(5) << 64) | 2;
        }
        lo.src[0][l] = static_cast<uint64_t>(x[l]);
        lo.src[1][l] = static_cast<uint64_t>(y[l]);
        hi.src[0][l] = static_cast<uint64_t>(x[l] >> 64);
        hi.src[1][l] = static_cast<uint64_t>(y[l] >> 64);
    }
    Warp l1 = lo, h1 = hi, l2 = lo, h2 = hi;
    ASSERT_EQ(l1.run(mk(OP_ADD, PT_U64, PR_NONE, PM_NONE, PF_CC)), SIMT_ALU_OK);
    h1.carry = l1.carry;
    ASSERT_EQ(h1.run(mk(OP_ADDC, PT_S64, PR_NONE, PM_NONE, PF_CC)), SIMT_ALU_OK);
    ASSERT_EQ(l2.run(mk(OP_SUB, PT_U64, PR_NONE, PM_NONE, PF_CC)), SIMT_ALU_OK);
    h2.carry = l2.carry;
    ASSERT_EQ(h2.run(mk(OP_SUBC, PT_U64, PR_NONE, PM_NONE, PF_CC)), SIMT_ALU_OK);
    for (int l = 0; l < W; l++) {
        u128 s = x[l] + y[l], d = x[l] - y[l];
        ASSERT_EQ(l1.dst[0][l], static_cast<uint64_t>(s)) << l;
        ASSERT_EQ(h1.dst[0][l], static_cast<uint64_t>(s >> 64)) << l;
        ASSERT_EQ((h1.carry >> l) & 1u, s < x[l] ? 1u : 0u) << "carry out of 128 bits, lane " << l;
        ASSERT_EQ(l2.dst[0][l], static_cast<uint64_t>(d)) << l;
        ASSERT_EQ(h2.dst[0][l], static_cast<uint64_t>(d >> 64)) << l;
        ASSERT_EQ((h2.carry >> l) & 1u, x[l] < y[l] ? 1u : 0u) << "borrow out of 128 bits, lane " << l;
    }
}

// The extended-precision multiply of the PTX ISA's madc example: [r3,r2,r1,r0] = [r5,r4] * [r7,r6].
TEST(AluInt, MadCarryChainMultiplies64x64)
{
    std::mt19937_64 g(13);
    uint64_t x[W], y[W];
    Warp r4, r5, r6, r7;
    for (int l = 0; l < W; l++) {
        x[l] = l == 0 ? ~0ull : g();
        y[l] = l == 0 ? ~0ull : g();
    }
    auto lane_op = [&](ptx_instr in, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *d,
                       uint32_t &carry) {
        Warp w;
        for (int l = 0; l < W; l++) {
            w.src[0][l] = a[l];
            w.src[1][l] = b[l];
            w.src[2][l] = c ? c[l] : 0;
        }
        w.carry = carry;
        ASSERT_EQ(w.run(in), SIMT_ALU_OK);
        for (int l = 0; l < W; l++)
            d[l] = w.dst[0][l];
        carry = w.carry;
    };
    uint64_t a0[W], a1[W], b0[W], b1[W], zero[W] = {}, r0[W], r1[W], r2[W], r3[W];
    for (int l = 0; l < W; l++) {
        a0[l] = x[l] & 0xffffffffu;
        a1[l] = x[l] >> 32;
        b0[l] = y[l] & 0xffffffffu;
        b1[l] = y[l] >> 32;
    }
    uint32_t cf = 0;
    const InstrValue mul_lo = mk(OP_MUL, PT_U32, PR_NONE, PM_LO), mul_hi = mk(OP_MUL, PT_U32, PR_NONE, PM_HI);
    const InstrValue mad_lo_cc = mk(OP_MAD, PT_U32, PR_NONE, PM_LO, PF_CC);
    const InstrValue madc_hi = mk(OP_MADC, PT_U32, PR_NONE, PM_HI), madc_hi_cc = mk(OP_MADC, PT_U32, PR_NONE, PM_HI, PF_CC);
    const InstrValue addc = mk(OP_ADDC, PT_U32);
    lane_op(mul_lo, a0, b0, nullptr, r0, cf);
    lane_op(mul_hi, a0, b0, nullptr, r1, cf);
    lane_op(mad_lo_cc, a1, b0, r1, r1, cf);
    lane_op(madc_hi, a1, b0, zero, r2, cf);
    lane_op(mad_lo_cc, a0, b1, r1, r1, cf);
    lane_op(madc_hi_cc, a0, b1, r2, r2, cf);
    lane_op(addc, zero, zero, nullptr, r3, cf);
    lane_op(mad_lo_cc, a1, b1, r2, r2, cf);
    lane_op(madc_hi, a1, b1, r3, r3, cf);
    for (int l = 0; l < W; l++) {
        u128 p = static_cast<u128>(x[l]) * y[l];
        u128 got = (static_cast<u128>(r3[l]) << 96) | (static_cast<u128>(r2[l]) << 64) |
                   (static_cast<u128>(r1[l]) << 32) | r0[l];
        ASSERT_TRUE(got == p) << "lane " << l;
    }
}

TEST(AluInt, MulLoHiWide)
{
    for (ptx_type t : kIntTypes) {
        int w = width_of(t);
        check_random(mk(OP_MUL, t, PR_NONE, PM_LO), 2, gen_int,
                     [&](const uint64_t *s) { return bits(wmul(val(s[0], t), val(s[1], t)), w); }, 300 + t, 16, "mul.lo");
        check_random(mk(OP_MUL, t, PR_NONE, PM_HI), 2, gen_int,
                     [&](const uint64_t *s) { return bits((wmul(val(s[0], t), val(s[1], t))) >> w, w); }, 400 + t, 16,
                     "mul.hi");
        if (w <= 32)
            check_random(mk(OP_MUL, t, PR_NONE, PM_WIDE), 2, gen_int,
                         [&](const uint64_t *s) { return bits(wmul(val(s[0], t), val(s[1], t)), 2 * w); }, 500 + t, 16,
                         "mul.wide");
    }
    // Spot values.
    Warp w;
    w.src[0][0] = 0x80000000;
    w.src[1][0] = 0x80000000;
    w.src[0][1] = 0xffffffff;
    w.src[1][1] = 2;
    ASSERT_EQ(w.run(mk(OP_MUL, PT_S32, PR_NONE, PM_HI), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x40000000u);
    EXPECT_EQ(w.dst[0][1], 0xffffffffu); // -1 * 2 = -2 -> high word all ones
    ASSERT_EQ(w.run(mk(OP_MUL, PT_S32, PR_NONE, PM_WIDE), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x4000000000000000ull);
    EXPECT_EQ(w.dst[0][1], 0xfffffffffffffffeull);
    ASSERT_EQ(w.run(mk(OP_MUL, PT_U32, PR_NONE, PM_WIDE), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][1], 0x1fffffffeull);
}

TEST(AluInt, MadLoHiWideAndSat)
{
    for (ptx_type t : kIntTypes) {
        int w = width_of(t);
        check_random(mk(OP_MAD, t, PR_NONE, PM_LO), 3, gen_int,
                     [&](const uint64_t *s) { return bits(wadd(wmul(val(s[0], t), val(s[1], t)), val(s[2], t)), w); }, 600 + t,
                     16, "mad.lo");
        check_random(mk(OP_MAD, t, PR_NONE, PM_HI), 3, gen_int,
                     [&](const uint64_t *s) {
                         return bits(((wmul(val(s[0], t), val(s[1], t))) >> w) + val(s[2], t), w);
                     },
                     700 + t, 16, "mad.hi");
        if (w <= 32) {
            ptx_type wt = t == PT_S16 ? PT_S32 : t == PT_U16 ? PT_U32 : t == PT_S32 ? PT_S64 : PT_U64;
            check_random(mk(OP_MAD, t, PR_NONE, PM_WIDE), 3, gen_int,
                         [&](const uint64_t *s) { return bits(wadd(wmul(val(s[0], t), val(s[1], t)), val(s[2], wt)), 2 * w); },
                         800 + t, 16, "mad.wide");
        }
    }
    check_random(mk(OP_MAD, PT_S32, PR_NONE, PM_HI, PF_SAT), 3, gen_int,
                 [&](const uint64_t *s) {
                     i128 v = ((val(s[0], PT_S32) * val(s[1], PT_S32)) >> 32) + val(s[2], PT_S32);
                     v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
                     return bits(v, 32);
                 },
                 900, 16, "mad.hi.sat.s32");
}

TEST(AluInt, Mul24AndMad24)
{
    for (ptx_type t : {PT_S32, PT_U32}) {
        auto v24 = [&](uint64_t x) -> i128 {
            int64_t lo = static_cast<int64_t>(x & 0xffffff);
            if (t == PT_S32 && (lo & 0x800000))
                lo -= 0x1000000;
            return lo;
        };
        check_random(mk(OP_MUL24, t, PR_NONE, PM_LO), 2, gen_int,
                     [&](const uint64_t *s) { return bits(v24(s[0]) * v24(s[1]), 32); }, 1000 + t, 16, "mul24.lo");
        check_random(mk(OP_MUL24, t, PR_NONE, PM_HI), 2, gen_int,
                     [&](const uint64_t *s) { return bits((v24(s[0]) * v24(s[1])) >> 16, 32); }, 1100 + t, 16,
                     "mul24.hi");
        check_random(mk(OP_MAD24, t, PR_NONE, PM_LO), 3, gen_int,
                     [&](const uint64_t *s) { return bits(v24(s[0]) * v24(s[1]) + val(s[2], t), 32); }, 1200 + t, 16,
                     "mad24.lo");
        check_random(mk(OP_MAD24, t, PR_NONE, PM_HI), 3, gen_int,
                     [&](const uint64_t *s) { return bits(((v24(s[0]) * v24(s[1])) >> 16) + val(s[2], t), 32); },
                     1300 + t, 16, "mad24.hi");
    }
    Warp w;
    w.src[0][0] = 0x800000; // -2^23 as s24
    w.src[1][0] = 0x800000;
    w.src[2][0] = 0x7fffffff;
    ASSERT_EQ(w.run(mk(OP_MAD24, PT_S32, PR_NONE, PM_HI, PF_SAT), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x7fffffffu); // 2^46 >> 16 = 2^30, + INT_MAX saturates
}

TEST(AluInt, Sad)
{
    for (ptx_type t : kIntTypes) {
        int w = width_of(t);
        check_random(mk(OP_SAD, t), 3, gen_int,
                     [&](const uint64_t *s) {
                         i128 a = val(s[0], t), b = val(s[1], t);
                         return bits(val(s[2], t) + (a < b ? b - a : a - b), w);
                     },
                     1400 + t, 16, "sad");
    }
}

TEST(AluInt, DivRemIncludingZeroAndOverflow)
{
    for (ptx_type t : kIntTypes) {
        int w = width_of(t);
        bool sg = signed_type(t);
        auto gen = [](std::mt19937_64 &g, int k) -> uint64_t {
            uint64_t r = g();
            if (k == 1 && r % 5 == 0)
                return (r >> 8) & 1 ? 0 : 0xffffffff00000000ull; // zero divisor (possibly with garbage above)
            if (k == 1 && r % 5 == 1)
                return ~0ull; // -1
            if (k == 1 && r % 5 == 2)
                return (g() % 17) | (g() << 32);
            return edge_int(g);
        };
        auto ref = [&](const uint64_t *s, bool div) -> uint64_t {
            i128 a = val(s[0], t), b = val(s[1], t);
            i128 mn = -(static_cast<i128>(1) << (w - 1));
            if (b == 0)
                return div ? bits(-1, w) : bits(a, w);
            if (sg && a == mn && b == -1)
                return div ? bits(mn, w) : 0;
            return bits(div ? a / b : a % b, w);
        };
        check_random(mk(OP_DIV, t), 2, gen, [&](const uint64_t *s) { return ref(s, true); }, 1500 + t, 16, "div");
        check_random(mk(OP_REM, t), 2, gen, [&](const uint64_t *s) { return ref(s, false); }, 1600 + t, 16, "rem");
    }
    Warp w;
    w.src[0][0] = 0x80000000;
    w.src[1][0] = 0xffffffff;
    w.src[0][1] = 7;
    w.src[1][1] = 0;
    w.src[0][2] = static_cast<uint64_t>(-7);
    w.src[1][2] = 2;
    ASSERT_EQ(w.run(mk(OP_DIV, PT_S32), 7u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x80000000u);
    EXPECT_EQ(w.dst[0][1], 0xffffffffu);
    EXPECT_EQ(w.dst[0][2], static_cast<uint32_t>(-3)); // truncating
    ASSERT_EQ(w.run(mk(OP_REM, PT_S32), 7u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0u);
    EXPECT_EQ(w.dst[0][1], 7u);
    EXPECT_EQ(w.dst[0][2], static_cast<uint32_t>(-1));
    w.src[0][0] = 0x8000000000000000ull;
    w.src[1][0] = ~0ull;
    ASSERT_EQ(w.run(mk(OP_DIV, PT_S64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x8000000000000000ull);
    ASSERT_EQ(w.run(mk(OP_DIV, PT_U64), 2u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][1], ~0ull);
}

TEST(AluInt, AbsNegMinMax)
{
    for (ptx_type t : kIntTypes) {
        int w = width_of(t);
        if (signed_type(t)) {
            check_random(mk(OP_ABS, t), 1, gen_int,
                         [&](const uint64_t *s) { i128 a = val(s[0], t); return bits(a < 0 ? -a : a, w); }, 1700 + t,
                         16, "abs");
            check_random(mk(OP_NEG, t), 1, gen_int, [&](const uint64_t *s) { return bits(-val(s[0], t), w); },
                         1800 + t, 16, "neg");
        }
        check_random(mk(OP_MIN, t), 2, gen_int,
                     [&](const uint64_t *s) { return bits(std::min(val(s[0], t), val(s[1], t)), w); }, 1900 + t, 16,
                     "min");
        check_random(mk(OP_MAX, t), 2, gen_int,
                     [&](const uint64_t *s) { return bits(std::max(val(s[0], t), val(s[1], t)), w); }, 2000 + t, 16,
                     "max");
    }
    Warp w;
    w.src[0][0] = 0x80000000;
    ASSERT_EQ(w.run(mk(OP_ABS, PT_S32), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x80000000u); // abs(INT_MIN) wraps
}

TEST(AluInt, InactiveLanesAndCarryBitsUntouched)
{
    const uint32_t active = 0x0f0f3c3cu;
    for (ptx_instr in : {mk(OP_ADD, PT_U32), mk(OP_ADD, PT_U32, PR_NONE, PM_NONE, PF_CC), mk(OP_DIV, PT_S32),
                         mk(OP_MAD, PT_S64, PR_NONE, PM_HI), mk(OP_SUBC, PT_U32, PR_NONE, PM_NONE, PF_CC)}) {
        Warp w;
        for (int l = 0; l < W; l++) {
            w.src[0][l] = 0xffffffffu;
            w.src[1][l] = 0xffffffffu;
            w.src[2][l] = 5;
        }
        w.carry = 0xa5a5a5a5u;
        ASSERT_EQ(w.run(in, active), SIMT_ALU_OK);
        for (int l = 0; l < W; l++) {
            if (!((active >> l) & 1)) {
                EXPECT_EQ(w.dst[0][l], SENTINEL) << "op " << in.op << " lane " << l;
            } else {
                EXPECT_NE(w.dst[0][l], SENTINEL);
            }
        }
        EXPECT_EQ(w.carry & ~active, 0xa5a5a5a5u & ~active) << "op " << in.op;
        EXPECT_EQ(w.dst[1][0], SENTINEL);
    }
    // Only the active lanes' carry bits change with .cc.
    Warp w;
    for (int l = 0; l < W; l++) {
        w.src[0][l] = 0xffffffffu;
        w.src[1][l] = 1;
    }
    w.carry = 0;
    ASSERT_EQ(w.run(mk(OP_ADD, PT_U32, PR_NONE, PM_NONE, PF_CC), active), SIMT_ALU_OK);
    EXPECT_EQ(w.carry, active);
}

TEST(AluInt, SupportsAndRejects)
{
    // Supported forms.
    for (ptx_type t : kIntTypes) {
        EXPECT_TRUE(sup(mk(OP_ADD, t)));
        EXPECT_TRUE(sup(mk(OP_DIV, t)));
    }
    InstrValue ok[] = {mk(OP_ADD, PT_U32, PR_NONE, PM_NONE, PF_CC), mk(OP_ADDC, PT_S64, PR_NONE, PM_NONE, PF_CC),
                      mk(OP_MADC, PT_U32, PR_NONE, PM_HI, PF_CC), mk(OP_MUL, PT_S16, PR_NONE, PM_WIDE),
                      mk(OP_MAD, PT_S32, PR_NONE, PM_HI, PF_SAT), mk(OP_MAD24, PT_S32, PR_NONE, PM_HI, PF_SAT)};
    for (auto &in : ok)
        EXPECT_TRUE(simt_alu_supports(&in)) << in.op;
    // Rejected forms; simt_alu leaves dst alone.
    InstrValue bad[] = {mk(OP_ADD, PT_F16),
                       mk(OP_ADD, PT_B32),
                       mk(OP_ADD, PT_U16, PR_NONE, PM_NONE, PF_CC),
                       mk(OP_ADD, PT_U32, PR_NONE, PM_NONE, PF_SAT),
                       mk(OP_ADD, PT_U32, PR_RN),
                       mk(OP_MUL, PT_S64, PR_NONE, PM_WIDE),
                       mk(OP_MAD, PT_U64, PR_NONE, PM_WIDE),
                       mk(OP_MAD, PT_U32, PR_NONE, PM_HI, PF_SAT),
                       mk(OP_MAD24, PT_S32, PR_NONE, PM_LO, PF_SAT),
                       mk(OP_MUL24, PT_S16, PR_NONE, PM_LO),
                       mk(OP_ADDC, PT_U16),
                       mk(OP_ABS, PT_U32),
                       mk(OP_NEG, PT_U32),
                       mk(OP_MOV, PT_U32),
                       mk(OP_LD, PT_U32),
                       mk(OP_SHFL, PT_B32),
                       mk(OP_DIV, PT_S32, PR_NONE, PM_NONE, PF_FTZ)};
    for (auto &in : bad) {
        EXPECT_FALSE(simt_alu_supports(&in)) << "op " << in.op << " type " << int(in.type);
        Warp w;
        w.carry = 0x1234;
        EXPECT_EQ(w.run(in), SIMT_ALU_UNSUPPORTED);
        EXPECT_EQ(w.dst[0][0], SENTINEL);
        EXPECT_EQ(w.dst[0][31], SENTINEL);
        EXPECT_EQ(w.carry, 0x1234u);
    }
    // Too few source operands is refused too.
    Warp w;
    EXPECT_EQ(w.run(mk(OP_MAD, PT_S32, PR_NONE, PM_LO), 0xffffffffu, 2), SIMT_ALU_UNSUPPORTED);
    EXPECT_EQ(w.dst[0][0], SENTINEL);
}

} // namespace
