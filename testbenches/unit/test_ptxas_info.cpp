// Reading `ptxas -v` reports: registers, barriers, shared memory and stack per function.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

extern "C" {
#include "ptx/ptxas_info.h"
}

namespace {

const char *report = "ptxas info    : 36 bytes gmem, 272 bytes cmem[3]\n"
                     "ptxas info    : Compiling entry function 'mm' for 'sm_75'\n"
                     "ptxas info    : Function properties for mm\n"
                     "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                     "ptxas info    : Used 64 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]\n"
                     "ptxas info    : Function properties for helper\n"
                     "    640 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
                     "ptxas info    : Compiling entry function 'k2' for 'sm_75'\n"
                     "ptxas info    : Function properties for k2\n"
                     "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                     "ptxas info    : Used 10 registers, used 0 barriers, 372 bytes cmem[0]\n";

TEST(PtxasInfo, ReadsEveryFunction)
{
    ptxas_func *f = nullptr;
    size_t n = 0;
    char err[128] = "";
    ASSERT_EQ(ptxas_info_parse(report, &f, &n, err, sizeof err), 0) << err;
    ASSERT_EQ(n, 3u);
    EXPECT_STREQ(f[0].name, "mm");
    EXPECT_EQ(f[0].is_entry, 1);
    EXPECT_EQ(f[0].registers, 64u);
    EXPECT_EQ(f[0].barriers, 1u);
    EXPECT_EQ(f[0].shared_bytes, 2048u);
    EXPECT_EQ(f[0].const0_bytes, 380u);
    EXPECT_STREQ(f[1].name, "helper");
    EXPECT_EQ(f[1].is_entry, 0);
    EXPECT_EQ(f[1].stack_bytes, 640u);
    EXPECT_EQ(f[1].spill_store_bytes, 8u);
    EXPECT_EQ(f[1].spill_load_bytes, 12u);
    EXPECT_STREQ(f[2].name, "k2");
    EXPECT_EQ(f[2].registers, 10u);
    EXPECT_EQ(f[2].shared_bytes, 0u);
    EXPECT_EQ(f[2].stack_bytes, 16u);
    free(f);
}

TEST(PtxasInfo, MalformedNameIsReportedWithItsLine)
{
    ptxas_func *f = nullptr;
    size_t n = 0;
    char err[128] = "";
    EXPECT_NE(ptxas_info_parse("ptxas info : 0 bytes gmem\nptxas info : Compiling entry function mm for 'sm_75\n", &f, &n,
                               err, sizeof err),
              0);
    EXPECT_STREQ(err, "line 2: expected a quoted function name");
}

} // namespace
