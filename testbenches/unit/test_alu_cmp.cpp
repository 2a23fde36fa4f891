// Unit tests of the warp-wide ALU (model/simt): setp, set, selp, slct.
#include "test_alu_common.h"

using namespace alu_test;

namespace {

typedef __int128 i128;

i128 ival(uint64_t x, ptx_type t)
{
    switch (t) {
    case PT_S16: return static_cast<int16_t>(x);
    case PT_U16: case PT_B16: return static_cast<uint16_t>(x);
    case PT_S32: return static_cast<int32_t>(x);
    case PT_U32: case PT_B32: return static_cast<uint32_t>(x);
    case PT_S64: return static_cast<int64_t>(x);
    default: return static_cast<uint64_t>(x);
    }
}
uint64_t uval(uint64_t x, ptx_type t)
{
    switch (t) {
    case PT_S16: case PT_U16: case PT_B16: return static_cast<uint16_t>(x);
    case PT_S32: case PT_U32: case PT_B32: return static_cast<uint32_t>(x);
    default: return x;
    }
}

bool int_cmp(unsigned c, uint64_t a, uint64_t b, ptx_type t)
{
    i128 x = ival(a, t), y = ival(b, t);
    uint64_t ux = uval(a, t), uy = uval(b, t);
    switch (c) {
    case PC_EQ: return x == y;
    case PC_NE: return x != y;
    case PC_LT: return x < y;
    case PC_LE: return x <= y;
    case PC_GT: return x > y;
    case PC_GE: return x >= y;
    case PC_LO: return ux < uy;
    case PC_LS: return ux <= uy;
    case PC_HI: return ux > uy;
    case PC_HS: return ux >= uy;
    }
    ADD_FAILURE() << "cmp " << c;
    return false;
}

bool flt_cmp(unsigned c, double a, double b)
{
    bool un = std::isnan(a) || std::isnan(b);
    switch (c) {
    case PC_EQ: return !un && a == b;
    case PC_NE: return !un && a != b;
    case PC_LT: return !un && a < b;
    case PC_LE: return !un && a <= b;
    case PC_GT: return !un && a > b;
    case PC_GE: return !un && a >= b;
    case PC_EQU: return un || a == b;
    case PC_NEU: return un || a != b;
    case PC_LTU: return un || a < b;
    case PC_LEU: return un || a <= b;
    case PC_GTU: return un || a > b;
    case PC_GEU: return un || a >= b;
    case PC_NUM: return !un;
    case PC_NAN: return un;
    }
    ADD_FAILURE() << "cmp " << c;
    return false;
}

const unsigned kIntCmps[] = {PC_EQ, PC_NE, PC_LT, PC_LE, PC_GT, PC_GE, PC_LO, PC_LS, PC_HI, PC_HS};
const unsigned kFltCmps[] = {PC_EQ,  PC_NE,  PC_LT,  PC_LE,  PC_GT,  PC_GE,  PC_EQU,
                             PC_NEU, PC_LTU, PC_LEU, PC_GTU, PC_GEU, PC_NUM, PC_NAN};

// Operands that are often equal (so eq/le/ge are exercised), edge values otherwise.
uint64_t gen_int_pair(std::mt19937_64 &g, int)
{
    static const uint64_t few[] = {0, 1, 0x8000, 0x80000000u, 0xffffffffu, 0x8000000000000000ull};
    uint64_t r = g();
    return r % 2 ? few[(r >> 8) % 6] : edge_int(g);
}
uint64_t gen_f32(std::mt19937_64 &g, int k)
{
    static const float pool[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 1e-40f, -1e-40f, 2.5f};
    if (k == 2)
        return g() & 1;
    uint64_t r = g();
    return r % 2 ? f2u(pool[(r >> 8) % 10]) : f2u(rand_f32(g, -3, 3));
}
uint64_t gen_f64(std::mt19937_64 &g, int k)
{
    static const double pool[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 1e-310, 2.5};
    if (k == 2)
        return g() & 1;
    uint64_t r = g();
    return r % 2 ? d2u(pool[(r >> 8) % 9]) : d2u(rand_f64(g, -3, 3));
}

TEST(AluCmp, SetpIntegerEveryCompareAndType)
{
    for (ptx_type t : {PT_S16, PT_U16, PT_S32, PT_U32, PT_S64, PT_U64, PT_B16, PT_B32, PT_B64})
        for (unsigned c : kIntCmps)
            check_random(mk_cmp(OP_SETP, t, c), 2, gen_int_pair,
                         [&](const uint64_t *s) -> uint64_t { return int_cmp(c, s[0], s[1], t); }, 1000 * t + c, 8,
                         "setp int");
}

TEST(AluCmp, SetpFloatOrderedUnorderedWithNaN)
{
    for (unsigned c : kFltCmps) {
        check_random(mk_cmp(OP_SETP, PT_F32, c), 2, gen_f32,
                     [&](const uint64_t *s) -> uint64_t { return flt_cmp(c, u2f(s[0]), u2f(s[1])); }, 2000 + c, 16,
                     "setp f32");
        check_random(mk_cmp(OP_SETP, PT_F64, c), 2, gen_f64,
                     [&](const uint64_t *s) -> uint64_t { return flt_cmp(c, u2d(s[0]), u2d(s[1])); }, 2100 + c, 16,
                     "setp f64");
    }
    // NaN against itself.
    Warp w;
    w.src[0][0] = w.src[1][0] = f2u(NAN);
    for (unsigned c : kFltCmps) {
        ASSERT_EQ(w.run(mk_cmp(OP_SETP, PT_F32, c), 1u), SIMT_ALU_OK);
        bool unordered_true = c >= PC_EQU || c == PC_NAN;
        EXPECT_EQ(w.dst[0][0], (unordered_true && c != PC_NUM) ? 1u : 0u) << "cmp " << c;
    }
}

TEST(AluCmp, SetpFtzComparesSubnormalsAsZero)
{
    Warp w;
    w.src[0][0] = f2u(1e-40f);
    w.src[1][0] = f2u(0.0f);
    w.src[0][1] = f2u(-1e-40f);
    w.src[1][1] = f2u(0.0f);
    ASSERT_EQ(w.run(mk_cmp(OP_SETP, PT_F32, PC_EQ, PB_NONE, PF_FTZ), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 1u);
    EXPECT_EQ(w.dst[0][1], 1u);
    ASSERT_EQ(w.run(mk_cmp(OP_SETP, PT_F32, PC_EQ), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0u);
    EXPECT_EQ(w.dst[0][1], 0u);
    ASSERT_EQ(w.run(mk_cmp(OP_SETP, PT_F32, PC_LT), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][1], 1u);
}

TEST(AluCmp, SetpBoolopAndSecondDestination)
{
    for (unsigned bo : {(unsigned)PB_NONE, (unsigned)PB_AND, (unsigned)PB_OR, (unsigned)PB_XOR}) {
        for (bool two : {false, true}) {
            InstrValue in = mk_cmp(OP_SETP, PT_S32, PC_LT, bo);
            if (two)
                in.o[0].reg2 = 7;
            ASSERT_TRUE(sup(in));
            std::mt19937_64 g(3000 + bo);
            Warp w;
            for (int l = 0; l < W; l++) {
                w.src[0][l] = g() % 5;
                w.src[1][l] = g() % 5;
                w.src[2][l] = (l & 4) ? (g() | 1) : 0; // any nonzero is true
            }
            ASSERT_EQ(w.run(in, 0xffffffffu, bo == PB_NONE ? 2 : 3), SIMT_ALU_OK);
            for (int l = 0; l < W; l++) {
                bool t = static_cast<int32_t>(w.src[0][l]) < static_cast<int32_t>(w.src[1][l]);
                bool c = w.src[2][l] != 0;
                auto f = [&](bool x) {
                    switch (bo) {
                    case PB_AND: return x && c;
                    case PB_OR: return x || c;
                    case PB_XOR: return x != c;
                    default: return x;
                    }
                };
                EXPECT_EQ(w.dst[0][l], f(t) ? 1u : 0u) << "boolop " << bo << " lane " << l;
                if (two)
                    EXPECT_EQ(w.dst[1][l], f(!t) ? 1u : 0u) << "q, boolop " << bo << " lane " << l;
                else
                    EXPECT_EQ(w.dst[1][l], SENTINEL) << "no second destination";
            }
        }
    }
    // A boolop needs its third source.
    Warp w;
    EXPECT_EQ(w.run(mk_cmp(OP_SETP, PT_S32, PC_LT, PB_AND), 0xffffffffu, 2), SIMT_ALU_UNSUPPORTED);
}

TEST(AluCmp, SetWritesAllOnesOrOnePointZero)
{
    for (ptx_type dt : {PT_U32, PT_S32, PT_F32}) {
        uint64_t one = dt == PT_F32 ? 0x3f800000u : 0xffffffffu;
        for (unsigned c : kFltCmps)
            check_random(mk_cmp(OP_SET, dt, c, PB_NONE, 0, PT_F32), 2, gen_f32,
                         [&](const uint64_t *s) { return flt_cmp(c, u2f(s[0]), u2f(s[1])) ? one : 0; },
                         4000 + c + dt, 8, "set f32 source");
        for (unsigned c : kIntCmps)
            check_random(mk_cmp(OP_SET, dt, c, PB_NONE, 0, PT_S64), 2, gen_int_pair,
                         [&](const uint64_t *s) { return int_cmp(c, s[0], s[1], PT_S64) ? one : 0; }, 4100 + c + dt,
                         8, "set s64 source");
        check_random(mk_cmp(OP_SET, dt, PC_NE, PB_XOR, 0, PT_F64), 3, gen_f64,
                     [&](const uint64_t *s) { return (flt_cmp(PC_NE, u2d(s[0]), u2d(s[1])) != (s[2] != 0)) ? one : 0; },
                     4200 + dt, 8, "set.ne.xor f64 source");
    }
}

TEST(AluCmp, SelpAndSlct)
{
    for (ptx_type t : {PT_B16, PT_B32, PT_B64, PT_U16, PT_U32, PT_U64, PT_S16, PT_S32, PT_S64, PT_F32, PT_F64}) {
        unsigned w = t == PT_F32 ? 32 : t == PT_F64 ? 64 : (t == PT_B16 || t == PT_U16 || t == PT_S16) ? 16
                   : (t == PT_B32 || t == PT_U32 || t == PT_S32) ? 32 : 64;
        uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1;
        check_random(mk(OP_SELP, t), 3,
                     [](std::mt19937_64 &g, int k) -> uint64_t { return k == 2 ? (g() % 3 == 0 ? 0 : g()) : g(); },
                     [&](const uint64_t *s) { return (s[2] != 0 ? s[0] : s[1]) & m; }, 5000 + t, 8, "selp");
        check_random(mk(OP_SLCT, t, PR_NONE, PM_NONE, 0, PT_S32), 3, [](std::mt19937_64 &g, int) { return edge_int(g); },
                     [&](const uint64_t *s) { return (static_cast<int32_t>(s[2]) >= 0 ? s[0] : s[1]) & m; }, 5100 + t,
                     8, "slct.s32");
        check_random(mk(OP_SLCT, t, PR_NONE, PM_NONE, 0, PT_F32), 3, gen_f32,
                     [&](const uint64_t *s) { return (u2f(s[2]) >= 0.0f ? s[0] : s[1]) & m; }, 5200 + t, 8,
                     "slct.f32");
    }
    Warp w;
    w.src[0][0] = w.src[0][1] = w.src[0][2] = 11;
    w.src[1][0] = w.src[1][1] = w.src[1][2] = 22;
    w.src[2][0] = f2u(-0.0f);
    w.src[2][1] = f2u(NAN);
    w.src[2][2] = f2u(-1e-40f);
    ASSERT_EQ(w.run(mk(OP_SLCT, PT_U32, PR_NONE, PM_NONE, 0, PT_F32), 7u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 11u); // -0.0 >= 0
    EXPECT_EQ(w.dst[0][1], 22u); // NaN selects b
    EXPECT_EQ(w.dst[0][2], 22u);
    ASSERT_EQ(w.run(mk(OP_SLCT, PT_U32, PR_NONE, PM_NONE, PF_FTZ, PT_F32), 7u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][2], 11u); // flushed to -0
}

TEST(AluCmp, InactiveLanesAndSupport)
{
    InstrValue in = mk_cmp(OP_SETP, PT_U32, PC_HS, PB_OR);
    in.o[0].reg2 = 3;
    Warp w;
    ASSERT_EQ(w.run(in, 0x00ff00ffu), SIMT_ALU_OK);
    for (int l = 0; l < W; l++) {
        bool on = (0x00ff00ffu >> l) & 1;
        EXPECT_EQ(w.dst[0][l] == SENTINEL, !on) << l;
        EXPECT_EQ(w.dst[1][l] == SENTINEL, !on) << l;
    }
    InstrValue bad[] = {mk_cmp(OP_SETP, PT_F32, PC_LO),         mk_cmp(OP_SETP, PT_S32, PC_EQU),
                       mk_cmp(OP_SETP, PT_PRED, PC_EQ),        mk_cmp(OP_SETP, PT_F16, PC_EQ),
                       mk_cmp(OP_SETP, PT_S32, PC_NONE),       mk_cmp(OP_SETP, PT_S32, PC_EQ, PB_NONE, PF_FTZ),
                       mk_cmp(OP_SET, PT_U64, PC_EQ, PB_NONE, 0, PT_U32), mk_cmp(OP_SET, PT_U32, PC_EQ),
                       mk(OP_SELP, PT_PRED),                   mk(OP_SLCT, PT_U32, PR_NONE, PM_NONE, 0, PT_U32),
                       mk(OP_SLCT, PT_U32, PR_NONE, PM_NONE, PF_FTZ, PT_S32)};
    for (auto &b : bad) {
        EXPECT_FALSE(sup(b)) << "op " << b.op << " type " << int(b.type) << " cmp " << int(b.cmp);
        Warp x;
        EXPECT_EQ(x.run(b), SIMT_ALU_UNSUPPORTED);
        EXPECT_EQ(x.dst[0][0], SENTINEL);
    }
}

} // namespace
