// The load-time rewrite of Algorithm 2's brx.idx switches into mov.indirect (ext_llc's
// indirect_mov 2, workloads/morpheus/common/imov_rewrite.h): on the committed ext_llc PTX both sites
// and nothing else, exactly, and on hand-written switches the read and the guarded write form; a
// brx.idx whose cases are not single moves stays.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

extern "C" {
#include "../../workloads/morpheus/common/imov_rewrite.h"
extern const char workload_morpheus_ext_llc_ptx[];
}

namespace {

std::string rewrite(const std::string &in, int *sites)
{
    char *out = imov_rewrite(in.c_str(), sites);
    EXPECT_NE(out, nullptr);
    std::string s = out ? out : "";
    free(out);
    return s;
}

size_t count(const std::string &s, const std::string &what)
{
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) n++;
    return n;
}

} // namespace

TEST(ExtLlcImovRewrite, CommittedKernelHasItsTwoSitesRewritten)
{
    std::string in = workload_morpheus_ext_llc_ptx;
    int sites = 0;
    std::string out = rewrite(in, &sites);
    EXPECT_EQ(sites, 2);
    EXPECT_EQ(count(out, "brx.idx"), 0u);
    EXPECT_EQ(count(out, ".branchtargets"), 0u);
    EXPECT_EQ(count(out, "$ELLC_"), 0u);
    std::string d;
    for (int r = 479; r >= 448; r--) d += std::string(r < 479 ? ", " : "") + "%r" + std::to_string(r);
    EXPECT_EQ(count(out, "\tmov.indirect.b32 %r444, {" + d + "}[%r442];\n"), 1u) << out;
    EXPECT_EQ(count(out, "\t@ep mov.indirect.b32 {" + d + "}[%r442], %r443;\n"), 1u) << out;
    // 32 cases (a mov, a branch) + list, brx.idx and join: 35 lines each, one line back
    EXPECT_EQ(count(in, "\n") - count(out, "\n"), 2u * 34u);
    int again = -1;
    EXPECT_EQ(rewrite(out, &again), out); // nothing left to rewrite
    EXPECT_EQ(again, 0);
}

TEST(ExtLlcImovRewrite, ReadAndGuardedWriteSwitches)
{
    int sites = 0;
    EXPECT_EQ(rewrite("  $T: .branchtargets $A, $B;\n"
                      "  brx.idx %r9, $T;\n"
                      "$A: mov.u32 %r1, %r5; bra.uni $J;\n"
                      "$B: mov.u32 %r1, %r6; bra.uni $J;\n"
                      "$J:\n"
                      "ret;\n",
                      &sites),
              "\tmov.indirect.u32 %r1, {%r5, %r6}[%r9];\nret;\n");
    EXPECT_EQ(sites, 1);
    EXPECT_EQ(rewrite("$W: .branchtargets $A, $B, $C;\n"
                      "brx.idx %r2, $W;\n"
                      "$A: @!%p1 mov.b32 %r5, %r3; bra.uni $J;\n"
                      "$B: @!%p1 mov.b32 %r6, %r3; bra.uni $J;\n"
                      "$C: @!%p1 mov.b32 %r7, %r3;\n"
                      "$J:\n",
                      &sites),
              "\t@!%p1 mov.indirect.b32 {%r5, %r6, %r7}[%r2], %r3;\n");
    EXPECT_EQ(sites, 1);
}

TEST(ExtLlcImovRewrite, OtherSwitchesStay)
{
    const std::string kept[] = {
        // a case that is not one move
        "$T: .branchtargets $A, $B;\nbrx.idx %r2, $T;\n$A: add.u32 %r1, %r5, 1; bra.uni $J;\n"
        "$B: mov.u32 %r1, %r6; bra.uni $J;\n$J:\n",
        // cases in another order than the list
        "$T: .branchtargets $A, $B;\nbrx.idx %r2, $T;\n$B: mov.u32 %r1, %r6; bra.uni $J;\n"
        "$A: mov.u32 %r1, %r5; bra.uni $J;\n$J:\n",
        // neither the destination nor the source is common
        "$T: .branchtargets $A, $B;\nbrx.idx %r2, $T;\n$A: mov.u32 %r1, %r5; bra.uni $J;\n"
        "$B: mov.u32 %r2, %r6; bra.uni $J;\n$J:\n",
        // a guarded brx.idx
        "$T: .branchtargets $A, $B;\n@%p1 brx.idx %r2, $T;\n$A: mov.u32 %r1, %r5; bra.uni $J;\n"
        "$B: mov.u32 %r1, %r6; bra.uni $J;\n$J:\n",
    };
    for (const std::string &k : kept) {
        int sites = -1;
        EXPECT_EQ(rewrite(k, &sites), k);
        EXPECT_EQ(sites, 0);
    }
}
