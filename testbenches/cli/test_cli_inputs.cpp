// Document-matching inputs: the `doc` size preset, and the generators and layouts the documents'
// inputs need (R-MAT graphs, a Dubcova3-like FEM matrix, KMeans' point-major kernel).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "cli_run.h"

namespace {

// The integer after `label` in `text` (-1 when absent).
long number_after(const std::string &text, const std::string &label)
{
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(label + " ?([0-9]+)"))) return -1;
    return std::stol(m[1]);
}

} // namespace

TEST(CliInputs, ListShowsTheDocPresetAndItsSource)
{
    Result r = run("list");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("    doc   n=200\n          (thesis ch.4"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("    doc   nodes=1000000 graph=2"), std::string::npos);
}

TEST(CliInputs, DocSizeRunsTheDocumentsInput)
{
    // MM-naive's doc input is the thesis' N = 200 (a 13 x 13 grid): small enough to run here.
    Result r = run("run sdk/MM-naive --size doc --mode functional");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("MM-naive: verified"), std::string::npos) << r.out;
    // A workload whose documents give no input runs its paper size under `doc`.
    r = run("run sdk/vectoradd --size doc --mode functional");
    EXPECT_EQ(r.code, 0) << r.out;
    r = run("run sdk/vectoradd --size huge --mode functional");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("expected tiny, sim, paper or doc"), std::string::npos) << r.out;
}

TEST(CliInputs, RmatGraphHasHubsTheUniformGeneratorLacks)
{
    // Same node count and mean degree (~6); R-MAT's largest hub is far above the mean, the
    // uniform generator's maximum stays near it.
    Result uni = run("run rodinia/bfs --set nodes=16384 --set graph=1 --mode functional");
    Result rmat = run("run rodinia/bfs --size doc --set nodes=16384 --mode functional");
    ASSERT_EQ(uni.code, 0) << uni.out;
    ASSERT_EQ(rmat.code, 0) << rmat.out;
    EXPECT_EQ(number_after(rmat.out, "16384 nodes,"), 98304) << rmat.out; // 3 pairs per node, both ways
    EXPECT_LT(number_after(uni.out, "max degree"), 30) << uni.out;
    EXPECT_GT(number_after(rmat.out, "max degree"), 300) << rmat.out;
}

TEST(CliInputs, FemMatrixHasTheDubcova3RowLength)
{
    // 25-point couplings on a 2-D mesh: at most 25 per row, a mean near Dubcova3's 24.8.
    Result r = run("run parboil/spmv --size doc --set n=16384 --set reps=1 --mode functional");
    ASSERT_EQ(r.code, 0) << r.out;
    long rows = number_after(r.out, "SPMV:"), nnz = number_after(r.out, "rows,");
    ASSERT_EQ(rows, 16384) << r.out;
    EXPECT_EQ(number_after(r.out, "max"), 25) << r.out;
    EXPECT_GT((double)nnz / rows, 24.0) << r.out;
}

TEST(CliInputs, KMeansLayoutsAgree)
{
    // The point-major kernel (the documents' KM) and Rodinia 3.1's column-major pair assign the
    // same memberships: the outputs' digests are equal.
    Result rows = run("run rodinia/kmeans --set layout=1 --mode functional");
    Result cols = run("run rodinia/kmeans --set layout=2 --mode functional");
    ASSERT_EQ(rows.code, 0) << rows.out;
    ASSERT_EQ(cols.code, 0) << cols.out;
    auto digest = [](const std::string &out) {
        size_t at = out.find("output digest ");
        return at == std::string::npos ? std::string() : out.substr(at, 30);
    };
    EXPECT_FALSE(digest(rows.out).empty());
    EXPECT_EQ(digest(rows.out), digest(cols.out));
}
