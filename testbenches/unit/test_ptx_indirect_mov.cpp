// mov.indirect (gtlm's extension for Morpheus' Indirect-MOV) in the parser and the opcode check:
// the two forms and what they record, and every bad operand with its exact position.
#include <gtest/gtest.h>

#include <string>

extern "C" {
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parse.h"
}

namespace {

const char *const kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n"; // lines 1-3

// Kernel k: the registers on lines 6-9, the body from line 10.
std::string kernel(const std::string &body)
{
    return std::string(kHeader) + ".visible .entry k()\n{\n" +
           ".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .f32 %f<3>;\n.reg .b64 %rd<3>;\n" + body + "}\n";
}

struct Parsed {
    ptx_module m{};
    std::string err;
    int rc;
    explicit Parsed(const std::string &text)
    {
        strbuf e, w;
        strbuf_init(&e);
        strbuf_init(&w);
        rc = ptx_parse("im.ptx", text.data(), text.size(), &m, &e, &w);
        err = strbuf_str(&e);
        strbuf_free(&e);
        strbuf_free(&w);
    }
    ~Parsed() { ptx_module_free(&m); }
};

std::string errors_of(const std::string &body)
{
    Parsed p(kernel(body));
    EXPECT_EQ(p.rc, p.err.empty() ? 0 : -1);
    return p.err;
}

} // namespace

// Read form: d = {array}[index]; write form (guarded): {array}[index] = s. The index (and the
// guard, and the write's value) are sources, the read's d its destination; the array is rarray.
TEST(PtxIndirectMov, BothFormsParse)
{
    Parsed p(kernel("mov.indirect.b32 %r1, {%r4, %r5, %r6}[%r2];\n"
                    "@%p1 mov.indirect.u32 {%r4, %r5}[%r2], %r3;\n"
                    "mov.indirect.f32 %f1, {%f2, %f1}[%r2];\n"));
    ASSERT_EQ(p.rc, 0) << p.err;
    const ptx_func &f = p.m.funcs[0];
    ASSERT_EQ(f.n_instrs, 3u);
    const ptx_instr &rd = f.instrs[0], &wr = f.instrs[1];
    EXPECT_EQ(rd.op, OP_MOV_INDIRECT);
    EXPECT_EQ(rd.type, PT_B32);
    ASSERT_EQ(rd.nopnd, 2);
    EXPECT_EQ(rd.o[0].kind, PO_REG);
    EXPECT_EQ(rd.o[1].kind, PO_RARRAY);
    ASSERT_EQ(rd.n_targets, 3);
    EXPECT_STREQ(f.regs[rd.rarray[0]].name, "%r4");
    EXPECT_STREQ(f.regs[rd.rarray[2]].name, "%r6");
    EXPECT_STREQ(f.regs[rd.o[1].reg].name, "%r2");
    ASSERT_EQ(rd.nsrc, 1);
    EXPECT_STREQ(f.regs[rd.src[0]].name, "%r2");
    ASSERT_EQ(rd.ndst, 1);
    EXPECT_STREQ(f.regs[rd.dst[0]].name, "%r1");
    EXPECT_EQ(wr.op, OP_MOV_INDIRECT);
    EXPECT_EQ(wr.o[0].kind, PO_RARRAY);
    EXPECT_EQ(wr.n_targets, 2);
    EXPECT_EQ(wr.nsrc, 3); // guard, index, value
    EXPECT_EQ(wr.ndst, 0); // which array register is written is known at run time
    char d[200];
    ptx_describe_instr(&p.m, &f, 1, d, sizeof d);
    EXPECT_NE(std::string(d).find("mov.indirect.u32"), std::string::npos) << d;
}

TEST(PtxIndirectMov, BadQualifiersAndOperandCounts)
{
    EXPECT_EQ(errors_of("mov.indirect.pred %p1, {%p2}[%r1];\n"),
              "im.ptx:10:1: unsupported instruction 'mov.indirect.pred': mov.indirect cannot move .pred values "
              "(in 'mov.indirect.pred %p1, {%p2}[%r1];')\n");
    EXPECT_EQ(errors_of("mov.indirect %r1, {%r2}[%r3];\n"),
              "im.ptx:10:1: unsupported instruction 'mov.indirect': mov.indirect needs a type qualifier "
              "(in 'mov.indirect %r1, {%r2}[%r3];')\n");
    EXPECT_EQ(errors_of("add.indirect.s32 %r1, %r2, %r3;\n"),
              "im.ptx:10:1: unsupported instruction 'add.indirect.s32': qualifier .indirect is not valid for add "
              "(in 'add.indirect.s32 %r1, %r2, %r3;')\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, {%r2}[%r3], %r4;\n"),
              "im.ptx:10:1: mov.indirect.b32 takes 2 operands, not 3 (in 'mov.indirect.b32 %r1, {%r2}[%r3], %r4;')\n");
}

TEST(PtxIndirectMov, BadOperandsArePointedAt)
{
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, %r2;\n"),
              "im.ptx:10:23: expected a register array {r0, r1, ...}[index] as operand 2 of mov.indirect, got '%r2'\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 {%r1}[%r2], {%r3}[%r2];\n"),
              "im.ptx:10:30: mov.indirect takes one register array, as its destination or as its source\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, {%r2, %rd1}[%r3];\n"),
              "im.ptx:10:29: operand 2 of mov.indirect.b32: register '%rd1': a 64-bit .b64 register does not fit "
              "a 32-bit .b32 operand\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, {%r2, %p1}[%r3];\n"),
              "im.ptx:10:29: predicate register '%p1' cannot be used here\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, {%r2, %r9}[%r3];\n"), "im.ptx:10:29: undeclared register '%r9'\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, {%r2, %r3}[%rd1];\n"),
              "im.ptx:10:34: operand 2 of mov.indirect.b32: register '%rd1': a 64-bit .b64 register does not fit "
              "a 32-bit .u32 operand\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, {%r2, %r3}[%f1];\n"),
              "im.ptx:10:34: operand 2 of mov.indirect.b32: register '%f1': a .f32 register does not fit a .u32 "
              "operand (integer and floating-point types do not mix)\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, {%r2, %r3}[1];\n"),
              "im.ptx:10:34: the index of a register array must be a register (a constant index is a plain mov)\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, {%r2, %r3};\n"),
              "im.ptx:10:33: expected '[' after the register array ({r0, ...}[index]), got ';'\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, {%r2, %r3}[%r4 %r5];\n"),
              "im.ptx:10:38: expected ']' to close the register array's index, got '%r5'\n");
    EXPECT_EQ(errors_of("mov.indirect.b32 {%r2, %r3}[%r4], %rd1;\n"),
              "im.ptx:10:35: operand 2 of mov.indirect.b32: register '%rd1': a 64-bit .b64 register does not fit "
              "a 32-bit .b32 operand\n");
}

// The document's register number has 8 bits: 256 registers fit, 257 do not (the 257th is named).
TEST(PtxIndirectMov, ArrayOfAtMost256Registers)
{
    std::string list;
    for (int i = 0; i < 256; i++) list += std::string(i ? ", " : "") + "%r" + std::to_string(i % 8);
    EXPECT_EQ(errors_of("mov.indirect.b32 %r1, {" + list + "}[%r2];\n"), "");
    std::string body = "mov.indirect.b32 %r1, {" + list + ", %r3}[%r2];\n";
    size_t col = body.find(", %r3}") + 3;
    EXPECT_EQ(errors_of(body), "im.ptx:10:" + std::to_string(col) +
                                   ": a register array has at most 256 registers (Indirect-MOV's 8-bit register number)\n");
}
