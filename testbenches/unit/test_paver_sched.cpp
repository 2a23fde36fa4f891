// PAVER's TB scheduling cores on hand-made locality graphs: Prim's maximum-spanning-tree order
// and the MST-TS groups of the thesis' worked example (spec A.3.4: N = 2 SMs, x = 2, 8 TBs ->
// (0,4) (1,5) (2) (3) (7) (6)), the global queue, task stealing on a crafted imbalance
// (Algorithm 2), and the "mst" policy through the thread-block-scheduler registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <set>
#include <tuple>
#include <vector>

extern "C" {
#include "analysis/locality_graph.h"
#include "tbsched/paver_groups.h"
#include "tbsched/paver_partition.h"
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

// Four heavy pairs, pairs linked in two halves, halves linked weakly.
void pairs_graph(lg_graph *g)
{
    make_graph(8, {{0, 1, 100}, {2, 3, 100}, {4, 5, 100}, {6, 7, 100}, {1, 2, 10}, {0, 3, 10}, {5, 6, 10}, {4, 7, 10},
                   {3, 4, 1}},
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
    // x defaults to the kernel's occupancy (the thesis' x): 2 CTAs per SM give the same groups.
    spec.nparams = 0;
    l.ctas_per_sm = 2;
    ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
    got.clear();
    for (uint32_t sm : {0u, 0u, 1u, 1u, 1u, 0u, 0u, 1u}) got.push_back(tbsched_next(&t, sm));
    EXPECT_EQ(got, (std::vector<uint64_t>{0, 4, 1, 5, 2, 3, 7, 6})) << "x = occupancy 2";
    tbsched_end(&t);
    l.ctas_per_sm = 1; // x = 1: single-TB groups in MST order, round-robin from SM 0
    ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
    got.clear();
    for (uint32_t sm : {0u, 1u, 0u, 1u}) got.push_back(tbsched_next(&t, sm));
    EXPECT_EQ(got, (std::vector<uint64_t>{0, 4, 1, 5})) << "x = occupancy 1";
    tbsched_end(&t);
    l.ctas_per_sm = 0;
    // x = 8 on 2 SMs: the thesis' rule gives the first SM to ask one group of all 8 TBs and the
    // other nothing (MST-TS does not steal); fill = 1 caps x at floor(8 / 2) = 4: two groups.
    spec.nparams = 3;
    spec.params[0] = 8, spec.params[1] = 0, spec.params[2] = 0;
    ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
    EXPECT_EQ(tbsched_next(&t, 0), 0u);
    EXPECT_EQ(tbsched_next(&t, 1), TBSCHED_NONE) << "literal rule: SM1 has no group";
    tbsched_end(&t);
    spec.params[2] = 1;
    ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
    got.clear();
    for (uint32_t sm : {1u, 0u, 1u, 0u, 1u, 0u, 1u, 0u}) got.push_back(tbsched_next(&t, sm));
    // MST order 0 4 1 5 2 3 7 6: SM1 asks first and takes {0 4 1 5}, SM0 {2 3 7 6}.
    EXPECT_EQ(got, (std::vector<uint64_t>{0, 2, 4, 3, 1, 7, 5, 6})) << "fill: groups of 4 in MST order";
    EXPECT_EQ(tbsched_next(&t, 1), TBSCHED_NONE);
    tbsched_end(&t);
    spec.params[2] = 2;
    EXPECT_EQ(tbsched_begin(&t, &spec, &l, &err), -1) << "fill is 0 or 1";

    // RB-TS through the registry: maxTB 3 on the pairs graph, 2 SMs, stealing on.
    lg_graph pg;
    pairs_graph(&pg);
    l.graph = &pg;
    strcpy(spec.name, "rbts");
    // le = 1 (spec gap 3's switch): a group of exactly maxTB is a leaf, so maxTB 4 issues as maxTB 5 (halves).
    {
        std::vector<uint64_t> lt5, le4;
        spec.nparams = 1;
        spec.params[0] = 5;
        ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
        for (int k = 0; k < 8; k++) lt5.push_back(tbsched_next(&t, (k / 4) % 2));
        tbsched_end(&t);
        spec.nparams = 4;
        spec.params[0] = 4, spec.params[1] = 1, spec.params[2] = 1, spec.params[3] = 1;
        ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
        for (int k = 0; k < 8; k++) le4.push_back(tbsched_next(&t, (k / 4) % 2));
        tbsched_end(&t);
        EXPECT_EQ(le4, lt5);
        spec.params[3] = 2;
        EXPECT_EQ(tbsched_begin(&t, &spec, &l, &err), -1) << "le is 0 or 1";
    }
    spec.nparams = 1;
    spec.params[0] = 3;
    ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
    uint64_t a = tbsched_next(&t, 0), b = tbsched_next(&t, 0);
    EXPECT_EQ(a / 2, b / 2) << "SM0 runs a heavy pair together";
    std::set<uint64_t> seen{a, b};
    for (int k = 0; k < 6; k++) seen.insert(tbsched_next(&t, k % 2));
    EXPECT_EQ(seen.size(), 8u) << "every TB once";
    tbsched_end(&t);
    // maxTB defaults to the occupancy: 3 and 5 CTAs per SM issue as maxTB 3 and 5 do.
    for (uint32_t occ : {3u, 5u}) {
        std::vector<uint64_t> expl, dflt;
        spec.nparams = 1;
        spec.params[0] = occ;
        ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
        for (int k = 0; k < 8; k++) expl.push_back(tbsched_next(&t, (k / 4) % 2));
        tbsched_end(&t);
        spec.nparams = 0;
        l.ctas_per_sm = occ;
        ASSERT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
        for (int k = 0; k < 8; k++) dflt.push_back(tbsched_next(&t, (k / 4) % 2));
        tbsched_end(&t);
        l.ctas_per_sm = 0;
        EXPECT_EQ(dflt, expl) << "occupancy " << occ;
        if (occ == 5) {
            EXPECT_EQ(std::set<uint64_t>(dflt.begin(), dflt.begin() + 4).size(), 4u);
            EXPECT_EQ(*std::max_element(dflt.begin(), dflt.begin() + 4) / 4, *std::min_element(dflt.begin(), dflt.begin() + 4) / 4)
                << "maxTB 5: SM0's group is one half of the graph";
        }
    }
    spec.nparams = 1;
    spec.params[0] = 3;
    strcpy(spec.name, "kway");
    spec.nparams = 2; // stealing 1, seed 5
    spec.params[0] = 1;
    spec.params[1] = 5;
    EXPECT_EQ(tbsched_begin(&t, &spec, &l, &err), 0) << strbuf_str(&err);
    tbsched_end(&t);
    spec.nparams = 3;
    EXPECT_EQ(tbsched_begin(&t, &spec, &l, &err), -1) << "too many parameters";
    lg_graph_free(&pg);
    strbuf_free(&err);
    lg_graph_free(&g);
}

std::vector<std::vector<uint32_t>> groups_of(const paver_groups &gr)
{
    std::vector<std::vector<uint32_t>> v;
    for (uint32_t k = 0; k < gr.n_groups; k++) v.emplace_back(gr.tbs + gr.start[k], gr.tbs + gr.start[k + 1]);
    return v;
}

TEST(PaverMetis, RbTsLeavesAreThePairsSiblingsAdjacent)
{
    lg_graph g;
    pairs_graph(&g);
    paver_groups gr;
    ASSERT_EQ(paver_rb_ts_groups(&g, 3, 1, &gr), 0);
    auto v = groups_of(gr);
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(std::set<std::vector<uint32_t>>(v.begin(), v.end()),
              (std::set<std::vector<uint32_t>>{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
    EXPECT_EQ(v[0][0] < 4, v[1][0] < 4) << "the first two leaves share a parent (L2 locality)";
    paver_groups_free(&gr);
    ASSERT_EQ(paver_rb_ts_groups(&g, 5, 1, &gr), 0) << "maxTB 5: the halves are leaves";
    v = groups_of(gr);
    EXPECT_EQ(std::set<std::vector<uint32_t>>(v.begin(), v.end()),
              (std::set<std::vector<uint32_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
    paver_groups_free(&gr);
    lg_graph_free(&g);
}

TEST(PaverMetis, KwayTsPartitionsPerSmInMstOrder)
{
    lg_graph g;
    pairs_graph(&g);
    paver_groups gr;
    ASSERT_EQ(paver_kway_ts_groups(&g, 2, 1, &gr), 0);
    auto v = groups_of(gr);
    EXPECT_EQ(std::set<std::vector<uint32_t>>(v.begin(), v.end()),
              (std::set<std::vector<uint32_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}))
        << "Prim inside each part: 0-1 (100), then 2 before 3 on the tied 10s";
    paver_groups_free(&gr);
    lg_graph_free(&g);
}

TEST(PaverMetis, SeededRunsAreDeterministic)
{
    // An 8 x 8 grid of TBs sharing rows and columns (the MM pattern) with uneven weights.
    lg_builder b;
    lg_builder_init(&b, 64, LG_ELEMENT);
    for (uint32_t tb = 0; tb < 64; tb++)
        for (uint32_t e = 0; e < 3 + tb % 5; e++) {
            ASSERT_EQ(lg_builder_add(&b, tb, (tb / 8) * 100 + e, 1), 0);
            ASSERT_EQ(lg_builder_add(&b, tb, 100000 + (tb % 8) * 100 + e, 1), 0);
        }
    lg_graph g;
    ASSERT_EQ(lg_builder_graph(&b, &g), 0);
    for (int rep = 0; rep < 2; rep++) {
        paver_groups a, c;
        ASSERT_EQ(paver_kway_ts_groups(&g, 6, 7, &a), 0);
        ASSERT_EQ(paver_kway_ts_groups(&g, 6, 7, &c), 0);
        EXPECT_EQ(groups_of(a), groups_of(c));
        uint32_t n_tbs = 0;
        for (auto &grp : groups_of(a)) n_tbs += (uint32_t)grp.size();
        EXPECT_EQ(n_tbs, 64u) << "every TB once";
        paver_groups_free(&a), paver_groups_free(&c);
        ASSERT_EQ(paver_rb_ts_groups(&g, 4, 7, &a), 0);
        ASSERT_EQ(paver_rb_ts_groups(&g, 4, 7, &c), 0);
        EXPECT_EQ(groups_of(a), groups_of(c));
        for (auto &grp : groups_of(a)) EXPECT_LT(grp.size(), 4u);
        paver_groups_free(&a), paver_groups_free(&c);
    }
    lg_graph_free(&g);
    lg_builder_free(&b);
}

} // namespace
