// Accel-Sim trace reader: the six public sample traces (testbenches/data/traces) and every address
// compression mode on hand-written lines. Malformed traces: test_trace_reader_errors.cpp.
#include "trace_reader_fixture.h"

namespace {

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

} // namespace
