// Control-flow graphs of hand-written PTX: basic blocks, successors, immediate
// post-dominators and the reconvergence pc of every branch.
#include <gtest/gtest.h>

#include <string>
#include <vector>

extern "C" {
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parse.h"
}

namespace {

constexpr uint32_t EXIT = UINT32_MAX;

struct Cfg {
    ptx_module m{};
    strbuf err{};
    const ptx_func *f = nullptr;
    explicit Cfg(const std::string &body, const std::string &params = "(.param .u32 n)")
    {
        std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k" + params +
                           "\n{\n.reg .pred %p<8>;\n.reg .b32 %r<16>;\n" + body + "}\n";
        strbuf_init(&err);
        EXPECT_EQ(ptx_parse("cfg.ptx", text.data(), text.size(), &m, &err, nullptr), 0) << strbuf_str(&err);
        f = m.n_funcs ? &m.funcs[0] : nullptr;
    }
    ~Cfg()
    {
        ptx_module_free(&m);
        strbuf_free(&err);
    }
    std::vector<uint32_t> succ(uint32_t b) const
    {
        const ptx_block &bl = f->blocks[b];
        if (bl.nsucc > 2) return std::vector<uint32_t>(bl.succ_more, bl.succ_more + bl.nsucc);
        return std::vector<uint32_t>(bl.succ, bl.succ + bl.nsucc);
    }
    std::vector<uint32_t> starts() const
    {
        std::vector<uint32_t> v;
        for (uint32_t b = 0; b < f->n_blocks; b++) v.push_back(f->blocks[b].start);
        return v;
    }
    std::vector<uint32_t> ipdoms() const
    {
        std::vector<uint32_t> v;
        for (uint32_t b = 0; b < f->n_blocks; b++) v.push_back(f->blocks[b].ipdom);
        return v;
    }
};

using V = std::vector<uint32_t>;

}  // namespace

TEST(PtxCfg, IfElse)
{
    Cfg c("ld.param.u32 %r1, [n];\n"   // 0
          "setp.gt.s32 %p1, %r1, 0;\n" // 1
          "@%p1 bra $THEN;\n"          // 2   b0
          "add.s32 %r2, %r1, 1;\n"     // 3
          "bra.uni $JOIN;\n"           // 4   b1 (else)
          "$THEN:\n"
          "add.s32 %r2, %r1, 2;\n"     // 5   b2 (then)
          "$JOIN:\n"
          "mov.u32 %r3, %r2;\n"        // 6
          "ret;\n");                   // 7   b3
    ASSERT_TRUE(c.f);
    EXPECT_EQ(c.starts(), (V{0, 3, 5, 6}));
    EXPECT_EQ(c.f->blocks[3].end, 8u);
    EXPECT_EQ(c.succ(0), (V{2, 1})); // taken, then fall-through
    EXPECT_EQ(c.succ(1), (V{3}));
    EXPECT_EQ(c.succ(2), (V{3}));
    EXPECT_EQ(c.succ(3), (V{EXIT}));
    EXPECT_EQ(c.ipdoms(), (V{3, 3, 3, EXIT}));
    EXPECT_EQ(c.f->instrs[2].reconv_pc, 6u);
    EXPECT_EQ(c.f->instrs[4].reconv_pc, 6u);
    EXPECT_EQ(c.f->block_of[4], 1u);
    EXPECT_EQ(c.f->block_of[5], 2u);
}

TEST(PtxCfg, NestedIf)
{
    Cfg c("ld.param.u32 %r1, [n];\n"   // 0
          "setp.gt.s32 %p1, %r1, 0;\n" // 1
          "@!%p1 bra $END;\n"          // 2   b0
          "setp.gt.s32 %p2, %r1, 9;\n" // 3
          "@!%p2 bra $IEND;\n"         // 4   b1
          "add.s32 %r2, %r1, 1;\n"     // 5   b2
          "$IEND:\n"
          "add.s32 %r2, %r2, 2;\n"     // 6   b3
          "$END:\n"
          "ret;\n");                   // 7   b4
    ASSERT_TRUE(c.f);
    EXPECT_EQ(c.starts(), (V{0, 3, 5, 6, 7}));
    EXPECT_EQ(c.f->instrs[2].guard_neg, 1);
    EXPECT_EQ(c.succ(0), (V{4, 1}));
    EXPECT_EQ(c.succ(1), (V{3, 2}));
    EXPECT_EQ(c.ipdoms(), (V{4, 3, 3, 4, EXIT}));
    EXPECT_EQ(c.f->instrs[2].reconv_pc, 7u);
    EXPECT_EQ(c.f->instrs[4].reconv_pc, 6u);
}

TEST(PtxCfg, LoopWithBreakAndContinue)
{
    Cfg c("mov.u32 %r1, 0;\n"            // 0   b0
          "$LOOP:\n"
          "setp.ge.s32 %p1, %r1, %r9;\n" // 1
          "@%p1 bra $EXIT;\n"            // 2   b1 loop test
          "setp.eq.s32 %p2, %r1, 5;\n"   // 3
          "@%p2 bra $CONT;\n"            // 4   b2 continue
          "setp.eq.s32 %p3, %r1, 7;\n"   // 5
          "@%p3 bra $EXIT;\n"            // 6   b3 break
          "add.s32 %r2, %r2, %r1;\n"     // 7   b4
          "$CONT:\n"
          "add.s32 %r1, %r1, 1;\n"       // 8
          "bra.uni $LOOP;\n"             // 9   b5 back edge
          "$EXIT:\n"
          "mov.u32 %r3, %r2;\n"          // 10
          "ret;\n");                     // 11  b6
    ASSERT_TRUE(c.f);
    EXPECT_EQ(c.starts(), (V{0, 1, 3, 5, 7, 8, 10}));
    EXPECT_EQ(c.succ(0), (V{1}));
    EXPECT_EQ(c.succ(1), (V{6, 2}));
    EXPECT_EQ(c.succ(2), (V{5, 3}));
    EXPECT_EQ(c.succ(3), (V{6, 4}));
    EXPECT_EQ(c.succ(4), (V{5}));
    EXPECT_EQ(c.succ(5), (V{1}));
    EXPECT_EQ(c.ipdoms(), (V{1, 6, 6, 6, 5, 1, EXIT}));
    EXPECT_EQ(c.f->instrs[2].reconv_pc, 10u); // loop exit
    EXPECT_EQ(c.f->instrs[4].reconv_pc, 10u); // continue: the break path bypasses $CONT
    EXPECT_EQ(c.f->instrs[6].reconv_pc, 10u); // break
    EXPECT_EQ(c.f->instrs[9].reconv_pc, 1u);  // back edge: its block's ipdom is the loop head
}

TEST(PtxCfg, EarlyReturnUnderABranch)
{
    Cfg c("setp.gt.s32 %p1, %r1, 0;\n" // 0
          "@%p1 bra $A;\n"             // 1   b0
          "mov.u32 %r2, 1;\n"          // 2
          "ret;\n"                     // 3   b1: returns early
          "$A:\n"
          "mov.u32 %r2, 2;\n"          // 4
          "ret;\n");                   // 5   b2
    ASSERT_TRUE(c.f);
    EXPECT_EQ(c.starts(), (V{0, 2, 4}));
    EXPECT_EQ(c.succ(1), (V{EXIT}));
    EXPECT_EQ(c.ipdoms(), (V{EXIT, EXIT, EXIT}));
    EXPECT_EQ(c.f->instrs[1].reconv_pc, 6u); // only at the exit
}

TEST(PtxCfg, GuardedReturnFallsThrough)
{
    Cfg c("setp.gt.s32 %p1, %r1, 0;\n" // 0
          "@%p1 ret;\n"                // 1   b0
          "setp.gt.s32 %p2, %r1, 5;\n" // 2
          "@%p2 bra $L;\n"             // 3   b1
          "add.s32 %r2, %r1, 1;\n"     // 4   b2
          "$L:\n"
          "exit;\n");                  // 5   b3
    ASSERT_TRUE(c.f);
    EXPECT_EQ(c.starts(), (V{0, 2, 4, 5}));
    EXPECT_EQ(c.succ(0), (V{EXIT, 1}));
    EXPECT_EQ(c.succ(3), (V{EXIT}));
    EXPECT_EQ(c.ipdoms(), (V{EXIT, 3, 3, EXIT}));
    EXPECT_EQ(c.f->instrs[3].reconv_pc, 5u);
    EXPECT_EQ(c.f->instrs[5].op, OP_EXIT);
}

TEST(PtxCfg, IndexedBranch)
{
    Cfg c("$Ltab: .branchtargets $L0, $L1, $L2;\n"
          "ld.param.u32 %r1, [n];\n" // 0
          "brx.idx %r1, $Ltab;\n"    // 1   b0
          "$L0:\n"
          "mov.u32 %r2, 10;\n"       // 2
          "bra.uni $Ldone;\n"        // 3   b1
          "$L1:\n"
          "mov.u32 %r2, 11;\n"       // 4
          "bra.uni $Ldone;\n"        // 5   b2
          "$L2:\n"
          "mov.u32 %r2, 12;\n"       // 6   b3
          "$Ldone:\n"
          "ret;\n");                 // 7   b4
    ASSERT_TRUE(c.f);
    const ptx_instr &brx = c.f->instrs[1];
    EXPECT_EQ(brx.op, OP_BRX_IDX);
    EXPECT_EQ(brx.nopnd, 1);
    EXPECT_EQ(brx.o[0].kind, PO_REG);
    ASSERT_EQ(brx.n_targets, 3);
    EXPECT_EQ(V(brx.targets, brx.targets + 3), (V{2, 4, 6}));
    EXPECT_EQ(brx.nsrc, 1);
    EXPECT_EQ(c.starts(), (V{0, 2, 4, 6, 7}));
    EXPECT_EQ(c.f->blocks[0].nsucc, 3u);
    EXPECT_EQ(c.succ(0), (V{1, 2, 3}));
    EXPECT_EQ(c.f->blocks[0].succ[0], 1u);
    EXPECT_EQ(c.f->blocks[0].succ[1], 2u);
    EXPECT_EQ(c.ipdoms(), (V{4, 4, 4, 4, EXIT}));
    EXPECT_EQ(brx.reconv_pc, 7u);
}

TEST(PtxCfg, InfiniteLoopDoesNotCrash)
{
    Cfg c("setp.gt.s32 %p1, %r1, 0;\n" // 0
          "@%p1 bra $INF;\n"           // 1   b0
          "ret;\n"                     // 2   b1
          "$INF:\n"
          "add.s32 %r1, %r1, 1;\n"     // 3
          "bra.uni $INF;\n");          // 4   b2: never reaches the exit
    ASSERT_TRUE(c.f);
    EXPECT_EQ(c.starts(), (V{0, 2, 3}));
    EXPECT_EQ(c.succ(2), (V{2}));
    EXPECT_EQ(c.ipdoms(), (V{EXIT, EXIT, EXIT}));
    EXPECT_EQ(c.f->instrs[1].reconv_pc, 5u);
    EXPECT_EQ(c.f->instrs[4].reconv_pc, 5u);
}

TEST(PtxCfg, FallingOffTheEndAndEmptyBodies)
{
    Cfg c("setp.gt.s32 %p1, %r1, 0;\n" // 0
          "@%p1 bra $L;\n"             // 1   b0
          "add.s32 %r1, %r1, 1;\n"     // 2   b1
          "$L:\n");                    // a label at the end: the branch goes to the exit
    ASSERT_TRUE(c.f);
    EXPECT_EQ(c.f->instrs[1].o[0].imm, 3);
    EXPECT_EQ(c.succ(0), (V{EXIT, 1}));
    EXPECT_EQ(c.succ(1), (V{EXIT}));
    EXPECT_EQ(c.f->instrs[1].reconv_pc, 3u);

    Cfg e("");
    ASSERT_TRUE(e.f);
    EXPECT_EQ(e.f->n_instrs, 0u);
    EXPECT_EQ(e.f->n_blocks, 0u);
}

TEST(PtxCfg, ManyBlocksAreFast)
{
    // A chain of 20000 if-blocks: linear-time post-dominators, no deep recursion.
    std::string body = "mov.u32 %r1, 0;\n";
    for (int i = 0; i < 20000; i++)
        body += "setp.gt.s32 %p1, %r1, " + std::to_string(i) + ";\n@%p1 bra $L" + std::to_string(i) +
                ";\nadd.s32 %r1, %r1, 1;\n$L" + std::to_string(i) + ":\n";
    body += "ret;\n";
    Cfg c(body);
    ASSERT_TRUE(c.f);
    EXPECT_EQ(c.f->n_blocks, 1u + 2 * 20000);
    // Each branch reconverges right after its one-instruction 'then'.
    EXPECT_EQ(c.f->instrs[2].reconv_pc, 4u);
}
