/*
 * libFuzzer harness of the PTX front end: parses arbitrary bytes, checks that a module that
 * loads is internally consistent (every index in range), exercises the helpers, and frees it.
 * Built by CMakeLists.txt here with -fsanitize=fuzzer,address,undefined; run by run_fuzz.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ptx/ptx_parse.h"

#define CHECK(c) \
    do {         \
        if (!(c)) abort(); \
    } while (0)

static void check_operand(const ptx_module *m, const ptx_func *f, const ptx_operand *o)
{
    switch (o->kind) {
    case PO_REG: CHECK(o->reg < f->n_regs); CHECK(o->reg2 == PTX_NO_REG || o->reg2 < f->n_regs); break;
    case PO_ADDR:
        CHECK(o->reg == PTX_NO_REG || o->reg < f->n_regs);
        CHECK(o->sym == PTX_NO_SYM || ptx_symbol_ref(m, f, o->sym));
        break;
    case PO_SYMBOL: CHECK(ptx_symbol_ref(m, f, o->sym)); break;
    case PO_VEC:
        CHECK(o->vec_n >= 1 && o->vec_n <= 4);
        for (unsigned e = 0; e < o->vec_n; e++) CHECK(o->vec[e] == PTX_NO_REG || o->vec[e] < f->n_regs);
        break;
    case PO_LABEL: CHECK(o->imm >= 0 && o->imm <= (int64_t)f->n_instrs); break;
    case PO_FUNC: CHECK(o->imm >= 0 && o->imm < (int64_t)m->n_funcs); break;
    default: break;
    }
}

static void check_func(const ptx_module *m, const ptx_func *f)
{
    char buf[128];
    for (uint32_t i = 0; i < f->n_instrs; i++) {
        const ptx_instr *in = &f->instrs[i];
        CHECK(in->nopnd <= PTX_MAX_OPNDS);
        for (unsigned k = 0; k < in->nopnd; k++) check_operand(m, f, &in->o[k]);
        for (unsigned k = 0; k < in->nsrc; k++) CHECK(in->src[k] < f->n_regs);
        for (unsigned k = 0; k < in->ndst; k++) CHECK(in->dst[k] < f->n_regs);
        CHECK(in->guard == PTX_NO_REG || in->guard < f->n_regs);
        CHECK(in->reconv_pc <= f->n_instrs);
        for (unsigned k = 0; k < in->n_targets; k++) CHECK(in->targets[k] <= f->n_instrs);
        for (unsigned k = 0; k < in->n_call_args; k++) CHECK(ptx_symbol_ref(m, f, in->call_args[k]));
        CHECK(f->block_of[i] < f->n_blocks);
        ptx_describe_instr(m, f, i, buf, sizeof buf);
    }
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        const ptx_block *bl = &f->blocks[b];
        CHECK(bl->start < bl->end && bl->end <= f->n_instrs);
        CHECK(bl->ipdom == UINT32_MAX || bl->ipdom < f->n_blocks);
        for (uint32_t s = 0; s < bl->nsucc && s < 2; s++) CHECK(bl->succ[s] == UINT32_MAX || bl->succ[s] < f->n_blocks);
    }
    if (f->is_entry) CHECK(ptx_kernel_static_shared(m, f) >= m->shared_static_bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    ptx_module m;
    if (ptx_parse("fuzz.ptx", (const char *)data, size, &m, &err, &warn) == 0) {
        for (uint32_t i = 0; i < m.n_funcs; i++) check_func(&m, &m.funcs[i]);
        CHECK(ptx_module_find_func(&m, m.n_funcs ? m.funcs[0].name : "") == (m.n_funcs ? &m.funcs[0] : NULL));
        ptx_module_free(&m);
    } else {
        CHECK(err.len > 0 && m.n_funcs == 0 && m.funcs == NULL);
    }
    strbuf_free(&err);
    strbuf_free(&warn);
    return 0;
}
