// Event counts -> energy (model/power/energy.h) by hand, and the completeness of every shipped
// configuration's energy table.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

extern "C" {
#include "gpu/gpu_config.h"
#include "power/energy.h"
}

namespace {

// A small table: event e costs e + 1 pJ, leakage structure l leaks 10 * (l + 1) mW.
power_config small_table()
{
    power_config c{};
    for (int e = 0; e < PWR_EV_N; e++) c.ev_pj[e] = e + 1;
    for (int l = 0; l < PWR_LK_N; l++) c.leak_mw[l] = 10.0 * (l + 1);
    c.sm_clock_mw = 100;
    c.idle_sm_gating = 0.75;
    c.dram_refresh_ns = 1000;
    for (int g = 0; g < PWR_G_N; g++) {
        c.modes[g].m[PM_ON] = {1, 0, 0};
        c.modes[g].m[PM_SLEEP] = {0.5, 2, 2};
        c.modes[g].m[PM_OFF] = {0.0, 2, 2};
    }
    return c;
}

TEST(PowerEnergy, SmEnergyByHand)
{
    power_config c = small_table();
    pwr_sm_counts k{};
    k.fu[0] = 3;  // int: 3 x 1 pJ
    k.fu[1] = 5;  // fp32: 5 x 2
    k.fu[2] = 1;  // fp64: 1 x 3
    k.fu[3] = 2;  // sfu: 2 x 4
    k.fu[4] = 4;  // ld/st: 4 x 5
    k.warp_insn = 15; // fetch 15 x 6, sched 15 x 7
    k.rf_reads = 20;  // 20 x (8 + 10: read + operand collector)
    k.rf_writes = 9;  // 9 x 9
    k.l1d_accesses = 6; k.l1d_hits = 4; k.l1d_writes = 1; k.l1d_fills = 2; // 6x11 + 4x12 + 1x13 + 2x14
    k.l1c_accesses = 3; k.l1c_hits = 2; k.l1c_fills = 1;                   // 3x15 + 2x16 + 1x17
    k.smem_passes = 7;                                                      // 7 x 18
    k.active_cycles = 600;
    k.rf.n = k.l1d.n = k.sm.n = 1;
    pwr_time t{1000, 500, 500}; // 1000 core cycles at 500 MHz = 2 us
    double dyn[PWR_C_N] = {}, st[PWR_C_N] = {};
    pwr_sm_energy(&c, &k, &t, dyn, st);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_INT], 3);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_FP32], 10);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_FP64], 3);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_SFU], 8);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_LDST], 20);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_FETCH], 90);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_SCHED], 105);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_RF], 20 * 18 + 9 * 9);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_L1D], 66 + 48 + 13 + 28);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_L1C], 45 + 32 + 17);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_SMEM], 126);
    // Clock: 100 mW over 600 active + 400 idle x 25% cycles at 500 MHz = 100 mW x 1.4 us = 140 nJ.
    EXPECT_NEAR(dyn[PWR_C_SM], 140000, 1e-6);
    // Leakage over 2 us: SM logic 10 mW, RF 20 mW, L1D 30 mW.
    EXPECT_NEAR(st[PWR_C_SM], 20000, 1e-6);
    EXPECT_NEAR(st[PWR_C_RF], 40000, 1e-6);
    EXPECT_NEAR(st[PWR_C_L1D], 60000, 1e-6);
}

// Slumber's control logic (thesis Sec. 6.3.4: counters, MSHR tracker, fetch-unit-list, muxes: "less
// than 1% of the register file leakage power", included in its results) leaks -slumber_overhead_frac of
// the RF's ON leakage for the whole time, whatever the registers' modes; only under slumber.
TEST(PowerEnergy, SlumberOverheadIsAFractionOfTheRfLeakageByHand)
{
    power_config c = small_table();
    char slumber[] = "slumber", wrf[] = "wrf";
    c.policy = slumber;
    c.slumber.overhead_frac = 0.01;
    pwr_sm_counts k{};
    k.rf.n = k.l1d.n = k.sm.n = 1;
    k.rf.res[PM_OFF] = 600; // the RF (one block) OFF for 600 of the 1000 cycles
    pwr_time t{1000, 500, 500}; // 2 us
    // 1% of 20 mW over 2 us = 0.4 nJ; the gated RF 20 mW x 400 cycles at 500 MHz = 16 nJ.
    EXPECT_EQ(pwr_slumber_overhead_pj(&c, &t), 400.0);
    double dyn[PWR_C_N] = {}, st[PWR_C_N] = {};
    pwr_sm_energy(&c, &k, &t, dyn, st);
    EXPECT_EQ(st[PWR_C_RF], 16400.0);
    EXPECT_EQ(dyn[PWR_C_RF], 0.0); // leakage, not dynamic
    // The GTX480 numbers: 1% of 498 mW over 1000 cycles at 700 MHz = 7114.285714285714 pJ.
    c.leak_mw[PWR_LK_RF] = 498;
    pwr_time f{1000, 700, 700};
    EXPECT_DOUBLE_EQ(pwr_slumber_overhead_pj(&c, &f), 0.01 * 498 * 1000 / 700 * 1e3);
    EXPECT_NEAR(pwr_slumber_overhead_pj(&c, &f), 7114.285714285714, 1e-9);
    // WRF (the thesis gives it no such overhead) and the baseline: none.
    c.policy = wrf;
    EXPECT_EQ(pwr_slumber_overhead_pj(&c, &t), 0.0);
    c.policy = nullptr;
    EXPECT_EQ(pwr_slumber_overhead_pj(&c, &t), 0.0);
}

TEST(PowerEnergy, MemorySideEnergyByHand)
{
    power_config c = small_table();
    pwr_time t{1000, 500, 1000}; // 2 us; the L2 clock is twice the core's
    double dyn[PWR_C_N] = {}, st[PWR_C_N] = {};
    pwr_l2_counts l{};
    l.accesses = 10; l.hits = 6; l.writes = 3; l.fills = 4; // 10x19 + 6x20 + 3x21 + 4x22
    l.lines.n = 2;
    l.lines.res[PM_OFF] = 1000; // one of two blocks OFF for half of the 2000 L2 cycles
    pwr_l2_energy(&c, &l, &t, dyn, st);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_L2], 190 + 120 + 63 + 88);
    // 40 mW over 2 us = 80 nJ, less a quarter of it (1000 of 4000 block-cycles at 0% leakage).
    EXPECT_NEAR(st[PWR_C_L2], 60000, 1e-6);
    pwr_noc_energy(&c, 100, &t, dyn, st);
    EXPECT_DOUBLE_EQ(dyn[PWR_C_NOC], 100 * 23);
    EXPECT_NEAR(st[PWR_C_NOC], 60 * 2 * 1e3, 1e-6);
    pwr_dram_counts d{};
    d.activates = 2; d.precharges = 1; d.reads = 5; d.writes = 3; d.bytes = 256;
    pwr_dram_energy(&c, &d, &t, dyn, st);
    // act 2x24 + pre 1x25 + rd 5x26 + wr 3x27 + io 256x29 + 2 refreshes (2 us / 1000 ns) x 28
    EXPECT_DOUBLE_EQ(dyn[PWR_C_DRAM], 48 + 25 + 130 + 81 + 256 * 29 + 56);
    EXPECT_NEAR(st[PWR_C_DRAM], 70 * 2 * 1e3, 1e-6);
    EXPECT_NEAR(st[PWR_C_MC], 50 * 2 * 1e3, 1e-6);
}

// Every -power_ option is set in every shipped configuration, and every modelled event has an
// energy (a new event without a row in a config fails here).
TEST(PowerEnergy, EveryConfigHasACompleteEnergyTable)
{
    std::vector<std::string> files;
    for (const auto &e : std::filesystem::directory_iterator(std::string(GTLM_SOURCE_DIR) + "/configs"))
        if (e.path().extension() == ".config") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    ASSERT_GE(files.size(), 7u);
    for (const std::string &f : files) {
        opt_registry reg;
        opt_registry_init(&reg);
        gtlm_config cfg{};
        strbuf err, warn;
        strbuf_init(&err);
        strbuf_init(&warn);
        ASSERT_EQ(gtlm_config_register(&reg, &cfg, &err), 0) << strbuf_str(&err);
        ASSERT_EQ(opt_parse_file(&reg, f.c_str(), &err, &warn), 0) << strbuf_str(&err);
        int n_power = 0;
        for (size_t i = 0; i < reg.n; i++) {
            const opt_entry *o = &reg.v[i];
            if (o->alias_of || std::string(o->name).rfind("-power_", 0) != 0) continue;
            n_power++;
            EXPECT_STRNE(o->source, "default") << f << ": " << o->name << " is not set";
        }
        EXPECT_EQ(n_power, PWR_EV_N + PWR_LK_N + 3 + PWR_G_N + 5);
        for (int e = 0; e < PWR_EV_N; e++) EXPECT_GT(cfg.power.ev_pj[e], 0) << f << ": " << pwr_event_name(e);
        for (int l = 0; l < PWR_LK_N; l++) EXPECT_GT(cfg.power.leak_mw[l], 0) << f << ": " << pwr_leak_name(l);
        EXPECT_GT(cfg.power.sm_clock_mw, 0) << f;
        opt_registry_free(&reg);
        strbuf_free(&err);
        strbuf_free(&warn);
    }
}

} // namespace
