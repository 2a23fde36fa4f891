// -gtlm_gmem_skip_l1d_stores (issue 13): with -gpgpu_gmem_skip_L1D 1 GPGPU-Sim 4.2 sends every
// global access past the L1D, stores too (ldst_unit::memory_cycle); gtlm bypassed only loads, so
// on the stock SM6_TITANX files (which set it) gtlm counted the public matrixmul trace's 128 store
// requests as L1D accesses where Accel-Sim counts 0. Hand-computed: n full-warp stores of one
// 128-byte line each are n L1D accesses when stores use the L1D, none when they bypass it.
#include <gtest/gtest.h>

#include "cli_chain_trace.h"
#include "cli_run.h"

#include <filesystem>
#include <string>
#include <unistd.h> // getpid: ctest runs a suite's tests as processes in parallel, each its own folder

namespace {

long long stat(const std::string &out, const std::string &name)
{
    size_t at = out.find("\n" + name + " = ");
    return at == std::string::npos ? -1 : std::stoll(out.substr(at + name.size() + 4));
}

long long l1d_accesses(const std::string &opts)
{
    const int n = 8;
    std::string dir = ::testing::TempDir() + "gtlm_cli_store_bypass_" + std::to_string(::getpid());
    chain_trace::write(dir, n, 0, [](int i) {
        char a[32];
        std::snprintf(a, sizeof a, "0x%llx", 0x1000000000ull + 128ull * (unsigned)i);
        return std::string("ffffffff 0 STG.E 2 R2 R3 4 1 ") + a + " 4 0";
    });
    Result r = run("run --trace " + dir + " --config " + GTLM_SOURCE_DIR +
                   "/configs/tiny.config -gpgpu_gmem_skip_L1D 1 --stats - --quiet " + opts);
    std::filesystem::remove_all(dir);
    EXPECT_EQ(r.code, 0) << r.out;
    return stat(r.out, "L1D_total_cache_accesses");
}

} // namespace

TEST(CliStoreBypass, SkipL1DSendsStoresPastTheL1UnderGpgpuSimRules)
{
    EXPECT_EQ(l1d_accesses(""), 8);                                  // gtlm's own: loads only bypass
    EXPECT_EQ(l1d_accesses("-gtlm_gmem_skip_l1d_stores 1"), 0);      // GPGPU-Sim's rule
    EXPECT_EQ(l1d_accesses("--gpgpusim-compat"), 0);                 // the default under compat
    EXPECT_EQ(l1d_accesses("--gpgpusim-compat -gtlm_gmem_skip_l1d_stores 0"), 8);
}
