// PTX front end on nvcc 13 output (testbenches/data/ptx/parser/*.ptx, compiled from the .cu
// next to them): every construct of the census parses, and decodes to the expected IR.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

extern "C" {
#include "ptx/ptx_ir.h"
#include "ptx/ptx_opcodes.h"
#include "ptx/ptx_parse.h"
}

namespace {

std::string read_file(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Module {
    ptx_module m{};
    strbuf err{}, warn{};
    int rc = -1;
    explicit Module(const std::string &text, const char *name = "test.ptx")
    {
        strbuf_init(&err);
        strbuf_init(&warn);
        rc = ptx_parse(name, text.data(), text.size(), &m, &err, &warn);
    }
    ~Module()
    {
        ptx_module_free(&m);
        strbuf_free(&err);
        strbuf_free(&warn);
    }
    std::string errors() const { return strbuf_str(&err); }
    const ptx_func *func(const char *name) const { return ptx_module_find_func(&m, name); }
    const ptx_symbol *msym(const char *name) const
    {
        for (uint32_t i = 0; i < m.n_syms; i++)
            if (std::strcmp(m.syms[i].name, name) == 0) return &m.syms[i];
        return nullptr;
    }
};

struct DataFile : Module {
    explicit DataFile(const char *file)
        : Module(read_file(std::string(GTLM_TEST_DATA) + "/ptx/parser/" + file), file) {}
};

// The instruction whose first token is on source line `line` (the .ptx files are committed,
// so their line numbers are stable; the comments quote the line).
uint32_t pc_at(const ptx_func *f, uint32_t line)
{
    for (uint32_t i = 0; i < f->n_instrs; i++)
        if (f->instrs[i].line == line) return i;
    ADD_FAILURE() << "no instruction on line " << line << " in " << f->name;
    return 0;
}

const ptx_instr &at(const ptx_func *f, uint32_t line) { return f->instrs[pc_at(f, line)]; }

std::string opcode(const ptx_instr &in)
{
    char buf[64];
    ptx_format_opcode(&in, buf, sizeof buf);
    return buf;
}

std::string reg_name(const ptx_func *f, uint32_t slot) { return slot < f->n_regs ? f->regs[slot].name : "?"; }

const ptx_symbol *fsym(const ptx_func *f, const char *name)
{
    for (uint32_t i = 0; i < f->n_syms; i++)
        if (std::strcmp(f->syms[i].name, name) == 0) return &f->syms[i];
    return nullptr;
}

}  // namespace

TEST(PtxNvcc, EveryFileParsesWithoutErrorsOrWarnings)
{
    for (const char *f : {"memspaces.ptx", "atomics_warp.ptx", "dmath.ptx", "control.ptx", "fastmath.ptx"}) {
        DataFile d(f);
        EXPECT_EQ(d.rc, 0) << f << ":\n" << d.errors();
        EXPECT_STREQ(strbuf_str(&d.warn), "") << f;
        EXPECT_EQ(d.m.version_major, 9u);
        EXPECT_EQ(d.m.version_minor, 0u);
        EXPECT_STREQ(d.m.target, "sm_75");
        EXPECT_EQ(d.m.address_size, 64u);
        for (uint32_t i = 0; i < d.m.n_funcs; i++) {
            const ptx_func &fn = d.m.funcs[i];
            EXPECT_FALSE(fn.is_extern) << fn.name;
            EXPECT_GT(fn.n_blocks, 0u) << fn.name;
            // Every label operand was resolved to an instruction of the same function.
            for (uint32_t k = 0; k < fn.n_instrs; k++)
                for (uint32_t o = 0; o < fn.instrs[k].nopnd; o++)
                    if (fn.instrs[k].o[o].kind == PO_LABEL) {
                        EXPECT_GE(fn.instrs[k].o[o].imm, 0);
                        EXPECT_LT(fn.instrs[k].o[o].imm, (int64_t)fn.n_instrs);
                    }
        }
    }
}

TEST(PtxNvcc, MemorySpacesModuleLayout)
{
    DataFile d("memspaces.ptx");
    ASSERT_EQ(d.rc, 0) << d.errors();
    ASSERT_EQ(d.m.n_funcs, 7u);
    EXPECT_STREQ(d.m.funcs[0].name, "_Z4bumpPfPhi"); // declared before the kernels
    EXPECT_FALSE(d.m.funcs[0].is_entry);
    EXPECT_TRUE(d.func("_Z9tiled_sumPKfPfi")->is_entry);
    EXPECT_TRUE(d.func("_Z9tiled_sumPKfPfi")->is_visible);

    // __constant__ tables in one bank, __device__ variables in one block, in declaration order.
    const ptx_symbol *w = d.msym("c_weights"), *t = d.msym("c_table");
    ASSERT_TRUE(w && t);
    EXPECT_EQ(w->space, PS_CONST);
    EXPECT_EQ(w->offset, 0u);
    EXPECT_EQ(w->size, 16u);
    EXPECT_EQ(w->align, 4u);
    const uint8_t w_bytes[16] = {0, 0, 128, 62, 0, 0, 0, 63, 0, 0, 128, 63, 0, 0, 0, 64}; // 0.25f 0.5f 1.0f 2.0f
    ASSERT_NE(w->init, nullptr);
    EXPECT_EQ(std::memcmp(w->init, w_bytes, 16), 0);
    EXPECT_EQ(t->offset, 16u);
    const uint8_t t_bytes[12] = {7, 0, 0, 0, 255, 255, 255, 255, 2, 1, 0, 0}; // 7, -1, 258; the tail is zero
    ASSERT_NE(t->init, nullptr);
    EXPECT_EQ(std::memcmp(t->init, t_bytes, 12), 0);
    EXPECT_EQ(d.m.const_bytes, 28u);
    EXPECT_EQ(d.msym("g_counter")->offset, 0u);
    EXPECT_EQ(d.msym("g_counter")->init, nullptr);
    EXPECT_EQ(d.msym("g_scale")->offset, 4u);
    EXPECT_EQ(d.m.global_bytes, 12u);

    // extern __shared__: offset 0, flagged, unsized; it is not part of the statics.
    const ptx_symbol *dyn = d.msym("dyn");
    ASSERT_TRUE(dyn);
    EXPECT_EQ(dyn->space, PS_SHARED);
    EXPECT_TRUE(dyn->is_extern);
    EXPECT_EQ(dyn->elem_count, 0u);
    EXPECT_EQ(dyn->align, 16u);
    EXPECT_EQ(d.m.shared_static_bytes, 0u);

    // Function-scope __shared__ arrays: each kernel's own, from offset 0 here.
    const ptx_func *ts = d.func("_Z9tiled_sumPKfPfi");
    const ptx_symbol *tile = fsym(ts, "_ZZ9tiled_sumPKfPfiE4tile");
    ASSERT_TRUE(tile);
    EXPECT_EQ(tile->space, PS_SHARED);
    EXPECT_EQ(tile->size, 1024u);
    EXPECT_EQ(tile->offset, 0u);
    EXPECT_EQ(ptx_kernel_static_shared(&d.m, ts), 1024u);
    EXPECT_EQ(ptx_kernel_static_shared(&d.m, d.func("_Z10dyn_reducePKiPi")), 0u);

    // Kernel parameters: .u64, .u64, .u32 at 0, 8, 16.
    ASSERT_EQ(ts->n_params, 3u);
    EXPECT_EQ(ts->params[1].offset, 8u);
    EXPECT_EQ(ts->params[2].offset, 16u);
    EXPECT_EQ(ts->params[2].type, PT_U32);
    EXPECT_EQ(ts->param_bytes, 20u);
    // .reg .pred %p<6>; .reg .f32 %f<13>; .reg .b32 %r<17>; .reg .b64 %rd<17>;
    EXPECT_EQ(ts->n_regs, 6u + 13 + 17 + 17);

    // A per-thread array: the .local depot.
    const ptx_func *la = d.func("_Z11local_arrayPKiPf");
    EXPECT_EQ(la->local_bytes, 64u);
    const ptx_symbol *depot = fsym(la, "__local_depot5");
    ASSERT_TRUE(depot);
    EXPECT_EQ(depot->align, 16u);
    EXPECT_EQ(depot->space, PS_LOCAL);
}

TEST(PtxNvcc, MemorySpacesInstructions)
{
    DataFile d("memspaces.ptx");
    ASSERT_EQ(d.rc, 0) << d.errors();
    const ptx_func *ts = d.func("_Z9tiled_sumPKfPfi");

    // 62: ld.param.u32 %r9, [_Z9tiled_sumPKfPfi_param_2];  -> the parameter's offset
    const ptx_instr &lp = at(ts, 62);
    EXPECT_EQ(lp.op, OP_LD);
    EXPECT_EQ(lp.space, PS_PARAM);
    EXPECT_EQ(lp.o[1].kind, PO_ADDR);
    EXPECT_EQ(lp.o[1].reg, PTX_NO_REG);
    EXPECT_EQ(lp.o[1].sym, PTX_NO_SYM);
    EXPECT_EQ(lp.o[1].imm, 16);
    EXPECT_EQ(reg_name(ts, lp.o[0].reg), "%r9");
    EXPECT_EQ(lp.ndst, 1);
    EXPECT_EQ(lp.dst[0], lp.o[0].reg);
    EXPECT_EQ(lp.nsrc, 0);

    // 77: mov.u64 %rd8, c_weights;  -> a symbol's address as a value
    const ptx_instr &mv = at(ts, 77);
    EXPECT_EQ(mv.o[1].kind, PO_SYMBOL);
    EXPECT_EQ(ptx_symbol_ref(&d.m, ts, mv.o[1].sym), d.msym("c_weights"));
    // 79: ld.const.f32 %f4, [%rd9];  80: ld.global.nc.f32 %f5, [%rd5];
    EXPECT_EQ(at(ts, 79).space, PS_CONST);
    const ptx_instr &nc = at(ts, 80);
    EXPECT_EQ(opcode(nc), "ld.global.nc.f32");
    EXPECT_TRUE(nc.flags & PF_NC);
    EXPECT_EQ(nc.type, PT_F32);
    EXPECT_EQ(reg_name(ts, nc.o[1].reg), "%rd5");
    EXPECT_EQ(nc.nsrc, 1);
    // 88: bar.sync 0;
    const ptx_instr &bar = at(ts, 88);
    EXPECT_EQ(bar.op, OP_BAR);
    EXPECT_EQ(bar.mode, PM_BAR_SYNC);
    EXPECT_TRUE(bar.flags & PF_ALIGNED);
    EXPECT_EQ(bar.o[0].kind, PO_IMM);
    EXPECT_EQ(bar.o[0].imm, 0);
    // 69: @%p1 bra $L__BB1_2;  -> the first instruction after the label (line 84)
    const ptx_instr &br = at(ts, 69);
    EXPECT_EQ(br.op, OP_BRA);
    EXPECT_EQ(reg_name(ts, br.guard), "%p1");
    EXPECT_EQ(br.guard_neg, 0);
    EXPECT_EQ(br.o[0].kind, PO_LABEL);
    EXPECT_EQ(br.o[0].imm, (int64_t)pc_at(ts, 84));
    EXPECT_EQ(br.reconv_pc, pc_at(ts, 84)); // an if without else: the join is the target
    EXPECT_EQ(br.nsrc, 1); // the guard
    EXPECT_EQ(br.line, 69u);
    EXPECT_EQ(br.col, 2u);

    // The shared array by name: [_ZZ9tiled_sumPKfPfiE4tile] (line 114) is a function symbol.
    const ptx_instr &ls = at(ts, 114);
    EXPECT_EQ(ls.space, PS_SHARED);
    EXPECT_EQ(ls.o[1].reg, PTX_NO_REG);
    EXPECT_EQ(ptx_symbol_ref(&d.m, ts, ls.o[1].sym), fsym(ts, "_ZZ9tiled_sumPKfPfiE4tile"));

    // 163: mov.u32 %r33, dyn;  (the dynamic shared array)
    const ptx_func *dr = d.func("_Z10dyn_reducePKiPi");
    EXPECT_EQ(ptx_symbol_ref(&d.m, dr, at(dr, 163).o[1].sym), d.msym("dyn"));
    // 219: atom.global.add.u32 %r57, [%rd14], 1;
    const ptx_instr &atom = at(dr, 219);
    EXPECT_EQ(atom.op, OP_ATOM);
    EXPECT_EQ(atom.mode, PM_ATOM_ADD);
    EXPECT_EQ(atom.space, PS_GLOBAL);
    EXPECT_EQ(atom.type, PT_U32);
    EXPECT_EQ(atom.o[2].imm, 1);

    // Vectors: ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd8]; st.global.v2.f64 [%rd14], {%fd5, %fd1};
    const ptx_func *vc = d.func("_Z8vec_copyP6float4PKS_P4int2P7double2i");
    const ptx_instr &v4 = at(vc, 257);
    EXPECT_EQ(opcode(v4), "ld.global.v4.f32");
    EXPECT_EQ(v4.vec, 4);
    EXPECT_EQ(v4.o[0].kind, PO_VEC);
    EXPECT_EQ(v4.o[0].vec_n, 4);
    EXPECT_EQ(reg_name(vc, v4.o[0].vec[3]), "%f4");
    EXPECT_EQ(v4.ndst, 4);
    EXPECT_EQ(v4.nsrc, 1);
    const ptx_instr &sv = at(vc, 270);
    EXPECT_EQ(opcode(sv), "st.global.v2.f64");
    EXPECT_EQ(sv.ndst, 0);
    EXPECT_EQ(sv.nsrc, 3);
    // 260: add.f32 %f9, %f1, 0f3F800000;
    EXPECT_EQ(at(vc, 260).o[2].kind, PO_IMM);
    EXPECT_EQ(at(vc, 260).o[2].imm, 0x3F800000);
    // 269: mul.f64 %fd5, %fd2, 0d3FE0000000000000;
    EXPECT_EQ(at(vc, 269).o[2].imm, 0x3FE0000000000000);

    // Generic accesses in the __noinline__ function: 36: ld.f32 %f1, [%rd1+4];  38: st.f32 [%rd1], %f2;
    const ptx_func *bump = d.func("_Z4bumpPfPhi");
    const ptx_instr &gl = at(bump, 36);
    EXPECT_EQ(gl.op, OP_LD);
    EXPECT_EQ(gl.space, PS_GENERIC);
    EXPECT_EQ(gl.o[1].imm, 4);
    EXPECT_EQ(reg_name(bump, gl.o[1].reg), "%rd1");
    EXPECT_EQ(at(bump, 38).op, OP_ST);
    EXPECT_EQ(at(bump, 38).space, PS_GENERIC);
    // A function's parameters are in its frame: 3rd parameter (.b32) at 16.
    EXPECT_EQ(bump->params[2].offset, 16u);

    // The caller: cvta.shared.u64 in a one-line scope { .reg .b64 %tmp; ... }, then call.uni with
    // three arguments and no return value.
    const ptx_func *gp = d.func("_Z12generic_ptrsPPfPhi");
    const ptx_instr &cv = at(gp, 312);
    EXPECT_EQ(opcode(cv), "cvta.shared.u64");
    EXPECT_FALSE(cv.flags & PF_TO);
    EXPECT_EQ(reg_name(gp, cv.o[1].reg), "%tmp");
    const ptx_instr &call = at(gp, 331);
    EXPECT_EQ(call.op, OP_CALL);
    EXPECT_TRUE(call.flags & PF_UNI);
    EXPECT_EQ(call.o[0].kind, PO_FUNC);
    EXPECT_EQ(call.o[0].imm, 0); // _Z4bumpPfPhi
    EXPECT_EQ(call.n_call_args, 3);
    EXPECT_EQ(call.call_ret, PTX_NO_SYM);
    EXPECT_STREQ(gp->syms[call.call_args[2]].name, "param2");
    EXPECT_EQ(gp->syms[call.call_args[2]].space, PS_PARAM);
    EXPECT_EQ(gp->scratch_bytes, 20u);
    // Its shared array plus nothing from bump (which has none).
    EXPECT_EQ(ptx_kernel_static_shared(&d.m, gp), 256u);

    // 3-D indices: %ctaid.z and %nctaid.y as special registers.
    const ptx_func *i3 = d.func("_Z7index3dPiii");
    bool saw_ctaid_z = false, saw_nctaid_y = false;
    for (uint32_t i = 0; i < i3->n_instrs; i++) {
        if (i3->instrs[i].nopnd < 2) continue;
        const ptx_operand &o = i3->instrs[i].o[1];
        if (o.kind != PO_SREG) continue;
        saw_ctaid_z |= o.sreg == SR_CTAID && o.comp == 2;
        saw_nctaid_y |= o.sreg == SR_NCTAID && o.comp == 1;
    }
    EXPECT_TRUE(saw_ctaid_z);
    EXPECT_TRUE(saw_nctaid_y);
}

TEST(PtxNvcc, AtomicsWarpAndBitIntrinsics)
{
    DataFile d("atomics_warp.ptx");
    ASSERT_EQ(d.rc, 0) << d.errors();
    const ptx_func *a = d.func("_Z7atomicsPfPdPjPiS2_S1_");
    ASSERT_TRUE(a);
    EXPECT_EQ(opcode(at(a, 58)), "atom.shared.add.u32");
    EXPECT_EQ(opcode(at(a, 60)), "atom.global.add.f32");
    EXPECT_EQ(at(a, 60).o[2].imm, 0x3FC00000); // 1.5f
    EXPECT_EQ(opcode(at(a, 61)), "atom.global.add.f64");
    EXPECT_EQ(opcode(at(a, 64)), "atom.global.min.s32");
    EXPECT_EQ(opcode(at(a, 66)), "atom.global.max.s32");
    EXPECT_EQ(at(a, 67).mode, PM_ATOM_INC);
    EXPECT_EQ(at(a, 68).mode, PM_ATOM_EXCH);
    EXPECT_EQ(at(a, 68).type, PT_B32);
    const ptx_instr &cas = at(a, 70); // atom.global.cas.b32 %r18, [%rd16], %r6, %r1;
    EXPECT_EQ(cas.mode, PM_ATOM_CAS);
    EXPECT_EQ(cas.nopnd, 4);
    EXPECT_EQ(cas.nsrc, 3);
    EXPECT_EQ(at(a, 72).o[2].imm, -3); // atomicSub(s, 3) -> add -3
    EXPECT_EQ(at(a, 74).mode, PM_ATOM_AND);
    EXPECT_EQ(at(a, 76).mode, PM_ATOM_OR);
    EXPECT_EQ(at(a, 77).op, OP_MEMBAR);
    EXPECT_EQ(at(a, 77).mode, PM_LVL_GL);
    EXPECT_EQ(at(a, 78).mode, PM_LVL_CTA);

    const ptx_func *w = d.func("_Z8warp_opsPKiPiPj");
    const ptx_instr &sh = at(w, 106); // shfl.sync.down.b32 %r12|%p3, %r7, %r10, %r9, %r11;
    EXPECT_EQ(sh.op, OP_SHFL);
    EXPECT_EQ(sh.mode, PM_SHFL_DOWN);
    EXPECT_TRUE(sh.flags & PF_SYNC);
    EXPECT_EQ(sh.nopnd, 5);
    EXPECT_EQ(reg_name(w, sh.o[0].reg), "%r12");
    EXPECT_EQ(reg_name(w, sh.o[0].reg2), "%p3");
    EXPECT_EQ(sh.ndst, 2);
    EXPECT_EQ(sh.nsrc, 4);
    const ptx_instr &ballot = at(w, 120);
    EXPECT_EQ(ballot.op, OP_VOTE);
    EXPECT_EQ(ballot.mode, PM_VOTE_BALLOT);
    EXPECT_EQ(ballot.type, PT_B32);
    EXPECT_EQ(at(w, 122).mode, PM_VOTE_ANY);
    EXPECT_EQ(at(w, 122).type, PT_PRED);
    const ptx_instr &ws = at(w, 123); // bar.warp.sync -1;
    EXPECT_EQ(ws.op, OP_BAR_WARP);
    EXPECT_EQ(ws.o[0].imm, -1);
    EXPECT_EQ(at(w, 125).op, OP_ACTIVEMASK);

    const ptx_func *b = d.func("_Z4bitsPKjPjPKy");
    EXPECT_EQ(at(b, 168).op, OP_BREV);
    EXPECT_EQ(opcode(at(b, 173)), "bfind.shiftamt.u32");
    EXPECT_EQ(at(b, 176).op, OP_POPC);
    EXPECT_EQ(opcode(at(b, 182)), "clz.b64");
    EXPECT_EQ(ptx_kernel_static_shared(&d.m, a), 256u);
}

TEST(PtxNvcc, DoubleMathCallsDepotsAndScopes)
{
    DataFile d("dmath.ptx");
    ASSERT_EQ(d.rc, 0) << d.errors();
    // Declared at the top, defined at the bottom: one function each, index of the declaration.
    const ptx_func *pow = d.func("__internal_accurate_pow");
    const ptx_func *red = d.func("__internal_trig_reduction_slowpathd");
    ASSERT_TRUE(pow && red);
    EXPECT_EQ(d.m.n_funcs, 5u);
    EXPECT_FALSE(pow->is_extern);
    ASSERT_EQ(pow->n_rets, 1u);
    EXPECT_EQ(pow->rets[0].offset, 16u); // after two .b64 parameters
    EXPECT_EQ(pow->param_bytes, 24u);
    ASSERT_EQ(red->n_rets, 1u);
    EXPECT_EQ(red->rets[0].size, 16u); // .param .align 8 .b8 func_retval0[16]
    EXPECT_EQ(red->rets[0].align, 8u);
    EXPECT_EQ(red->rets[0].offset, 8u);

    // 74: call.uni (retval0), __internal_accurate_pow, (param0, param1);  spread over 7 lines
    const ptx_func *dp = d.func("_Z4dpowPKdPdi");
    const ptx_instr &call = at(dp, 74);
    EXPECT_EQ(call.op, OP_CALL);
    EXPECT_EQ(&d.m.funcs[call.o[0].imm], pow);
    ASSERT_EQ(call.n_call_args, 2);
    EXPECT_STREQ(dp->syms[call.call_args[0]].name, "param0");
    EXPECT_STREQ(dp->syms[call.call_ret].name, "retval0");
    // The scratch of two call sequences, never reused: 3 x 8 bytes each.
    EXPECT_EQ(dp->scratch_bytes, 48u);
    // The second sequence's param0 is a different symbol than the first's.
    EXPECT_NE(at(dp, 156).call_args[0], call.call_args[0]);
    // st.param.f64 [param1+0], 0d4004000000000000;  (an immediate source)
    const ptx_instr &stp = dp->instrs[pc_at(dp, 74) - 1];
    EXPECT_EQ(stp.op, OP_ST);
    EXPECT_EQ(stp.o[0].sym, call.call_args[1]);
    EXPECT_EQ(stp.o[1].kind, PO_IMM);
    EXPECT_EQ(stp.o[1].imm, 0x4004000000000000);

    // sinf: a .local depot and the global table __cudart_i2opi_f read with ld.global.nc.
    const ptx_func *ft = d.func("_Z5ftrigPKfPf");
    EXPECT_EQ(ft->local_bytes, 28u);
    EXPECT_EQ(at(ft, 432).o[1].kind, PO_SYMBOL); // mov.u64 %SPL, __local_depot2;
    EXPECT_EQ(reg_name(ft, at(ft, 432).o[0].reg), "%SPL");
    EXPECT_EQ(ptx_symbol_ref(&d.m, ft, at(ft, 475).o[1].sym), d.msym("__cudart_i2opi_f"));
    EXPECT_EQ(d.msym("__cudart_i2opi_f")->init[0], 65);
    EXPECT_EQ(d.msym("__cudart_sin_cos_coeffs")->offset, 32u); // .align 16 after 24 bytes
    EXPECT_EQ(opcode(at(ft, 480)), "ld.global.nc.u32");        // after .pragma "nounroll";

    // Carry arithmetic inside a scope that re-declares %r0..%r3: new slots, shadowing the
    // function's %r<38>, and the outer ones again after '}'.
    const ptx_instr &madlo = at(red, 659); // mad.lo.cc.u32 %r0, %alo, %blo, %clo;
    EXPECT_EQ(opcode(madlo), "mad.lo.cc.u32");
    EXPECT_TRUE(madlo.flags & PF_CC);
    EXPECT_EQ(opcode(at(red, 660)), "madc.hi.cc.u32");
    EXPECT_EQ(opcode(at(red, 666)), "madc.lo.cc.u32");
    EXPECT_EQ(opcode(at(red, 667)), "addc.u32");
    EXPECT_EQ(opcode(at(red, 724)), "subc.cc.u32");
    uint32_t inner_r1 = at(red, 660).o[0].reg;
    uint32_t outer_r1 = at(red, 618).o[0].vec[1]; // mov.b64 {%temp, %r1}, %fd4;
    EXPECT_EQ(reg_name(red, inner_r1), "%r1");
    EXPECT_EQ(reg_name(red, outer_r1), "%r1");
    EXPECT_NE(inner_r1, outer_r1);
    // The %r1 of a sibling scope (declared on line 718) is another slot again.
    EXPECT_EQ(reg_name(red, at(red, 724).o[0].reg), "%r1");
    EXPECT_NE(at(red, 724).o[0].reg, inner_r1);
    EXPECT_NE(at(red, 724).o[0].reg, outer_r1);
    // mov.b64 %rd26, {%r0,%r1}; packs.
    const ptx_instr &pack = at(red, 668);
    EXPECT_EQ(pack.o[1].kind, PO_VEC);
    EXPECT_EQ(pack.o[1].vec[1], inner_r1);
    EXPECT_EQ(pack.nsrc, 2);
}

TEST(PtxNvcc, ControlFlowLaunchBoundsAndStructCall)
{
    DataFile d("control.ptx");
    ASSERT_EQ(d.rc, 0) << d.errors();
    const ptx_func *br = d.func("_Z8branchesPKiPiP5pair3Px");
    ASSERT_TRUE(br);
    // .maxntid 256, 1, 1  .minnctapersm 2
    EXPECT_EQ(br->maxntid[0], 256u);
    EXPECT_EQ(br->maxntid[1], 1u);
    EXPECT_EQ(br->maxntid[2], 1u);
    EXPECT_EQ(br->minnctapersm, 2u);
    EXPECT_EQ(br->reqntid[0], 0u);
    // 63: mov.u64 %rd6, %clock64;
    EXPECT_EQ(at(br, 63).o[1].kind, PO_SREG);
    EXPECT_EQ(at(br, 63).o[1].sreg, SR_CLOCK64);

    // The switch: 81: @%p2 bra $L__BB1_4; jumps to line 95 and the paths meet at $L__BB1_9
    // (line 112, after the switch).
    const ptx_instr &sw = at(br, 81);
    EXPECT_EQ(sw.o[0].imm, (int64_t)pc_at(br, 95));
    EXPECT_EQ(sw.reconv_pc, pc_at(br, 112));
    // 88: bra.uni $L__BB1_9;  (unguarded, uniform)
    EXPECT_TRUE(at(br, 88).flags & PF_UNI);
    EXPECT_EQ(at(br, 88).guard, PTX_NO_REG);
    // The loop: the skip branch (114) and the break (126) reconverge after the loop (line 136);
    // the continue (123) inside the body too (the loop's exit post-dominates it).
    EXPECT_EQ(at(br, 114).reconv_pc, pc_at(br, 136));
    EXPECT_EQ(at(br, 126).reconv_pc, pc_at(br, 136));
    EXPECT_EQ(at(br, 123).reconv_pc, pc_at(br, 136));
    // The back edge 133: @%p10 bra $L__BB1_11;
    EXPECT_EQ(at(br, 133).o[0].imm, (int64_t)pc_at(br, 119));
    // 168: @%p11 bra $L__BB1_17; skips a trap: the trap path never comes back, so the
    // branch's reconvergence point is the virtual exit.
    EXPECT_EQ(at(br, 168).reconv_pc, br->n_instrs);
    EXPECT_EQ(at(br, 171).op, OP_TRAP);
    EXPECT_EQ(br->blocks[br->block_of[pc_at(br, 171)]].succ[0], UINT32_MAX);

    // The by-value struct argument and result: .param .align 8 .b8 param0[16] etc.
    const ptx_func *comb = d.func("_Z7combine5pair3i");
    ASSERT_EQ(comb->n_params, 2u);
    EXPECT_EQ(comb->params[0].size, 16u);
    EXPECT_EQ(comb->params[0].align, 8u);
    EXPECT_EQ(comb->params[1].offset, 16u);
    EXPECT_EQ(comb->rets[0].offset, 24u); // after 16 + 4, aligned to 8
    EXPECT_EQ(comb->param_bytes, 40u);
    // 27: ld.param.u32 %r2, [_Z7combine5pair3i_param_0+12];
    EXPECT_EQ(at(comb, 27).o[1].imm, 12);
    // st.param.b32 [func_retval0+12], %r3;  -> 24 + 12
    const ptx_instr &sr = comb->instrs[comb->n_instrs - 2];
    EXPECT_EQ(sr.op, OP_ST);
    EXPECT_EQ(sr.o[0].imm, 36);
    const ptx_instr &call = at(br, 154);
    EXPECT_EQ(&d.m.funcs[call.o[0].imm], comb);
    EXPECT_EQ(br->syms[call.call_ret].size, 16u);
    EXPECT_EQ(br->syms[call.call_ret].align, 8u);
    EXPECT_EQ(br->regs[at(br, 148).o[1].reg].type, PT_F64); // st.param.f64 [param0+0], %fd1;

    // Division by a constant: 210: mul.hi.u64 %rd12, %rd11, -3689348814741910323;
    const ptx_func *dv = d.func("_Z6dividePKyPyPjPKj");
    const ptx_instr &mh = at(dv, 210);
    EXPECT_EQ(opcode(mh), "mul.hi.u64");
    EXPECT_EQ(mh.o[2].imm, -3689348814741910323LL);
}

TEST(PtxNvcc, FastMathIntrinsics)
{
    DataFile d("fastmath.ptx");
    ASSERT_EQ(d.rc, 0) << d.errors();
    const ptx_func *f = d.func("_Z10intrinsicsPKfPfPViPx");
    ASSERT_TRUE(f);
    std::string all;
    for (uint32_t i = 0; i < f->n_instrs; i++) all += opcode(f->instrs[i]) + " ";
    for (const char *op : {"div.approx.f32", "ex2.approx.ftz.f32", "lg2.approx.f32", "sin.approx.f32",
                           "cos.approx.f32", "rsqrt.approx.f32", "cvt.rmi.f32.f32", "cvt.rpi.f32.f32",
                           "cvt.rzi.f32.f32", "cvt.rni.f32.f32", "cvt.sat.f32.f32", "copysign.f32",
                           "ld.volatile.global.u32", "st.volatile.global.u32", "mul.hi.s64", "rcp.approx.ftz.f32",
                           "abs.s64", "max.s64"})
        EXPECT_NE(all.find(std::string(op) + " "), std::string::npos) << op;
}

TEST(PtxNvcc, ParsesTheLargestFileInMilliseconds)
{
    std::string text = read_file(std::string(GTLM_TEST_DATA) + "/ptx/parser/dmath.ptx");
    // Twenty copies of the module's functions under new names: ~20 k lines.
    std::string big = text;
    size_t body = text.find(".func  (.param .align 8 .b8 func_retval0[16]) __internal_trig_reduction_slowpathd\n");
    ASSERT_NE(body, std::string::npos);
    std::string funcs = text.substr(text.find(".visible .entry"));
    for (int i = 0; i < 20; i++) {
        std::string copy = funcs;
        for (const char *k : {"_Z4dpowPKdPdi", "_Z5dtrigPKdPd", "_Z5ftrigPKfPf"}) {
            std::string from = k, to = std::string(k) + "_" + std::to_string(i);
            for (size_t p = copy.find(from); p != std::string::npos; p = copy.find(from, p + to.size()))
                copy.replace(p, from.size(), to);
        }
        // The two .func definitions must stay unique: keep only the kernels of each copy.
        copy = copy.substr(0, copy.find(".func  (.param .align 8 .b8 func_retval0[16]) __internal_trig"));
        big += copy;
    }
    auto t0 = std::chrono::steady_clock::now();
    Module m(big);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(m.rc, 0) << m.errors();
    EXPECT_EQ(m.m.n_funcs, 5u + 20 * 3);
    EXPECT_LT(ms, 500.0) << "parsing " << big.size() << " bytes took " << ms << " ms";
    RecordProperty("parse_ms", std::to_string(ms));
}
