// The thread-block locality graph (PAVER / LocalityGuru, spec B.8): hand-made references with
// known intersections, and the profiled graphs of the chapter's worked patterns (spec B.3.5:
// MM N = 200 -> 3200, 2MM N = 256 -> 2048 / 8192, GEMM N = 64 -> 512 / 2048), from the real
// kernels' PTX run functionally.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "analysis/locality_graph.h"
#include "analysis/locality_profile.h"
#include "ptx/ptx_parse.h"
#include "simt/simt.h"
#include "simt/simt_run.h"
}

namespace {

TEST(LocalityGraph, HandMadeIntersections)
{
    lg_builder b;
    lg_builder_init(&b, 4, LG_ELEMENT);
    // TB0 reads elements 0..9, TB1 5..14, TB2 0..2 and 12, TB3 100 (shares nothing).
    for (uint64_t e = 0; e < 10; e++) ASSERT_EQ(lg_builder_add(&b, 0, e * 4, 4), 0);
    for (uint64_t e = 5; e < 15; e++) ASSERT_EQ(lg_builder_add(&b, 1, e * 4, 4), 0);
    for (uint64_t e : {0, 1, 2, 12, 2}) ASSERT_EQ(lg_builder_add(&b, 2, e * 4, 4), 0) << "repeats count once";
    ASSERT_EQ(lg_builder_add(&b, 3, 400, 4), 0);
    EXPECT_EQ(lg_builder_add(&b, 4, 0, 4), -1) << "TB out of range";
    EXPECT_EQ(lg_builder_refs(&b, 2), 4u);
    lg_graph g;
    ASSERT_EQ(lg_builder_graph(&b, &g), 0);
    EXPECT_EQ(lg_graph_get(&g, 0, 1), 5u);
    EXPECT_EQ(lg_graph_get(&g, 1, 0), 5u);
    EXPECT_EQ(lg_graph_get(&g, 0, 2), 3u);
    EXPECT_EQ(lg_graph_get(&g, 1, 2), 1u);
    EXPECT_EQ(lg_graph_get(&g, 0, 0), 0u) << "no diagonal";
    EXPECT_EQ(lg_graph_get(&g, 3, 0), 0u);
    lg_summary s;
    lg_graph_summary(&g, &s);
    EXPECT_EQ(s.edges, 3u);
    EXPECT_EQ(s.total_weight, 9u);
    EXPECT_EQ(s.max_weight, 5u);
    EXPECT_EQ(s.max_i, 0u);
    EXPECT_EQ(s.max_j, 1u);
    EXPECT_EQ(s.isolated, 1u);

    char *buf = nullptr;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT_EQ(lg_graph_write_mm(&g, f), 0);
    fclose(f);
    EXPECT_STREQ(buf, "%%MatrixMarket matrix coordinate integer symmetric\n"
                      "% gtlm thread-block locality graph: L[i][j] = shared granules of TBs i-1, j-1\n"
                      "4 4 3\n2 1 5\n3 1 3\n3 2 1\n");
    free(buf);

    // Line granularity: elements 0..9 and 5..14 (4 B) all fall in line 0.
    lg_builder lb;
    lg_builder_init(&lb, 2, LG_LINE);
    for (uint64_t e = 0; e < 10; e++) ASSERT_EQ(lg_builder_add(&lb, 0, e * 4, 4), 0);
    for (uint64_t e = 5; e < 15; e++) ASSERT_EQ(lg_builder_add(&lb, 1, e * 4, 4), 0);
    ASSERT_EQ(lg_builder_add(&lb, 1, 128, 4), 0);
    lg_graph lg;
    ASSERT_EQ(lg_builder_graph(&lb, &lg), 0);
    EXPECT_EQ(lg_graph_get(&lg, 0, 1), 1u);

    uint32_t i = 9, j = 9;
    EXPECT_EQ(lg_graph_equal(&g, &g, &i, &j), 1);
    EXPECT_EQ(lg_graph_equal(&g, &lg, &i, &j), 0) << "different sizes";
    lg_graph_free(&lg);
    lg_builder_free(&lb);
    lg_graph_free(&g);
    lg_builder_free(&b);
}

std::string slurp(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Profiled {
    lg_builder b;
    uint32_t grid[3];
};

void hook(const simt_launch *l, const simt_warp *w, uint32_t, uint32_t, const simt_mem_access *acc, void *ctx)
{
    if (acc->space != PS_GLOBAL || acc->is_store || acc->is_atomic) return; /* global reads only */
    auto *p = static_cast<Profiled *>(ctx);
    const uint32_t *c = w->cta->ctaid;
    uint32_t tb = c[0] + l->grid[0] * (c[1] + l->grid[1] * c[2]);
    lg_builder_add_warp(&p->b, tb, acc->mask, acc->addr, acc->bytes);
}

// One argument: a device buffer of `bytes` bytes, or a 4-byte scalar.
struct Arg {
    bool buffer;
    uint64_t bytes;
    uint32_t scalar;
};

// Runs kernel `name` of a workload's PTX functionally and returns its profiled locality graph.
// core: through lg_profile_launch (on a copy of memory, which must stay unchanged), else a hook here.
void profile(const char *ptx, const char *name, const std::vector<Arg> &args, uint32_t gx, uint32_t gy, uint32_t bx,
             uint32_t by, lg_graph *g, bool core = false)
{
    std::string path = std::string(GTLM_SOURCE_DIR) + "/workloads/" + ptx;
    std::string text = slurp(path);
    ASSERT_FALSE(text.empty()) << path;
    dmem mem;
    dmem_init(&mem);
    ptx_module pm{};
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    ASSERT_EQ(ptx_parse(path.c_str(), text.c_str(), text.size(), &pm, &err, &warn), 0) << strbuf_str(&err);
    simt_module mod{};
    char msg[256];
    ASSERT_EQ(simt_module_load(&mod, &pm, &mem, msg, sizeof msg), 0) << msg;
    std::vector<uint64_t> ptrs(args.size());
    std::vector<const void *> vals(args.size());
    std::vector<size_t> sizes(args.size());
    for (size_t k = 0; k < args.size(); k++) {
        if (args[k].buffer) {
            ASSERT_EQ(dmem_alloc_bytes(&mem, args[k].bytes, &ptrs[k]), 0);
            ASSERT_EQ(dmem_fill(&mem, ptrs[k], 0x3f, args[k].bytes), 0);
            vals[k] = &ptrs[k], sizes[k] = 8;
        } else {
            vals[k] = &args[k].scalar, sizes[k] = 4;
        }
    }
    Profiled p{};
    lg_builder_init(&p.b, gx * gy, LG_ELEMENT);
    simt_launch l{};
    l.mod = &mod;
    l.kernel = ptx_module_find_func(&mod.ptx, name);
    ASSERT_NE(l.kernel, nullptr) << name;
    l.grid[0] = gx, l.grid[1] = gy, l.grid[2] = 1;
    l.block[0] = bx, l.block[1] = by, l.block[2] = 1;
    l.mem = &mem;
    l.on_mem = hook;
    l.on_mem_ctx = &p;
    ASSERT_EQ(simt_launch_prepare(&l, msg, sizeof msg), 0) << msg;
    ASSERT_EQ(simt_pack_params(l.kernel, vals.data(), sizes.data(), vals.size(), &l.params, msg, sizeof msg), 0)
        << msg;
    if (core) {
        ASSERT_EQ(lg_profile_launch(&l, LG_ELEMENT, g, msg, sizeof msg), 0) << msg;
        for (size_t k = 0; k < args.size(); k++) {
            if (!args[k].buffer) continue;
            std::vector<unsigned char> after(args[k].bytes);
            dmem_read(&mem, ptrs[k], after.data(), args[k].bytes);
            for (unsigned char byte : after) ASSERT_EQ(byte, 0x3f) << "argument " << k << " changed";
        }
        ASSERT_EQ(p.b.n, 0u) << "the hook of the launch was not used";
    } else {
        simt_run_stats st{};
        simt_error e{};
        ASSERT_EQ(simt_run_functional(&l, 0, &st, &e), SIMT_OK);
        ASSERT_EQ(lg_builder_graph(&p.b, g), 0);
    }
    free(l.params);
    lg_builder_free(&p.b);
    simt_module_free(&mod, &mem);
    dmem_free_all(&mem);
}

// Expected L for a 2-D grid whose TBs share rows (index_y-only loads) and columns (index_x-only).
void expect_rows_and_columns(const lg_graph &g, uint32_t gx, uint32_t gy, uint64_t row_share, uint64_t col_share)
{
    for (uint32_t a = 0; a < gx * gy; a++)
        for (uint32_t b = 0; b < gx * gy; b++) {
            uint64_t want = 0;
            if (a != b && a / gx == b / gx) want = row_share;
            if (a != b && a % gx == b % gx) want = col_share;
            ASSERT_EQ(lg_graph_get(&g, a, b), want) << "TBs " << a << ", " << b;
        }
}

TEST(LocalityGraph, ProfiledMmNaiveN200Shares3200)
{
    const uint32_t n = 200, bytes = n * n * 4;
    lg_graph g;
    profile("sdk/matmul_naive/matmul_naive.ptx", "mm_naive",
            {{true, bytes, 0}, {true, bytes, 0}, {true, bytes, 0}, {false, 0, n}}, 13, 13, 16, 16, &g);
    ASSERT_EQ(g.n, 169u);
    // Interior TBs share 16 rows of A (same grid row) or 16 columns of B (same grid column) x 200.
    // Grid row / column 12 covers only rows / columns 192..199: 8 x 200 = 1600 elements.
    for (uint32_t a = 0; a < 169; a++)
        for (uint32_t b = 0; b < 169; b++) {
            uint64_t want = 0;
            if (a != b && a / 13 == b / 13) want = a / 13 == 12 ? 1600 : 3200;
            if (a != b && a % 13 == b % 13) want = a % 13 == 12 ? 1600 : 3200;
            ASSERT_EQ(lg_graph_get(&g, a, b), want) << "TBs " << a << ", " << b;
        }
    EXPECT_EQ(lg_graph_get(&g, 0, 1), 3200u) << "thesis B.3.5: 16 x 200";
    EXPECT_EQ(lg_graph_get(&g, 0, 13), 3200u);
    lg_graph_free(&g);
}

TEST(LocalityGraph, ProfiledGemmN64Shares512And2048)
{
    const uint32_t n = 64, bytes = n * n * 4;
    float alpha = 1.5f, beta = 0.5f;
    uint32_t fa, fb;
    memcpy(&fa, &alpha, 4);
    memcpy(&fb, &beta, 4);
    lg_graph g;
    profile("polybench/gemm/gemm.ptx", "gemm_kernel",
            {{false, 0, n}, {false, 0, n}, {false, 0, n}, {false, 0, fa}, {false, 0, fb}, {true, bytes, 0},
             {true, bytes, 0}, {true, bytes, 0}},
            2, 8, 32, 8, &g);
    expect_rows_and_columns(g, 2, 8, 8 * 64, 32 * 64);
    // The timing path's profiler (a copy of device memory; GEMM writes c) gives the same graph.
    lg_graph h;
    profile("polybench/gemm/gemm.ptx", "gemm_kernel",
            {{false, 0, n}, {false, 0, n}, {false, 0, n}, {false, 0, fa}, {false, 0, fb}, {true, bytes, 0},
             {true, bytes, 0}, {true, bytes, 0}},
            2, 8, 32, 8, &h, true);
    uint32_t i = 0, j = 0;
    EXPECT_EQ(lg_graph_equal(&g, &h, &i, &j), 1) << "first difference at " << i << ", " << j;
    lg_graph_free(&h);
    lg_graph_free(&g);
}

TEST(LocalityGraph, Profiled2mmN256Shares2048And8192)
{
    const uint32_t n = 256, bytes = n * n * 4;
    float alpha = 1.5f;
    uint32_t fa;
    memcpy(&fa, &alpha, 4);
    lg_graph g;
    profile("polybench/2mm/2mm.ptx", "mm2_kernel1",
            {{true, bytes, 0}, {true, bytes, 0}, {true, bytes, 0}, {false, 0, fa}, {false, 0, n}, {false, 0, n},
             {false, 0, n}},
            8, 32, 32, 8, &g);
    expect_rows_and_columns(g, 8, 32, 8 * 256, 32 * 256);
    lg_graph_free(&g);
}

} // namespace
