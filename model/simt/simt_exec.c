/* One warp instruction: guard, operand fetch, dispatch to the ALU, memory, control flow and
 * warp-level operations, then reconvergence. */
#include <stdio.h>
#include <string.h>

#include "simt_internal.h"

static inline uint32_t lane_bit(uint32_t lane) { return 1u << lane; }

static uint64_t type_mask(uint8_t type)
{
    unsigned bytes = ptx_type_size((ptx_type)type);
    if (type == PT_PRED) return 1;
    return bytes >= 8 || bytes == 0 ? ~0ull : (1ull << (bytes * 8)) - 1;
}

/* Value of a special register for one lane. */
static uint64_t sreg_value(const simt_warp *w, const ptx_operand *o, uint32_t lane)
{
    const simt_cta *c = w->cta;
    return simt_sreg(c->launch, c->ctaid, c->smid, c->clock, w->id, lane, o);
}

uint64_t simt_sreg(const simt_launch *l, const uint32_t ctaid[3], uint32_t smid, uint64_t clock, uint32_t warp,
                   uint32_t lane, const ptx_operand *o)
{
    uint32_t t = warp * SIMT_WARP + lane; /* linear thread index in the CTA */
    uint32_t tid[3] = {t % l->block[0], (t / l->block[0]) % l->block[1], t / (l->block[0] * l->block[1])};
    unsigned k = o->comp < 3 ? o->comp : 0;
    switch ((ptx_sreg)o->sreg) {
    case SR_TID: return tid[k];
    case SR_NTID: return l->block[k];
    case SR_CTAID: return ctaid[k];
    case SR_NCTAID: return l->grid[k];
    case SR_LANEID: return lane;
    case SR_WARPID: return warp;
    case SR_NWARPID: return 64;
    case SR_SMID: return smid;
    case SR_NSMID: return l->n_sms;
    case SR_GRIDID: return l->grid_id;
    case SR_CLOCK: return (uint32_t)clock;
    case SR_CLOCK64: return clock;
    case SR_GLOBALTIMER: return clock;
    case SR_LANEMASK_EQ: return lane_bit(lane);
    case SR_LANEMASK_LT: return lane_bit(lane) - 1;
    case SR_LANEMASK_LE: return (lane_bit(lane) - 1) | lane_bit(lane);
    case SR_LANEMASK_GT: return ~((lane_bit(lane) - 1) | lane_bit(lane));
    case SR_LANEMASK_GE: return ~(lane_bit(lane) - 1);
    case SR_DYNAMIC_SMEM_SIZE: return l->dyn_shared;
    case SR_TOTAL_SMEM_SIZE: return l->shared_bytes;
    }
    return 0;
}

/* Raw bits of a source operand for every lane in active. */
static void fetch(const simt_warp *w, const simt_entry *e, const ptx_operand *o, uint32_t active, uint64_t *out)
{
    switch (o->kind) {
    case PO_REG: {
        const uint64_t *r = &w->regs[(size_t)(e->reg_base + o->reg) * SIMT_WARP];
        if (o->neg)
            for (uint32_t l = 0; l < SIMT_WARP; l++) out[l] = r[l] == 0;
        else
            memcpy(out, r, SIMT_WARP * sizeof *out);
        return;
    }
    case PO_IMM:
        for (uint32_t l = 0; l < SIMT_WARP; l++) out[l] = (uint64_t)o->imm;
        return;
    case PO_SREG:
        for (uint32_t m = active; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            out[l] = sreg_value(w, o, l);
        }
        return;
    case PO_SYMBOL: {
        uint64_t v = simt_symbol_value(w, e, o->sym) + (uint64_t)o->imm; /* the same for every lane */
        for (uint32_t l = 0; l < SIMT_WARP; l++) out[l] = v;
        return;
    }
    default:
        memset(out, 0, SIMT_WARP * sizeof *out);
        return;
    }
}

static inline uint64_t *reg_row(simt_warp *w, const simt_entry *e, uint32_t reg)
{
    return &w->regs[(size_t)(e->reg_base + reg) * SIMT_WARP];
}

static void write_reg(simt_warp *w, const simt_entry *e, uint32_t reg, const uint64_t *v, uint32_t active)
{
    if (reg == PTX_NO_REG) return;
    uint64_t *r = reg_row(w, e, reg);
    if (active == 0xffffffffu) {
        memcpy(r, v, SIMT_WARP * sizeof *r);
        return;
    }
    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        r[l] = v[l];
    }
}

/* mov, including vector pack/unpack and symbol addresses. */
static void exec_mov(simt_warp *w, const simt_entry *e, const ptx_instr *in, uint32_t active)
{
    uint64_t v[SIMT_WARP];
    const ptx_operand *d = &in->o[0], *s = &in->o[1];
    unsigned total = ptx_type_size((ptx_type)in->type) * 8;
    if (s->kind == PO_VEC) { /* pack: first element in the low bits */
        unsigned bits = total / s->vec_n;
        uint64_t part = bits >= 64 ? ~0ull : (1ull << bits) - 1;
        memset(v, 0, sizeof v);
        for (unsigned i = 0; i < s->vec_n; i++) {
            if (s->vec[i] == PTX_NO_REG) continue;
            const uint64_t *r = reg_row(w, e, s->vec[i]);
            for (uint32_t l = 0; l < SIMT_WARP; l++) v[l] |= (r[l] & part) << (i * bits);
        }
    } else {
        fetch(w, e, s, active, v);
        uint64_t m = type_mask(in->type);
        if (in->type == PT_PRED)
            for (uint32_t l = 0; l < SIMT_WARP; l++) v[l] = v[l] != 0;
        else
            for (uint32_t l = 0; l < SIMT_WARP; l++) v[l] &= m;
    }
    if (d->kind == PO_VEC) { /* unpack */
        unsigned bits = total / d->vec_n;
        uint64_t part = bits >= 64 ? ~0ull : (1ull << bits) - 1;
        for (unsigned i = 0; i < d->vec_n; i++) {
            if (d->vec[i] == PTX_NO_REG) continue;
            uint64_t *r = reg_row(w, e, d->vec[i]);
            for (uint32_t m = active; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctz(m);
                r[l] = (v[l] >> (i * bits)) & part;
            }
        }
        return;
    }
    write_reg(w, e, d->reg, v, active);
}

/* mov.indirect (Morpheus' Indirect-MOV, docs/morpheus.md): d = {array}[index] (read form) or
 * {array}[index] = s (write form) in every lane of active, each lane with its own index. An index
 * beyond the array stops the warp before any lane moves. */
static simt_status exec_mov_indirect(simt_warp *w, const simt_entry *e, const ptx_instr *in, uint32_t active,
                                     simt_error *err)
{
    int wr = in->o[0].kind == PO_RARRAY;
    const ptx_operand *a = &in->o[wr ? 0 : 1], *v = &in->o[wr ? 1 : 0];
    const uint64_t *idx = reg_row(w, e, a->reg);
    w->imov_n = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), i = (uint32_t)idx[l];
        if (i >= in->n_targets) {
            char why[96];
            snprintf(why, sizeof why, "mov.indirect index %u beyond its register array (%u registers)", i, in->n_targets);
            return simt_fail(w, err, SIMT_ERR_BOUNDS, l, i, PS_REG, why);
        }
    }
    uint64_t val[SIMT_WARP], mask = type_mask(in->type);
    if (wr) fetch(w, e, v, active, val);
    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), r = in->rarray[(uint32_t)idx[l]];
        uint32_t k = 0;
        while (k < w->imov_n && w->imov_reg[k] != r) k++;
        if (k == w->imov_n) w->imov_reg[w->imov_n++] = r;
        if (wr) reg_row(w, e, r)[l] = val[l] & mask;
        else val[l] = reg_row(w, e, r)[l] & mask; /* all read before d is written: d may be in the array */
    }
    if (!wr) write_reg(w, e, v->reg, val, active);
    return SIMT_OK;
}

static uint64_t window_of(uint8_t space)
{
    switch (space) {
    case PS_SHARED: return SIMT_SHARED_WINDOW;
    case PS_LOCAL: return SIMT_LOCAL_WINDOW;
    case PS_CONST: return SIMT_CONST_WINDOW;
    default: return 0; /* global and param: generic = space address */
    }
}

/* cvta: between a state-space address and a generic one. */
static void exec_cvta(simt_warp *w, const simt_entry *e, const ptx_instr *in, uint32_t active)
{
    uint64_t v[SIMT_WARP];
    fetch(w, e, &in->o[1], active, v);
    uint64_t base = window_of(in->space);
    uint64_t m = type_mask(in->type);
    for (uint32_t l = 0; l < SIMT_WARP; l++) v[l] = ((in->flags & PF_TO) ? v[l] - base : v[l] + base) & m;
    write_reg(w, e, in->o[0].reg, v, active);
}

/* shfl.sync.{up,down,bfly,idx}.b32 d|p, a, b, c{, membermask} */
static void exec_shfl(simt_warp *w, const simt_entry *e, const ptx_instr *in, uint32_t active)
{
    uint64_t a[SIMT_WARP], b[SIMT_WARP], c[SIMT_WARP], d[SIMT_WARP], p[SIMT_WARP];
    fetch(w, e, &in->o[1], active, a);
    fetch(w, e, &in->o[2], active, b);
    fetch(w, e, &in->o[3], active, c);
    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        uint32_t bval = (uint32_t)b[lane] & 31, cval = (uint32_t)c[lane] & 31;
        uint32_t segmask = ((uint32_t)c[lane] >> 8) & 31;
        int32_t max_lane = (int32_t)((lane & segmask) | (cval & ~segmask));
        int32_t min_lane = (int32_t)(lane & segmask);
        int32_t j;
        int ok;
        switch (in->mode) {
        case PM_SHFL_UP: j = (int32_t)lane - (int32_t)bval; ok = j >= max_lane; break;
        case PM_SHFL_DOWN: j = (int32_t)lane + (int32_t)bval; ok = j <= max_lane; break;
        case PM_SHFL_BFLY: j = (int32_t)(lane ^ bval); ok = j <= max_lane; break;
        default: j = min_lane | (int32_t)(bval & ~segmask); ok = j <= max_lane; break;
        }
        if (!ok || j < 0 || j > 31) j = (int32_t)lane;
        d[lane] = a[j] & 0xffffffffu;
        p[lane] = (uint64_t)ok;
    }
    write_reg(w, e, in->o[0].reg, d, active);
    write_reg(w, e, in->o[0].reg2, p, active);
}

/* vote.sync.{all,any,uni,ballot} d, {!}p{, membermask} */
static void exec_vote(simt_warp *w, const simt_entry *e, const ptx_instr *in, uint32_t active)
{
    uint64_t p[SIMT_WARP], d[SIMT_WARP];
    fetch(w, e, &in->o[1], active, p);
    uint32_t members = active;
    if (in->nopnd > 2) {
        uint64_t mm[SIMT_WARP];
        fetch(w, e, &in->o[2], active, mm);
        members &= (uint32_t)mm[__builtin_ctz(active)];
    }
    uint32_t yes = 0;
    for (uint32_t m = members; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (p[l]) yes |= lane_bit(l);
    }
    uint64_t r;
    switch (in->mode) {
    case PM_VOTE_ALL: r = yes == members; break;
    case PM_VOTE_ANY: r = yes != 0; break;
    case PM_VOTE_UNI: r = yes == 0 || yes == members; break;
    default: r = yes; break;
    }
    for (uint32_t l = 0; l < SIMT_WARP; l++) d[l] = r;
    write_reg(w, e, in->o[0].reg, d, active);
}

simt_status simt_fail(simt_warp *w, simt_error *err, simt_status status, uint32_t lane, uint64_t addr, uint8_t space,
                      const char *detail)
{
    const simt_entry *e = simt_top(w);
    memset(err, 0, sizeof *err);
    err->status = status;
    err->func = e->func;
    err->pc = e->pc;
    err->warp = w->id;
    err->lane = lane;
    memcpy(err->cta, w->cta->ctaid, sizeof err->cta);
    err->addr = addr;
    err->space = space;
    if (detail) {
        strncpy(err->detail, detail, sizeof err->detail - 1);
    }
    return status;
}

uint32_t simt_warp_active(const simt_warp *w) { return w->depth ? w->stack[w->depth - 1].mask : 0; }

const ptx_instr *simt_warp_next(const simt_warp *w, const ptx_func **f)
{
    if (!w->depth) return NULL;
    const simt_entry *e = &w->stack[w->depth - 1];
    const ptx_func *fn = simt_func(w, e->func);
    if (f) *f = fn;
    return &fn->instrs[e->pc];
}

/* ALU instruction: sources after the destination, straight into the destination registers. */
static simt_status exec_alu(simt_warp *w, const simt_entry *e, const ptx_instr *in, uint32_t active,
                            simt_error *err)
{
    uint64_t src[PTX_MAX_OPNDS][SIMT_WARP];
    int nsrc = in->nopnd - 1;
    for (int k = 0; k < nsrc; k++) fetch(w, e, &in->o[k + 1], active, src[k]);
    const ptx_operand *d = &in->o[0];
    int rc;
    if (d->reg2 == PTX_NO_REG && d->reg != PTX_NO_REG) {
        rc = simt_alu(in, (const uint64_t(*)[SIMT_WARP])src, nsrc, (uint64_t(*)[SIMT_WARP])reg_row(w, e, d->reg), active,
                      &w->carry);
    } else {
        uint64_t out[2][SIMT_WARP];
        rc = simt_alu(in, (const uint64_t(*)[SIMT_WARP])src, nsrc, out, active, &w->carry);
        if (rc == SIMT_ALU_OK) {
            write_reg(w, e, d->reg, out[0], active);
            write_reg(w, e, d->reg2, out[1], active);
        }
    }
    if (rc != SIMT_ALU_OK) return simt_fail(w, err, SIMT_ERR_UNSUPPORTED, 0, 0, 0, "instruction not supported by the ALU");
    return SIMT_OK;
}

uint32_t simt_guard_mask(const simt_warp *w, const simt_entry *e, const ptx_instr *in)
{
    if (in->guard == PTX_NO_REG) return e->mask;
    const uint64_t *g = &w->regs[(size_t)(e->reg_base + in->guard) * SIMT_WARP];
    uint32_t p = 0;
    for (uint32_t m = e->mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if ((g[l] != 0) != (in->guard_neg != 0)) p |= lane_bit(l);
    }
    return p;
}

simt_status simt_warp_step(simt_warp *w, simt_mem_access *acc, simt_error *err)
{
    if (acc) acc->mask = 0;
    simt_entry *e = simt_top(w);
    const ptx_func *f = simt_func(w, e->func);
    const ptx_instr *in = &f->instrs[e->pc];
    uint32_t active = simt_guard_mask(w, e, in);
    w->insn++;
    w->thread_insn += (uint64_t)__builtin_popcount(e->mask);
    simt_status st = SIMT_OK;

    switch ((ptx_op)in->op) {
    case OP_BRA: {
        uint32_t func = e->func, pc = e->pc, depth = w->depth;
        st = simt_exec_bra(w, in, e->mask, active, err);
        if (st == SIMT_OK && w->state == SIMT_WARP_READY) simt_spin_branch(w, func, pc, depth);
        if (w->spin.spinning) simt_spin_after_step(w);
        return st;
    }
    case OP_BRX_IDX: {
        uint64_t idx[SIMT_WARP];
        fetch(w, e, &in->o[0], active, idx);
        return simt_exec_brx(w, in, active, idx, err);
    }
    case OP_CALL:
        if (active != e->mask && active)
            return simt_fail(w, err, SIMT_ERR_UNSUPPORTED, 0, 0, 0, "guarded call with a divergent guard");
        if (!active) break;
        return simt_exec_call(w, in, active, err);
    case OP_RET:
        if (!active) break;
        return simt_exec_ret(w, active);
    case OP_EXIT:
        if (!active) break;
        simt_exec_exit(w, active);
        return SIMT_OK;
    case OP_TRAP:
        if (!active) break;
        return simt_fail(w, err, SIMT_ERR_TRAP, (uint32_t)__builtin_ctz(active), 0, 0, "trap executed");
    case OP_BAR: {
        if (!active) break;
        uint64_t id[SIMT_WARP];
        fetch(w, e, &in->o[0], active, id);
        w->writes++;
        w->spin.spinning = 0;
        return simt_exec_bar(w, in, active, (uint32_t)id[__builtin_ctz(active)] & 15, err);
    }
    case OP_BAR_WARP:
    case OP_MEMBAR:
    case OP_FENCE:
    case OP_NANOSLEEP:
        break; /* no functional effect in lock-step execution */
    case OP_MOV: exec_mov(w, e, in, active); break;
    case OP_MOV_INDIRECT: st = exec_mov_indirect(w, e, in, active, err); break;
    case OP_CVTA: exec_cvta(w, e, in, active); break;
    case OP_LD: st = simt_exec_ld(w, in, active, acc, err); break;
    case OP_ST:
        w->writes += active != 0;
        st = simt_exec_st(w, in, active, acc, err);
        break;
    case OP_ATOM:
    case OP_RED:
        w->writes += active != 0;
        st = simt_exec_atom(w, in, active, acc, err);
        break;
    case OP_SHFL: exec_shfl(w, e, in, active); break;
    case OP_VOTE: exec_vote(w, e, in, active); break;
    case OP_ACTIVEMASK: {
        uint64_t v[SIMT_WARP];
        for (uint32_t l = 0; l < SIMT_WARP; l++) v[l] = e->mask;
        write_reg(w, e, in->o[0].reg, v, active);
        break;
    }
    default:
        if (active) st = exec_alu(w, e, in, active, err);
        break;
    }
    if (st != SIMT_OK) return st;
    e = simt_top(w);
    e->pc++;
    simt_reconverge(w);
    if (w->spin.spinning) simt_spin_after_step(w);
    return SIMT_OK;
}
