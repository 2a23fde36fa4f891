// Unit tests of the warp-wide ALU (model/simt): bit manipulation, logic and shifts. The
// references follow the PTX ISA's bit-by-bit pseudo-code.
#include "test_alu_common.h"

using namespace alu_test;

namespace {

uint64_t gen_bits(std::mt19937_64 &g, int) { return edge_int(g); }

int wof(ptx_type t)
{
    switch (t) {
    case PT_B16: case PT_U16: case PT_S16: return 16;
    case PT_B32: case PT_U32: case PT_S32: return 32;
    default: return 64;
    }
}
uint64_t low(uint64_t x, int w) { return w == 64 ? x : x & ((1ull << w) - 1); }
int bit(uint64_t x, int i) { return static_cast<int>((x >> i) & 1); }

// Shift amounts: small, around the width, huge, and with garbage above bit 31 (read as u32).
uint64_t gen_shift(std::mt19937_64 &g, int k)
{
    if (k == 0)
        return edge_int(g);
    static const uint64_t amts[] = {0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 0xffffffffu, 0x80000000u,
                                    0x100000001ull, 0xffffffff00000003ull};
    return amts[g() % (sizeof amts / sizeof amts[0])];
}

TEST(AluBits, PopcClzBrev)
{
    for (ptx_type t : {PT_B32, PT_B64}) {
        int w = wof(t);
        check_random(mk(OP_POPC, t), 1, gen_bits,
                     [&](const uint64_t *s) {
                         uint64_t n = 0;
                         for (int i = 0; i < w; i++)
                             n += bit(s[0], i);
                         return n;
                     },
                     1 + t, 16, "popc");
        check_random(mk(OP_CLZ, t), 1, gen_bits,
                     [&](const uint64_t *s) {
                         uint64_t n = 0;
                         for (int i = w - 1; i >= 0 && !bit(s[0], i); i--)
                             n++;
                         return n;
                     },
                     2 + t, 16, "clz");
        check_random(mk(OP_BREV, t), 1, gen_bits,
                     [&](const uint64_t *s) {
                         uint64_t r = 0;
                         for (int i = 0; i < w; i++)
                             r |= static_cast<uint64_t>(bit(s[0], i)) << (w - 1 - i);
                         return r;
                     },
                     3 + t, 16, "brev");
    }
}

TEST(AluBits, BfindWithAndWithoutShiftamt)
{
    for (ptx_type t : {PT_U32, PT_S32, PT_U64, PT_S64}) {
        int w = wof(t);
        bool sg = t == PT_S32 || t == PT_S64;
        for (bool sa : {false, true}) {
            auto ref = [&](const uint64_t *s) -> uint64_t {
                uint64_t a = low(s[0], w);
                int sign = sg ? bit(a, w - 1) : 0;
                for (int i = w - 1; i >= 0; i--)
                    if (bit(a, i) != sign)
                        return sa ? static_cast<uint64_t>(w - 1 - i) : static_cast<uint64_t>(i);
                return 0xffffffffu;
            };
            check_random(mk(OP_BFIND, t, PR_NONE, PM_NONE, sa ? PF_SHIFTAMT : 0), 1, gen_bits, ref, 10 + t + sa, 16,
                         "bfind");
        }
    }
    Warp w;
    w.src[0][0] = 0;
    w.src[0][1] = 0x80000000u;
    ASSERT_EQ(w.run(mk(OP_BFIND, PT_U32, PR_NONE, PM_NONE, PF_SHIFTAMT), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0xffffffffu);
    EXPECT_EQ(w.dst[0][1], 0u);
}

TEST(AluBits, BfeAndBfiFollowTheIsaPseudoCode)
{
    auto gen_pos = [](std::mt19937_64 &g, int k) -> uint64_t {
        if (k == 0)
            return edge_int(g);
        uint64_t r = g();
        if (r % 3 == 0)
            return (r >> 8) % 70;               // in and around range
        if (r % 3 == 1)
            return ((r >> 8) & 0xff) | 0xab00; // bits above 7 are ignored
        return r >> 8;
    };
    for (ptx_type t : {PT_U32, PT_S32, PT_U64, PT_S64}) {
        int w = wof(t), msb = w - 1;
        bool sg = t == PT_S32 || t == PT_S64;
        check_random(mk(OP_BFE, t), 3, gen_pos,
                     [&](const uint64_t *s) {
                         uint64_t a = s[0];
                         int pos = static_cast<int>(s[1] & 0xff), len = static_cast<int>(s[2] & 0xff);
                         int sbit = (!sg || len == 0) ? 0 : bit(a, std::min(pos + len - 1, msb));
                         uint64_t d = 0;
                         for (int i = 0; i <= msb; i++) {
                             int v = (i < len && pos + i <= msb) ? bit(a, pos + i) : sbit;
                             d |= static_cast<uint64_t>(v) << i;
                         }
                         return d;
                     },
                     20 + t, 24, "bfe");
    }
    for (ptx_type t : {PT_B32, PT_B64}) {
        int w = wof(t), msb = w - 1;
        auto gen4 = [&](std::mt19937_64 &g, int k) -> uint64_t { return k < 2 ? edge_int(g) : gen_pos(g, 1); };
        check_random(mk(OP_BFI, t), 4, gen4,
                     [&](const uint64_t *s) {
                         uint64_t f = low(s[1], w);
                         int pos = static_cast<int>(s[2] & 0xff), len = static_cast<int>(s[3] & 0xff);
                         for (int i = 0; i < len && pos + i <= msb; i++)
                             f = (f & ~(1ull << (pos + i))) | (static_cast<uint64_t>(bit(s[0], i)) << (pos + i));
                         return f;
                     },
                     30 + t, 24, "bfi");
    }
    Warp w;
    w.src[0][0] = 0xf0u; // bfe.s32 of bits 4..7 (1111) -> -1
    w.src[1][0] = 4;
    w.src[2][0] = 4;
    w.src[0][1] = 0x80000000u; // start beyond msb: sign fill
    w.src[1][1] = 40;
    w.src[2][1] = 3;
    ASSERT_EQ(w.run(mk(OP_BFE, PT_S32), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0xffffffffu);
    EXPECT_EQ(w.dst[0][1], 0xffffffffu);
    ASSERT_EQ(w.run(mk(OP_BFE, PT_U32), 3u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0xfu);
    EXPECT_EQ(w.dst[0][1], 0u);
}

TEST(AluBits, FunnelShift)
{
    for (unsigned mode : {(unsigned)PM_SHF_L, (unsigned)PM_SHF_R})
        for (uint32_t fl : {(uint32_t)PF_WRAP, (uint32_t)PF_CLAMP}) {
            auto gen_shf = [](std::mt19937_64 &g, int k) { return k < 2 ? edge_int(g) : gen_shift(g, 1); };
            check_random(mk(OP_SHF, PT_B32, PR_NONE, mode, fl), 3, gen_shf,
                         [&](const uint64_t *s) -> uint64_t {
                             uint32_t a = static_cast<uint32_t>(s[0]), b = static_cast<uint32_t>(s[1]);
                             uint32_t c = static_cast<uint32_t>(s[2]);
                             uint32_t n = fl == PF_CLAMP ? std::min(c, 32u) : c & 0x1f;
                             // bit i of the result = bit (i - n) (left) / (i + n) (right) of {b, a}
                             uint32_t d = 0;
                             for (int i = 0; i < 32; i++) {
                                 int src = mode == PM_SHF_L ? i + 32 - static_cast<int>(n) : i + static_cast<int>(n);
                                 int v = src < 32 ? bit(a, src) : src < 64 ? bit(b, src - 32) : 0;
                                 d |= static_cast<uint32_t>(v) << i;
                             }
                             return d;
                         },
                         40 + mode + fl, 16, "shf");
        }
    Warp w;
    w.src[0][0] = 0x89abcdefu;
    w.src[1][0] = 0x01234567u;
    w.src[2][0] = 36; // .wrap: 4
    ASSERT_EQ(w.run(mk(OP_SHF, PT_B32, PR_NONE, PM_SHF_L, PF_WRAP), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x12345678u);
    ASSERT_EQ(w.run(mk(OP_SHF, PT_B32, PR_NONE, PM_SHF_L, PF_CLAMP), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x89abcdefu); // clamped to 32: a
    ASSERT_EQ(w.run(mk(OP_SHF, PT_B32, PR_NONE, PM_SHF_R, PF_WRAP), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x789abcdeu);
}

TEST(AluBits, PrmtAllModes)
{
    // Byte selections of the specialised modes, d.b0..d.b3 for c[1:0] = 0..3 (PTX ISA table).
    const int table[6][4][4] = {
        /* f4e  */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
        /* b4e  */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
        /* rc8  */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
        /* ecl  */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
        /* ecr  */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
        /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}};
    const unsigned modes[6] = {PM_PRMT_F4E, PM_PRMT_B4E, PM_PRMT_RC8, PM_PRMT_ECL, PM_PRMT_ECR, PM_PRMT_RC16};
    auto byte_of = [](uint64_t a, uint64_t b, int k) -> uint32_t {
        uint64_t v = (static_cast<uint64_t>(static_cast<uint32_t>(b)) << 32) | static_cast<uint32_t>(a);
        return static_cast<uint32_t>((v >> (8 * k)) & 0xff);
    };
    for (int m = 0; m < 6; m++)
        check_random(mk(OP_PRMT, PT_B32, PR_NONE, modes[m]), 3, gen_bits,
                     [&](const uint64_t *s) -> uint64_t {
                         const int *sel = table[m][s[2] & 3];
                         uint32_t d = 0;
                         for (int i = 0; i < 4; i++)
                             d |= byte_of(s[0], s[1], sel[i]) << (8 * i);
                         return d;
                     },
                     50 + m, 16, "prmt mode");
    for (unsigned dm : {(unsigned)PM_NONE, (unsigned)PM_PRMT_DEFAULT})
        check_random(mk(OP_PRMT, PT_B32, PR_NONE, dm), 3, gen_bits,
                     [&](const uint64_t *s) -> uint64_t {
                         uint32_t d = 0;
                         for (int i = 0; i < 4; i++) {
                             unsigned ctl = (s[2] >> (4 * i)) & 0xf;
                             uint32_t byte = byte_of(s[0], s[1], ctl & 7);
                             if (ctl & 8)
                                 byte = (byte & 0x80) ? 0xff : 0;
                             d |= byte << (8 * i);
                         }
                         return d;
                     },
                     60 + dm, 16, "prmt");
    Warp w; // the CUB example: a = 0x03020100, b = 0x07060504, c = 0x7531 -> 0x07050301
    w.src[0][0] = 0x03020100u;
    w.src[1][0] = 0x07060504u;
    w.src[2][0] = 0x7531u;
    ASSERT_EQ(w.run(mk(OP_PRMT, PT_B32), 1u), SIMT_ALU_OK);
    EXPECT_EQ(w.dst[0][0], 0x07050301u);
}

TEST(AluBits, LogicOnBitsAndPredicates)
{
    for (ptx_type t : {PT_B16, PT_B32, PT_B64}) {
        int w = wof(t);
        check_random(mk(OP_AND, t), 2, gen_bits, [&](const uint64_t *s) { return low(s[0] & s[1], w); }, 70 + t);
        check_random(mk(OP_OR, t), 2, gen_bits, [&](const uint64_t *s) { return low(s[0] | s[1], w); }, 71 + t);
        check_random(mk(OP_XOR, t), 2, gen_bits, [&](const uint64_t *s) { return low(s[0] ^ s[1], w); }, 72 + t);
        check_random(mk(OP_NOT, t), 1, gen_bits, [&](const uint64_t *s) { return low(~s[0], w); }, 73 + t);
        check_random(mk(OP_CNOT, t), 1, gen_bits,
                     [&](const uint64_t *s) -> uint64_t { return low(s[0], w) == 0 ? 1 : 0; }, 74 + t);
    }
    auto gen_pred = [](std::mt19937_64 &g, int) -> uint64_t {
        uint64_t r = g();
        return r % 3 == 0 ? 0 : r % 3 == 1 ? 1 : r; // nonzero = true
    };
    auto tv = [](uint64_t x) { return x != 0; };
    check_random(mk(OP_AND, PT_PRED), 2, gen_pred, [&](const uint64_t *s) -> uint64_t { return tv(s[0]) && tv(s[1]); }, 80);
    check_random(mk(OP_OR, PT_PRED), 2, gen_pred, [&](const uint64_t *s) -> uint64_t { return tv(s[0]) || tv(s[1]); }, 81);
    check_random(mk(OP_XOR, PT_PRED), 2, gen_pred, [&](const uint64_t *s) -> uint64_t { return tv(s[0]) != tv(s[1]); }, 82);
    check_random(mk(OP_NOT, PT_PRED), 1, gen_pred, [&](const uint64_t *s) -> uint64_t { return !tv(s[0]); }, 83);
}

TEST(AluBits, ShiftsClampAtTheWidth)
{
    for (ptx_type t : {PT_B16, PT_B32, PT_B64}) {
        int w = wof(t);
        check_random(mk(OP_SHL, t), 2, gen_shift,
                     [&](const uint64_t *s) -> uint64_t {
                         uint32_t n = static_cast<uint32_t>(s[1]);
                         uint64_t a = low(s[0], w), d = 0;
                         for (int i = 0; i < w; i++)
                             if (static_cast<int64_t>(i) - static_cast<int64_t>(n) >= 0)
                                 d |= static_cast<uint64_t>(bit(a, i - static_cast<int>(n))) << i;
                         return d;
                     },
                     90 + t, 16, "shl");
    }
    for (ptx_type t : {PT_B16, PT_B32, PT_B64, PT_U16, PT_U32, PT_U64, PT_S16, PT_S32, PT_S64}) {
        int w = wof(t);
        bool sg = t == PT_S16 || t == PT_S32 || t == PT_S64;
        check_random(mk(OP_SHR, t), 2, gen_shift,
                     [&](const uint64_t *s) -> uint64_t {
                         uint64_t n = static_cast<uint32_t>(s[1]);
                         uint64_t a = low(s[0], w), d = 0;
                         int fill = sg ? bit(a, w - 1) : 0;
                         for (int i = 0; i < w; i++) {
                             uint64_t src = i + n;
                             d |= static_cast<uint64_t>(src < static_cast<uint64_t>(w) ? bit(a, static_cast<int>(src)) : fill) << i;
                         }
                         return d;
                     },
                     100 + t, 16, "shr");
    }
}

TEST(AluBits, InactiveLanesAndSupport)
{
    Warp w;
    for (int l = 0; l < W; l++) {
        w.src[0][l] = 0xffu;
        w.src[1][l] = 4;
        w.src[2][l] = 4;
        w.src[3][l] = 4;
    }
    for (ptx_instr in : {mk(OP_SHL, PT_B32), mk(OP_BFI, PT_B64), mk(OP_PRMT, PT_B32, PR_NONE, PM_PRMT_F4E),
                         mk(OP_POPC, PT_B64), mk(OP_NOT, PT_PRED)}) {
        Warp x = w;
        ASSERT_EQ(x.run(in, 0xfffffffeu), SIMT_ALU_OK);
        EXPECT_EQ(x.dst[0][0], SENTINEL) << in.op;
        EXPECT_NE(x.dst[0][1], SENTINEL) << in.op;
    }
    InstrValue bad[] = {mk(OP_POPC, PT_B16),       mk(OP_CLZ, PT_U32),       mk(OP_BFE, PT_B32),
                       mk(OP_BFI, PT_U32),        mk(OP_SHF, PT_B32, PR_NONE, PM_SHF_L), // no .wrap/.clamp
                       mk(OP_SHF, PT_B64, PR_NONE, PM_SHF_L, PF_WRAP), mk(OP_PRMT, PT_B64),
                       mk(OP_AND, PT_U32),        mk(OP_CNOT, PT_PRED),     mk(OP_SHL, PT_S32),
                       mk(OP_SHR, PT_PRED),       mk(OP_BFIND, PT_U32, PR_NONE, PM_NONE, PF_WRAP),
                       mk(OP_PRMT, PT_B32, PR_NONE, PM_SHF_L)};
    for (auto &in : bad) {
        EXPECT_FALSE(sup(in)) << "op " << in.op << " type " << int(in.type);
        Warp x = w;
        EXPECT_EQ(x.run(in), SIMT_ALU_UNSUPPORTED);
        EXPECT_EQ(x.dst[0][5], SENTINEL);
    }
}

} // namespace
