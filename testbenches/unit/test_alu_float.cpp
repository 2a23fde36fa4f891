// Unit tests of the warp-wide ALU (model/simt): floating-point arithmetic, rounding modes,
// .ftz/.sat, NaN rules, approximate functions and testp.
#include "test_alu_common.h"

#include <cfenv>
#include <cfloat>

using namespace alu_test;

namespace {

uint64_t canon32(float f) { return std::isnan(f) ? 0x7fffffffu : f2u(f); }
uint64_t canon64(double d) { return std::isnan(d) ? 0x7fffffffffffffffull : d2u(d); }

const uint32_t kSpecial32[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u,
                               0x3f800000u, 0xbf800000u, 0x00000001u, 0x007fffffu, 0x807fffffu, 0x7f7fffffu,
                               0x00800000u, 0x3effffffu, 0x4b000001u};
const uint64_t kSpecial64[] = {0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                               0x7ff8000000000000ull, 0xfff8000000000123ull, 0x3ff0000000000000ull, 1,
                               0x000fffffffffffffull, 0x7fefffffffffffffull, 0x0010000000000000ull};

uint64_t gen32(std::mt19937_64 &g, int)
{
    uint64_t r = g();
    if (r % 4 == 0)
        return kSpecial32[(r >> 8) % (sizeof kSpecial32 / 4)] | (g() << 32); // garbage above bit 31
    if (r % 4 == 1)
        return g() & 0xffffffffu; // any bit pattern
    return f2u(rand_f32(g));
}
uint64_t gen64(std::mt19937_64 &g, int)
{
    uint64_t r = g();
    if (r % 4 == 0)
        return kSpecial64[(r >> 8) % (sizeof kSpecial64 / 8)];
    if (r % 4 == 1)
        return g();
    return d2u(rand_f64(g));
}
uint64_t gen32_finite(std::mt19937_64 &g, int) { return f2u(rand_f32(g)); }
uint64_t gen64_finite(std::mt19937_64 &g, int) { return d2u(rand_f64(g)); }

const Mode kDirected[] = {RZ, RM, RP};

TEST(AluFloat, RoundToNearestMatchesHostWithSpecials)
{
    for (unsigned rnd : {(unsigned)PR_NONE, (unsigned)PR_RN}) {
        check_random(mk(OP_ADD, PT_F32, rnd), 2, gen32,
                     [](const uint64_t *s) { return canon32(u2f(s[0]) + u2f(s[1])); }, 1, 16, "add.f32");
        check_random(mk(OP_SUB, PT_F32, rnd), 2, gen32,
                     [](const uint64_t *s) { return canon32(u2f(s[0]) - u2f(s[1])); }, 2, 16, "sub.f32");
        check_random(mk(OP_MUL, PT_F32, rnd), 2, gen32,
                     [](const uint64_t *s) { return canon32(u2f(s[0]) * u2f(s[1])); }, 3, 16, "mul.f32");
        check_random(mk(OP_DIV, PT_F32, rnd), 2, gen32,
                     [](const uint64_t *s) { return canon32(u2f(s[0]) / u2f(s[1])); }, 4, 16, "div.f32");
        check_random(mk(OP_FMA, PT_F32, rnd), 3, gen32,
                     [](const uint64_t *s) { return canon32(std::fma(u2f(s[0]), u2f(s[1]), u2f(s[2]))); }, 5, 16,
                     "fma.f32");
        check_random(mk(OP_ADD, PT_F64, rnd), 2, gen64,
                     [](const uint64_t *s) { return canon64(u2d(s[0]) + u2d(s[1])); }, 6, 16, "add.f64");
        check_random(mk(OP_SUB, PT_F64, rnd), 2, gen64,
                     [](const uint64_t *s) { return canon64(u2d(s[0]) - u2d(s[1])); }, 7, 16, "sub.f64");
        check_random(mk(OP_MUL, PT_F64, rnd), 2, gen64,
                     [](const uint64_t *s) { return canon64(u2d(s[0]) * u2d(s[1])); }, 8, 16, "mul.f64");
        check_random(mk(OP_DIV, PT_F64, rnd), 2, gen64,
                     [](const uint64_t *s) { return canon64(u2d(s[0]) / u2d(s[1])); }, 9, 16, "div.f64");
        check_random(mk(OP_FMA, PT_F64, rnd), 3, gen64,
                     [](const uint64_t *s) { return canon64(std::fma(u2d(s[0]), u2d(s[1]), u2d(s[2]))); }, 10, 16,
                     "fma.f64");
        check_random(mk(OP_SQRT, PT_F32, rnd), 1, gen32,
                     [](const uint64_t *s) { return canon32(std::sqrt(u2f(s[0]))); }, 11, 16, "sqrt.f32");
        check_random(mk(OP_SQRT, PT_F64, rnd), 1, gen64,
                     [](const uint64_t *s) { return canon64(std::sqrt(u2d(s[0]))); }, 12, 16, "sqrt.f64");
        check_random(mk(OP_RCP, PT_F32, rnd), 1, gen32,
                     [](const uint64_t *s) { return canon32(1.0f / u2f(s[0])); }, 13, 16, "rcp.f32");
        check_random(mk(OP_RCP, PT_F64, rnd), 1, gen64,
                     [](const uint64_t *s) { return canon64(1.0 / u2d(s[0])); }, 14, 16, "rcp.f64");
    }
    // mad.f32/.f64 is fused.
    check_random(mk(OP_MAD, PT_F32, PR_RN), 3, gen32,
                 [](const uint64_t *s) { return canon32(std::fma(u2f(s[0]), u2f(s[1]), u2f(s[2]))); }, 15, 16,
                 "mad.rn.f32");
    check_random(mk(OP_MAD, PT_F64, PR_RN), 3, gen64,
                 [](const uint64_t *s) { return canon64(std::fma(u2d(s[0]), u2d(s[1]), u2d(s[2]))); }, 16, 16,
                 "mad.rn.f64");
}

TEST(AluFloat, NaNResultsAreCanonical)
{
    Warp w;
    w.src[0][0] = f2u(INFINITY);
    w.src[1][0] = f2u(INFINITY);
    w.src[0][1] = 0xffc00001u; // NaN with sign and payload
    w.src[1][1] = f2u(1.0f);
    ASSERT_EQ(w.run(mk(OP_SUB, PT_F32), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x7fffffffu);
    EXPECT_EQ(w.dst[0][1], 0x7fffffffu);
    w.src[0][0] = d2u(INFINITY);
    w.src[1][0] = d2u(-INFINITY);
    ASSERT_EQ(w.run(mk(OP_ADD, PT_F64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x7fffffffffffffffull);
}

// Division and the other ops in .rz .rm .rp, against an fesetround-free reference.
TEST(AluFloat, DirectedRoundingF32IsExact)
{
    for (Mode m : kDirected) {
        unsigned r = ptx_rnd_of(m);
        check_random(mk(OP_ADD, PT_F32, r), 2, gen32_finite,
                     [&](const uint64_t *s) {
                         double hi, lo;
                         two_sum(u2f(s[0]), u2f(s[1]), hi, lo);
                         return (uint64_t)f2u(round_f32(hi, lo, m));
                     },
                     20 + m, 16, "add.f32 directed");
        check_random(mk(OP_SUB, PT_F32, r), 2, gen32_finite,
                     [&](const uint64_t *s) {
                         double hi, lo;
                         two_sum(u2f(s[0]), -u2f(s[1]), hi, lo);
                         return (uint64_t)f2u(round_f32(hi, lo, m));
                     },
                     30 + m, 16, "sub.f32 directed");
        check_random(mk(OP_MUL, PT_F32, r), 2, gen32_finite,
                     [&](const uint64_t *s) {
                         return (uint64_t)f2u(round_f32((double)u2f(s[0]) * u2f(s[1]), 0.0, m)); // exact in double
                     },
                     40 + m, 16, "mul.f32 directed");
        check_random(mk(OP_DIV, PT_F32, r), 2, gen32_finite,
                     [&](const uint64_t *s) {
                         double a = u2f(s[0]), b = u2f(s[1]);
                         double q = a / b, rem = std::fma(-q, b, a);
                         return (uint64_t)f2u(round_f32(q, rem / b, m));
                     },
                     50 + m, 16, "div.f32 directed");
        check_random(mk(OP_FMA, PT_F32, r), 3, gen32_finite,
                     [&](const uint64_t *s) {
                         double p = (double)u2f(s[0]) * u2f(s[1]), hi, lo;
                         two_sum(p, u2f(s[2]), hi, lo);
                         return (uint64_t)f2u(round_f32(hi, lo, m));
                     },
                     60 + m, 16, "fma.f32 directed");
        check_random(mk(OP_RCP, PT_F32, r), 1, gen32_finite,
                     [&](const uint64_t *s) {
                         double b = u2f(s[0]), q = 1.0 / b, rem = std::fma(-q, b, 1.0);
                         return (uint64_t)f2u(round_f32(q, rem / b, m));
                     },
                     70 + m, 16, "rcp.f32 directed");
        check_random(mk(OP_SQRT, PT_F32, r), 1,
                     [](std::mt19937_64 &g, int) { return (uint64_t)f2u(std::fabs(rand_f32(g))); },
                     [&](const uint64_t *s) {
                         double a = u2f(s[0]), q = std::sqrt(a), rem = std::fma(-q, q, a);
                         return (uint64_t)f2u(round_f32(q, rem, m));
                     },
                     80 + m, 16, "sqrt.f32 directed");
    }
}

TEST(AluFloat, DirectedRoundingF64IsExact)
{
    for (Mode m : kDirected) {
        unsigned r = ptx_rnd_of(m);
        check_random(mk(OP_ADD, PT_F64, r), 2, gen64_finite,
                     [&](const uint64_t *s) {
                         double hi, lo;
                         two_sum(u2d(s[0]), u2d(s[1]), hi, lo);
                         return d2u(round_f64(hi, lo, m));
                     },
                     120 + m, 16, "add.f64 directed");
        check_random(mk(OP_MUL, PT_F64, r), 2, gen64_finite,
                     [&](const uint64_t *s) {
                         double a = u2d(s[0]), b = u2d(s[1]), p = a * b;
                         return d2u(round_f64(p, std::fma(a, b, -p), m));
                     },
                     140 + m, 16, "mul.f64 directed");
        check_random(mk(OP_DIV, PT_F64, r), 2, gen64_finite,
                     [&](const uint64_t *s) {
                         double a = u2d(s[0]), b = u2d(s[1]), q = a / b;
                         return d2u(round_f64(q, std::fma(-q, b, a) / b, m));
                     },
                     150 + m, 16, "div.f64 directed");
        check_random(mk(OP_SQRT, PT_F64, r), 1,
                     [](std::mt19937_64 &g, int) { return d2u(std::fabs(rand_f64(g))); },
                     [&](const uint64_t *s) {
                         double a = u2d(s[0]), q = std::sqrt(a);
                         return d2u(round_f64(q, std::fma(-q, q, a), m));
                     },
                     160 + m, 16, "sqrt.f64 directed");
        check_random(mk(OP_RCP, PT_F64, r), 1, gen64_finite,
                     [&](const uint64_t *s) {
                         double b = u2d(s[0]), q = 1.0 / b;
                         return d2u(round_f64(q, std::fma(-q, b, 1.0) / b, m));
                     },
                     170 + m, 16, "rcp.f64 directed");
    }
}

TEST(AluFloat, RoundingModesDifferOnOneThird)
{
    struct Case {
        unsigned rnd;
        uint32_t f32;
        uint64_t f64;
    } cases[] = {{PR_RN, 0x3eaaaaabu, 0x3fd5555555555555ull},
                 {PR_RZ, 0x3eaaaaaau, 0x3fd5555555555555ull},
                 {PR_RM, 0x3eaaaaaau, 0x3fd5555555555555ull},
                 {PR_RP, 0x3eaaaaabu, 0x3fd5555555555556ull}};
    for (auto &c : cases) {
        Warp w;
        w.src[0][0] = f2u(1.0f);
        w.src[1][0] = f2u(3.0f);
        w.src[0][1] = f2u(-1.0f);
        w.src[1][1] = f2u(3.0f);
        ASSERT_EQ(w.run(mk(OP_DIV, PT_F32, c.rnd), 3u), SIMT_ALU_OK);
        EXPECT_EQ(w.dst[0][0], c.f32) << "rnd " << c.rnd;
        // -1/3: .rm rounds away from zero, .rp toward it
        uint32_t neg = c.f32 | 0x80000000u;
        if (c.rnd == PR_RM)
            neg = 0xbeaaaaabu;
        if (c.rnd == PR_RP)
            neg = 0xbeaaaaaau;
        EXPECT_EQ(w.dst[0][1], neg) << "rnd " << c.rnd;
        w.src[0][0] = d2u(1.0);
        w.src[1][0] = d2u(3.0);
        ASSERT_EQ(w.run(mk(OP_DIV, PT_F64, c.rnd), 1u), SIMT_ALU_OK);
        EXPECT_EQ(w.dst[0][0], c.f64) << "rnd " << c.rnd;
    }
    // x + (-x) is -0 only in .rm.
    for (unsigned rnd : {(unsigned)PR_RN, (unsigned)PR_RZ, (unsigned)PR_RM, (unsigned)PR_RP}) {
        Warp w;
        w.src[0][0] = f2u(1.5f);
        w.src[1][0] = f2u(-1.5f);
        ASSERT_EQ(w.run(mk(OP_ADD, PT_F32, rnd), 1u), SIMT_ALU_OK);
        EXPECT_EQ(w.dst[0][0], rnd == PR_RM ? 0x80000000u : 0u) << rnd;
    }
    // Overflow: .rz and .rm give FLT_MAX for a positive overflow, .rn and .rp infinity.
    for (unsigned rnd : {(unsigned)PR_RN, (unsigned)PR_RZ, (unsigned)PR_RM, (unsigned)PR_RP}) {
        Warp w;
        w.src[0][0] = f2u(FLT_MAX);
        w.src[1][0] = f2u(2.0f);
        ASSERT_EQ(w.run(mk(OP_MUL, PT_F32, rnd), 1u), SIMT_ALU_OK);
        EXPECT_EQ(w.dst[0][0], (rnd == PR_RZ || rnd == PR_RM) ? 0x7f7fffffu : 0x7f800000u) << rnd;
    }
    // The host mode is restored afterwards.
    EXPECT_EQ(fegetround(), FE_TONEAREST);
}

TEST(AluFloat, FmaRoundsOnce)
{
    Warp w;
    const float a = 1.0f + std::ldexp(1.0f, -23), b = 1.0f - std::ldexp(1.0f, -23);
    for (int l = 0; l < 2; l++) {
        w.src[0][l] = f2u(a);
        w.src[1][l] = f2u(b);
        w.src[2][l] = f2u(-1.0f);
    }
    ASSERT_EQ(w.run(mk(OP_FMA, PT_F32, PR_RN), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(w.dst[0][0]), -std::ldexp(1.0f, -46)); // exact a*b - 1
    ASSERT_EQ(w.run(mk(OP_MAD, PT_F32, PR_RN), 2u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(w.dst[0][1]), -std::ldexp(1.0f, -46)); // mad.rn.f32 is fused too
    Warp m;
    m.src[0][0] = f2u(a);
    m.src[1][0] = f2u(b);
    ASSERT_EQ(m.run(mk(OP_MUL, PT_F32, PR_RN), 1u), SIMT_ALU_OK);
    m.src[0][0] = m.dst[0][0];
    m.src[1][0] = f2u(-1.0f);
    ASSERT_EQ(m.run(mk(OP_ADD, PT_F32, PR_RN), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(m.dst[0][0]), 0.0f); // mul then add loses it

    const double da = 1.0 + std::ldexp(1.0, -52), db = 1.0 - std::ldexp(1.0, -52);
    Warp d;
    d.src[0][0] = d2u(da);
    d.src[1][0] = d2u(db);
    d.src[2][0] = d2u(-1.0);
    ASSERT_EQ(d.run(mk(OP_FMA, PT_F64, PR_RN), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2d(d.dst[0][0]), -std::ldexp(1.0, -104));
    // fma.rm/.rp of the same: the exact result is representable, so all modes agree...
    ASSERT_EQ(d.run(mk(OP_FMA, PT_F64, PR_RP), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2d(d.dst[0][0]), -std::ldexp(1.0, -104));
    // ...but 1 + tiny differs between .rm and .rp.
    d.src[2][0] = d2u(1.0);
    d.src[0][0] = d2u(std::ldexp(1.0, -80));
    d.src[1][0] = d2u(1.0);
    ASSERT_EQ(d.run(mk(OP_FMA, PT_F64, PR_RP), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2d(d.dst[0][0]), std::nextafter(1.0, 2.0));
    ASSERT_EQ(d.run(mk(OP_FMA, PT_F64, PR_RM), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2d(d.dst[0][0]), 1.0);
}

TEST(AluFloat, FtzFlushesSubnormalInputsAndResults)
{
    const float sub = std::ldexp(1.0f, -140);
    Warp w;
    w.src[0][0] = f2u(sub);
    w.src[1][0] = f2u(0.0f);
    w.src[0][1] = f2u(-sub);
    w.src[1][1] = f2u(0.0f);
    w.src[0][2] = f2u(std::ldexp(1.0f, -70)); // product 2^-140: a subnormal result
    w.src[1][2] = f2u(std::ldexp(1.0f, -70));
    w.src[0][3] = f2u(-std::ldexp(1.0f, -70));
    w.src[1][3] = f2u(std::ldexp(1.0f, -70));
    ASSERT_EQ(w.run(mk(OP_ADD, PT_F32, PR_NONE, PM_NONE, PF_FTZ), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0u);
    EXPECT_EQ(w.dst[0][1], 0u); // -sub + 0 = -0 + 0 = +0
    ASSERT_EQ(w.run(mk(OP_MUL, PT_F32, PR_NONE, PM_NONE, PF_FTZ), 15u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0u);
    EXPECT_EQ(w.dst[0][1], 0x80000000u); // -0 * 0 keeps the sign
    EXPECT_EQ(w.dst[0][2], 0u);
    EXPECT_EQ(w.dst[0][3], 0x80000000u);
    // Without .ftz the subnormals survive.
    ASSERT_EQ(w.run(mk(OP_ADD, PT_F32), 3u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(w.dst[0][0]), sub);
    EXPECT_EQ(u2f(w.dst[0][1]), -sub);
    ASSERT_EQ(w.run(mk(OP_MUL, PT_F32), 12u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(w.dst[0][2]), sub);
    EXPECT_EQ(u2f(w.dst[0][3]), -sub);
    // fma, neg, abs, min with .ftz.
    Warp f;
    f.src[0][0] = f2u(sub);
    f.src[1][0] = f2u(1.0f);
    f.src[2][0] = f2u(0.0f);
    ASSERT_EQ(f.run(mk(OP_FMA, PT_F32, PR_RN, PM_NONE, PF_FTZ), 1u), SIMT_ALU_OK);
    EXPECT_EQ(f.dst[0][0], 0u);
    ASSERT_EQ(f.run(mk(OP_NEG, PT_F32, PR_NONE, PM_NONE, PF_FTZ), 1u), SIMT_ALU_OK);
    EXPECT_EQ(f.dst[0][0], 0x80000000u);
    ASSERT_EQ(f.run(mk(OP_NEG, PT_F32), 1u), SIMT_ALU_OK);
    EXPECT_EQ(f.dst[0][0], f2u(-sub));
    f.src[0][0] = f2u(-sub);
    ASSERT_EQ(f.run(mk(OP_ABS, PT_F32, PR_NONE, PM_NONE, PF_FTZ), 1u), SIMT_ALU_OK);
    EXPECT_EQ(f.dst[0][0], 0u);
    ASSERT_EQ(f.run(mk(OP_ABS, PT_F32), 1u), SIMT_ALU_OK);
    EXPECT_EQ(f.dst[0][0], f2u(sub));
    f.src[1][0] = f2u(0.0f);
    ASSERT_EQ(f.run(mk(OP_MIN, PT_F32, PR_NONE, PM_NONE, PF_FTZ), 1u), SIMT_ALU_OK);
    EXPECT_EQ(f.dst[0][0], 0x80000000u); // min(-0, +0) after flushing
}

TEST(AluFloat, SatClampsToUnitIntervalAndNaNToZero)
{
    Warp w;
    float as[] = {0.5f, -3.0f, INFINITY, 0.25f, -0.0f, 2.0f};
    float bs[] = {0.7f, 1.0f, -INFINITY, 0.0f, 0.0f, -0.5f};
    uint32_t want[] = {f2u(1.0f), 0, 0, f2u(0.25f), 0, f2u(1.0f)};
    for (int l = 0; l < 6; l++) {
        w.src[0][l] = f2u(as[l]);
        w.src[1][l] = f2u(bs[l]);
        w.src[2][l] = f2u(0.0f);
    }
    ASSERT_EQ(w.run(mk(OP_ADD, PT_F32, PR_NONE, PM_NONE, PF_SAT), 0x3fu), SIMT_ALU_OK);
    for (int l = 0; l < 6; l++)
        EXPECT_EQ(w.dst[0][l], want[l]) << l;
    ASSERT_EQ(w.run(mk(OP_MUL, PT_F32, PR_RN, PM_NONE, PF_SAT), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], f2u(0.5f * 0.7f));
    ASSERT_EQ(w.run(mk(OP_FMA, PT_F32, PR_RN, PM_NONE, PF_SAT), 2u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][1], 0u);
}

TEST(AluFloat, MinMaxIgnoreNaNAndOrderSignedZeros)
{
    const float nan = std::nanf("");
    struct C {
        float a, b, mn, mx;
    } cs[] = {{nan, 1.0f, 1.0f, 1.0f},   {1.0f, nan, 1.0f, 1.0f},  {-0.0f, 0.0f, -0.0f, 0.0f},
              {0.0f, -0.0f, -0.0f, 0.0f}, {-2.0f, 3.0f, -2.0f, 3.0f}, {-INFINITY, nan, -INFINITY, -INFINITY}};
    Warp w;
    int n = sizeof cs / sizeof cs[0];
    for (int l = 0; l < n; l++) {
        w.src[0][l] = f2u(cs[l].a);
        w.src[1][l] = f2u(cs[l].b);
    }
    w.src[0][n] = 0xffc00000u; // both NaN
    w.src[1][n] = 0x7fc00001u;
    uint32_t act = (1u << (n + 1)) - 1;
    ASSERT_EQ(w.run(mk(OP_MIN, PT_F32), act), SIMT_ALU_OK);
    for (int l = 0; l < n; l++)
        EXPECT_EQ(w.dst[0][l], f2u(cs[l].mn)) << "min lane " << l;
    EXPECT_EQ(w.dst[0][n], 0x7fffffffu);
    ASSERT_EQ(w.run(mk(OP_MAX, PT_F32), act), SIMT_ALU_OK);
    for (int l = 0; l < n; l++)
        EXPECT_EQ(w.dst[0][l], f2u(cs[l].mx)) << "max lane " << l;
    EXPECT_EQ(w.dst[0][n], 0x7fffffffu);

    Warp d;
    for (int l = 0; l < n; l++) {
        d.src[0][l] = d2u(cs[l].a);
        d.src[1][l] = d2u(cs[l].b);
    }
    d.src[0][n] = 0x7ff8000000000000ull;
    d.src[1][n] = 0xfff8000000000000ull;
    ASSERT_EQ(d.run(mk(OP_MIN, PT_F64), act), SIMT_ALU_OK);
    for (int l = 0; l < n; l++)
        EXPECT_EQ(d.dst[0][l], d2u(cs[l].mn)) << "min.f64 lane " << l;
    EXPECT_EQ(d.dst[0][n], 0x7fffffffffffffffull);
    ASSERT_EQ(d.run(mk(OP_MAX, PT_F64), act), SIMT_ALU_OK);
    for (int l = 0; l < n; l++)
        EXPECT_EQ(d.dst[0][l], d2u(cs[l].mx)) << "max.f64 lane " << l;

    // Random finite values agree with fmin/fmax.
    check_random(mk(OP_MIN, PT_F32), 2, gen32_finite,
                 [](const uint64_t *s) { return (uint64_t)f2u(std::fmin(u2f(s[0]), u2f(s[1]))); }, 90);
    check_random(mk(OP_MAX, PT_F64), 2, gen64_finite,
                 [](const uint64_t *s) { return d2u(std::fmax(u2d(s[0]), u2d(s[1]))); }, 91);
}

TEST(AluFloat, AbsNegCopysignAreSignBitOps)
{
    check_random(mk(OP_ABS, PT_F32), 1, gen32, [](const uint64_t *s) { return s[0] & 0x7fffffffu; }, 100);
    check_random(mk(OP_NEG, PT_F32), 1, gen32, [](const uint64_t *s) { return (s[0] ^ 0x80000000u) & 0xffffffffu; },
                 101);
    check_random(mk(OP_ABS, PT_F64), 1, gen64, [](const uint64_t *s) { return s[0] & ~(1ull << 63); }, 102);
    check_random(mk(OP_NEG, PT_F64), 1, gen64, [](const uint64_t *s) { return s[0] ^ (1ull << 63); }, 103);
    // copysign d, a, b: |b| with the sign of a.
    check_random(mk(OP_COPYSIGN, PT_F32), 2, gen32,
                 [](const uint64_t *s) { return (uint64_t)((s[1] & 0x7fffffffu) | (s[0] & 0x80000000u)); }, 104);
    check_random(mk(OP_COPYSIGN, PT_F64), 2, gen64,
                 [](const uint64_t *s) { return d2u(std::copysign(u2d(s[1]), u2d(s[0]))); }, 105);
    Warp w;
    w.src[0][0] = f2u(-1.0f);
    w.src[1][0] = f2u(2.0f);
    ASSERT_EQ(w.run(mk(OP_COPYSIGN, PT_F32), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(w.dst[0][0]), -2.0f);
}

TEST(AluFloat, ApproxDivisionAndRoots)
{
    auto rel_close = [](double got, double want, double tol) {
        if (std::isnan(want))
            return std::isnan(got);
        if (std::isinf(want) || want == 0)
            return got == want;
        return std::fabs(got - want) <= tol * std::fabs(want);
    };
    std::mt19937_64 g(110);
    Warp w;
    for (int l = 0; l < W; l++) {
        w.src[0][l] = f2u(rand_f32(g, -20, 20));
        w.src[1][l] = f2u(std::fabs(rand_f32(g, -20, 20)));
    }
    w.src[1][0] = f2u(0.0f);
    ASSERT_EQ(w.run(mk(OP_DIV, PT_F32, PR_NONE, PM_NONE, PF_APPROX)), SIMT_ALU_OK);
    for (int l = 0; l < W; l++)
        EXPECT_TRUE(rel_close(u2f(w.dst[0][l]), (double)u2f(w.src[0][l]) / u2f(w.src[1][l]), 3e-7)) << l;
    ASSERT_EQ(w.run(mk(OP_DIV, PT_F32, PR_NONE, PM_NONE, PF_FULL)), SIMT_ALU_OK);
    for (int l = 0; l < W; l++)
        EXPECT_EQ(w.dst[0][l], canon32(u2f(w.src[0][l]) / u2f(w.src[1][l]))) << l;
    ASSERT_EQ(w.run(mk(OP_RCP, PT_F32, PR_NONE, PM_NONE, PF_APPROX | PF_FTZ)), SIMT_ALU_OK);
    for (int l = 0; l < W; l++)
        EXPECT_TRUE(rel_close(u2f(w.dst[0][l]), 1.0 / u2f(w.src[0][l]), 2e-7)) << l;
    ASSERT_EQ(w.run(mk(OP_SQRT, PT_F32, PR_NONE, PM_NONE, PF_APPROX)), SIMT_ALU_OK);
    for (int l = 0; l < W; l++)
        EXPECT_TRUE(rel_close(u2f(w.dst[0][l]), std::sqrt((double)u2f(w.src[0][l])), 3e-7)) << l;
    // rsqrt of |b|
    Warp r = w;
    for (int l = 0; l < W; l++)
        r.src[0][l] = w.src[1][l];
    ASSERT_EQ(r.run(mk(OP_RSQRT, PT_F32, PR_NONE, PM_NONE, PF_APPROX)), SIMT_ALU_OK);
    for (int l = 0; l < W; l++)
        EXPECT_TRUE(rel_close(u2f(r.dst[0][l]), 1.0 / std::sqrt((double)u2f(r.src[0][l])), 2.5e-7)) << l;
    EXPECT_EQ(u2f(r.dst[0][0]), INFINITY);
    // f64 approximations
    Warp d;
    for (int l = 0; l < W; l++)
        d.src[0][l] = d2u(std::fabs(rand_f64(g)));
    ASSERT_EQ(d.run(mk(OP_RCP, PT_F64, PR_NONE, PM_NONE, PF_APPROX | PF_FTZ)), SIMT_ALU_OK);
    for (int l = 0; l < W; l++)
        EXPECT_TRUE(rel_close(u2d(d.dst[0][l]), 1.0 / u2d(d.src[0][l]), 1e-15)) << l;
    ASSERT_EQ(d.run(mk(OP_RSQRT, PT_F64, PR_NONE, PM_NONE, PF_APPROX)), SIMT_ALU_OK);
    for (int l = 0; l < W; l++)
        EXPECT_TRUE(rel_close(u2d(d.dst[0][l]), 1.0 / std::sqrt(u2d(d.src[0][l])), 1e-15)) << l;
}

TEST(AluFloat, TranscendentalApproximations)
{
    std::mt19937_64 g(120);
    Warp w;
    for (int l = 0; l < W; l++)
        w.src[0][l] = f2u(rand_f32(g, -5, 5));
    struct F {
        ptx_op op;
        double (*ref)(double);
        double tol; // absolute error for sin/cos/tanh, relative for ex2/lg2
        bool rel;
    } fs[] = {{OP_EX2, [](double x) { return std::exp2(x); }, 2e-6, true},
              {OP_LG2, [](double x) { return std::log2(x); }, 2e-6, false},
              {OP_SIN, [](double x) { return std::sin(x); }, 2e-6, false},
              {OP_COS, [](double x) { return std::cos(x); }, 2e-6, false},
              {OP_TANH, [](double x) { return std::tanh(x); }, 2e-6, false}};
    for (auto &f : fs) {
        ASSERT_EQ(w.run(mk(f.op, PT_F32, PR_NONE, PM_NONE, PF_APPROX)), SIMT_ALU_OK);
        for (int l = 0; l < W; l++) {
            double x = u2f(w.src[0][l]);
            double want = f.ref(x), got = u2f(w.dst[0][l]);
            if (std::isnan(want)) {
                EXPECT_EQ(w.dst[0][l], 0x7fffffffu) << "op " << f.op << " x=" << x; // canonical NaN
                continue;
            }
            double err = std::fabs(got - want);
            EXPECT_LE(err, f.rel ? f.tol * std::fabs(want) : f.tol) << "op " << f.op << " x=" << x;
        }
    }
    Warp s;
    const float sub = std::ldexp(1.0f, -140);
    s.src[0][0] = f2u(sub);           // ex2(subnormal) with .ftz = ex2(0) = 1
    s.src[0][1] = f2u(-130.0f);       // ex2(-130) is subnormal: flushed with .ftz
    s.src[0][2] = f2u(0.0f);          // lg2(0) = -inf
    s.src[0][3] = f2u(-1.0f);         // lg2(-1) = NaN
    ASSERT_EQ(s.run(mk(OP_EX2, PT_F32, PR_NONE, PM_NONE, PF_APPROX | PF_FTZ), 3u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(s.dst[0][0]), 1.0f);
    EXPECT_EQ(s.dst[0][1], 0u);
    ASSERT_EQ(s.run(mk(OP_EX2, PT_F32, PR_NONE, PM_NONE, PF_APPROX), 3u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(s.dst[0][1]), std::ldexp(1.0f, -130));
    ASSERT_EQ(s.run(mk(OP_LG2, PT_F32, PR_NONE, PM_NONE, PF_APPROX), 12u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(s.dst[0][2]), -INFINITY);
    EXPECT_EQ(s.dst[0][3], 0x7fffffffu);
    ASSERT_EQ(s.run(mk(OP_SIN, PT_F32, PR_NONE, PM_NONE, PF_APPROX | PF_FTZ), 1u), SIMT_ALU_OK);
    EXPECT_EQ(s.dst[0][0], 0u); // sin(flushed subnormal) = 0
}

TEST(AluFloat, TestpClassifies)
{
    struct C {
        uint32_t bits;
        bool finite, infinite, number, nan, normal, subnormal;
    } cs[] = {{0x00000000u, 1, 0, 1, 0, 1, 0}, {0x80000000u, 1, 0, 1, 0, 1, 0}, {0x3f800000u, 1, 0, 1, 0, 1, 0},
              {0x00000001u, 1, 0, 1, 0, 0, 1}, {0x807fffffu, 1, 0, 1, 0, 0, 1}, {0x7f800000u, 0, 1, 1, 0, 0, 0},
              {0xff800000u, 0, 1, 1, 0, 0, 0}, {0x7fc00000u, 0, 0, 0, 1, 0, 0}, {0xff800001u, 0, 0, 0, 1, 0, 0}};
    const unsigned modes[] = {PM_TESTP_FINITE, PM_TESTP_INFINITE,  PM_TESTP_NUMBER,
                              PM_TESTP_NOTANUMBER, PM_TESTP_NORMAL, PM_TESTP_SUBNORMAL};
    int n = sizeof cs / sizeof cs[0];
    for (int k = 0; k < 6; k++) {
        Warp w, d;
        for (int l = 0; l < n; l++) {
            w.src[0][l] = cs[l].bits;
            float f = u2f(cs[l].bits);
            // the f64 image of the same class (subnormal f32 -> subnormal f64 pattern)
            d.src[0][l] = (cs[l].bits & 0x7f800000u) == 0 && (cs[l].bits & 0x7fffffu)
                              ? ((uint64_t)(cs[l].bits >> 31) << 63) | 5
                              : d2u((double)f);
            if (std::isnan(f))
                d.src[0][l] = 0x7ff0000000000001ull;
        }
        ASSERT_EQ(w.run(mk(OP_TESTP, PT_F32, PR_NONE, modes[k]), (1u << n) - 1), SIMT_ALU_OK);
        ASSERT_EQ(d.run(mk(OP_TESTP, PT_F64, PR_NONE, modes[k]), (1u << n) - 1), SIMT_ALU_OK);
        for (int l = 0; l < n; l++) {
            bool want[] = {cs[l].finite, cs[l].infinite, cs[l].number, cs[l].nan, cs[l].normal, cs[l].subnormal};
            EXPECT_EQ(w.dst[0][l], want[k] ? 1u : 0u) << "mode " << modes[k] << " lane " << l;
            EXPECT_EQ(d.dst[0][l], want[k] ? 1u : 0u) << "f64 mode " << modes[k] << " lane " << l;
        }
    }
}

TEST(AluFloat, InactiveLanesUntouchedAndModeRestored)
{
    const uint32_t active = 0x80000001u;
    for (ptx_instr in : {mk(OP_ADD, PT_F32, PR_RZ), mk(OP_DIV, PT_F64, PR_RP), mk(OP_EX2, PT_F32, PR_NONE, PM_NONE, PF_APPROX),
                         mk(OP_MIN, PT_F32), mk(OP_TESTP, PT_F64, PR_NONE, PM_TESTP_NORMAL)}) {
        Warp w;
        for (int l = 0; l < W; l++)
            w.src[0][l] = w.src[1][l] = w.src[2][l] = f2u(1.0f);
        ASSERT_EQ(w.run(in, active), SIMT_ALU_OK);
        for (int l = 1; l < 31; l++)
            ASSERT_EQ(w.dst[0][l], SENTINEL) << "op " << in.op << " lane " << l;
        EXPECT_NE(w.dst[0][0], SENTINEL);
        EXPECT_NE(w.dst[0][31], SENTINEL);
        EXPECT_EQ(fegetround(), FE_TONEAREST);
    }
}

TEST(AluFloat, SupportsFloatForms)
{
    InstrValue ok[] = {mk(OP_ADD, PT_F32, PR_RZ, PM_NONE, PF_FTZ | PF_SAT), mk(OP_FMA, PT_F64, PR_RM),
                      mk(OP_DIV, PT_F32, PR_NONE, PM_NONE, PF_FULL | PF_FTZ), mk(OP_RCP, PT_F64, PR_NONE, PM_NONE, PF_APPROX | PF_FTZ),
                      mk(OP_SQRT, PT_F32, PR_NONE, PM_NONE, PF_APPROX | PF_FTZ), mk(OP_TANH, PT_F32, PR_NONE, PM_NONE, PF_APPROX),
                      mk(OP_COPYSIGN, PT_F64), mk(OP_TESTP, PT_F32, PR_NONE, PM_TESTP_SUBNORMAL),
                      mk(OP_MAD, PT_F32, PR_RP, PM_NONE, PF_SAT)};
    for (auto &in : ok)
        EXPECT_TRUE(sup(in)) << "op " << in.op;
    InstrValue bad[] = {mk(OP_ADD, PT_F16),
                       mk(OP_ADD, PT_F64, PR_NONE, PM_NONE, PF_SAT),
                       mk(OP_ADD, PT_F64, PR_NONE, PM_NONE, PF_FTZ),
                       mk(OP_ADD, PT_F32, PR_RNI),
                       mk(OP_EX2, PT_F64, PR_NONE, PM_NONE, PF_APPROX),
                       mk(OP_SQRT, PT_F64, PR_NONE, PM_NONE, PF_APPROX),
                       mk(OP_DIV, PT_F32, PR_RN, PM_NONE, PF_APPROX),
                       mk(OP_DIV, PT_F32, PR_NONE, PM_NONE, PF_APPROX | PF_FULL),
                       mk(OP_DIV, PT_F64, PR_NONE, PM_NONE, PF_APPROX),
                       mk(OP_MUL, PT_F32, PR_NONE, PM_WIDE),
                       mk(OP_TESTP, PT_F32),
                       mk(OP_COPYSIGN, PT_F32, PR_RN),
                       mk(OP_MIN, PT_F32, PR_RZ)};
    for (auto &in : bad) {
        EXPECT_FALSE(sup(in)) << "op " << in.op << " type " << int(in.type);
        Warp w;
        EXPECT_EQ(w.run(in), SIMT_ALU_UNSUPPORTED);
        EXPECT_EQ(w.dst[0][0], SENTINEL);
    }
}

} // namespace
