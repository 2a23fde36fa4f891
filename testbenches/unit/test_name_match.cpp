// Signal-name patterns (-vcd_signals) and the string set behind the statistics' name checks.
#include <gtest/gtest.h>

#include <string>

extern "C" {
#include "common/name_match.h"
#include "common/strset.h"
}

namespace {

bool m(const char *patterns, const char *name) { return name_match_list(patterns, name) != 0; }

TEST(NameMatch, StarsQuestionMarksAndLiterals)
{
    EXPECT_TRUE(m("*", "gpu.sm[3].l1d.miss"));
    EXPECT_TRUE(m("gpu.dram*", "gpu.dram[1].bank[7].row"));
    EXPECT_FALSE(m("gpu.dram*", "gpu.l2[0].hits"));
    EXPECT_TRUE(m("gpu.sm[0].l1d.?its", "gpu.sm[0].l1d.hits"));
    EXPECT_FALSE(m("gpu.sm[0].l1d.?its", "gpu.sm[0].l1d.misses"));
    EXPECT_TRUE(m("*.mshr", "gpu.l2[11].mshr"));
    EXPECT_FALSE(m("gpu.icnt", "gpu.icnt.req.in[0].flits")); // a pattern matches the whole name
}

TEST(NameMatch, IndexRangesMatchWholeNumbers)
{
    EXPECT_TRUE(m("gpu.sm[0-3].*", "gpu.sm[0].issued"));
    EXPECT_TRUE(m("gpu.sm[0-3].*", "gpu.sm[3].issued"));
    EXPECT_FALSE(m("gpu.sm[0-3].*", "gpu.sm[4].issued"));
    EXPECT_FALSE(m("gpu.sm[0-3].*", "gpu.sm[12].issued")); // not "1" then anything
    EXPECT_TRUE(m("gpu.sm[10-12].*", "gpu.sm[12].issued"));
    EXPECT_TRUE(m("gpu.dram[1,3,5-6].queue", "gpu.dram[6].queue"));
    EXPECT_FALSE(m("gpu.dram[1,3,5-6].queue", "gpu.dram[4].queue"));
    EXPECT_TRUE(m("gpu.dram[2].bank[0-7].*", "gpu.dram[2].bank[7].open"));
    EXPECT_FALSE(m("gpu.dram[2].bank[0-7].*", "gpu.dram[2].bank[8].open"));
}

TEST(NameMatch, ListsSplitOnCommasOutsideBrackets)
{
    const char *p = "gpu.sm[0-1,3].*,gpu.l2[0].hits";
    EXPECT_TRUE(m(p, "gpu.sm[3].stall"));
    EXPECT_FALSE(m(p, "gpu.sm[2].stall"));
    EXPECT_TRUE(m(p, "gpu.l2[0].hits"));
    EXPECT_FALSE(m(p, "gpu.l2[0].misses"));
    EXPECT_FALSE(m("", "gpu.sm[0].stall"));
}

TEST(NameMatch, MalformedPatternsAreReportedWithTheirPosition)
{
    struct Bad {
        const char *pattern, *message;
    };
    for (const Bad &b : {Bad{"gpu.sm[0-3.*", "pattern 1 (col 7): '[' without ']'"},
                         Bad{"*,gpu.sm]", "pattern 2 (col 7): ']' without '['"},
                         Bad{"gpu.sm[a].*", "pattern 1 (col 7): expected an index list"},
                         Bad{"gpu.sm[3-1].*", "pattern 1 (col 7): expected an index list"},
                         Bad{"gpu.sm[1,].*", "pattern 1 (col 7): expected an index list"},
                         Bad{"gpu.*,,x", "pattern 2 is empty"}}) {
        strbuf e;
        strbuf_init(&e);
        EXPECT_EQ(name_pattern_check(b.pattern, &e), -1) << b.pattern;
        EXPECT_NE(std::string(strbuf_str(&e)).find(b.message), std::string::npos) << b.pattern << ": " << strbuf_str(&e);
        strbuf_free(&e);
    }
    strbuf e;
    strbuf_init(&e);
    EXPECT_EQ(name_pattern_check("gpu.sm[0-3,7].*,gpu.dram*", &e), 0) << strbuf_str(&e);
    strbuf_free(&e);
}

TEST(StrSet, AddsFindsAndGrows)
{
    strset s;
    strset_init(&s);
    EXPECT_FALSE(strset_has(&s, "a", 1));
    for (int i = 0; i < 5000; i++) {
        std::string k = "gpu.sm[" + std::to_string(i) + "]";
        ASSERT_EQ(strset_add(&s, k.c_str(), k.size()), 0);
    }
    EXPECT_EQ(s.n, 5000u);
    EXPECT_TRUE(strset_has(&s, "gpu.sm[4999]", 12));
    EXPECT_FALSE(strset_has(&s, "gpu.sm[5000]", 12));
    // a prefix of a longer string, given by length
    const char *path = "gpu.sm[17].l1d.misses";
    EXPECT_TRUE(strset_has(&s, path, 10));
    EXPECT_FALSE(strset_has(&s, path, 11));
    ASSERT_EQ(strset_add(&s, "gpu.sm[17]", 10), 0); // again: no second copy
    EXPECT_EQ(s.n, 5000u);
    strset_free(&s);
}

} // namespace
