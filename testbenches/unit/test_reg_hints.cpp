// Slumber's compiler hints (model/analysis/reg_hints.c) on hand-written PTX: the next access of
// every operand register after its instruction (read / write / none), its distance and pc,
// through branches and loops, under both loop rules, and over shared storage units. Exact.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "analysis/reg_hints.h"
#include "ptx/ptx_parse.h"
}

namespace {

struct Hints {
    ptx_module m{};
    strbuf err{};
    const ptx_func *f = nullptr;
    reg_hints h{};
    Hints(const std::string &body, int rule = REG_HINTS_LOOPS_DATAFLOW, const std::vector<uint32_t> *units = nullptr,
          uint32_t n_units = 0)
    {
        std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n"
                           ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n" + body + "}\n";
        strbuf_init(&err);
        EXPECT_EQ(ptx_parse("hints.ptx", text.data(), text.size(), &m, &err, nullptr), 0) << strbuf_str(&err);
        f = m.n_funcs ? &m.funcs[0] : nullptr;
        if (f) {
            EXPECT_EQ(reg_hints_build(&h, f, units ? units->data() : nullptr, n_units, rule), 0);
        }
    }
    ~Hints()
    {
        reg_hints_free(&h);
        ptx_module_free(&m);
        strbuf_free(&err);
    }
    uint32_t slot(const char *name) const
    {
        for (uint32_t i = 0; i < f->n_regs; i++)
            if (!strcmp(f->regs[i].name, name)) return i;
        ADD_FAILURE() << "no register " << name;
        return UINT32_MAX;
    }
    // The hint of register `name` as a source (dst = false) or destination of the instruction at pc.
    reg_hint at(uint32_t pc, const char *name, bool dst) const
    {
        const ptx_instr &in = f->instrs[pc];
        uint32_t r = slot(name);
        for (int i = 0; i < (dst ? in.ndst : in.nsrc); i++)
            if ((dst ? in.dst[i] : in.src[i]) == r) return *(dst ? reg_hint_dst(&h, f, pc, i) : reg_hint_src(&h, f, pc, i));
        ADD_FAILURE() << name << " is no " << (dst ? "destination" : "source") << " of pc " << pc;
        return reg_hint{};
    }
};

void expect(const reg_hint &h, int kind, uint32_t dist, uint32_t next_pc)
{
    EXPECT_EQ(h.kind, kind);
    EXPECT_EQ(h.dist, dist);
    EXPECT_EQ(h.next_pc, next_pc);
}

}  // namespace

TEST(RegHints, StraightLine)
{
    Hints t("ld.param.u32 %r1, [n];\n"        // 0
            "add.u32 %r2, %r1, 1;\n"          // 1
            "mul.lo.u32 %r3, %r2, %r2;\n"     // 2
            "mov.u32 %r1, 5;\n"               // 3
            "add.u32 %r4, %r1, %r3;\n"        // 4
            "ret;\n");                        // 5
    const uint32_t end = t.f->n_instrs;
    expect(t.at(0, "%r1", true), RH_READ, 1, 1);
    expect(t.at(1, "%r1", false), RH_WRITE, 2, 3);  // overwritten before any read: may be gated OFF
    expect(t.at(1, "%r2", true), RH_READ, 1, 2);
    expect(t.at(2, "%r2", false), RH_NONE, RH_FAR, end);  // dead
    expect(t.at(2, "%r3", true), RH_READ, 2, 4);
    expect(t.at(3, "%r1", true), RH_READ, 1, 4);
    expect(t.at(4, "%r4", true), RH_NONE, RH_FAR, end);
}

TEST(RegHints, ReadModifyWriteIsARead)
{
    Hints t("mov.u32 %r1, 1;\n"               // 0
            "add.u32 %r1, %r1, 1;\n"          // 1: reads first
            "ret;\n");
    expect(t.at(0, "%r1", true), RH_READ, 1, 1);
}

TEST(RegHints, BranchesAnyReadingPathMakesItARead)
{
    Hints t("mov.u32 %r2, 7;\n"               // 0
            "ld.param.u32 %r1, [n];\n"        // 1
            "setp.eq.u32 %p1, %r1, 0;\n"      // 2
            "@%p1 bra ELSE;\n"                // 3
            "mov.u32 %r2, 1;\n"               // 4 then: writes r2
            "mov.u32 %r5, 1;\n"               // 5 then: writes r5
            "bra END;\n"                      // 6
            "ELSE:\n"
            "add.u32 %r3, %r2, 1;\n"          // 7 else: reads r2
            "mov.u32 %r5, 2;\n"               // 8 else: writes r5
            "END:\n"
            "add.u32 %r4, %r1, %r5;\n"        // 9
            "ret;\n");                        // 10
    // r2: written on one path, read on the other: must be kept (read). Shortest: 4 on both, pc 4 < 7.
    expect(t.at(0, "%r2", true), RH_READ, 4, 4);
    // r1 at the setp: read again at pc 9 on both paths: else 3,7,8,9 = 4; then 3,4,5,6,9 = 5.
    expect(t.at(2, "%r1", false), RH_READ, 4, 9);
    // The guard is read by the branch.
    expect(t.at(2, "%p1", true), RH_READ, 1, 3);
    // r5 read at END after a write on both paths.
    expect(t.at(5, "%r5", true), RH_READ, 2, 9);
    expect(t.at(8, "%r5", true), RH_READ, 1, 9);
    // r2 read in ELSE: no thread touches it again, but the other side's lanes write it (SIMT order):
    // a write, from that side's start.
    expect(t.at(7, "%r2", false), RH_WRITE, 1, 4);
}

TEST(RegHints, BranchesEveryPathWritesIsAWrite)
{
    Hints t("mov.u32 %r5, 0;\n"               // 0
            "ld.param.u32 %r1, [n];\n"        // 1
            "setp.eq.u32 %p1, %r1, 0;\n"      // 2
            "@%p1 bra ELSE;\n"                // 3
            "mov.u32 %r5, 1;\n"               // 4
            "bra END;\n"                      // 5
            "ELSE:\n"
            "mov.u32 %r5, 2;\n"               // 6
            "END:\n"
            "add.u32 %r4, %r1, %r5;\n"        // 7
            "ret;\n");
    expect(t.at(0, "%r5", true), RH_WRITE, 4, 4);  // both paths at distance 4: the lower pc
}

// A value the other side's lanes still read stays live across the side the warp runs first.
TEST(RegHints, DivergentSidesSeeEachOther)
{
    Hints t("mov.u32 %r1, 5;\n"               // 0
            "ld.param.u32 %r2, [n];\n"        // 1
            "setp.eq.u32 %p1, %r2, 0;\n"      // 2
            "@%p1 bra B;\n"                   // 3
            "add.u32 %r3, %r1, 1;\n"          // 4 side A: reads r1 ...
            "mov.u32 %r1, 0;\n"               // 5 ... then overwrites it
            "bra END;\n"                      // 6
            "B:\n"
            "add.u32 %r3, %r1, 2;\n"          // 7 side B: reads the old r1
            "END:\n"
            "add.u32 %r4, %r1, %r3;\n"        // 8
            "ret;\n");
    // After side A's read, per thread the next access is A's write at pc 5, but that write replaces
    // A's lanes only: B's lanes still read their r1 (pc 7, and pc 8): a read.
    expect(t.at(4, "%r1", false), RH_READ, 1, 5);
    expect(t.at(7, "%r1", false), RH_READ, 1, 8);
    Hints d("mov.u32 %r1, 5;\n"               // 0   the same with dataflow loops: no loop, same result
            "ld.param.u32 %r2, [n];\n"
            "setp.eq.u32 %p1, %r2, 0;\n"
            "@%p1 bra B;\n"
            "add.u32 %r3, %r1, 1;\n"          // 4
            "mov.u32 %r1, 0;\n"
            "bra END;\n"
            "B:\n"
            "mov.u32 %r3, 2;\n"               // 7 side B does not use r1
            "END:\n"
            "add.u32 %r4, %r3, 1;\n"          // 8 nor does the code after
            "ret;\n");
    // Nobody reads r1 after A's read but A's own write: a write, gating is safe.
    expect(d.at(4, "%r1", false), RH_WRITE, 1, 5);
}

TEST(RegHints, GuardedWriteKeepsTheOldValue)
{
    Hints t("mov.u32 %r1, 0;\n"               // 0
            "ld.param.u32 %r2, [n];\n"        // 1
            "setp.eq.u32 %p1, %r2, 0;\n"      // 2
            "@%p1 mov.u32 %r1, 1;\n"          // 3: may not write
            "add.u32 %r3, %r1, 1;\n"          // 4
            "ret;\n");
    expect(t.at(0, "%r1", true), RH_READ, 3, 3);
}

namespace {
// A counted loop: r1 the counter, r2 the sum, r4 written in the loop and after it, r5 written before
// the loop and overwritten after it (untouched inside).
const char *kLoop = "mov.u32 %r1, 0;\n"           // 0
                    "mov.u32 %r2, 0;\n"           // 1
                    "mov.u32 %r5, 9;\n"           // 2
                    "LOOP:\n"
                    "add.u32 %r2, %r2, %r1;\n"    // 3
                    "mov.u32 %r4, %r2;\n"         // 4
                    "add.u32 %r1, %r1, 1;\n"      // 5
                    "setp.lt.u32 %p1, %r1, 10;\n" // 6
                    "@%p1 bra LOOP;\n"            // 7
                    "mov.u32 %r4, 3;\n"           // 8
                    "mov.u32 %r5, 4;\n"           // 9
                    "add.u32 %r3, %r2, %r4;\n"    // 10
                    "add.u32 %r3, %r3, %r5;\n"    // 11
                    "ret;\n";                     // 12
}  // namespace

TEST(RegHints, LoopDataflowRule)
{
    Hints t(kLoop, REG_HINTS_LOOPS_DATAFLOW);
    expect(t.at(0, "%r1", true), RH_READ, 3, 3);
    // The counter after its compare: read again in the next iteration (pc 3, 2 away) or overwritten? No:
    // after the loop r1 is dead; the back edge reads it.
    expect(t.at(6, "%r1", false), RH_READ, 2, 3);
    // r4 in the loop: the next iteration writes it (pc 4) and so does the code after the loop (pc 8).
    expect(t.at(4, "%r4", true), RH_WRITE, 4, 8);
    // r5 before the loop: overwritten after it, never touched inside: a write.
    expect(t.at(2, "%r5", true), RH_WRITE, 7, 9);
    // r2 read in the loop body (pc 4): next read at pc 3 of the next iteration or pc 10 after the loop.
    expect(t.at(4, "%r2", false), RH_READ, 4, 3);
}

TEST(RegHints, LoopConservativeRule)
{
    Hints t(kLoop, REG_HINTS_LOOPS_CONSERVATIVE);
    expect(t.at(0, "%r1", true), RH_READ, 3, 3);    // no back edge on the way: unchanged
    expect(t.at(6, "%r1", false), RH_READ, 2, 3);
    // Each of these next accesses may lie across the back edge: undetermined = read.
    expect(t.at(4, "%r4", true), RH_READ, 4, 8);
    expect(t.at(2, "%r5", true), RH_READ, 7, 9);
    // After the loop nothing changes.
    expect(t.at(8, "%r4", true), RH_READ, 2, 10);
    expect(t.at(9, "%r5", true), RH_READ, 2, 11);
}

TEST(RegHints, NestedLoops)
{
    Hints t("mov.u32 %r1, 0;\n"               // 0
            "OUTER:\n"
            "mov.u32 %r2, 0;\n"               // 1 inner counter written
            "INNER:\n"
            "add.u32 %r2, %r2, 1;\n"          // 2
            "setp.lt.u32 %p1, %r2, 4;\n"      // 3
            "@%p1 bra INNER;\n"               // 4
            "add.u32 %r1, %r1, 1;\n"          // 5
            "setp.lt.u32 %p2, %r1, 4;\n"      // 6
            "@%p2 bra OUTER;\n"               // 7
            "ret;\n",                         // 8
            REG_HINTS_LOOPS_DATAFLOW);
    // r2 after the inner compare: read by the inner back edge (pc 2) or rewritten by the outer one (pc 1).
    expect(t.at(3, "%r2", false), RH_READ, 2, 2);
    // p2 read by its branch only, then rewritten in the next outer iteration (or dead): a write.
    expect(t.at(7, "%p2", false), RH_WRITE, 6, 6);
    // p1 after its branch: the next inner iteration rewrites it (pc 3), 2 away.
    expect(t.at(4, "%p1", false), RH_WRITE, 2, 3);
}

TEST(RegHints, SharedUnits)
{
    // r1 and r2 share a unit: writing r2 is the next access to r1's storage too, but it keeps r1's
    // value (a partial write: a read for gating); reading r1 later is the next access after it.
    Hints probe("mov.u32 %r1, 1;\nmov.u32 %r2, 2;\nadd.u32 %r3, %r1, %r2;\nret;\n");
    std::vector<uint32_t> units(probe.f->n_regs);
    for (uint32_t i = 0; i < units.size(); i++) units[i] = i;
    units[probe.slot("%r2")] = probe.slot("%r1");
    Hints t("mov.u32 %r1, 1;\n"               // 0
            "mov.u32 %r2, 2;\n"               // 1
            "add.u32 %r3, %r1, %r2;\n"        // 2
            "ret;\n",
            REG_HINTS_LOOPS_DATAFLOW, &units, (uint32_t)units.size());
    expect(t.at(0, "%r1", true), RH_READ, 1, 1);  // the unit's next access: r2's write, r1 kept
    expect(t.at(1, "%r2", true), RH_READ, 1, 2);
    expect(t.at(2, "%r1", false), RH_NONE, RH_FAR, t.f->n_instrs);
}

TEST(RegHints, EntryHintIsTheFirstAccess)
{
    Hints t("ld.param.u32 %r1, [n];\n"        // 0
            "add.u32 %r2, %r1, 1;\n"          // 1
            "add.u32 %r4, %r2, %r2;\n"        // 2
            "ret;\n");
    ASSERT_EQ(t.h.n_units, t.f->n_regs);
    const reg_hint &r1 = t.h.entry[t.slot("%r1")];
    EXPECT_EQ(r1.kind, RH_WRITE);
    EXPECT_EQ(r1.dist, 1u);
    EXPECT_EQ(r1.next_pc, 0u);
    const reg_hint &r4 = t.h.entry[t.slot("%r4")];
    EXPECT_EQ(r4.kind, RH_WRITE);
    EXPECT_EQ(r4.dist, 3u);
    EXPECT_EQ(t.h.entry[t.slot("%r7")].kind, RH_NONE);  // never used
}
