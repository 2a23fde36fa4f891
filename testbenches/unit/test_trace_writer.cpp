// The Accel-Sim trace writer on a hand-written kernel whose lines and addresses are known:
// header, CTA and warp structure, instruction counts, address compression, kernelslist.g.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "ptx/ptx_parse.h"
#include "simt/simt.h"
#include "simt/simt_run.h"
#include "trace/trace_sass_map.h"
#include "trace/trace_writer.h"
}

namespace {

// 3 CTAs of 64 threads (2 warps each); gid = ctaid * 64 + tid.
//   ld.global a[gid]                    coalesced: mode 1, base &a[first gid of the warp], stride 4
//   st.shared tile[tid * 2]             mode 1 in the shared window, stride 8
//   @even st.global b[gid]              lanes 0, 2, 4, ...: not contiguous, mode 0 with 16 addresses
const char *kernel = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry scale(.param .u64 a, .param .u64 b)
{
    .reg .pred %p<2>;
    .reg .b32 %r<10>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<8>;
    .shared .align 4 .b32 tile[128];
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mad.lo.s32 %r4, %r2, %r3, %r1;
    mul.wide.s32 %rd3, %r4, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.f32 %f1, [%rd4];
    shl.b32 %r5, %r1, 3;
    mov.u32 %r6, tile;
    add.s32 %r7, %r6, %r5;
    st.shared.f32 [%r7], %f1;
    bar.sync 0;
    and.b32 %r8, %r1, 1;
    setp.eq.s32 %p1, %r8, 0;
    add.s64 %rd5, %rd2, %rd3;
    @%p1 st.global.f32 [%rd5], %f1;
    ret;
}

.visible .entry many_regs(.param .u64 a)
{
    .reg .b32 %r<260>;
    mov.u32 %r255, %tid.x;
    mov.u32 %r254, %r255;
    ret;
}
)";

std::string slurp(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

std::vector<std::string> lines_of(const std::string &text)
{
    std::vector<std::string> v;
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l)) v.push_back(l);
    return v;
}

// Value of a "-key = value" header line, "" when absent.
std::string header_value(const std::vector<std::string> &lines, const std::string &key)
{
    std::string prefix = "-" + key + " = ";
    for (const std::string &l : lines)
        if (l.rfind(prefix, 0) == 0) return l.substr(prefix.size());
    return "";
}

std::string hex(uint64_t v)
{
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

std::string hex16(uint64_t v)
{
    char b[32];
    std::snprintf(b, sizeof b, "0x%016llx", static_cast<unsigned long long>(v));
    return b;
}

std::string pc_text(uint32_t index)
{
    char b[16];
    std::snprintf(b, sizeof b, "%04x", index * 16);
    return b;
}

class TraceWriterTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        dmem_init(&mem);
        ptx_module pm{};
        strbuf err, warn;
        strbuf_init(&err);
        strbuf_init(&warn);
        int rc = ptx_parse("trace.ptx", kernel, std::strlen(kernel), &pm, &err, &warn);
        std::string e = strbuf_str(&err);
        strbuf_free(&err);
        strbuf_free(&warn);
        ASSERT_EQ(rc, 0) << e;
        char msg[512] = "";
        ASSERT_EQ(simt_module_load(&mod, &pm, &mem, msg, sizeof msg), 0) << msg;
        loaded = true;
        ASSERT_EQ(dmem_alloc_bytes(&mem, 192 * 4, &a), 0);
        ASSERT_EQ(dmem_alloc_bytes(&mem, 192 * 4, &b), 0);
        dir = ::testing::TempDir() + "gtlm_trace_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    }
    void TearDown() override
    {
        if (loaded) simt_module_free(&mod, &mem);
        dmem_free_all(&mem);
    }

    // Runs kernel name over grid x 64 threads with the writer tracing it.
    void run(trace_writer *tw, const char *name, unsigned grid, unsigned nregs, simt_run_stats *stats,
             trace_written_kernel *info)
    {
        const ptx_func *k = ptx_module_find_func(&mod.ptx, name);
        ASSERT_NE(k, nullptr);
        simt_launch l{};
        l.mod = &mod;
        l.kernel = k;
        l.func_index = static_cast<uint32_t>(k - mod.ptx.funcs);
        l.grid[0] = grid;
        l.grid[1] = l.grid[2] = 1;
        l.block[0] = 64;
        l.block[1] = l.block[2] = 1;
        l.n_sms = 1;
        l.mem = &mem;
        char msg[512];
        ASSERT_EQ(simt_launch_prepare(&l, msg, sizeof msg), 0) << msg;
        const void *args[2] = {&a, &b};
        size_t sizes[2] = {8, 8};
        ASSERT_EQ(simt_pack_params(k, args, sizes, k->n_params, &l.params, msg, sizeof msg), 0) << msg;
        ASSERT_EQ(trace_writer_kernel_begin(tw, &l, nregs, msg, sizeof msg), 0) << msg;
        simt_error err{};
        simt_status st = simt_run_functional(&l, 0, stats, &err);
        free(l.params);
        ASSERT_EQ(st, SIMT_OK);
        ASSERT_EQ(trace_writer_kernel_end(tw, 1, info, msg, sizeof msg), 0) << msg;
    }

    // Index of the kernel's first instruction with op (and space, for memory ones).
    uint32_t find_instr(const char *name, ptx_op op, ptx_space space = PS_GENERIC)
    {
        const ptx_func *k = ptx_module_find_func(&mod.ptx, name);
        for (uint32_t i = 0; i < k->n_instrs; i++)
            if (k->instrs[i].op == op && (space == PS_GENERIC || k->instrs[i].space == space)) return i;
        ADD_FAILURE() << "no such instruction";
        return 0;
    }

    dmem mem;
    simt_module mod{};
    bool loaded = false;
    uint64_t a = 0, b = 0;
    std::string dir;
};

TEST_F(TraceWriterTest, HeaderStructureCountsAndAddresses)
{
    trace_writer *tw = nullptr;
    char msg[512];
    ASSERT_EQ(trace_writer_open(&tw, dir.c_str(), nullptr, msg, sizeof msg), 0) << msg;
    ASSERT_EQ(trace_writer_memcpy(tw, a, 768, msg, sizeof msg), 0);
    ASSERT_EQ(trace_writer_memcpy(tw, b, 768, msg, sizeof msg), 0);
    simt_run_stats stats{};
    trace_written_kernel info{};
    run(tw, "scale", 3, 17, &stats, &info);
    trace_writer_close(tw);

    // No branches: every warp runs all 21 instructions of the kernel.
    EXPECT_EQ(stats.warp_insn, 3u * 2u * 21u);
    EXPECT_EQ(info.kernel_id, 1u);
    EXPECT_EQ(info.warp_insn, stats.warp_insn);
    EXPECT_EQ(info.ctas, 3u);

    std::vector<std::string> lines = lines_of(slurp(dir + "/kernel-1.traceg"));
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(header_value(lines, "kernel name"), "scale");
    EXPECT_EQ(header_value(lines, "kernel id"), "1");
    EXPECT_EQ(header_value(lines, "grid dim"), "(3,1,1)");
    EXPECT_EQ(header_value(lines, "block dim"), "(64,1,1)");
    EXPECT_EQ(header_value(lines, "shmem"), "512"); // tile[128] of 4 bytes
    EXPECT_EQ(header_value(lines, "nregs"), "17");
    EXPECT_EQ(header_value(lines, "binary version"), "70");
    EXPECT_EQ(header_value(lines, "cuda stream id"), "0");
    EXPECT_EQ(header_value(lines, "shmem base_addr"), "0x0000f00000000000");
    EXPECT_EQ(header_value(lines, "local mem base_addr"), "0x0000f80000000000");
    EXPECT_EQ(header_value(lines, "accelsim tracer version"), "5");
    EXPECT_EQ(header_value(lines, "enable lineinfo"), "0");

    // Walk the body: CTAs in order, warps 0 and 1 in each, "insts =" equal to the lines below it.
    unsigned ctas = 0, ends = 0;
    uint64_t insts_sum = 0;
    std::vector<std::string> ld_lines, sts_lines, stg_lines;
    for (size_t i = 0; i < lines.size(); i++) {
        const std::string &l = lines[i];
        if (l == "#BEGIN_TB") {
            ASSERT_LT(i + 2, lines.size());
            EXPECT_EQ(lines[i + 2], "thread block = " + std::to_string(ctas) + ",0,0");
            ctas++;
        } else if (l == "#END_TB") {
            ends++;
        } else if (l.rfind("warp = ", 0) == 0) {
            ASSERT_LT(i + 1, lines.size());
            unsigned long long n = 0;
            ASSERT_EQ(std::sscanf(lines[i + 1].c_str(), "insts = %llu", &n), 1) << lines[i + 1];
            insts_sum += n;
            size_t k = i + 2, count = 0;
            while (k < lines.size() && !lines[k].empty()) {
                if (lines[k].find(" LDG.E ") != std::string::npos) ld_lines.push_back(lines[k]);
                if (lines[k].find(" STS ") != std::string::npos) sts_lines.push_back(lines[k]);
                if (lines[k].find(" STG.E ") != std::string::npos) stg_lines.push_back(lines[k]);
                k++;
                count++;
            }
            EXPECT_EQ(count, n) << "warp at line " << i;
        }
    }
    EXPECT_EQ(ctas, 3u);
    EXPECT_EQ(ends, 3u);
    EXPECT_EQ(insts_sum, stats.warp_insn);

    // The load of CTA 1, warp 1: lanes 0..31 read a[96..127].
    const ptx_func *k = ptx_module_find_func(&mod.ptx, "scale");
    uint32_t ld = find_instr("scale", OP_LD, PS_GLOBAL);
    const ptx_instr &in = k->instrs[ld];
    ASSERT_EQ(ld_lines.size(), 6u);
    EXPECT_EQ(ld_lines[3], pc_text(ld) + " ffffffff 1 R" + std::to_string(in.dst[0]) + " LDG.E 1 R" +
                               std::to_string(in.src[0]) + " 4 1 " + hex(a + 96 * 4) + " 4 0 ");
    // The shared store of warp 1 (any CTA): tile offset 32 * 8 = 256 + lane * 8.
    ASSERT_EQ(sts_lines.size(), 6u);
    EXPECT_NE(sts_lines[1].find(" STS 2 "), std::string::npos) << sts_lines[1];
    EXPECT_NE(sts_lines[1].find(" 4 1 " + hex(0x0000F00000000000ull + 256) + " 8 0 "), std::string::npos) << sts_lines[1];
    // The guarded store of CTA 0, warp 0: even lanes, listed one by one.
    ASSERT_EQ(stg_lines.size(), 6u);
    std::string expect = " 55555555 0 STG.E 2 ";
    EXPECT_NE(stg_lines[0].find(expect), std::string::npos) << stg_lines[0];
    std::string addrs = " 4 0";
    for (int lane = 0; lane < 32; lane += 2) addrs += " " + hex16(b + lane * 4);
    EXPECT_NE(stg_lines[0].find(addrs + " 0 "), std::string::npos) << stg_lines[0];

    // kernelslist.g: the copies in order, then the kernel.
    std::vector<std::string> list = lines_of(slurp(dir + "/kernelslist.g"));
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[0], "MemcpyHtoD," + hex16(a) + ",768");
    EXPECT_EQ(list[1], "MemcpyHtoD," + hex16(b) + ",768");
    EXPECT_EQ(list[2], "kernel-1.traceg");
}

TEST_F(TraceWriterTest, SecondLaunchIsKernelTwoAndRegistersSkipRZ)
{
    trace_writer *tw = nullptr;
    char msg[512];
    ASSERT_EQ(trace_writer_open(&tw, dir.c_str(), nullptr, msg, sizeof msg), 0) << msg;
    simt_run_stats stats{};
    trace_written_kernel info{};
    run(tw, "scale", 1, 17, &stats, &info);
    run(tw, "many_regs", 1, 255, &stats, &info);
    EXPECT_EQ(info.kernel_id, 2u);
    EXPECT_EQ(trace_writer_kernels(tw), 2u);
    trace_writer_close(tw);
    std::vector<std::string> lines = lines_of(slurp(dir + "/kernel-2.traceg"));
    EXPECT_EQ(header_value(lines, "kernel id"), "2");
    EXPECT_EQ(header_value(lines, "kernel name"), "many_regs");
    // Slots 255 and 254 of %r255 and %r254 (the only register declaration): 255 would be RZ.
    const ptx_func *k = ptx_module_find_func(&mod.ptx, "many_regs");
    ASSERT_STREQ(k->regs[255].name, "%r255");
    // Code of the second kernel starts after the first kernel's 21 instructions.
    std::string s2r = pc_text(21) + " ffffffff 1 R256 S2R 0 0 0 ";
    std::string mov = pc_text(22) + " ffffffff 1 R254 MOV 1 R256 0 0 ";
    bool found_s2r = false, found_mov = false;
    for (const std::string &l : lines) {
        found_s2r |= l == s2r;
        found_mov |= l == mov;
    }
    EXPECT_TRUE(found_s2r) << s2r;
    EXPECT_TRUE(found_mov) << mov;
    std::vector<std::string> list = lines_of(slurp(dir + "/kernelslist.g"));
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[1], "kernel-2.traceg");
}

TEST_F(TraceWriterTest, SpillingToATemporaryFileGivesTheSameTrace)
{
    char msg[512];
    simt_run_stats stats{};
    trace_writer *tw = nullptr;
    ASSERT_EQ(trace_writer_open(&tw, dir.c_str(), nullptr, msg, sizeof msg), 0) << msg;
    run(tw, "scale", 3, 17, &stats, nullptr);
    trace_writer_close(tw);
    std::string whole = slurp(dir + "/kernel-1.traceg");

    trace_writer_opts o{};
    o.spill_bytes = 64; // about every line spills
    std::string dir2 = dir + "_spill";
    ASSERT_EQ(trace_writer_open(&tw, dir2.c_str(), &o, msg, sizeof msg), 0) << msg;
    run(tw, "scale", 3, 17, &stats, nullptr);
    trace_writer_close(tw);
    EXPECT_FALSE(whole.empty());
    EXPECT_EQ(slurp(dir2 + "/kernel-1.traceg"), whole);
}

TEST_F(TraceWriterTest, FailedLaunchIsNeitherKeptNorListed)
{
    trace_writer *tw = nullptr;
    char msg[512];
    ASSERT_EQ(trace_writer_open(&tw, dir.c_str(), nullptr, msg, sizeof msg), 0) << msg;
    const ptx_func *k = ptx_module_find_func(&mod.ptx, "scale");
    simt_launch l{};
    l.mod = &mod;
    l.kernel = k;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 64;
    l.block[1] = l.block[2] = 1;
    l.mem = &mem;
    ASSERT_EQ(simt_launch_prepare(&l, msg, sizeof msg), 0) << msg;
    ASSERT_EQ(trace_writer_kernel_begin(tw, &l, 8, msg, sizeof msg), 0) << msg;
    EXPECT_EQ(trace_writer_kernel_end(tw, 0, nullptr, msg, sizeof msg), 0) << msg;
    EXPECT_EQ(trace_writer_kernels(tw), 0u);
    trace_writer_close(tw);
    EXPECT_EQ(slurp(dir + "/kernelslist.g"), "");
    EXPECT_EQ(std::fopen((dir + "/kernel-1.traceg").c_str(), "r"), nullptr);
}

} // namespace
