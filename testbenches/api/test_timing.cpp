// The timing model through the public C API on small hand-written PTX kernels, with expectations
// computed by hand from the configured latencies: a lone miss, a hit, an MSHR merge, shared-memory
// bank conflicts, scheduler issue order (LRR, GTO, warp limiting), occupancy from a ptxas report,
// a protocol-checked burst, and determinism. Clocks are set equal (1000 MHz everywhere) so that
// every cycle count is exact arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "gtlm/gtlm.h"
#include "timing_fixture.h"

namespace {

// One load that misses in L1, L2 and DRAM costs exactly the sum of its stages (lone_miss_latency);
// the same load again hits in L1 and costs the tag stage plus the L1 latency.
// A field of the -gpgpu_dram_timing_opt string ("nbk=16:CCD=2:...").
uint64_t dram_param(Sim &s, const std::string &key)
{
    char buf[256];
    EXPECT_EQ(gtlm_option_value(s.sim, "-gpgpu_dram_timing_opt", buf, sizeof buf), GTLM_OK);
    std::string v = buf;
    size_t at = v.find(key + "=");
    EXPECT_NE(at, std::string::npos) << key;
    return at == std::string::npos ? 0 : std::stoull(v.substr(at + key.size() + 1));
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Issue-to-data latency of a load that misses in L1, L2 and DRAM (a closed bank) with every clock
// equal. Each "1 +" is a block seeing an input at the first clock edge after it arrived.
uint64_t lone_miss_latency(Sim &s)
{
    const uint64_t line = 128, header = 8;
    uint64_t flit = static_cast<uint64_t>(s.opt("-icnt_flit_size")), icnt = static_cast<uint64_t>(s.opt("-icnt_latency"));
    uint64_t burst_bytes = static_cast<uint64_t>(s.opt("-gpgpu_dram_buswidth") * s.opt("-gpgpu_n_mem_per_ctrlr") *
                                                 s.opt("-gpgpu_dram_burst_length"));
    uint64_t bursts = ceil_div(line, burst_bytes);
    uint64_t burst_cycles = static_cast<uint64_t>(s.opt("-gpgpu_dram_burst_length") / s.opt("-dram_data_command_freq_ratio"));
    uint64_t ccd = std::max(dram_param(s, "CCD"), dram_param(s, "CCDL")); // same bank group
    uint64_t sm_tag = 1;                                                // L1 tag stage after issue
    uint64_t req_net = 1 + ceil_div(header, flit) + icnt;               // read request: one header flit
    uint64_t l2 = 1 + static_cast<uint64_t>(s.opt("-rop_latency")) + 1; // ROP queue, tag, into the DRAM queue
    uint64_t dram = 1 + static_cast<uint64_t>(s.opt("-dram_latency")) + dram_param(s, "RCD") + (bursts - 1) * ccd +
                    dram_param(s, "CL") + burst_cycles;                 // ACT, RD per burst, data
    uint64_t fill = 1 + ceil_div(line, 32);                             // L2 fill, 32-byte data port
    uint64_t rsp_net = 1 + ceil_div(line + header, flit) + icnt;        // the line back
    uint64_t sm_fill = 1 + static_cast<uint64_t>(s.opt("-gpgpu_l1_latency"));
    return sm_tag + req_net + l2 + dram + fill + rsp_net + sm_fill;
}

TEST(TimingTest, LoneMissCostsItsLatencyChainAndARepeatHits)
{
    uint64_t miss_latency = 0;
    {
        Sim s;
        gtlm_devptr in = s.alloc(256, 7);
        unsigned twice = 0;
        ASSERT_EQ(s.launch("loads", 1, 1, {&in, &twice}, {8, 4}), GTLM_OK) << gtlm_last_error();
        EXPECT_EQ(s.stat("gpu.sm[0].load_latency_n"), 1);
        EXPECT_EQ(s.stat("gpu.sm[0].l1d.misses"), 1);
        EXPECT_EQ(s.stat("gpu.l2.misses"), 1);
        EXPECT_EQ(s.sum("gpu.dram[*].reads", 2), 1);
        EXPECT_EQ(s.sum("gpu.dram[*].row_misses", 2), 1);
        miss_latency = static_cast<uint64_t>(s.stat("gpu.sm[0].load_latency_sum"));
        EXPECT_EQ(miss_latency, lone_miss_latency(s));
    }
    {
        Sim s;
        gtlm_devptr in = s.alloc(256, 7);
        unsigned twice = 1;
        ASSERT_EQ(s.launch("loads", 1, 1, {&in, &twice}, {8, 4}), GTLM_OK) << gtlm_last_error();
        EXPECT_EQ(s.stat("gpu.sm[0].load_latency_n"), 2);
        EXPECT_EQ(s.stat("gpu.sm[0].l1d.hits"), 1);
        EXPECT_EQ(s.stat("gpu.sm[0].l1d.misses"), 1);
        // The per-load-PC record: the first load missed, the second hit.
        ASSERT_EQ(gtlm_load_pc_count(s.sim), 2u);
        gtlm_load_pc_stat a{}, b{};
        ASSERT_EQ(gtlm_load_pc_get(s.sim, 0, &a), GTLM_OK);
        ASSERT_EQ(gtlm_load_pc_get(s.sim, 1, &b), GTLM_OK);
        EXPECT_STREQ(a.kernel, "loads");
        EXPECT_LT(a.pc, b.pc);
        EXPECT_EQ(a.misses, 1u);
        EXPECT_EQ(a.hits, 0u);
        EXPECT_EQ(b.hits, 1u);
        EXPECT_EQ(b.misses, 0u);
        EXPECT_EQ(gtlm_load_pc_get(s.sim, 2, &a), GTLM_ENOTFOUND);
        // The hit: tag stage the cycle after issue, then the L1 hit latency.
        uint64_t hit = static_cast<uint64_t>(s.stat("gpu.sm[0].load_latency_sum")) - miss_latency;
        EXPECT_EQ(hit, 1u + static_cast<uint64_t>(s.opt("-gpgpu_l1_latency")));
    }
}

TEST(TimingTest, TwoWarpsOnOneLineMergeInTheMshr)
{
    Sim s;
    gtlm_devptr in = s.alloc(256, 3);
    ASSERT_EQ(s.launch("same_line", 1, 64, {&in}, {8}), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.misses"), 1);
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.hit_reserved"), 1);
    EXPECT_EQ(s.stat("gpu.l2.accesses"), 1);
    EXPECT_EQ(s.sum("gpu.dram[*].reads", 2), 1);
    EXPECT_EQ(s.stat("gpu.sm[0].load_latency_n"), 2);
}

// GPGPU-Sim's statistic definitions (docs/gpgpusim-statistics.md): with an MSHR merge limit of 1,
// the second warp's load to the line the first warp missed on is refused (MSHR_MERGE) on every
// attempt until the fill arrives, then hits. Those refusals are reservation failures, printed apart
// (L1D_total_cache_reservation_fails); L1D_total_cache_accesses counts only the miss and the hit.
// Count by hand: warp 0 misses at its tag stage t; warp 1's request reaches the tag stage at t + 1
// and retries each cycle; the fill is applied at t + (miss latency - 1 - L1 latency) and, being
// applied before that cycle's tag stage, lets the retry hit. Failures: miss latency - L1 latency - 2.
TEST(TimingTest, ReservationFailuresAreCountedApartFromAccesses)
{
    Sim s({"-gpgpu_cache:dl1", "N:8:128:4,L:L:m:N:L,A:8:1,4"});
    gtlm_devptr in = s.alloc(256, 3);
    ASSERT_EQ(s.launch("same_line", 1, 64, {&in}, {8}), GTLM_OK) << gtlm_last_error();
    uint64_t expected_fails = lone_miss_latency(s) - static_cast<uint64_t>(s.opt("-gpgpu_l1_latency")) - 2;
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.misses"), 1);
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.hits"), 1);
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.res_fail_mshr_merge"), static_cast<double>(expected_fails));
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.accesses"), 2.0 + static_cast<double>(expected_fails)) << "tag lookups";
    EXPECT_EQ(s.stat("gpu.l1d.accepted"), 2);
    EXPECT_EQ(s.stat("gpu.l1d.reservation_fails"), static_cast<double>(expected_fails));
    EXPECT_EQ(s.stat("gpu.l1d.miss_rate"), 0.5);
    // The GPGPU-Sim names (run scope) carry the same values.
    double v = -1;
    ASSERT_EQ(gtlm_stat_get(s.sim, "L1D_total_cache_accesses", &v), GTLM_OK);
    EXPECT_EQ(v, 2);
    ASSERT_EQ(gtlm_stat_get(s.sim, "L1D_total_cache_reservation_fails", &v), GTLM_OK);
    EXPECT_EQ(v, static_cast<double>(expected_fails));
    ASSERT_EQ(gtlm_stat_get(s.sim, "L1D_total_cache_misses", &v), GTLM_OK);
    EXPECT_EQ(v, 1);
    ASSERT_EQ(gtlm_stat_get(s.sim, "L2_total_cache_accesses", &v), GTLM_OK);
    EXPECT_EQ(v, 1) << "one L2 read";
    ASSERT_EQ(gtlm_stat_get(s.sim, "L2_total_cache_reservation_fails", &v), GTLM_OK);
    EXPECT_EQ(v, 0);
    // DRAM reads as GPGPU-Sim counts them: RD commands, one per burst of the (non-sectored) line.
    uint64_t burst_bytes = static_cast<uint64_t>(s.opt("-gpgpu_dram_buswidth") * s.opt("-gpgpu_n_mem_per_ctrlr") *
                                                 s.opt("-gpgpu_dram_burst_length"));
    EXPECT_EQ(s.stat("gpu.dram.reads"), 1) << "one request";
    ASSERT_EQ(gtlm_stat_get(s.sim, "gpgpu_n_dram_reads", &v), GTLM_OK);
    EXPECT_EQ(v, static_cast<double>(ceil_div(128, burst_bytes)));
}

// GPGPU-Sim's count of stores under lazy fetch-on-read write allocation (QV100's L1D and L2,
// docs/gpgpusim-statistics.md): a store to a sector not yet valid in an allocated line is a
// SECTOR_MISS. store_sectors: one load miss (line A), then five stores, each one sector: A.1 (sector
// miss), A.1 (hit), A.2 (sector miss), B.0 (miss: allocates B), B.1 (sector miss). In both caches:
// 6 accesses, 5 misses, 3 of them sector misses, 1 hit. The stores' timing is a hit's as before.
TEST(TimingTest, StoresToUnwrittenSectorsOfAllocatedLinesAreSectorMisses)
{
    Sim s({"-gpgpu_cache:dl1", "S:8:128:4,L:T:m:L:L,A:8:4,4", "-gpgpu_cache:dl2", "S:8:128:4,L:B:m:L:L,A:8:4,4:0,32"});
    gtlm_devptr p = s.alloc(512, 0);
    ASSERT_EQ(p % 128, 0u) << "lines A and B";
    ASSERT_EQ(s.launch("store_sectors", 1, 32, {&p}, {8}), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.accesses"), 6);
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.hits"), 1);
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.served_hits"), 4) << "the four stores to line A's and B's present tag";
    EXPECT_EQ(s.stat("gpu.sm[0].l1d.sector_misses"), 3);
    EXPECT_EQ(s.stat("gpu.l2.accepted"), 6) << "one read, five write-through stores";
    EXPECT_EQ(s.stat("gpu.l2.misses"), 5);
    double v = -1;
    ASSERT_EQ(gtlm_stat_get(s.sim, "L1D_total_cache_accesses", &v), GTLM_OK);
    EXPECT_EQ(v, 6);
    ASSERT_EQ(gtlm_stat_get(s.sim, "L1D_total_cache_misses", &v), GTLM_OK);
    EXPECT_EQ(v, 5) << "the load, the three sector misses, B's allocating store";
    ASSERT_EQ(gtlm_stat_get(s.sim, "L1D_total_cache_pending_hits", &v), GTLM_OK);
    EXPECT_EQ(v, 0);
    ASSERT_EQ(gtlm_stat_get(s.sim, "L2_total_cache_accesses", &v), GTLM_OK);
    EXPECT_EQ(v, 6);
    ASSERT_EQ(gtlm_stat_get(s.sim, "L2_total_cache_misses", &v), GTLM_OK);
    EXPECT_EQ(v, 5);
    ASSERT_EQ(gtlm_stat_get(s.sim, "L2_total_cache_miss_rate", &v), GTLM_OK);
    EXPECT_DOUBLE_EQ(v, 5.0 / 6.0);
}

uint64_t smem_cycles(unsigned stride, double *passes)
{
    Sim s;
    gtlm_devptr out = s.alloc(32 * 4);
    EXPECT_EQ(s.launch("smem_stride", 1, 32, {&out, &stride}, {8, 4}), GTLM_OK) << gtlm_last_error();
    *passes = s.stat("gpu.sm[0].shmem.passes");
    std::vector<uint32_t> host(32);
    EXPECT_EQ(gtlm_memcpy_dtoh(s.sim, host.data(), out, 32 * 4), GTLM_OK);
    for (uint32_t t = 0; t < 32; t++) EXPECT_EQ(host[t], t);
    return static_cast<uint64_t>(s.stat("gpu_sim_cycle"));
}

TEST(TimingTest, SharedMemoryBankConflictsSerialise)
{
    double p1 = 0, p2 = 0, p32 = 0;
    uint64_t c1 = smem_cycles(1, &p1), c2 = smem_cycles(2, &p2), c32 = smem_cycles(32, &p32);
    // One store and one load, each with `degree` passes.
    EXPECT_EQ(p1, 2);
    EXPECT_EQ(p2, 4);
    EXPECT_EQ(p32, 64);
    // Each extra pass holds the LD/ST unit (and the dependent load) one more cycle.
    EXPECT_EQ(c2 - c1, 2u * (2 - 1));
    EXPECT_EQ(c32 - c1, 2u * (32 - 1));
}

std::vector<uint64_t> clocks(const std::vector<std::string> &ov, bool with_load = false)
{
    Sim s(ov);
    gtlm_devptr out = s.alloc(4 * 16), in = s.alloc(256, 1);
    if (with_load)
        EXPECT_EQ(s.launch("clock_load", 1, 128, {&out, &in}, {8, 8}), GTLM_OK) << gtlm_last_error();
    else
        EXPECT_EQ(s.launch("clock_order", 1, 128, {&out}, {8}), GTLM_OK) << gtlm_last_error();
    std::vector<uint64_t> t(8);
    EXPECT_EQ(gtlm_memcpy_dtoh(s.sim, t.data(), out, 64), GTLM_OK);
    return t;
}

TEST(TimingTest, SchedulerPoliciesGiveTheirIssueOrder)
{
    // Four warps on one scheduler; each issues 10 independent instructions between its clock reads.
    std::vector<std::string> one = {"-gpgpu_num_sched_per_core", "1"};
    auto lrr = clocks({one[0], one[1], "-gpgpu_scheduler", "lrr"});
    auto gto = clocks({one[0], one[1], "-gpgpu_scheduler", "gto"});
    auto swl = clocks({one[0], one[1], "-gpgpu_scheduler", "warp_limiting:2:1"});
    for (int w = 0; w < 4; w++) {
        // LRR interleaves: warp w's block takes 4 issue cycles per instruction.
        EXPECT_EQ(lrr[2 * w + 1] - lrr[2 * w], 9u * 4) << "warp " << w;
        // GTO keeps the oldest warp until it stalls: one instruction per cycle.
        EXPECT_EQ(gto[2 * w + 1] - gto[2 * w], 9u) << "warp " << w;
    }
    EXPECT_EQ(lrr[2] - lrr[0], 1u); // warp 1 reads the clock one cycle after warp 0
    EXPECT_GT(gto[2], gto[1]);      // warp 1 starts after warp 0's block
    for (int w = 1; w < 4; w++) EXPECT_GT(swl[2 * w], swl[2 * w - 1]); // one active warp at a time
}

TEST(TimingTest, WarpLimitingHoldsBackWarpsThatGtoWouldIssue)
{
    // Each warp stalls on a load between its clock reads. GTO issues the next warp meanwhile, so
    // warp 1 starts before warp 0 ends; warp_limiting:1 keeps only the oldest live warp, so each
    // warp starts after the one before it ended (this part fails under plain GTO).
    std::vector<std::string> one = {"-gpgpu_num_sched_per_core", "1"};
    auto gto = clocks({one[0], one[1], "-gpgpu_scheduler", "gto"}, true);
    auto swl = clocks({one[0], one[1], "-gpgpu_scheduler", "warp_limiting:1"}, true);
    EXPECT_LT(gto[2], gto[1]);
    for (int w = 1; w < 4; w++) EXPECT_GT(swl[2 * w], swl[2 * w - 1]) << "warp " << w;
}

TEST(TimingTest, OccupancyComesFromThePtxasReport)
{
    Sim s;
    const char *report = "ptxas info    : Compiling entry function 'burst' for 'sm_75'\n"
                         "ptxas info    : Function properties for burst\n"
                         "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                         "ptxas info    : Used 63 registers, 372 bytes cmem[0]\n";
    ASSERT_EQ(gtlm_module_set_ptxas_info(s.sim, s.mod, report), GTLM_OK) << gtlm_last_error();
    unsigned n = 64;
    gtlm_devptr out = s.alloc(n * 4), seen = s.alloc(16 * 256 * 4);
    ASSERT_EQ(s.launch("burst", 16, 256, {&out, &seen, &n}, {8, 8, 4}), GTLM_OK) << gtlm_last_error();
    // 32768 registers / (256 threads x 64 (63 rounded up to 4)) = 2 CTAs per SM.
    EXPECT_EQ(s.stat("gpu.ctas_per_sm"), 2);
}

TEST(TimingTest, BurstThroughProtocolCheckersLosesNothing)
{
    Sim s({"-gtlm_check_protocol", "1", "-icnt_in_buffer_limit", "5", "-icnt_out_buffer_limit", "5",
           "-gpgpu_frfcfs_dram_sched_queue_size", "2", "-gpgpu_dram_return_queue_size", "2"});
    unsigned n = 61, ctas = 24, threads = 256;
    gtlm_devptr out = s.alloc(n * 4), seen = s.alloc(ctas * threads * 4);
    ASSERT_EQ(s.launch("burst", ctas, threads, {&out, &seen, &n}, {8, 8, 4}), GTLM_OK) << gtlm_last_error();
    std::vector<uint32_t> counts(n), ids(ctas * threads);
    ASSERT_EQ(gtlm_memcpy_dtoh(s.sim, counts.data(), out, n * 4), GTLM_OK);
    ASSERT_EQ(gtlm_memcpy_dtoh(s.sim, ids.data(), seen, ids.size() * 4), GTLM_OK);
    std::vector<uint32_t> expect(n);
    for (uint32_t t = 0; t < ctas * threads; t++) expect[(t * 97u) % n]++;
    EXPECT_EQ(counts, expect);
    for (uint32_t t = 0; t < ids.size(); t++) ASSERT_EQ(ids[t], t);
    EXPECT_EQ(s.stat("gpu.sm[0].requests_out"), s.stat("gpu.sm[0].responses_in"));
    // The checkers were on the links: every request crossed two (SM to crossbar, crossbar to L2).
    double checked = 0, requests = s.sum("gpu.sm[*].requests_out", 2);
    ASSERT_EQ(gtlm_stat_get(s.sim, "gpu.check.transactions", &checked), GTLM_OK);
    EXPECT_GE(checked, 2 * requests);
    Sim plain; // without -gtlm_check_protocol there are no checkers and no such statistic
    EXPECT_NE(gtlm_stat_get(plain.sim, "gpu.check.transactions", &checked), GTLM_OK);
}

// -gpgpu_max_insn and -gpgpu_max_cycle stop a timing run that would otherwise finish, with an
// error naming the limit (a spinning kernel would be stopped by the watchdog anyway, so only a
// finite kernel shows that the limit itself acts).
TEST(TimingTest, InstructionAndCycleLimitsStopAFiniteKernel)
{
    for (const char *limit : {"-gpgpu_max_insn", "-gpgpu_max_cycle"}) {
        Sim s({limit, "40"});
        unsigned n = 61;
        gtlm_devptr out = s.alloc(n * 4), seen = s.alloc(8 * 128 * 4);
        EXPECT_NE(s.launch("burst", 8, 128, {&out, &seen, &n}, {8, 8, 4}), GTLM_OK) << limit;
        EXPECT_NE(std::string(gtlm_last_error()).find(std::string("stopped at ") + limit + " 40"), std::string::npos)
            << gtlm_last_error();
    }
    Sim s; // without a limit the same kernel finishes
    unsigned n = 61;
    gtlm_devptr out = s.alloc(n * 4), seen = s.alloc(8 * 128 * 4);
    EXPECT_EQ(s.launch("burst", 8, 128, {&out, &seen, &n}, {8, 8, 4}), GTLM_OK) << gtlm_last_error();
    EXPECT_GT(s.stat("gpu.warp_insn"), 40);
    EXPECT_GT(s.stat("gpu_sim_cycle"), 40);
}

std::string stats_text(const std::vector<std::string> &ov)
{
    Sim s(ov);
    unsigned n = 61;
    gtlm_devptr out = s.alloc(n * 4), seen = s.alloc(8 * 128 * 4), in = s.alloc(256, 1);
    EXPECT_EQ(s.launch("burst", 8, 128, {&out, &seen, &n}, {8, 8, 4}), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(s.launch("same_line", 2, 96, {&in}, {8}), GTLM_OK) << gtlm_last_error();
    return stats_text_of(s);
}

TEST(TimingTest, SameInputsGiveIdenticalStatistics)
{
    std::string a = stats_text({}), b = stats_text({});
    EXPECT_GT(a.size(), 1000u);
    EXPECT_EQ(a, b);
}

} // namespace

namespace {

// Time series: the per-interval rows of each kernel sum to its totals, the rows' cycles grow, and
// switching the series on changes no statistic.
TEST(TimingTest, TimeSeriesRowsSumToTheKernelTotals)
{
    char path[] = "/tmp/gtlm_ts_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    std::string with_series, without;
    for (int on = 0; on < 2; on++) {
        std::vector<std::string> ov;
        if (on) ov = {"-stats_interval", "300", "-stats_timeseries_file", path};
        Sim s(ov);
        unsigned n = 61;
        gtlm_devptr out = s.alloc(n * 4), seen = s.alloc(8 * 128 * 4), in = s.alloc(256, 1);
        ASSERT_EQ(s.launch("burst", 8, 128, {&out, &seen, &n}, {8, 8, 4}), GTLM_OK) << gtlm_last_error();
        double k0 = s.stat("gpu.warp_insn");
        ASSERT_EQ(s.launch("same_line", 2, 96, {&in}, {8}), GTLM_OK) << gtlm_last_error();
        double k1 = s.stat("gpu.warp_insn");
        double total = 0;
        ASSERT_EQ(gtlm_stat_get(s.sim, "gpu.warp_insn", &total), GTLM_OK);
        EXPECT_EQ(total, k0 + k1);
        (on ? with_series : without) = stats_text_of(s);
        if (!on) continue;
        std::ifstream f(path);
        std::string header, line;
        ASSERT_TRUE(std::getline(f, header));
        EXPECT_EQ(header.rfind("cycle,unit,kernel,warp_insn,ipc,", 0), 0u) << header;
        double sum[2] = {0, 0};
        unsigned long long last_cycle = 0;
        int gpu_rows = 0;
        while (std::getline(f, line)) {
            std::stringstream ss(line);
            std::string cyc, unit, kernel, insn;
            std::getline(ss, cyc, ',');
            std::getline(ss, unit, ',');
            std::getline(ss, kernel, ',');
            std::getline(ss, insn, ',');
            if (unit != "gpu") continue;
            unsigned long long c = std::stoull(cyc);
            EXPECT_GT(c, last_cycle);
            last_cycle = c;
            sum[std::stoi(kernel)] += std::stod(insn);
            gpu_rows++;
        }
        EXPECT_EQ(sum[0], k0);
        EXPECT_EQ(sum[1], k1);
        EXPECT_GT(gpu_rows, 2); // the burst kernel spans several 300-cycle intervals
    }
    std::remove(path);
    EXPECT_EQ(with_series, without);
}

} // namespace

namespace {

// Retry sleep (-gtlm_retry_sleep, on by default): an SM whose LD/ST unit only retries a read the
// L1 refused, with no warp able to issue, skips its edges and counts them at its next tick. Every
// statistic must equal ticking every edge, on a kernel that refuses thousands of reads (each lane
// of "strided" misses its own line; tiny.config's L1 has 8 MSHRs).
TEST(TimingTest, RetrySleepChangesNoStatistic)
{
    std::string text[2];
    double refused[2] = {0, 0};
    for (int on = 0; on < 2; on++) {
        Sim s({"-gtlm_retry_sleep", on ? "1" : "0"});
        gtlm_devptr in = s.alloc(8 * 128 * 32 * 4, 1), out = s.alloc(32 * 4);
        ASSERT_EQ(s.launch("strided", 8, 128, {&in, &out}, {8, 8}), GTLM_OK) << gtlm_last_error();
        refused[on] = s.stat("gpu.l1d.res_fail_mshr_entry");
        text[on] = stats_text_of(s);
    }
    EXPECT_GT(refused[0], 1000.0);
    EXPECT_EQ(refused[0], refused[1]);
    EXPECT_EQ(text[0], text[1]);
}

} // namespace
