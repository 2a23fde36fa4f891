// SM memory-path parts: coalescer, shared-memory bank conflicts, scoreboard.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <random>
#include <set>

extern "C" {
#include "ptx/ptx_ir.h"
#include "simt/simt.h"
#include "sm/coalescer.h"
#include "sm/scoreboard.h"
#include "sm/smem_banks.h"
}
#include "ptx_instr_value.h"

namespace {

constexpr uint32_t ALL = 0xffffffffu;

struct Lanes {
    uint64_t a[32] = {};
};

Lanes strided(uint64_t base, int64_t stride)
{
    Lanes l;
    for (int i = 0; i < 32; i++) l.a[i] = base + (uint64_t)(stride * i);
    return l;
}

/* ---------------- Coalescer ---------------- */

TEST(Coalescer, ModeFromArch)
{
    EXPECT_EQ(coal_mode_of(13), COAL_FERMI);
    EXPECT_EQ(coal_mode_of(19), COAL_FERMI);
    EXPECT_EQ(coal_mode_of(20), COAL_SECTORED);
    EXPECT_EQ(coal_mode_of(61), COAL_SECTORED);
    EXPECT_EQ(coal_mode_of(86), COAL_SECTORED);
}

TEST(Coalescer, UnitStrideWordsOneLine)
{
    Lanes l = strided(0x1000, 4);
    coal_result r;
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, ALL, 4, &r), 0);
    ASSERT_EQ(r.n, 1);
    EXPECT_EQ(r.n_lines, 1);
    EXPECT_EQ(r.req[0].line, 0x1000u);
    EXPECT_EQ(r.req[0].addr, 0x1000u);
    EXPECT_EQ(r.req[0].sectors, 0xf);
    EXPECT_EQ(r.req[0].lanes, ALL);
    EXPECT_EQ(r.req[0].bytes, 128);

    ASSERT_EQ(coal_coalesce(COAL_SECTORED, l.a, ALL, 4, &r), 0);
    ASSERT_EQ(r.n, 4);
    EXPECT_EQ(r.n_lines, 1);
    for (int s = 0; s < 4; s++) {
        EXPECT_EQ(r.req[s].addr, 0x1000u + 32u * s);
        EXPECT_EQ(r.req[s].line, 0x1000u);
        EXPECT_EQ(r.req[s].lanes, 0xffu << (8 * s));
        EXPECT_EQ(r.req[s].sectors, 1 << s);
        EXPECT_EQ(r.req[s].bytes, 32);
    }
}

TEST(Coalescer, SegmentReductionFermi)
{
    Lanes l = strided(0x2000, 4);
    coal_result r;
    // lanes 0..7: sector 0 only -> 32-byte request
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, 0xffu, 4, &r), 0);
    ASSERT_EQ(r.n, 1);
    EXPECT_EQ(r.req[0].bytes, 32);
    EXPECT_EQ(r.req[0].addr, 0x2000u);
    EXPECT_EQ(r.req[0].sectors, 0x1);
    // lanes 16..31: sectors 2,3 -> upper 64 bytes
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, 0xffff0000u, 4, &r), 0);
    ASSERT_EQ(r.n, 1);
    EXPECT_EQ(r.req[0].bytes, 64);
    EXPECT_EQ(r.req[0].addr, 0x2040u);
    EXPECT_EQ(r.req[0].sectors, 0xc);
    EXPECT_EQ(r.req[0].lanes, 0xffff0000u);
    // lanes 8..23: sectors 1,2 span both halves -> whole line
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, 0x00ffff00u, 4, &r), 0);
    ASSERT_EQ(r.n, 1);
    EXPECT_EQ(r.req[0].bytes, 128);
    EXPECT_EQ(r.req[0].addr, 0x2000u);
    EXPECT_EQ(r.req[0].sectors, 0x6);
    // sectors 0 and 3 only -> whole line, mask keeps the gap
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, 0xff0000ffu, 4, &r), 0);
    EXPECT_EQ(r.req[0].bytes, 128);
    EXPECT_EQ(r.req[0].sectors, 0x9);
}

TEST(Coalescer, StraddlingAccessSplits)
{
    Lanes l;
    l.a[0] = 0x107c; // 8 bytes: 0x107c..0x1083 crosses the line at 0x1080
    coal_result r;
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, 0x1, 8, &r), 0);
    ASSERT_EQ(r.n, 2);
    EXPECT_EQ(r.req[0].line, 0x1000u);
    EXPECT_EQ(r.req[0].sectors, 0x8);
    EXPECT_EQ(r.req[0].addr, 0x1060u);
    EXPECT_EQ(r.req[0].bytes, 32);
    EXPECT_EQ(r.req[1].line, 0x1080u);
    EXPECT_EQ(r.req[1].sectors, 0x1);
    EXPECT_EQ(r.req[0].lanes, 1u);
    EXPECT_EQ(r.req[1].lanes, 1u);
    // straddling a sector boundary inside a line: one line, two sectors
    l.a[0] = 0x101e;
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, 0x1, 4, &r), 0);
    ASSERT_EQ(r.n, 1);
    EXPECT_EQ(r.req[0].sectors, 0x3);
    EXPECT_EQ(r.req[0].bytes, 64);
    ASSERT_EQ(coal_coalesce(COAL_SECTORED, l.a, 0x1, 4, &r), 0);
    ASSERT_EQ(r.n, 2);
    EXPECT_EQ(r.req[0].addr, 0x1000u);
    EXPECT_EQ(r.req[1].addr, 0x1020u);
}

TEST(Coalescer, DescendingAddressesComeOutAscending)
{
    Lanes l = strided(0x10000 + 31 * 128, -128); // lane 0 highest
    coal_result r;
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, ALL, 4, &r), 0);
    ASSERT_EQ(r.n, 32);
    for (int i = 0; i < 32; i++) {
        EXPECT_EQ(r.req[i].line, 0x10000u + 128u * i);
        EXPECT_EQ(r.req[i].lanes, 1u << (31 - i));
        EXPECT_EQ(r.req[i].bytes, 32);
    }
}

TEST(Coalescer, Vector32BytesPerLane)
{
    Lanes l = strided(0x4000, 32);
    coal_result r;
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, ALL, 32, &r), 0);
    ASSERT_EQ(r.n, 8);
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(r.req[i].line, 0x4000u + 128u * i);
        EXPECT_EQ(r.req[i].sectors, 0xf);
        EXPECT_EQ(r.req[i].lanes, 0xfu << (4 * i));
    }
    ASSERT_EQ(coal_coalesce(COAL_SECTORED, l.a, ALL, 32, &r), 0);
    ASSERT_EQ(r.n, 32);
    for (int i = 0; i < 32; i++) EXPECT_EQ(r.req[i].lanes, 1u << i);
}

// The coalescer's fast paths (the previous lane's line, ascending appends, one-sector lanes)
// against a byte-by-byte reference on random lane patterns: unaligned, straddling, descending,
// repeated and sparse addresses, every access size, both modes.
TEST(Coalescer, MatchesByteReferenceOnRandomPatterns)
{
    std::mt19937_64 rng(14);
    for (int iter = 0; iter < 3000; iter++) {
        unsigned bytes = 1u + (unsigned)(rng() % 32);
        Lanes l;
        uint64_t base = (rng() % 64) * 128;
        int kind = (int)(rng() % 4);
        for (int i = 0; i < 32; i++) {
            uint64_t step = kind == 0 ? bytes : kind == 1 ? 4096 : 0;
            l.a[i] = kind == 3 ? base + rng() % 1024 : kind == 1 && rng() % 2 ? base + (31 - i) * step : base + i * step;
            if (rng() % 3 == 0) l.a[i] += rng() % 40;
        }
        uint32_t mask = rng() % 4 ? ALL : (uint32_t)rng();
        // reference: per line, per sector, the lanes and covered bytes
        std::map<uint64_t, std::array<std::pair<uint32_t, std::set<unsigned>>, 4>> ref;
        for (int i = 0; i < 32; i++) {
            if (!(mask >> i & 1)) continue;
            for (uint64_t b = l.a[i]; b < l.a[i] + bytes; b++) {
                auto &sec = ref[b & ~127ull][(b % 128) / 32];
                sec.first |= 1u << i;
                sec.second.insert((unsigned)(b % 32));
            }
        }
        for (coal_mode mode : {COAL_FERMI, COAL_SECTORED}) {
            coal_result r;
            ASSERT_EQ(coal_coalesce(mode, l.a, mask, bytes, &r), 0);
            ASSERT_EQ(r.n_lines, (int)ref.size());
            int k = 0;
            for (auto &[line, secs] : ref) {
                uint8_t sectors = 0, full = 0;
                uint32_t lanes = 0;
                for (int s = 0; s < 4; s++) {
                    if (!secs[s].first) continue;
                    if (mode == COAL_SECTORED) {
                        ASSERT_LT(k, r.n);
                        EXPECT_EQ(r.req[k].addr, line + 32u * s);
                        EXPECT_EQ(r.req[k].lanes, secs[s].first);
                        EXPECT_EQ(r.req[k].full, secs[s].second.size() == 32 ? 1u << s : 0u);
                        k++;
                    }
                    sectors |= (uint8_t)(1u << s);
                    lanes |= secs[s].first;
                    if (secs[s].second.size() == 32) full |= (uint8_t)(1u << s);
                }
                if (mode == COAL_FERMI) {
                    ASSERT_LT(k, r.n);
                    EXPECT_EQ(r.req[k].line, line);
                    EXPECT_EQ(r.req[k].sectors, sectors);
                    EXPECT_EQ(r.req[k].lanes, lanes);
                    EXPECT_EQ(r.req[k].full, full);
                    k++;
                }
            }
            ASSERT_EQ(k, r.n) << "iteration " << iter;
        }
    }
}

TEST(Coalescer, WorstCaseSixtyFourRequests)
{
    Lanes l = strided(112, 256); // each lane's 32 bytes straddle two lines
    coal_result r;
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, ALL, 32, &r), 0);
    ASSERT_EQ(r.n, COAL_MAX_REQS);
    EXPECT_EQ(r.n_lines, 64);
    for (int i = 0; i < 64; i++) {
        EXPECT_EQ(r.req[i].line, 128u * i);
        EXPECT_EQ(r.req[i].sectors, (i % 2) ? 0x1 : 0x8);
        EXPECT_EQ(r.req[i].lanes, 1u << (i / 2));
    }
    ASSERT_EQ(coal_coalesce(COAL_SECTORED, l.a, ALL, 32, &r), 0);
    EXPECT_EQ(r.n, 64);
}

TEST(Coalescer, BroadcastAndInactiveLanes)
{
    Lanes l;
    for (int i = 0; i < 32; i++) l.a[i] = i % 2 ? 0xdead0000 : 0x3004; // odd lanes garbage
    coal_result r;
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, 0x55555555u, 4, &r), 0);
    ASSERT_EQ(r.n, 1);
    EXPECT_EQ(r.req[0].lanes, 0x55555555u);
    EXPECT_EQ(r.req[0].addr, 0x3000u);
    EXPECT_EQ(r.req[0].bytes, 32);
    ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, 0, 4, &r), 0);
    EXPECT_EQ(r.n, 0);
}

TEST(Coalescer, RejectsBadSize)
{
    Lanes l;
    coal_result r;
    r.n = 7;
    EXPECT_EQ(coal_coalesce(COAL_FERMI, l.a, ALL, 0, &r), -1);
    EXPECT_EQ(r.n, 0);
    EXPECT_EQ(coal_coalesce(COAL_SECTORED, l.a, ALL, 33, &r), -1);
}

TEST(Coalescer, FromSimtAccessRecord)
{
    simt_mem_access acc;
    std::memset(&acc, 0, sizeof acc);
    acc.bytes = 8;
    acc.mask = 0x3;
    acc.addr[0] = 0x100;
    acc.addr[1] = 0x200;
    coal_result r;
    ASSERT_EQ(coal_coalesce_access(COAL_FERMI, &acc, &r), 0);
    ASSERT_EQ(r.n, 2);
    EXPECT_EQ(r.req[0].line, 0x100u);
    EXPECT_EQ(r.req[1].line, 0x200u);
}

// Reference: byte by byte into (line -> sector -> lanes).
TEST(Coalescer, RandomMatchesByteReference)
{
    std::mt19937_64 rng(12345);
    const unsigned sizes[] = {1, 2, 4, 8, 12, 16, 32};
    for (int iter = 0; iter < 3000; iter++) {
        Lanes l;
        uint64_t base = (rng() % 64) * 4096;
        int spread = 1 << (rng() % 12);
        for (int i = 0; i < 32; i++) l.a[i] = base + rng() % (uint64_t)spread;
        uint32_t mask = (uint32_t)rng();
        if (iter % 4 == 0) mask = ALL;
        unsigned bytes = sizes[rng() % 7];
        std::map<uint64_t, std::map<int, uint32_t>> ref;
        for (int i = 0; i < 32; i++) {
            if (!(mask >> i & 1)) continue;
            for (unsigned b = 0; b < bytes; b++) {
                uint64_t a = l.a[i] + b;
                ref[a / 128 * 128][(int)(a % 128 / 32)] |= 1u << i;
            }
        }
        coal_result f, s;
        ASSERT_EQ(coal_coalesce(COAL_FERMI, l.a, mask, bytes, &f), 0);
        ASSERT_EQ(coal_coalesce(COAL_SECTORED, l.a, mask, bytes, &s), 0);
        ASSERT_EQ(f.n, (int)ref.size());
        int k = 0, ks = 0;
        for (auto &[line, secs] : ref) {
            const coal_req &q = f.req[k++];
            EXPECT_EQ(q.line, line);
            uint8_t sm = 0;
            uint32_t lanes = 0;
            for (auto &[sec, ln] : secs) {
                sm |= (uint8_t)(1 << sec);
                lanes |= ln;
                const coal_req &qs = s.req[ks++];
                EXPECT_EQ(qs.addr, line + 32u * sec);
                EXPECT_EQ(qs.lanes, ln);
            }
            EXPECT_EQ(q.sectors, sm);
            EXPECT_EQ(q.lanes, lanes);
            // the reduced segment is aligned, covers every touched sector, and is the smallest
            EXPECT_EQ(q.addr % q.bytes, 0u);
            for (auto &[sec, ln] : secs) {
                EXPECT_GE(line + 32u * sec, q.addr);
                EXPECT_LE(line + 32u * sec + 32, q.addr + q.bytes);
            }
            int span = 32 * (secs.rbegin()->first - secs.begin()->first + 1);
            EXPECT_GE(q.bytes, span);
        }
        EXPECT_EQ(s.n, ks);
    }
}

/* ---------------- SmemBanks ---------------- */

smem_conflict conflicts(const Lanes &l, uint32_t mask, unsigned bytes, int banks = 32)
{
    smem_conflict c;
    EXPECT_EQ(smem_bank_conflicts(l.a, mask, bytes, banks, &c), 0);
    return c;
}

TEST(SmemBanks, DegreeOneUnitStride)
{
    smem_conflict c = conflicts(strided(0, 4), ALL, 4);
    EXPECT_EQ(c.passes, 1);
    EXPECT_EQ(c.degree, 1);
    EXPECT_EQ(c.groups, 1);
    // a permutation of banks is still conflict-free
    Lanes l;
    for (int i = 0; i < 32; i++) l.a[i] = 4u * ((i * 7) % 32) + 1024;
    EXPECT_EQ(conflicts(l, ALL, 4).passes, 1);
}

TEST(SmemBanks, DegreeTwoStrideTwo)
{
    smem_conflict c = conflicts(strided(0, 8), ALL, 4);
    EXPECT_EQ(c.passes, 2);
    EXPECT_EQ(c.degree, 2);
}

TEST(SmemBanks, DegreeThirtyTwoSameBank)
{
    smem_conflict c = conflicts(strided(12, 128), ALL, 4);
    EXPECT_EQ(c.passes, 32);
    EXPECT_EQ(c.degree, 32);
    EXPECT_EQ(conflicts(strided(12, 128), 0xf, 4).passes, 4); // only active lanes count
}

TEST(SmemBanks, Broadcast)
{
    Lanes l = strided(64, 0);
    EXPECT_EQ(conflicts(l, ALL, 4).passes, 1);
    // bytes of the same word are the same word
    EXPECT_EQ(conflicts(strided(64, 0), ALL, 1).passes, 1);
    Lanes b;
    for (int i = 0; i < 32; i++) b.a[i] = 64 + (i % 4);
    EXPECT_EQ(conflicts(b, ALL, 1).passes, 1);
    // two words of one bank, each broadcast to 16 lanes: two passes
    for (int i = 0; i < 32; i++) l.a[i] = i < 16 ? 0 : 128;
    EXPECT_EQ(conflicts(l, ALL, 4).passes, 2);
}

TEST(SmemBanks, SixtyFourBitAsFermi)
{
    // stride-1 doubles: two half-warps, each conflict-free
    smem_conflict c = conflicts(strided(0, 8), ALL, 8);
    EXPECT_EQ(c.groups, 2);
    EXPECT_EQ(c.passes, 2);
    EXPECT_EQ(c.degree, 1);
    // stride-2 doubles: each half-warp 2-way
    c = conflicts(strided(0, 16), ALL, 8);
    EXPECT_EQ(c.passes, 4);
    EXPECT_EQ(c.degree, 2);
    // one half-warp active: one group
    c = conflicts(strided(0, 8), 0xffff0000u, 8);
    EXPECT_EQ(c.groups, 1);
    EXPECT_EQ(c.passes, 1);
    // 128-bit: four quarter-warps
    c = conflicts(strided(0, 16), ALL, 16);
    EXPECT_EQ(c.groups, 4);
    EXPECT_EQ(c.passes, 4);
    EXPECT_EQ(c.degree, 1);
}

TEST(SmemBanks, BankCountAndErrors)
{
    EXPECT_EQ(conflicts(strided(0, 4), ALL, 4, 16).passes, 2);
    EXPECT_EQ(conflicts(strided(0, 4), ALL, 4, 1).passes, 32);
    EXPECT_EQ(conflicts(strided(0, 4), 0, 4).passes, 0);
    smem_conflict c;
    Lanes l;
    EXPECT_EQ(smem_bank_conflicts(l.a, ALL, 0, 32, &c), -1);
    EXPECT_EQ(smem_bank_conflicts(l.a, ALL, 33, 32, &c), -1);
    EXPECT_EQ(smem_bank_conflicts(l.a, ALL, 4, 0, &c), -1);
}

TEST(SmemBanks, RandomMatchesReference)
{
    std::mt19937_64 rng(99);
    const unsigned sizes[] = {1, 2, 4, 8, 16, 32};
    for (int iter = 0; iter < 3000; iter++) {
        Lanes l;
        int range = 4 << (rng() % 10);
        for (int i = 0; i < 32; i++) l.a[i] = rng() % (uint64_t)range;
        unsigned bytes = sizes[rng() % 6];
        for (int i = 0; i < 32; i++) l.a[i] -= l.a[i] % std::min(bytes, 4u) * (iter % 2); // some aligned
        uint32_t mask = (uint32_t)rng() | (iter % 3 == 0 ? ALL : 0);
        int banks = (iter % 5 == 0) ? 16 : 32;
        int gl = bytes <= 4 ? 32 : (int)(128 / bytes);
        int passes = 0, degree = 0;
        for (int g = 0; g < 32; g += gl) {
            std::map<int, std::set<uint64_t>> per_bank;
            for (int i = g; i < g + gl; i++)
                if (mask >> i & 1)
                    for (uint64_t w = l.a[i] / 4; w <= (l.a[i] + bytes - 1) / 4; w++)
                        per_bank[(int)(w % banks)].insert(w);
            int d = 0;
            for (auto &[b, ws] : per_bank) d = std::max(d, (int)ws.size());
            passes += d;
            degree = std::max(degree, d);
        }
        smem_conflict c = conflicts(l, mask, bytes, banks);
        ASSERT_EQ(c.passes, passes) << "iter " << iter;
        ASSERT_EQ(c.degree, degree);
    }
}

/* ---------------- Scoreboard ---------------- */

struct Scoreboard : ::testing::Test {
    scoreboard sb;
    void SetUp() override { ASSERT_EQ(sb_init(&sb, 4, 200), 0); }
    void TearDown() override { sb_free(&sb); }
};

TEST_F(Scoreboard, InitRejectsZero)
{
    scoreboard s;
    EXPECT_EQ(sb_init(&s, 0, 10), -1);
    EXPECT_EQ(sb_init(&s, 2, 0), -1);
}

TEST_F(Scoreboard, RawAndWawBlockUntilRelease)
{
    uint32_t d[] = {5};
    ASSERT_EQ(sb_reserve(&sb, 1, d, 1), 0);
    EXPECT_TRUE(sb_is_pending(&sb, 1, 5));
    EXPECT_EQ(sb_pending_count(&sb, 1), 1u);
    uint32_t src5[] = {3, 5}, dst7[] = {7};
    EXPECT_FALSE(sb_can_issue(&sb, 1, src5, 2, dst7, 1)); // RAW
    EXPECT_EQ(sb.raw_stalls, 1u);
    uint32_t src3[] = {3};
    EXPECT_FALSE(sb_can_issue(&sb, 1, src3, 1, d, 1));    // WAW
    EXPECT_EQ(sb.waw_stalls, 1u);
    EXPECT_TRUE(sb_can_issue(&sb, 1, src3, 1, dst7, 1));  // independent
    EXPECT_TRUE(sb_can_issue(&sb, 0, src5, 2, d, 1));     // other warp
    ASSERT_EQ(sb_release(&sb, 1, 5), 0);
    EXPECT_TRUE(sb_can_issue(&sb, 1, src5, 2, d, 1));
    EXPECT_EQ(sb_pending_count(&sb, 1), 0u);
    EXPECT_EQ(sb.reserves, 1u);
    EXPECT_EQ(sb.releases, 1u);
}

TEST_F(Scoreboard, MultipleDestinationsAndHighSlots)
{
    uint32_t d[] = {0, 63, 64, 199, SB_NO_REG};
    ASSERT_EQ(sb_reserve(&sb, 3, d, 5), 0);
    EXPECT_EQ(sb_pending_count(&sb, 3), 4u);
    for (uint32_t r : {0u, 63u, 64u, 199u}) EXPECT_TRUE(sb_is_pending(&sb, 3, r)) << r;
    for (uint32_t r : {1u, 62u, 65u, 198u}) EXPECT_FALSE(sb_is_pending(&sb, 3, r)) << r;
    uint32_t s[] = {SB_NO_REG, 100};
    EXPECT_TRUE(sb_can_issue(&sb, 3, s, 2, nullptr, 0));
    ASSERT_EQ(sb_release(&sb, 3, 64), 0);
    EXPECT_EQ(sb_release(&sb, 3, 64), -1); // not pending any more
    EXPECT_EQ(sb_pending_count(&sb, 3), 3u);
    sb_clear_warp(&sb, 3);
    EXPECT_EQ(sb_pending_count(&sb, 3), 0u);
    EXPECT_FALSE(sb_is_pending(&sb, 3, 199));
}

TEST_F(Scoreboard, ReserveRejectsWithoutChange)
{
    uint32_t a[] = {10};
    ASSERT_EQ(sb_reserve(&sb, 0, a, 1), 0);
    uint32_t b[] = {11, 10};
    EXPECT_EQ(sb_reserve(&sb, 0, b, 2), -1);  // 10 already pending
    EXPECT_FALSE(sb_is_pending(&sb, 0, 11));
    uint32_t c[] = {12, 12};
    EXPECT_EQ(sb_reserve(&sb, 0, c, 2), -1);  // duplicate
    uint32_t e[] = {200};
    EXPECT_EQ(sb_reserve(&sb, 0, e, 1), -1);  // out of range
    EXPECT_EQ(sb_pending_count(&sb, 0), 1u);
    EXPECT_EQ(sb_release(&sb, 0, 500), -1);
}

TEST_F(Scoreboard, InstructionWithFrameBase)
{
    InstrValue in;
    in.ndst = 1;
    in.dst[0] = 2;
    in.nsrc = 2;
    in.src[0] = 0;
    in.src[1] = 1;
    ASSERT_TRUE(sb_can_issue_instr(&sb, 2, &in, 100));
    ASSERT_EQ(sb_reserve_instr(&sb, 2, &in, 100), 0);
    EXPECT_TRUE(sb_is_pending(&sb, 2, 102));
    EXPECT_FALSE(sb_is_pending(&sb, 2, 2));
    InstrValue use;
    use.nsrc = 1;
    use.src[0] = 2;
    EXPECT_FALSE(sb_can_issue_instr(&sb, 2, &use, 100));
    EXPECT_TRUE(sb_can_issue_instr(&sb, 2, &use, 0));  // another frame's slot 2
    sb_release(&sb, 2, 102);
    EXPECT_TRUE(sb_can_issue_instr(&sb, 2, &use, 100));
}

TEST_F(Scoreboard, RandomMatchesSetReference)
{
    std::mt19937 rng(7);
    std::set<uint32_t> ref[4];
    for (int it = 0; it < 20000; it++) {
        uint32_t w = rng() % 4;
        uint32_t s[3], d[2];
        for (auto &x : s) x = rng() % 200;
        for (auto &x : d) x = rng() % 200;
        int nd = d[0] == d[1] ? 1 : 2;
        bool exp = true;
        for (uint32_t x : s) exp &= !ref[w].count(x);
        for (int i = 0; i < nd; i++) exp &= !ref[w].count(d[i]);
        ASSERT_EQ((bool)sb_can_issue(&sb, w, s, 3, d, nd), exp);
        if (exp) {
            ASSERT_EQ(sb_reserve(&sb, w, d, nd), 0);
            for (int i = 0; i < nd; i++) ref[w].insert(d[i]);
        }
        if (!ref[w].empty() && rng() % 2) {
            auto itr = ref[w].begin();
            std::advance(itr, rng() % ref[w].size());
            ASSERT_EQ(sb_release(&sb, w, *itr), 0);
            ref[w].erase(itr);
        }
        ASSERT_EQ(sb_pending_count(&sb, w), ref[w].size());
    }
}

} // namespace
