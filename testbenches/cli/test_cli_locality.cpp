// gtlm locality: the TB locality graph of a workload through the C API's memory callback, at the
// thesis' worked size (spec B.3.5: MM N = 200, 13 x 13 grid of 16 x 16 -> 3200 shared elements).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

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
