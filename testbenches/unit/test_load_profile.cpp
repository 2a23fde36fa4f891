// The load profile of a hand-made kernel whose strides and reuse are known exactly.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

extern "C" {
#include "analysis/load_profile.h"
#include "ptx/ptx_parse.h"
#include "simt/simt.h"
#include "simt/simt_run.h"
}

namespace {

// Thread t (global), warp w = t / 32, lane l:
//   pc A: a[t]                      one line per warp, warps 128 B apart
//   pc B: b[t * 32]                 32 lines per warp (lanes 128 B apart), warps 4096 B apart
//   pc C: c[(w % 2) * 32 + l]        two rows, alternating warps: 2 distinct lines
const char *kernel = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c)
{
    .reg .b32 %r<12>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd3, [c];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.s32 %r4, %r1, %r2, %r3;
    mul.wide.u32 %rd4, %r4, 4;
    add.s64 %rd5, %rd1, %rd4;
    ld.global.f32 %f1, [%rd5];
    mul.wide.u32 %rd6, %r4, 128;
    add.s64 %rd7, %rd2, %rd6;
    ld.global.f32 %f2, [%rd7];
    shr.u32 %r5, %r4, 5;
    and.b32 %r6, %r5, 1;
    and.b32 %r7, %r4, 31;
    mad.lo.s32 %r8, %r6, 32, %r7;
    mul.wide.u32 %rd8, %r8, 4;
    add.s64 %rd9, %rd3, %rd8;
    ld.global.f32 %f3, [%rd9];
    ret;
}
)";

void hook(const simt_launch *, const simt_warp *w, uint32_t, uint32_t pc, const simt_mem_access *acc, void *ctx)
{
    if (acc->space != PS_GLOBAL || acc->is_store || acc->is_atomic) return; /* global loads only */
    auto *p = static_cast<load_profile *>(ctx);
    uint64_t gw = (uint64_t)w->cta->ctaid[0] * w->cta->launch->threads_per_cta / 32 + w->id;
    load_profile_add(p, pc, pc, 0, gw, acc->mask, acc->addr, acc->bytes);
}

TEST(LoadProfile, KnownStridesAndReuse)
{
    dmem mem;
    dmem_init(&mem);
    ptx_module pm{};
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    ASSERT_EQ(ptx_parse("profile.ptx", kernel, strlen(kernel), &pm, &err, &warn), 0) << strbuf_str(&err);
    simt_module mod{};
    char msg[256];
    ASSERT_EQ(simt_module_load(&mod, &pm, &mem, msg, sizeof msg), 0) << msg;
    uint64_t a, b, c;
    ASSERT_EQ(dmem_alloc_bytes(&mem, 128 * 4, &a), 0);
    ASSERT_EQ(dmem_alloc_bytes(&mem, 128 * 128, &b), 0);
    ASSERT_EQ(dmem_alloc_bytes(&mem, 64 * 4, &c), 0);

    load_profile prof;
    load_profile_init(&prof);
    simt_launch l{};
    l.mod = &mod;
    l.kernel = ptx_module_find_func(&mod.ptx, "k");
    l.func_index = 0;
    l.grid[0] = 2;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = 64;
    l.block[1] = l.block[2] = 1;
    l.mem = &mem;
    l.on_mem = hook;
    l.on_mem_ctx = &prof;
    ASSERT_EQ(simt_launch_prepare(&l, msg, sizeof msg), 0) << msg;
    const void *args[] = {&a, &b, &c};
    const size_t sizes[] = {8, 8, 8};
    ASSERT_EQ(simt_pack_params(l.kernel, args, sizes, 3, &l.params, msg, sizeof msg), 0) << msg;
    simt_run_stats st{};
    simt_error e{};
    ASSERT_EQ(simt_run_functional(&l, 0, &st, &e), SIMT_OK);
    free(l.params);

    ASSERT_EQ(prof.n, 3u) << "three static global loads";
    size_t order[3];
    load_profile_order(&prof, order);
    const lp_load &strided = prof.loads[order[0]], &first = prof.loads[order[1]], &rows = prof.loads[order[2]];
    int64_t stride;
    double share;

    EXPECT_EQ(strided.executions, 4u);
    EXPECT_EQ(strided.line_requests, 4u * 32u);
    EXPECT_EQ(strided.sector_requests, 4u * 32u);
    EXPECT_EQ(strided.lines.n, 128u);
    load_profile_stride(&strided, &stride, &share);
    EXPECT_EQ(stride, 32 * 128);
    EXPECT_DOUBLE_EQ(share, 1.0);

    EXPECT_EQ(first.pc, 9u) << "a[t] (pc 9) is ordered before c[] by pc on equal requests";
    EXPECT_EQ(first.executions, 4u);
    EXPECT_EQ(first.line_requests, 4u);
    EXPECT_EQ(first.sector_requests, 16u);
    EXPECT_EQ(first.lines.n, 4u);
    load_profile_stride(&first, &stride, &share);
    EXPECT_EQ(stride, 128);
    EXPECT_DOUBLE_EQ(share, 1.0);

    EXPECT_EQ(rows.line_requests, 4u);
    EXPECT_EQ(rows.lines.n, 2u) << "two rows shared by alternating warps";
    load_profile_stride(&rows, &stride, &share);
    EXPECT_EQ(stride, 128);
    EXPECT_NEAR(share, 2.0 / 3.0, 1e-12) << "+128, -128, +128 between warps 0..3";
    EXPECT_EQ(prof.total_requests, 4u * 32u + 4u + 4u);

    load_profile_free(&prof);
    simt_module_free(&mod, &mem);
    dmem_free_all(&mem);
    strbuf_free(&err);
    strbuf_free(&warn);
}

} // namespace
