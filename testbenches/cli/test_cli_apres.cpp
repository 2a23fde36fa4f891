// APRES end to end: VectorAdd's loads have a constant inter-warp stride (warp w reads line
// base + w x 128), so every SAP prefetch (base + dwarp x stride) is a line a warp demands later;
// results verify and the statistics invariants hold with each scheduler + prefetcher pair.
#include <gtest/gtest.h>

#include <regex>
#include <string>

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
