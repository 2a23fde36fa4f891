// Operand types and widths against the instruction type (ptx_typecheck.c): what ptxas rejects
// is rejected with file:line:col, what the PTX ISA allows (bit-size registers for any type,
// wider registers for ld/st/cvt) still loads, and so does every PTX file committed here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

extern "C" {
#include "ptx/ptx_parse.h"
}

namespace {

std::string parse_errors(const std::string &text, const char *name = "t.ptx")
{
    ptx_module m{};
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    int rc = ptx_parse(name, text.data(), text.size(), &m, &err, &warn);
    std::string out = rc == 0 ? "" : strbuf_str(&err);
    if (rc != 0 && out.empty()) out = "(failed without a message)";
    ptx_module_free(&m);
    strbuf_free(&err);
    strbuf_free(&warn);
    return out;
}

// A kernel with one register of each kind and the given body line (line 10 of the file).
std::string kernel(const std::string &body)
{
    return ".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
           "    .reg .b32 %r<3>; .reg .b16 %rs<3>;\n    .reg .b64 %rd<3>;\n    .reg .f32 %f<3>;\n    .reg .f64 %fd<3>;\n"
           "    " + body + "\n    ret;\n}\n";
}

TEST(PtxTypes, IllTypedOperandsAreLocatedErrors)
{
    struct Case {
        const char *body, *expect;
    } cases[] = {
        {"add.s32 %rd1, %r1, %r2;", "t.ptx:10:13: operand 1 of add.s32: register '%rd1': a 64-bit .b64 register does not "
                                    "fit a 32-bit .s32 operand"},
        {"add.f32 %f1, %f2, %fd1;", "t.ptx:10:23: operand 3 of add.f32: register '%fd1': a 64-bit .f64 register"},
        {"ld.global.u64 %r1, [%rd1];", "t.ptx:10:19: operand 1 of ld.global.u64: register '%r1': a 32-bit .b32 register "
                                       "does not fit a 64-bit .u64 operand"},
        {"add.s32 %r1, %f1, %r2;", "t.ptx:10:18: operand 2 of add.s32: register '%f1': a .f32 register does not fit a .s32 "
                                   "operand (integer and floating-point types do not mix)"},
        {"mul.wide.s32 %r1, %r1, %r2;", "operand 1 of mul.wide.s32: register '%r1': a 32-bit .b32 register does not fit a "
                                        "64-bit .s64 operand"},
        {"ld.global.f32 %fd1, [%rd1];", "operand 1 of ld.global.f32: register '%fd1': a 64-bit .f64 register does not fit a "
                                        "32-bit .f32 operand (a wider register holds only integer or bit-size values)"},
        {"shl.b64 %rd1, %rd1, %rd2;", "operand 3 of shl.b64: register '%rd2': a 64-bit .b64 register does not fit a 32-bit "
                                      ".u32 operand"},
        {"st.global.u64 [%rd1], %r1;", "operand 2 of st.global.u64: register '%r1'"},
        {"cvt.u32.u64 %r1, %r2;", "operand 2 of cvt.u32.u64: register '%r2'"},
        {"mov.u32 %rd1, %r1;", "operand 1 of mov.u32: register '%rd1'"},
    };
    for (const Case &c : cases) {
        std::string e = parse_errors(kernel(c.body));
        EXPECT_NE(e.find(c.expect), std::string::npos) << c.body << "\n" << e;
    }
}

TEST(PtxTypes, WhatTheIsaAllowsStillLoads)
{
    for (const char *body : {
             "add.s32 %r1, %r1, %r2;",             // .b32 registers for any 32-bit type
             "add.f32 %f1, %f2, %f2;", "mov.b32 %r1, %f1;", "add.f32 %f1, %f2, %r1;", // .b for .f
             "ld.global.u8 %r1, [%rd1];",           // a wider register for ld
             "ld.global.u32 %rd1, [%rd1];", "st.global.u8 [%rd1], %r1;", "st.global.u16 [%rd1], %rd2;",
             "cvt.u64.u32 %rd1, %r1;", "cvt.u16.u32 %r1, %r2;", "cvt.rn.f32.s64 %f1, %rd1;",
             "ld.global.f32 %r1, [%rd1];",          // a .b register of the float's size
             "mul.wide.u32 %rd1, %r1, %r2;", "mad.wide.s32 %rd1, %r1, %r2, %rd2;",
             "popc.b64 %r1, %rd1;", "clz.b64 %r1, %rd1;", "shl.b64 %rd1, %rd1, %r1;", "bfe.u64 %rd1, %rd1, %r1, %r2;",
             "mov.b64 %rd1, {%r1, %r2};", "mov.b32 {%rs1, %rs2}, %r1;", "setp.lt.f64 %p1, %fd1, %fd2;",
         }) {
        std::string text = kernel(body);
        if (std::string(body).find("%p1") != std::string::npos)
            text.insert(text.find("    .reg .b32"), "    .reg .pred %p<2>;\n");
        EXPECT_EQ(parse_errors(text), "") << body;
    }
}

// Every PTX file committed to the repository parses (the workloads', the test kernels', the
// parser's nvcc samples).
TEST(PtxTypes, EveryCommittedPtxLoads)
{
    namespace fs = std::filesystem;
    const fs::path root(GTLM_SOURCE_DIR);
    int n = 0;
    for (const fs::path &dir : {root / "workloads", root / "testbenches" / "kernels", root / "testbenches" / "data" / "ptx"})
        for (const auto &e : fs::recursive_directory_iterator(dir)) {
            if (e.path().extension() != ".ptx") continue;
            std::ifstream in(e.path(), std::ios::binary);
            std::stringstream ss;
            ss << in.rdbuf();
            EXPECT_EQ(parse_errors(ss.str(), e.path().filename().c_str()), "") << e.path();
            n++;
        }
    EXPECT_GE(n, 50) << "the committed PTX files were not found";
}

} // namespace
