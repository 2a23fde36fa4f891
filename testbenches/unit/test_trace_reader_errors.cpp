// Accel-Sim trace reader: malformed traces and kernel lists are reported at the right file:line,
// unknown opcodes either stop the read or are counted, and .xz kernels are read through xz.
#include "trace_reader_fixture.h"

namespace {

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
    // Launch shapes beyond CUDA's limits in the header (issue 12: products that wrap in 64 bits,
    // a grid that would never end), refused when the header ends (line 11) like gtlm_launch's.
    std::string wrapping_block = header(4);
    wrapping_block.replace(wrapping_block.find("(64,1,1)"), 8, "(536838145,536903681,64)");
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
        {"grid beyond CUDA", header(4, "(4294967295,4294967295,4294967295)") + tb0,
         "grid (4294967295,4294967295,4294967295) is larger than CUDA's (2147483647,65535,65535)", 11},
        {"block that would wrap", wrapping_block + tb0, "block (536838145,536903681,64) is larger than CUDA's", 11},
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
