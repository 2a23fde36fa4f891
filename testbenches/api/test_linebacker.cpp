// Linebacker end to end (issue 18, docs/linebacker.md) on the document's GPU
// (configs/gtx980-linebacker.config): a kernel whose loads re-read a 96 KB working set thrashes the
// 48 KB L1 but fits in the L1 plus the idle registers, so with -lb_enable 1 its L1 misses become
// Reg hits and it runs faster; a streaming kernel reads every line once, so no load is selected and
// no victim is stored. Both results are checked against a host reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "gtlm/gtlm.h"
#include "sim_helpers.h"

namespace {

// The re-reading kernel, twice: lb_reuse with 48 KB of shared memory per CTA (one CTA per SM in
// these grids, so most of the register file is idle) and lb_reuse_np without (8 CTAs per SM).
const char *kReuse = R"(
.visible .entry NAME(.param .u64 in, .param .u64 out, .param .u32 nlines, .param .u32 reps)
{
PAD    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<7>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [nlines];
    ld.param.u32 %r2, [reps];
    mov.u32 %r3, %tid.x;
    and.b32 %r4, %r3, 31;
    mov.u32 %r5, 0;
    mov.u32 %r6, 0;
REP:
    mov.u32 %r7, 0;
LINE:
    shl.b32 %r8, %r7, 5;
    add.u32 %r8, %r8, %r4;
    mul.wide.u32 %rd3, %r8, 4;
    add.u64 %rd4, %rd1, %rd3;
    ld.global.u32 %r9, [%rd4];
    add.u32 %r5, %r5, %r9;
    add.u32 %r7, %r7, 1;
    setp.lt.u32 %p1, %r7, %r1;
    @%p1 bra LINE;
    add.u32 %r6, %r6, 1;
    setp.lt.u32 %p2, %r6, %r2;
    @%p2 bra REP;
    mov.u32 %r10, %ctaid.x;
    mov.u32 %r11, %ntid.x;
    mad.lo.u32 %r10, %r10, %r11, %r3;
    mul.wide.u32 %rd5, %r10, 4;
    add.u64 %rd6, %rd2, %rd5;
    st.global.u32 [%rd6], %r5;
    ret;
}
)";

const char *kRest = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry lb_stream(.param .u64 in, .param .u64 out, .param .u32 n)
{
    .shared .align 4 .b8 pad[49152];
    .reg .pred %p<2>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<7>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.u32 %r5, %r2, %r3, %r4;
    mov.u32 %r6, %nctaid.x;
    mul.lo.u32 %r6, %r6, %r3;
    mov.u32 %r7, 0;
    mov.u32 %r8, 0;
LOOP:
    mad.lo.u32 %r9, %r8, %r6, %r5;
    mul.wide.u32 %rd3, %r9, 4;
    add.u64 %rd4, %rd1, %rd3;
    ld.global.u32 %r9, [%rd4];
    add.u32 %r7, %r7, %r9;
    add.u32 %r8, %r8, 1;
    setp.lt.u32 %p1, %r8, %r1;
    @%p1 bra LOOP;
    mul.wide.u32 %rd5, %r5, 4;
    add.u64 %rd6, %rd2, %rd5;
    st.global.u32 [%rd6], %r7;
    ret;
}
)";

std::string reuse_kernel(const char *name, bool pad)
{
    std::string k = kReuse;
    k.replace(k.find("NAME"), 4, name);
    k.replace(k.find("PAD"), 3, pad ? "    .shared .align 4 .b8 pad[49152];\n" : "");
    return k;
}

const std::string kPtxText = kRest + reuse_kernel("lb_reuse", true) + reuse_kernel("lb_reuse_np", false);
const char *kPtx = kPtxText.c_str();

const unsigned kCtas = 16, kThreads = 256;

struct LbRun {
    double cycles = 0, reg_hits = 0, stored = 0, activations = 0, disabled = 0, l1_misses = 0;
};

gtlm_sim *make(bool lb, const std::vector<const char *> &extra = {})
{
    std::vector<const char *> ov = {"-lb_period", "4000"};
    if (lb) ov.insert(ov.end(), {"-lb_enable", "1"});
    ov.insert(ov.end(), extra.begin(), extra.end());
    return sim_from_config("gtx980-linebacker.config", ov);
}

// Runs kernel on in (u32 words); checks out against ref; returns SM 0..15 totals.
LbRun run(bool lb, const char *kernel, const std::vector<uint32_t> &in, uint32_t a, uint32_t b, bool two,
        const std::vector<uint32_t> &ref)
{
    LbRun r;
    gtlm_sim *sim = make(lb);
    if (!sim) return r;
    gtlm_module *m = nullptr;
    EXPECT_EQ(gtlm_module_load_ptx(sim, kPtx, "linebacker", &m), GTLM_OK) << gtlm_last_error();
    gtlm_devptr din = 0, dout = 0;
    EXPECT_EQ(gtlm_malloc(sim, in.size() * 4, &din), GTLM_OK);
    EXPECT_EQ(gtlm_malloc(sim, ref.size() * 4, &dout), GTLM_OK);
    EXPECT_EQ(gtlm_memcpy_htod(sim, din, in.data(), in.size() * 4), GTLM_OK);
    const void *args[] = {&din, &dout, &a, &b};
    const size_t sizes[] = {8, 8, 4, 4};
    const unsigned grid[3] = {kCtas, 1, 1}, block[3] = {kThreads, 1, 1};
    EXPECT_EQ(gtlm_launch(sim, m, kernel, grid, block, 0, args, sizes, two ? 4 : 3), GTLM_OK) << gtlm_last_error();
    std::vector<uint32_t> out(ref.size());
    EXPECT_EQ(gtlm_memcpy_dtoh(sim, out.data(), dout, out.size() * 4), GTLM_OK);
    EXPECT_EQ(out, ref);
    r.cycles = stat(sim, "gpu_tot_sim_cycle");
    r.l1_misses = stat(sim, "L1D_total_cache_misses");
    if (lb)
        for (unsigned s = 0; s < 16; s++) {
            std::string p = "gpu.sm[" + std::to_string(s) + "].lb.";
            r.reg_hits += stat(sim, p + "reg_hits");
            r.stored += stat(sim, p + "victims_stored");
            r.activations += stat(sim, p + "activations");
            r.disabled += stat(sim, p + "disabled");
        }
    gtlm_sim_destroy(sim);
    return r;
}

std::vector<uint32_t> random_words(size_t n)
{
    std::mt19937 g(18);
    std::vector<uint32_t> v(n);
    for (auto &x : v) x = g() & 0xffff;
    return v;
}

// lb_reuse_np on ctas CTAs of 256 threads (nlines lines re-read reps times) in sim; checks the output
// against the host reference.
void run_reuse_np(gtlm_sim *sim, unsigned ctas, uint32_t nlines, uint32_t reps)
{
    std::vector<uint32_t> in = random_words(nlines * 32);
    std::vector<uint32_t> ref(ctas * kThreads);
    for (unsigned t = 0; t < ref.size(); t++) {
        uint32_t s = 0;
        for (uint32_t r = 0; r < reps; r++)
            for (uint32_t j = 0; j < nlines; j++) s += in[j * 32 + t % 32];
        ref[t] = s;
    }
    gtlm_module *m = nullptr;
    ASSERT_EQ(gtlm_module_load_ptx(sim, kPtx, "linebacker", &m), GTLM_OK) << gtlm_last_error();
    gtlm_devptr din = 0, dout = 0;
    ASSERT_EQ(gtlm_malloc(sim, in.size() * 4, &din), GTLM_OK);
    ASSERT_EQ(gtlm_malloc(sim, ref.size() * 4, &dout), GTLM_OK);
    ASSERT_EQ(gtlm_memcpy_htod(sim, din, in.data(), in.size() * 4), GTLM_OK);
    const void *args[] = {&din, &dout, &nlines, &reps};
    const size_t sizes[] = {8, 8, 4, 4};
    const unsigned grid[3] = {ctas, 1, 1}, block[3] = {kThreads, 1, 1};
    ASSERT_EQ(gtlm_launch(sim, m, "lb_reuse_np", grid, block, 0, args, sizes, 4), GTLM_OK) << gtlm_last_error();
    std::vector<uint32_t> out(ref.size());
    ASSERT_EQ(gtlm_memcpy_dtoh(sim, out.data(), dout, out.size() * 4), GTLM_OK);
    EXPECT_EQ(out, ref);
}

} // namespace

TEST(Linebacker, ReusedWorkingSetBeyondL1BecomesRegHitsAndRunsFaster)
{
    const uint32_t nlines = 768, reps = 8; // 96 KB: twice the L1, well inside L1 + idle registers
    std::vector<uint32_t> in = random_words(nlines * 32);
    std::vector<uint32_t> ref(kCtas * kThreads);
    for (unsigned t = 0; t < ref.size(); t++) {
        uint32_t s = 0;
        for (uint32_t r = 0; r < reps; r++)
            for (uint32_t j = 0; j < nlines; j++) s += in[j * 32 + t % 32];
        ref[t] = s;
    }
    LbRun base = run(false, "lb_reuse", in, nlines, reps, true, ref);
    LbRun lb = run(true, "lb_reuse", in, nlines, reps, true, ref);
    EXPECT_EQ(lb.activations, 16.0); // every SM selected its load
    EXPECT_GT(lb.stored, 0.0);
    EXPECT_GT(lb.reg_hits, 0.0);
    EXPECT_LT(lb.l1_misses, base.l1_misses); // the lines come back from the registers, not from L2
    std::printf("lb_reuse: baseline %.0f cycles, %.0f L1 misses; Linebacker %.0f cycles, %.0f L1 misses, %.0f Reg hits, "
                "%.0f victims stored\n", base.cycles, base.l1_misses, lb.cycles, lb.l1_misses, lb.reg_hits, lb.stored);
    EXPECT_LT(lb.cycles, base.cycles) << "base " << base.cycles << " lb " << lb.cycles << " reg hits " << lb.reg_hits;
}

TEST(Linebacker, StreamingLoadsStoreNoVictims)
{
    const uint32_t n = 400; // every thread reads 400 words, each line exactly once (several periods)
    std::vector<uint32_t> in = random_words(size_t(n) * kCtas * kThreads);
    std::vector<uint32_t> ref(kCtas * kThreads);
    for (unsigned t = 0; t < ref.size(); t++) {
        uint32_t s = 0;
        for (uint32_t j = 0; j < n; j++) s += in[size_t(j) * ref.size() + t];
        ref[t] = s;
    }
    LbRun lb = run(true, "lb_stream", in, n, 0, false, ref);
    EXPECT_EQ(lb.activations, 0.0);
    EXPECT_EQ(lb.disabled, 16.0); // no high-locality load in the first two periods
    EXPECT_EQ(lb.stored, 0.0);
    EXPECT_EQ(lb.reg_hits, 0.0);
}

// CTA throttling (issue 18 item 2): 8 CTAs per SM re-read a shared working set; once the Load
// Monitor selected the load, every SM throttles a CTA, backs its #reg warp registers up as exactly
// #reg x 128 bytes of writes, and restores it (same bytes) when another CTA completes. The results
// match the host reference, with and without throttling.
TEST(Linebacker, ThrottledCtasAreBackedUpAndRestoredByteExactly)
{
    const unsigned ctas = 128; // 8 per SM of 256 threads
    const uint32_t nlines = 256, reps = 3;
    for (bool throttle : {false, true}) {
        gtlm_sim *sim = make(true, {"-lb_period", "3000", "-lb_throttle", throttle ? "1" : "0"});
        ASSERT_NE(sim, nullptr);
        SCOPED_TRACE(throttle ? "with throttling" : "without throttling");
        run_reuse_np(sim, ctas, nlines, reps);
        double backups = 0, restores = 0, throttles = 0;
        for (unsigned s = 0; s < 16; s++) {
            std::string p = "gpu.sm[" + std::to_string(s) + "].lb.";
            double nreg = stat(sim, p + "cta_regs"), bk = stat(sim, p + "backups"), rs = stat(sim, p + "restores");
            EXPECT_GT(nreg, 0.0);
            EXPECT_EQ(stat(sim, p + "backup_bytes"), bk * nreg * 128.0) << "SM " << s; // exactly #reg x 128 per CTA
            EXPECT_EQ(stat(sim, p + "restore_bytes"), rs * nreg * 128.0) << "SM " << s;
            EXPECT_EQ(rs, bk) << "SM " << s; // every backed-up CTA came back before the kernel ended
            EXPECT_LE(stat(sim, p + "buffer_peak"), 6.0);
            backups += bk;
            restores += rs;
            throttles += stat(sim, p + "throttles");
        }
        if (throttle) {
            EXPECT_GE(throttles, 16.0); // every SM throttles once its load is selected
            EXPECT_GE(backups, 16.0);
            EXPECT_GT(stat(sim, "gpu.lb.dur_regs_avg"), 0.0);
            EXPECT_EQ(stat(sim, "gpu.lb.overhead_bytes"), stat(sim, "gpu.lb.backup_bytes") + stat(sim, "gpu.lb.restore_bytes"));
            // below the L2 (Fig. 17's split): what reached the DRAM of the backup region, at most one
            // 32-byte request per 32 bytes moved at the SMs (the L2 absorbs or merges the rest)
            double dr = stat(sim, "gpu.lb.dram_overhead_reads"), dw = stat(sim, "gpu.lb.dram_overhead_writes");
            EXPECT_LE(dr, stat(sim, "gpu.lb.restore_bytes") / 32);
            EXPECT_LE(dw, stat(sim, "gpu.lb.backup_bytes") / 32);
            EXPECT_LE(dr + dw, stat(sim, "gpu.dram.accesses"));
            std::printf("throttling: %.0f throttles, %.0f re-activations, %.0f backups, %.0f restores (%.0f on completion), "
                        "%.0f overhead bytes, %.2f schedulable CTAs per SM on average, %.0f Reg hits, %.0f cycles\n",
                        throttles, stat(sim, "gpu.lb.reactivations"), backups, restores,
                        stat(sim, "gpu.lb.restores_on_completion"), stat(sim, "gpu.lb.overhead_bytes"),
                        stat(sim, "gpu.lb.active_ctas_avg"), stat(sim, "gpu.lb.reg_hits"), stat(sim, "gpu_tot_sim_cycle"));
        } else {
            EXPECT_EQ(backups, 0.0);
            std::printf("no throttling: %.0f Reg hits, %.0f cycles\n", stat(sim, "gpu.lb.reg_hits"), stat(sim, "gpu_tot_sim_cycle"));
        }
        gtlm_sim_destroy(sim);
    }
}

// LB+CacheExt (Fig. 15, Gap G23): CacheExt turns the statically unused registers into L1 ways, so
// Linebacker's victim partitions may only lie over the registers of throttled CTAs. Without
// throttling (SVC) no partition is left (the registers above the CTAs and under CacheExt's ways are
// less than one L1 way, so less than a partition); with throttling the backed-up CTAs' registers
// (and, in the kernel's tail, those of completed CTAs) hold victims while the L1 keeps its extra
// ways: both mechanisms at once. Small: 2 SMs, 1-way
// partitions (48 registers), a 1,600-register file (8 CTAs of 176 take 1,408: 192 unused = 4 L1 ways
// for CacheExt, or 3 partitions for SVC), 80 KB re-read twice. Results match the host reference.
TEST(Linebacker, WithCacheExtVictimsUseOnlyTheThrottledCtasRegisters)
{
    const unsigned sms = 2, ctas = 16; // 8 per SM of 256 threads
    const uint32_t nlines = 640, reps = 2; // 80 KB: more than the L1 and its extra ways
    struct Out {
        double ways = 0, activations = 0, throttles = 0, reg_hits = 0, vp_regs = 0, dur_regs = 0, cta_regs = 0;
    };
    auto go = [&](bool throttle, bool ext) {
        Out o;
        gtlm_sim *sim = make(true, {"-lb_period", "3000", "-lb_vp_ways", "1", "-lb_throttle", throttle ? "1" : "0",
                                    "-cacheext_enable", ext ? "1" : "0", "-gpgpu_n_clusters", "2",
                                    "-gpgpu_shader_registers", "51200"});
        EXPECT_NE(sim, nullptr);
        if (!sim) return o;
        run_reuse_np(sim, ctas, nlines, reps);
        for (unsigned s = 0; s < sms; s++) {
            std::string p = "gpu.sm[" + std::to_string(s) + "].";
            if (ext) o.ways += stat(sim, p + "l1ext.extra_way_kernels");
            o.activations += stat(sim, p + "lb.activations");
            o.throttles += stat(sim, p + "lb.throttles");
        }
        o.cta_regs = stat(sim, "gpu.sm[0].lb.cta_regs");
        o.reg_hits = stat(sim, "gpu.lb.reg_hits");
        o.vp_regs = stat(sim, "gpu.lb.vp_regs_avg");
        o.dur_regs = stat(sim, "gpu.lb.dur_regs_avg");
        std::printf("throttle %d CacheExt %d: #reg %.0f, %.0f extra ways, %.0f activations, %.0f throttles, %.0f Reg hits, "
                    "victim registers %.1f, DUR %.1f (per SM, time average), %.0f cycles\n",
                    throttle, ext, o.cta_regs, o.ways, o.activations, o.throttles, o.reg_hits, o.vp_regs, o.dur_regs,
                    stat(sim, "gpu_tot_sim_cycle"));
        gtlm_sim_destroy(sim);
        return o;
    };
    Out svc = go(false, false), svc_ext = go(false, true), lb_ext = go(true, true);
    EXPECT_GT(svc.vp_regs, 0.0); // alone, SVC keeps victims in the statically unused registers
    EXPECT_GT(svc.reg_hits, 0.0);
    EXPECT_GT(svc_ext.ways, 0.0); // with CacheExt those registers are L1 ways ...
    EXPECT_EQ(svc_ext.activations, double(sms)); // ... the loads are still selected ...
    EXPECT_EQ(svc_ext.vp_regs, 0.0); // ... but no partition is left for victims
    EXPECT_EQ(svc_ext.reg_hits, 0.0);
    EXPECT_GT(lb_ext.ways, 0.0); // LB+CacheExt: the extra ways and ...
    EXPECT_GE(lb_ext.throttles, double(sms));
    EXPECT_GT(lb_ext.vp_regs, 0.0); // ... victims in the throttled CTAs' registers
    EXPECT_GT(lb_ext.reg_hits, 0.0);
    EXPECT_GT(lb_ext.dur_regs, 0.0);
}

// Energy of Linebacker's structures (Table 3, Sec. 5.8): each gpu.power.linebacker.* part is its
// count x its per-access energy (VTT 2.05 pJ per partition searched or entry written, LM 0.32 pJ per
// entry, HPC 0.09 pJ per L1 access or fill, CTA manager 1.94 pJ per update, the extra register
// accesses at the file's read / write energy), and the parts sit inside the GPU's components: the
// same run with Table 3's energies at 0 (same timing) has exactly that much less l1d / sched energy.
TEST(Linebacker, StructureEnergyIsCountTimesTable3Energy)
{
    auto go = [](bool zero) {
        std::vector<const char *> ov = {"-lb_period", "3000", "-gpgpu_n_clusters", "2"};
        if (zero) ov.insert(ov.end(), {"-lb_vtt_pj", "0", "-lb_lm_pj", "0", "-lb_hpc_pj", "0", "-lb_ctam_pj", "0"});
        gtlm_sim *sim = make(true, ov);
        EXPECT_NE(sim, nullptr);
        return sim;
    };
    gtlm_sim *sim = go(false), *zero = go(true);
    ASSERT_TRUE(sim && zero);
    run_reuse_np(sim, 32, 512, 2); // 64 KB re-read: beyond the L1, so victims are stored and hit
    run_reuse_np(zero, 32, 512, 2);
    double n[7] = {};
    const char *leaf[7] = {"lb.vtt_accesses", "lb.lm_accesses", "lb.ctam_accesses", "l1d.accesses", "l1d.fills",
                           "lb.reg_hits", "lb.victims_stored"};
    double backup = 0, restore = 0;
    for (unsigned s = 0; s < 2; s++) {
        std::string p = "gpu.sm[" + std::to_string(s) + "].";
        for (int i = 0; i < 7; i++) n[i] += stat(sim, p + leaf[i]);
        backup += stat(sim, p + "lb.backup_bytes") / 128;
        restore += stat(sim, p + "lb.restore_bytes") / 128;
    }
    for (int i = 0; i < 7; i++) EXPECT_GT(n[i], 0.0) << leaf[i];
    EXPECT_GT(backup, 0.0); // throttling ran: the CTA manager and the backup path were used
    const double pj = 1e-12;
    double vtt = stat(sim, "gpu.power.linebacker.vtt_energy"), lm = stat(sim, "gpu.power.linebacker.lm_energy");
    double hpc = stat(sim, "gpu.power.linebacker.hpc_energy"), ctam = stat(sim, "gpu.power.linebacker.cta_manager_energy");
    double rf = stat(sim, "gpu.power.linebacker.regfile_energy");
    EXPECT_DOUBLE_EQ(vtt, n[0] * 2.05 * pj);
    EXPECT_DOUBLE_EQ(lm, n[1] * 0.32 * pj);
    EXPECT_DOUBLE_EQ(ctam, n[2] * 1.94 * pj);
    EXPECT_DOUBLE_EQ(hpc, (n[3] + n[4]) * 0.09 * pj);
    EXPECT_DOUBLE_EQ(rf, ((n[5] + backup) * 256 + (n[6] + restore) * 352) * pj);
    EXPECT_DOUBLE_EQ(stat(sim, "gpu.power.linebacker_energy"), vtt + lm + hpc + ctam + rf);
    EXPECT_EQ(stat(sim, "gpu_tot_sim_cycle"), stat(zero, "gpu_tot_sim_cycle")); // energies change no timing
    EXPECT_EQ(stat(zero, "gpu.power.linebacker.vtt_energy"), 0.0);
    EXPECT_NEAR(stat(sim, "gpu.power.l1d.dynamic_energy") - stat(zero, "gpu.power.l1d.dynamic_energy"), vtt + lm + hpc,
                1e-6 * (vtt + lm + hpc));
    EXPECT_NEAR(stat(sim, "gpu.power.sched.dynamic_energy") - stat(zero, "gpu.power.sched.dynamic_energy"), ctam, 1e-6 * ctam);
    std::printf("Linebacker energy: VTT %.3g J (%.0f accesses), LM %.3g J, HPC %.3g J, CTA manager %.3g J (%.0f updates), "
                "registers %.3g J; %.4f%% of the total %.3g J\n", vtt, n[0], lm, hpc, ctam, n[2], rf,
                100 * stat(sim, "gpu.power.linebacker_energy") / stat(sim, "gpu.power.total_energy"),
                stat(sim, "gpu.power.total_energy"));
    gtlm_sim_destroy(sim);
    gtlm_sim_destroy(zero);
}
