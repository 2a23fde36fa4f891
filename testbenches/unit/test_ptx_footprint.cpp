// Memory per PTX statement: the records a module holds for every token and instruction stay
// compact (a 52 MB module has 1.6 M instructions and about 13 M tokens), and the token
// positions derived from offsets (tokens store no line or column) are the true ones.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

extern "C" {
#include "ptx/ptx_ir.h"
#include "ptx/ptx_lex.h"
#include "ptx/ptx_parse.h"
}

namespace {

TEST(PtxFootprint, RecordsStayCompact)
{
    EXPECT_LE(sizeof(ptx_tok), 12u);
    EXPECT_LE(sizeof(ptx_operand), 32u);
    EXPECT_LE(sizeof(ptx_instr), 88u);
}

TEST(PtxFootprint, VectorRegistersShareStorageWithSymAndImm)
{
    ptx_operand o;
    std::memset(&o, 0, sizeof o);
    EXPECT_LE(sizeof o.vec, sizeof(ptx_operand) - offsetof(ptx_operand, vec));
    EXPECT_EQ(offsetof(ptx_operand, vec), offsetof(ptx_operand, sym));
}

struct Pos {
    uint32_t line, col;
};

Pos pos(const ptx_toks &t, size_t i) { return {ptx_toks_line(&t, t.t[i].off), ptx_toks_col(&t, t.t[i].off)}; }

TEST(PtxFootprint, TokenPositionsCountEveryNewline)
{
    const std::string text = "a\n  bb /* one\n two */ c\r\n\n\t\"s\" // x\n@ /* open\n";
    ptx_toks t;
    ASSERT_EQ(ptx_lex(text.data(), text.size(), &t), 0);
    ASSERT_EQ(t.n, 7u);  // a bb c "s" @ /*(bad) EOF
    const Pos want[] = {{1, 1}, {2, 3}, {3, 9}, {5, 2}, {6, 1}, {6, 3}, {7, 1}};
    for (size_t i = 0; i < t.n; i++) {
        EXPECT_EQ(pos(t, i).line, want[i].line) << "token " << i;
        EXPECT_EQ(pos(t, i).col, want[i].col) << "token " << i;
    }
    EXPECT_EQ(t.t[5].kind, TK_BAD);
    EXPECT_EQ(t.t[5].bad, BAD_COMMENT);
    EXPECT_EQ(t.t[6].kind, TK_EOF);
    ptx_toks_free(&t);
}

TEST(PtxFootprint, ErrorsAfterMultiLineCommentsKeepTheirPosition)
{
    const std::string text = ".version 7.0\n.target sm_70\n/* a\n b */ .address_size 64\n"
                             ".visible .entry k()\n{\n  /* x\n */ ret\n  exit;\n}\n";
    ptx_module m;
    strbuf err = {}, warn = {};
    ASSERT_NE(ptx_parse("t.ptx", text.data(), text.size(), &m, &err, &warn), 0);
    const std::string msg = err.data ? err.data : "";
    EXPECT_NE(msg.find("t.ptx:8:8:"), std::string::npos) << msg;  // the missing ';' after "ret"
    strbuf_free(&err);
    strbuf_free(&warn);
}

}  // namespace
