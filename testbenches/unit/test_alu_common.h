// Shared helpers of the warp-wide ALU tests (test_alu_*.cpp): building ptx_instr by hand,
// running simt_alu on 32 lanes, float bit views, and an fesetround-free reference for
// directed rounding (round-to-nearest result + sign of the exact residual + one step).
#ifndef GTLM_TEST_ALU_COMMON_H
#define GTLM_TEST_ALU_COMMON_H

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>

extern "C" {
#include "simt/simt_alu.h"
}
#include "ptx_instr_value.h"

namespace alu_test {

constexpr int W = SIMT_WARP;
constexpr uint64_t SENTINEL = 0xdeadbeefcafef00dull;

inline InstrValue mk(ptx_op op, ptx_type t, unsigned rnd = PR_NONE, unsigned mode = PM_NONE, uint32_t flags = 0,
                     ptx_type t2 = PT_NONE)
{
    InstrValue in;
    in.vec = 0;
    in.op = static_cast<uint16_t>(op);
    in.type = static_cast<uint8_t>(t);
    in.type2 = static_cast<uint8_t>(t2);
    in.rnd = static_cast<uint8_t>(rnd);
    in.mode = static_cast<uint8_t>(mode);
    in.flags = flags;
    in.o[0].kind = PO_REG;
    in.o[0].reg = 0;
    return in;
}

inline InstrValue mk_cmp(ptx_op op, ptx_type t, unsigned cmp, unsigned boolop = PB_NONE, uint32_t flags = 0,
                         ptx_type t2 = PT_NONE)
{
    InstrValue in = mk(op, t, PR_NONE, PM_NONE, flags, t2);
    in.cmp = static_cast<uint8_t>(cmp);
    in.boolop = static_cast<uint8_t>(boolop);
    return in;
}

inline bool sup(const ptx_instr &in) { return simt_alu_supports(&in) == 1; }

// One warp's operands and results.
struct Warp {
    uint64_t src[4][W];
    uint64_t dst[2][W];
    uint32_t carry = 0;

    Warp()
    {
        std::memset(src, 0, sizeof src);
        for (auto &r : dst)
            for (auto &v : r)
                v = SENTINEL;
    }
    int run(const ptx_instr &in, uint32_t active = 0xffffffffu, int nsrc = 4)
    {
        return simt_alu(&in, src, nsrc, dst, active, &carry);
    }
};

inline uint32_t f2u(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float u2f(uint64_t u)
{
    uint32_t v = static_cast<uint32_t>(u);
    float f;
    std::memcpy(&f, &v, 4);
    return f;
}
inline uint64_t d2u(double d)
{
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
}
inline double u2d(uint64_t u)
{
    double d;
    std::memcpy(&d, &u, 8);
    return d;
}

// Integers with a bias toward edge values; the upper bits are random (relaxed typing: the ALU
// must read only the bits of the instruction's type).
inline uint64_t edge_int(std::mt19937_64 &g)
{
    static const uint64_t edges[] = {0,           1,           2,          0xffffffffffffffffull,
                                     0x7fff,      0x8000,      0xffff,     0x7fffffff,
                                     0x80000000,  0xffffffff,  0x7fffffffffffffffull,
                                     0x8000000000000000ull, 31, 32, 33, 63, 64, 15, 16};
    uint64_t r = g();
    switch (r % 4) {
    case 0: { // an edge value, half of the time with garbage above bit 31
        uint64_t e = edges[(r >> 8) % (sizeof edges / sizeof edges[0])];
        return ((r >> 40) & 1) ? e : ((e & 0xffffffffull) | (g() << 32));
    }
    case 1: return ((r >> 8) & 1) ? (g() & 0xff) : (g() & 0xffff) | (g() << 32);
    default: return g();
    }
}

// Finite floats over a wide but safe exponent range (no overflow/underflow in products).
inline float rand_f32(std::mt19937_64 &g, int emin = -40, int emax = 40)
{
    std::uniform_real_distribution<double> m(1.0, 2.0);
    std::uniform_int_distribution<int> e(emin, emax);
    float f = static_cast<float>(std::ldexp(m(g), e(g)));
    return (g() & 1) ? -f : f;
}
inline double rand_f64(std::mt19937_64 &g, int emin = -200, int emax = 200)
{
    std::uniform_real_distribution<double> m(1.0, 2.0);
    std::uniform_int_distribution<int> e(emin, emax);
    double f = std::ldexp(m(g), e(g));
    // random low mantissa bits so values are not short
    uint64_t u = d2u(f) ^ (g() & 0xfffffull);
    f = u2d(u);
    return (g() & 1) ? -f : f;
}

enum Mode { RN = 0, RZ = 1, RM = 2, RP = 3 };

inline unsigned ptx_rnd_of(Mode m)
{
    switch (m) {
    case RZ: return PR_RZ;
    case RM: return PR_RM;
    case RP: return PR_RP;
    default: return PR_RN;
    }
}

// The exact value hi + lo (|lo| tiny relative to hi, or hi == RN(exact) in double) rounded to
// f32 in mode m (m != RN), without touching the host rounding mode.
inline float round_f32(double hi, double lo, Mode m)
{
    float f = static_cast<float>(hi);
    double t = (hi - static_cast<double>(f)) + lo; // sign of exact - f
    if (std::isinf(f))
        t = f > 0 ? -1.0 : 1.0;
    int s = t > 0 ? 1 : t < 0 ? -1 : 0;
    switch (m) {
    case RP: return s > 0 ? std::nextafterf(f, INFINITY) : f;
    case RM: return s < 0 ? std::nextafterf(f, -INFINITY) : f;
    case RZ:
        if ((f > 0 && s < 0) || (f < 0 && s > 0))
            return std::nextafterf(f, 0.0f);
        return f;
    default: return f;
    }
}

// hi = RN(exact) in double, lo = exact - hi (only its sign is used).
inline double round_f64(double hi, double lo, Mode m)
{
    int s = lo > 0 ? 1 : lo < 0 ? -1 : 0;
    if (std::isinf(hi))
        s = hi > 0 ? -1 : 1;
    switch (m) {
    case RP: return s > 0 ? std::nextafter(hi, INFINITY) : hi;
    case RM: return s < 0 ? std::nextafter(hi, -INFINITY) : hi;
    case RZ:
        if ((hi > 0 && s < 0) || (hi < 0 && s > 0))
            return std::nextafter(hi, 0.0);
        return hi;
    default: return hi;
    }
}

// Error-free transforms (host in round-to-nearest).
inline void two_sum(double a, double b, double &s, double &e)
{
    s = a + b;
    double bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}

// Runs in on n_warps warps of generated sources and compares dst[0] of every lane with ref.
inline void check_random(const ptx_instr &in, int nsrc, const std::function<uint64_t(std::mt19937_64 &, int)> &gen,
                         const std::function<uint64_t(const uint64_t *)> &ref, uint64_t seed, int n_warps = 16,
                         const char *what = "")
{
    ASSERT_EQ(simt_alu_supports(&in), 1) << what;
    std::mt19937_64 g(seed);
    for (int w = 0; w < n_warps; w++) {
        Warp wp;
        for (int k = 0; k < nsrc; k++)
            for (int l = 0; l < W; l++)
                wp.src[k][l] = gen(g, k);
        ASSERT_EQ(wp.run(in, 0xffffffffu, nsrc), SIMT_ALU_OK) << what;
        for (int l = 0; l < W; l++) {
            uint64_t s[4] = {wp.src[0][l], wp.src[1][l], wp.src[2][l], wp.src[3][l]};
            uint64_t want = ref(s);
            ASSERT_EQ(wp.dst[0][l], want) << what << " lane " << l << std::hex << " a=0x" << s[0] << " b=0x" << s[1]
                                          << " c=0x" << s[2] << " d=0x" << s[3];
        }
    }
}

} // namespace alu_test

#endif
