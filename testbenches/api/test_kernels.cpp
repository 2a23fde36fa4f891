// Functional execution of real CUDA kernels through the public C API: the kernels in
// testbenches/kernels/*.cu, compiled once to the committed .ptx, run on configs/tiny.config and
// are compared with a reference the test computes on the host from the same fixed-seed inputs.
// Integers are compared exactly; exactly rounded floating-point operations (add, sub, mul, div.rn,
// sqrt.rn, fma) bit for bit against the host doing the same operation in the same precision (any
// NaN matches any NaN); approximate functions (expf, logf, sinf, cosf, __fdividef) within a
// stated tolerance. Also: atomics (final values and a valid serial order of the returned old
// values), warp primitives per lane, faulting kernels (GTLM_ESIM and the message) and API misuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gtlm/gtlm.h"

#ifndef GTLM_SOURCE_DIR // CMake defines it; a stand-alone compile runs from the source tree
#define GTLM_SOURCE_DIR "."
#endif

namespace {

using Dim = std::array<unsigned, 3>;

const std::string kTinyConfig = std::string(GTLM_SOURCE_DIR) + "/configs/tiny.config";

std::string kernel_file(const char *name)
{
    return std::string(GTLM_SOURCE_DIR) + "/testbenches/kernels/" + name;
}

// ---- bits and host references ------------------------------------------------------------------

uint32_t f2b(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float b2f(uint32_t u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
uint64_t d2b(double d)
{
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
}
double b2d(uint64_t u)
{
    double d;
    std::memcpy(&d, &u, 8);
    return d;
}

std::string hex(uint64_t v)
{
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// Float-to-integer conversions as PTX defines them: the (already rounded) value clamped to the
// destination range. NaN is not specified by PTX; callers skip it.
uint32_t sat_s32(double r)
{
    if (r >= 2147483648.0)
        return 0x7fffffffu;
    if (r < -2147483648.0)
        return 0x80000000u;
    return (uint32_t)(int32_t)r;
}
uint32_t sat_u32(double r)
{
    if (r <= 0.0)
        return 0;
    if (r >= 4294967296.0)
        return 0xffffffffu;
    return (uint32_t)r;
}
uint64_t sat_s64(double r)
{
    if (r >= 9223372036854775808.0)
        return 0x7fffffffffffffffull;
    if (r < -9223372036854775808.0)
        return 0x8000000000000000ull;
    return (uint64_t)(int64_t)r;
}
uint64_t sat_u64(double r)
{
    if (r <= 0.0)
        return 0;
    if (r >= 18446744073709551616.0)
        return ~0ull;
    return (uint64_t)r;
}

uint32_t brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int k = 0; k < 32; k++)
        r |= ((x >> k) & 1u) << (31 - k);
    return r;
}
uint64_t brev64(uint64_t x)
{
    return ((uint64_t)brev32((uint32_t)x) << 32) | brev32((uint32_t)(x >> 32));
}
uint32_t clz32(uint32_t x) { return x ? (uint32_t)__builtin_clz(x) : 32u; }
uint32_t clz64(uint64_t x) { return x ? (uint32_t)__builtin_clzll(x) : 64u; }
uint32_t ffs32(uint32_t x) { return x ? (uint32_t)__builtin_ctz(x) + 1u : 0u; }
uint32_t ffs64(uint64_t x) { return x ? (uint32_t)__builtin_ctzll(x) + 1u : 0u; }

// __byte_perm as CUDA documents it: result byte k is byte (s >> 4k) & 7 of y:x.
uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint64_t bytes = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        unsigned sel = (s >> (4 * k)) & 7u;
        r |= (uint32_t)((bytes >> (8 * sel)) & 0xffu) << (8 * k);
    }
    return r;
}

// The kernels' helper loop (control.cu: mix).
uint32_t mix(uint32_t v, uint32_t rounds)
{
    for (uint32_t r = 0; r < rounds; r++)
        v = v * 1664525u + 1013904223u + r;
    return v;
}

// Mask of the lanes a warp has: warp w of a block of `block` threads.
uint32_t lanes_present(unsigned block, unsigned w)
{
    unsigned n = std::min(32u, block - 32u * w);
    return n == 32 ? 0xffffffffu : ((1u << n) - 1u);
}

// ---- mismatch collection ---------------------------------------------------------------------

// Counts mismatches, reports the first few with their position, and fails the test at the end.
class Checker {
public:
    explicit Checker(const char *what) : what_(what) {}
    ~Checker() { EXPECT_EQ(failures_, 0) << what_ << ": " << failures_ << " mismatches of " << checks_; }

    void ok(bool good, const std::string &where, const std::string &got, const std::string &want)
    {
        checks_++;
        if (good)
            return;
        if (++failures_ <= 10)
            ADD_FAILURE() << what_ << " " << where << ": got " << got << ", want " << want;
    }
    void eq(uint64_t got, uint64_t want, const std::string &where) { ok(got == want, where, hex(got), hex(want)); }
    void eq_s(int64_t got, int64_t want, const std::string &where)
    {
        ok(got == want, where, std::to_string(got), std::to_string(want));
    }
    // Bit-exact float comparison; any NaN matches any NaN. zero_sign_free: +0 matches -0.
    void f32(float got, float want, const std::string &where, bool zero_sign_free = false)
    {
        bool good = std::isnan(want) ? std::isnan(got)
                                     : (f2b(got) == f2b(want) || (zero_sign_free && got == 0.0f && want == 0.0f));
        ok(good, where, fmt(got) + " (" + hex(f2b(got)) + ")", fmt(want) + " (" + hex(f2b(want)) + ")");
    }
    void f64(double got, double want, const std::string &where, bool zero_sign_free = false)
    {
        bool good = std::isnan(want) ? std::isnan(got)
                                     : (d2b(got) == d2b(want) || (zero_sign_free && got == 0.0 && want == 0.0));
        ok(good, where, fmt(got) + " (" + hex(d2b(got)) + ")", fmt(want) + " (" + hex(d2b(want)) + ")");
    }
    // |got - want| <= abs_tol + rel_tol * |want|; infinities must match exactly.
    void near(double got, double want, double abs_tol, double rel_tol, const std::string &where)
    {
        bool good;
        if (std::isnan(want))
            good = std::isnan(got);
        else if (std::isinf(want))
            good = got == want;
        else
            good = std::fabs(got - want) <= abs_tol + rel_tol * std::fabs(want);
        ok(good, where, fmt(got), fmt(want));
    }
    int failures() const { return failures_; }

private:
    static std::string fmt(double v)
    {
        std::ostringstream s;
        s.precision(17);
        s << v;
        return s.str();
    }
    const char *what_;
    int failures_ = 0;
    long checks_ = 0;
};

std::string at(size_t i, size_t j)
{
    return "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}
std::string at(size_t i) { return "[" + std::to_string(i) + "]"; }

// ---- fixture ------------------------------------------------------------------------------------

class KernelFixture : public ::testing::Test {
protected:
    gtlm_sim *sim = nullptr;
    gtlm_module *mod = nullptr;
    std::mt19937 rng{20240611u};

    void open(const char *ptx)
    {
        gtlm_sim_options o;
        ASSERT_EQ(gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION), GTLM_OK) << gtlm_last_error();
        const char *files[] = {kTinyConfig.c_str()};
        o.config_files = files;
        o.n_config_files = 1;
        ASSERT_EQ(gtlm_sim_create(&sim, &o), GTLM_OK) << gtlm_last_error();
        const std::string path = kernel_file(ptx);
        ASSERT_EQ(gtlm_module_load_ptx_file(sim, path.c_str(), &mod), GTLM_OK) << gtlm_last_error();
        ASSERT_NE(mod, nullptr);
    }
    void TearDown() override { gtlm_sim_destroy(sim); }

    template <class T> gtlm_devptr upload(const std::vector<T> &v)
    {
        gtlm_devptr p = 0;
        EXPECT_EQ(gtlm_malloc(sim, v.size() * sizeof(T), &p), GTLM_OK) << gtlm_last_error();
        if (!v.empty()) {
            EXPECT_EQ(gtlm_memcpy_htod(sim, p, v.data(), v.size() * sizeof(T)), GTLM_OK) << gtlm_last_error();
        }
        return p;
    }
    // n elements of T, every byte set to fill.
    template <class T> gtlm_devptr alloc(size_t n, int fill = 0)
    {
        gtlm_devptr p = 0;
        EXPECT_EQ(gtlm_malloc(sim, n * sizeof(T), &p), GTLM_OK) << gtlm_last_error();
        EXPECT_EQ(gtlm_memset(sim, p, fill, n * sizeof(T)), GTLM_OK) << gtlm_last_error();
        return p;
    }
    template <class T> std::vector<T> download(gtlm_devptr p, size_t n)
    {
        std::vector<T> v(n);
        EXPECT_EQ(gtlm_memcpy_dtoh(sim, v.data(), p, n * sizeof(T)), GTLM_OK) << gtlm_last_error();
        return v;
    }
    template <class T> T download1(gtlm_devptr p) { return download<T>(p, 1)[0]; }

    // Launches kernel with the given arguments, each passed with its own size (pointers as
    // gtlm_devptr, 8 bytes; int and unsigned, 4 bytes).
    template <class... A> int launch(const char *kernel, Dim grid, Dim block, size_t shared, const A &...a)
    {
        const void *args[sizeof...(A) + 1] = {static_cast<const void *>(&a)..., nullptr};
        size_t sizes[sizeof...(A) + 1] = {sizeof(A)..., 0};
        return gtlm_launch(sim, mod, kernel, grid.data(), block.data(), shared, args, sizes, sizeof...(A));
    }

    uint32_t ru32() { return (uint32_t)rng(); }
    uint64_t ru64() { return ((uint64_t)rng() << 32) | rng(); }
    int rint_in(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    float rfloat(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }
    double rdouble(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

    // Floats for the exactly rounded operations: special values first, then a mix of moderate
    // values, random bit patterns (NaNs, infinities, subnormals, huge values) and small subnormals.
    std::vector<float> float_inputs(size_t n)
    {
        const float inf = std::numeric_limits<float>::infinity();
        std::vector<float> v = {0.0f,  -0.0f, 1.0f,  -1.0f,  inf,   -inf,      std::nanf(""),
                                1e-45f, -1e-45f, 1.17549435e-38f, 3.4028235e38f, 0.5f, 2.5f, -2.5f,
                                3.5f,  -3.5f, 1e10f, -1e10f, 2147483520.0f, 2147483648.0f, -2147483648.0f,
                                4294967296.0f, 4294967040.0f, 16777217.0f, 0.49999997f, -0.49999997f, 1.5f};
        const size_t fixed = v.size();
        while (v.size() < n) {
            switch (rng() % 4) {
            case 0:
            case 1: v.push_back(rfloat(-100.0f, 100.0f)); break;
            case 2: v.push_back(b2f(ru32())); break;
            default: v.push_back(b2f(ru32() & 0x807fffffu)); break; // subnormal or zero
            }
        }
        v.resize(n);
        std::shuffle(v.begin() + (long)fixed, v.end(), rng);
        return v;
    }
    std::vector<double> double_inputs(size_t n)
    {
        const double inf = std::numeric_limits<double>::infinity();
        std::vector<double> v = {0.0,  -0.0, 1.0,  -1.0, inf, -inf, std::nan(""), 4.9e-324, -4.9e-324,
                                 2.2250738585072014e-308, 1.7976931348623157e308, 0.5, 2.5, -2.5, 3.5,
                                 2147483647.5, -2147483648.5, 2147483648.0, 4294967296.0, 9.2233720368547758e18,
                                 -9.2233720368547758e18, 1.8446744073709552e19, 1e300, -1e300, -0.75};
        const size_t fixed = v.size();
        while (v.size() < n) {
            switch (rng() % 4) {
            case 0:
            case 1: v.push_back(rdouble(-1e4, 1e4)); break;
            case 2: v.push_back(b2d(ru64())); break;
            default: v.push_back(rdouble(-1e20, 1e20)); break;
            }
        }
        v.resize(n);
        std::shuffle(v.begin() + (long)fixed, v.end(), rng);
        return v;
    }
};

class KernelArith : public KernelFixture {
protected:
    void SetUp() override { open("arith.ptx"); }
};
class KernelControl : public KernelFixture {
protected:
    void SetUp() override { open("control.ptx"); }
};
class KernelSync : public KernelFixture {
protected:
    void SetUp() override { open("sync.ptx"); }
};
class KernelWarp : public KernelFixture {
protected:
    void SetUp() override { open("warp.ptx"); }
};
class KernelMemory : public KernelFixture {
protected:
    void SetUp() override { open("memory.ptx"); }
};
class KernelApi : public KernelFixture {
protected:
    void SetUp() override { open("memory.ptx"); }
};

// Common launch shape: 3 CTAs of 100 threads (warps of 32, 32, 32 and 4 lanes), n = 290 so the
// last CTA also has threads past the end.
const Dim kGrid3{3, 1, 1};
const Dim kBlock100{100, 1, 1};
const int kN = 290;

// ================================================================================================
// arith.cu
// ================================================================================================

TEST_F(KernelArith, Int32WrapHighHalvesAndMinMax)
{
    std::vector<uint32_t> a(kN), b(kN);
    const uint32_t special[] = {0u, 1u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x00ffffffu, 0x00800000u, 2u};
    for (int i = 0; i < kN; i++) {
        a[i] = i < 8 ? special[i] : ru32();
        b[i] = i < 8 ? special[7 - i] : (i % 3 ? ru32() : ru32() >> (rng() % 32));
    }
    gtlm_devptr da = upload(a), db = upload(b), dout = alloc<uint32_t>(16 * kN);
    ASSERT_EQ(launch("arith_int32", kGrid3, kBlock100, 0, da, db, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, 16 * kN);
    Checker c("arith_int32");
    for (int i = 0; i < kN; i++) {
        uint32_t x = a[i], y = b[i];
        int32_t sx = (int32_t)x, sy = (int32_t)y;
        int32_t x24 = (int32_t)(x << 8) >> 8, y24 = (int32_t)(y << 8) >> 8;
        uint32_t want[16] = {
            x + y,
            x - y,
            x * y,
            x * y,
            (uint32_t)(((uint64_t)x * y) >> 32),
            (uint32_t)(((int64_t)sx * sy) >> 32),
            (uint32_t)x24 * (uint32_t)y24,
            (x & 0xffffffu) * (y & 0xffffffu),
            (uint32_t)std::min(sx, sy),
            std::max(x, y),
            sx < 0 ? 0u - x : x,
            (sx < sy ? y - x : x - y) + (x >> 7),
            0u - x,
            ~(x ^ (y | 0x0f0f0f0fu)),
            (uint32_t)(int32_t)(((int64_t)sx + sy) >> 1),
            (uint32_t)(((uint64_t)x + y + 1) >> 1),
        };
        for (int j = 0; j < 16; j++)
            c.eq(out[16 * i + j], want[j], at(i, j));
    }
}

TEST_F(KernelArith, ShiftsByVariableAmountsAndFunnelShifts)
{
    std::vector<uint64_t> x(kN);
    std::vector<uint32_t> s(kN);
    for (int i = 0; i < kN; i++) {
        x[i] = i % 5 == 0 ? (0x8000000000000000ull | ru64()) : ru64();
        s[i] = i < 64 ? (uint32_t)i | (ru32() & ~63u) : ru32(); // every amount 0..63 at least once
    }
    gtlm_devptr dx = upload(x), ds = upload(s), dout = alloc<uint64_t>(10 * kN);
    ASSERT_EQ(launch("arith_shift", kGrid3, kBlock100, 0, dx, ds, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint64_t>(dout, 10 * kN);
    Checker c("arith_shift");
    for (int i = 0; i < kN; i++) {
        uint64_t v = x[i];
        uint32_t sh = s[i], lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
        unsigned s63 = sh & 63, s31 = sh & 31, sc = std::min(sh, 32u);
        uint64_t want[10] = {
            v << s63,
            v >> s63,
            (uint64_t)((int64_t)v >> s63),
            (uint32_t)(lo << s31),
            lo >> s31,
            (uint32_t)((int32_t)lo >> s31),
            (uint32_t)((v << s31) >> 32),
            (uint32_t)(v >> s31),
            sc == 32 ? lo : (uint32_t)((v << sc) >> 32),
            sc == 32 ? hi : (uint32_t)(v >> sc),
        };
        for (int j = 0; j < 10; j++)
            c.eq(out[10 * i + j], want[j], at(i, j) + " x=" + hex(v) + " s=" + std::to_string(sh));
    }
}

TEST_F(KernelArith, Mul64HighHalves)
{
    std::vector<uint64_t> a(kN), b(kN);
    for (int i = 0; i < kN; i++) {
        a[i] = i == 0 ? ~0ull : i == 1 ? 0x8000000000000000ull : ru64();
        b[i] = i == 0 ? ~0ull : i == 1 ? 0x8000000000000000ull : (i % 4 ? ru64() : ru64() >> (rng() % 64));
    }
    gtlm_devptr da = upload(a), db = upload(b), dout = alloc<uint64_t>(5 * kN);
    ASSERT_EQ(launch("arith_mul64", kGrid3, kBlock100, 0, da, db, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint64_t>(dout, 5 * kN);
    Checker c("arith_mul64");
    for (int i = 0; i < kN; i++) {
        uint64_t x = a[i], y = b[i];
        unsigned __int128 up = (unsigned __int128)x * y;
        __int128 sp = (__int128)(int64_t)x * (int64_t)y;
        uint64_t want[5] = {x * y, (uint64_t)(up >> 64), (uint64_t)(sp >> 64), x + y, x - y};
        for (int j = 0; j < 5; j++)
            c.eq(out[5 * i + j], want[j], at(i, j));
    }
}

TEST_F(KernelArith, DivisionAndRemainderByConstantsAndVariables)
{
    std::vector<int32_t> a(kN), b(kN);
    std::vector<int64_t> A(kN), B(kN);
    const int32_t sa[] = {INT32_MIN, INT32_MAX, -1, 0, 7, -7, 6, -6, 1000, -1000};
    const int32_t sb[] = {1, 3, -1, 7, 7, -7, 0x7fffffff, -2, 10, 0x40000000};
    for (int i = 0; i < kN; i++) {
        a[i] = i < 10 ? sa[i] : (int32_t)(i % 2 ? ru32() : ru32() % 100000);
        b[i] = i < 10 ? sb[i] : (int32_t)(i % 3 ? ru32() >> (rng() % 31) : ru32() % 200 - 100);
        if (b[i] == 0)
            b[i] = 13;
        if (a[i] == INT32_MIN && b[i] == -1)
            b[i] = 1;
        A[i] = i == 0 ? INT64_MIN : (int64_t)(i % 2 ? ru64() : ru64() >> (rng() % 60));
        B[i] = (int64_t)(i % 3 ? ru64() >> (rng() % 63) : (uint64_t)(rng() % 2000) - 1000);
        if (B[i] == 0)
            B[i] = -3;
        if (A[i] == INT64_MIN && B[i] == -1)
            B[i] = 2;
    }
    gtlm_devptr da = upload(a), db = upload(b), dA = upload(A), dB = upload(B), dout = alloc<int64_t>(16 * kN);
    ASSERT_EQ(launch("arith_divmod", kGrid3, kBlock100, 0, da, db, dA, dB, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<int64_t>(dout, 16 * kN);
    Checker c("arith_divmod");
    for (int i = 0; i < kN; i++) {
        int32_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
        int64_t X = A[i], Y = B[i];
        int64_t want[16] = {x / 7,
                            x % 7,
                            x / -3,
                            x % -3,
                            x / 16,
                            x % 16,
                            (int64_t)(ux / 10u),
                            (int64_t)(ux % 10u),
                            x / y,
                            x % y,
                            (int64_t)(ux / uy),
                            (int64_t)(ux % uy),
                            X / Y,
                            X % Y,
                            (int64_t)((uint64_t)X / (uint64_t)Y),
                            X / 1000};
        for (int j = 0; j < 16; j++)
            c.eq_s(out[16 * i + j], want[j], at(i, j) + " a=" + std::to_string(x) + " b=" + std::to_string(y));
    }
}

TEST_F(KernelArith, Float32ExactlyRoundedOpsBitExact)
{
    std::vector<float> a = float_inputs(kN), b = float_inputs(kN), c3 = float_inputs(kN);
    std::shuffle(b.begin(), b.end(), rng);
    std::shuffle(c3.begin(), c3.end(), rng);
    gtlm_devptr da = upload(a), db = upload(b), dc = upload(c3), dout = alloc<float>(10 * kN);
    ASSERT_EQ(launch("arith_f32", kGrid3, kBlock100, 0, da, db, dc, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<float>(dout, 10 * kN);
    Checker c("arith_f32");
    for (int i = 0; i < kN; i++) {
        float x = a[i], y = b[i], z = c3[i];
        const float *o = &out[10 * i];
        const std::string w = " x=" + hex(f2b(x)) + " y=" + hex(f2b(y)) + " z=" + hex(f2b(z));
        volatile float sum = x + y, diff = x - y, prod = x * y, quot = x / y; // no contraction
        c.f32(o[0], sum, at(i, 0) + w);
        c.f32(o[1], diff, at(i, 1) + w);
        c.f32(o[2], prod, at(i, 2) + w);
        c.f32(o[3], quot, at(i, 3) + w);
        c.f32(o[4], std::sqrt(x), at(i, 4) + w);
        c.f32(o[5], std::fma(x, y, z), at(i, 5) + w);
        c.f32(o[6], std::fmin(x, y), at(i, 6) + w, true);
        c.f32(o[7], std::fmax(x, y), at(i, 7) + w, true);
        c.f32(o[8], b2f((f2b(x) & 0x7fffffffu) | (f2b(y) & 0x80000000u)), at(i, 8) + w);
        c.f32(o[9], b2f(f2b(z) & 0x7fffffffu), at(i, 9) + w);
    }
}

TEST_F(KernelArith, Float64ExactlyRoundedOpsBitExact)
{
    std::vector<double> a = double_inputs(kN), b = double_inputs(kN), c3 = double_inputs(kN);
    std::shuffle(b.begin(), b.end(), rng);
    std::shuffle(c3.begin(), c3.end(), rng);
    gtlm_devptr da = upload(a), db = upload(b), dc = upload(c3), dout = alloc<double>(8 * kN);
    ASSERT_EQ(launch("arith_f64", kGrid3, kBlock100, 0, da, db, dc, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<double>(dout, 8 * kN);
    Checker c("arith_f64");
    for (int i = 0; i < kN; i++) {
        double x = a[i], y = b[i], z = c3[i];
        const double *o = &out[8 * i];
        const std::string w = " x=" + hex(d2b(x)) + " y=" + hex(d2b(y)) + " z=" + hex(d2b(z));
        volatile double sum = x + y, diff = x - y, prod = x * y, quot = x / y;
        c.f64(o[0], sum, at(i, 0) + w);
        c.f64(o[1], diff, at(i, 1) + w);
        c.f64(o[2], prod, at(i, 2) + w);
        c.f64(o[3], quot, at(i, 3) + w);
        c.f64(o[4], std::sqrt(x), at(i, 4) + w);
        c.f64(o[5], std::fma(x, y, z), at(i, 5) + w);
        c.f64(o[6], std::fmin(x, y), at(i, 6) + w, true);
        c.f64(o[7], std::fmax(x, y), at(i, 7) + w, true);
    }
}

TEST_F(KernelArith, FloatToIntConversionsAndRounding)
{
    std::vector<float> f = float_inputs(kN);
    for (int i = 27; i < kN; i += 3) // more values in the range where rounding modes differ
        f[i] = rfloat(-40.0f, 40.0f);
    for (int i = 28; i < kN; i += 9)
        f[i] = std::round(rfloat(-100.0f, 100.0f)) + 0.5f; // ties
    gtlm_devptr df = upload(f), dout = alloc<uint32_t>(12 * kN);
    ASSERT_EQ(launch("arith_cvt", kGrid3, kBlock100, 0, df, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, 12 * kN);
    Checker c("arith_cvt");
    for (int i = 0; i < kN; i++) {
        float x = f[i];
        const uint32_t *o = &out[12 * i];
        const std::string w = " x=" + hex(f2b(x));
        if (!std::isnan(x)) { // PTX leaves NaN -> integer unspecified
            c.eq(o[0], sat_s32(std::nearbyint((double)x)), at(i, 0) + w);
            c.eq(o[1], sat_s32(std::trunc((double)x)), at(i, 1) + w);
            c.eq(o[2], sat_u32(std::floor((double)x)), at(i, 2) + w);
            c.eq(o[3], sat_s32(std::trunc((double)x)), at(i, 3) + w);
            c.eq(o[9], sat_u32(std::trunc((double)x)), at(i, 9) + w);
        }
        float sat = std::isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
        c.f32(b2f(o[4]), sat, at(i, 4) + w, true);
        c.f32(b2f(o[5]), std::rint(x), at(i, 5) + w);
        c.f32(b2f(o[6]), std::floor(x), at(i, 6) + w);
        c.f32(b2f(o[7]), std::ceil(x), at(i, 7) + w);
        c.f32(b2f(o[8]), std::trunc(x), at(i, 8) + w);
        c.f32(b2f(o[10]), (float)(int32_t)f2b(x), at(i, 10) + w);
        c.f32(b2f(o[11]), (float)f2b(x), at(i, 11) + w);
    }
}

TEST_F(KernelArith, DoubleConversions)
{
    std::vector<double> d = double_inputs(kN);
    for (int i = 25; i < kN; i += 4)
        d[i] = std::round(rdouble(-1000.0, 1000.0)) + 0.5; // ties
    gtlm_devptr dd = upload(d), dout = alloc<uint64_t>(6 * kN);
    ASSERT_EQ(launch("arith_cvt64", kGrid3, kBlock100, 0, dd, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint64_t>(dout, 6 * kN);
    Checker c("arith_cvt64");
    for (int i = 0; i < kN; i++) {
        double x = d[i];
        const uint64_t *o = &out[6 * i];
        const std::string w = " x=" + hex(d2b(x));
        if (!std::isnan(x)) {
            c.eq(o[0], sat_s64(std::trunc(x)), at(i, 0) + w);
            c.eq(o[1], (uint64_t)(int64_t)(int32_t)sat_s32(std::nearbyint(x)), at(i, 1) + w);
            c.eq(o[5], sat_u64(std::floor(x)), at(i, 5) + w);
        }
        c.eq(o[2] >> 32, 0, at(i, 2) + " high half" + w);
        c.f32(b2f((uint32_t)o[2]), (float)x, at(i, 2) + w);
        c.f64(b2d(o[3]), (double)(float)x, at(i, 3) + w);
        c.f64(b2d(o[4]), (double)(int64_t)d2b(x), at(i, 4) + w);
    }
}

TEST_F(KernelArith, BitManipulation)
{
    std::vector<uint32_t> a(kN), b(kN), s(kN);
    for (int i = 0; i < kN; i++) {
        a[i] = i == 0 ? 0u : i == 1 ? 0x80000000u : i == 2 ? 1u : (i % 4 ? ru32() : ru32() >> (rng() % 32));
        b[i] = i < 3 ? 0u : (i % 5 ? ru32() : ru32() << (rng() % 32));
        s[i] = ru32(); // all nibble bits set at random: __byte_perm uses the low 3 of each
    }
    gtlm_devptr da = upload(a), db = upload(b), ds = upload(s), dout = alloc<uint32_t>(14 * kN);
    ASSERT_EQ(launch("arith_bits", kGrid3, kBlock100, 0, da, db, ds, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, 14 * kN);
    Checker c("arith_bits");
    for (int i = 0; i < kN; i++) {
        uint32_t x = a[i], y = b[i], sel = s[i];
        uint64_t xy = ((uint64_t)y << 32) | x;
        uint32_t want[14] = {
            (uint32_t)__builtin_popcount(x),
            clz32(x),
            brev32(x),
            ffs32(x),
            byte_perm(x, y, sel),
            byte_perm(x, y, 0x0123),
            byte_perm(x, y, 0x7351),
            (uint32_t)__builtin_popcountll(xy),
            clz64(xy),
            ffs64(xy),
            (uint32_t)(brev64(xy) >> 16),
            (x >> (sel & 31)) & 0x3ffu,
            (x & ~(0xffu << 8)) | ((y & 0xffu) << 8),
            (uint32_t)((int32_t)(x << 4) >> 20),
        };
        for (int j = 0; j < 14; j++)
            c.eq(out[14 * i + j], want[j], at(i, j) + " x=" + hex(x) + " y=" + hex(y) + " s=" + hex(sel));
    }
}

TEST_F(KernelArith, ApproximateFunctionsWithinTolerance)
{
    std::vector<float> x(kN), y(kN);
    const float large[] = {2.0e5f, -1.0e6f, 3.3e7f, 123456.7f, -98765.4f, 1.0e30f};
    for (int i = 0; i < kN; i++) {
        // |x| < 20 except a few large arguments for sinf/cosf's slow argument reduction.
        x[i] = i < 6 ? large[i] : rfloat(-20.0f, 20.0f);
        y[i] = i % 3 ? rfloat(0.01f, 1000.0f) : rfloat(0.5f, 2.0f);
    }
    gtlm_devptr dx = upload(x), dy = upload(y), dout = alloc<float>(5 * kN);
    ASSERT_EQ(launch("arith_approx", kGrid3, kBlock100, 0, dx, dy, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<float>(dout, 5 * kN);
    // CUDA documents at most 2 ulp (expf, sinf, cosf, __fdividef in this range) and 1 ulp (logf):
    // a relative tolerance of 1e-6 (about 8 ulp) plus a small absolute one near zero results.
    Checker c("arith_approx");
    for (int i = 0; i < kN; i++) {
        double xd = x[i], yd = y[i];
        const float *o = &out[5 * i];
        const std::string w = " x=" + std::to_string(xd) + " y=" + std::to_string(yd);
        c.near(o[0], (double)(float)std::exp(xd), 0.0, 1e-6, at(i, 0) + w);
        c.near(o[1], std::log(yd), 1e-7, 1e-6, at(i, 1) + w);
        c.near(o[2], std::sin(xd), 1e-7, 1e-6, at(i, 2) + w);
        c.near(o[3], std::cos(xd), 1e-7, 1e-6, at(i, 3) + w);
        c.near(o[4], xd / yd, 1e-30, 1e-6, at(i, 4) + w);
    }
}

// ================================================================================================
// control.cu
// ================================================================================================

TEST_F(KernelControl, IfElseByLaneParity)
{
    std::vector<uint32_t> in(kN);
    for (auto &v : in)
        v = ru32();
    gtlm_devptr din = upload(in), dout = alloc<uint32_t>(kN);
    ASSERT_EQ(launch("ctl_parity", kGrid3, kBlock100, 0, din, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, kN);
    Checker c("ctl_parity");
    for (int i = 0; i < kN; i++) {
        uint32_t v = in[i], tid = (uint32_t)i % 100;
        uint32_t want = (tid & 1) ? (mix(v, (v & 3) + 1) ^ 0x55u) : (mix(v + 7, (v & 7) + 2) + 3u);
        c.eq(out[i], want, at(i));
    }
}

TEST_F(KernelControl, NestedDivergenceThreeLevels)
{
    std::vector<uint32_t> in(kN);
    for (auto &v : in)
        v = ru32();
    gtlm_devptr din = upload(in), dout = alloc<uint32_t>(kN);
    ASSERT_EQ(launch("ctl_nested", kGrid3, kBlock100, 0, din, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, kN);
    Checker c("ctl_nested");
    for (int i = 0; i < kN; i++) {
        uint32_t v = in[i], r = v;
        if (v & 1) {
            r = mix(r, 2);
            if (v & 2) {
                r ^= 0xa5a5a5a5u;
                if (v & 4)
                    r = mix(r, (v >> 8) & 3);
                else
                    r += 11;
                r *= 3;
            } else {
                r = mix(r, 1) - 5;
            }
            r += 1;
        } else {
            if (v & 8) {
                r = mix(r, (v >> 4) & 7);
                if (v & 16)
                    r = ~r;
            } else {
                r >>= 3;
            }
            r -= 2;
        }
        c.eq(out[i], r + (uint32_t)i, at(i) + " v=" + hex(v));
    }
}

TEST_F(KernelControl, PerLaneTripCountsBreakContinue)
{
    std::vector<uint32_t> in(kN);
    for (int i = 0; i < kN; i++)
        in[i] = i % 2 ? ru32() % 1000 + 1 : ru32();
    gtlm_devptr din = upload(in), dout = alloc<uint32_t>(3 * kN);
    ASSERT_EQ(launch("ctl_loops", kGrid3, kBlock100, 0, din, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, 3 * kN);
    Checker c("ctl_loops");
    for (int i = 0; i < kN; i++) {
        uint32_t tid = (uint32_t)i % 100, v = in[i];
        uint32_t s = 0;
        for (uint32_t k = 0; k < tid % 7; k++)
            s += (k * tid) ^ v;
        uint32_t t = 0;
        for (uint32_t k = 0; k < 40; k++) {
            if (k % 3 == tid % 3)
                continue;
            t += (v >> (k % 29)) & 0xffu;
            if (t > (v & 0x7ffu))
                break;
            t ^= k;
        }
        uint32_t w = v;
        int guard = 0;
        while (w > 1 && guard < 100) {
            w = (w & 1) ? 3 * w + 1 : w >> 1;
            guard++;
        }
        c.eq(out[3 * i + 0], s, at(i, 0));
        c.eq(out[3 * i + 1], t, at(i, 1));
        c.eq(out[3 * i + 2], (uint32_t)guard, at(i, 2));
    }
}

TEST_F(KernelControl, EarlyReturnOfSomeLanes)
{
    std::vector<int32_t> in(kN);
    for (auto &v : in)
        v = rint_in(-50, 400);
    gtlm_devptr din = upload(in), dout = alloc<int32_t>(kN, 0x7e);
    ASSERT_EQ(launch("ctl_early_return", kGrid3, kBlock100, 0, din, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<int32_t>(dout, kN);
    Checker c("ctl_early_return");
    for (int i = 0; i < kN; i++) {
        int v = in[i], want;
        if (v < 0) {
            want = -1;
        } else if (v % 5 == 0) {
            want = 0x7e7e7e7e; // untouched
        } else {
            int acc = 0;
            for (int k = 0; k < (v & 15); k++)
                acc += k * v;
            want = acc > 1000 ? 1000 + (acc & 0xff) : acc;
        }
        c.eq_s(out[i], want, at(i) + " v=" + std::to_string(v));
    }
}

TEST_F(KernelControl, SwitchOnTid)
{
    std::vector<uint32_t> in(kN);
    for (auto &v : in)
        v = ru32();
    gtlm_devptr din = upload(in), dout = alloc<uint32_t>(kN);
    ASSERT_EQ(launch("ctl_switch", kGrid3, kBlock100, 0, din, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, kN);
    Checker c("ctl_switch");
    for (int i = 0; i < kN; i++) {
        uint32_t v = in[i], r;
        switch ((i % 100) % 11) {
        case 0: r = v + 1; break;
        case 1: r = v * 3; break;
        case 2: r = v ^ 0xdeadbeefu; break;
        case 3: r = v >> 3; break;
        case 4: r = ~v; break;
        case 5: r = v + 100 - 7; break;
        case 6: r = v - 7; break;
        case 7: r = v << 5; break;
        case 8: r = v | 0x80000001u; break;
        case 9: r = v & 0xffffu; break;
        default: r = 42; break;
        }
        c.eq(out[i], r, at(i));
    }
}

uint32_t leaf_fn(uint32_t a, uint32_t b)
{
    uint32_t r = a;
    for (uint32_t k = 0; k < (b & 7); k++)
        r = r * 31u + b;
    return r;
}

TEST_F(KernelControl, NoinlineCallsUnderDivergence)
{
    std::vector<uint32_t> in(kN);
    for (auto &v : in)
        v = ru32();
    gtlm_devptr din = upload(in), dout = alloc<uint32_t>(kN);
    ASSERT_EQ(launch("ctl_call", kGrid3, kBlock100, 0, din, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, kN);
    Checker c("ctl_call");
    for (int i = 0; i < kN; i++) {
        uint32_t v = in[i], ui = (uint32_t)i;
        uint32_t want = (v & 1) ? leaf_fn(v, ui) : leaf_fn(v ^ 0x1234u, ui * 3u + 1) + 17u;
        c.eq(out[i], want, at(i));
    }
}

TEST_F(KernelControl, ActiveMaskInsideBranchAndAfterReconvergence)
{
    const Dim grid{2, 1, 1}, block{48, 1, 1}; // warps of 32 and 16 lanes
    const size_t n = 96;
    std::vector<uint32_t> in(n);
    for (auto &v : in)
        v = ru32();
    gtlm_devptr din = upload(in), dout = alloc<uint32_t>(3 * n);
    ASSERT_EQ(launch("ctl_activemask", grid, block, 0, din, dout), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, 3 * n);
    Checker c("ctl_activemask");
    for (size_t i = 0; i < n; i++) {
        unsigned t = (unsigned)(i % 48);
        uint32_t present = lanes_present(48, t / 32);
        uint32_t v = in[i];
        bool odd = t & 1;
        c.eq(out[3 * i + 0], present & (odd ? 0xaaaaaaaau : 0x55555555u), at(i, 0) + " inside the branch");
        c.eq(out[3 * i + 1], present, at(i, 1) + " after reconvergence");
        c.eq(out[3 * i + 2], odd ? mix(v, v & 3) : mix(v, (v & 1) + 1), at(i, 2));
    }
    EXPECT_EQ(out[3 * 0 + 1], 0xffffffffu) << "a full warp after reconvergence";
}

// ================================================================================================
// sync.cu
// ================================================================================================

TEST_F(KernelSync, SharedReductionAcrossWarps)
{
    const int n = 1000;
    const unsigned blocks = (n + 255) / 256;
    std::vector<int32_t> in(n);
    for (auto &v : in)
        v = rint_in(-100000, 100000);
    gtlm_devptr din = upload(in), dsums = alloc<int32_t>(blocks, 0x55);
    ASSERT_EQ(launch("sync_reduce", Dim{blocks, 1, 1}, Dim{256, 1, 1}, 0, din, dsums, n), GTLM_OK)
        << gtlm_last_error();
    auto sums = download<int32_t>(dsums, blocks);
    Checker c("sync_reduce");
    for (unsigned b = 0; b < blocks; b++) {
        int32_t want = 0;
        for (int i = (int)b * 256; i < std::min(n, (int)(b + 1) * 256); i++)
            want += in[i];
        c.eq_s(sums[b], want, at(b));
    }
}

TEST_F(KernelSync, TiledMatrixMultiplyBitExact)
{
    const int n = 48;
    std::vector<float> A(n * n), B(n * n);
    for (auto &v : A)
        v = rfloat(-1.0f, 1.0f);
    for (auto &v : B)
        v = rfloat(-1.0f, 1.0f);
    gtlm_devptr dA = upload(A), dB = upload(B), dC = alloc<float>(n * n);
    const Dim grid{(unsigned)n / 16, (unsigned)n / 16, 1};
    ASSERT_EQ(launch("sync_matmul", grid, Dim{16, 16, 1}, 0, dA, dB, dC, n), GTLM_OK) << gtlm_last_error();
    auto C = download<float>(dC, n * n);
    Checker c("sync_matmul");
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++) // fma.rn.f32 in k order, as the PTX does
                acc = std::fma(A[row * n + k], B[k * n + col], acc);
            c.f32(C[row * n + col], acc, at((size_t)row, (size_t)col));
        }
}

TEST_F(KernelSync, DynamicSharedInclusiveScan)
{
    std::vector<int32_t> in(kN);
    for (auto &v : in)
        v = rint_in(-1000, 1000);
    gtlm_devptr din = upload(in), dout = alloc<int32_t>(kN);
    ASSERT_EQ(launch("sync_scan", kGrid3, kBlock100, 2 * 100 * sizeof(int32_t), din, dout, kN), GTLM_OK)
        << gtlm_last_error();
    auto out = download<int32_t>(dout, kN);
    Checker c("sync_scan");
    int32_t run = 0;
    for (int i = 0; i < kN; i++) {
        if (i % 100 == 0)
            run = 0;
        run += in[i];
        c.eq_s(out[i], run, at(i));
    }
}

TEST_F(KernelSync, AtomicAddOnOneCounterU32F32F64U64)
{
    const int n = 1000;
    std::vector<uint32_t> vals(n);
    for (auto &v : vals)
        v = ru32() & 0xfffffu;
    const uint32_t u0 = 7;
    const float f0 = 1.5f;
    const double d0 = 0.25;
    const uint64_t l0 = 1;
    gtlm_devptr dv = upload(vals), cu = upload(std::vector<uint32_t>{u0}), cf = upload(std::vector<float>{f0}),
                cd = upload(std::vector<double>{d0}), cl = upload(std::vector<uint64_t>{l0});
    ASSERT_EQ(launch("sync_atomic_add", Dim{11, 1, 1}, Dim{96, 1, 1}, 0, cu, cf, cd, cl, dv, n), GTLM_OK)
        << gtlm_last_error();
    uint32_t wu = u0;
    float wf = f0; // every partial sum is an integer + 0.5 below 2^24: exact in any order
    double wd = d0;
    uint64_t wl = l0;
    for (uint32_t v : vals) {
        wu += v;
        wf += (float)(v & 63u);
        wd += (double)v * 0.5;
        wl += (uint64_t)v << 20;
    }
    EXPECT_EQ(download1<uint32_t>(cu), wu);
    EXPECT_EQ(f2b(download1<float>(cf)), f2b(wf)) << download1<float>(cf) << " vs " << wf;
    EXPECT_EQ(d2b(download1<double>(cd)), d2b(wd)) << download1<double>(cd) << " vs " << wd;
    EXPECT_EQ(download1<uint64_t>(cl), wl);
}

TEST_F(KernelSync, TicketsArePermutation)
{
    gtlm_devptr counter = alloc<uint32_t>(1), dold = alloc<uint32_t>(kN, 0xff);
    ASSERT_EQ(launch("sync_ticket", kGrid3, kBlock100, 0, counter, dold, kN), GTLM_OK) << gtlm_last_error();
    auto old = download<uint32_t>(dold, kN);
    EXPECT_EQ(download1<uint32_t>(counter), (uint32_t)kN);
    std::sort(old.begin(), old.end());
    Checker c("sync_ticket");
    for (int i = 0; i < kN; i++)
        c.eq(old[i], (uint32_t)i, "sorted old value " + at(i));
}

TEST_F(KernelSync, AtomicMinMaxGlobalAndShared)
{
    std::vector<int32_t> vals(kN);
    for (auto &v : vals)
        v = (int32_t)ru32();
    gtlm_devptr dv = upload(vals);
    gtlm_devptr smin = upload(std::vector<int32_t>{0}), smax = upload(std::vector<int32_t>{0});
    gtlm_devptr umin = upload(std::vector<uint32_t>{0xffffffffu}), umax = upload(std::vector<uint32_t>{0u});
    gtlm_devptr bmin = alloc<int32_t>(3);
    ASSERT_EQ(launch("sync_atomic_minmax", kGrid3, kBlock100, 0, smin, smax, umin, umax, bmin, dv, kN), GTLM_OK)
        << gtlm_last_error();
    int32_t wsmin = 0, wsmax = 0;
    uint32_t wumin = 0xffffffffu, wumax = 0;
    std::vector<int32_t> wb(3, INT32_MAX);
    for (int i = 0; i < kN; i++) {
        wsmin = std::min(wsmin, vals[i]);
        wsmax = std::max(wsmax, vals[i]);
        wumin = std::min(wumin, (uint32_t)vals[i]);
        wumax = std::max(wumax, (uint32_t)vals[i]);
        wb[i / 100] = std::min(wb[i / 100], vals[i]);
    }
    EXPECT_EQ(download1<int32_t>(smin), wsmin);
    EXPECT_EQ(download1<int32_t>(smax), wsmax);
    EXPECT_EQ(download1<uint32_t>(umin), wumin);
    EXPECT_EQ(download1<uint32_t>(umax), wumax);
    EXPECT_EQ(download<int32_t>(bmin, 3), wb);
}

TEST_F(KernelSync, AtomicExchChainsThroughEveryThread)
{
    const int n = 200;
    const uint32_t init = 0xdeadbeefu;
    gtlm_devptr word = upload(std::vector<uint32_t>{init}), dold = alloc<uint32_t>(n);
    ASSERT_EQ(launch("sync_atomic_exch", Dim{5, 1, 1}, Dim{48, 1, 1}, 0, word, dold, n), GTLM_OK)
        << gtlm_last_error();
    auto old = download<uint32_t>(dold, n);
    uint32_t fin = download1<uint32_t>(word);
    // Serial order: the thread that saw the initial value, then the thread that saw its id, ...
    std::map<uint32_t, int> by_old;
    for (int i = 0; i < n; i++)
        EXPECT_TRUE(by_old.emplace(old[i], i).second) << "two threads saw " << hex(old[i]);
    uint32_t cur = init;
    for (int step = 0; step < n; step++) {
        auto it = by_old.find(cur);
        ASSERT_NE(it, by_old.end()) << "no thread replaced " << hex(cur) << " at step " << step;
        cur = (uint32_t)it->second;
        by_old.erase(it);
    }
    EXPECT_EQ(fin, cur) << "the final value is the id of the last thread in the chain";
}

TEST_F(KernelSync, AtomicIncDecWrapInSerialOrder)
{
    const int n = 200;
    const uint32_t limit = 17, inc0 = 5, dec0 = 3;
    gtlm_devptr inc = upload(std::vector<uint32_t>{inc0}), dec = upload(std::vector<uint32_t>{dec0});
    gtlm_devptr dinc_old = alloc<uint32_t>(n), ddec_old = alloc<uint32_t>(n);
    ASSERT_EQ(launch("sync_atomic_incdec", Dim{5, 1, 1}, Dim{48, 1, 1}, 0, inc, dec, dinc_old, ddec_old, limit, n),
              GTLM_OK)
        << gtlm_last_error();
    auto inc_old = download<uint32_t>(dinc_old, n), dec_old = download<uint32_t>(ddec_old, n);
    // Every thread applies the same operation, so the sequence of old values is fixed; only
    // which thread saw which value depends on the order.
    std::vector<uint32_t> want_inc, want_dec;
    uint32_t vi = inc0, vd = dec0;
    for (int k = 0; k < n; k++) {
        want_inc.push_back(vi);
        want_dec.push_back(vd);
        vi = vi >= limit ? 0 : vi + 1;
        vd = (vd == 0 || vd > limit) ? limit : vd - 1;
    }
    std::sort(inc_old.begin(), inc_old.end());
    std::sort(dec_old.begin(), dec_old.end());
    std::sort(want_inc.begin(), want_inc.end());
    std::sort(want_dec.begin(), want_dec.end());
    EXPECT_EQ(inc_old, want_inc);
    EXPECT_EQ(dec_old, want_dec);
    EXPECT_EQ(download1<uint32_t>(inc), vi);
    EXPECT_EQ(download1<uint32_t>(dec), vd);
}

TEST_F(KernelSync, AtomicAndOrXor)
{
    std::vector<uint32_t> masks(kN);
    for (auto &m : masks)
        m = (1u << (rng() % 32)) | (1u << (rng() % 32));
    const uint32_t and0 = 0xffffffffu, or0 = 0x00010000u, xor0 = 0x12345678u;
    gtlm_devptr dand = upload(std::vector<uint32_t>{and0}), dor = upload(std::vector<uint32_t>{or0}),
                dxor = upload(std::vector<uint32_t>{xor0}), dold = alloc<uint32_t>(3 * kN), dm = upload(masks);
    ASSERT_EQ(launch("sync_atomic_bitwise", kGrid3, kBlock100, 0, dand, dor, dxor, dold, dm, kN), GTLM_OK)
        << gtlm_last_error();
    uint32_t all_or = 0, all_xor = 0;
    for (uint32_t m : masks) {
        all_or |= m;
        all_xor ^= m;
    }
    const uint32_t fand = download1<uint32_t>(dand), f_or = download1<uint32_t>(dor), fxor = download1<uint32_t>(dxor);
    EXPECT_EQ(fand, and0 & ~all_or);
    EXPECT_EQ(f_or, or0 | all_or);
    EXPECT_EQ(fxor, xor0 ^ all_xor);
    auto old = download<uint32_t>(dold, 3 * kN);
    // In any serial order: the first thread saw the initial value, every AND result lies between
    // the final and the initial value bitwise, every OR result too, and each thread's own
    // operation is already reflected in the final value.
    bool saw_and0 = false, saw_or0 = false, saw_xor0 = false;
    Checker c("sync_atomic_bitwise");
    for (int i = 0; i < kN; i++) {
        uint32_t oa = old[3 * i], oo = old[3 * i + 1], ox = old[3 * i + 2];
        saw_and0 |= oa == and0;
        saw_or0 |= oo == or0;
        saw_xor0 |= ox == xor0;
        c.ok((oa & fand) == fand && (oa & ~and0) == 0, at(i, 0), hex(oa), "a superset of " + hex(fand));
        c.ok((oo & ~f_or) == 0 && (oo & or0) == or0, at(i, 1), hex(oo), "a subset of " + hex(f_or));
    }
    EXPECT_TRUE(saw_and0);
    EXPECT_TRUE(saw_or0);
    EXPECT_TRUE(saw_xor0);
}

TEST_F(KernelSync, CompareAndSwapLoopsFormSerialOrder)
{
    const int n = 150;
    std::vector<int32_t> vals(n);
    for (auto &v : vals)
        v = rint_in(1, 100);
    const int32_t w0 = 1000;
    const uint64_t l0 = 7;
    gtlm_devptr word = upload(std::vector<int32_t>{w0}), word64 = upload(std::vector<uint64_t>{l0});
    gtlm_devptr dold = alloc<int32_t>(n), dold64 = alloc<uint64_t>(n), dv = upload(vals);
    ASSERT_EQ(launch("sync_atomic_cas", Dim{4, 1, 1}, Dim{48, 1, 1}, 0, word, word64, dold, dold64, dv, n), GTLM_OK)
        << gtlm_last_error();
    auto old = download<int32_t>(dold, n);
    auto old64 = download<uint64_t>(dold64, n);

    // 32-bit: word += v; follow the chain of replaced values from the initial one.
    std::map<int32_t, int> by_old;
    for (int i = 0; i < n; i++)
        EXPECT_TRUE(by_old.emplace(old[i], i).second) << "two CAS succeeded on " << old[i];
    int32_t cur = w0;
    for (int step = 0; step < n; step++) {
        auto it = by_old.find(cur);
        ASSERT_NE(it, by_old.end()) << "no thread replaced " << cur << " at step " << step;
        cur += vals[it->second];
        by_old.erase(it);
    }
    EXPECT_EQ(download1<int32_t>(word), cur);

    // 64-bit: word64 = word64 * 3 + v (order-dependent final value).
    std::map<uint64_t, int> by_old64;
    for (int i = 0; i < n; i++)
        EXPECT_TRUE(by_old64.emplace(old64[i], i).second) << "two CAS succeeded on " << hex(old64[i]);
    uint64_t cur64 = l0;
    for (int step = 0; step < n; step++) {
        auto it = by_old64.find(cur64);
        ASSERT_NE(it, by_old64.end()) << "no thread replaced " << hex(cur64) << " at step " << step;
        cur64 = cur64 * 3ull + (uint64_t)vals[it->second];
        by_old64.erase(it);
    }
    EXPECT_EQ(download1<uint64_t>(word64), cur64);
}

TEST_F(KernelSync, SharedMemoryHistogram)
{
    const int n = 5000;
    std::vector<uint32_t> vals(n);
    for (auto &v : vals)
        v = rng() % 4 == 0 ? ru32() % 8 : ru32(); // a few hot bins: contention on shared words
    gtlm_devptr dv = upload(vals), dh = alloc<uint32_t>(64);
    ASSERT_EQ(launch("sync_histogram", kGrid3, Dim{96, 1, 1}, 0, dv, dh, n), GTLM_OK) << gtlm_last_error();
    auto hist = download<uint32_t>(dh, 64);
    std::vector<uint32_t> want(64, 0);
    for (uint32_t v : vals)
        want[v & 63u]++;
    EXPECT_EQ(hist, want);
}

// ================================================================================================
// warp.cu (whole warps only: 2 CTAs of 96 threads)
// ================================================================================================

const Dim kWarpGrid{2, 1, 1};
const Dim kWarpBlock{96, 1, 1};
const size_t kWarpN = 192;

TEST_F(KernelWarp, ShuffleDownReduction)
{
    std::vector<int32_t> in(kWarpN);
    for (auto &v : in)
        v = rint_in(-100000, 100000);
    gtlm_devptr din = upload(in), dout = alloc<int32_t>(kWarpN), dw8 = alloc<int32_t>(kWarpN);
    ASSERT_EQ(launch("warp_shfl_down", kWarpGrid, kWarpBlock, 0, din, dout, dw8), GTLM_OK) << gtlm_last_error();
    auto out = download<int32_t>(dout, kWarpN), w8 = download<int32_t>(dw8, kWarpN);
    Checker c("warp_shfl_down");
    for (size_t base = 0; base < kWarpN; base += 32) {
        std::vector<int32_t> v(in.begin() + (long)base, in.begin() + (long)base + 32), w = v;
        for (int off = 16; off > 0; off >>= 1) {
            std::vector<int32_t> nv = v;
            for (int l = 0; l < 32; l++)
                nv[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]); // out of range: own value
            v = nv;
        }
        for (int off = 4; off > 0; off >>= 1) {
            std::vector<int32_t> nw = w;
            for (int l = 0; l < 32; l++)
                nw[l] = w[l] + ((l & 7) + off < 8 ? w[l + off] : w[l]);
            w = nw;
        }
        for (int l = 0; l < 32; l++) {
            c.eq_s(out[base + l], v[l], "full width " + at(base + l));
            c.eq_s(w8[base + l], w[l], "width 8 " + at(base + l));
        }
    }
}

TEST_F(KernelWarp, ShuffleUpScan)
{
    std::vector<int32_t> in(kWarpN);
    for (auto &v : in)
        v = rint_in(-1000, 1000);
    gtlm_devptr din = upload(in), dout = alloc<int32_t>(kWarpN), dw16 = alloc<int32_t>(kWarpN);
    ASSERT_EQ(launch("warp_shfl_up", kWarpGrid, kWarpBlock, 0, din, dout, dw16), GTLM_OK) << gtlm_last_error();
    auto out = download<int32_t>(dout, kWarpN), w16 = download<int32_t>(dw16, kWarpN);
    Checker c("warp_shfl_up");
    for (size_t base = 0; base < kWarpN; base += 32) {
        int32_t run = 0, run16 = 0;
        for (int l = 0; l < 32; l++) {
            if (l == 16)
                run16 = 0;
            run += in[base + l];
            run16 += in[base + l];
            c.eq_s(out[base + l], run, "full width " + at(base + l));
            c.eq_s(w16[base + l], run16, "width 16 " + at(base + l));
        }
    }
}

TEST_F(KernelWarp, ShuffleXorButterfly)
{
    std::vector<int32_t> in(kWarpN);
    for (auto &v : in)
        v = rint_in(-1000000, 1000000);
    gtlm_devptr din = upload(in), dout = alloc<int32_t>(3 * kWarpN);
    ASSERT_EQ(launch("warp_shfl_xor", kWarpGrid, kWarpBlock, 0, din, dout), GTLM_OK) << gtlm_last_error();
    auto out = download<int32_t>(dout, 3 * kWarpN);
    Checker c("warp_shfl_xor");
    for (size_t base = 0; base < kWarpN; base += 32) {
        int32_t mx = INT32_MIN, sum = 0;
        for (int l = 0; l < 32; l++) {
            mx = std::max(mx, in[base + l]);
            sum += in[base + l];
        }
        for (int l = 0; l < 32; l++) {
            c.eq_s(out[3 * (base + l) + 0], mx, "max " + at(base + l));
            c.eq_s(out[3 * (base + l) + 1], sum, "sum " + at(base + l));
            c.eq_s(out[3 * (base + l) + 2], in[base + (l ^ 5)], "partner " + at(base + l));
        }
    }
}

TEST_F(KernelWarp, ShuffleIndexBroadcast)
{
    std::vector<int32_t> in(kWarpN);
    std::vector<double> din(kWarpN);
    for (auto &v : in)
        v = (int32_t)ru32();
    for (auto &v : din)
        v = rdouble(-1e10, 1e10);
    const int k = 37; // lane 37 % 32 = 5
    gtlm_devptr dinp = upload(in), ddin = upload(din), dout = alloc<int32_t>(3 * kWarpN), ddout = alloc<double>(kWarpN);
    ASSERT_EQ(launch("warp_shfl_idx", kWarpGrid, kWarpBlock, 0, dinp, ddin, dout, ddout, k), GTLM_OK)
        << gtlm_last_error();
    auto out = download<int32_t>(dout, 3 * kWarpN);
    auto dout_h = download<double>(ddout, kWarpN);
    Checker c("warp_shfl_idx");
    for (size_t base = 0; base < kWarpN; base += 32)
        for (unsigned l = 0; l < 32; l++) {
            size_t i = base + l;
            c.eq_s(out[3 * i + 0], in[base + (k % 32)], "broadcast " + at(i));
            c.eq_s(out[3 * i + 1], in[base + ((l * 7u + 3u) & 31u)], "per-lane source " + at(i));
            c.eq_s(out[3 * i + 2], in[base + ((l & ~3u) | 1u)], "width 4 " + at(i));
            c.f64(dout_h[i], din[base + 31 - l], "double " + at(i));
        }
}

TEST_F(KernelWarp, BallotAnyAllWithPartialWarps)
{
    const Dim grid{3, 1, 1}, block{48, 1, 1}; // warps of 32 and 16 lanes
    const size_t n = 144;
    std::vector<int32_t> in(n);
    for (size_t i = 0; i < n; i++) {
        unsigned cta = (unsigned)(i / 48), w = (unsigned)(i % 48) / 32;
        switch ((cta * 2 + w) % 3) {
        case 0: in[i] = rint_in(1, 100); break;   // all lanes true
        case 1: in[i] = rint_in(-100, 0); break;  // all lanes false
        default: in[i] = rint_in(-100, 100); break; // mixed
        }
    }
    gtlm_devptr din = upload(in), dout = alloc<uint32_t>(4 * n);
    ASSERT_EQ(launch("warp_vote", grid, block, 0, din, dout), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, 4 * n);
    Checker c("warp_vote");
    for (size_t i = 0; i < n; i++) {
        size_t cta_base = i / 48 * 48;
        unsigned t = (unsigned)(i % 48), w = t / 32;
        uint32_t present = lanes_present(48, w), ballot = 0;
        for (unsigned l = 0; l < 32; l++)
            if (present >> l & 1u)
                ballot |= (in[cta_base + 32 * w + l] > 0 ? 1u : 0u) << l;
        c.eq(out[4 * i + 0], ballot, "ballot " + at(i));
        c.eq(out[4 * i + 1], ballot != 0 ? 1u : 0u, "any " + at(i));
        c.eq(out[4 * i + 2], ballot == present ? 1u : 0u, "all " + at(i));
        c.eq(out[4 * i + 3], present, "activemask " + at(i));
    }
}

TEST_F(KernelWarp, SyncwarpOrdersSharedMemory)
{
    std::vector<int32_t> in(kWarpN);
    for (auto &v : in)
        v = rint_in(-100000, 100000);
    gtlm_devptr din = upload(in), dout = alloc<int32_t>(kWarpN);
    ASSERT_EQ(launch("warp_syncwarp", kWarpGrid, kWarpBlock, 0, din, dout), GTLM_OK) << gtlm_last_error();
    auto out = download<int32_t>(dout, kWarpN);
    Checker c("warp_syncwarp");
    for (size_t base = 0; base < kWarpN; base += 32) {
        int32_t a[32], s2[32];
        for (unsigned l = 0; l < 32; l++) {
            a[l] = in[base + ((l + 1) & 31u)];
            s2[l] = a[l] * 2 + in[base + (l ^ 16u)];
        }
        for (unsigned l = 0; l < 32; l++)
            c.eq_s(out[base + l], s2[(l + 31u) & 31u] - a[l], at(base + l));
    }
}

// ================================================================================================
// memory.cu
// ================================================================================================

TEST_F(KernelMemory, ConstantArraySetFromHost)
{
    std::vector<int32_t> table(64), in(kN);
    for (auto &v : table)
        v = rint_in(-10000, 10000);
    for (auto &v : in)
        v = rint_in(-1000, 1000);
    const float scale[4] = {0.5f, -1.25f, 3.0f, 1e-3f};
    // In two pieces, the second at an offset.
    ASSERT_EQ(gtlm_memcpy_to_symbol(sim, mod, "c_table", table.data(), 40 * sizeof(int32_t), 0), GTLM_OK)
        << gtlm_last_error();
    ASSERT_EQ(gtlm_memcpy_to_symbol(sim, mod, "c_table", table.data() + 40, 24 * sizeof(int32_t),
                                    40 * sizeof(int32_t)),
              GTLM_OK)
        << gtlm_last_error();
    ASSERT_EQ(gtlm_memcpy_to_symbol(sim, mod, "c_scale", scale, sizeof scale, 0), GTLM_OK) << gtlm_last_error();
    gtlm_devptr din = upload(in), dout = alloc<int32_t>(kN), dfout = alloc<float>(kN);
    ASSERT_EQ(launch("mem_const", kGrid3, kBlock100, 0, din, dout, dfout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<int32_t>(dout, kN);
    auto fout = download<float>(dfout, kN);
    Checker c("mem_const");
    for (int i = 0; i < kN; i++) {
        int v = in[i];
        c.eq_s(out[i], table[v & 63] * 3 + table[i & 63], at(i));
        c.f32(fout[i], scale[v & 3] * (float)v, at(i));
    }
}

TEST_F(KernelMemory, InitialisedDeviceArrayAndDeviceScalar)
{
    const int32_t g_init[8] = {3, -1, 4, 1, -5, 9, 2, -6}; // memory.cu's initialiser (an input)
    std::vector<int32_t> in(kN);
    for (auto &v : in)
        v = rint_in(-100, 100);
    const uint32_t sum0 = 1000;
    ASSERT_EQ(gtlm_memcpy_to_symbol(sim, mod, "g_sum", &sum0, sizeof sum0, 0), GTLM_OK) << gtlm_last_error();
    gtlm_devptr din = upload(in), dout = alloc<int32_t>(kN);
    ASSERT_EQ(launch("mem_global_var", kGrid3, kBlock100, 0, din, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<int32_t>(dout, kN);
    Checker c("mem_global_var");
    uint32_t want_sum = sum0;
    for (int i = 0; i < kN; i++) {
        c.eq_s(out[i], g_init[i & 7] * in[i] + g_init[(i + 3) & 7], at(i));
        want_sum += (uint32_t)in[i];
    }
    gtlm_devptr g_sum = 0;
    ASSERT_EQ(gtlm_symbol_address(sim, mod, "g_sum", &g_sum), GTLM_OK) << gtlm_last_error();
    ASSERT_NE(g_sum, 0u);
    EXPECT_EQ(download1<uint32_t>(g_sum), want_sum);
    gtlm_devptr g_init_addr = 0;
    ASSERT_EQ(gtlm_symbol_address(sim, mod, "g_init", &g_init_addr), GTLM_OK) << gtlm_last_error();
    auto init_back = download<int32_t>(g_init_addr, 8);
    EXPECT_TRUE(std::equal(init_back.begin(), init_back.end(), g_init));
}

TEST_F(KernelMemory, LocalArrayWithDynamicIndexing)
{
    std::vector<int32_t> in(kN);
    for (auto &v : in)
        v = rint_in(-100000, 100000);
    gtlm_devptr din = upload(in), dout = alloc<int32_t>(2 * kN);
    ASSERT_EQ(launch("mem_local", kGrid3, kBlock100, 0, din, dout, kN), GTLM_OK) << gtlm_last_error();
    auto out = download<int32_t>(dout, 2 * kN);
    Checker c("mem_local");
    for (int i = 0; i < kN; i++) {
        int a[24], v = in[i];
        for (int k = 0; k < 24; k++)
            a[k] = v * (k + 1) - k * k;
        for (int k = 0; k < 8; k++) {
            int idx = (v + k * 5) % 24;
            if (idx < 0)
                idx += 24;
            a[idx] += k;
        }
        int j = (v >> 4) & 15;
        c.eq_s(out[2 * i + 0], a[j] + a[(j + 7) % 24], at(i, 0));
        c.eq_s(out[2 * i + 1], a[(i * 13) % 24], at(i, 1));
    }
}

struct Narrow {
    int8_t c;
    uint8_t uc;
    int16_t s;
    uint16_t us;
};
struct alignas(16) F4 {
    float x, y, z, w;
};
struct alignas(16) I4 {
    int32_t x, y, z, w;
};
struct alignas(16) D2 {
    double x, y;
};
static_assert(sizeof(Narrow) == 6 && sizeof(F4) == 16 && sizeof(I4) == 16 && sizeof(D2) == 16, "layouts");

TEST_F(KernelMemory, NarrowWideAndVectorAccesses)
{
    const int n = 70; // 2 CTAs of 48
    std::vector<int8_t> c8(n);
    std::vector<uint8_t> u8(n);
    std::vector<int16_t> s16(n);
    std::vector<uint16_t> u16(n);
    std::vector<int64_t> ll(n);
    std::vector<F4> f4(n);
    std::vector<I4> i4(n);
    std::vector<D2> d2(n);
    for (int i = 0; i < n; i++) {
        c8[i] = (int8_t)ru32();
        u8[i] = (uint8_t)ru32();
        s16[i] = (int16_t)ru32();
        u16[i] = (uint16_t)ru32();
        ll[i] = (int64_t)ru64();
        f4[i] = F4{rfloat(-1e3f, 1e3f), rfloat(-1e3f, 1e3f), rfloat(-1e3f, 1e3f), rfloat(-1e3f, 1e3f)};
        i4[i] = I4{(int32_t)ru32(), (int32_t)ru32(), (int32_t)ru32(), (int32_t)ru32()};
        d2[i] = D2{rdouble(-1e6, 1e6), rdouble(-1e6, 1e6)};
    }
    gtlm_devptr dc = upload(c8), duc = upload(u8), ds = upload(s16), dus = upload(u16), dll = upload(ll),
                df4 = upload(f4), di4 = upload(i4), dd2 = upload(d2);
    gtlm_devptr onar = alloc<Narrow>(n), owide = alloc<int32_t>(4 * n), oll = alloc<int64_t>(n),
                of4 = alloc<F4>(n), oi4 = alloc<I4>(n), od2 = alloc<D2>(n);
    ASSERT_EQ(launch("mem_types", Dim{2, 1, 1}, Dim{48, 1, 1}, 0, dc, duc, ds, dus, dll, df4, di4, dd2, onar, owide,
                     oll, of4, oi4, od2, n),
              GTLM_OK)
        << gtlm_last_error();
    auto nar = download<Narrow>(onar, n);
    auto wide = download<int32_t>(owide, 4 * n);
    auto rll = download<int64_t>(oll, n);
    auto rf4 = download<F4>(of4, n);
    auto ri4 = download<I4>(oi4, n);
    auto rd2 = download<D2>(od2, n);
    Checker c("mem_types");
    for (int i = 0; i < n; i++) {
        c.eq_s(nar[i].c, (int8_t)(c8[i] * 3 - 1), at(i) + ".c");
        c.eq(nar[i].uc, (uint8_t)(u8[i] + 200), at(i) + ".uc");
        c.eq_s(nar[i].s, (int16_t)(s16[i] * 7 + c8[i]), at(i) + ".s");
        c.eq(nar[i].us, (uint16_t)(u16[i] ^ 0xa5a5u), at(i) + ".us");
        c.eq_s(wide[4 * i + 0], c8[i], at(i, 0) + " signed char widened");
        c.eq_s(wide[4 * i + 1], u8[i], at(i, 1));
        c.eq_s(wide[4 * i + 2], s16[i], at(i, 2));
        c.eq_s(wide[4 * i + 3], u16[i], at(i, 3));
        c.eq_s(rll[i], (ll[i] >> 3) ^ (int64_t)((uint64_t)ll[i] << 17), at(i) + " long long");
        const F4 &f = f4[i];
        volatile float fxw = f.x + f.w, fz2 = f.z * 2.0f;
        c.f32(rf4[i].x, f.y, at(i) + " float4.x");
        c.f32(rf4[i].y, fxw, at(i) + " float4.y");
        c.f32(rf4[i].z, fz2, at(i) + " float4.z");
        c.f32(rf4[i].w, -f.w, at(i) + " float4.w");
        const I4 &q = i4[i];
        c.eq_s(ri4[i].x, q.w, at(i) + " int4.x");
        c.eq_s(ri4[i].y, q.x ^ q.y, at(i) + " int4.y");
        c.eq_s(ri4[i].z, (int32_t)((uint32_t)q.z - (uint32_t)q.x), at(i) + " int4.z");
        c.eq_s(ri4[i].w, q.y >> 2, at(i) + " int4.w");
        volatile double dyx = d2[i].y - d2[i].x, dx4 = d2[i].x * 0.25;
        c.f64(rd2[i].x, dyx, at(i) + " double2.x");
        c.f64(rd2[i].y, dx4, at(i) + " double2.y");
    }
}

TEST_F(KernelMemory, GenericPointerToSharedAndGlobal)
{
    const int n = 100; // 2 CTAs of 64: the second CTA has threads past n
    std::vector<int32_t> in(n);
    for (auto &v : in)
        v = rint_in(-100000, 100000);
    gtlm_devptr din = upload(in), dout = alloc<int32_t>(2 * n);
    ASSERT_EQ(launch("mem_generic", Dim{2, 1, 1}, Dim{64, 1, 1}, 0, din, dout, n), GTLM_OK) << gtlm_last_error();
    auto out = download<int32_t>(dout, 2 * n);
    Checker c("mem_generic");
    for (int i = 0; i < n; i++) {
        int v = in[i], t = i % 64;
        int sh = v * 2 + t; // shared word after the first bump
        c.eq_s(out[2 * i + 0], (v + 1) * 2 + sh, at(i, 0));
        c.eq_s(out[2 * i + 1], v + (v + 1), at(i, 1));
    }
}

TEST_F(KernelMemory, ThreeDimensionalIndices)
{
    const Dim grid{3, 2, 2}, block{4, 3, 5}; // 60 threads per CTA: warps of 32 and 28 lanes
    const size_t total = 3 * 2 * 2 * 4 * 3 * 5;
    gtlm_devptr dout = alloc<uint32_t>(total, 0xff), ddims = alloc<uint32_t>(6);
    ASSERT_EQ(launch("mem_3d", grid, block, 0, dout, ddims), GTLM_OK) << gtlm_last_error();
    auto out = download<uint32_t>(dout, total);
    Checker c("mem_3d");
    for (unsigned bz = 0; bz < grid[2]; bz++)
        for (unsigned by = 0; by < grid[1]; by++)
            for (unsigned bx = 0; bx < grid[0]; bx++)
                for (unsigned tz = 0; tz < block[2]; tz++)
                    for (unsigned ty = 0; ty < block[1]; ty++)
                        for (unsigned tx = 0; tx < block[0]; tx++) {
                            size_t cta = (bz * grid[1] + by) * grid[0] + bx;
                            size_t id = cta * 60 + (tz * block[1] + ty) * block[0] + tx;
                            uint32_t want = (bz << 24) | (by << 20) | (bx << 16) | (tz << 8) | (ty << 4) | tx;
                            c.eq(out[id], want, at(id));
                        }
    EXPECT_EQ(download<uint32_t>(ddims, 6), (std::vector<uint32_t>{3, 2, 2, 4, 3, 5}));
}

// The message of a failing launch: kernel name, "warp", "lane" followed by the lane number, and
// the faulting address in hex (with or without 0x and leading zeros, any case).
void expect_fault_message(const std::string &msg, const char *kernel, unsigned lane, gtlm_devptr addr)
{
    std::string low = msg;
    std::transform(low.begin(), low.end(), low.begin(), [](unsigned char ch) { return (char)std::tolower(ch); });
    std::ostringstream h;
    h << std::hex << addr;
    EXPECT_NE(msg.find(kernel), std::string::npos) << msg;
    EXPECT_NE(low.find("warp"), std::string::npos) << msg;
    EXPECT_NE(low.find("lane"), std::string::npos) << msg;
    EXPECT_TRUE(std::regex_search(low, std::regex("lane[^0-9a-z]{0,3}" + std::to_string(lane) + "([^0-9]|$)")))
        << "lane " << lane << " in: " << msg;
    EXPECT_NE(low.find(h.str()), std::string::npos) << "address 0x" << h.str() << " in: " << msg;
}

TEST_F(KernelMemory, OutOfBoundsReadFailsWithLaneWarpAndAddress)
{
    // 48 threads read in[idx + 17]: in holds 64 ints (256 bytes, no padding), so only thread 47
    // (warp 1, lane 15) reads past the end, at in + 256. `in` is allocated last.
    gtlm_devptr dout = alloc<int32_t>(48);
    std::vector<int32_t> in(64, 1);
    gtlm_devptr din = upload(in);
    const gtlm_devptr bad = din + 256;
    ASSERT_FALSE(bad >= dout && bad < dout + 48 * sizeof(int32_t)) << "allocations overlap the faulting address";
    const int n = 17;
    ASSERT_EQ(launch("mem_oob", Dim{1, 1, 1}, Dim{48, 1, 1}, 0, dout, din, n), GTLM_ESIM)
        << "an out-of-bounds read must fail the launch";
    expect_fault_message(gtlm_last_error(), "mem_oob", 15, bad);
}

TEST_F(KernelMemory, MisalignedLoadFailsWithLaneWarpAndAddress)
{
    gtlm_devptr dout = alloc<int32_t>(64);
    std::vector<int32_t> p(64, 3);
    gtlm_devptr dp = upload(p);
    const int bad_thread = 40; // warp 1, lane 8
    ASSERT_EQ(launch("mem_misaligned", Dim{1, 1, 1}, Dim{48, 1, 1}, 0, dout, dp, bad_thread), GTLM_ESIM)
        << "a misaligned load must fail the launch";
    expect_fault_message(gtlm_last_error(), "mem_misaligned", 8, dp + 4 * bad_thread + 1);
}

TEST_F(KernelMemory, MisalignedKernelRunsWhenNoThreadIsMisaligned)
{
    // The same kernel with bad = -1 is a plain copy: the failure above is the access, not the kernel.
    std::vector<int32_t> p(48);
    for (auto &v : p)
        v = (int32_t)ru32();
    gtlm_devptr dout = alloc<int32_t>(48), dp = upload(p);
    ASSERT_EQ(launch("mem_misaligned", Dim{1, 1, 1}, Dim{48, 1, 1}, 0, dout, dp, -1), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(download<int32_t>(dout, 48), p);
}

// ================================================================================================
// API misuse around modules and launches
// ================================================================================================

bool contains_any(const std::string &msg, std::initializer_list<const char *> needles)
{
    for (const char *s : needles)
        if (msg.find(s) != std::string::npos)
            return true;
    return false;
}

TEST_F(KernelApi, WrongArgumentCountIsRejected)
{
    gtlm_devptr a = alloc<int32_t>(64), b = alloc<int32_t>(64);
    const unsigned g[3] = {1, 1, 1}, bl[3] = {32, 1, 1};
    const void *args2[] = {&a, &b};
    const size_t sizes2[] = {8, 8};
    EXPECT_EQ(gtlm_launch(sim, mod, "mem_oob", g, bl, 0, args2, sizes2, 2), GTLM_EINVAL);
    std::string msg = gtlm_last_error();
    EXPECT_NE(msg.find("mem_oob"), std::string::npos) << msg;
    EXPECT_TRUE(contains_any(msg, {"mem_oob_param_2", "parameter 2", "param 2", "argument 2", "3"})) << msg;

    int n = 1, extra = 2;
    const void *args4[] = {&a, &b, &n, &extra};
    const size_t sizes4[] = {8, 8, 4, 4};
    EXPECT_EQ(gtlm_launch(sim, mod, "mem_oob", g, bl, 0, args4, sizes4, 4), GTLM_EINVAL);
    msg = gtlm_last_error();
    EXPECT_NE(msg.find("mem_oob"), std::string::npos) << msg;
}

TEST_F(KernelApi, WrongArgumentSizeNamesTheParameter)
{
    gtlm_devptr a = alloc<int32_t>(64), b = alloc<int32_t>(64);
    const unsigned g[3] = {1, 1, 1}, bl[3] = {32, 1, 1};
    int64_t n64 = 1;
    const void *args[] = {&a, &b, &n64};
    const size_t sizes[] = {8, 8, 8}; // mem_oob_param_2 is a .u32
    EXPECT_EQ(gtlm_launch(sim, mod, "mem_oob", g, bl, 0, args, sizes, 3), GTLM_EINVAL);
    std::string msg = gtlm_last_error();
    EXPECT_TRUE(contains_any(msg, {"mem_oob_param_2", "parameter 2", "param 2", "argument 2"})) << msg;

    uint32_t small = 0;
    int n = 1;
    const void *args0[] = {&small, &b, &n};
    const size_t sizes0[] = {4, 8, 4}; // mem_oob_param_0 is a .u64 pointer
    EXPECT_EQ(gtlm_launch(sim, mod, "mem_oob", g, bl, 0, args0, sizes0, 3), GTLM_EINVAL);
    msg = gtlm_last_error();
    EXPECT_TRUE(contains_any(msg, {"mem_oob_param_0", "parameter 0", "param 0", "argument 0"})) << msg;
}

TEST_F(KernelApi, UnknownKernelIsNotFound)
{
    gtlm_devptr a = alloc<int32_t>(64);
    EXPECT_EQ(launch("no_such_kernel", Dim{1, 1, 1}, Dim{32, 1, 1}, 0, a), GTLM_ENOTFOUND);
    EXPECT_NE(std::string(gtlm_last_error()).find("no_such_kernel"), std::string::npos) << gtlm_last_error();
}

TEST_F(KernelApi, MemcpyOutsideAnAllocationIsRejected)
{
    gtlm_devptr p = 0, q = 0;
    ASSERT_EQ(gtlm_malloc(sim, 64, &p), GTLM_OK) << gtlm_last_error();
    ASSERT_EQ(gtlm_malloc(sim, 256, &q), GTLM_OK) << gtlm_last_error();
    std::vector<uint8_t> buf(4096, 0xab);
    EXPECT_EQ(gtlm_memcpy_htod(sim, p, buf.data(), 64), GTLM_OK) << gtlm_last_error(); // exactly fits
    EXPECT_EQ(gtlm_memcpy_htod(sim, p, buf.data(), 65), GTLM_EINVAL);
    EXPECT_EQ(gtlm_memcpy_dtoh(sim, buf.data(), p + 32, 64), GTLM_EINVAL);
    EXPECT_EQ(gtlm_memcpy_htod(sim, q - 4, buf.data(), 8), GTLM_EINVAL); // straddles q's start
    EXPECT_EQ(gtlm_memcpy_dtoh(sim, buf.data(), 0x10, 4), GTLM_EINVAL);
    // A range starting in one allocation and running into the next one (or into the gap).
    const gtlm_devptr lo = std::min(p, q);
    const size_t span = (size_t)(std::max(p, q) - lo) + 16;
    if (span <= buf.size()) {
        EXPECT_EQ(gtlm_memcpy_htod(sim, lo, buf.data(), span), GTLM_EINVAL);
    }
    EXPECT_NE(std::string(gtlm_last_error()), "");
}

TEST_F(KernelApi, FreeOfBogusPointerIsRejected)
{
    gtlm_devptr p = 0;
    ASSERT_EQ(gtlm_malloc(sim, 128, &p), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(gtlm_free(sim, p + 4), GTLM_EINVAL);
    EXPECT_EQ(gtlm_free(sim, 0x12345), GTLM_EINVAL);
    EXPECT_EQ(gtlm_free(sim, 0), GTLM_OK);
    EXPECT_EQ(gtlm_free(sim, p), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(gtlm_free(sim, p), GTLM_EINVAL) << "a second free of the same pointer";
}

TEST_F(KernelApi, MissingPtxFileNamesThePath)
{
    const char *path = "/nonexistent-gtlm-dir/missing_module.ptx";
    gtlm_module *m = nullptr;
    int rc = gtlm_module_load_ptx_file(sim, path, &m);
    EXPECT_TRUE(rc == GTLM_EIO || rc == GTLM_ECONFIG || rc == GTLM_ENOTFOUND) << gtlm_status_name(rc);
    EXPECT_NE(std::string(gtlm_last_error()).find(path), std::string::npos) << gtlm_last_error();
}

const char *const kBadPtxHeader = "//\n"
                                  ".version 7.0\n"
                                  ".target sm_75\n"
                                  ".address_size 64\n"
                                  "\n"
                                  ".visible .entry broken(.param .u64 broken_param_0)\n"
                                  "{\n"
                                  "\t.reg .b32 %r<4>;\n"
                                  "\tmov.u32 %r1, 5;\n";

TEST_F(KernelApi, MalformedPtxReportsNameLineColumn)
{
    const std::string text = std::string(kBadPtxHeader) + "\tfrobnicate.b32 %r2, %r1;\n" // line 10
                                                          "\tret;\n"
                                                          "}\n";
    gtlm_module *m = nullptr;
    EXPECT_EQ(gtlm_module_load_ptx(sim, text.c_str(), "bad_module.ptx", &m), GTLM_ECONFIG);
    const std::string msg = gtlm_last_error();
    EXPECT_TRUE(std::regex_search(msg, std::regex("bad_module\\.ptx:10:[0-9]+"))) << msg;
}

TEST_F(KernelApi, MalformedPtxReportsEveryProblem)
{
    const std::string text = std::string(kBadPtxHeader) + "\tfrobnicate.b32 %r2, %r1;\n" // line 10
                                                          "\tmov.u32 %r3, %r1;\n"
                                                          "\twibble.s32 %r3, %r2;\n" // line 12
                                                          "\tret;\n"
                                                          "}\n";
    gtlm_module *m = nullptr;
    EXPECT_EQ(gtlm_module_load_ptx(sim, text.c_str(), "two_errors.ptx", &m), GTLM_ECONFIG);
    const std::string msg = gtlm_last_error();
    EXPECT_TRUE(std::regex_search(msg, std::regex("two_errors\\.ptx:10:[0-9]+"))) << msg;
    EXPECT_TRUE(std::regex_search(msg, std::regex("two_errors\\.ptx:12:[0-9]+"))) << msg;
}

TEST_F(KernelApi, UnknownSymbolIsNotFound)
{
    int v = 1;
    EXPECT_EQ(gtlm_memcpy_to_symbol(sim, mod, "no_such_symbol", &v, sizeof v, 0), GTLM_ENOTFOUND);
    EXPECT_NE(std::string(gtlm_last_error()).find("no_such_symbol"), std::string::npos) << gtlm_last_error();
}

} // namespace
