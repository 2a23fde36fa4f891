// Occupancy: CTAs per SM from threads, registers, shared memory and CTA slots.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

extern "C" {
#include "sm/occupancy.h"
#include "sm/sm_config.h"
}

namespace {

// GTX480 (configs/gtx480.config): 1536 threads, warp 32, 8 CTA slots, 32768 registers, 48 KB.
occ_sm gtx480() { return occ_sm{1536, 32, 8, 32768, 63, 49152}; }

occ_result run(const occ_kernel &k, occ_alloc a = occ_alloc_default(), occ_sm sm = gtx480())
{
    occ_result r;
    EXPECT_EQ(occ_compute(&sm, &k, &a, &r), 0);
    return r;
}

} // namespace

TEST(Occupancy, Gtx480_256x20_ThreadsAndRegistersBothGiveSix)
{
    occ_result r = run({256, 20, 0, 0});
    EXPECT_EQ(r.by_threads, 6u);      // 1536 / 256
    EXPECT_EQ(r.by_regs, 6u);         // 32768 / (256 * 20) = 6.4
    EXPECT_EQ(r.by_ctas, 8u);
    EXPECT_EQ(r.by_shmem, UINT32_MAX); // no shared memory: no bound
    EXPECT_EQ(r.ctas, 6u);
    EXPECT_EQ(r.warps_per_cta, 8u);
    EXPECT_EQ(r.limits, (unsigned)(OCC_LIMIT_THREADS | OCC_LIMIT_REGS));
    EXPECT_EQ(r.limit, (unsigned)OCC_LIMIT_THREADS);
}

TEST(Occupancy, RegisterRules)
{
    // 21 registers: GPGPU-Sim rounds to 24 -> 32768 / 6144 = 5.33
    occ_result g = run({256, 21, 0, 0});
    EXPECT_EQ(g.ctas, 5u);
    EXPECT_EQ(g.limit, (unsigned)OCC_LIMIT_REGS);
    EXPECT_EQ(g.limits, (unsigned)OCC_LIMIT_REGS);
    occ_result r0;
    occ_sm sm = gtx480();
    occ_kernel k{256, 21, 0, 0};
    ASSERT_EQ(occ_compute(&sm, &k, nullptr, &r0), 0); // NULL = default rule
    EXPECT_EQ(r0.ctas, 5u);
    // exact: 32768 / 5376 = 6.09 -> 6, tied with threads
    occ_result e = run({256, 21, 0, 0}, {OCC_REGS_EXACT, 0, 0});
    EXPECT_EQ(e.by_regs, 6u);
    EXPECT_EQ(e.ctas, 6u);
    // Fermi per-warp, unit 64: 21*32 = 672 -> 704 per warp; 32768/704 = 46 warps; 46/8 = 5 CTAs
    occ_result f = run({256, 21, 0, 0}, {OCC_REGS_PER_WARP, 64, 0});
    EXPECT_EQ(f.by_regs, 5u);
    EXPECT_EQ(f.limit, (unsigned)OCC_LIMIT_REGS);
    // 17 registers: exact 32768/(256*17)=7.5 -> 7; GPGPU-Sim 20 -> 6; unit 64: 544->576, 56 warps -> 7;
    // unit 256: 544 -> 768, 42 warps -> 5
    EXPECT_EQ(run({256, 17, 0, 0}, {OCC_REGS_EXACT, 0, 0}).by_regs, 7u);
    EXPECT_EQ(run({256, 17, 0, 0}).by_regs, 6u);
    EXPECT_EQ(run({256, 17, 0, 0}, {OCC_REGS_PER_WARP, 64, 0}).by_regs, 7u);
    EXPECT_EQ(run({256, 17, 0, 0}, {OCC_REGS_PER_WARP, 256, 0}).by_regs, 5u);
    // per-warp counts whole warps: 96 threads (3 warps) x 32 regs, unit 256: 1024/warp, 32 warps -> 10
    EXPECT_EQ(run({96, 32, 0, 0}, {OCC_REGS_PER_WARP, 256, 0}).by_regs, 10u);
    EXPECT_EQ(run({96, 32, 0, 0}).by_regs, 10u); // 32768 / (96*32) = 10.67
}

TEST(Occupancy, EachLimitBindsInTurn)
{
    occ_result t = run({512, 8, 0, 0}); // threads 3, regs 8
    EXPECT_EQ(t.ctas, 3u);
    EXPECT_EQ(t.limits, (unsigned)OCC_LIMIT_THREADS);
    occ_result c = run({64, 16, 1024, 0}); // threads 24, regs 32, shmem 48
    EXPECT_EQ(c.ctas, 8u);
    EXPECT_EQ(c.limits, (unsigned)OCC_LIMIT_CTAS);
    occ_result r = run({128, 40, 0, 0}); // threads 12, regs 32768/5120 = 6
    EXPECT_EQ(r.ctas, 6u);
    EXPECT_EQ(r.limits, (unsigned)OCC_LIMIT_REGS);
    occ_result s = run({128, 16, 12000, 4000}); // shmem 49152/16000 = 3 (static + dynamic)
    EXPECT_EQ(s.by_shmem, 3u);
    EXPECT_EQ(s.ctas, 3u);
    EXPECT_EQ(s.limits, (unsigned)OCC_LIMIT_SHMEM);
    EXPECT_EQ(s.limit, (unsigned)OCC_LIMIT_SHMEM);
    // shared-memory allocation unit: 9000 B exact -> 5; in 4 KB units 12288 -> 4
    EXPECT_EQ(run({128, 16, 9000, 0}).by_shmem, 5u);
    EXPECT_EQ(run({128, 16, 9000, 0}, {OCC_REGS_GPGPUSIM, 0, 4096}).by_shmem, 4u);
    // all four tie at 4: 384 threads, regs 32768/(384*20)=4.27, shmem 12288, 4 slots
    occ_sm sm = gtx480();
    sm.max_ctas = 4;
    occ_result all = run({384, 20, 12288, 0}, occ_alloc_default(), sm);
    EXPECT_EQ(all.ctas, 4u);
    EXPECT_EQ(all.limits, 15u);
    EXPECT_EQ(all.limit, (unsigned)OCC_LIMIT_THREADS);
}

TEST(Occupancy, PartialWarpsArePadded)
{
    occ_sm sm = gtx480();
    sm.max_ctas = 64;
    occ_result a = run({32, 16, 0, 0}, occ_alloc_default(), sm);
    EXPECT_EQ(a.by_threads, 48u);
    EXPECT_EQ(a.ctas, 48u);
    occ_result b = run({33, 16, 0, 0}, occ_alloc_default(), sm); // 2 warps
    EXPECT_EQ(b.warps_per_cta, 2u);
    EXPECT_EQ(b.by_threads, 24u);
    EXPECT_EQ(b.by_regs, 32u); // 32768 / (64 * 16)
    EXPECT_EQ(b.ctas, 24u);
}

TEST(Occupancy, ZeroWhenOneCtaDoesNotFit)
{
    occ_result t = run({2048, 8, 0, 0});
    EXPECT_EQ(t.ctas, 0u);
    EXPECT_EQ(t.limit, (unsigned)OCC_LIMIT_THREADS);
    occ_result r = run({1024, 40, 0, 0}); // 40960 registers > 32768
    EXPECT_EQ(r.ctas, 0u);
    EXPECT_EQ(r.limits, (unsigned)OCC_LIMIT_REGS);
    occ_result s = run({64, 8, 40000, 10000});
    EXPECT_EQ(s.ctas, 0u);
    EXPECT_EQ(s.limits, (unsigned)OCC_LIMIT_SHMEM);
    occ_result m = run({64, 64, 0, 0}); // above the 63 registers a thread may use
    EXPECT_EQ(m.ctas, 0u);
    EXPECT_EQ(m.limits, (unsigned)OCC_LIMIT_REGS);
    occ_sm sm = gtx480();
    sm.max_regs_per_thread = 0; // no cap: 32768 / (64 * 64) = 8
    EXPECT_EQ(run({64, 64, 0, 0}, occ_alloc_default(), sm).ctas, 8u);
    sm.max_ctas = 0;
    EXPECT_EQ(run({64, 8, 0, 0}, occ_alloc_default(), sm).limits, (unsigned)OCC_LIMIT_CTAS);
}

TEST(Occupancy, InvalidInputs)
{
    occ_sm sm = gtx480();
    occ_result r;
    occ_kernel zero{0, 8, 0, 0}, k{64, 8, 0, 0};
    EXPECT_EQ(occ_compute(&sm, &zero, nullptr, &r), -1);
    occ_alloc bad_unit{OCC_REGS_PER_WARP, 0, 0}, bad_rule{7, 0, 0};
    EXPECT_EQ(occ_compute(&sm, &k, &bad_unit, &r), -1);
    EXPECT_EQ(occ_compute(&sm, &k, &bad_rule, &r), -1);
    EXPECT_EQ(r.ctas, 0u);
    sm.warp_size = 0;
    EXPECT_EQ(occ_compute(&sm, &k, nullptr, &r), -1);
}

TEST(Occupancy, FromConfig)
{
    sm_config c;
    std::memset(&c, 0, sizeof c);
    c.core_pipeline.first = 2048;
    c.core_pipeline.second = 32;
    c.registers = 65536;
    c.max_regs_per_thread = 255;
    c.max_ctas = 32;
    c.shmem_size = 98304;
    occ_sm sm;
    occ_sm_from_config(&c, &sm);
    EXPECT_EQ(sm.max_threads, 2048u);
    EXPECT_EQ(sm.warp_size, 32u);
    EXPECT_EQ(sm.registers, 65536u);
    EXPECT_EQ(sm.max_regs_per_thread, 255u);
    EXPECT_EQ(sm.max_ctas, 32u);
    EXPECT_EQ(sm.shmem_size, 98304u);
    EXPECT_EQ(run({256, 32, 0, 0}, occ_alloc_default(), sm).ctas, 8u); // 65536 / 8192, threads 8
}

// Reference: the largest n for which n CTAs fit every resource, by counting up.
TEST(Occupancy, RandomAgainstCountingReference)
{
    std::mt19937 gen(3);
    auto rng = [&]() { return (uint32_t)gen(); };
    for (int it = 0; it < 3000; it++) {
        occ_sm sm{32u * (1 + rng() % 64), 32, 1 + rng() % 32, 1024u * (1 + rng() % 64), 0, 1024u * (rng() % 100)};
        occ_kernel k{1 + rng() % 1024, rng() % 80, rng() % 20000, rng() % 3 ? 0 : rng() % 8000};
        int rule = rng() % 3;
        occ_alloc a{rule, rule == 2 ? (rng() % 2 ? 64u : 256u) : 0u, 0};
        occ_result r;
        ASSERT_EQ(occ_compute(&sm, &k, &a, &r), 0);
        uint64_t warps = (k.threads_per_cta + 31) / 32;
        uint64_t regs = rule == 0 ? (k.regs_per_thread + 3) / 4 * 4 : k.regs_per_thread;
        uint64_t warp_regs = (regs * 32 + (rule == 2 ? a.reg_unit - 1 : 0)) / (rule == 2 ? a.reg_unit : 1) *
                             (rule == 2 ? a.reg_unit : 1);
        uint64_t shm = (uint64_t)k.shmem_static + k.shmem_dynamic;
        auto fits = [&](uint64_t n) {
            if (n > sm.max_ctas || n * warps * 32 > sm.max_threads || n * shm > sm.shmem_size)
                return false;
            if (warp_regs == 0)
                return true;
            if (rule == 2)
                return n * warps <= sm.registers / warp_regs;
            return n * warps * warp_regs <= sm.registers;
        };
        uint32_t n = 0;
        while (fits(n + 1))
            n++;
        ASSERT_EQ(r.ctas, n) << "iteration " << it;
        ASSERT_NE(r.limits, 0u);
        ASSERT_EQ(r.limits & r.limit, r.limit);
    }
}
