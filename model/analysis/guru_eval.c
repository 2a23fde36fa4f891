/* LocalityGuru's evaluation (Alg. 4): the slice of the resolved trees, run per thread. The 32
 * threads of a warp step together at their lowest pc (threads never exchange values in the
 * slice, so any interleaving gives each thread its own sequential result); the ALU semantics
 * are the executor's (simt_alu), so a tree evaluates to the bits the kernel computes. */
#include "guru_eval.h"
#include "locality_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GURU_MAX_STEPS (UINT64_C(1) << 32) /* warp steps before a loop is declared endless */

typedef struct warp {
    const simt_launch *l;
    const ptx_func *f;
    uint32_t ctaid[3], id;
    uint64_t *regs; /* regs[slot * 32 + lane] */
    uint32_t pc[SIMT_WARP];
    uint32_t carry;
} warp;

static uint64_t type_mask(uint8_t type)
{
    unsigned bytes = ptx_type_size((ptx_type)type);
    if (type == PT_PRED) return 1;
    return bytes >= 8 || bytes == 0 ? ~0ull : (1ull << (bytes * 8)) - 1;
}

/* %smid and the clocks never reach a resolved tree: 0 for them. */
static uint64_t sreg(const warp *w, const ptx_operand *o, uint32_t lane)
{
    return simt_sreg(w->l, w->ctaid, 0, 0, w->id, lane, o);
}

/* The value a symbol's name stands for (global, shared and const symbols only reach the slice). */
static uint64_t symbol(const warp *w, int32_t sym)
{
    const ptx_symbol *s = ptx_symbol_ref(&w->l->mod->ptx, w->f, sym);
    if (!s) return 0;
    switch (s->space) {
    case PS_GLOBAL: return w->l->mod->global_base + s->offset;
    case PS_SHARED: return s->is_extern ? w->l->dyn_shared_base : s->offset;
    default: return s->offset;
    }
}

static void fetch(const warp *w, const ptx_operand *o, uint32_t m, uint64_t *out)
{
    for (; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        switch (o->kind) {
        case PO_REG: {
            uint64_t v = w->regs[(size_t)o->reg * SIMT_WARP + l];
            out[l] = o->neg ? v == 0 : v;
            break;
        }
        case PO_IMM: out[l] = (uint64_t)o->imm; break;
        case PO_SREG: out[l] = sreg(w, o, l); break;
        case PO_SYMBOL: out[l] = symbol(w, o->sym) + (uint64_t)o->imm; break;
        default: out[l] = 0;
        }
    }
}

static void store(warp *w, uint32_t reg, const uint64_t *v, uint32_t m)
{
    if (reg == PTX_NO_REG) return;
    for (; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        w->regs[(size_t)reg * SIMT_WARP + l] = v[l];
    }
}

static void exec_mov(warp *w, const ptx_instr *in, uint32_t m)
{
    uint64_t v[SIMT_WARP] = {0};
    const ptx_operand *d = &in->o[0], *s = &in->o[1];
    unsigned total = ptx_type_size((ptx_type)in->type) * 8;
    if (s->kind == PO_VEC) {
        unsigned bits = total / s->vec_n;
        uint64_t part = bits >= 64 ? ~0ull : (1ull << bits) - 1;
        for (unsigned i = 0; i < s->vec_n; i++)
            if (s->vec[i] != PTX_NO_REG)
                for (uint32_t l = 0; l < SIMT_WARP; l++) v[l] |= (w->regs[(size_t)s->vec[i] * SIMT_WARP + l] & part) << (i * bits);
    } else {
        fetch(w, s, m, v);
        uint64_t tm = type_mask(in->type);
        for (uint32_t l = 0; l < SIMT_WARP; l++) v[l] = in->type == PT_PRED ? v[l] != 0 : v[l] & tm;
    }
    if (d->kind == PO_VEC) {
        unsigned bits = total / d->vec_n;
        uint64_t part = bits >= 64 ? ~0ull : (1ull << bits) - 1;
        for (unsigned i = 0; i < d->vec_n; i++) {
            uint64_t u[SIMT_WARP];
            for (uint32_t l = 0; l < SIMT_WARP; l++) u[l] = (v[l] >> (i * bits)) & part;
            store(w, d->vec[i], u, m);
        }
        return;
    }
    store(w, d->reg, v, m);
}

static uint64_t window_of(uint8_t space)
{
    return space == PS_SHARED ? SIMT_SHARED_WINDOW : space == PS_LOCAL ? SIMT_LOCAL_WINDOW
           : space == PS_CONST ? SIMT_CONST_WINDOW : 0;
}

/* ld.param of a kernel parameter: the parameter buffer, widened as the executor does. */
static void exec_param(warp *w, const ptx_instr *in, uint32_t m)
{
    unsigned ts = ptx_type_size((ptx_type)in->type);
    uint64_t off = (uint64_t)in->o[1].imm, v = 0;
    if (ts <= 8 && off + ts <= w->f->param_bytes) memcpy(&v, w->l->params + off, ts);
    switch (in->type) {
    case PT_S8: v = (uint64_t)(int64_t)(int8_t)v; break;
    case PT_S16: v = (uint64_t)(int64_t)(int16_t)v; break;
    case PT_S32: v = (uint64_t)(int64_t)(int32_t)v; break;
    default: break;
    }
    uint64_t vals[SIMT_WARP];
    for (uint32_t l = 0; l < SIMT_WARP; l++) vals[l] = v;
    store(w, in->o[0].reg, vals, m);
}

static int exec_slice(warp *w, const ptx_instr *in, uint32_t m)
{
    switch (in->op) {
    case OP_MOV: exec_mov(w, in, m); return 0;
    case OP_LD: exec_param(w, in, m); return 0;
    case OP_CVTA: {
        uint64_t v[SIMT_WARP];
        fetch(w, &in->o[1], m, v);
        uint64_t base = window_of(in->space), tm = type_mask(in->type);
        for (uint32_t l = 0; l < SIMT_WARP; l++) v[l] = ((in->flags & PF_TO) ? v[l] - base : v[l] + base) & tm;
        store(w, in->o[0].reg, v, m);
        return 0;
    }
    default: break;
    }
    uint64_t src[PTX_MAX_OPNDS][SIMT_WARP], out[2][SIMT_WARP];
    int nsrc = in->nopnd - 1;
    for (int k = 0; k < nsrc; k++) fetch(w, &in->o[k + 1], m, src[k]);
    if (simt_alu(in, (const uint64_t(*)[SIMT_WARP])src, nsrc, out, m, &w->carry) != SIMT_ALU_OK) return -1;
    store(w, in->o[0].reg, out[0], m);
    store(w, in->o[0].reg2, out[1], m);
    return 0;
}

static uint32_t guard_mask(const warp *w, const ptx_instr *in, uint32_t m)
{
    if (in->guard == PTX_NO_REG) return m;
    uint32_t g = 0;
    for (uint32_t x = m; x; x &= x - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(x);
        if ((w->regs[(size_t)in->guard * SIMT_WARP + l] != 0) != (in->guard_neg != 0)) g |= 1u << l;
    }
    return g;
}

/* Where a resolved load's addresses go: per lane into a (granule, TB) set, or per warp into spans. */
typedef struct sink {
    lg_builder *b;
    lg_spans *s;
} sink;

/* Records a resolved load's addresses for the lanes in g. */
static int record(const warp *w, const ptx_instr *in, uint32_t g, uint32_t tb, const sink *out)
{
    const ptx_operand *a = &in->o[1];
    unsigned bytes = ptx_type_size((ptx_type)in->type) * (in->vec ? in->vec : 1);
    uint64_t base = a->reg == PTX_NO_REG && a->sym != PTX_NO_SYM ? symbol(w, a->sym) : 0, addr[SIMT_WARP];
    uint32_t global = 0;
    for (; g; g &= g - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(g);
        addr[l] = (a->reg != PTX_NO_REG ? w->regs[(size_t)a->reg * SIMT_WARP + l] : base) + (uint64_t)a->imm;
        if (in->space == PS_GENERIC &&
            (addr[l] - SIMT_SHARED_WINDOW < SIMT_WINDOW_SIZE || addr[l] - SIMT_LOCAL_WINDOW < SIMT_WINDOW_SIZE ||
             addr[l] - SIMT_CONST_WINDOW < SIMT_WINDOW_SIZE))
            continue; /* a generic load that is not global */
        global |= 1u << l;
    }
    if (out->s) return lg_spans_add_warp(out->s, tb, global, addr, bytes);
    return lg_builder_add_warp(out->b, tb, global, addr, bytes);
}

/* Runs one warp's threads (lanes in valid) through the slice. */
static int run_warp(warp *w, const guru_kernel *k, uint32_t valid, uint32_t tb, const sink *b, char *msg, size_t len)
{
    const ptx_func *f = w->f;
    uint32_t live = valid;
    for (uint32_t l = 0; l < SIMT_WARP; l++) w->pc[l] = 0;
    w->carry = 0;
    for (uint64_t steps = 0; live; steps++) {
        if (steps >= GURU_MAX_STEPS) {
            snprintf(msg, len, "LocalityGuru: kernel '%s' did not finish its address loops", f->name);
            return -1;
        }
        uint32_t pc = UINT32_MAX, m = 0;
        for (uint32_t x = live; x; x &= x - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(x);
            if (w->pc[l] < pc) pc = w->pc[l], m = 0;
            if (w->pc[l] == pc) m |= 1u << l;
        }
        if (pc >= f->n_instrs) {
            live &= ~m;
            continue;
        }
        const ptx_instr *in = &f->instrs[pc];
        uint32_t next = pc + 1, g;
        switch (k->role[pc]) {
        case GURU_SLICE:
            if ((g = guard_mask(w, in, m)) && exec_slice(w, in, g)) {
                snprintf(msg, len, "LocalityGuru: line %u: the ALU cannot evaluate this instruction", in->line);
                return -1;
            }
            break;
        case GURU_LOAD:
            if (record(w, in, guard_mask(w, in, m), tb, b)) {
                snprintf(msg, len, "LocalityGuru: out of memory (or TBs out of order)");
                return -1;
            }
            break;
        case GURU_DEAD_END: /* no load lies beyond: these threads read nothing more */
            live &= ~m;
            continue;
        case GURU_CONTROL:
            g = guard_mask(w, in, m);
            if (in->op == OP_BRA) {
                uint32_t target = (uint32_t)in->o[0].imm;
                for (uint32_t x = g; x; x &= x - 1) w->pc[__builtin_ctz(x)] = target;
                m &= ~g;
            } else { /* exit, ret */
                live &= ~g;
                m &= ~g;
            }
            break;
        default: break;
        }
        for (uint32_t x = m; x; x &= x - 1) w->pc[__builtin_ctz(x)] = next;
    }
    return 0;
}

static int eval_launch(const guru_kernel *k, const simt_launch *l, const sink *b, char *msg, size_t len)
{
    if (k->n_unresolved) {
        snprintf(msg, len, "LocalityGuru: kernel '%s' has %u unresolved loads", k->f->name, k->n_unresolved);
        return -1;
    }
    warp w = {0};
    w.l = l, w.f = k->f;
    w.regs = malloc((size_t)(k->f->n_regs ? k->f->n_regs : 1) * SIMT_WARP * sizeof *w.regs);
    if (!w.regs) {
        snprintf(msg, len, "LocalityGuru: out of memory");
        return -1;
    }
    uint32_t threads = l->block[0] * l->block[1] * l->block[2];
    int rc = 0;
    for (uint32_t z = 0; z < l->grid[2] && !rc; z++)
        for (uint32_t y = 0; y < l->grid[1] && !rc; y++)
            for (uint32_t x = 0; x < l->grid[0] && !rc; x++) {
                w.ctaid[0] = x, w.ctaid[1] = y, w.ctaid[2] = z;
                uint32_t tb = x + l->grid[0] * (y + l->grid[1] * z);
                for (w.id = 0; w.id * SIMT_WARP < threads && !rc; w.id++) {
                    uint32_t n = threads - w.id * SIMT_WARP;
                    memset(w.regs, 0, (size_t)(k->f->n_regs ? k->f->n_regs : 1) * SIMT_WARP * sizeof *w.regs);
                    rc = run_warp(&w, k, n >= SIMT_WARP ? 0xffffffffu : (1u << n) - 1, tb, b, msg, len);
                }
            }
    free(w.regs);
    return rc;
}

int guru_eval_launch(const guru_kernel *k, const simt_launch *l, lg_builder *b, char *msg, size_t len)
{
    sink out = {b, NULL};
    return eval_launch(k, l, &out, msg, len);
}

int guru_eval_graph(const guru_kernel *k, const simt_launch *l, int granularity, int per_thread, lg_graph *g, char *msg,
                    size_t len)
{
    memset(g, 0, sizeof *g);
    uint32_t n;
    if (lg_launch_tbs(l, &n, msg, len)) return -1;
    lg_builder b;
    lg_spans s;
    sink out = {&b, NULL};
    lg_builder_init(&b, n, granularity);
    if (!per_thread) {
        if (lg_spans_init(&s, n, granularity)) {
            snprintf(msg, len, "LocalityGuru: out of memory");
            return -1;
        }
        out.s = &s;
    }
    int rc = eval_launch(k, l, &out, msg, len);
    if (!rc && (per_thread ? lg_builder_graph(&b, g) : lg_spans_graph(&s, g))) {
        snprintf(msg, len, "locality graph: out of memory");
        rc = -1;
    }
    lg_builder_free(&b);
    if (!per_thread) lg_spans_free(&s);
    return rc;
}
