// Slumber through the C API on configs/gtx480.config: the minimum load latencies its MSHR tracker
// uses, measured with a pointer chase (one thread, each load's address the previous load's data,
// nothing else in flight) and stored in the configuration; the register policies at work on a real
// kernel (results unchanged, no gated register read, every transition kind seen); and always-ON
// identical to no policy at all.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gtlm/gtlm.h"

#ifndef GTLM_SOURCE_DIR
#define GTLM_SOURCE_DIR "."
#endif

namespace {

const char *kChase = R"(
.version 7.5
.target sm_75
.address_size 64

// p <- *p, n times; the last pointer is stored to out.
.visible .entry chase(.param .u64 p, .param .u32 n, .param .u64 out)
{
    .reg .b64 %rd<4>;
    .reg .b32 %r<4>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [n];
LOOP:
    ld.global.u64 %rd1, [%rd1];
    sub.u32 %r1, %r1, 1;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra LOOP;
    ld.param.u64 %rd2, [out];
    st.global.u64 [%rd2], %rd1;
    ret;
}
)";

struct Gpu {
    gtlm_sim *sim = nullptr;
    gtlm_module *mod = nullptr;
    explicit Gpu(std::vector<std::string> overrides = {})
    {
        std::vector<const char *> ov;
        for (const std::string &s : overrides) ov.push_back(s.c_str());
        std::string cfg = std::string(GTLM_SOURCE_DIR) + "/configs/gtx480.config";
        const char *files[] = {cfg.c_str()};
        gtlm_sim_options o;
        EXPECT_EQ(gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION), GTLM_OK);
        o.config_files = files;
        o.n_config_files = 1;
        o.overrides = ov.data();
        o.n_overrides = ov.size();
        EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_OK) << gtlm_last_error();
        if (sim) {
            EXPECT_EQ(gtlm_module_load_ptx(sim, kChase, "chase", &mod), GTLM_OK) << gtlm_last_error();
        }
    }
    ~Gpu() { gtlm_sim_destroy(sim); }
    double kstat(const std::string &name)
    {
        double v = -1;
        EXPECT_EQ(gtlm_stat_get_kernel(sim, name.c_str(), &v), GTLM_OK) << name;
        return v;
    }
    // Issue-to-data cycles of the kernel's loads, summed over the SMs, and their count.
    void loads(double *sum, double *n)
    {
        *sum = *n = 0;
        for (int i = 0;; i++) {
            double s = 0, c = 0;
            std::string p = "gpu.sm[" + std::to_string(i) + "].";
            if (gtlm_stat_get_kernel(sim, (p + "load_latency_sum").c_str(), &s) != GTLM_OK) break;
            gtlm_stat_get_kernel(sim, (p + "load_latency_n").c_str(), &c);
            *sum += s, *n += c;
        }
    }
    // Chases a ring of `lines` 128-byte lines `steps` times; returns the mean load latency.
    double chase(gtlm_devptr ring, unsigned steps)
    {
        gtlm_devptr out = 0;
        EXPECT_EQ(gtlm_malloc(sim, 8, &out), GTLM_OK);
        const void *args[] = {&ring, &steps, &out};
        size_t sizes[] = {8, 4, 8};
        const unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
        EXPECT_EQ(gtlm_launch(sim, mod, "chase", g, b, 0, args, sizes, 3), GTLM_OK) << gtlm_last_error();
        double s, n;
        loads(&s, &n);
        return n ? s / n : 0;
    }
    gtlm_devptr ring(unsigned lines, unsigned stride)
    {
        gtlm_devptr base = 0;
        EXPECT_EQ(gtlm_malloc(sim, (size_t)lines * stride, &base), GTLM_OK);
        std::vector<unsigned char> img((size_t)lines * stride, 0);
        for (unsigned i = 0; i < lines; i++) {
            unsigned long long next = base + (unsigned long long)((i + 1) % lines) * stride;
            std::memcpy(&img[(size_t)i * stride], &next, 8);
        }
        EXPECT_EQ(gtlm_memcpy_htod(sim, base, img.data(), img.size()), GTLM_OK);
        return base;
    }
    int option(const char *name)
    {
        char buf[64] = {0};
        EXPECT_EQ(gtlm_option_value(sim, name, buf, sizeof buf), GTLM_OK) << name;
        return std::atoi(buf);
    }
};

}  // namespace

// The -slumber_lat_* values of gtx480.config are these measurements (rounded down: minimums).
TEST(SlumberLatency, PointerChaseMeasuresTheConfiguredMinimumLatencies)
{
    Gpu g;
    ASSERT_NE(g.mod, nullptr);
    // L1: one line chased onto itself; the first load misses, the others hit (hits are not in the
    // load-latency statistic, which counts long-latency loads): kernel cycles of 65 and 2 steps.
    gtlm_devptr self = g.ring(1, 128);
    g.chase(self, 2);
    double two = g.kstat("gpu.cycles");
    g.chase(self, 65);
    double l1 = (g.kstat("gpu.cycles") - two) / 63;
    // DRAM then L2: 64 distinct lines 4 KB + 128 B apart (every channel and bank), cold, then again
    // (the L1 is flushed at each kernel, the L2 keeps them).
    gtlm_devptr ring = g.ring(64, 4096 + 128);
    double dram = g.chase(ring, 64);
    double l2 = g.chase(ring, 64);
    double s, n;
    g.loads(&s, &n);
    EXPECT_EQ(n, 64);  // every load missed the L1
    std::printf("pointer chase on gtx480: L1 hit %.2f, L2 hit %.2f, DRAM %.2f cycles (issue to data)\n", l1, l2, dram);
    EXPECT_LT(l1, l2);
    EXPECT_LT(l2, dram);
    EXPECT_EQ(g.option("-slumber_lat_l1"), (int)l1);
    EXPECT_EQ(g.option("-slumber_lat_l2"), (int)l2);
    EXPECT_EQ(g.option("-slumber_lat_dram"), (int)dram);
}

// The register policies on a real kernel: the chase's result is unchanged, no gated register is read,
// the load's destination is gated at its L1 misses and woken for the data (T5, T6), the exited warp's
// registers are gated (TF), and Slumber leaks less than WRF, which leaks less than always-ON.
TEST(SlumberRun, PoliciesKeepResultsAndSaveLeakage)
{
    double leak[3] = {0, 0, 0}, cycles[3] = {0, 0, 0};
    const char *pol[3] = {"always_on", "wrf", "slumber"};
    for (int i = 0; i < 3; i++) {
        Gpu g({"-power_policy", pol[i]});
        ASSERT_NE(g.mod, nullptr);
        gtlm_devptr ring = g.ring(16, 4096 + 128);
        gtlm_devptr out = 0;
        ASSERT_EQ(gtlm_malloc(g.sim, 8, &out), GTLM_OK);
        unsigned steps = 21;
        const void *args[] = {&ring, &steps, &out};
        size_t sizes[] = {8, 4, 8};
        const unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
        ASSERT_EQ(gtlm_launch(g.sim, g.mod, "chase", grid, block, 0, args, sizes, 3), GTLM_OK) << gtlm_last_error();
        unsigned long long last = 0;
        ASSERT_EQ(gtlm_memcpy_dtoh(g.sim, &last, out, 8), GTLM_OK);
        EXPECT_EQ(last, ring + (unsigned long long)(21 % 16) * (4096 + 128)) << pol[i];
        leak[i] = g.kstat("gpu.power.regfile.static_energy");
        cycles[i] = g.kstat("gpu.cycles");
        if (i == 0) continue;
        // The registers' leakage: Slumber's control logic leaks 1% of the RF's on every SM, idle ones too
        // (one thread here: WRF's 14 idle SMs leak nothing), tested on its own below.
        if (i == 2) leak[i] -= g.kstat("gpu.power.slumber.overhead_energy");
        EXPECT_EQ(g.kstat("gpu.power.modes.reg.lost_reads"), 0) << pol[i];
        if (i == 2) {
            // 16 cold lines (the last 5 steps hit), each gating both warp registers of the 64-bit pointer
            // the register allocation gives it (-slumber_reg_map alloc)
            EXPECT_EQ(g.kstat("gpu.power.modes.reg.fsm.t5"), 32);
            EXPECT_GE(g.kstat("gpu.power.modes.reg.fsm.t6"), 1);
            EXPECT_GE(g.kstat("gpu.power.modes.reg.fsm.tf"), 1);
        }
    }
    EXPECT_LT(leak[2], leak[1]);
    EXPECT_LT(leak[1], leak[0]);
    EXPECT_LE(cycles[2], cycles[0] * 1.05);  // one thread: little for the wakes to hide behind
}

// Slumber's control logic (Sec. 6.3.4) leaks -slumber_overhead_frac (1%) of the RF's ON leakage on
// every SM for the whole kernel, in the register file's static energy: by hand on gtx480.config (15 SMs,
// 498 mW, 700 MHz), and the same run without it differs by exactly that, nothing else.
TEST(SlumberRun, ControlLogicOverheadIsOnePercentOfTheRfLeakage)
{
    double rf[2], cycles[2], ovh = 0;
    for (int with = 0; with < 2; with++) {
        Gpu g({"-power_policy", "slumber", "-slumber_overhead_frac", with ? "0.01" : "0"});
        ASSERT_NE(g.mod, nullptr);
        EXPECT_EQ(g.option("-power_leak_rf_mw"), 498);
        gtlm_devptr ring = g.ring(4, 4096 + 128);
        g.chase(ring, 4);
        rf[with] = g.kstat("gpu.power.regfile.static_energy");
        cycles[with] = g.kstat("gpu.cycles");
        if (with) ovh = g.kstat("gpu.power.slumber.overhead_energy");
        else EXPECT_EQ(g.kstat("gpu.power.slumber.overhead_energy"), 0);
    }
    EXPECT_EQ(cycles[0], cycles[1]); // leakage only: no timing changes
    ASSERT_GT(cycles[1], 0);
    double by_hand = 15 * (0.01 * 498 * cycles[1] / 700 * 1e3) * 1e-12; // J
    EXPECT_DOUBLE_EQ(ovh, by_hand);
    EXPECT_NEAR(rf[1] - rf[0], by_hand, 1e-12 * rf[1]);
}

// -slumber_park under the two-level scheduler: a one-thread pointer chase on one L1-resident line is
// demoted when its next load waits for the last one's data and promoted when the data is written,
// which found the warp demoted: parked too. With `all` the pointer's registers deep sleep until the
// promotion wakes them, so the next load's address waits the 13-cycle DS wake of Table 6.1; with
// `ibuffer` they are operands of the warp's next instruction and wait in shallow sleep (4 cycles).
// Over the 32 steps between a 33- and a 65-step chase: promotions wait (never longer than the OFF
// wake), the waits lengthen the chain, and less with `ibuffer` than with `all`. (Measured: 198 cycles
// without parking; all +208 with 48 waits of 432 cycles; ibuffer +64 with 48 waits of 288 cycles: a
// wait that overlaps the chain's own latency does not lengthen it, so the sums differ.)
TEST(SlumberRun, ParkedChaseStepPaysTheWakeAtPromotion)
{
    const char *mode[3] = {"off", "all", "ibuffer"};
    const double wake[3] = {0, 13, 4};
    double extra[3] = {0, 0, 0}, waits[3] = {0, 0, 0}, n_waits[3] = {0, 0, 0};
    for (int park = 0; park < 3; park++) {
        Gpu g({"-power_policy", "slumber", "-gpgpu_scheduler", "two_level_active:6:0:1", "-slumber_park", mode[park]});
        ASSERT_NE(g.mod, nullptr);
        gtlm_devptr self = g.ring(1, 128);
        g.chase(self, 33);
        double c33 = g.kstat("gpu.cycles"), w33 = g.kstat("gpu.power.modes.reg.stall_cycles.promotion");
        double n33 = g.kstat("gpu.power.modes.reg.stall.promotion");
        g.chase(self, 65);
        extra[park] = g.kstat("gpu.cycles") - c33;
        waits[park] = g.kstat("gpu.power.modes.reg.stall_cycles.promotion") - w33;
        n_waits[park] = g.kstat("gpu.power.modes.reg.stall.promotion") - n33;
        EXPECT_EQ(g.kstat("gpu.power.modes.reg.lost_reads"), 0);
        if (!park) {
            EXPECT_EQ(g.kstat("gpu.power.modes.reg.fsm.tp"), 0);
        }
    }
    std::printf("32 chase steps, L1 hit: %.0f cycles without parking; all +%.0f (%.0f promotion waits, %.0f cycles); "
                "ibuffer +%.0f (%.0f, %.0f)\n", extra[0], extra[1] - extra[0], n_waits[1], waits[1],
                extra[2] - extra[0], n_waits[2], waits[2]);
    EXPECT_EQ(waits[0], 0);
    for (int park = 1; park < 3; park++) {
        EXPECT_GE(n_waits[park], 32) << mode[park];                       // demoted at every step
        EXPECT_LE(waits[park], 16 * n_waits[park]) << mode[park];         // at most an OFF wake each
        EXPECT_GE(waits[park], wake[park] * n_waits[park] / 2) << mode[park];
        EXPECT_GT(extra[park], extra[0]) << mode[park];                   // paid in time
        EXPECT_LE(extra[park] - extra[0], waits[park]) << mode[park];
    }
    EXPECT_LT(extra[2], extra[1]); // shallow sleep for the buffered operands wakes sooner
    EXPECT_LT(waits[2], waits[1]);
}

// coarse151's L1 (the thesis' reference [151], Ch. 2): the whole L1 sleeps in every cycle in which
// no warp of its SM is ready. A one-thread pointer chase around 4 lines that stay in the L1 waits for
// each load's data, so its L1 is asleep when the next load reaches it and every hit waits the Sleep
// wake of gtx480.config's -power_modes_l1d (1.954 ns at 700 MHz: 2 cycles): the 32 more hits of a
// 68-step chase than of a 36-step one take exactly 32 x 2 cycles more issue-to-data latency than
// always-ON and wake the L1 32 more times (both measured launches after a warm-up launch, since
// coarse151's L1 is OFF, its lines lost, between kernels). The loop's own compare-and-branch chain
// is as long as a hit plus the wake, so the kernel's cycles do not grow.
TEST(Coarse151Run, L1SleepsWhileNoWarpIsReadyAndEveryHitPaysTheWake)
{
    double lat[2] = {0, 0}, cyc[2] = {0, 0}, wakes[2] = {0, 0}, sleep[2] = {0, 0};
    const char *pol[2] = {"always_on", "coarse151"};
    for (int i = 0; i < 2; i++) {
        Gpu g({"-power_policy", pol[i], "-power_gating_lines_l1d", "0", "-power_gating_lines_l2", "0"});
        ASSERT_NE(g.mod, nullptr);
        gtlm_devptr ring = g.ring(4, 128);
        g.chase(ring, 4);
        double s36, n36, s68, n68;
        g.chase(ring, 36);
        g.loads(&s36, &n36);
        double c36 = g.kstat("gpu.cycles"), w36 = i ? g.kstat("gpu.power.modes.l1d.wakes") : 0;
        g.chase(ring, 68);
        g.loads(&s68, &n68);
        ASSERT_EQ(n68 - n36, 32);
        lat[i] = s68 - s36;
        cyc[i] = g.kstat("gpu.cycles") - c36;
        if (i) {
            wakes[i] = g.kstat("gpu.power.modes.l1d.wakes") - w36;
            sleep[i] = g.kstat("gpu.power.modes.l1d.sleep_block_cycles");
            EXPECT_EQ(g.kstat("gpu.power.modes.l1d.lost"), 0); // Sleep keeps the data: every step hits
        }
    }
    char buf[128] = {0};
    {
        Gpu g;
        ASSERT_EQ(gtlm_option_value(g.sim, "-power_modes_l1d", buf, sizeof buf), GTLM_OK);
    }
    const char *sl = std::strstr(buf, "sleep=");
    ASSERT_NE(sl, nullptr) << buf;
    int wake = std::atoi(std::strchr(sl, ':') + 1);
    std::printf("32 more L1 hits: issue-to-data cycles always-ON %.0f, coarse151 %.0f (%.0f L1 wakes, Sleep wake %d); "
                "kernel cycles %.0f vs %.0f; L1 asleep %.0f cycles\n", lat[0], lat[1], wakes[1], wake, cyc[0], cyc[1],
                sleep[1]);
    EXPECT_EQ(wake, 2);
    EXPECT_EQ(lat[1] - lat[0], 32.0 * wake);
    EXPECT_EQ(wakes[1], 32);
    EXPECT_GE(cyc[1], cyc[0]);
    EXPECT_GT(sleep[1], 0);
}
