// The span builder of LocalityGuru's closed form (lg_spans.h): warp loads whose lanes step by at
// most one granule become runs, others single granules; TB sets merge into spans and the sweep's
// graph equals the lane-by-lane (granule, TB) builder's element for element, with hand-computed
// values.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

extern "C" {
#include "analysis/lg_spans.h"
#include "analysis/locality_graph.h"
}

namespace {

struct WarpLoad {
    uint32_t tb, mask;
    uint64_t base;
    int64_t step;
    unsigned bytes;
};

// Feeds the same loads to both builders and checks the graphs and reference counts are equal.
void expect_same(const std::vector<WarpLoad> &loads, uint32_t n_tbs, int gran, lg_graph *out)
{
    lg_spans s;
    ASSERT_EQ(lg_spans_init(&s, n_tbs, gran), 0);
    lg_builder b;
    lg_builder_init(&b, n_tbs, gran);
    for (const WarpLoad &w : loads) {
        uint64_t addr[32];
        for (int l = 0; l < 32; l++) addr[l] = w.base + static_cast<uint64_t>(w.step * l);
        ASSERT_EQ(lg_spans_add_warp(&s, w.tb, w.mask, addr, w.bytes), 0);
        ASSERT_EQ(lg_builder_add_warp(&b, w.tb, w.mask, addr, w.bytes), 0);
    }
    lg_graph g;
    ASSERT_EQ(lg_spans_graph(&s, out), 0);
    ASSERT_EQ(lg_builder_graph(&b, &g), 0);
    uint32_t i = 0, j = 0;
    EXPECT_EQ(lg_graph_equal(out, &g, &i, &j), 1) << "first difference at TBs " << i << ", " << j;
    for (uint32_t t = 0; t < n_tbs; t++) EXPECT_EQ(lg_spans_refs(&s, t), lg_builder_refs(&b, t)) << "TB " << t;
    lg_graph_free(&g);
    lg_builder_free(&b);
    lg_spans_free(&s);
}

TEST(LgSpans, RunsSinglesAndSweepExact)
{
    const uint32_t all = 0xffffffffu;
    // TB0: elements 0..31 (a run), TB1: 16..47 and a broadcast of 100, TB2: every 8th byte from 0
    // (singles 0, 2, .., 62: step 8 > 4 bytes), a negative step (40 down to 9) and a holey mask
    // (1000..1003, 1012..1015), TB3: unaligned step 2 bytes (201..263: granules 50..65) and 100,
    // TB4: nothing.
    std::vector<WarpLoad> loads = {
        {0, all, 0, 4, 4},
        {1, all, 64, 4, 4},
        {1, all, 400, 0, 4},
        {2, all, 0, 8, 4},
        {2, all, 160, -4, 4},
        {2, 0x0000f00fu, 4000, 4, 4},
        {3, all, 201, 2, 4},
        {3, all, 400, 0, 4},
    };
    lg_graph g;
    expect_same(loads, 5, LG_ELEMENT, &g);
    EXPECT_EQ(lg_graph_get(&g, 0, 1), 16u); // 16..31
    EXPECT_EQ(lg_graph_get(&g, 0, 2), 28u); // 0, 2, 4, 6, 8 and 9..31 (the negative run 9..40)
    EXPECT_EQ(lg_graph_get(&g, 1, 2), 28u); // 16..40 and 42, 44, 46
    EXPECT_EQ(lg_graph_get(&g, 2, 3), 7u);  // 50, 52, .., 62
    EXPECT_EQ(lg_graph_get(&g, 1, 3), 1u);  // 100
    EXPECT_EQ(lg_graph_get(&g, 3, 4), 0u);
    lg_graph_free(&g);
    expect_same(loads, 5, LG_LINE, &g);
    EXPECT_EQ(lg_graph_get(&g, 0, 1), 1u); // line 0
    lg_graph_free(&g);
}

TEST(LgSpans, TBsOutOfOrderAreAnError)
{
    lg_spans s;
    ASSERT_EQ(lg_spans_init(&s, 3, LG_ELEMENT), 0);
    uint64_t addr[32] = {0};
    EXPECT_EQ(lg_spans_add_warp(&s, 1, 1, addr, 4), 0);
    EXPECT_EQ(lg_spans_add_warp(&s, 0, 1, addr, 4), -1);
    EXPECT_EQ(lg_spans_add_warp(&s, 3, 1, addr, 4), -1);
    lg_spans_free(&s);
}

} // namespace
