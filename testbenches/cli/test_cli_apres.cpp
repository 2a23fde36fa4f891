// APRES end to end: VectorAdd's loads have a constant inter-warp stride (warp w reads line
// base + w x 128), so every SAP prefetch (base + dwarp x stride) is a line a warp demands later;
// results verify and the statistics invariants hold with each scheduler + prefetcher pair.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.h"

namespace {

const std::string configs = std::string(GTLM_SOURCE_DIR) + "/configs/";

uint64_t stat(const std::string &out, const std::string &name)
{
    std::smatch m;
    std::string pat = name;
    for (char c : std::string("[].")) {
        std::string esc;
        for (char x : pat) esc += (x == c ? std::string("\\") + x : std::string(1, x));
        pat = esc;
    }
    if (!std::regex_search(out, m, std::regex("\n" + pat + " = ([0-9]+)"))) return UINT64_MAX;
    return std::stoull(m[1].str());
}

} // namespace

TEST(CliApres, SapPrefetchesExactlyTheStridedLines)
{
    Result r = run("run sdk/VectorAdd --size tiny --check-stats --per-unit --config " + configs +
                   "gtx480-apres.config -gpgpu_scheduler laws -gtlm_l1_prefetcher sap");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("VectorAdd: verified"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("invariants hold"), std::string::npos) << r.out;
    const std::string p = "gpu.sm[0].l1d.prefetch.";
    uint64_t issued = stat(r.out, p + "issued"), useful = stat(r.out, p + "useful"),
             merged = stat(r.out, p + "late_merged"), unused = stat(r.out, p + "evicted_unused");
    EXPECT_GT(stat(r.out, p + "sap_stride_matches"), 0u) << r.out;
    EXPECT_GT(issued, 0u) << r.out;
    EXPECT_EQ(issued, useful + merged) << r.out; // every predicted line was demanded
    EXPECT_EQ(unused, 0u) << r.out;
    EXPECT_EQ(stat(r.out, p + "sap_targets"), issued) << r.out;
}

TEST(CliApres, PrefetchersKeepResultsAndSapNeedsLaws)
{
    for (const char *o : {"-gpgpu_scheduler ccws -gtlm_l1_prefetcher str", "-gpgpu_scheduler gto -gtlm_l1_prefetcher sld",
                          "-gpgpu_scheduler laws -gtlm_l1_prefetcher sap"}) {
        Result r = run("run rodinia/KMeans --size tiny --check-stats --config " + configs + "gtx480-apres.config " + o);
        EXPECT_EQ(r.code, 0) << o << r.out;
        EXPECT_NE(r.out.find("KMeans: verified"), std::string::npos) << o << r.out;
        EXPECT_NE(r.out.find("invariants hold"), std::string::npos) << o << r.out;
    }
    Result r = run("run sdk/VectorAdd --size tiny --config " + configs + "gtx480-apres.config -gtlm_l1_prefetcher sap");
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.out.find("needs -gpgpu_scheduler laws"), std::string::npos) << r.out;
}

namespace {

// Sums a per-unit statistic over the units (gpu.sm[i].<leaf> or gpu.l2[j].<leaf>).
uint64_t sum_units(const std::string &out, const std::string &unit, const std::string &leaf)
{
    uint64_t sum = 0;
    for (int i = 0;; i++) {
        uint64_t v = stat(out, "gpu." + unit + "[" + std::to_string(i) + "]." + leaf);
        if (v == UINT64_MAX) return i ? sum : UINT64_MAX;
        sum += v;
    }
}

} // namespace

// Spec gap 14: queued prefetches (-gtlm_l1_prefetch_issue 1, the default) take the L1D tag port
// only in cycles no demand request took it, and a SAP target warp moves to LAWS' head when its
// prefetch goes. Issued at the trigger (0), each prefetch shares the demand's cycle and sits ahead
// of the demand's next requests in the MSHRs and the miss queue: on MUM (uncoalesced, MSHR-bound)
// that cost LAWS 7% of its time. KMeans' loads are uncoalesced: a trigger's burst meets the head
// warp's own remaining requests there.
TEST(CliApres, QueuedPrefetchesNeverTakeTheDemandsPort)
{
    for (const char *w : {"sdk/VectorAdd", "rodinia/KMeans"}) {
        const std::string base = std::string("run ") + w + " --size tiny --check-stats --per-unit --config " + configs +
                                 "gtx480-apres.config -gpgpu_scheduler laws -gtlm_l1_prefetcher sap ";
        Result q = run(base + "-gtlm_l1_prefetch_issue 1");
        Result b = run(base + "-gtlm_l1_prefetch_issue 0");
        ASSERT_EQ(q.code, 0) << q.out;
        ASSERT_EQ(b.code, 0) << b.out;
        EXPECT_NE(q.out.find(": verified"), std::string::npos) << q.out;
        EXPECT_NE(q.out.find("invariants hold"), std::string::npos) << q.out;
        uint64_t qi = sum_units(q.out, "sm", "l1d.prefetch.issued"), qr = sum_units(q.out, "sm", "l1d.prefetch.redundant");
        EXPECT_GT(qi, 0u) << w << q.out;
        EXPECT_EQ(sum_units(q.out, "sm", "l1d.prefetch.port_shared"), 0u) << w << q.out;
        // every target moved had its prefetch taken (issued or already present / pending)
        EXPECT_EQ(sum_units(q.out, "sm", "l1d.prefetch.sap_targets"), qi + qr) << w << q.out;
        // at the trigger every prefetch (issued, redundant or dropped) shares the demand's cycle
        uint64_t bi = sum_units(b.out, "sm", "l1d.prefetch.issued");
        EXPECT_GT(bi, 0u) << w << b.out;
        EXPECT_EQ(sum_units(b.out, "sm", "l1d.prefetch.port_shared"),
                  bi + sum_units(b.out, "sm", "l1d.prefetch.redundant") + sum_units(b.out, "sm", "l1d.prefetch.dropped"))
            << w << b.out;
        // -gtlm_sap_return_present 0: only the warps a prefetch went out for move to LAWS' head
        Result o = run(base + "-gtlm_sap_return_present 0");
        ASSERT_EQ(o.code, 0) << o.out;
        EXPECT_EQ(sum_units(o.out, "sm", "l1d.prefetch.sap_targets"), sum_units(o.out, "sm", "l1d.prefetch.issued"))
            << w << o.out;
    }
}

// Prefetches are marked below the L1: every prefetch the L1s sent reaches an L2 slice as a prefetch
// read (128 B each), and the L2's prefetch reads are part of its reads.
TEST(CliApres, PrefetchesAreMarkedThroughTheL2)
{
    Result r = run("run sdk/VectorAdd --size tiny --check-stats --per-unit --config " + configs +
                   "gtx480-apres.config -gpgpu_scheduler laws -gtlm_l1_prefetcher sap");
    ASSERT_EQ(r.code, 0) << r.out;
    uint64_t issued = sum_units(r.out, "sm", "l1d.prefetch.issued");
    ASSERT_GT(issued, 0u) << r.out;
    EXPECT_EQ(sum_units(r.out, "l2", "prefetch.reads"), issued) << r.out;
    EXPECT_EQ(sum_units(r.out, "l2", "prefetch.bytes"), issued * 128) << r.out;
    EXPECT_LE(sum_units(r.out, "l2", "prefetch.dram_reads"), sum_units(r.out, "l2", "prefetch.misses")) << r.out;
    EXPECT_LE(sum_units(r.out, "l2", "prefetch.reads"), sum_units(r.out, "l2", "reads")) << r.out;
    // without a prefetcher the L2 has no prefetch statistics at all
    Result b = run("run sdk/VectorAdd --size tiny --per-unit --config " + configs + "gtx480-apres.config");
    ASSERT_EQ(b.code, 0) << b.out;
    EXPECT_EQ(b.out.find("prefetch."), std::string::npos) << b.out;
}

// The issue's end-to-end check: MASCAR and PA-sched with each prefetcher keep results and the
// statistics' invariants (PA+SLD is the document's Fig. 3 combination).
TEST(CliApres, MascarAndPaSchedVerifyWithPrefetchers)
{
    for (const char *w : {"rodinia/KMeans", "sdk/VectorAdd", "rodinia/BFS"})
        for (const char *o : {"-gpgpu_scheduler pa -gtlm_l1_prefetcher sld", "-gpgpu_scheduler pa -gtlm_l1_prefetcher str",
                              "-gpgpu_scheduler mascar -gtlm_l1_prefetcher str", "-gpgpu_scheduler mascar -gtlm_l1_prefetcher sld",
                              "-gpgpu_scheduler mascar:0"}) {
            Result r = run(std::string("run ") + w + " --size tiny --check-stats --config " + configs + "gtx480-apres.config " + o);
            EXPECT_EQ(r.code, 0) << w << " " << o << r.out;
            EXPECT_NE(r.out.find(": verified"), std::string::npos) << w << " " << o << r.out;
            EXPECT_NE(r.out.find("invariants hold"), std::string::npos) << w << " " << o << r.out;
        }
}

// MASCAR on a memory-bound kernel: the L1 saturates, the scheduler enters memory-priority mode and
// the re-execution queue parks refused loads, every one of them re-executed by the end.
TEST(CliApres, MascarSaturatesAndReexecutes)
{
    Result r = run("run rodinia/KMeans --size tiny --check-stats --per-unit --config " + configs +
                   "gtx480-apres.config -gpgpu_scheduler mascar");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_GT(sum_units(r.out, "sm", "sched[0].mascar.to_mp"), 0u) << r.out;
    uint64_t parked = sum_units(r.out, "sm", "ldst.rexq_parked");
    EXPECT_GT(parked, 0u) << r.out;
    EXPECT_EQ(sum_units(r.out, "sm", "ldst.rexq_replayed"), parked) << r.out;
}

// -gtlm_apres_stats: the demand reads split into the document's four classes plus merges; a
// streaming kernel (each line read once) has cold misses and no capacity+conflict ones.
TEST(CliApres, LocalityStatisticsClassifyMisses)
{
    Result r = run("run sdk/VectorAdd --size tiny --check-stats --per-unit --config " + configs +
                   "gtx480-apres.config -gtlm_apres_stats 1");
    ASSERT_EQ(r.code, 0) << r.out;
    uint64_t cold = sum_units(r.out, "sm", "apres.cold_misses");
    EXPECT_GT(cold, 0u) << r.out;
    EXPECT_EQ(sum_units(r.out, "sm", "apres.capacity_conflict_misses"), 0u) << r.out;
    // every load misses once; the L1 counts the stores (write-around) as misses too
    EXPECT_EQ(cold, sum_units(r.out, "sm", "l1d.misses") - sum_units(r.out, "sm", "l1d.writes")) << r.out;
    EXPECT_EQ(sum_units(r.out, "sm", "apres.hit_after_hit") + sum_units(r.out, "sm", "apres.hit_after_miss"), 0u) << r.out;
    EXPECT_GT(sum_units(r.out, "sm", "apres.demand_latency_n"), 0u) << r.out;
    EXPECT_EQ(sum_units(r.out, "sm", "apres.demand_bytes"), 128 * sum_units(r.out, "sm", "apres.demand_latency_n")) << r.out;
    // counting changes no timing
    Result b = run("run sdk/VectorAdd --size tiny --per-unit --config " + configs + "gtx480-apres.config");
    ASSERT_EQ(b.code, 0) << b.out;
    EXPECT_EQ(stat(r.out, "gpu_tot_sim_cycle"), stat(b.out, "gpu_tot_sim_cycle"));
    EXPECT_NE(stat(r.out, "gpu_tot_sim_cycle"), UINT64_MAX);
}

// Table II: LLT 192 + WGT 18 + DRQ 256 + WQ 48 + PT 210 = 724 bytes per SM.
TEST(CliApres, HardwareCostIs724BytesPerSm)
{
    Result r = run("run sdk/VectorAdd --size tiny --per-unit --config " + configs +
                   "gtx480-apres.config -gpgpu_scheduler laws -gtlm_l1_prefetcher sap");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(stat(r.out, "gpu.sm[0].l1d.prefetch.apres_storage_bytes"), 724u) << r.out;
}

// gtlm profile --mode timing prints Table I's columns; KMeans has one static global load with every
// request (the document's KM: 100% of requests from one load), whose miss rate comes from the L1.
TEST(CliApres, ProfileTimingPrintsTableI)
{
    Result r = run("profile rodinia/KMeans --size tiny --mode timing --config " + configs + "gtx480-apres.config");
    ASSERT_EQ(r.code, 0) << r.out;
    for (const char *col : {"%Load", "#L/#R", "Miss rate", "Stride", "%Stride"})
        EXPECT_NE(r.out.find(col), std::string::npos) << col << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("ld\\.global[^\n]* 100\\.0% +[0-9.]+ +[0-9.]+% "))) << r.out;
    EXPECT_NE(r.out.find("1 global loads"), std::string::npos) << r.out;
    Result bad = run("profile rodinia/KMeans --size tiny --mode fast");
    EXPECT_EQ(bad.code, 2) << bad.out;
}

// The document's Table I is per most memory-intensive kernel: SRAD-v2 has two kernels, and the
// first table keeps only the one with the most line requests, its share printed in the heading.
TEST(CliApres, ProfileTimingTableIIsForTheMostMemoryIntensiveKernel)
{
    Result r = run("profile rodinia/SRAD-v2 --size tiny --mode timing --config " + configs + "gtx480-apres.config");
    ASSERT_EQ(r.code, 0) << r.out;
    std::smatch head;
    ASSERT_TRUE(std::regex_search(r.out, head, std::regex("Most memory-intensive kernel: (\\w+) \\(([0-9.]+)% "))) << r.out;
    std::vector<std::pair<unsigned long, unsigned long>> tables; // (loads, line requests)
    const std::regex sums("([0-9]+) global loads, ([0-9]+) line requests");
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), sums); it != std::sregex_iterator(); ++it)
        tables.emplace_back(std::stoul((*it)[1]), std::stoul((*it)[2]));
    ASSERT_EQ(tables.size(), 2u) << r.out;
    EXPECT_LT(tables[0].first, tables[1].first);   // a subset of the loads
    EXPECT_LT(tables[0].second, tables[1].second); // ... and of the requests
    EXPECT_GT(2 * tables[0].second, tables[1].second) << "not the kernel with the most requests";
    EXPECT_NEAR(std::stod(head[2]), 100.0 * tables[0].second / tables[1].second, 0.05);
}
