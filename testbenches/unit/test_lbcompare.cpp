// Linebacker's comparison baselines (model/lbcompare): PCAL's hill climbing over tokens and warps,
// and the L1 extension of CacheExt / CERF (ways from unused registers), against hand-worked cases.
#include <gtest/gtest.h>

#include <cstdint>

extern "C" {
#include "lbcompare/l1ext.h"
#include "lbcompare/pcal.h"
}

// 64 warps, 8 tokens, steps of 4: tokens go up while the IPC rises, the first drop undoes the step
// and (tokens having paid upwards) moves on to the warps, which go down until the IPC drops.
TEST(Pcal, HillClimbsTokensThenWarps)
{
    pcal p;
    pcal_reset(&p, 64, 8, 4, 1);
    EXPECT_EQ(p.tokens, 8u);
    EXPECT_EQ(pcal_warp_limit(&p), 0u); // every resident warp issues
    pcal_period_end(&p, 1.0);           // the start's IPC; try T = 12
    EXPECT_EQ(p.tokens, 12u);
    pcal_period_end(&p, 1.2); // paid: T = 16
    EXPECT_EQ(p.tokens, 16u);
    pcal_period_end(&p, 1.1); // fell: back to 12, then the warps: W = 60
    EXPECT_EQ(p.tokens, 12u);
    EXPECT_EQ(p.warps, 60u);
    EXPECT_EQ(p.phase, PCAL_WARPS);
    EXPECT_EQ(pcal_warp_limit(&p), 60u);
    pcal_period_end(&p, 1.3); // paid: W = 56
    EXPECT_EQ(p.warps, 56u);
    pcal_period_end(&p, 1.25); // fell: W = 60 and hold
    EXPECT_EQ(p.warps, 60u);
    EXPECT_EQ(p.phase, PCAL_HOLD);
    pcal_period_end(&p, 9.0); // holds until the kernel ends
    EXPECT_EQ(p.tokens, 12u);
    EXPECT_EQ(p.warps, 60u);
}

// Upwards does not pay at once: tokens are tried downwards (8 -> 4), which pays, then 4 -> 1 (the
// bound), then the warps never go below the tokens.
TEST(Pcal, TriesFewerTokensAndRespectsBounds)
{
    pcal p;
    pcal_reset(&p, 8, 8, 4, 1); // T = W = 8: no room upwards, so down at once
    pcal_period_end(&p, 1.0);
    EXPECT_EQ(p.tokens, 4u);
    pcal_period_end(&p, 1.5); // paid: 4 -> 1
    EXPECT_EQ(p.tokens, 1u);
    pcal_period_end(&p, 1.6); // paid, but at the bound: on to the warps, 8 -> 4
    EXPECT_EQ(p.tokens, 1u);
    EXPECT_EQ(p.warps, 4u);
    pcal_period_end(&p, 1.7); // paid: 4 -> 1 (never below T)
    EXPECT_EQ(p.warps, 1u);
    pcal_period_end(&p, 1.8); // at the bound: hold
    EXPECT_EQ(p.phase, PCAL_HOLD);
    EXPECT_EQ(p.warps, 1u);
}

TEST(Pcal, StaticHoldsItsTokens)
{
    pcal p;
    pcal_reset(&p, 64, 100, 4, 0); // at most every warp holds a token
    EXPECT_EQ(p.tokens, 64u);
    pcal_period_end(&p, 1.0);
    pcal_period_end(&p, 2.0);
    EXPECT_EQ(p.tokens, 64u);
    EXPECT_EQ(pcal_warp_limit(&p), 0u);
}

// The document's L1 (48 sets x 128 B: 6 KB a way) and register file (2048 warp registers, 256 KB):
// room for 42 extra ways; 87 KB of statically unused registers (696 warp registers) is 14 ways.
TEST(L1Ext, WaysFromUnusedRegisters)
{
    EXPECT_EQ(l1ext_max_extra_ways(2048, 48, 128), 42u);
    EXPECT_EQ(l1ext_extra_ways(696, 48, 128, 42), 14u);
    EXPECT_EQ(l1ext_extra_ways(47, 48, 128, 42), 0u);     // less than a way: nothing
    EXPECT_EQ(l1ext_extra_ways(4000, 48, 128, 42), 42u);  // never more than the room built
    // Best-SWL+CacheExt: 64 resident warps of 24 registers, 16 issue: 48 x 24 more unused.
    EXPECT_EQ(l1ext_unused_regs(512, 64, 24, 16, 1), 512u + 48u * 24u);
    EXPECT_EQ(l1ext_unused_regs(512, 64, 24, 16, 0), 512u); // CacheExt: statically unused only
    EXPECT_EQ(l1ext_unused_regs(512, 64, 24, 0, 1), 512u);  // no warp limit: no idle warps
    EXPECT_EQ(l1ext_rn(2, 3, 50), 103u);
}

// CERF's rarely used registers of live warps (-cerf_rare_frac): a quarter of 64 warps' 22 registers is
// 5 each (rounded down), 320 warp registers; with 640 statically unused that is 960 = 20 ways of 6 KB.
TEST(L1Ext, RarelyUsedRegistersOfLiveWarps)
{
    EXPECT_EQ(l1ext_rare_regs(64, 22, 0.25), 320u);
    EXPECT_EQ(l1ext_rare_regs(64, 22, 0.0), 0u);
    EXPECT_EQ(l1ext_rare_regs(64, 22, 1.0), 64u * 22u);
    EXPECT_EQ(l1ext_extra_ways(640 + l1ext_rare_regs(64, 22, 0.25), 48, 128, 42), 20u);
}

// -pcal_tokens 0: every resident warp holds a token (the baseline's allocation); tuning goes down.
TEST(Pcal, ZeroTokensMeansEveryWarp)
{
    pcal p;
    pcal_reset(&p, 32, 0, 4, 1);
    EXPECT_EQ(p.tokens, 32u);
    pcal_period_end(&p, 1.0);
    EXPECT_EQ(p.tokens, 28u);
}

// The warps a token count reaches when live warps are resident: the oldest min(T, live) allocate.
static uint32_t holders(const pcal &p, uint32_t live) { return p.tokens < live ? p.tokens : live; }

// A kernel that keeps 37 of its 64 resident-capable warps (KMeans' sim grid on the GTX 980 GPU):
// from every capable warp, the token steps (64 -> 60) and the warp step (W 60) reach nobody, so
// every period's IPC is the start's and tuning holds where it began; from the live warps each
// step changes who allocates (37 -> 33 holders) and a step that pays is kept.
TEST(Pcal, LiveStartMovesWhereTheCapableStartCannot)
{
    const uint32_t live = 37;
    pcal old;
    pcal_reset(&old, 64, 0, 4, 1);
    for (int k = 0; k < 6; k++) {
        pcal_period_end(&old, 1.0); // nothing changes for the live warps, so neither does the IPC
        EXPECT_EQ(holders(old, live), live);
        EXPECT_GE(pcal_warp_limit(&old) == 0 ? 64u : pcal_warp_limit(&old), live);
    }
    EXPECT_EQ(old.phase, PCAL_HOLD);

    pcal p;
    pcal_reset(&p, 64, 0, 4, 1);
    pcal_set_live(&p, live);
    EXPECT_EQ(p.tokens, live); // the same allocation as before: every live warp holds a token
    EXPECT_EQ(pcal_warp_limit(&p), 0u);
    pcal_period_end(&p, 1.0); // no room upwards: down at once
    EXPECT_EQ(holders(p, live), 33u);
    pcal_period_end(&p, 1.2); // paid: 29
    EXPECT_EQ(holders(p, live), 29u);
    pcal_period_end(&p, 1.1); // fell: back to 29's predecessor 33, then the warps from the live 37: W = 33
    EXPECT_EQ(p.tokens, 33u);
    EXPECT_EQ(pcal_warp_limit(&p), 33u);
    pcal_period_end(&p, 1.0); // fell: back to every warp, hold at T = 33
    EXPECT_EQ(p.phase, PCAL_HOLD);
    EXPECT_EQ(p.tokens, 33u);
    EXPECT_EQ(pcal_warp_limit(&p), 0u);
}

// Live warps above T or W change nothing, none clamps to 0, and more than the capable count caps.
TEST(Pcal, LiveStartBounds)
{
    pcal p;
    pcal_reset(&p, 64, 16, 4, 1);
    pcal_set_live(&p, 40);
    EXPECT_EQ(p.tokens, 16u); // fewer tokens than live warps: kept
    pcal_set_live(&p, 0);
    EXPECT_EQ(p.live, 1u);
    EXPECT_EQ(p.tokens, 1u);
    pcal_reset(&p, 64, 0, 4, 1);
    pcal_set_live(&p, 100);
    EXPECT_EQ(p.live, 64u);
    EXPECT_EQ(p.tokens, 64u);
}
