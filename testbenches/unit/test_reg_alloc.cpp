// Register allocation of PTX virtual registers (model/analysis/reg_alloc.c): interference, loops,
// predicates, 64-bit pairs, guarded writes and the budget fold on hand-written PTX (exact), and the
// physical counts of every committed workload kernel against its ptxas report.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

extern "C" {
#include "analysis/reg_alloc.h"
#include "analysis/reg_hints.h"
#include "ptx/ptx_parse.h"
#include "ptx/ptxas_info.h"
}

namespace {

struct Alloc {
    ptx_module m{};
    strbuf err{};
    const ptx_func *f = nullptr;
    reg_alloc a{};
    explicit Alloc(const std::string &body, uint32_t budget = 0)
    {
        std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n"
                           ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n" + body + "}\n";
        strbuf_init(&err);
        EXPECT_EQ(ptx_parse("alloc.ptx", text.data(), text.size(), &m, &err, nullptr), 0) << strbuf_str(&err);
        f = m.n_funcs ? &m.funcs[0] : nullptr;
        if (f) {
            EXPECT_EQ(reg_alloc_build(&a, f, budget), 0);
        }
    }
    ~Alloc()
    {
        reg_alloc_free(&a);
        ptx_module_free(&m);
        strbuf_free(&err);
    }
    uint32_t phys(const char *name) const
    {
        for (uint32_t i = 0; i < f->n_regs; i++)
            if (!strcmp(f->regs[i].name, name)) return a.phys[i];
        ADD_FAILURE() << "no register " << name;
        return RA_NONE;
    }
    uint32_t width(const char *name) const
    {
        for (uint32_t i = 0; i < f->n_regs; i++)
            if (!strcmp(f->regs[i].name, name)) return a.width[i];
        return 99;
    }
};

}  // namespace

// A chain whose every value dies where the next is made needs one register; the last result, which
// nothing reads, gets one of its own (it may land late: reg_alloc.c).
TEST(RegAlloc, ChainReusesOneRegister)
{
    Alloc t("ld.param.u32 %r1, [n];\n"
            "add.u32 %r2, %r1, 1;\n"
            "mul.lo.u32 %r3, %r2, %r2;\n"
            "add.u32 %r4, %r3, 7;\n"
            "ret;\n");
    EXPECT_EQ(t.a.n_colours, 2u);
    EXPECT_EQ(t.phys("%r1"), 0u);
    EXPECT_EQ(t.phys("%r3"), 0u);
    EXPECT_EQ(t.phys("%r4"), 1u);
    EXPECT_EQ(t.phys("%r7"), RA_NONE);  // never accessed
    EXPECT_EQ(t.width("%r7"), 0u);
}

// Two values live at once interfere; the sum may take either's register.
TEST(RegAlloc, InterferenceNeedsTwo)
{
    Alloc t("ld.param.u32 %r1, [n];\n"
            "add.u32 %r2, %r1, 1;\n"
            "add.u32 %r3, %r1, %r2;\n"
            "add.u32 %r4, %r3, %r1;\n"
            "ret;\n");
    EXPECT_EQ(t.a.n_colours, 3u);  // r1, r2 (then r3), and the unread r4
    EXPECT_NE(t.phys("%r1"), t.phys("%r2"));
    EXPECT_NE(t.phys("%r1"), t.phys("%r3"));  // r1 is read after r3 is made
    EXPECT_EQ(t.phys("%r3"), t.phys("%r2"));  // r2 dies at r3's write
    EXPECT_EQ(t.phys("%r4"), 2u);
}

// A value defined before a loop and read after it is live through the loop body: it interferes
// with the loop's counter and temporaries; the counter is live around the back edge.
TEST(RegAlloc, LoopKeepsValuesLive)
{
    Alloc t("ld.param.u32 %r1, [n];\n"       // live until after the loop
            "mov.u32 %r2, 0;\n"              // counter
            "L:\n"
            "add.u32 %r3, %r2, 3;\n"         // temporary, dies in the body
            "add.u32 %r2, %r3, 1;\n"
            "setp.lt.u32 %p1, %r2, 10;\n"
            "@%p1 bra L;\n"
            "add.u32 %r4, %r1, %r2;\n"
            "ret;\n");
    EXPECT_NE(t.phys("%r1"), t.phys("%r2"));
    EXPECT_NE(t.phys("%r1"), t.phys("%r3"));
    EXPECT_EQ(t.phys("%r3"), t.phys("%r2"));  // r2 dies at r3's write, is re-made from it
    EXPECT_EQ(t.a.n_colours, 3u);             // and the unread r4
    // Predicates live in the predicate file.
    EXPECT_EQ(t.phys("%p1"), RA_NONE);
    EXPECT_EQ(t.width("%p1"), 0u);
}

// Without the loop, the same r1 would be dead before r3 exists: the back edge is what keeps it.
TEST(RegAlloc, BackEdgeExtendsLiveRange)
{
    Alloc t("ld.param.u32 %r1, [n];\n"
            "L:\n"
            "add.u32 %r2, %r1, 1;\n"         // r1 read in every iteration
            "setp.lt.u32 %p1, %r2, 10;\n"
            "add.u32 %r3, %r2, 2;\n"         // r3 dead right away, but r1 is still live (next iteration)
            "@%p1 bra L;\n"
            "ret;\n");
    EXPECT_NE(t.phys("%r1"), t.phys("%r2"));
    EXPECT_NE(t.phys("%r1"), t.phys("%r3"));
}

// 64-bit registers take an aligned pair; a 32-bit value live beside it takes another register.
TEST(RegAlloc, SixtyFourBitPairsAligned)
{
    Alloc t("ld.param.u32 %r1, [n];\n"
            "cvt.u64.u32 %rd1, %r1;\n"
            "add.u32 %r2, %r1, 1;\n"
            "add.u64 %rd2, %rd1, 8;\n"
            "cvt.u32.u64 %r3, %rd2;\n"
            "add.u32 %r4, %r3, %r2;\n"
            "ret;\n");
    EXPECT_EQ(t.width("%rd1"), 2u);
    EXPECT_EQ(t.phys("%rd1") % 2, 0u);
    EXPECT_EQ(t.phys("%rd2") % 2, 0u);
    EXPECT_EQ(t.phys("%r1"), 0u);
    EXPECT_EQ(t.phys("%rd1"), 2u);            // r1 is live at rd1's write: the next aligned pair
    EXPECT_EQ(t.phys("%r2"), t.phys("%r1"));  // r1 dies where r2 is made; r2 is live with rd1 and rd2
    EXPECT_TRUE(t.phys("%r2") < t.phys("%rd1") || t.phys("%r2") >= t.phys("%rd1") + 2);
    EXPECT_EQ(t.phys("%r3"), 1u);             // live with r2 (0) only: rd2 died at r3's write
    EXPECT_EQ(t.phys("%r4"), 4u);             // unread: a register of its own
    EXPECT_EQ(t.a.n_colours, 5u);
}

// A guarded write keeps the old value in the other lanes: the register is live before it (here from
// the entry), so it cannot share the register of a value that dies before the guarded write.
TEST(RegAlloc, GuardedWriteKeepsOldValue)
{
    auto body = [](const std::string &guard) {
        return "ld.param.u32 %r1, [n];\n"
               "setp.eq.u32 %p1, %r1, 0;\n"  // r1 dies here
               + guard + " mov.u32 %r2, 7;\n"
               "add.u32 %r3, %r2, 1;\n"
               "ret;\n";
    };
    Alloc g(body("@%p1")), p(body(""));
    EXPECT_NE(g.phys("%r2"), g.phys("%r1"));
    EXPECT_EQ(p.phys("%r2"), p.phys("%r1"));
}

// Colours past the budget fold onto the budget's registers, which are then shared.
TEST(RegAlloc, BudgetFoldsSpills)
{
    const char *body = "ld.param.u32 %r1, [n];\n"
                       "add.u32 %r2, %r1, 1;\n"
                       "add.u32 %r3, %r1, 2;\n"
                       "add.u32 %r4, %r2, %r3;\n"
                       "add.u32 %r5, %r4, %r1;\n"
                       "ret;\n";
    Alloc free_(body), tight(body, 2);
    EXPECT_EQ(free_.a.n_colours, 4u);  // r1, r2, r3 live at once; the unread r5 alone
    EXPECT_EQ(free_.a.n_spilled, 0u);
    EXPECT_EQ(free_.phys("%r4"), 1u);  // r2 and r3 die where r4 is made; r1 holds 0
    EXPECT_EQ(tight.a.n_colours, 4u);
    EXPECT_EQ(tight.a.n_phys, 2u);
    EXPECT_EQ(tight.a.n_spilled, 2u);
    EXPECT_EQ(tight.phys("%r3"), 0u);  // colour 2 folds onto 0
    EXPECT_EQ(tight.phys("%r5"), 1u);  // colour 3 onto 1
    EXPECT_EQ(tight.phys("%r1"), 0u);
    EXPECT_EQ(tight.a.shared[0], 1);
    EXPECT_EQ(tight.a.shared[1], 1);
}

namespace {

std::string slurp(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

// Every committed workload kernel: our colouring needs about what ptxas allocates. ptxas also
// schedules (hoisting loads ahead of their uses to hide latency, which lengthens live ranges:
// more registers, e.g. convsep conv_rows 59 vs our 24) and rematerialises constants and addresses
// (fewer, e.g. storegpu md5_chunks 50 vs 116); we colour nvcc's PTX in its own order. So per kernel
// the counts agree within a factor of 4 (lud: 17 vs 64), and over all kernels within 15 %.
TEST(RegAlloc, WorkloadKernelsNearPtxas)
{
    uint64_t ours = 0, theirs = 0;
    int kernels = 0;
    for (const auto &e : std::filesystem::recursive_directory_iterator(std::string(GTLM_SOURCE_DIR) + "/workloads")) {
        std::string p = e.path().string();
        if (p.size() < 4 || p.compare(p.size() - 4, 4, ".ptx") != 0) continue;
        std::string report = slurp(p.substr(0, p.size() - 4) + ".ptxas.txt");
        if (report.empty()) continue;
        ptxas_func *pf = nullptr;
        size_t npf = 0;
        char err[256];
        ASSERT_EQ(ptxas_info_parse(report.c_str(), &pf, &npf, err, sizeof err), 0) << p << ": " << err;
        std::string text = slurp(p);
        ptx_module m{};
        strbuf perr;
        strbuf_init(&perr);
        ASSERT_EQ(ptx_parse(p.c_str(), text.data(), text.size(), &m, &perr, nullptr), 0) << strbuf_str(&perr);
        for (uint32_t i = 0; i < m.n_funcs; i++) {
            const ptx_func *f = &m.funcs[i];
            if (!f->is_entry) continue;
            const ptxas_func *q = nullptr;
            for (size_t j = 0; j < npf; j++)
                if (!strcmp(pf[j].name, f->name)) q = &pf[j];
            if (!q) continue;
            reg_alloc a{};
            ASSERT_EQ(reg_alloc_build(&a, f, 0), 0) << f->name;
            EXPECT_LE(a.n_colours, 3 * q->registers) << p << " " << f->name;
            EXPECT_GE(4 * a.n_colours, q->registers) << p << " " << f->name;
            printf("  %-40s %-28.28s virtual %5u  allocated %3u  ptxas %3u\n", e.path().filename().c_str(), f->name,
                   f->n_regs, a.n_colours, q->registers);
            ours += a.n_colours;
            theirs += q->registers;
            kernels++;
            reg_alloc_free(&a);
        }
        ptx_module_free(&m);
        strbuf_free(&perr);
        free(pf);
    }
    EXPECT_GT(kernels, 30);
    EXPECT_LE(ours * 100, theirs * 115);
    EXPECT_GE(ours * 115, theirs * 100);
    printf("  %d kernels: allocated %llu, ptxas %llu registers in all\n", kernels, (unsigned long long)ours,
           (unsigned long long)theirs);
}

// The hint pass over an allocation (reg_hints_build_units): a 64-bit operand spans two warp registers
// and gets the join of their next accesses (read if either is, the nearer one); a predicate spans
// none (undetermined: read).
TEST(RegAlloc, HintsOverAllocatedPairs)
{
    Alloc t("ld.param.u32 %r4, [n];\n"        // 0: r4 -> 0
            "cvt.u64.u32 %rd1, %r4;\n"        // 1: r4 dies, rd1 -> 0,1
            "cvt.u32.u64 %r1, %rd1;\n"        // 2: rd1 dies, r1 -> 0
            "mov.u32 %r2, 5;\n"               // 3: r2 -> 1 (rd1's second half)
            "setp.eq.u32 %p1, %r2, 0;\n"      // 4
            "@%p1 add.u32 %r3, %r2, %r1;\n"   // 5: unread r3 -> 2
            "ret;\n");
    ASSERT_EQ(t.phys("%rd1"), 0u);
    ASSERT_EQ(t.phys("%r1"), 0u);
    ASSERT_EQ(t.phys("%r2"), 1u);
    ASSERT_EQ(t.phys("%r3"), 2u);
    reg_units u{t.a.phys, t.a.width, t.a.shared, 4};
    reg_hints h{};
    ASSERT_EQ(reg_hints_build_units(&h, t.f, &u, REG_HINTS_LOOPS_DATAFLOW), 0);
    const reg_hint *src = reg_hint_src(&h, t.f, 2, 0);  // rd1 at pc 2
    ASSERT_NE(src, nullptr);
    // Half 0 is read next at pc 5 (r1, 3 away), half 1 written at pc 3 (r2, 1 away): read, 1 away.
    EXPECT_EQ(src->kind, RH_READ);
    EXPECT_EQ(src->dist, 1u);
    EXPECT_EQ(src->next_pc, 3u);
    const reg_hint *d = reg_hint_dst(&h, t.f, 1, 0);  // rd1 written at pc 1: both halves read at pc 2
    EXPECT_EQ(d->kind, RH_READ);
    EXPECT_EQ(d->dist, 1u);
    const reg_hint *w = reg_hint_dst(&h, t.f, 3, 0);  // r2: read at pc 4
    EXPECT_EQ(w->kind, RH_READ);
    EXPECT_EQ(w->next_pc, 4u);
    EXPECT_EQ(h.entry[0].kind, RH_WRITE);  // first written (ld.param): OFF until then
    EXPECT_EQ(h.entry[1].kind, RH_WRITE);  // first written by rd1's cvt
    EXPECT_EQ(h.entry[2].kind, RH_READ);   // a guarded write may keep the old value: a read
    EXPECT_EQ(h.entry[3].kind, RH_NONE);   // never used
    reg_hints_free(&h);
}
