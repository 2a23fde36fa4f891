// Decoding of single hand-written instructions (the tier B forms nvcc rarely emits), operand
// syntax, immediates, and the layout of every state space.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

extern "C" {
#include "ptx/ptx_ir.h"
#include "ptx/ptx_opcodes.h"
#include "ptx/ptx_parse.h"
}
#include "ptx_instr_value.h"

namespace {

const char *const REGS = ".reg .pred %p<4>;\n.reg .b16 %rs<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                         ".reg .f32 %f<4>;\n.reg .f64 %fd<4>;\n.reg .f16 %h<2>;\n.reg .b32 temp_param_reg;\n";

struct Module {
    ptx_module m{};
    strbuf err{};
    int rc;
    explicit Module(const std::string &text)
    {
        strbuf_init(&err);
        rc = ptx_parse("dec.ptx", text.data(), text.size(), &m, &err, nullptr);
    }
    ~Module()
    {
        ptx_module_free(&m);
        strbuf_free(&err);
    }
};

// One kernel k(.param .u64 a, .param .align 8 .b8 s[24]) with REGS and the given body.
struct Kernel : Module {
    const ptx_func *f = nullptr;
    explicit Kernel(const std::string &body, const std::string &prefix = "")
        : Module(".version 9.0\n.target sm_75\n.address_size 64\n" + prefix +
                 ".visible .entry k(.param .u64 a, .param .align 8 .b8 s[24])\n{\n" + REGS + body + "}\n")
    {
        EXPECT_EQ(rc, 0) << strbuf_str(&err);
        f = rc == 0 ? ptx_module_find_func(&m, "k") : nullptr;
    }
    const ptx_instr &in(uint32_t pc) const { return f->instrs[pc]; }
    uint32_t reg(const char *name) const
    {
        for (uint32_t i = f->n_regs; i-- > 0;)
            if (std::strcmp(f->regs[i].name, name) == 0) return i;
        return PTX_NO_REG;
    }
};

std::string opcode(const ptx_instr &in)
{
    char buf[64];
    ptx_format_opcode(&in, buf, sizeof buf);
    return buf;
}

// Parses one instruction and returns it (copied: the module goes away).
InstrValue one(const std::string &text)
{
    Kernel k(text + "\n");
    if (k.f && k.f->n_instrs == 1) return InstrValue(k.f->instrs[0]);
    ADD_FAILURE() << "did not parse: " << text;
    return InstrValue();
}

uint32_t f32(float x)
{
    uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
}

int64_t f64(double x)
{
    int64_t u;
    std::memcpy(&u, &x, 8);
    return u;
}

}  // namespace

TEST(PtxDecode, CanonicalOpcodeStrings)
{
    // Each instruction decodes, and formats back to its own opcode string.
    for (const char *text : {
             "red.global.add.u32 [%rd1], %r1;", "red.shared.max.s32 [%r1], %r2;", "atom.add.u32 %r1, [%rd1], 1;",
             "atom.global.dec.u32 %r1, [%rd1], 9;", "atom.global.xor.b64 %rd1, [%rd1], %rd2;",
             "atom.global.add.u64 %rd1, [%rd1], 1;", "atom.relaxed.global.add.u32 %r1, [%rd1], 1;", "exit;",
             "activemask.b32 %r1;", "shfl.sync.up.b32 %r1, %r2, 1, 0, -1;", "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;",
             "shfl.sync.idx.b32 %r1, %r2, %r3, 31, %r4;", "vote.sync.all.pred %p1, %p2, -1;",
             "vote.sync.uni.pred %p1, !%p2, -1;", "prmt.b32 %r1, %r2, %r3, 0x3210;", "prmt.b32.f4e %r1, %r2, %r3, %r4;",
             "bfe.u32 %r1, %r2, 8, 4;", "bfe.s64 %rd1, %rd2, %r1, %r2;", "bfi.b32 %r1, %r2, %r3, 8, 4;",
             "testp.finite.f32 %p1, %f1;", "testp.notanumber.f64 %p1, %fd1;", "set.lt.u32.f32 %r1, %f1, %f2;",
             "set.eq.and.u32.s32 %r1, %r2, %r3, !%p1;", "slct.s32.s32 %r1, %r2, %r3, %r4;",
             "slct.ftz.f32.f32 %f1, %f2, %f3, %f1;", "mul24.lo.s32 %r1, %r2, %r3;", "mad24.hi.u32 %r1, %r2, %r3, %r4;",
             "sad.u32 %r1, %r2, %r3, %r4;", "tanh.approx.f32 %f1, %f2;", "fence.sc.cta;", "fence.acq_rel.gpu;",
             "fence.sc.sys;", "membar.sys;", "nanosleep.u32 100;", "bar.sync 1, 64;", "barrier.sync 0;",
             "bar.arrive 1, 64;", "bar.red.popc.u32 %r1, 0, %p1;",
             "bar.red.and.pred %p1, 0, !%p2;", "bar.red.or.pred %p1, 1, 64, %p2;", "bar.warp.sync -1;",
             "setp.lt.and.s32 %p1|%p2, %r1, %r2, %p3;", "setp.num.ftz.f32 %p1, %f1, %f2;", "cvta.to.global.u64 %rd1, %rd2;",
             "cvta.local.u64 %rd1, %rd2;", "cvt.rzi.ftz.sat.s32.f32 %r1, %f1;", "cvt.rn.f32.f64 %f1, %fd1;",
             "cvt.u16.u32 %rs1, %r1;", "copysign.f64 %fd1, %fd2, %fd3;", "div.full.ftz.f32 %f1, %f2, %f3;",
             "div.rn.f64 %fd1, %fd2, %fd3;", "rcp.approx.ftz.f64 %fd1, %fd2;", "sqrt.approx.ftz.f32 %f1, %f2;",
             "rsqrt.approx.f64 %fd1, %fd2;", "min.ftz.f32 %f1, %f2, %f3;", "max.u16 %rs1, %rs2, %rs3;",
             "abs.s16 %rs1, %rs2;", "neg.f32 %f1, %f2;", "fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f1;",
             "mad.rn.f64 %fd1, %fd2, %fd3, %fd1;", "mad.hi.sat.s32 %r1, %r2, %r3, %r4;", "mul.wide.u16 %r1, %rs1, %rs2;",
             "add.sat.s32 %r1, %r2, %r3;", "sub.cc.u64 %rd1, %rd2, %rd3;", "addc.cc.s32 %r1, %r2, %r3;",
             "div.u64 %rd1, %rd2, %rd3;", "rem.u32 %r1, %r2, %r3;", "shf.r.clamp.b32 %r1, %r2, %r3, %r4;",
             "shr.s16 %rs1, %rs2, 3;", "cnot.b32 %r1, %r2;", "not.pred %p1, %p2;", "xor.b16 %rs1, %rs2, %rs3;",
             "selp.s64 %rd1, %rd2, %rd3, %p1;", "mov.pred %p1, 1;", "ld.volatile.shared.u8 %rs1, [%r1];",
             "ld.relaxed.global.u32 %r1, [%rd1];", "ld.acquire.global.u32 %r1, [%rd1];",
             "st.release.global.u32 [%rd1], %r1;", "ld.global.v4.u32 {%r1, _, %r2, _}, [%rd1];",
             "ld.local.s8 %rs1, [%rd1];", "st.local.v2.u32 [%rd1+8], {%r1, %r2};", "ret.uni;", "trap;",
             "lg2.approx.ftz.f32 %f1, %f2;", "ex2.approx.f32 %f1, %f2;", "popc.b64 %r1, %rd1;", "brev.b64 %rd1, %rd2;",
             "bfind.s64 %r1, %rd1;", "and.pred %p1, %p2, %p3;", "or.b64 %rd1, %rd2, %rd3;", "shl.b16 %rs1, %rs2, 1;",
         }) {
        InstrValue in = one(text);
        std::string t = text;
        std::string op = t.substr(0, t.find_first_of(" ;"));
        EXPECT_EQ(opcode(in), op) << text;
    }
}

TEST(PtxDecode, EveryCensusOpcodeDecodes)
{
    // The union of the full opcode strings of the census (workloads-and-ptx.md section 3.4)
    // but tex: each decodes and formats back to itself.
    static const char *const census[] = {
        "abs.f32", "abs.f64", "abs.s32", "add.cc.u32", "add.f32", "add.f64", "add.rn.f32", "add.rn.f64", "add.s16",
        "add.s32", "add.s64", "add.u64", "addc.cc.u32", "addc.u32", "and.b16", "and.b32", "and.b64", "and.pred",
        "atom.global.add.f32", "atom.global.add.f64", "atom.global.add.u32", "atom.global.and.b32",
        "atom.global.cas.b32", "atom.global.exch.b32", "atom.global.inc.u32", "atom.global.max.s32",
        "atom.global.min.s32", "atom.global.or.b32", "atom.shared.add.u32", "bar.sync", "bar.warp.sync", "bfi.b64",
        "bfind.shiftamt.u32", "bra.uni", "brev.b32", "call.uni", "clz.b32", "clz.b64", "copysign.f32",
        "cos.approx.f32", "cvt.f64.f32", "cvt.rmi.f32.f32", "cvt.rn.f32.f64", "cvt.rn.f32.s32", "cvt.rn.f32.u32",
        "cvt.rn.f64.s32", "cvt.rn.f64.s64", "cvt.rni.f32.f32", "cvt.rni.s32.f32", "cvt.rni.s32.f64",
        "cvt.rpi.f32.f32", "cvt.rpi.f64.f64", "cvt.rzi.f32.f32", "cvt.rzi.f64.f64", "cvt.rzi.s32.f32",
        "cvt.rzi.s32.f64", "cvt.s16.s8", "cvt.s32.s8", "cvt.s64.s32", "cvt.sat.f32.f32", "cvt.u32.u16",
        "cvt.u32.u64", "cvt.u64.u32", "cvta.global.u64", "cvta.local.u64", "cvta.shared.u64", "cvta.to.global.u64",
        "cvta.to.local.u64", "div.approx.f32", "div.rn.f32", "div.rn.f64", "div.s32", "ex2.approx.f32",
        "ex2.approx.ftz.f32", "fma.rm.f32", "fma.rn.f32", "fma.rn.f64", "ld.const.f32", "ld.const.f64",
        "ld.const.u32", "ld.f32", "ld.global.f32", "ld.global.f64", "ld.global.nc.f32", "ld.global.nc.u32",
        "ld.global.nc.u64", "ld.global.nc.v2.f64", "ld.global.s32", "ld.global.s8", "ld.global.u16", "ld.global.u32",
        "ld.global.u64", "ld.global.u8", "ld.global.v2.f64", "ld.global.v2.u32", "ld.global.v4.f32",
        "ld.global.v4.u32", "ld.global.v4.u8", "ld.local.f32", "ld.local.u32", "ld.local.u64", "ld.local.u8",
        "ld.local.v4.f32", "ld.param.b32", "ld.param.f32", "ld.param.f64", "ld.param.u32", "ld.param.u64",
        "ld.param.v2.u32", "ld.s8", "ld.shared.f32", "ld.shared.f64", "ld.shared.s32", "ld.shared.u32",
        "ld.shared.v4.u32", "ld.shared.v4.u8", "ld.u8", "ld.volatile.global.u32", "lg2.approx.f32", "mad.lo.cc.u32",
        "mad.lo.s32", "mad.wide.u32", "madc.hi.cc.u32", "madc.hi.u32", "madc.lo.cc.u32", "max.f32", "max.s32",
        "membar.cta", "membar.gl", "min.f32", "min.s32", "min.u32", "mov.b32", "mov.b64", "mov.f32", "mov.f64",
        "mov.pred", "mov.u16", "mov.u32", "mov.u64", "mul.f32", "mul.f64", "mul.hi.s32", "mul.hi.u32", "mul.lo.s32",
        "mul.lo.s64", "mul.lo.u32", "mul.rn.f32", "mul.rn.f64", "mul.wide.s32", "mul.wide.u16", "mul.wide.u32",
        "neg.f32", "neg.f64", "neg.s32", "neg.s64", "not.b32", "not.pred", "or.b32", "or.b64", "or.pred", "popc.b32",
        "rcp.approx.ftz.f32", "rcp.approx.ftz.f64", "rcp.rn.f32", "rcp.rn.f64", "rem.s32", "rsqrt.approx.f32",
        "selp.b32", "selp.b64", "selp.f32", "selp.f64", "selp.u32", "selp.u64", "setp.eq.b32", "setp.eq.b64",
        "setp.eq.f32", "setp.eq.f64", "setp.eq.s16", "setp.eq.s32", "setp.eq.s64", "setp.ge.f32", "setp.ge.f64",
        "setp.ge.s32", "setp.ge.s64", "setp.ge.u32", "setp.geu.f32", "setp.gt.f32", "setp.gt.f64", "setp.gt.s16",
        "setp.gt.s32", "setp.gt.s64", "setp.gt.u16", "setp.gt.u32", "setp.gtu.f32", "setp.gtu.f64", "setp.le.s32",
        "setp.le.s64", "setp.le.u32", "setp.leu.f32", "setp.lt.f32", "setp.lt.f64", "setp.lt.s16", "setp.lt.s32",
        "setp.lt.s64", "setp.lt.u16", "setp.lt.u32", "setp.lt.u64", "setp.ltu.f32", "setp.ltu.f64", "setp.ne.s16",
        "setp.ne.s32", "setp.ne.s64", "setp.neu.f64", "shf.l.wrap.b32", "shfl.sync.down.b32", "shl.b32", "shl.b64",
        "shr.s32", "shr.s64", "shr.u16", "shr.u32", "shr.u64", "sin.approx.f32", "sqrt.rn.f32", "sqrt.rn.f64",
        "st.global.f32", "st.global.f64", "st.global.u32", "st.global.u64", "st.global.u8", "st.global.v2.f64",
        "st.global.v2.u32", "st.global.v4.u32", "st.local.f32", "st.local.u32", "st.local.u64", "st.local.u8",
        "st.local.v2.u32", "st.local.v4.f32", "st.param.b32", "st.param.b64", "st.param.f32", "st.param.f64",
        "st.shared.f32", "st.shared.f64", "st.shared.u32", "st.shared.u64", "st.shared.v4.u32", "st.u8",
        "st.volatile.global.u32", "sub.cc.u32", "sub.f32", "sub.f64", "sub.s32", "sub.s64", "subc.cc.u32",
        "subc.u32", "vote.sync.any.pred", "vote.sync.ballot.b32", "xor.b32", "xor.pred", "bra", "ret", "trap",
    };
    for (const char *op : census) {
        ptx_instr in{};
        char why[160] = "", back[64];
        EXPECT_EQ(ptx_decode_opcode(op, std::strlen(op), &in, why, sizeof why), 0) << op << ": " << why;
        ptx_format_opcode(&in, back, sizeof back);
        EXPECT_STREQ(back, op);
    }
}

TEST(PtxDecode, FieldsOfTierBForms)
{
    InstrValue red = one("red.global.add.u32 [%rd1], %r1;");
    EXPECT_EQ(red.op, OP_RED);
    EXPECT_EQ(red.mode, PM_ATOM_ADD);
    EXPECT_EQ(red.space, PS_GLOBAL);
    EXPECT_EQ(red.ndst, 0);
    EXPECT_EQ(red.nsrc, 2);

    InstrValue gatom = one("atom.add.u32 %r1, [%rd1], 1;");
    EXPECT_EQ(gatom.space, PS_GENERIC);
    EXPECT_EQ(one("atom.relaxed.global.add.u32 %r1, [%rd1], 1;").flags & PF_RELAXED, (uint32_t)PF_RELAXED);

    InstrValue up = one("shfl.sync.up.b32 %r1, %r2, 1, 0, -1;");
    EXPECT_EQ(up.mode, PM_SHFL_UP);
    EXPECT_EQ(up.o[0].reg2, PTX_NO_REG);
    EXPECT_EQ(up.o[4].imm, -1);
    EXPECT_EQ(one("shfl.sync.idx.b32 %r1, %r2, %r3, 31, %r4;").mode, PM_SHFL_IDX);
    EXPECT_EQ(one("shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;").ndst, 2);

    InstrValue vu = one("vote.sync.uni.pred %p1, !%p2, -1;");
    EXPECT_EQ(vu.mode, PM_VOTE_UNI);
    EXPECT_EQ(vu.o[1].neg, 1);
    EXPECT_EQ(one("vote.sync.all.pred %p1, %p2, -1;").mode, PM_VOTE_ALL);

    EXPECT_EQ(one("prmt.b32 %r1, %r2, %r3, 0x3210;").mode, PM_PRMT_DEFAULT);
    EXPECT_EQ(one("prmt.b32 %r1, %r2, %r3, 0x3210;").o[3].imm, 0x3210);
    EXPECT_EQ(one("prmt.b32.f4e %r1, %r2, %r3, %r4;").mode, PM_PRMT_F4E);
    EXPECT_EQ(one("testp.finite.f32 %p1, %f1;").mode, PM_TESTP_FINITE);

    InstrValue set = one("set.lt.u32.f32 %r1, %f1, 1.5;");
    EXPECT_EQ(set.type, PT_U32);
    EXPECT_EQ(set.type2, PT_F32);
    EXPECT_EQ(set.cmp, PC_LT);
    EXPECT_EQ(set.o[2].imm, (int64_t)f32(1.5f)); // the comparison's type, not the result's
    InstrValue seta = one("set.eq.and.u32.s32 %r1, %r2, %r3, !%p1;");
    EXPECT_EQ(seta.boolop, PB_AND);
    EXPECT_EQ(seta.o[3].neg, 1);
    EXPECT_EQ(seta.nsrc, 3);
    InstrValue slct = one("slct.f32.s32 %f1, %f2, 2.0, %r1;");
    EXPECT_EQ(slct.type, PT_F32);
    EXPECT_EQ(slct.type2, PT_S32);
    EXPECT_EQ(slct.o[2].imm, (int64_t)f32(2.0f));

    EXPECT_EQ(one("mul24.lo.s32 %r1, %r2, %r3;").mode, PM_LO);
    EXPECT_EQ(one("mad24.hi.u32 %r1, %r2, %r3, %r4;").mode, PM_HI);
    EXPECT_EQ(one("sad.u32 %r1, %r2, %r3, %r4;").op, OP_SAD);
    EXPECT_EQ(one("tanh.approx.f32 %f1, %f2;").op, OP_TANH);

    InstrValue fence = one("fence.acq_rel.gpu;");
    EXPECT_EQ(fence.op, OP_FENCE);
    EXPECT_EQ(fence.mode, PM_LVL_GL);
    EXPECT_EQ(fence.flags & (PF_ACQUIRE | PF_RELEASE), (uint32_t)(PF_ACQUIRE | PF_RELEASE));
    EXPECT_EQ(one("fence.sc.cta;").mode, PM_LVL_CTA);
    EXPECT_EQ(one("membar.sys;").mode, PM_LVL_SYS);
    EXPECT_EQ(one("nanosleep.u32 100;").op, OP_NANOSLEEP);

    InstrValue b2 = one("bar.sync 1, 64;");
    EXPECT_EQ(b2.nopnd, 2);
    EXPECT_EQ(b2.o[1].imm, 64);
    EXPECT_FALSE(one("barrier.sync 0;").flags & PF_ALIGNED);
    EXPECT_TRUE(one("barrier.sync.aligned 0;").flags & PF_ALIGNED);
    InstrValue bcta = one("bar.cta.sync 0;");
    EXPECT_EQ(bcta.op, OP_BAR);
    EXPECT_EQ(bcta.mode, PM_BAR_SYNC);
    EXPECT_TRUE(bcta.flags & PF_ALIGNED);
    EXPECT_EQ(one("bar.arrive 1, 64;").mode, PM_BAR_ARRIVE);
    InstrValue popc = one("bar.red.popc.u32 %r1, 0, %p1;");
    EXPECT_EQ(popc.mode, PM_BAR_RED_POPC);
    EXPECT_EQ(popc.type, PT_U32);
    EXPECT_EQ(popc.ndst, 1);
    InstrValue bw = one("bar.warp.sync -1;");
    EXPECT_EQ(bw.op, OP_BAR_WARP);
    EXPECT_TRUE(bw.flags & PF_SYNC);
    EXPECT_EQ(one("exit;").op, OP_EXIT);
    EXPECT_EQ(one("activemask.b32 %r1;").ndst, 1);

    InstrValue sp = one("setp.lt.and.s32 %p1|%p2, %r1, %r2, %p3;");
    EXPECT_EQ(sp.boolop, PB_AND);
    EXPECT_NE(sp.o[0].reg2, PTX_NO_REG);
    EXPECT_EQ(sp.ndst, 2);
    EXPECT_EQ(sp.nsrc, 3);
    EXPECT_TRUE(one("cvta.to.global.u64 %rd1, %rd2;").flags & PF_TO);

    InstrValue sink = one("ld.global.v4.u32 {%r1, _, %r2, _}, [%rd1];");
    EXPECT_EQ(sink.o[0].vec_n, 4);
    EXPECT_EQ(sink.o[0].vec[1], PTX_NO_REG);
    EXPECT_EQ(sink.ndst, 2);
    EXPECT_EQ(one("ld.shared::cta.u32 %r1, [%r2];").space, PS_SHARED);
}

TEST(PtxDecode, Immediates)
{
    EXPECT_EQ(one("mov.f64 %fd1, 1.5;").o[1].imm, f64(1.5));
    EXPECT_EQ(one("mov.f32 %f1, -2.5;").o[1].imm, (int64_t)f32(-2.5f));
    EXPECT_EQ(one("mov.f32 %f1, 1e-3;").o[1].imm, (int64_t)f32(1e-3f));
    EXPECT_EQ(one("mov.f32 %f1, 3;").o[1].imm, (int64_t)f32(3.0f)); // an integer literal means its value
    EXPECT_EQ(one("mov.f64 %fd1, 0f3F800000;").o[1].imm, f64(1.0)); // an f32 literal widened
    EXPECT_EQ(one("mov.f32 %f1, 0d3FF0000000000000;").o[1].imm, (int64_t)f32(1.0f));
    EXPECT_EQ(one("mov.f32 %f1, 0f7FC00001;").o[1].imm, 0x7FC00001); // bit patterns kept exactly
    EXPECT_EQ(one("mov.b32 %r1, 0f3F800000;").o[1].imm, 0x3F800000);
    EXPECT_EQ(one("mov.u32 %r1, 0x10;").o[1].imm, 16);
    EXPECT_EQ(one("mov.u32 %r1, 0xFFFFFFFFU;").o[1].imm, 0xFFFFFFFFll);
    EXPECT_EQ(one("mov.u64 %rd1, 17179869168;").o[1].imm, 17179869168ll);
    EXPECT_EQ(one("mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF;").o[1].imm, -1);
    EXPECT_EQ(one("mov.u64 %rd1, 18446744073709551615;").o[1].imm, -1);
    EXPECT_EQ(one("mov.u32 %r1, -2147483648;").o[1].imm, -2147483648ll);
    EXPECT_EQ(one("mov.u32 %r1, 010;").o[1].imm, 8);
    EXPECT_EQ(one("mov.u32 %r1, 0b101;").o[1].imm, 5);
    EXPECT_EQ(one("mov.u32 %r1, 7U;").o[1].imm, 7);
    EXPECT_EQ(one("mov.u32 %r1, 0;").o[1].imm, 0);
}

TEST(PtxDecode, OperandForms)
{
    EXPECT_EQ(one("ld.global.u32 %r1, [%rd1+-4];").o[1].imm, -4);
    EXPECT_EQ(one("ld.global.u32 %r1, [%rd1-4];").o[1].imm, -4);
    EXPECT_EQ(one("ld.global.u32 %r1, [%rd1+0x10];").o[1].imm, 16);
    InstrValue lp = one("ld.param.v2.u32 {%r1, %r2}, [s+8];");
    EXPECT_EQ(lp.o[1].imm, 16); // s is at 8 (after the .u64), +8
    EXPECT_EQ(lp.ndst, 2);
    EXPECT_EQ(one("mov.u32 %r1, %laneid;").o[1].sreg, SR_LANEID);
    EXPECT_EQ(one("mov.u32 %r1, %lanemask_lt;").o[1].sreg, SR_LANEMASK_LT);
    EXPECT_EQ(one("mov.u32 %r1, %dynamic_smem_size;").o[1].sreg, SR_DYNAMIC_SMEM_SIZE);
    EXPECT_EQ(one("mov.u32 %r1, %warpid;").o[1].sreg, SR_WARPID);
    EXPECT_EQ(one("mov.u32 %r1, %clock;").o[1].sreg, SR_CLOCK);
    InstrValue nz = one("mov.u32 %r1, %nctaid.z;");
    EXPECT_EQ(nz.o[1].sreg, SR_NCTAID);
    EXPECT_EQ(nz.o[1].comp, 2);
    EXPECT_EQ(nz.nsrc, 0);
    EXPECT_EQ(one("add.u32 %r1, %tid.y, 1;").o[1].comp, 1);

    Kernel k("mov.b32 %r1, {%rs1, %rs2};\n"     // 0: pack
             "mov.b64 {%r1, %r2}, %rd1;\n"      // 1: unpack
             "mov.u32 temp_param_reg, %r1;\n"   // 2: a register without '%'
             "@!%p1 bra $L;\n"                  // 3
             "$L:\n"
             "ret;\n");
    ASSERT_TRUE(k.f);
    EXPECT_EQ(k.in(0).o[1].kind, PO_VEC);
    EXPECT_EQ(k.in(0).nsrc, 2);
    EXPECT_EQ(k.in(1).o[0].kind, PO_VEC);
    EXPECT_EQ(k.in(1).ndst, 2);
    EXPECT_EQ(k.in(1).nsrc, 1);
    EXPECT_EQ(k.in(2).o[0].reg, k.reg("temp_param_reg"));
    EXPECT_EQ(k.in(3).guard, k.reg("%p1"));
    EXPECT_EQ(k.in(3).guard_neg, 1);
    EXPECT_EQ(k.in(3).o[0].imm, 4);
    EXPECT_EQ(k.f->regs[k.reg("%h1")].type, PT_F16);
    EXPECT_EQ(k.f->regs[k.reg("%rs3")].type, PT_B16);
    // Sources are listed once each.
    Kernel d("add.s32 %r1, %r2, %r2;\n");
    ASSERT_TRUE(d.f);
    EXPECT_EQ(d.in(0).nsrc, 1);
}

TEST(PtxDecode, ScopesShadowAndSlotsAreNeverReused)
{
    Kernel k("{\n.reg .b32 %t;\nmov.u32 %t, 1;\n{\n.reg .b32 %t;\nmov.u32 %t, 2;\n}\nmov.u32 %t, 3;\n}\n"
             "{\n.reg .b32 %t;\nmov.u32 %t, 4;\n}\n"
             "{\n.reg .b32 %r1;\nmov.u32 %r1, 5;\n}\nmov.u32 %r1, 6;\n");
    ASSERT_TRUE(k.f);
    uint32_t a = k.in(0).o[0].reg, b = k.in(1).o[0].reg, c = k.in(3).o[0].reg;
    EXPECT_NE(a, b);
    EXPECT_EQ(k.in(2).o[0].reg, a); // the outer %t again after the inner '}'
    EXPECT_NE(c, a);                // a sibling block's %t: a new slot
    EXPECT_NE(c, b);
    EXPECT_NE(k.in(4).o[0].reg, k.in(5).o[0].reg); // an inner %r1 shadows the function's
    EXPECT_EQ(k.f->regs[k.in(4).o[0].reg].name, std::string("%r1"));
}

TEST(PtxDecode, LineInfoBeforeABlockKeepsTheBlock)
{
    // -lineinfo output: a .loc line may precede a { } scope, which must not be skipped with it.
    Kernel k(".loc 1 2 3\n{\n.reg .b32 %t;\nmov.u32 %t, 1;\n}\n.loc 1 3 3\nret;\n");
    ASSERT_TRUE(k.f);
    EXPECT_EQ(k.f->n_instrs, 2u);
    EXPECT_EQ(k.in(0).op, OP_MOV);
}

TEST(PtxDecode, CallForms)
{
    Kernel k("call.uni f0;\n"
             "call f0, ();\n"
             "{\n.param .b32 p;\nst.param.b32 [p+0], %r1;\ncall g, (p);\n}\n"
             "{\n.param .b32 p;\n.param .b32 r;\n"
             "call.uni (r), \n  h, \n  (\n  p\n  );\nld.param.b32 %r1, [r+0];\n}\n",
             ".func f0() .noreturn;\n.func g(.param .b32 x)\n{\nret;\n}\n.func (.param .b32 y) h(.param .b32 x)\n"
             "{\n.reg .b32 %v;\nld.param.b32 %v, [x];\nst.param.b32 [y], %v;\nret;\n}\n"
             ".func f0()\n.noreturn\n{\nexit;\n}\n");
    ASSERT_TRUE(k.f);
    EXPECT_EQ(k.in(0).o[0].kind, PO_FUNC);
    EXPECT_STREQ(k.m.funcs[k.in(0).o[0].imm].name, "f0");
    EXPECT_TRUE(k.in(0).flags & PF_UNI);
    EXPECT_EQ(k.in(0).n_call_args, 0);
    EXPECT_FALSE(k.in(1).flags & PF_UNI);
    EXPECT_STREQ(k.m.funcs[k.in(3).o[0].imm].name, "g");
    EXPECT_EQ(k.in(3).n_call_args, 1);
    EXPECT_EQ(k.in(2).o[0].sym, k.in(3).call_args[0]);
    const ptx_instr &ch = k.in(4);
    EXPECT_STREQ(k.m.funcs[ch.o[0].imm].name, "h");
    EXPECT_STREQ(k.f->syms[ch.call_ret].name, "r");
    EXPECT_EQ(k.in(5).o[1].sym, ch.call_ret);
    EXPECT_EQ(ch.line, 41u); // the first line of a call spread over several
    // The callee's own parameters: y (its return) follows x in its frame.
    const ptx_func *h = ptx_module_find_func(&k.m, "h");
    EXPECT_EQ(h->instrs[1].o[0].imm, 4);
}

TEST(PtxDecode, SharedLayoutAcrossKernelsAndFunctions)
{
    Module m(".version 9.0\n.target sm_75\n.address_size 64\n"
             ".shared .align 4 .u32 ms[4];\n"
             ".extern .shared .align 16 .b8 dyn[];\n"
             ".func f()\n{\n.shared .u64 fs;\nret;\n}\n"
             ".func g()\n{\n.shared .u8 gs[3];\ncall f;\nret;\n}\n"
             ".visible .entry a()\n{\n.shared .align 8 .b8 sa[10];\ncall g;\nret;\n}\n"
             ".visible .entry b()\n{\n.shared .u32 sb;\nret;\n}\n");
    ASSERT_EQ(m.rc, 0) << strbuf_str(&m.err);
    const ptx_func *a = ptx_module_find_func(&m.m, "a"), *b = ptx_module_find_func(&m.m, "b");
    const ptx_func *f = ptx_module_find_func(&m.m, "f"), *g = ptx_module_find_func(&m.m, "g");
    EXPECT_EQ(m.m.shared_static_bytes, 16u);
    EXPECT_EQ(a->syms[0].offset, 16u); // after the module statics
    EXPECT_EQ(b->syms[0].offset, 16u); // kernels may overlap each other
    EXPECT_EQ(f->syms[0].offset, 32u); // after the largest kernel end (26), aligned to 8
    EXPECT_EQ(g->syms[0].offset, 40u);
    EXPECT_EQ(ptx_kernel_static_shared(&m.m, a), 43u); // a -> g -> f
    EXPECT_EQ(ptx_kernel_static_shared(&m.m, b), 20u);
    EXPECT_EQ(m.m.syms[1].offset, 0u);
    EXPECT_TRUE(m.m.syms[1].is_extern);
}

TEST(PtxDecode, VariablesAndInitialisers)
{
    Module m(".version 9.0\n.target sm_75\n.address_size 64\n"
             ".global .align 4 .f32 fl[3] = {1.5, 0f40000000, 2};\n"
             ".global .u32 un[] = {1, 2, 3};\n"
             ".const .align 8 .f64 d = 0.5;\n"
             ".global .u16 grid[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
             ".global .s8 neg[2] = {-1, -128};\n"
             ".visible .global .align 8 .b8 $str$1[3] = {104, 105, 0};\n"
             ".visible .entry k(.param .u32 a, .param .u64 b, .param .align 16 .b8 c[20], .param .u8 d, "
             ".param .u64 .ptr .global .align 8 e)\n"
             ".maxntid 128\n.reqntid 64, 2\n.maxnreg 32\n{\nret;\n}\n");
    ASSERT_EQ(m.rc, 0) << strbuf_str(&m.err);
    const ptx_symbol *s = m.m.syms;
    ASSERT_EQ(m.m.n_syms, 6u);
    uint8_t fl[12];
    float v[3] = {1.5f, 2.0f, 2.0f};
    std::memcpy(fl, v, 12);
    EXPECT_EQ(std::memcmp(s[0].init, fl, 12), 0);
    EXPECT_EQ(s[0].type, PT_F32);
    EXPECT_EQ(s[1].elem_count, 3u);
    EXPECT_EQ(s[1].size, 12u);
    EXPECT_EQ(s[1].offset, 12u);
    double half = 0.5;
    EXPECT_EQ(std::memcmp(s[2].init, &half, 8), 0);
    EXPECT_EQ(s[2].offset, 0u);
    EXPECT_EQ(m.m.const_bytes, 8u);
    EXPECT_EQ(s[3].elem_count, 6u);
    EXPECT_EQ(s[3].init[10], 6);
    EXPECT_EQ(s[4].init[0], 0xFF);
    EXPECT_EQ(s[4].init[1], 0x80);
    EXPECT_STREQ(s[5].name, "$str$1");
    EXPECT_TRUE(s[5].is_visible);
    EXPECT_EQ(s[5].offset, 40u); // 24 + 12 (u16[6]) + 2 (s8[2]) = 38, aligned to 8
    EXPECT_EQ(m.m.global_bytes, 43u);

    const ptx_func *k = &m.m.funcs[0];
    EXPECT_EQ(k->params[0].offset, 0u);
    EXPECT_EQ(k->params[1].offset, 8u);
    EXPECT_EQ(k->params[2].offset, 16u);
    EXPECT_EQ(k->params[2].size, 20u);
    EXPECT_EQ(k->params[3].offset, 36u);
    EXPECT_EQ(k->params[4].offset, 40u);
    EXPECT_EQ(k->param_bytes, 48u);
    EXPECT_EQ(k->maxntid[0], 128u);
    EXPECT_EQ(k->maxntid[1], 1u);
    EXPECT_EQ(k->reqntid[1], 2u);
    EXPECT_EQ(k->maxnreg, 32u);
}

TEST(PtxDecode, DescribeInstr)
{
    Kernel k("add.s32 %r1, %r2, 1;\nld.global.nc.v2.f64 {%fd1, %fd2}, [%rd1];\n");
    ASSERT_TRUE(k.f);
    char buf[128];
    ptx_describe_instr(&k.m, k.f, 1, buf, sizeof buf);
    EXPECT_STREQ(buf, "dec.ptx:15 (pc 1: ld.global.nc.v2.f64)");
    EXPECT_STREQ(ptx_type_name(PT_U64), "u64");
    EXPECT_STREQ(ptx_op_name(OP_BRX_IDX), "brx.idx");
    EXPECT_STREQ(ptx_space_name(PS_GENERIC), "");
    EXPECT_EQ(ptx_type_size(PT_PRED), 1u);
    EXPECT_EQ(ptx_type_size(PT_F64), 8u);
    EXPECT_TRUE(ptx_type_is_signed(PT_S16));
    EXPECT_TRUE(ptx_type_is_float(PT_F16));
    EXPECT_EQ(ptx_symbol_ref(&k.m, k.f, PTX_NO_SYM), nullptr);
}
