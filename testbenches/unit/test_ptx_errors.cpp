// Malformed and unsupported PTX: exact messages and locations, several errors per file,
// nothing left behind in the module.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

extern "C" {
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parse.h"
}

namespace {

const char *const HEADER = ".version 9.0\n.target sm_75\n.address_size 64\n"; // lines 1-3

// Parses the text and returns the error text ("" when it parsed).
std::string errors_of(const std::string &text, std::string *warnings = nullptr)
{
    ptx_module m;
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    int rc = ptx_parse("bad.ptx", text.data(), text.size(), &m, &err, &warn);
    std::string out = strbuf_str(&err);
    if (warnings) *warnings = strbuf_str(&warn);
    EXPECT_EQ(rc, out.empty() ? 0 : -1) << out;
    if (rc != 0) {
        EXPECT_EQ(m.funcs, nullptr); // left empty
        EXPECT_EQ(m.n_funcs, 0u);
    }
    ptx_module_free(&m);
    strbuf_free(&err);
    strbuf_free(&warn);
    return out;
}

// A kernel k whose body starts on line 6 (after HEADER, the signature on 4 and '{' on 5).
std::string kernel(const std::string &body)
{
    return std::string(HEADER) + ".visible .entry k(.param .u64 a)\n{\n" + body + "}\n";
}

const std::string REGS = ".reg .pred %p<3>;\n.reg .b32 %r<4>;\n.reg .f32 %f<3>;\n.reg .b64 %rd<3>;\n"; // lines 6-9

}  // namespace

TEST(PtxErrors, TruncatedFile)
{
    EXPECT_EQ(errors_of(std::string(HEADER) + ".visible .entry k()\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, 1;\n"),
              "bad.ptx:8:1: expected '}' at end of file to close the body of 'k' (opened at 5:1)\n");
    // Cut in the middle of an instruction: the missing ';' and the missing '}'.
    EXPECT_EQ(errors_of(std::string(HEADER) + ".visible .entry k()\n{\n.reg .b32 %r<3>;\nadd.s32 %r1, %r2, 1"),
              "bad.ptx:7:20: expected ';' after the instruction, got end of file\n"
              "bad.ptx:7:20: expected '}' at end of file to close the body of 'k' (opened at 5:1)\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".visible .entry k(.param .u64 a"),
              "bad.ptx:4:32: expected ')' to close the parameter list, got end of file\n");
    EXPECT_EQ(errors_of(""), "bad.ptx:1:1: missing '.version'\n");
}

TEST(PtxErrors, UnterminatedBlock)
{
    EXPECT_EQ(errors_of(std::string(HEADER) +
                        ".visible .entry k()\n{\n.reg .b32 %r<3>;\n{\nmov.u32 %r1, 1;\nret;\n}\n"
                        ".visible .entry k2()\n{\nret;\n}\n"),
              "bad.ptx:11:1: expected '}' to close the body of 'k' (opened at 5:1) before '.visible'\n");
    EXPECT_EQ(errors_of(kernel("/* never closed\nret;\n")),
              "bad.ptx:6:1: expected an instruction, declaration or label, got an unterminated comment\n"
              "bad.ptx:9:1: expected '}' at end of file to close the body of 'k' (opened at 5:1)\n");
}

TEST(PtxErrors, BadAndUndeclaredRegisters)
{
    EXPECT_EQ(errors_of(kernel(REGS + "add.s32 %r1, %r2, %r9;\n")), "bad.ptx:10:19: undeclared register '%r9'\n");
    EXPECT_EQ(errors_of(kernel(REGS + "add.s32 %r1, %, %r2;\n")), "bad.ptx:10:14: bad register name '%'\n");
    EXPECT_EQ(errors_of(kernel(".reg .b32 %r.x;\n")), "bad.ptx:6:11: bad register name '%r.x'\n");
    EXPECT_EQ(errors_of(kernel(".reg .b32 %r<2>;\n.reg .b32 %r1;\n")),
              "bad.ptx:7:11: register '%r1' is already declared in this scope\n");
    EXPECT_EQ(errors_of(kernel(REGS + "@%r1 bra $L;\n$L:\nret;\n")),
              "bad.ptx:10:2: guard '%r1' is not a predicate register\n");
    EXPECT_EQ(errors_of(kernel(REGS + "setp.eq.s32 %r1, %r2, 0;\n")), "bad.ptx:10:13: '%r1' is not a predicate register\n");
    EXPECT_EQ(errors_of(kernel(REGS + "add.s32 %r1, %p1, 1;\n")),
              "bad.ptx:10:14: predicate register '%p1' cannot be used here\n");
    // A register declared in an inner block is gone after its '}'.
    EXPECT_EQ(errors_of(kernel("{\n.reg .b32 %t;\nmov.u32 %t, 1;\n}\nmov.u32 %t, 2;\n")),
              "bad.ptx:10:9: undeclared register '%t'\n");
    EXPECT_EQ(errors_of(kernel(REGS + "mov.u32 %r1, %tid;\n")),
              "bad.ptx:10:14: special register '%tid' needs a component .x, .y or .z\n");
    EXPECT_EQ(errors_of(kernel(REGS + "mov.u32 %r1, %envreg3;\n")),
              "bad.ptx:10:14: special register '%envreg3' is not supported\n");
}

TEST(PtxErrors, UnknownOpcodeAndUnsupportedQualifiers)
{
    EXPECT_EQ(errors_of(kernel(REGS + "foo.bar %r1;\n")),
              "bad.ptx:10:1: unsupported instruction 'foo.bar': unknown opcode 'foo' (in 'foo.bar %r1;')\n");
    EXPECT_EQ(errors_of(kernel(REGS + "add.wide.f32 %f1, %f2, %f2;\n")),
              "bad.ptx:10:1: unsupported instruction 'add.wide.f32': qualifier .wide is not valid for add "
              "(in 'add.wide.f32 %f1, %f2, %f2;')\n");
    EXPECT_EQ(errors_of(kernel(REGS + "mul.s32 %r1, %r2, %r2;\n")),
              "bad.ptx:10:1: unsupported instruction 'mul.s32': integer mul needs .lo, .hi or .wide "
              "(in 'mul.s32 %r1, %r2, %r2;')\n");
    EXPECT_EQ(errors_of(kernel(REGS + "cvt.s32.f32 %r1, %f1;\n")),
              "bad.ptx:10:1: unsupported instruction 'cvt.s32.f32': a float-to-integer cvt needs an integer "
              "rounding qualifier (.rni, .rzi, .rmi, .rpi) (in 'cvt.s32.f32 %r1, %f1;')\n");
    EXPECT_EQ(errors_of(kernel(REGS + "setp.lo.s32 %p1, %r1, %r2;\n")),
              "bad.ptx:10:1: unsupported instruction 'setp.lo.s32': .lo, .ls, .hi and .hs are only valid for "
              "unsigned types (in 'setp.lo.s32 %p1, %r1, %r2;')\n");
    EXPECT_EQ(errors_of(kernel(REGS + "ld.global.nc.v4.f64 {%rd1, %rd1, %rd1, %rd1}, [%rd2];\n")),
              "bad.ptx:10:1: unsupported instruction 'ld.global.nc.v4.f64': a .v4 vector of 64-bit elements is "
              "not supported (in 'ld.global.nc.v4.f64 {%rd1, %rd1, %rd1, %rd1}, [%rd2];')\n");
    EXPECT_EQ(errors_of(kernel(REGS + "st.const.u32 [%rd1], %r1;\n")),
              "bad.ptx:10:1: unsupported instruction 'st.const.u32': st.const is not valid: constant memory is "
              "read-only (in 'st.const.u32 [%rd1], %r1;')\n");
    EXPECT_EQ(errors_of(kernel(REGS + "add.s32.s32 %r1, %r1, %r1;\n")),
              "bad.ptx:10:1: unsupported instruction 'add.s32.s32': add takes one type qualifier, not two "
              "(in 'add.s32.s32 %r1, %r1, %r1;')\n");
    EXPECT_EQ(errors_of(kernel(REGS + "add.s32 %r1, %r1;\n")),
              "bad.ptx:10:1: add.s32 takes 3 operands, not 2 (in 'add.s32 %r1, %r1;')\n");
}

TEST(PtxErrors, TierCIsRejectedClearly)
{
    std::string e = errors_of(kernel(REGS + ".reg .f16 %h<3>;\n"                                      // 10
                                     "tex.1d.v4.f32.s32 {%f1, %f1, %f1, %f1}, [%rd1, {%r1}];\n"      // 11
                                     "add.f16 %h1, %h2, %h2;\n"                                      // 12
                                     "call %rd1, (%r1);\n"                                           // 13
                                     "cp.async.ca.shared.global [%r1], [%rd1], 16;\n"                // 14
                                     "shfl.down.b32 %r1, %r1, 1, 31;\n"                              // 15
                                     "add.bf16 %h1, %h1, %h1;\n"));                                  // 16
    EXPECT_EQ(e,
              "bad.ptx:11:1: unsupported instruction 'tex.1d.v4.f32.s32': texture instructions are not supported "
              "(in 'tex.1d.v4.f32.s32 {%f1, %f1, %f1, %f1}, [%rd1, {%r1}];')\n"
              "bad.ptx:12:1: unsupported instruction 'add.f16': .f16 arithmetic is not supported "
              "(in 'add.f16 %h1, %h2, %h2;')\n"
              "bad.ptx:13:6: indirect calls through a register are not supported\n"
              "bad.ptx:14:1: unsupported instruction 'cp.async.ca.shared.global': asynchronous copies "
              "(cp.async, cp.reduce.async) are not supported (in 'cp.async.ca.shared.global [%r1], [%rd1], 16;')\n"
              "bad.ptx:15:1: unsupported instruction 'shfl.down.b32': shfl without .sync is not supported "
              "(use shfl.sync) (in 'shfl.down.b32 %r1, %r1, 1, 31;')\n"
              "bad.ptx:16:1: unsupported instruction 'add.bf16': type .bf16 is not supported "
              "(in 'add.bf16 %h1, %h1, %h1;')\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".global .texref t;\n"),
              "bad.ptx:4:9: texture and surface references are not supported\n");
    EXPECT_EQ(errors_of(kernel(REGS + "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n")),
              "bad.ptx:10:8: indirect calls (.callprototype) are not supported\n");
}

TEST(PtxErrors, BadImmediates)
{
    EXPECT_EQ(errors_of(kernel(REGS + "mov.f32 %f1, 0fXYZ;\n")), "bad.ptx:10:14: bad immediate '0fXYZ'\n");
    EXPECT_EQ(errors_of(kernel(REGS + "mov.f32 %f1, 0f3F80;\n")), "bad.ptx:10:14: bad immediate '0f3F80'\n");
    EXPECT_EQ(errors_of(kernel(REGS + "mov.u64 %rd1, 99999999999999999999;\n")),
              "bad.ptx:10:15: integer literal '99999999999999999999' does not fit in 64 bits\n");
    EXPECT_EQ(errors_of(kernel(REGS + "add.s32 %r1, %r1, 1.5;\n")),
              "bad.ptx:10:19: floating-point literal '1.5' for an integer operand\n");
    EXPECT_EQ(errors_of(kernel(REGS + "mov.u32 1, %r1;\n")), "bad.ptx:10:9: operand 1 must be a destination register\n");
}

TEST(PtxErrors, Labels)
{
    EXPECT_EQ(errors_of(kernel("$L1:\n$L1:\nret;\n")), "bad.ptx:7:1: duplicate label '$L1' (first defined at 6:1)\n");
    EXPECT_EQ(errors_of(kernel("bra $nowhere;\nret;\n")), "bad.ptx:6:5: undefined label '$nowhere'\n");
    EXPECT_EQ(errors_of(kernel(".reg .b32 %r<2>;\nbrx.idx %r1, $tab;\n$tab: .branchtargets $A, $B;\n$A:\nret;\n")),
              "bad.ptx:8:26: undefined label '$B' in .branchtargets list\n");
    // A branch into another function.
    EXPECT_EQ(errors_of(std::string(HEADER) + ".visible .entry k()\n{\nbra.uni $Lg;\nret;\n}\n"
                                              ".func g()\n{\n$Lg:\nret;\n}\n"),
              "bad.ptx:6:9: label '$Lg' belongs to function 'g': a branch cannot leave function 'k'\n");
}

TEST(PtxErrors, MissingSemicolon)
{
    EXPECT_EQ(errors_of(kernel(REGS + "mov.u32 %r1, 1\nmov.u32 %r2, 2;\nret;\n")),
              "bad.ptx:10:15: expected ';' after the instruction, got 'mov.u32'\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".visible .entry k()\n{\nret\n}\n"),
              "bad.ptx:6:4: expected ';' after the instruction, got '}'\n");
    // After an instruction without operands, a new line is a new statement.
    EXPECT_EQ(errors_of(kernel("bra $L1;\nret\n$L1:\nexit\nret;\n")),
              "bad.ptx:7:4: expected ';' after the instruction, got '$L1'\n"
              "bad.ptx:9:5: expected ';' after the instruction, got 'ret'\n");
    EXPECT_EQ(errors_of(kernel(".reg .b32 %r<2>\n.reg .b32 %q;\n")),
              "bad.ptx:7:1: expected ';' after the register declaration, got '.reg'\n");
}

TEST(PtxErrors, Calls)
{
    const std::string funcs = ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n" // 4
                              ".func (.param .b32 r) f(.param .b32 x, .param .b32 y)\n{\nret;\n}\n";            // 5-8
    EXPECT_EQ(errors_of(std::string(HEADER) + funcs +
                        ".visible .entry k()\n{\n"                                           // 9-10
                        "{\n.param .b64 p0;\n.param .b64 p1;\n.param .b32 rv;\n"               // 11-14
                        "call.uni (rv), vprintf, (p0, p1);\n}\n"),                             // 15
              // The call checks run at the end of the module, when every function is known.
              "bad.ptx:17:1: expected '}' at end of file to close the body of 'k' (opened at 10:1)\n"
              "bad.ptx:15:1: call to 'vprintf', which is declared but not defined in this module "
              "(printf/assert are not supported by gtlm's executor)\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + funcs +
                        ".visible .entry k()\n{\n.param .b32 p0;\n.param .b32 rv;\n"          // 9-12
                        "call.uni (rv), f, (p0);\n"                                           // 13
                        "call.uni f, (p0, p0, p0);\n"                                         // 14
                        "call.uni (rv), g, (p0);\n"                                           // 15
                        "call k;\n"                                                           // 16
                        "}\n"),
              "bad.ptx:13:1: call to 'f' passes 1 argument, but 'f' takes 2\n"
              "bad.ptx:14:1: call to 'f' passes 3 arguments, but 'f' takes 2\n"
              "bad.ptx:15:1: call to undefined function 'g'\n"
              "bad.ptx:16:1: 'k' is a kernel (.entry) and cannot be called\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + funcs +
                        ".visible .entry k()\n{\n.param .b32 p0;\n.param .b64 p1;\n.param .b64 rv;\n"  // 9-13
                        "call.uni (rv), f, (p0, p1);\n}\n"),                                         // 14
              "bad.ptx:14:1: argument 2 of the call to 'f' ('p1') is 8 bytes, but parameter 'y' is 4\n"
              "bad.ptx:14:1: return value 'rv' of the call to 'f' is 8 bytes, but 'f' returns 4\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".func f()\n{\nret;\n}\n.func f()\n{\nret;\n}\n"),
              "bad.ptx:8:7: duplicate function 'f' (first declared at 4:7)\n");
}

TEST(PtxErrors, AddressesAndParameters)
{
    EXPECT_EQ(errors_of(kernel(REGS + "ld.param.u64 %rd1, [a+8];\n")),
              "bad.ptx:10:21: [a+8] is outside parameter 'a' (8 bytes)\n");
    EXPECT_EQ(errors_of(kernel(REGS + "st.param.u64 [a], %rd1;\n")), "bad.ptx:10:15: kernel parameter 'a' is read-only\n");
    EXPECT_EQ(errors_of(kernel(REGS + "ld.global.u64 %rd1, [a];\n")),
              "bad.ptx:10:22: parameter 'a' can only be accessed with ld.param or st.param\n");
    EXPECT_EQ(errors_of(kernel(REGS + "mov.u64 %rd1, a;\n")),
              "bad.ptx:10:15: the address of parameter 'a' cannot be taken\n");
    EXPECT_EQ(errors_of(kernel(REGS + "ld.param.u64 %rd1, [%rd2];\n")),
              "bad.ptx:10:21: ld.param and st.param need a parameter or .param variable name as the address\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".shared .u32 s;\n" + ".visible .entry k()\n{\n.reg .b32 %r<2>;\n"
                                              "ld.global.u32 %r1, [s];\nld.u32 %r1, [s];\nld.global.u32 %r1, [q];\n}\n"),
              "bad.ptx:8:21: 's' is a .shared variable, not .global\n"
              "bad.ptx:9:14: a generic address of 's' is not supported here: use .shared or cvta\n"
              "bad.ptx:10:21: undefined name 'q' in the address\n");
    EXPECT_EQ(errors_of(kernel(REGS + "ld.global.u32 %r1, [1024];\n")),
              "bad.ptx:10:21: absolute addresses are not supported\n");
}

TEST(PtxErrors, Declarations)
{
    EXPECT_EQ(errors_of(std::string(HEADER) + ".global .u8 t[2] = {1, 2, 3};\n"),
              "bad.ptx:4:27: too many initialisers (the variable has 2 elements)\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".global .u8 t[2] = {1, 256};\n"),
              "bad.ptx:4:24: initialiser 256 does not fit in .u8\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".global .u64 p = generic(t);\n"),
              "bad.ptx:4:18: address initialisers ('generic') are not supported\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".shared .u32 s[] ;\n"),
              "bad.ptx:4:14: only .extern .shared arrays may be unsized\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".shared .u32 s = 1;\n"),
              "bad.ptx:4:16: only .global and .const variables can be initialised\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".global .u32 g;\n.const .u32 g;\n"),
              "bad.ptx:5:13: symbol 'g' is already declared\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".global .align 3 .u32 g;\n"),
              "bad.ptx:4:9: alignment 3 is not a power of two up to 4096\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".global .b8 big[100000000] = {1};\n"),
              "bad.ptx:4:28: initialised variable 'big' is too large (more than 67108864 bytes)\n");
    EXPECT_EQ(errors_of(std::string(HEADER) + ".visible .entry k(.param .align 8 .b8 p[40000])\n{\nret;\n}\n"),
              "bad.ptx:4:17: the parameters of kernel 'k' take 40000 bytes, more than CUDA's 32764\n");
    EXPECT_EQ(errors_of(std::string(".target sm_75\n")),
              "bad.ptx:1:1: expected '.version' at the start of the module, got '.target'\n");
}

TEST(PtxErrors, RecoversAndCapsTheErrorCount)
{
    // Every line is wrong: parsing goes on to the next statement, and stops after 20 errors.
    std::string body = REGS;
    for (int i = 0; i < 50; i++) body += "add.s32 %r1, %r9, 1;\n";
    std::string e = errors_of(kernel(body));
    EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 21);
    EXPECT_NE(e.find("bad.ptx:29:14: undeclared register '%r9'\n"), std::string::npos);
    EXPECT_NE(e.find("bad.ptx: too many errors, stopping\n"), std::string::npos);
}

TEST(PtxErrors, RecoversAfterABrokenSignature)
{
    EXPECT_EQ(errors_of(std::string(HEADER) + ".visible .entry k(.param .u64)\n{\nret;\n}\n"    // 4-7
                                              ".visible .entry k2()\n{\nmov.u32 %r1, 1;\n}\n"  // 8-11
                                              ".func (.param .b32 a, .param .b32 b) f()\n{\n}\n"   // 12-14
                                              ".visible .entry k3()\n{\n.reg .b64 %rd1;\nmov.u64 %rd1, k2;\n}\n"), // 15-19
              "bad.ptx:4:30: expected a parameter name, got ')'\n"
              "bad.ptx:10:9: undeclared register '%r1'\n"
              "bad.ptx:12:7: functions with more than one return value are not supported\n"
              "bad.ptx:18:15: the address of function 'k2' cannot be taken (indirect calls are not supported)\n");
}

TEST(PtxErrors, IgnoredDirectivesWarn)
{
    std::string warnings;
    EXPECT_EQ(errors_of(std::string(HEADER) + ".file 1 \"x.cu\"\n.section .debug_info\n{\n.b8 1\n}\n"
                                              ".visible .entry k()\n.explicitcluster\n{\n.loc 1 2 3\n.loc 1 3 3\n"
                                              ".pragma \"nounroll\";\n.pragma \"something new\";\nret;\n}\n",
                        &warnings),
              "");
    EXPECT_EQ(warnings, "bad.ptx:4:1: ignoring directive '.file'\n"
                        "bad.ptx:5:1: ignoring directive '.section'\n"
                        "bad.ptx:10:1: ignoring directive '.explicitcluster'\n"
                        "bad.ptx:12:1: ignoring directive '.loc'\n"
                        "bad.ptx:15:9: ignoring .pragma \"something new\"\n");
}
