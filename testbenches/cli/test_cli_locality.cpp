// gtlm locality: the TB locality graph of a workload through the C API's memory callback, at the
// thesis' worked size (spec B.3.5: MM N = 200, 13 x 13 grid of 16 x 16 -> 3200 shared elements).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"

TEST(CliLocality, MmNaiveDocSizeGraphAndMatrixMarket)
{
    char dir[] = "/tmp/gtlm_locality_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    Result r = run(std::string("locality mm-naive --size doc --mtx ") + dir);
    ASSERT_EQ(r.code, 0) << r.out;
    // 13 grid rows and 13 columns of C(13, 2) = 78 pairs each; 12 full rows share 3200 elements,
    // the last (rows 192..199) 1600: 2 * (12 * 78 * 3200 + 78 * 1600) = 6240000.
    EXPECT_NE(r.out.find("launch 0 mm_naive grid 13x13x1: 169 TBs, 2028 of 14196 TB pairs share (14.29%), "
                         "6240000 shared elements in all, max 3200 (TBs 0, 1), 0 TBs share nothing"),
              std::string::npos)
        << r.out;
    std::ifstream in(std::string(dir) + "/mm_naive-launch0.mtx");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string mtx = ss.str();
    EXPECT_EQ(mtx.rfind("%%MatrixMarket matrix coordinate integer symmetric\n", 0), 0u) << mtx.substr(0, 200);
    EXPECT_NE(mtx.find("\n169 169 2028\n2 1 3200\n"), std::string::npos) << mtx.substr(0, 300);
    std::remove((std::string(dir) + "/mm_naive-launch0.mtx").c_str());
    std::remove(dir);

    r = run("locality mm-naive --lines --size tiny");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("shared lines in all"), std::string::npos) << r.out;
    r = run("locality no-such-workload");
    EXPECT_EQ(r.code, 2) << r.out;
}

// --groups prints the groups the model's PAVER partitioners form: MM's 169 TBs (doc size) each in
// exactly one group; RB-TS' leaves below maxTB (Algorithm 1's strict test), k-way's PARTS groups.
TEST(CliLocality, GroupsCoverEveryTbOnceWithinEachPolicysBound)
{
    for (const char *p : {"rbts:4", "kway:15", "mst:15:3"}) {
        Result r = run(std::string("locality mm-naive --size doc --groups ") + p);
        ASSERT_EQ(r.code, 0) << r.out;
        std::istringstream in(r.out);
        std::string line;
        std::vector<int> seen(169, 0);
        unsigned groups = 0, largest = 0;
        while (std::getline(in, line)) {
            if (line.rfind("    group ", 0) != 0) continue;
            std::istringstream ls(line.substr(line.find(':') + 1));
            unsigned tb, n = 0;
            while (ls >> tb) {
                ASSERT_LT(tb, 169u) << line;
                seen[tb]++, n++;
            }
            groups++, largest = n > largest ? n : largest;
        }
        for (int k = 0; k < 169; k++) EXPECT_EQ(seen[k], 1) << p << " TB " << k;
        std::string policy(p);
        if (policy == "rbts:4") {
            EXPECT_LT(largest, 4u) << r.out;
        } else if (policy == "kway:15") {
            EXPECT_EQ(groups, 15u) << r.out;
        } else {
            EXPECT_EQ(groups, 15u + (169u - 45u)) << r.out; /* 15 first groups of 3, then singles */
        }
    }
    EXPECT_EQ(run("locality mm-naive --groups rbts:1").code, 2);
    EXPECT_EQ(run("locality mm-naive --groups kway:8x").code, 2);
}

// LocalityGuru = profiling (thesis Sec. 4.4, spec B.6): the twelve benchmarks the thesis validates
// (SDK MM, Hotspot and ten PolyBench kernels), at tiny size: every launch's loads resolve and its
// static graph equals the profiled graph element for element (--check fails otherwise), and the
// symbolic closed form equals the stepped graph.
TEST(CliLocality, StaticEqualsProfiledOnTheThesisTwelve)
{
    for (const char *w : {"sdk/matmul_naive", "sdk/matrixmul", "rodinia/hotspot", "polybench/syrk", "polybench/syr2k",
                          "polybench/2mm", "polybench/gemm", "polybench/bicg", "polybench/covar", "polybench/3dconv",
                          "polybench/2dconv", "polybench/mvt", "polybench/gramschm"}) {
        Result r = run(std::string("locality ") + w + " --check");
        EXPECT_EQ(r.code, 0) << w << "\n" << r.out;
        EXPECT_NE(r.out.find(" profiled; 0 static graphs differ from profiling"), std::string::npos) << w << "\n" << r.out;
        EXPECT_NE(r.out.find("from LocalityGuru's static graph, 0 profiled"), std::string::npos) << w << "\n" << r.out;
        EXPECT_EQ(r.out.find("DIFFERS"), std::string::npos) << w;
        // the symbolic closed form (docs/paver.md) covers every launch but COVAR's triangular kernel
        EXPECT_NE(r.out.find("symbolic: closed form equal to the stepped graph"), std::string::npos) << w << "\n" << r.out;
        if (std::string(w) == "polybench/covar")
            EXPECT_NE(r.out.find("the loop's exit depends on the thread or block index"), std::string::npos) << r.out;
        else
            EXPECT_EQ(r.out.find("symbolic: falls back"), std::string::npos) << w << "\n" << r.out;
    }
}

// Spec B.3.5 / B.10: Gram-Schmidt's kernel 2 and MVT are fully connected (index_x-only in 1D). By
// hand: GRAMSCHM ni = 1024 (the thesis' grid of 4 x 256), kernel 2 reads a[i][k] (its own rows) and
// r[k][k] (one element every TB reads): each of the 6 pairs shares exactly 1 element, in each of
// the nj = 4 launches. MVT n = 256, 8 TBs of 32 x-indices: every TB reads all of y (256
// elements) and its own rows (kernel 1) or columns (kernel 2) of a: each of the 28 pairs shares 256.
TEST(CliLocality, GramSchmidtAndMvtAreFullyConnected)
{
    Result r = run("locality polybench/gramschm --set ni=1024 --set nj=4 --check");
    ASSERT_EQ(r.code, 0) << r.out;
    const std::string k2 = "gramschm_kernel2 grid 4x1x1: 4 TBs, 6 of 6 TB pairs share (100.00%), 6 shared elements in all, "
                           "max 1 (TBs 0, 1), 0 TBs share nothing";
    size_t n = 0;
    for (size_t at = r.out.find(k2); at != std::string::npos; at = r.out.find(k2, at + 1)) n++;
    EXPECT_EQ(n, 4u) << r.out;
    EXPECT_NE(r.out.find("SpScore 0.2500, shared TBs 4 of 4"), std::string::npos) << "1 - 12 / 16: " << r.out;
    r = run("locality polybench/mvt --check");
    ASSERT_EQ(r.code, 0) << r.out;
    for (const char *k : {"mvt_kernel1", "mvt_kernel2"})
        EXPECT_NE(r.out.find(std::string(k) + " grid 8x1x1: 8 TBs, 28 of 28 TB pairs share (100.00%), 7168 shared "
                                              "elements in all, max 256"),
                  std::string::npos)
            << k << "\n" << r.out;
}

// A data-dependent kernel (SpMV's column indices) falls back to profiling and names the load.
TEST(CliLocality, DataDependentLoadsFallBackToProfiling)
{
    Result r = run("locality parboil/spmv");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("source: profiled (LocalityGuru left "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(": unresolved: depends on a global load (line "), std::string::npos) << r.out;
    r = run("locality parboil/spmv --check");
    EXPECT_EQ(r.code, 1) << "--check asks every launch to resolve";
    // Fig. 3.2 / Table 3.2 statistics of each launch
    EXPECT_NE(r.out.find("  references: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("; SpScore "), std::string::npos) << r.out;
    r = run("locality polybench/gemm --trees");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find(": resolved (tree 0): "), std::string::npos) << r.out;
}
