// PAVER's TB scheduling cores on hand-made locality graphs: Prim's maximum-spanning-tree order
// and the MST-TS groups of the thesis' worked example (spec A.3.4: N = 2 SMs, x = 2, 8 TBs ->
// (0,4) (1,5) (2) (3) (7) (6)), the global queue, task stealing on a crafted imbalance
// (Algorithm 2), and the "mst" policy through the thread-block-scheduler registry.
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <tuple>
#include <vector>

extern "C" {
#include "analysis/locality_graph.h"
#include "tbsched/paver_groups.h"
#include "tbsched/tbsched.h"
}

namespace {

// A graph from weighted edges: each edge (i, j, w) becomes w granules read by i and j only.
void make_graph(uint32_t n, std::initializer_list<std::tuple<uint32_t, uint32_t, uint32_t>> edges, lg_graph *g)
{
    lg_builder b;
    lg_builder_init(&b, n, LG_ELEMENT);
    uint64_t granule = 0;
    for (auto [i, j, w] : edges)
        for (uint32_t k = 0; k < w; k++, granule++) {
            ASSERT_EQ(lg_builder_add(&b, i, granule, 1), 0);
            ASSERT_EQ(lg_builder_add(&b, j, granule, 1), 0);
        }
    ASSERT_EQ(lg_builder_graph(&b, g), 0);
    lg_builder_free(&b);
}

// The chain 0-4-1-5-2-3-7-6 with falling weights, plus lighter cross edges Prim must not take.
void example_graph(lg_graph *g)
{
    make_graph(8, {{0, 4, 10}, {4, 1, 9}, {1, 5, 8}, {5, 2, 7}, {2, 3, 6}, {3, 7, 5}, {7, 6, 4}, {0, 1, 3}, {0, 6, 2},
                   {4, 3, 1}},
               g);
}

TEST(PaverMst, PrimOrderOfTheWorkedExample)
{
    lg_graph g;
    example_graph(&g);
    uint32_t order[8];
    ASSERT_EQ(paver_mst_order(&g, order), 0);
    EXPECT_EQ(std::vector<uint32_t>(order, order + 8), (std::vector<uint32_t>{0, 4, 1, 5, 2, 3, 7, 6}));

    paver_groups gr;
    ASSERT_EQ(paver_mst_ts_groups(&g, 2, 2, &gr), 0);
    ASSERT_EQ(gr.n_groups, 6u);
    std::vector<std::vector<uint32_t>> groups;
    for (uint32_t k = 0; k < gr.n_groups; k++)
        groups.emplace_back(gr.tbs + gr.start[k], gr.tbs + gr.start[k + 1]);
    EXPECT_EQ(groups, (std::vector<std::vector<uint32_t>>{{0, 4}, {1, 5}, {2}, {3}, {7}, {6}}));
    paver_groups_free(&gr);
    lg_graph_free(&g);
}

TEST(PaverMst, TiesToLowerIdAndDisconnectedFromLowestUnvisited)
{
    lg_graph g;
    make_graph(6, {{0, 3, 5}, {0, 2, 5}, {4, 5, 9}}, &g);
    uint32_t order[6];
    ASSERT_EQ(paver_mst_order(&g, order), 0);
    EXPECT_EQ(std::vector<uint32_t>(order, order + 6), (std::vector<uint32_t>{0, 2, 3, 1, 4, 5}));
    lg_graph_free(&g);
}

// Groups given by hand: {0..8}, {9..11}, {12..14} on 3 SMs.
void imbalanced(paver_queue *q, int stealing)
{
    paver_groups gr{};
    gr.n_tbs = 15;
    gr.n_groups = 3;
    gr.tbs = static_cast<uint32_t *>(malloc(15 * sizeof(uint32_t)));
    gr.start = static_cast<uint64_t *>(malloc(4 * sizeof(uint64_t)));
    for (uint32_t k = 0; k < 15; k++) gr.tbs[k] = k;
    gr.start[0] = 0, gr.start[1] = 9, gr.start[2] = 12, gr.start[3] = 15;
    ASSERT_EQ(paver_queue_init(q, &gr, 3, stealing), 0);
}

TEST(PaverQueue, TaskStealingTakesMaxMinusAverageFromTheDonorsTail)
{
    paver_queue q;
    imbalanced(&q, 1);
    EXPECT_EQ(paver_queue_next(&q, 0), 0u);
    EXPECT_EQ(paver_queue_next(&q, 1), 9u);
    EXPECT_EQ(paver_queue_next(&q, 2), 12u);
    EXPECT_EQ(paver_queue_next(&q, 1), 10u);
    EXPECT_EQ(paver_queue_next(&q, 1), 11u);
    // Waiting: SM0 8 (1..8), SM1 0, SM2 2. Average floor(10 / 3) = 3: SM1 steals 8 - 3 = 5 TBs,
    // 4..8, from SM0's tail.
    EXPECT_EQ(paver_queue_next(&q, 1), 4u);
    EXPECT_EQ(q.stolen_tbs, 5u);
    EXPECT_EQ(q.steal_events, 1u);
    EXPECT_EQ(paver_queue_waiting(&q, 0), 3u);
    EXPECT_EQ(paver_queue_waiting(&q, 1), 4u);
    for (uint32_t tb : {1u, 2u, 3u}) EXPECT_EQ(paver_queue_next(&q, 0), tb);
    // SM0 now steals from SM1 (waiting 5..8 = 4; SM2 2): floor(6 / 3) = 2 -> 7, 8.
    EXPECT_EQ(paver_queue_next(&q, 0), 7u);
    EXPECT_EQ(q.stolen_tbs, 7u);
    EXPECT_EQ(q.steal_events, 2u);
    paver_queue_free(&q);

    imbalanced(&q, 0);
    paver_queue_next(&q, 0), paver_queue_next(&q, 1), paver_queue_next(&q, 2);
    paver_queue_next(&q, 1), paver_queue_next(&q, 1);
    EXPECT_EQ(paver_queue_next(&q, 1), PAVER_NONE) << "no stealing: SM1 idles";
    EXPECT_EQ(q.stolen_tbs, 0u);
    paver_queue_free(&q);
}

TEST(PaverQueue, MstPolicyThroughTheRegistry)
{
    lg_graph g;
    example_graph(&g);
    tbsched_launch l{};
    l.grid[0] = 8, l.grid[1] = l.grid[2] = 1;
    l.n_ctas = 8;
    l.n_sms = 2;
    gsim_policy_spec spec{};
    strcpy(spec.name, "mst");
    spec.nparams = 1;
    spec.params[0] = 2;
    strbuf err;
    strbuf_init(&err);
    tbsched t;
    EXPECT_EQ(tbsched_begin(&t, &spec, &l, &err), -1) << "no graph";
    EXPECT_NE(std::string(strbuf_str(&err)).find("locality graph"), std::string::npos);
    l.graph = &g;
    ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
    // The dispatcher fills SM0 and SM1 (two contexts each), then SMs ask as contexts free.
    std::vector<uint64_t> got;
    for (uint32_t sm : {0u, 0u, 1u, 1u, 1u, 0u, 0u, 1u}) got.push_back(tbsched_next(&t, sm));
    EXPECT_EQ(got, (std::vector<uint64_t>{0, 4, 1, 5, 2, 3, 7, 6}));
    EXPECT_EQ(tbsched_next(&t, 0), TBSCHED_NONE);
    tbsched_end(&t);
    strbuf_free(&err);
    lg_graph_free(&g);
}

} // namespace
