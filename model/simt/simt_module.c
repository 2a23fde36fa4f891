/* Module loading for execution: constant bank, .global data in device memory, frame sizes
 * of every function's call chain, and a check that every instruction can run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt_internal.h"

static uint64_t align16(uint64_t v) { return (v + 15) & ~15ull; }

simt_frame_layout simt_frame_of(const ptx_func *f)
{
    simt_frame_layout l;
    l.scratch_off = align16(f->local_bytes);
    l.param_off = l.scratch_off + align16(f->scratch_bytes);
    l.size = l.param_off + (f->is_entry ? 0 : align16(f->param_bytes));
    return l;
}

static int is_alu(uint16_t op) { return (op >= OP_ADD && op <= OP_SLCT) || op == OP_CVT; }

static int check_instr(const ptx_module *m, const ptx_func *f, const ptx_instr *in, char *err, size_t len)
{
    const char *why = NULL;
    if (is_alu(in->op) && !simt_alu_supports(in)) why = "this type/qualifier combination is not implemented";
    if (in->op == OP_BAR && in->mode != PM_BAR_SYNC && in->mode != PM_BAR_ARRIVE && in->mode != PM_NONE)
        why = "bar.red is not implemented";
    if (in->op == OP_ATOM || in->op == OP_RED) {
        if (in->space != PS_GLOBAL && in->space != PS_SHARED && in->space != PS_GENERIC)
            why = "atomics work on global and shared memory only";
        if (ptx_type_size((ptx_type)in->type) != 4 && ptx_type_size((ptx_type)in->type) != 8)
            why = "atomics on 16-bit types are not implemented";
    }
    if ((in->op == OP_LD || in->op == OP_ST) && ptx_type_size((ptx_type)in->type) * in->vec > 32)
        why = "vector accesses above 32 bytes";
    if (!why) return 0;
    char where[160];
    ptx_describe_instr(m, f, (uint32_t)(in - f->instrs), where, sizeof where);
    snprintf(err, len, "%s:%u:%u: cannot execute %s: %s", m->name, in->line, in->col, where, why);
    return -1;
}

/* Frame bytes and register slots of the deepest call chain from function i. */
static int chain(simt_module *sm, uint32_t i, uint8_t *state, char *err, size_t len)
{
    const ptx_func *f = &sm->ptx.funcs[i];
    if (state[i] == 2) return 0;
    if (state[i] == 1) {
        snprintf(err, len, "%s: function '%s' is recursive; gtlm needs a bounded call depth", sm->ptx.name, f->name);
        return -1;
    }
    state[i] = 1;
    uint64_t deepest = 0;
    uint32_t regs = 0;
    for (uint32_t k = 0; k < f->n_instrs; k++) {
        const ptx_instr *in = &f->instrs[k];
        if (in->op != OP_CALL) continue;
        uint32_t c = (uint32_t)in->o[0].imm;
        if (chain(sm, c, state, err, len) != 0) return -1;
        if (sm->stack_bytes[c] > deepest) deepest = sm->stack_bytes[c];
        if (sm->stack_regs[c] > regs) regs = sm->stack_regs[c];
    }
    sm->frame_bytes[i] = simt_frame_of(f).size;
    sm->stack_bytes[i] = sm->frame_bytes[i] + deepest;
    sm->stack_regs[i] = f->n_regs + regs;
    state[i] = 2;
    return 0;
}

int simt_module_load(simt_module *sm, ptx_module *ptx, dmem *mem, char *err, size_t len)
{
    memset(sm, 0, sizeof *sm);
    sm->ptx = *ptx;
    memset(ptx, 0, sizeof *ptx);
    const ptx_module *m = &sm->ptx;
    uint32_t nf = m->n_funcs ? m->n_funcs : 1;
    sm->const_bank = calloc(m->const_bytes ? m->const_bytes : 1, 1);
    sm->frame_bytes = calloc(nf, sizeof *sm->frame_bytes);
    sm->stack_bytes = calloc(nf, sizeof *sm->stack_bytes);
    sm->stack_regs = calloc(nf, sizeof *sm->stack_regs);
    uint8_t *state = calloc(nf, 1);
    if (!sm->const_bank || !sm->frame_bytes || !sm->stack_bytes || !sm->stack_regs || !state) {
        free(state);
        snprintf(err, len, "%s: out of memory", m->name);
        simt_module_free(sm, mem);
        return -1;
    }
    if (m->global_bytes && dmem_alloc_bytes(mem, m->global_bytes, &sm->global_base) != 0) {
        free(state);
        snprintf(err, len, "%s: cannot allocate %llu bytes of .global data", m->name, (unsigned long long)m->global_bytes);
        simt_module_free(sm, mem);
        return -1;
    }
    int rc = 0;
    for (uint32_t i = 0; i < m->n_syms && rc == 0; i++) {
        const ptx_symbol *s = &m->syms[i];
        if (!s->init) continue;
        if (s->space == PS_CONST) memcpy(sm->const_bank + s->offset, s->init, s->size);
        else if (s->space == PS_GLOBAL) rc = dmem_write(mem, sm->global_base + s->offset, s->init, s->size);
    }
    for (uint32_t i = 0; i < m->n_funcs && rc == 0; i++) {
        const ptx_func *f = &m->funcs[i];
        for (uint32_t k = 0; k < f->n_instrs && rc == 0; k++) rc = check_instr(m, f, &f->instrs[k], err, len);
        if (rc == 0 && !f->is_extern) rc = chain(sm, i, state, err, len);
    }
    free(state);
    if (rc != 0) simt_module_free(sm, mem);
    return rc;
}

void simt_module_free(simt_module *sm, dmem *mem)
{
    if (sm->global_base && mem) dmem_release(mem, sm->global_base);
    free(sm->const_bank);
    free(sm->frame_bytes);
    free(sm->stack_bytes);
    free(sm->stack_regs);
    ptx_module_free(&sm->ptx);
    memset(sm, 0, sizeof *sm);
}
