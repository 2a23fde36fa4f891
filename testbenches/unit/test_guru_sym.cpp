// LocalityGuru's symbolic closed form (guru_sym.h, docs/paver.md): the TB x TB sharing matrix from
// affine addresses over (tid, ctaid, loop indices) equals the stepped evaluation element for element
// on the affine PolyBench / SDK kernels (MM, GEMM, 2MM, SYRK, SYR2K, ATAX, BICG, MVT, 2D / 3D
// convolution; element and line granular, sizes that leave idle lanes and loop remainders), gives
// hand-computed values on a guarded kernel, and reports the load that falls back (a rem address, a
// thread-dependent loop exit, a 32-bit index that wraps).
#include "guru_launch_fixture.h"

extern "C" {
#include "analysis/guru_eval.h"
#include "analysis/guru_sym.h"
#include "analysis/locality_source.h"
}

using namespace guru_test;

namespace {

// Symbolic == stepped (closed) for both granularities; the pattern must share something.
void expect_symbolic_equals_stepped(const simt_launch &l)
{
    guru_kernel k;
    ASSERT_EQ(guru_analyse(&l.mod->ptx, l.kernel, &k), 0);
    ASSERT_EQ(k.n_unresolved, 0u) << l.kernel->name;
    for (int gran : {LG_ELEMENT, LG_LINE}) {
        lg_graph sym, step;
        char why[300] = "", msg[256] = "";
        ASSERT_EQ(guru_sym_graph(&k, &l, gran, &sym, why, sizeof why), 0) << l.kernel->name << ": " << why;
        ASSERT_EQ(guru_eval_graph(&k, &l, gran, 0, &step, msg, sizeof msg), 0) << msg;
        uint32_t i = 0, j = 0;
        EXPECT_EQ(lg_graph_equal(&sym, &step, &i, &j), 1)
            << l.kernel->name << " granularity " << gran << ": first difference at TBs " << i << ", " << j << ": "
            << lg_graph_get(&sym, i, j) << " vs " << lg_graph_get(&step, i, j);
        lg_summary s;
        lg_graph_summary(&sym, &s);
        EXPECT_GT(s.total_weight, 0u) << l.kernel->name << ": a pattern that shares nothing tests nothing";
        lg_graph_free(&sym);
        lg_graph_free(&step);
    }
    guru_kernel_free(&k);
}

Arg buf(uint32_t bytes) { return {true, bytes, 0}; }
Arg u32(uint32_t v) { return {false, 0, v}; }
Arg f32(float v) { return {false, 0, fbits(v)}; }

TEST(GuruSym, ClosedFormEqualsSteppedOnAffineKernels)
{
    const uint32_t n = 70, m = n * n * 4; // 70: idle lanes in the last TBs, loop remainders of 2
    struct Case {
        const char *ptx, *kernel;
        std::vector<Arg> args;
        uint32_t gx, gy, bx, by;
    };
    const std::vector<Case> cases = {
        {"sdk/matmul_naive/matmul_naive.ptx", "mm_naive", {buf(m), buf(m), buf(m), u32(n)}, 5, 5, 16, 16},
        {"polybench/gemm/gemm.ptx", "gemm_kernel",
         {u32(n), u32(n), u32(n), f32(1.5f), f32(0.5f), buf(m), buf(m), buf(m)}, 3, 9, 32, 8},
        {"polybench/2mm/2mm.ptx", "mm2_kernel1", {buf(m), buf(m), buf(m), f32(1.5f), u32(n), u32(n), u32(n)}, 3, 9, 32, 8},
        {"polybench/2mm/2mm.ptx", "mm2_kernel2", {buf(m), buf(m), buf(m), f32(0.5f), u32(n), u32(n), u32(n)}, 3, 9, 32, 8},
        {"polybench/syrk/syrk.ptx", "syrk_kernel", {u32(n), u32(n), f32(1.5f), f32(0.5f), buf(m), buf(m)}, 3, 9, 32, 8},
        {"polybench/syr2k/syr2k.ptx", "syr2k_kernel",
         {u32(n), u32(n), f32(1.5f), f32(0.5f), buf(m), buf(m), buf(m)}, 3, 9, 32, 8},
        {"polybench/atax/atax.ptx", "atax_kernel1", {buf(m), buf(m), buf(m), u32(n), u32(n)}, 3, 1, 32, 8},
        {"polybench/atax/atax.ptx", "atax_kernel2", {buf(m), buf(m), buf(m), u32(n), u32(n)}, 3, 1, 32, 8},
        {"polybench/bicg/bicg.ptx", "bicg_kernel1", {buf(m), buf(m), buf(m), u32(n), u32(n)}, 3, 1, 32, 1},
        {"polybench/bicg/bicg.ptx", "bicg_kernel2", {buf(m), buf(m), buf(m), u32(n), u32(n)}, 3, 1, 32, 1},
        {"polybench/mvt/mvt.ptx", "mvt_kernel1", {u32(n), buf(m), buf(m), buf(m), buf(m)}, 3, 1, 32, 1},
        {"polybench/2dconv/2dconv.ptx", "conv2d_kernel", {buf(m), buf(m), u32(n), u32(n)}, 3, 9, 32, 8},
        {"polybench/3dconv/3dconv.ptx", "conv3d_kernel", {buf(m * 20), buf(m * 20), u32(20), u32(n), u32(n), u32(5)},
         3, 9, 32, 8},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.kernel);
        Launch L;
        prepare(L, slurp(c.ptx), c.kernel, c.args, c.gx, c.gy, c.bx, c.by);
        expect_symbolic_equals_stepped(L.l);
    }
}

// a[2 * ctaid.x + tid.x] for tid.x < n (4 threads a TB, n = 3), twice in a loop of trip count 2 that
// adds 1 to the index: TB b reads {2b, ..., 2b + 3}, so L[b][b+1] = |{2b+2, 2b+3}| = 2, L[b][b+2] = 0.
const char *kGuarded = R"(
.visible .entry g(.param .u64 a, .param .u32 n)
{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<8>;
    .reg .f32 %f<3>;
    ld.param.u64 %rd1, [a];
    ld.param.u32 %r1, [n];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r2, %tid.x;
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra $L_end;
    mov.u32 %r3, %ctaid.x;
    shl.b32 %r4, %r3, 1;
    add.s32 %r5, %r4, %r2;
    mov.u32 %r6, 0;
$L_loop:
    add.s32 %r7, %r5, %r6;
    mul.wide.u32 %rd3, %r7, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f1, [%rd4];
    add.s32 %r6, %r6, 1;
    setp.lt.u32 %p2, %r6, 2;
    @%p2 bra $L_loop;
$L_end:
    ret;
}
)";

TEST(GuruSym, GuardedLoopHandComputed)
{
    Launch L;
    prepare(L, std::string(kHeader) + kGuarded, "g", {buf(256), u32(3)}, 4, 1, 4, 1);
    guru_kernel k;
    ASSERT_EQ(guru_analyse(&L.mod.ptx, L.l.kernel, &k), 0);
    lg_graph g;
    char why[300] = "";
    ASSERT_EQ(guru_sym_graph(&k, &L.l, LG_ELEMENT, &g, why, sizeof why), 0) << why;
    for (uint32_t a = 0; a < 4; a++)
        for (uint32_t b = 0; b < 4; b++) {
            uint64_t want = a != b && (a + 1 == b || b + 1 == a) ? 2 : 0;
            EXPECT_EQ(lg_graph_get(&g, a, b), want) << a << ", " << b;
        }
    guru_sym s;
    ASSERT_EQ(guru_sym_build(&k, &L.l, &s), 0);
    EXPECT_EQ(s.failed, 0);
    EXPECT_EQ(s.n_fallback, 0u);
    size_t loads = 0;
    for (size_t i = 0; i < s.n; i++)
        if (s.ev[i].kind == GS_LOAD) {
            loads++;
            EXPECT_EQ(s.ev[i].depth, 1u);
            EXPECT_EQ(s.ev[i].trip[0], 2u); // the exit solved: k = 0, 1
            EXPECT_EQ(s.ev[i].n_atoms, 1u); // tid.x < n as one atom: n - 1 - tid.x >= 0
        }
    EXPECT_EQ(loads, 1u);
    guru_sym_free(&s);
    lg_graph_free(&g);
    guru_kernel_free(&k);
}

// Nested loops: the outer i = 0, 1, 2 (setp.lt), the inner counts j down from 4 by 2 (setp.ne, nvcc's
// unrolled-loop form): a[ctaid.x * 4 + tid.x + 8 * i + j] for j = 4, 2. Trip counts 3 and 2, and the
// graph equals the stepped one.
const char *kNested = R"(
.visible .entry nest(.param .u64 a)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    .reg .f32 %f<2>;
    ld.param.u64 %rd1, [a];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    shl.b32 %r3, %r2, 2;
    add.s32 %r4, %r3, %r1;
    mov.u32 %r5, 0;
$L_outer:
    mov.u32 %r6, 4;
$L_inner:
    shl.b32 %r7, %r5, 3;
    add.s32 %r8, %r4, %r7;
    add.s32 %r9, %r8, %r6;
    mul.wide.s32 %rd3, %r9, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f1, [%rd4];
    add.s32 %r6, %r6, -2;
    setp.ne.s32 %p1, %r6, 0;
    @%p1 bra $L_inner;
    add.s32 %r5, %r5, 1;
    setp.lt.s32 %p2, %r5, 3;
    @%p2 bra $L_outer;
    ret;
}
)";

TEST(GuruSym, NestedLoopsTripCounts)
{
    Launch L;
    prepare(L, std::string(kHeader) + kNested, "nest", {buf(1024)}, 5, 1, 8, 1);
    expect_symbolic_equals_stepped(L.l);
    guru_kernel k;
    ASSERT_EQ(guru_analyse(&L.mod.ptx, L.l.kernel, &k), 0);
    guru_sym s;
    ASSERT_EQ(guru_sym_build(&k, &L.l, &s), 0);
    ASSERT_EQ(s.failed, 0) << s.why;
    size_t loads = 0;
    for (size_t i = 0; i < s.n; i++)
        if (s.ev[i].kind == GS_LOAD) {
            loads++;
            EXPECT_EQ(s.ev[i].depth, 2u);
            EXPECT_EQ(s.ev[i].trip[0], 3u);
            EXPECT_EQ(s.ev[i].trip[1], 2u);
            // 4 ctaid.x + tid.x + 8 k0 + (4 - 2 k1), times 4 bytes, plus the base
            EXPECT_EQ(s.ev[i].val.c[GA_TID], 4);
            EXPECT_EQ(s.ev[i].val.c[GA_CTAID], 16);
            EXPECT_EQ(s.ev[i].val.c[GA_K], 32);
            EXPECT_EQ(s.ev[i].val.c[GA_K + 1], -8);
        }
    EXPECT_EQ(loads, 1u);
    guru_sym_free(&s);
    guru_kernel_free(&k);
}

// Three kernels LocalityGuru resolves but the closed form cannot take: the fallback names the load.
const char *kFallbacks = R"(
.visible .entry rem_addr(.param .u64 a)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<6>;
    .reg .f32 %f<2>;
    ld.param.u64 %rd1, [a];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    rem.u32 %r2, %r1, 3;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f1, [%rd4];
    ret;
}
.visible .entry tid_loop(.param .u64 a)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<6>;
    .reg .f32 %f<2>;
    ld.param.u64 %rd1, [a];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, 0;
$L_t:
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f1, [%rd4];
    add.s32 %r2, %r2, 1;
    setp.le.u32 %p1, %r2, %r1;
    @%p1 bra $L_t;
    ret;
}
.visible .entry wraps(.param .u64 a)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<6>;
    .reg .f32 %f<2>;
    ld.param.u64 %rd1, [a];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    mul.lo.s32 %r2, %r1, 1073741824;
    mul.wide.s32 %rd3, %r2, 1;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f1, [%rd4];
    ret;
}
)";

void expect_fallback(const char *kernel, const char *reason)
{
    Launch L;
    prepare(L, std::string(kHeader) + kFallbacks, kernel, {buf(256)}, 2, 1, 4, 1);
    guru_kernel k;
    ASSERT_EQ(guru_analyse(&L.mod.ptx, L.l.kernel, &k), 0);
    ASSERT_EQ(k.n_unresolved, 0u) << kernel << ": LocalityGuru resolves it";
    lg_graph g;
    char why[300] = "";
    EXPECT_EQ(guru_sym_graph(&k, &L.l, LG_ELEMENT, &g, why, sizeof why), 1) << kernel;
    EXPECT_NE(std::string(why).find(reason), std::string::npos) << kernel << ": " << why;
    // the launch graph still comes out, stepped, and says why
    lg_source_info info;
    char msg[256] = "";
    ASSERT_EQ(lg_launch_graph(&L.l, LG_SRC_STATIC, LG_ELEMENT, LG_EVAL_SYMBOLIC, &g, &info, msg, sizeof msg), 0) << msg;
    EXPECT_EQ(info.symbolic, 0);
    EXPECT_EQ(std::string(info.sym_why), std::string(why));
    lg_graph_free(&g);
    guru_kernel_free(&k);
}

TEST(GuruSym, NonAffineLoadsAreReportedAndFallBack)
{
    expect_fallback("rem_addr", "1 of 1 loads fall back (lines 16); line 16: address not affine (line 13)");
    expect_fallback("tid_loop", "the loop's exit depends on the thread or block index");
    expect_fallback("wraps", "a value may wrap around its signed range (TB 0)");
}

} // namespace
