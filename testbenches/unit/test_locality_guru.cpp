// LocalityGuru (thesis Ch. 4, spec B.3): the address syntax trees of hand-written PTX (idle
// threads, a loop, (register, offset) pairs, a data-dependent address and branch) with exact
// reference sets, and the chapter's worked patterns (spec B.3.5: MM N = 200 -> 3200, GEMM N = 64 ->
// 512 / 2048, 2MM N = 256 -> 2048 / 8192) from the static analysis, each equal to the profiled graph.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "analysis/guru_eval.h"
#include "analysis/locality_profile.h"
#include "analysis/locality_source.h"
#include "ptx/ptx_parse.h"
#include "simt/simt_run.h"
}

#include "guru_launch_fixture.h"

using namespace guru_test;

namespace {

// The static graph must exist and equal the profiled one element for element.
void expect_static_equals_profiled(const simt_launch &l, lg_graph *stat)
{
    lg_source_info info;
    char msg[512] = "";
    ASSERT_EQ(lg_launch_graph(&l, LG_SRC_STATIC, LG_ELEMENT, 0, stat, &info, msg, sizeof msg), 0) << msg;
    EXPECT_EQ(info.used, LG_SRC_STATIC);
    EXPECT_EQ(info.unresolved, 0u) << info.why;
    lg_graph prof;
    ASSERT_EQ(lg_profile_launch(&l, LG_ELEMENT, &prof, msg, sizeof msg), 0) << msg;
    uint32_t i = 0, j = 0;
    EXPECT_EQ(lg_graph_equal(stat, &prof, &i, &j), 1) << "first difference at TBs " << i << ", " << j;
    lg_graph_free(&prof);
}


// a[i + j] and a[i + j + 1] for j = 0, 2 (a loop of two iterations), threads with i >= n idle.
const char *kLoopKernel = R"(
.visible .entry k(.param .u64 a, .param .u32 n)
{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<6>;
    .reg .f32 %f<3>;
    ld.param.u64 %rd1, [a];
    ld.param.u32 %r1, [n];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra $L_done;
    mov.u32 %r6, 0;
$L_loop:
    add.s32 %r7, %r5, %r6;
    mul.wide.u32 %rd3, %r7, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f1, [%rd4];
    ld.global.f32 %f2, [%rd4+4];
    add.s32 %r6, %r6, 2;
    setp.lt.u32 %p2, %r6, 4;
    @%p2 bra $L_loop;
$L_done:
    ret;
}
)";

TEST(LocalityGuru, LoopOffsetsAndIdleThreadsExact)
{
    Launch L;
    prepare(L, std::string(kHeader) + kLoopKernel, "k", {{true, 256, 0}, {false, 0, 10}}, 3, 1, 4, 1);
    guru_kernel k;
    ASSERT_EQ(guru_analyse(&L.mod.ptx, L.l.kernel, &k), 0);
    ASSERT_EQ(k.n_loads, 2u);
    EXPECT_EQ(k.n_unresolved, 0u);
    EXPECT_EQ(k.loads[0].tree, k.loads[1].tree) << "same register, no write between: one tree, two offsets";
    EXPECT_EQ(k.loads[0].offset, 0);
    EXPECT_EQ(k.loads[1].offset, 4);
    char tree[512];
    guru_tree_text(&k, 0, tree, sizeof tree);
    EXPECT_NE(strstr(tree, "mad(ctaid.x, ntid.x, tid.x)"), nullptr) << tree;
    EXPECT_NE(strstr(tree, "loop(%r6)"), nullptr) << tree;
    EXPECT_NE(strstr(tree, "cvta(a)"), nullptr) << tree;
    // Thread i reads a[i .. i + 3]; TB0 = 0..6, TB1 = 4..10, TB2 (threads 8, 9; 10, 11 idle) = 8..12.
    lg_builder b;
    lg_builder_init(&b, 3, LG_ELEMENT);
    char msg[256] = "";
    ASSERT_EQ(guru_eval_launch(&k, &L.l, &b, msg, sizeof msg), 0) << msg;
    EXPECT_EQ(lg_builder_refs(&b, 0), 7u);
    EXPECT_EQ(lg_builder_refs(&b, 1), 7u);
    EXPECT_EQ(lg_builder_refs(&b, 2), 5u) << "idle threads 10 and 11 must not add a[13], a[14]";
    lg_graph g;
    ASSERT_EQ(lg_builder_graph(&b, &g), 0);
    EXPECT_EQ(lg_graph_get(&g, 0, 1), 3u);
    EXPECT_EQ(lg_graph_get(&g, 1, 2), 3u);
    EXPECT_EQ(lg_graph_get(&g, 0, 2), 0u);
    lg_graph_free(&g);
    lg_builder_free(&b);
    guru_kernel_free(&k);
    lg_graph s;
    expect_static_equals_profiled(L.l, &s);
    lg_graph_free(&s);
}

// x = a[b[i]] (a data-dependent address); if (b[i] > 0) y = a[i] (a static address behind a
// data-dependent branch): both fall back, b[i] itself resolves.
const char *kIndirectKernel = R"(
.visible .entry k(.param .u64 a, .param .u64 b)
{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<12>;
    .reg .f32 %f<4>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd6, %rd4, %rd5;
    ld.global.u32 %r2, [%rd6];
    mul.wide.u32 %rd7, %r2, 4;
    add.s64 %rd8, %rd3, %rd7;
    ld.global.f32 %f1, [%rd8];
    setp.gt.s32 %p1, %r2, 0;
    @!%p1 bra $L_skip;
    add.s64 %rd9, %rd3, %rd5;
    ld.global.f32 %f2, [%rd9];
$L_skip:
    ret;
}
)";

TEST(LocalityGuru, DataDependentAddressAndControlFallBack)
{
    Launch L;
    prepare(L, std::string(kHeader) + kIndirectKernel, "k", {{true, 256, 0}, {true, 256, 0}}, 2, 1, 8, 1,
            {3, 1, 0, 2, 5, 0, 1, 7, 2, 2, 0, 4, 1, 6, 3, 0});
    guru_kernel k;
    ASSERT_EQ(guru_analyse(&L.mod.ptx, L.l.kernel, &k), 0);
    ASSERT_EQ(k.n_loads, 3u);
    EXPECT_EQ(k.n_unresolved, 2u);
    EXPECT_TRUE(k.loads[0].resolved) << "b[tid] is static";
    EXPECT_FALSE(k.loads[1].resolved);
    EXPECT_NE(strstr(k.loads[1].why, "depends on a global load"), nullptr) << k.loads[1].why;
    EXPECT_FALSE(k.loads[2].resolved);
    EXPECT_NE(strstr(k.loads[2].why, "control at line"), nullptr) << k.loads[2].why;
    guru_kernel_free(&k);
    // static refuses, auto falls back to the profiled graph
    lg_graph g;
    lg_source_info info;
    char msg[512] = "";
    EXPECT_EQ(lg_launch_graph(&L.l, LG_SRC_STATIC, LG_ELEMENT, 0, &g, &info, msg, sizeof msg), -1);
    EXPECT_NE(strstr(msg, "2 of 3 global loads"), nullptr) << msg;
    ASSERT_EQ(lg_launch_graph(&L.l, LG_SRC_AUTO, LG_ELEMENT, 0, &g, &info, msg, sizeof msg), 0) << msg;
    EXPECT_EQ(info.used, LG_SRC_PROFILED);
    EXPECT_EQ(info.unresolved, 2u);
    lg_graph_free(&g);
}

// A data-dependent branch after the last load ends the analysis of those threads: nothing is
// lost, every load resolves.
const char *kLateBranchKernel = R"(
.visible .entry k(.param .u64 a)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [a];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    shr.u32 %r2, %r1, 1;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r3, [%rd4];
    setp.eq.s32 %p1, %r3, 0;
    @%p1 bra $L_end;
    st.global.u32 [%rd4], 0;
$L_end:
    ret;
}
)";

TEST(LocalityGuru, BranchAfterTheLastLoadResolves)
{
    Launch L;
    prepare(L, std::string(kHeader) + kLateBranchKernel, "k", {{true, 256, 0}}, 2, 1, 8, 1);
    guru_kernel k;
    ASSERT_EQ(guru_analyse(&L.mod.ptx, L.l.kernel, &k), 0);
    EXPECT_EQ(k.n_unresolved, 0u);
    guru_kernel_free(&k);
    lg_graph g;
    expect_static_equals_profiled(L.l, &g);
    // both TBs read a[0..3] (tid / 2 for tid 0..7)
    EXPECT_EQ(lg_graph_get(&g, 0, 1), 4u);
    lg_graph_free(&g);
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

TEST(LocalityGuru, WorkedPatternMmN200)
{
    const uint32_t n = 200, bytes = n * n * 4;
    Launch L;
    prepare(L, slurp("sdk/matmul_naive/matmul_naive.ptx"), "mm_naive",
            {{true, bytes, 0}, {true, bytes, 0}, {true, bytes, 0}, {false, 0, n}}, 13, 13, 16, 16);
    lg_graph g;
    expect_static_equals_profiled(L.l, &g);
    for (uint32_t a = 0; a < 169; a++)
        for (uint32_t b = 0; b < 169; b++) {
            uint64_t want = 0;
            if (a != b && a / 13 == b / 13) want = a / 13 == 12 ? 1600 : 3200;
            if (a != b && a % 13 == b % 13) want = a % 13 == 12 ? 1600 : 3200;
            ASSERT_EQ(lg_graph_get(&g, a, b), want) << "TBs " << a << ", " << b;
        }
    lg_graph_free(&g);
}

TEST(LocalityGuru, WorkedPatternGemmN64)
{
    const uint32_t n = 64, bytes = n * n * 4;
    Launch L;
    prepare(L, slurp("polybench/gemm/gemm.ptx"), "gemm_kernel",
            {{false, 0, n}, {false, 0, n}, {false, 0, n}, {false, 0, fbits(1.5f)}, {false, 0, fbits(0.5f)},
             {true, bytes, 0}, {true, bytes, 0}, {true, bytes, 0}},
            2, 8, 32, 8);
    lg_graph g;
    expect_static_equals_profiled(L.l, &g);
    expect_rows_and_columns(g, 2, 8, 8 * 64, 32 * 64);
    lg_graph_free(&g);
}

TEST(LocalityGuru, WorkedPattern2mmN256)
{
    const uint32_t n = 256, bytes = n * n * 4;
    Launch L;
    prepare(L, slurp("polybench/2mm/2mm.ptx"), "mm2_kernel1",
            {{true, bytes, 0}, {true, bytes, 0}, {true, bytes, 0}, {false, 0, fbits(1.5f)}, {false, 0, n},
             {false, 0, n}, {false, 0, n}},
            8, 32, 32, 8);
    lg_graph g;
    expect_static_equals_profiled(L.l, &g);
    expect_rows_and_columns(g, 8, 32, 8 * 256, 32 * 256);
    lg_graph_free(&g);
}

// The closed form (warp runs, merged spans, sweep) and the lane-by-lane evaluation give the same
// graph, element and line granular, on the worked patterns, SYRK (uncoalesced lanes, unrolled loop
// offsets) and the hand-written loop with idle threads.
void expect_closed_equals_thread(const simt_launch &l)
{
    guru_kernel k;
    ASSERT_EQ(guru_analyse(&l.mod->ptx, l.kernel, &k), 0);
    for (int gran : {LG_ELEMENT, LG_LINE}) {
        lg_graph closed, thread;
        char msg[256] = "";
        ASSERT_EQ(guru_eval_graph(&k, &l, gran, 0, &closed, msg, sizeof msg), 0) << msg;
        ASSERT_EQ(guru_eval_graph(&k, &l, gran, 1, &thread, msg, sizeof msg), 0) << msg;
        uint32_t i = 0, j = 0;
        EXPECT_EQ(lg_graph_equal(&closed, &thread, &i, &j), 1)
            << l.kernel->name << " granularity " << gran << ": first difference at TBs " << i << ", " << j;
        lg_summary s;
        lg_graph_summary(&closed, &s);
        EXPECT_GT(s.total_weight, 0u) << l.kernel->name << ": a pattern that shares nothing tests nothing";
        lg_graph_free(&closed);
        lg_graph_free(&thread);
    }
    guru_kernel_free(&k);
}

TEST(LocalityGuru, ClosedFormEqualsPerThreadOnTheWorkedPatterns)
{
    {
        const uint32_t n = 200, bytes = n * n * 4;
        Launch L;
        prepare(L, slurp("sdk/matmul_naive/matmul_naive.ptx"), "mm_naive",
                {{true, bytes, 0}, {true, bytes, 0}, {true, bytes, 0}, {false, 0, n}}, 13, 13, 16, 16);
        expect_closed_equals_thread(L.l);
    }
    {
        const uint32_t n = 64, bytes = n * n * 4;
        Launch L;
        prepare(L, slurp("polybench/gemm/gemm.ptx"), "gemm_kernel",
                {{false, 0, n}, {false, 0, n}, {false, 0, n}, {false, 0, fbits(1.5f)}, {false, 0, fbits(0.5f)},
                 {true, bytes, 0}, {true, bytes, 0}, {true, bytes, 0}},
                2, 8, 32, 8);
        expect_closed_equals_thread(L.l);
    }
    {
        const uint32_t n = 128, bytes = n * n * 4;
        Launch L;
        prepare(L, slurp("polybench/2mm/2mm.ptx"), "mm2_kernel1",
                {{true, bytes, 0}, {true, bytes, 0}, {true, bytes, 0}, {false, 0, fbits(1.5f)}, {false, 0, n},
                 {false, 0, n}, {false, 0, n}},
                4, 16, 32, 8);
        expect_closed_equals_thread(L.l);
    }
    {
        const uint32_t n = 70, bytes = n * n * 4; // not a multiple of the block: idle lanes, 3-iteration tail
        Launch L;
        prepare(L, slurp("polybench/syrk/syrk.ptx"), "syrk_kernel",
                {{false, 0, n}, {false, 0, n}, {false, 0, fbits(1.5f)}, {false, 0, fbits(0.5f)}, {true, bytes, 0},
                 {true, bytes, 0}},
                3, 9, 32, 8);
        expect_closed_equals_thread(L.l);
    }
    {
        Launch L;
        prepare(L, std::string(kHeader) + kLoopKernel, "k", {{true, 256, 0}, {false, 0, 10}}, 3, 1, 4, 1);
        expect_closed_equals_thread(L.l);
    }
}

} // namespace

extern "C" {
#include "analysis/locality_refs.h"
}

namespace {

// Fig. 3.2's categories: element 0 read by two warps of TB0 (intra), element 1 by TB0 and TB1
// one warp each (inter), element 2 by two warps of TB0 and by TB1 (both), element 3 by one warp
// (unshared). Shares are of lane accesses.
TEST(LocalityRefs, CategoriesOfHandMadeAccesses)
{
    lg_refs r;
    lg_refs_init(&r, LG_ELEMENT);
    uint64_t addr[32] = {0};
    auto one = [&](uint32_t tb, uint64_t warp, uint64_t element) {
        addr[0] = element * 4;
        ASSERT_EQ(lg_refs_add_warp(&r, tb, warp, 1u, addr, 4), 0);
    };
    one(0, 0, 0), one(0, 1, 0);            // intra: 2 accesses
    one(0, 0, 1), one(1, 5, 1);            // inter: 2
    one(0, 0, 2), one(0, 1, 2), one(1, 5, 2); // both: 3
    one(1, 6, 3), one(1, 6, 3);            // unshared: 2 (one warp twice)
    lg_ref_breakdown k;
    ASSERT_EQ(lg_refs_breakdown(&r, &k), 0);
    EXPECT_EQ(k.accesses, 9u);
    EXPECT_EQ(k.intra, 2u);
    EXPECT_EQ(k.inter, 2u);
    EXPECT_EQ(k.both, 3u);
    EXPECT_EQ(k.unshared, 2u);
    lg_refs_free(&r);
}

} // namespace
