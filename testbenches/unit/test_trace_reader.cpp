// Accel-Sim trace reader: the six public sample traces (testbenches/data/traces), every address
// compression mode on hand-written lines, and malformed traces reported at the right file:line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "ptx/ptx_ir.h"
#include "trace/trace_reader.h"
}

namespace {

std::string data_dir(const std::string &folder) { return std::string(GTLM_TEST_DATA) + "/traces/" + folder; }

// Independent count of a kernel file's body: the sum of its "insts = N" lines and its blocks.
void scan_counts(const std::string &path, uint64_t &insts, uint64_t &tbs)
{
    std::ifstream f(path);
    std::string line;
    insts = tbs = 0;
    while (std::getline(f, line)) {
        if (line.rfind("insts = ", 0) == 0) insts += std::stoull(line.substr(8));
        if (line.rfind("#BEGIN_TB", 0) == 0) tbs++;
    }
}

struct KernelTotals {
    uint64_t tbs = 0, insts = 0;
    std::string err;
};

// Reads every block of one kernel and checks the per-block invariants on the way.
KernelTotals read_kernel(const std::string &path, trace_opcode_table *ops, int unknown_as_alu = 0)
{
    KernelTotals t;
    strbuf err;
    strbuf_init(&err);
    trace_kernel *k = trace_kernel_open(path.c_str(), ops, unknown_as_alu, &err);
    if (!k) {
        t.err = strbuf_str(&err);
        strbuf_free(&err);
        return t;
    }
    trace_tb tb{};
    int rc;
    while ((rc = trace_kernel_next_tb(k, &tb, &err)) == 1) {
        t.tbs++;
        t.insts += tb.n_insns;
        uint64_t sum = 0;
        for (uint32_t w = 0; w < tb.n_warps; w++) {
            EXPECT_LE(tb.warps[w].first + tb.warps[w].n, tb.n_insns);
            sum += tb.warps[w].n;
        }
        EXPECT_EQ(sum, tb.n_insns);
        for (uint32_t i = 0; i < tb.n_insns; i++) {
            const trace_insn &in = tb.insns[i];
            const trace_op_info *info = trace_opcode_info(ops, in.op);
            EXPECT_EQ(trace_op_is_memory(info->cls), in.addr_at != TRACE_NO_ADDR) << trace_opcode_name(ops, in.op);
            if (in.addr_at != TRACE_NO_ADDR) {
                EXPECT_LE(in.addr_at + (uint32_t)__builtin_popcount(in.mask), tb.n_addrs);
                EXPECT_GT(in.mem_width, 0);
            }
        }
    }
    if (rc < 0) t.err = strbuf_str(&err);
    trace_tb_free(&tb);
    trace_kernel_close(k);
    strbuf_free(&err);
    return t;
}

std::vector<trace_cmd> list(const std::string &dir, std::string *errout = nullptr)
{
    trace_cmd *cmds = nullptr;
    size_t n = 0;
    strbuf err;
    strbuf_init(&err);
    int rc = trace_list_read(dir.c_str(), &cmds, &n, &err);
    if (errout) *errout = strbuf_str(&err);
    std::vector<trace_cmd> v;
    if (rc == 0)
        for (size_t i = 0; i < n; i++) {
            v.push_back(cmds[i]);
            v.back().path = cmds[i].path ? strdup(cmds[i].path) : nullptr;
        }
    trace_list_free(cmds, n);
    strbuf_free(&err);
    return v;
}

void free_list(std::vector<trace_cmd> &v)
{
    for (auto &c : v) free(c.path);
    v.clear();
}

// A scratch directory for hand-written traces, removed at the end of the test.
struct TempDir {
    std::string path;
    TempDir()
    {
        std::string tmpl = (std::filesystem::temp_directory_path() / "gtlm_trace_XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string write(const std::string &name, const std::string &text) const
    {
        std::ofstream(path + "/" + name) << text;
        return path + "/" + name;
    }
};

// Header of a hand-written kernel: one block of 64 threads (2 warps), binary version 70.
std::string header(int tracer_version, const char *grid = "(1,1,1)")
{
    std::ostringstream s;
    s << "-kernel name = _Z4testv\n-kernel id = 3\n-grid dim = " << grid << "\n-block dim = (64,1,1)\n"
      << "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n";
    if (tracer_version) s << "-accelsim tracer version = " << tracer_version << "\n";
    s << "\n#traces format = ...\n";
    return s.str(); // 11 lines with a tracer version, 10 without
}

// The first error of reading a whole hand-written kernel ("" when it reads cleanly).
std::string first_error(const std::string &path, int unknown_as_alu = 0, uint64_t *unknown_uses = nullptr)
{
    trace_opcode_table ops;
    trace_opcode_table_init(&ops);
    KernelTotals t = read_kernel(path, &ops, unknown_as_alu);
    if (unknown_uses) *unknown_uses = trace_opcode_unknown_uses(&ops);
    trace_opcode_table_free(&ops);
    return t.err;
}

struct Expect {
    const char *folder;
    size_t kernels;
    uint64_t insts_per_kernel; // grep "^insts" FILE | awk '{s+=$3} END {print s}'
    uint64_t tbs_per_kernel;   // grep -c "^#BEGIN_TB" FILE, equal to the grid size
};

const Expect kTraces[] = {
    {"microgpusim-vectoradd-100-32", 1, 344, 1},   {"microgpusim-matrixmul-32-32", 1, 4416, 1},
    {"accelsimhbf-lud-kernel8", 1, 1027, 1},        {"mgpusim-simple-trace-example", 1, 26601, 196},
    {"mgpusim-btree-128-1000", 2, 21832, 8},        {"mgpusim-ffma-1-32-40", 1, 5288, 1},
};

TEST(TraceReaderTest, EverySampleTraceReadsCompletelyWithKnownOpcodes)
{
    for (const Expect &e : kTraces) {
        SCOPED_TRACE(e.folder);
        std::vector<trace_cmd> cmds = list(data_dir(e.folder));
        trace_opcode_table ops;
        trace_opcode_table_init(&ops);
        size_t kernels = 0;
        for (const trace_cmd &c : cmds) {
            if (c.kind != TRACE_CMD_KERNEL) continue;
            kernels++;
            uint64_t insts, tbs;
            scan_counts(c.path, insts, tbs);
            KernelTotals t = read_kernel(c.path, &ops, 0); // every opcode must be known
            EXPECT_EQ(t.err, "");
            EXPECT_EQ(t.insts, insts);
            EXPECT_EQ(t.insts, e.insts_per_kernel);
            EXPECT_EQ(t.tbs, tbs);
            EXPECT_EQ(t.tbs, e.tbs_per_kernel);
        }
        EXPECT_EQ(kernels, e.kernels);
        EXPECT_EQ(trace_opcode_unknown_uses(&ops), 0u);
        trace_opcode_table_free(&ops);
        free_list(cmds);
    }
}

TEST(TraceReaderTest, KernelListHasCopiesThenKernelsWithTheirLines)
{
    std::vector<trace_cmd> c = list(data_dir("mgpusim-btree-128-1000"));
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0].kind, TRACE_CMD_MEMCPY_HTOD);
    EXPECT_EQ(c[0].addr, 0x00007f1269c00000ull);
    EXPECT_EQ(c[0].bytes, 43560u);
    EXPECT_EQ(c[1].addr, 0x00007f1269c0ac00ull);
    EXPECT_EQ(c[1].bytes, 4000u);
    EXPECT_EQ(c[2].kind, TRACE_CMD_KERNEL);
    EXPECT_EQ(std::string(c[2].path), data_dir("mgpusim-btree-128-1000") + "/kernel-1-ctx_0x5607b0e17740.traceg");
    EXPECT_EQ(c[3].line, 4u);
    free_list(c);
}

TEST(TraceReaderTest, HeadersOfNewAndOldFormat)
{
    trace_opcode_table ops;
    trace_opcode_table_init(&ops);
    strbuf err;
    strbuf_init(&err);
    trace_kernel *k =
        trace_kernel_open((data_dir("mgpusim-btree-128-1000") + "/kernel-2-ctx_0x5607b0e17740.traceg").c_str(), &ops, 0, &err);
    ASSERT_NE(k, nullptr) << strbuf_str(&err);
    const trace_kernel_info *in = trace_kernel_info_of(k);
    EXPECT_STREQ(in->name, "_Z15find_key_kernelPK5knodeiPKiPii");
    EXPECT_EQ(in->id, 2u);
    EXPECT_EQ(in->grid[0], 8u);
    EXPECT_EQ(in->block[0], 128u);
    EXPECT_EQ(in->nregs, 32u);
    EXPECT_EQ(in->binary_version, 90u);
    EXPECT_EQ(in->tracer_version, 5u);
    EXPECT_EQ(in->shmem_base, 0x00007f1300000000ull);
    EXPECT_EQ(in->local_base, 0x00007f12a5000000ull);
    EXPECT_EQ(in->n_tbs, 8u);
    EXPECT_EQ(in->warps_per_tb, 4u);
    trace_kernel_close(k);
    k = trace_kernel_open((data_dir("accelsimhbf-lud-kernel8") + "/kernel-8.traceg").c_str(), &ops, 0, &err);
    ASSERT_NE(k, nullptr) << strbuf_str(&err);
    in = trace_kernel_info_of(k);
    EXPECT_EQ(in->tracer_version, 0u); // no "-accelsim tracer version": old format
    EXPECT_EQ(in->binary_version, 70u);
    EXPECT_EQ(in->shmem, 3072u);
    EXPECT_EQ(in->nregs, 166u);
    EXPECT_EQ(in->shmem_base, 0u);
    trace_kernel_close(k);
    trace_opcode_table_free(&ops);
    strbuf_free(&err);
}

// Reads the first block of a kernel and hands it to a check.
template <class F> void with_first_tb(const std::string &path, F check)
{
    trace_opcode_table ops;
    trace_opcode_table_init(&ops);
    strbuf err;
    strbuf_init(&err);
    trace_kernel *k = trace_kernel_open(path.c_str(), &ops, 0, &err);
    ASSERT_NE(k, nullptr) << strbuf_str(&err);
    trace_tb tb{};
    ASSERT_EQ(trace_kernel_next_tb(k, &tb, &err), 1) << strbuf_str(&err);
    check(tb, ops);
    trace_tb_free(&tb);
    trace_kernel_close(k);
    trace_opcode_table_free(&ops);
    strbuf_free(&err);
}

// The first instruction of a warp at pc (with that mask, when one is given).
const trace_insn *find_pc(const trace_tb &tb, uint32_t warp, uint64_t pc, int64_t mask = -1)
{
    for (uint32_t i = 0; i < tb.warps[warp].n; i++) {
        const trace_insn *in = &tb.insns[tb.warps[warp].first + i];
        if (in->pc == pc && (mask < 0 || in->mask == (uint32_t)mask)) return in;
    }
    return nullptr;
}

TEST(TraceReaderTest, SpotChecksOfSampleLines)
{
    // lud (old format): "0 0 0 0 0000 00000000 0 SHFL.IDX 4 R255 R255 R255 R255 0" and
    // "0 0 0 0 0290 ffff0000 1 R8 LDG.E.SYS 1 R2 4 1 0x00007fe033702880 4"
    with_first_tb(data_dir("accelsimhbf-lud-kernel8") + "/kernel-8.traceg", [](const trace_tb &tb, trace_opcode_table &ops) {
        const trace_insn &a = tb.insns[tb.warps[0].first];
        EXPECT_EQ(a.pc, 0u);
        EXPECT_EQ(a.mask, 0u);
        EXPECT_EQ(a.ndst, 0);
        EXPECT_EQ(a.nsrc, 0); // four R255 dropped
        EXPECT_STREQ(trace_opcode_name(&ops, a.op), "SHFL.IDX");
        EXPECT_EQ(trace_opcode_info(&ops, a.op)->cls, TOC_INT);
        const trace_insn *l = find_pc(tb, 0, 0x290);
        ASSERT_NE(l, nullptr);
        EXPECT_EQ(l->mask, 0xffff0000u);
        EXPECT_EQ(l->ndst, 1);
        EXPECT_EQ(l->dst[0], 8);
        EXPECT_EQ(l->src[0], 2);
        EXPECT_EQ(trace_opcode_info(&ops, l->op)->cls, TOC_LOAD);
        EXPECT_EQ(trace_opcode_info(&ops, l->op)->space, PS_GLOBAL);
        EXPECT_EQ(l->mem_width, 4);
        for (int i = 0; i < 16; i++) EXPECT_EQ(tb.addrs[l->addr_at + i], 0x00007fe033702880ull + 4 * i);
    });
    // matrixmul: "0278 ffffffff 1 R12 LDS.U.128 1 R2 16 1 0x0 0" (a broadcast, stride 0)
    with_first_tb(data_dir("microgpusim-matrixmul-32-32") + "/kernel-1.traceg", [](const trace_tb &tb, trace_opcode_table &ops) {
        EXPECT_EQ(tb.n_warps, 32u);
        const trace_insn *l = find_pc(tb, 0, 0x278);
        ASSERT_NE(l, nullptr);
        EXPECT_EQ(trace_opcode_info(&ops, l->op)->space, PS_SHARED);
        EXPECT_EQ(l->mem_width, 16);
        EXPECT_EQ(tb.addrs[l->addr_at], 0u);
        EXPECT_EQ(tb.addrs[l->addr_at + 31], 0u);
    });
    // btree, block 0 warp 0, mode 2 (base + deltas):
    // "0870 f1ffffff 1 R28 LDL 1 R6 4 2 0xfffc50 0 (x12) 4 0 (x11) -4 0 0 0 0" (the last 0 is the immediate)
    // "08b0 ffffffff 1 R12 LDG.E 1 R28 4 2 0x7f1269c00108 0 (x12) 264 0 (x11) 264 0 0 -528 0 0 0 0"
    with_first_tb(data_dir("mgpusim-btree-128-1000") + "/kernel-1-ctx_0x5607b0e17740.traceg",
                  [](const trace_tb &tb, trace_opcode_table &ops) {
                      const trace_insn *l = find_pc(tb, 0, 0x870, 0xf1ffffff);
                      ASSERT_NE(l, nullptr);
                      EXPECT_EQ(trace_opcode_info(&ops, l->op)->space, PS_LOCAL);
                      std::vector<uint64_t> want;
                      for (int lane = 0; lane < 32; lane++) {
                          if (lane >= 25 && lane <= 27) continue; // inactive
                          want.push_back(lane >= 13 && lane <= 24 ? 0xfffc54 : 0xfffc50);
                      }
                      ASSERT_EQ(want.size(), 29u);
                      for (size_t i = 0; i < want.size(); i++) EXPECT_EQ(tb.addrs[l->addr_at + i], want[i]) << i;
                      const trace_insn *g = find_pc(tb, 0, 0x8b0);
                      ASSERT_NE(g, nullptr);
                      for (int lane = 0; lane < 32; lane++) {
                          uint64_t off = lane >= 13 && lane <= 24 ? 264 : lane >= 25 && lane <= 27 ? 528 : 0;
                          EXPECT_EQ(tb.addrs[g->addr_at + lane], 0x7f1269c00108ull + off) << lane;
                      }
                  });
    // simple-trace-example block 0 warp 0: "00a0 ffffffff 1 R4 LDG.E 1 R4 4 1 0x7fb0fc430e00 4 0",
    // "0070 ffffffff 0 ULDC.64 0 0 0" (a constant load without addresses: integer pipeline)
    with_first_tb(data_dir("mgpusim-simple-trace-example") + "/kernel-1.traceg", [](const trace_tb &tb, trace_opcode_table &ops) {
        EXPECT_EQ(tb.warps[0].n, 17u);
        const trace_insn *l = find_pc(tb, 0, 0xa0);
        ASSERT_NE(l, nullptr);
        EXPECT_EQ(tb.addrs[l->addr_at + 31], 0x7fb0fc430e00ull + 31 * 4);
        const trace_insn *u = find_pc(tb, 0, 0x70);
        ASSERT_NE(u, nullptr);
        EXPECT_EQ(trace_opcode_info(&ops, u->op)->cls, TOC_INT);
        EXPECT_EQ(u->addr_at, TRACE_NO_ADDR);
        EXPECT_EQ(u->mem_width, 0);
    });
    // ffma (Hopper): "0040 ffffffff 1 R3 HFMA2.MMA 2 R255 R255 0 0", "0030 00000000 0 EXIT 0 0 0"
    with_first_tb(data_dir("mgpusim-ffma-1-32-40") + "/kernel-1-ctx_0x55d7208ae730.traceg",
                  [](const trace_tb &tb, trace_opcode_table &ops) {
                      const trace_insn *h = find_pc(tb, 0, 0x40);
                      ASSERT_NE(h, nullptr);
                      EXPECT_EQ(h->dst[0], 3);
                      EXPECT_EQ(h->nsrc, 0);
                      EXPECT_EQ(trace_opcode_info(&ops, h->op)->cls, TOC_SP);
                      const trace_insn *x = find_pc(tb, 0, 0x30);
                      ASSERT_NE(x, nullptr);
                      EXPECT_EQ(trace_opcode_info(&ops, x->op)->cls, TOC_EXIT);
                      EXPECT_EQ(x->mask, 0u);
                  });
}

// Hand-written lines of every compression mode, for tracer version 4 (no immediate) and 5.
TEST(TraceReaderTest, CompressionModesGiveHandComputedAddresses)
{
    for (int version : {4, 5}) {
        SCOPED_TRACE(version);
        const char *imm = version >= 5 ? " 0" : "";
        std::ostringstream body;
        body << "#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\ninsts = 6\n"
             << "0000 0000000f 1 R2 LDG.E 1 R4 4 0 0x100 0x200 0000000000000300 0x400" << imm << "\n" // mode 0
             << "0010 0000fff0 1 R2 LDG.E.64 1 R4 4 1 0x1000 8" << imm << "\n"                       // lanes 4..15
             << "0020 00000007 0 STS.U8 2 R4 R5 4 1 0x2000 -4" << imm << "\n"                        // negative stride
             << "0030 80000101 1 R6 LD.E.U16 1 R4 4 2 0x5000 16 -8" << imm << "\n"                   // lanes 0, 8, 31
             << "0040 00000100 1 R6 ATOMS.ADD 1 R4 4 2 0x7000" << imm << "\n"                        // one lane, no delta
             << "0050 ffffffff 0 EXIT 0 0" << imm << "\n#END_TB\n";
        TempDir d;
        std::string path = d.write("kernel-1.traceg", header(version) + body.str());
        with_first_tb(path, [](const trace_tb &tb, trace_opcode_table &ops) {
            EXPECT_EQ(tb.n_warps, 2u);
            EXPECT_EQ(tb.warps[0].n, 0u);
            ASSERT_EQ(tb.warps[1].n, 6u);
            const trace_insn *in = tb.insns;
            const uint64_t *a = tb.addrs;
            EXPECT_EQ(in[0].addr_at, 0u);
            EXPECT_EQ(a[0], 0x100u);
            EXPECT_EQ(a[2], 0x300u);
            EXPECT_EQ(a[3], 0x400u);
            EXPECT_EQ(in[0].mem_width, 4);
            EXPECT_EQ(in[1].addr_at, 4u);
            for (int i = 0; i < 12; i++) EXPECT_EQ(a[4 + i], 0x1000u + 8 * i);
            EXPECT_EQ(in[1].mem_width, 8); // from ".64", not the line's 4
            EXPECT_EQ(in[2].addr_at, 16u);
            EXPECT_EQ(a[16], 0x2000u);
            EXPECT_EQ(a[17], 0x1ffcu);
            EXPECT_EQ(a[18], 0x1ff8u);
            EXPECT_EQ(in[2].mem_width, 1);
            EXPECT_EQ(in[2].nsrc, 2);
            EXPECT_EQ(trace_opcode_info(&ops, in[2].op)->cls, TOC_STORE);
            EXPECT_EQ(in[3].addr_at, 19u);
            EXPECT_EQ(a[19], 0x5000u);
            EXPECT_EQ(a[20], 0x5010u);
            EXPECT_EQ(a[21], 0x5008u);
            EXPECT_EQ(in[3].mem_width, 2);
            EXPECT_EQ(trace_opcode_info(&ops, in[3].op)->space, PS_GENERIC);
            EXPECT_EQ(in[4].addr_at, 22u);
            EXPECT_EQ(a[22], 0x7000u);
            EXPECT_EQ(trace_opcode_info(&ops, in[4].op)->cls, TOC_ATOMIC);
            EXPECT_EQ(in[5].addr_at, TRACE_NO_ADDR);
            EXPECT_EQ(tb.n_addrs, 23u);
        });
    }
}

struct Bad {
    const char *what, *lines; // instruction lines of warp 0 (after "insts = N" on line 14)
    int insts;
    const char *message;
    int line;
};

TEST(TraceReaderTest, MalformedTracesNameFileAndLine)
{
    // header(4) is 11 lines: line 12 "#BEGIN_TB", 13 "thread block", 14 "warp = 0", 15 "insts", 16 the first instruction
    const Bad cases[] = {
        {"truncated", "0000 ffffffff 1 R1 MOV 0 0\n0010 ffffffff 1 R27\n", 2, "expected an opcode", 17},
        {"bad mask", "0000 fffffzff 1 R1 MOV 0 0\n", 1, "expected an active mask of 8 hex digits, found 'fffffzff'", 16},
        {"short mask", "0000 ffffff 1 R1 MOV 0 0\n", 1, "8 hex digits", 16},
        {"mode 7", "0000 ffffffff 1 R1 MOV 0 0\n0010 ffffffff 1 R2 LDG.E 1 R4 4 7 0x100 4\n", 2,
         "unknown address compression mode 7", 17},
        {"unknown opcode", "0000 ffffffff 1 R1 MOV 0 0\n0010 ffffffff 1 R1 FOO.BAR 0 0\n", 2, "unknown opcode 'FOO.BAR'", 17},
        {"too few", "0000 ffffffff 1 R1 MOV 0 0\n0010 ffffffff 1 R1 MOV 0 0\n0020 ffffffff 1 R1 MOV 0 0\n"
                    "0030 ffffffff 1 R1 MOV 0 0\n",
         5, "expected instruction 5 of 5 of warp 0 ('insts = 5' at line 15), found '#END_TB'", 20},
        {"too many", "0000 ffffffff 1 R1 MOV 0 0\n0010 ffffffff 1 R1 MOV 0 0\n", 1,
         "expected 'warp = N' or '#END_TB', found '0010", 17},
        {"register", "0000 ffffffff 1 R65536 MOV 0 0\n", 1, "expected destination register 1 of 1 (R0..R65535), found 'R65536'", 16},
        {"dst count", "0000 ffffffff 5 R1 R2 R3 R4 R5 MOV 0 0\n", 1, "destination register count 0..4", 16},
        {"few addresses", "0000 0000000f 1 R2 LDG.E 1 R4 4 0 0x100 0x200 0x300\n", 1, "expected address 4 of 4", 16},
        {"extra address", "0000 00000003 1 R2 LDG.E 1 R4 4 2 0x100 8 8\n", 1, "expected end of line after 'LDG.E', found '8'", 16},
        {"width on alu", "0000 ffffffff 1 R2 IADD3 1 R4 4 1 0x100 4\n", 1, "'IADD3' (int) is not a memory instruction", 16},
        {"no width on load", "0000 ffffffff 1 R2 LDG.E 1 R4 0\n", 1, "memory instruction 'LDG.E' has memory width 0", 16},
    };
    for (const Bad &c : cases) {
        SCOPED_TRACE(c.what);
        TempDir d;
        std::string text = header(4) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = " + std::to_string(c.insts) +
                           "\n" + c.lines + "#END_TB\n";
        std::string path = d.write("kernel-1.traceg", text);
        std::string err = first_error(path);
        EXPECT_NE(err.find(path + ":" + std::to_string(c.line) + ": "), std::string::npos) << err;
        EXPECT_NE(err.find(c.message), std::string::npos) << err;
    }
}

TEST(TraceReaderTest, StructureErrorsNameFileAndLine)
{
    const std::string tb0 = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n";
    struct Case {
        const char *what;
        std::string text, message;
        int line;
    } cases[] = {
        {"missing block", header(4, "(2,1,1)") + tb0 + "\n", "end of file after 1 of the grid's 2 thread blocks", 18},
        {"extra block", header(4) + tb0 + tb0, "more thread blocks than the grid's 1", 18},
        {"warp outside", header(4) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\n", "warp 2 is outside the thread block", 14},
        {"block outside", header(4) + "#BEGIN_TB\nthread block = 0,1,0\n", "outside the grid (1,1,1)", 13},
        {"old prefix", header(0) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\ninsts = 1\n0 0 0 0 0000 ffffffff 0 EXIT 0 0\n#END_TB\n",
         "expected warp id 1 (old-format line prefix), found '0'", 15},
        {"binary version", "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 35\n", "unsupported binary version 35", 3},
        {"no immediate", header(5) + tb0, "expected the immediate ending a tracer-version-5 line, found end of line", 16},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.what);
        TempDir d;
        std::string path = d.write("kernel-1.traceg", c.text);
        std::string err = first_error(path);
        EXPECT_NE(err.find(path + ":" + std::to_string(c.line) + ": "), std::string::npos) << err;
        EXPECT_NE(err.find(c.message), std::string::npos) << err;
    }
}

TEST(TraceReaderTest, UnknownOpcodeAsAluLoadsAndIsCounted)
{
    TempDir d;
    std::string path = d.write("kernel-1.traceg", header(4) +
                                                      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
                                                      "0000 ffffffff 1 R1 FOO.BAR 0 0\n"
                                                      "0010 0000000f 1 R1 FOO.BAR 1 R2 4 1 0x100 4\n"
                                                      "0020 ffffffff 0 EXIT 0 0\n#END_TB\n");
    uint64_t unknown = 0;
    EXPECT_NE(first_error(path, 0).find("FOO.BAR"), std::string::npos);
    EXPECT_EQ(first_error(path, 1, &unknown), "");
    EXPECT_EQ(unknown, 2u);
    trace_opcode_table ops;
    trace_opcode_table_init(&ops);
    strbuf err;
    strbuf_init(&err);
    trace_kernel *k = trace_kernel_open(path.c_str(), &ops, 1, &err);
    ASSERT_NE(k, nullptr);
    trace_tb tb{};
    ASSERT_EQ(trace_kernel_next_tb(k, &tb, &err), 1) << strbuf_str(&err);
    const trace_op_info *info = trace_opcode_info(&ops, tb.insns[1].op);
    EXPECT_EQ(info->unknown, 1);
    EXPECT_EQ(info->cls, TOC_INT);
    EXPECT_EQ(tb.insns[1].addr_at, TRACE_NO_ADDR); // its addresses are checked and dropped
    EXPECT_EQ(tb.n_addrs, 0u);
    EXPECT_EQ(trace_kernel_next_tb(k, &tb, &err), 0);
    trace_tb_free(&tb);
    trace_kernel_close(k);
    trace_opcode_table_free(&ops);
    strbuf_free(&err);
}

TEST(TraceReaderTest, KernelListGarbageNamesItsLine)
{
    TempDir d;
    d.write("kernelslist.g", "MemcpyHtoD,0x10,64\n\nkernel-1.traceg\nhello world\n");
    std::string err;
    std::vector<trace_cmd> v = list(d.path, &err);
    EXPECT_TRUE(v.empty());
    EXPECT_NE(err.find(d.path + "/kernelslist.g:4: "), std::string::npos) << err;
    EXPECT_NE(err.find("'hello world'"), std::string::npos) << err;
    d.write("kernelslist.g", "MemcpyHtoD,0x10\n");
    v = list(d.path, &err);
    EXPECT_NE(err.find("kernelslist.g:1: expected MemcpyHtoD,0xADDRESS,BYTES"), std::string::npos) << err;
}

TEST(TraceReaderTest, ReadsXzCompressedKernels)
{
    if (std::system("xz --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "xz not installed";
    TempDir d;
    std::string src = data_dir("microgpusim-vectoradd-100-32") + "/kernel-1.traceg";
    std::string dst = d.path + "/kernel-1.traceg.xz";
    ASSERT_EQ(std::system(("xz -c '" + src + "' > '" + dst + "'").c_str()), 0);
    trace_opcode_table ops;
    trace_opcode_table_init(&ops);
    KernelTotals t = read_kernel(dst, &ops);
    EXPECT_EQ(t.err, "");
    EXPECT_EQ(t.insts, 344u);
    EXPECT_EQ(t.tbs, 1u);
    trace_opcode_table_free(&ops);
}

} // namespace
