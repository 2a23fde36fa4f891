/* Instruction semantics of LocalityGuru's symbolic walk: each slice instruction maps affine
 * operands to an affine result (add, sub, mul/mad by a constant, shl by a constant, neg, cvt,
 * cvta, mov, ld.param), or to a predicate (setp, and/or/not of predicates). Instructions whose
 * operands are all constants run through the executor's ALU (simt_alu), so constants are the
 * kernel's exact bits; anything else is opaque and names its line. */
#include "guru_sym_ops.h"

#include <stdio.h>
#include <string.h>

static int is_int(uint8_t t) { return t != PT_NONE && t != PT_PRED && !ptx_type_is_float((ptx_type)t); }
static unsigned bits_of(uint8_t t) { return ptx_type_size((ptx_type)t) * 8; }
static int is_pred_reg(const gs_ctx *c, uint32_t r) { return r != PTX_NO_REG && c->pidx[r] != UINT32_MAX; }

/* A constant as the register of type t holds it: sign-extended for signed types, else zero. */
static ga_aff norm(ga_aff a, uint8_t t)
{
    unsigned w = bits_of(t);
    if (!ga_is_const(&a) || w == 0 || w >= 64) return a;
    uint64_t m = (UINT64_C(1) << w) - 1, b = (uint64_t)a.c0 & m;
    if (ptx_type_is_signed((ptx_type)t) && (b >> (w - 1))) b |= ~m;
    return ga_const((int64_t)b);
}

/* A bits-wide value widened (sign- or zero-extended): constants exactly, other values with an
 * obligation that they lie in the narrow type's range, so the extension is the value itself. */
static ga_aff widen(gs_ctx *c, const gs_state *x, ga_aff a, unsigned bits, int sign, uint32_t line)
{
    if (!a.known || bits >= 64 || bits == 0) return a;
    /* The register holds the value modulo 2^bits, so the constant term may move by multiples of
     * 2^bits: take the one inside the narrow type's range (a b32 constant such as not(n) is then
     * -n - 1, not 2^32 - n - 1). The obligation below is checked on the moved value. */
    uint64_t m = (UINT64_C(1) << bits) - 1, b = (uint64_t)a.c0 & m;
    if (sign && (b >> (bits - 1))) b |= ~m;
    a.c0 = (int64_t)b;
    if (ga_is_const(&a)) return a;
    int64_t lo = sign ? -(INT64_C(1) << (bits - 1)) : 0;
    int64_t hi = sign ? (INT64_C(1) << (bits - 1)) - 1 : (INT64_C(1) << bits) - 1;
    gs_record(c, x, GS_RANGE, &a, lo, hi, line);
    return a;
}

static int64_t symbol_addr(const gs_ctx *c, int32_t sym)
{
    const ptx_symbol *s = ptx_symbol_ref(&c->l->mod->ptx, c->f, sym);
    if (!s) return 0;
    if (s->space == PS_GLOBAL) return (int64_t)(c->l->mod->global_base + s->offset);
    if (s->space == PS_SHARED) return (int64_t)(s->is_extern ? c->l->dyn_shared_base : s->offset);
    return (int64_t)s->offset;
}

static ga_aff opnd(const gs_ctx *c, const gs_state *x, const ptx_operand *o, uint32_t line)
{
    switch (o->kind) {
    case PO_REG: return is_pred_reg(c, o->reg) ? ga_opaque(line) : x->v[o->reg];
    case PO_IMM: return ga_const(o->imm);
    case PO_SYMBOL: return ga_const(symbol_addr(c, o->sym) + o->imm);
    case PO_SREG:
        if (o->comp > 2) break;
        switch (o->sreg) {
        case SR_TID: return ga_var(GA_TID + o->comp);
        case SR_CTAID: return ga_var(GA_CTAID + o->comp);
        case SR_NTID: return ga_const(c->l->block[o->comp]);
        case SR_NCTAID: return ga_const(c->l->grid[o->comp]);
        default: break;
        }
        break;
    default: break;
    }
    return ga_opaque(line);
}

ga_dnf gs_pred(gs_ctx *c, const gs_state *x, uint32_t reg, int neg, uint32_t line)
{
    if (!is_pred_reg(c, reg)) return ga_popaque(line);
    ga_dnf p = x->p[c->pidx[reg]];
    return neg ? ga_not(&p, line) : p;
}

static ga_dnf pred_opnd(gs_ctx *c, const gs_state *x, const ptx_operand *o, uint32_t line)
{
    if (o->kind == PO_IMM) return o->imm ? ga_true() : ga_false();
    if (o->kind != PO_REG) return ga_popaque(line);
    return gs_pred(c, x, o->reg, o->neg, line);
}

/* 1 / 0 for a constant predicate, -1 otherwise. */
static int pred_const(const ga_dnf *p)
{
    if (p->n == 0) return 0;
    for (int t = 0; t < p->n; t++)
        if (p->t[t].n == 0) return 1;
    return -1;
}

static void set_val(gs_ctx *c, gs_state *x, uint32_t r, ga_aff v)
{
    if (r == PTX_NO_REG) return;
    for (unsigned i = 0; i < x->n_or;)
        if (x->orv[i].reg == r) x->orv[i] = x->orv[--x->n_or];
        else i++;
    if (is_pred_reg(c, r)) x->p[c->pidx[r]] = ga_popaque(v.why_line);
    else x->v[r] = v;
}

static void set_pred(gs_ctx *c, gs_state *x, uint32_t r, ga_dnf p)
{
    if (r != PTX_NO_REG && is_pred_reg(c, r)) x->p[c->pidx[r]] = p;
}

/* Every destination opaque. */
static void opaque_dests(gs_ctx *c, gs_state *x, const ptx_instr *in)
{
    for (unsigned i = 0; i < in->ndst; i++) set_val(c, x, in->dst[i], ga_opaque(in->line));
}

/* All sources constant: the executor's ALU computes the exact result. 0, or -1 when not. */
static int fold(gs_ctx *c, gs_state *x, const ptx_instr *in)
{
    uint64_t src[PTX_MAX_OPNDS][SIMT_WARP], out[2][SIMT_WARP];
    int nsrc = in->nopnd - 1;
    if (nsrc < 0 || in->o[0].kind != PO_REG || (in->flags & PF_CC) || in->op == OP_ADDC || in->op == OP_SUBC ||
        in->op == OP_MADC)
        return -1;
    for (int k = 0; k < nsrc; k++) {
        const ptx_operand *o = &in->o[k + 1];
        if (o->kind == PO_REG && is_pred_reg(c, o->reg)) {
            ga_dnf p = pred_opnd(c, x, o, in->line);
            int v = pred_const(&p);
            if (v < 0) return -1;
            src[k][0] = (uint64_t)v;
        } else {
            ga_aff a = opnd(c, x, o, in->line);
            if (!ga_is_const(&a)) return -1;
            src[k][0] = (uint64_t)a.c0;
        }
    }
    uint32_t carry = 0;
    if (simt_alu(in, (const uint64_t(*)[SIMT_WARP])src, nsrc, out, 1u, &carry) != SIMT_ALU_OK) return -1;
    uint32_t regs[2] = {in->o[0].reg, in->o[0].reg2};
    for (int i = 0; i < 2; i++) {
        if (regs[i] == PTX_NO_REG) continue;
        if (is_pred_reg(c, regs[i])) set_pred(c, x, regs[i], out[i][0] ? ga_true() : ga_false());
        else set_val(c, x, regs[i], norm(ga_const((int64_t)out[i][0]), in->type));
    }
    return 0;
}

/* The comparison a CMP b as "affine >= 0" atoms. */
static ga_dnf compare(uint8_t cmp, const ga_aff *a, const ga_aff *b, uint32_t line)
{
    ga_aff one = ga_const(1), ab = ga_lin(1, a, -1, b, line), ba = ga_lin(1, b, -1, a, line);
    ga_aff ab1 = ga_lin(1, &ab, -1, &one, line), ba1 = ga_lin(1, &ba, -1, &one, line);
    ga_dnf x, y;
    switch (cmp) {
    case PC_LT: case PC_LO: return ga_atom(&ba1);
    case PC_LE: case PC_LS: return ga_atom(&ba);
    case PC_GT: case PC_HI: return ga_atom(&ab1);
    case PC_GE: case PC_HS: return ga_atom(&ab);
    case PC_EQ: x = ga_atom(&ab), y = ga_atom(&ba); return ga_and(&x, &y, line);
    case PC_NE: x = ga_atom(&ab1), y = ga_atom(&ba1); return ga_or(&x, &y, line);
    default: return ga_popaque(line);
    }
}

static void exec_setp(gs_ctx *c, gs_state *x, const ptx_instr *in)
{
    uint32_t line = in->line;
    unsigned w = bits_of(in->type);
    int sign = ptx_type_is_signed((ptx_type)in->type) && !(in->cmp >= PC_LO && in->cmp <= PC_HS);
    ga_dnf t = ga_popaque(line);
    const ptx_operand *o1 = &in->o[1];
    ga_aff zero = opnd(c, x, &in->o[2], line);
    int or_at = -1;
    if (sign && w == 32 && (in->cmp == PC_LT || in->cmp == PC_GE) && ga_is_const(&zero) && zero.c0 == 0 &&
        o1->kind == PO_REG)
        for (unsigned i = 0; i < x->n_or; i++)
            if (x->orv[i].reg == o1->reg) or_at = (int)i;
    if (or_at >= 0) { /* the sign bit of a | b: a < 0 or b < 0, both in the s32 range */
        ga_aff a = widen(c, x, x->orv[or_at].a, 32, 1, line), b = widen(c, x, x->orv[or_at].b, 32, 1, line);
        ga_dnf ta = compare(PC_LT, &a, &zero, line), tb = compare(PC_LT, &b, &zero, line);
        t = ga_or(&ta, &tb, line);
        if (in->cmp == PC_GE) t = ga_not(&t, line);
    } else if (is_int(in->type)) {
        ga_aff a = widen(c, x, opnd(c, x, &in->o[1], line), w, sign, line);
        ga_aff b = widen(c, x, opnd(c, x, &in->o[2], line), w, sign, line);
        if (!a.known) t = ga_popaque(a.why_line);
        else if (!b.known) t = ga_popaque(b.why_line);
        else t = compare(in->cmp, &a, &b, line);
    }
    ga_dnf p = t, q = ga_not(&t, line);
    if (in->boolop != PB_NONE) {
        ga_dnf cp = pred_opnd(c, x, &in->o[3], line);
        if (in->boolop == PB_AND) p = ga_and(&t, &cp, line), q = ga_and(&q, &cp, line);
        else if (in->boolop == PB_OR) p = ga_or(&t, &cp, line), q = ga_or(&q, &cp, line);
        else p = q = ga_popaque(line);
    }
    set_pred(c, x, in->o[0].reg, p);
    set_pred(c, x, in->o[0].reg2, q);
}

/* A predicate-typed logic instruction or move. */
static void exec_pred(gs_ctx *c, gs_state *x, const ptx_instr *in)
{
    uint32_t line = in->line;
    ga_dnf a = pred_opnd(c, x, &in->o[1], line), r;
    ga_dnf b = in->nopnd > 2 ? pred_opnd(c, x, &in->o[2], line) : ga_popaque(line);
    switch (in->op) {
    case OP_MOV: r = a; break;
    case OP_NOT: r = ga_not(&a, line); break;
    case OP_AND: r = ga_and(&a, &b, line); break;
    case OP_OR: r = ga_or(&a, &b, line); break;
    default: r = ga_popaque(line); break;
    }
    set_pred(c, x, in->o[0].reg, r);
}

static void record_load(gs_ctx *c, gs_state *x, const ptx_instr *in, uint32_t pc)
{
    uint32_t i = c->load_of[pc];
    if (i == UINT32_MAX || !c->record) return;
    const ptx_operand *a = &in->o[1];
    ga_aff base = a->reg != PTX_NO_REG ? x->v[a->reg]
                  : a->sym != PTX_NO_SYM ? ga_const(symbol_addr(c, a->sym)) : ga_const(0);
    ga_aff off = ga_const(a->imm), addr = ga_lin(1, &base, 1, &off, in->line);
    if (!addr.known) {
        char *why = c->s->load_why[i];
        if (!why[0]) snprintf(c->s->load_why[i], sizeof c->s->load_why[i], "address not affine (line %u)", addr.why_line);
        return;
    }
    if (gs_record(c, x, GS_LOAD, &addr, 0, 0, in->line)) return;
    gs_event *e = &c->s->ev[c->s->n - 1];
    e->load = i, e->space = in->space;
    e->bytes = ptx_type_size((ptx_type)in->type) * (in->vec ? in->vec : 1);
}

void gs_exec(gs_ctx *c, gs_state *x, const ptx_instr *in, uint32_t pc)
{
    uint32_t line = in->line;
    if (c->k->role[pc] == GURU_LOAD) {
        record_load(c, x, in, pc);
        return;
    }
    const ptx_operand *d = &in->o[0];
    uint32_t dr = in->nopnd && d->kind == PO_REG ? d->reg : PTX_NO_REG;
    if (in->op == OP_SETP) {
        if (fold(c, x, in)) exec_setp(c, x, in);
        return;
    }
    if (dr != PTX_NO_REG && is_pred_reg(c, dr)) {
        if (in->type == PT_PRED && (in->op == OP_MOV || in->op == OP_NOT || in->op == OP_AND || in->op == OP_OR)) {
            exec_pred(c, x, in);
            return;
        }
        if (fold(c, x, in)) opaque_dests(c, x, in);
        return;
    }
    if (dr == PTX_NO_REG || in->o[1].kind == PO_VEC) {
        opaque_dests(c, x, in);
        return;
    }
    ga_aff r = ga_opaque(line), a = opnd(c, x, &in->o[1], line);
    ga_aff b = in->nopnd > 2 ? opnd(c, x, &in->o[2], line) : ga_opaque(line);
    unsigned w = bits_of(in->type);
    int sign = ptx_type_is_signed((ptx_type)in->type);
    switch (in->op) {
    case OP_MOV: r = a; break;
    case OP_LD:
        if (in->space == PS_PARAM && in->o[1].kind == PO_ADDR) {
            unsigned ts = ptx_type_size((ptx_type)in->type);
            uint64_t off = (uint64_t)in->o[1].imm, v = 0;
            if (ts <= 8 && off + ts <= c->f->param_bytes) memcpy(&v, c->l->params + off, ts);
            r = norm(ga_const((int64_t)v), in->type);
        }
        break;
    case OP_CVTA: {
        int64_t base = in->space == PS_SHARED ? (int64_t)SIMT_SHARED_WINDOW
                       : in->space == PS_LOCAL ? (int64_t)SIMT_LOCAL_WINDOW
                       : in->space == PS_CONST ? (int64_t)SIMT_CONST_WINDOW : 0;
        ga_aff bv = ga_const(base);
        r = ga_lin(1, &a, (in->flags & PF_TO) ? -1 : 1, &bv, line);
        break;
    }
    default:
        if (!fold(c, x, in)) return;
        if (!is_int(in->type) || (in->flags & (PF_CC | PF_SAT))) break;
        switch (in->op) {
        case OP_ADD: r = ga_lin(1, &a, 1, &b, line); break;
        case OP_SUB: r = ga_lin(1, &a, -1, &b, line); break;
        case OP_NEG: r = ga_lin(-1, &a, 0, &a, line); break;
        case OP_OR:
            if (w == 32 && a.known && b.known) {
                set_val(c, x, dr, ga_opaque(line));
                unsigned i = x->n_or < 4 ? x->n_or++ : 3;
                x->orv[i].reg = dr, x->orv[i].a = a, x->orv[i].b = b;
                return;
            }
            break;
        case OP_MUL:
        case OP_MAD:
            if (in->mode == PM_WIDE) {
                a = widen(c, x, a, w, sign, line), b = widen(c, x, b, w, sign, line);
            } else if (in->mode != PM_LO && in->mode != PM_NONE) {
                break;
            }
            r = ga_mul(&a, &b, line);
            if (in->op == OP_MAD) {
                ga_aff cc = opnd(c, x, &in->o[3], line);
                r = ga_lin(1, &r, 1, &cc, line);
            }
            break;
        case OP_SHL:
            if (ga_is_const(&b) && b.c0 >= 0 && b.c0 < (int64_t)w && b.c0 < 62) {
                ga_aff m = ga_const(INT64_C(1) << b.c0);
                r = ga_mul(&a, &m, line);
            }
            break;
        case OP_CVT:
            if (!is_int(in->type2) || in->rnd != PR_NONE) break;
            r = bits_of(in->type) > bits_of(in->type2)
                    ? widen(c, x, a, bits_of(in->type2), ptx_type_is_signed((ptx_type)in->type2), line)
                    : a; /* same width or narrower: the low bits, which ring operations respect */
            break;
        default: break;
        }
        if (r.known && ga_is_const(&r) && in->op != OP_MAD && in->op != OP_MUL) r = norm(r, in->type);
        break;
    }
    set_val(c, x, dr, r);
    if (in->ndst > 1)
        for (unsigned i = 0; i < in->ndst; i++)
            if (in->dst[i] != dr) set_val(c, x, in->dst[i], ga_opaque(line));
}
