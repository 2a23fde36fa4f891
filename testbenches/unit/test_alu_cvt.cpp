// Unit tests of the warp-wide ALU (model/simt): cvt between every integer and float type,
// saturation, rounding (float and integral), .ftz, and f16.
#include "test_alu_common.h"

#include <cfenv>

using namespace alu_test;

namespace {

typedef __int128 i128;

const ptx_type kInts[] = {PT_U8, PT_U16, PT_U32, PT_U64, PT_S8, PT_S16, PT_S32, PT_S64};

int wof(ptx_type t)
{
    switch (t) {
    case PT_U8: case PT_S8: return 8;
    case PT_U16: case PT_S16: case PT_F16: return 16;
    case PT_U32: case PT_S32: case PT_F32: return 32;
    default: return 64;
    }
}
bool sg(ptx_type t) { return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64; }
i128 ival(uint64_t x, ptx_type t)
{
    switch (t) {
    case PT_U8: return static_cast<uint8_t>(x);
    case PT_S8: return static_cast<int8_t>(x);
    case PT_U16: return static_cast<uint16_t>(x);
    case PT_S16: return static_cast<int16_t>(x);
    case PT_U32: return static_cast<uint32_t>(x);
    case PT_S32: return static_cast<int32_t>(x);
    case PT_U64: return static_cast<uint64_t>(x);
    default: return static_cast<int64_t>(x);
    }
}
i128 tmin(ptx_type t) { return sg(t) ? -(static_cast<i128>(1) << (wof(t) - 1)) : 0; }
i128 tmax(ptx_type t) { return sg(t) ? (static_cast<i128>(1) << (wof(t) - 1)) - 1 : (static_cast<i128>(1) << wof(t)) - 1; }
uint64_t bits(i128 v, int w)
{
    unsigned __int128 u = static_cast<unsigned __int128>(v);
    return w == 64 ? static_cast<uint64_t>(u) : static_cast<uint64_t>(u & ((static_cast<unsigned __int128>(1) << w) - 1));
}

uint64_t canon32(float f) { return std::isnan(f) ? 0x7fffffffu : f2u(f); }
uint64_t canon64(double d) { return std::isnan(d) ? 0x7fffffffffffffffull : d2u(d); }

TEST(AluCvt, IntToIntTruncatesOrExtendsBySourceAndDestination)
{
    for (ptx_type dt : kInts)
        for (ptx_type st : kInts) {
            check_random(mk(OP_CVT, dt, PR_NONE, PM_NONE, 0, st), 1,
                         [](std::mt19937_64 &g, int) { return edge_int(g); },
                         [&](const uint64_t *s) { return bits(ival(s[0], st), wof(dt)); }, 100 * dt + st, 4, "cvt");
            check_random(mk(OP_CVT, dt, PR_NONE, PM_NONE, PF_SAT, st), 1,
                         [](std::mt19937_64 &g, int) { return edge_int(g); },
                         [&](const uint64_t *s) {
                             i128 v = ival(s[0], st);
                             v = v < tmin(dt) ? tmin(dt) : v > tmax(dt) ? tmax(dt) : v;
                             return bits(v, wof(dt));
                         },
                         100 * dt + st + 50, 4, "cvt.sat");
        }
    Warp w;
    w.src[0][0] = 0x80; // s8 -128
    w.src[0][1] = 0xffffffffu;
    ASSERT_EQ(w.run(mk(OP_CVT, PT_S32, PR_NONE, PM_NONE, 0, PT_S8), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0xffffff80u);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_S64, PR_NONE, PM_NONE, 0, PT_S32), 2u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][1], ~0ull);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_U64, PR_NONE, PM_NONE, 0, PT_U32), 2u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][1], 0xffffffffull);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_U16, PR_NONE, PM_NONE, PF_SAT, PT_S32), 2u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][1], 0u); // -1 saturates to 0
}

TEST(AluCvt, IntToFloatRoundsInEveryMode)
{
    for (ptx_type st : kInts) {
        for (Mode m : {RN, RZ, RM, RP}) {
            check_random(mk(OP_CVT, PT_F32, ptx_rnd_of(m), PM_NONE, 0, st), 1,
                         [](std::mt19937_64 &g, int) { return edge_int(g); },
                         [&](const uint64_t *s) -> uint64_t {
                             i128 v = ival(s[0], st);
                             double hi = static_cast<double>(v);                  // RN to 53 bits
                             double lo = static_cast<double>(v - static_cast<i128>(hi)); // exact residual
                             if (m == RN)
                                 return f2u(sg(st) ? static_cast<float>(static_cast<int64_t>(v))
                                                   : static_cast<float>(static_cast<uint64_t>(v)));
                             return f2u(round_f32(hi, lo, m));
                         },
                         200 + st * 4 + m, 8, "cvt.f32.int");
            check_random(mk(OP_CVT, PT_F64, ptx_rnd_of(m), PM_NONE, 0, st), 1,
                         [](std::mt19937_64 &g, int) { return edge_int(g); },
                         [&](const uint64_t *s) -> uint64_t {
                             i128 v = ival(s[0], st);
                             double hi = static_cast<double>(v);
                             return d2u(round_f64(hi, static_cast<double>(v - static_cast<i128>(hi)), m));
                         },
                         300 + st * 4 + m, 8, "cvt.f64.int");
        }
    }
    // Where the modes differ: 2^24 + 1 in f32, 2^53 + 1 in f64, and negative values.
    Warp w;
    w.src[0][0] = (1u << 24) + 1;
    w.src[0][1] = static_cast<uint32_t>(-((1 << 24) + 1));
    const struct {
        unsigned rnd;
        float p, n;
    } cs[] = {{PR_RN, 16777216.0f, -16777216.0f},
              {PR_RZ, 16777216.0f, -16777216.0f},
              {PR_RM, 16777216.0f, -16777218.0f},
              {PR_RP, 16777218.0f, -16777216.0f}};
    for (auto &c : cs) {
        ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, c.rnd, PM_NONE, 0, PT_S32), 3u), SIMT_ALU_OK);
        EXPECT_EQ(u2f(w.dst[0][0]), c.p) << c.rnd;
        EXPECT_EQ(u2f(w.dst[0][1]), c.n) << c.rnd;
    }
    w.src[0][0] = (1ull << 53) + 1;
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F64, PR_RP, PM_NONE, 0, PT_U64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2d(w.dst[0][0]), 9007199254740994.0);
    w.src[0][0] = 0x8000000000000001ull; // 2^63 + 1: inexact only through its lowest bit
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F64, PR_RP, PM_NONE, 0, PT_U64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2d(w.dst[0][0]), std::ldexp(1.0, 63) + std::ldexp(1.0, 11));
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_RP, PM_NONE, 0, PT_U64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(w.dst[0][0]), std::ldexp(1.0f, 63) + std::ldexp(1.0f, 40));
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F64, PR_RZ, PM_NONE, 0, PT_U64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2d(w.dst[0][0]), std::ldexp(1.0, 63));
    w.src[0][0] = 0;
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F64, PR_RM, PM_NONE, 0, PT_U32), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0u); // +0, not -0
    w.src[0][0] = ~0ull; // 2^64 - 1
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_RZ, PM_NONE, 0, PT_U64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x5f7fffffu);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_RN, PM_NONE, 0, PT_U64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x5f800000u);
    EXPECT_EQ(fegetround(), FE_TONEAREST);
}

TEST(AluCvt, FloatToIntRoundsAndSaturates)
{
    struct C {
        float x;
        unsigned rnd;
        ptx_type t;
        uint64_t want;
    } cs[] = {
        {2.5f, PR_RNI, PT_S32, 2},
        {3.5f, PR_RNI, PT_S32, 4},
        {-2.5f, PR_RNI, PT_S32, static_cast<uint32_t>(-2)},
        {2.7f, PR_RZI, PT_S32, 2},
        {-2.7f, PR_RZI, PT_S32, static_cast<uint32_t>(-2)},
        {-2.5f, PR_RMI, PT_S32, static_cast<uint32_t>(-3)},
        {2.5f, PR_RMI, PT_S32, 2},
        {-2.5f, PR_RPI, PT_S32, static_cast<uint32_t>(-2)},
        {2.1f, PR_RPI, PT_S32, 3},
        {NAN, PR_RNI, PT_S32, 0},
        {NAN, PR_RZI, PT_U64, 0},
        {1e10f, PR_RZI, PT_S32, 0x7fffffffu},
        {-1e10f, PR_RZI, PT_S32, 0x80000000u},
        {-1.0f, PR_RNI, PT_U32, 0},
        {-0.7f, PR_RZI, PT_U32, 0},
        {1e10f, PR_RZI, PT_U32, 0xffffffffu},
        {INFINITY, PR_RNI, PT_S64, 0x7fffffffffffffffull},
        {-INFINITY, PR_RNI, PT_S64, 0x8000000000000000ull},
        {1e30f, PR_RNI, PT_U64, ~0ull},
        {9.2233720e18f, PR_RZI, PT_S64, 0x7fffffffffffffffull}, // 2^63 exactly: out of range
        {-9.2233720e18f, PR_RZI, PT_S64, 0x8000000000000000ull},
        {300.0f, PR_RZI, PT_U8, 0xff},
        {-300.0f, PR_RZI, PT_S8, 0x80},
        {-129.0f, PR_RZI, PT_S8, 0x80},
        {127.4f, PR_RNI, PT_S8, 0x7f},
        {40000.0f, PR_RNI, PT_S16, 0x7fff},
        {65535.4f, PR_RNI, PT_U16, 0xffff},
    };
    for (auto &c : cs) {
        Warp w;
        w.src[0][0] = f2u(c.x);
        w.src[0][1] = d2u(static_cast<double>(c.x));
        ASSERT_EQ(w.run(mk(OP_CVT, c.t, c.rnd, PM_NONE, 0, PT_F32), 1u), SIMT_ALU_OK);
        EXPECT_EQ(w.dst[0][0], c.want) << "f32 " << c.x << " rnd " << c.rnd << " type " << int(c.t);
        Warp d = w;
        d.src[0][0] = d2u(static_cast<double>(c.x));
        ASSERT_EQ(d.run(mk(OP_CVT, c.t, c.rnd, PM_NONE, 0, PT_F64), 1u), SIMT_ALU_OK);
        EXPECT_EQ(d.dst[0][0], c.want) << "f64 " << c.x << " rnd " << c.rnd << " type " << int(c.t);
    }
    // Random values against a reference for every destination type and rounding.
    for (ptx_type dt : kInts)
        for (unsigned rnd : {(unsigned)PR_RNI, (unsigned)PR_RZI, (unsigned)PR_RMI, (unsigned)PR_RPI}) {
            auto ref = [&](double x) -> uint64_t {
                if (std::isnan(x))
                    return 0;
                double r = rnd == PR_RNI ? std::nearbyint(x) : rnd == PR_RZI ? std::trunc(x) : rnd == PR_RMI ? std::floor(x) : std::ceil(x);
                if (r <= static_cast<double>(tmin(dt)))
                    return bits(tmin(dt), wof(dt));
                if (r >= std::ldexp(1.0, sg(dt) ? wof(dt) - 1 : wof(dt)))
                    return bits(tmax(dt), wof(dt));
                return bits(static_cast<i128>(r), wof(dt));
            };
            check_random(mk(OP_CVT, dt, rnd, PM_NONE, 0, PT_F64), 1,
                         [](std::mt19937_64 &g, int) { return d2u(rand_f64(g, -3, 70)); },
                         [&](const uint64_t *s) { return ref(u2d(s[0])); }, 400 + dt * 8 + rnd, 8, "cvt.int.f64");
            check_random(mk(OP_CVT, dt, rnd, PM_NONE, 0, PT_F32), 1,
                         [](std::mt19937_64 &g, int) { return (uint64_t)f2u(rand_f32(g, -3, 70)); },
                         [&](const uint64_t *s) { return ref(u2f(s[0])); }, 500 + dt * 8 + rnd, 8, "cvt.int.f32");
        }
    // .ftz: a positive subnormal rounds up to 1 unless flushed.
    Warp w;
    w.src[0][0] = f2u(1e-40f);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_S32, PR_RPI, PM_NONE, 0, PT_F32), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 1u);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_S32, PR_RPI, PM_NONE, PF_FTZ, PT_F32), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0u);
}

TEST(AluCvt, FloatToFloat)
{
    // f32 -> f64 is exact (NaN canonical).
    check_random(mk(OP_CVT, PT_F64, PR_NONE, PM_NONE, 0, PT_F32), 1,
                 [](std::mt19937_64 &g, int) { return g() & 0xffffffffu; },
                 [](const uint64_t *s) { return canon64(static_cast<double>(u2f(s[0]))); }, 600);
    // f64 -> f32 in each mode, including overflow and subnormal results.
    for (Mode m : {RN, RZ, RM, RP})
        check_random(mk(OP_CVT, PT_F32, ptx_rnd_of(m), PM_NONE, 0, PT_F64), 1,
                     [](std::mt19937_64 &g, int) { return d2u(rand_f64(g, -160, 140)); },
                     [&](const uint64_t *s) -> uint64_t {
                         double x = u2d(s[0]);
                         return m == RN ? f2u(static_cast<float>(x)) : f2u(round_f32(x, 0.0, m));
                     },
                     610 + m, 16, "cvt.f32.f64");
    // Round to integral in the same type.
    for (unsigned rnd : {(unsigned)PR_RNI, (unsigned)PR_RZI, (unsigned)PR_RMI, (unsigned)PR_RPI}) {
        auto r = [&](double x) {
            return rnd == PR_RNI ? std::nearbyint(x) : rnd == PR_RZI ? std::trunc(x) : rnd == PR_RMI ? std::floor(x) : std::ceil(x);
        };
        check_random(mk(OP_CVT, PT_F32, rnd, PM_NONE, 0, PT_F32), 1,
                     [](std::mt19937_64 &g, int) { return (uint64_t)f2u(rand_f32(g, -3, 30)); },
                     [&](const uint64_t *s) { return canon32(static_cast<float>(r(u2f(s[0])))); }, 620 + rnd, 8,
                     "cvt.rXi.f32.f32");
        check_random(mk(OP_CVT, PT_F64, rnd, PM_NONE, 0, PT_F64), 1,
                     [](std::mt19937_64 &g, int) { return d2u(rand_f64(g, -3, 60)); },
                     [&](const uint64_t *s) { return canon64(r(u2d(s[0]))); }, 630 + rnd, 8, "cvt.rXi.f64.f64");
    }
    Warp w;
    float xs[] = {2.5f, -2.5f, -0.3f, 0.5f};
    for (int l = 0; l < 4; l++)
        w.src[0][l] = f2u(xs[l]);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_RNI, PM_NONE, 0, PT_F32), 15u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(w.dst[0][0]), 2.0f);
    EXPECT_EQ(u2f(w.dst[0][1]), -2.0f);
    EXPECT_EQ(w.dst[0][2], 0x80000000u); // -0
    EXPECT_EQ(w.dst[0][3], 0u);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_RMI, PM_NONE, 0, PT_F32), 15u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(w.dst[0][1]), -3.0f);
    // .sat clamps to [0, 1], NaN -> 0.
    float ss[] = {1.5f, -0.5f, NAN, 0.25f};
    for (int l = 0; l < 4; l++)
        w.src[0][l] = f2u(ss[l]);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_NONE, PM_NONE, PF_SAT, PT_F32), 15u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(w.dst[0][0]), 1.0f);
    EXPECT_EQ(w.dst[0][1], 0u);
    EXPECT_EQ(w.dst[0][2], 0u);
    EXPECT_EQ(u2f(w.dst[0][3]), 0.25f);
    // .ftz flushes an f32 result that is subnormal (from f64) and an f32 subnormal source.
    w.src[0][0] = d2u(-1e-40);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_RN, PM_NONE, PF_FTZ, PT_F64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x80000000u);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_RN, PM_NONE, 0, PT_F64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2f(w.dst[0][0]), static_cast<float>(-1e-40));
    w.src[0][0] = f2u(1e-40f);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F64, PR_NONE, PM_NONE, PF_FTZ, PT_F32), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0u);
    // Narrowing overflow per mode.
    w.src[0][0] = d2u(1e300);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_RZ, PM_NONE, 0, PT_F64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x7f7fffffu);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_RN, PM_NONE, 0, PT_F64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x7f800000u);
    EXPECT_EQ(fegetround(), FE_TONEAREST);
}

// f16: an independent decoder, every f16 value round-trips, and midpoints round by the mode.
double f16_value(uint16_t h)
{
    int e = (h >> 10) & 31, f = h & 1023;
    double v = e == 0 ? f * std::ldexp(1.0, -24) : e == 31 ? (f ? NAN : INFINITY) : (1 + f / 1024.0) * std::ldexp(1.0, e - 15);
    return (h & 0x8000) ? -v : v;
}

TEST(AluCvt, HalfPrecision)
{
    for (uint32_t base = 0; base < 65536; base += W) {
        Warp w;
        for (int l = 0; l < W; l++)
            w.src[0][l] = base + l;
        ASSERT_EQ(w.run(mk(OP_CVT, PT_F32, PR_NONE, PM_NONE, 0, PT_F16)), SIMT_ALU_OK);
        Warp back;
        for (int l = 0; l < W; l++) {
            uint16_t h = static_cast<uint16_t>(base + l);
            double v = f16_value(h);
            ASSERT_EQ(w.dst[0][l], canon32(static_cast<float>(v))) << std::hex << h;
            back.src[0][l] = w.dst[0][l];
        }
        ASSERT_EQ(back.run(mk(OP_CVT, PT_F16, PR_RN, PM_NONE, 0, PT_F32)), SIMT_ALU_OK);
        for (int l = 0; l < W; l++) {
            uint16_t h = static_cast<uint16_t>(base + l);
            uint64_t want = std::isnan(f16_value(h)) ? 0x7fffu : h;
            ASSERT_EQ(back.dst[0][l], want) << std::hex << h;
        }
    }
    // Midpoints between neighbours (positive and negative), and just beside them.
    std::mt19937_64 g(700);
    for (int rep = 0; rep < 64; rep++) {
        Warp w[4];
        uint16_t lo[W];
        int side[W];
        for (int l = 0; l < W; l++) {
            uint16_t h = static_cast<uint16_t>(g() % 0x7bff); // finite, h + 1 finite
            if (g() & 1)
                h |= 0x8000;
            lo[l] = h;
            double a = f16_value(h), b = f16_value(static_cast<uint16_t>(h + 1));
            double mid = (a + b) / 2;
            side[l] = static_cast<int>(g() % 3) - 1; // -1 below, 0 at, +1 above the midpoint (in magnitude)
            double x = mid + side[l] * (std::fabs(b - a) / 8) * (h & 0x8000 ? -1 : 1);
            for (auto &wk : w)
                wk.src[0][l] = f2u(static_cast<float>(x));
        }
        const unsigned rnds[4] = {PR_RN, PR_RZ, PR_RM, PR_RP};
        for (int k = 0; k < 4; k++) {
            ASSERT_EQ(w[k].run(mk(OP_CVT, PT_F16, rnds[k], PM_NONE, 0, PT_F32)), SIMT_ALU_OK);
            for (int l = 0; l < W; l++) {
                bool neg = lo[l] & 0x8000;
                uint16_t small = lo[l], big = static_cast<uint16_t>(lo[l] + 1); // by magnitude
                uint16_t want;
                switch (rnds[k]) {
                case PR_RN: want = side[l] < 0 ? small : side[l] > 0 ? big : ((small & 1) ? big : small); break;
                case PR_RZ: want = small; break;
                case PR_RM: want = neg ? big : small; break;
                default: want = neg ? small : big; break;
                }
                ASSERT_EQ(w[k].dst[0][l], want) << "rnd " << rnds[k] << std::hex << " lo 0x" << lo[l] << " side "
                                                << side[l];
            }
        }
    }
    // Overflow and underflow, f64 and integer sources.
    Warp w;
    w.src[0][0] = f2u(65520.0f);  // rounds to inf in .rn
    w.src[0][1] = f2u(65519.0f);  // 65504
    w.src[0][2] = f2u(-1e10f);
    w.src[0][3] = f2u(std::ldexp(1.0f, -25)); // half of the smallest subnormal: ties to even 0
    w.src[0][4] = f2u(std::ldexp(1.5f, -25)); // above half: the smallest subnormal
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F16, PR_RN, PM_NONE, 0, PT_F32), 31u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x7c00u);
    EXPECT_EQ(w.dst[0][1], 0x7bffu);
    EXPECT_EQ(w.dst[0][2], 0xfc00u);
    EXPECT_EQ(w.dst[0][3], 0u);
    EXPECT_EQ(w.dst[0][4], 1u);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F16, PR_RZ, PM_NONE, 0, PT_F32), 31u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x7bffu);
    EXPECT_EQ(w.dst[0][2], 0xfbffu);
    ASSERT_EQ(w.run(mk(OP_CVT, PT_F16, PR_RM, PM_NONE, 0, PT_F32), 31u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x7bffu);
    EXPECT_EQ(w.dst[0][2], 0xfc00u);
    Warp d;
    d.src[0][0] = d2u(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)); // just above a tie
    ASSERT_EQ(d.run(mk(OP_CVT, PT_F16, PR_RN, PM_NONE, 0, PT_F64), 1u), SIMT_ALU_OK);
    EXPECT_EQ(d.dst[0][0], 0x3c01u); // no double rounding through f32
    d.src[0][0] = static_cast<uint64_t>(-2049); // s32 -> f16: -2048 or -2050
    ASSERT_EQ(d.run(mk(OP_CVT, PT_F16, PR_RM, PM_NONE, 0, PT_S32), 1u), SIMT_ALU_OK);
    EXPECT_EQ(f16_value(static_cast<uint16_t>(d.dst[0][0])), -2050.0);
    d.src[0][0] = 0x3c00u | 0x40000u; // 1.0 with garbage above bit 15
    ASSERT_EQ(d.run(mk(OP_CVT, PT_S32, PR_RNI, PM_NONE, 0, PT_F16), 1u), SIMT_ALU_OK);
    EXPECT_EQ(d.dst[0][0], 1u);
    ASSERT_EQ(d.run(mk(OP_CVT, PT_F64, PR_NONE, PM_NONE, 0, PT_F16), 1u), SIMT_ALU_OK);
    EXPECT_EQ(u2d(d.dst[0][0]), 1.0);
}

TEST(AluCvt, InactiveLanesAndSupport)
{
    for (ptx_instr in : {mk(OP_CVT, PT_S64, PR_NONE, PM_NONE, 0, PT_S32), mk(OP_CVT, PT_F32, PR_RZ, PM_NONE, 0, PT_F64),
                         mk(OP_CVT, PT_S32, PR_RNI, PM_NONE, 0, PT_F32), mk(OP_CVT, PT_F16, PR_RN, PM_NONE, 0, PT_F32)}) {
        Warp w;
        ASSERT_EQ(w.run(in, 0x7ffffffeu), SIMT_ALU_OK);
        EXPECT_EQ(w.dst[0][0], SENTINEL);
        EXPECT_EQ(w.dst[0][31], SENTINEL);
        EXPECT_NE(w.dst[0][1], SENTINEL);
    }
    InstrValue bad[] = {mk(OP_CVT, PT_S32, PR_NONE, PM_NONE, 0, PT_F32),   // float -> int needs .rXi
                       mk(OP_CVT, PT_S32, PR_RN, PM_NONE, 0, PT_F32),
                       mk(OP_CVT, PT_S32, PR_RNI, PM_NONE, 0, PT_S16),  // int -> int takes no rounding
                       mk(OP_CVT, PT_F32, PR_RNI, PM_NONE, 0, PT_S32),  // int -> float: .rn .rz .rm .rp
                       mk(OP_CVT, PT_F32, PR_RZ, PM_NONE, 0, PT_F32),   // same size: only .rXi
                       mk(OP_CVT, PT_F64, PR_RZ, PM_NONE, 0, PT_F32),
                       mk(OP_CVT, PT_B32, PR_NONE, PM_NONE, 0, PT_U32),
                       mk(OP_CVT, PT_PRED, PR_NONE, PM_NONE, 0, PT_U32),
                       mk(OP_CVT, PT_U32, PR_NONE, PM_NONE, PF_FTZ, PT_U16),
                       mk(OP_CVT, PT_F32, PR_NONE, PM_NONE, PF_APPROX, PT_F64)};
    for (auto &in : bad) {
        EXPECT_FALSE(sup(in)) << "cvt type " << int(in.type) << " <- " << int(in.type2) << " rnd " << int(in.rnd);
        Warp w;
        EXPECT_EQ(w.run(in), SIMT_ALU_UNSUPPORTED);
        EXPECT_EQ(w.dst[0][0], SENTINEL);
    }
}

} // namespace
