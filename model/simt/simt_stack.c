/* The reconvergence stack: branches, calls and returns, thread exit, and CTA barriers. */
#include <stdlib.h>
#include <string.h>

#include "simt_internal.h"

static simt_status push(simt_warp *w, simt_entry e, simt_error *err)
{
    if (w->depth == w->cap) {
        uint32_t cap = w->cap ? w->cap * 2 : 8;
        simt_entry *s = realloc(w->stack, cap * sizeof *s);
        if (!s) return simt_fail(w, err, SIMT_ERR_NOMEM, 0, 0, 0, "out of memory growing the SIMT stack");
        w->stack = s;
        w->cap = cap;
    }
    w->stack[w->depth++] = e;
    return SIMT_OK;
}

void simt_reconverge(simt_warp *w)
{
    /* A function body's rpc is UINT32_MAX: it ends when its last lane returns. */
    while (w->depth) {
        simt_entry *t = simt_top(w);
        if (t->mask != 0 && t->pc != t->rpc) break;
        w->depth--;
    }
    if (!w->depth) w->state = SIMT_WARP_DONE;
}

/* Splits the top entry into paths that meet again at reconv: the top entry waits there. */
static simt_status diverge(simt_warp *w, uint32_t reconv, const uint32_t *pcs, const uint32_t *masks, int n,
                           simt_error *err)
{
    simt_entry base = *simt_top(w);
    simt_top(w)->pc = reconv;
    for (int i = n - 1; i >= 0; i--) {
        simt_entry e = base;
        e.pc = pcs[i];
        e.rpc = reconv;
        e.mask = masks[i];
        e.call_body = 0;
        simt_status st = push(w, e, err);
        if (st != SIMT_OK) return st;
    }
    simt_reconverge(w);
    return SIMT_OK;
}

simt_status simt_exec_bra(simt_warp *w, const ptx_instr *in, uint32_t active, uint32_t taken, simt_error *err)
{
    simt_entry *e = simt_top(w);
    uint32_t target = (uint32_t)in->o[0].imm, fall = e->pc + 1;
    uint32_t not_taken = active & ~taken;
    if (!not_taken || !taken) {
        e->pc = taken ? target : fall;
        simt_reconverge(w);
        return SIMT_OK;
    }
    uint32_t pcs[2] = {target, fall}, masks[2] = {taken, not_taken};
    return diverge(w, in->reconv_pc, pcs, masks, 2, err);
}

simt_status simt_exec_brx(simt_warp *w, const ptx_instr *in, uint32_t active, const uint64_t *index, simt_error *err)
{
    uint32_t pcs[SIMT_WARP], masks[SIMT_WARP];
    int n = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (index[l] >= in->n_targets)
            return simt_fail(w, err, SIMT_ERR_BOUNDS, l, index[l], 0, "brx.idx index beyond its target list");
        uint32_t pc = in->targets[index[l]];
        int i = 0;
        while (i < n && pcs[i] != pc) i++;
        if (i == n) {
            pcs[n] = pc;
            masks[n++] = 0;
        }
        masks[i] |= 1u << l;
    }
    simt_entry *e = simt_top(w);
    if (n == 0) { /* no lane takes it: fall through */
        e->pc++;
        simt_reconverge(w);
        return SIMT_OK;
    }
    if (n == 1 && masks[0] == e->mask) {
        e->pc = pcs[0];
        simt_reconverge(w);
        return SIMT_OK;
    }
    if (active != e->mask) { /* guarded-off lanes fall through */
        pcs[n] = e->pc + 1;
        masks[n++] = e->mask & ~active;
    }
    return diverge(w, in->reconv_pc, pcs, masks, n, err);
}

/* Copies bytes between two places of one lane's frame memory. */
static void frame_copy(simt_warp *w, uint32_t lane, uint64_t dst, uint64_t src, uint64_t n)
{
    uint8_t *base = w->frames + (size_t)lane * w->frame_stride;
    memmove(base + dst, base + src, n);
}

simt_status simt_exec_call(simt_warp *w, const ptx_instr *in, uint32_t active, simt_error *err)
{
    simt_entry *e = simt_top(w);
    const ptx_func *caller = simt_func(w, e->func);
    uint32_t callee_index = (uint32_t)in->o[0].imm;
    const ptx_func *callee = simt_func(w, callee_index);
    simt_frame_layout cf = simt_frame_of(caller), nf = simt_frame_of(callee);
    uint64_t frame = e->frame_base + cf.size;
    uint32_t regs = e->reg_base + caller->n_regs;
    if (frame + nf.size > w->frame_stride || regs + callee->n_regs > w->n_reg_slots)
        return simt_fail(w, err, SIMT_ERR_NOMEM, 0, 0, 0, "call frames deeper than computed at load");
    /* Arguments: the caller's call-site scratch symbols into the callee's parameters. */
    for (uint16_t i = 0; i < in->n_call_args && i < callee->n_params; i++) {
        const ptx_symbol *s = ptx_symbol_ref(&w->cta->launch->mod->ptx, caller, in->call_args[i]);
        uint64_t src = e->frame_base + cf.scratch_off + s->offset;
        uint64_t dst = frame + nf.param_off + callee->params[i].offset;
        for (uint32_t m = active; m; m &= m - 1) frame_copy(w, (uint32_t)__builtin_ctz(m), dst, src, callee->params[i].size);
    }
    memset(&w->regs[(size_t)regs * SIMT_WARP], 0, (size_t)callee->n_regs * SIMT_WARP * sizeof(uint64_t));
    e->pc++; /* where the caller resumes */
    simt_entry body = {0, UINT32_MAX, active, callee_index, regs, frame, 1};
    return push(w, body, err);
}

simt_status simt_exec_ret(simt_warp *w, uint32_t active)
{
    /* Find the activation's body entry; a kernel's ret retires the lanes. */
    uint32_t b = w->depth;
    while (b > 0 && !w->stack[b - 1].call_body) b--;
    if (b == 0) {
        simt_exec_exit(w, active);
        return SIMT_OK;
    }
    simt_entry *body = &w->stack[b - 1];
    for (uint32_t i = b - 1; i < w->depth; i++) w->stack[i].mask &= ~active;
    /* Lanes leave the function now; copy their return value into the caller's scratch. */
    if (b >= 2) {
        const simt_entry *caller_e = &w->stack[b - 2];
        const ptx_func *caller = simt_func(w, caller_e->func), *callee = simt_func(w, body->func);
        const ptx_instr *call = &caller->instrs[caller_e->pc - 1];
        if (call->call_ret != PTX_NO_SYM && callee->n_rets) {
            simt_frame_layout cf = simt_frame_of(caller), nf = simt_frame_of(callee);
            const ptx_symbol *s = ptx_symbol_ref(&w->cta->launch->mod->ptx, caller, call->call_ret);
            uint64_t dst = caller_e->frame_base + cf.scratch_off + s->offset;
            uint64_t src = body->frame_base + nf.param_off + callee->rets[0].offset;
            uint64_t n = callee->rets[0].size < s->size ? callee->rets[0].size : s->size;
            for (uint32_t m = active; m; m &= m - 1) frame_copy(w, (uint32_t)__builtin_ctz(m), dst, src, n);
        }
    }
    /* The remaining lanes of the function continue; when none remain, pop to the caller. */
    simt_entry *t = simt_top(w);
    if (t->mask) t->pc++; /* lanes whose guard was false go on past the ret */
    simt_reconverge(w);
    return SIMT_OK;
}

void simt_exec_exit(simt_warp *w, uint32_t active)
{
    for (uint32_t i = 0; i < w->depth; i++) w->stack[i].mask &= ~active;
    w->retired |= active;
    simt_entry *t = simt_top(w);
    if (t->mask) t->pc++;
    simt_reconverge(w);
    if (w->state == SIMT_WARP_DONE) {
        simt_cta *c = w->cta;
        c->live_warps--;
        for (uint32_t id = 0; id < 16; id++)
            if (c->arrived[id]) simt_barrier_check(c, id);
    }
}

void simt_barrier_check(simt_cta *c, uint32_t id)
{
    if (c->arrived[id] < c->live_warps) return;
    c->arrived[id] = 0;
    for (uint32_t i = 0; i < c->n_warps; i++) {
        simt_warp *w = &c->warps[i];
        if (w->state == SIMT_WARP_AT_BARRIER && w->barrier_id == id) w->state = SIMT_WARP_READY;
    }
}

simt_status simt_exec_bar(simt_warp *w, const ptx_instr *in, uint32_t active, uint32_t id, simt_error *err)
{
    simt_entry *e = simt_top(w);
    (void)err;
    w->bar_func = e->func;
    w->bar_pc = e->pc;
    e->pc++;
    simt_reconverge(w);
    if (in->mode == PM_BAR_ARRIVE) return SIMT_OK;
    (void)active;
    simt_cta *c = w->cta;
    w->state = SIMT_WARP_AT_BARRIER;
    w->barrier_id = (uint8_t)id;
    c->arrived[id]++;
    simt_barrier_check(c, id);
    return SIMT_OK;
}
