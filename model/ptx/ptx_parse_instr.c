/* One instruction: guard, opcode, operands (call has its own operand syntax), registers. */
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"
#include "ptx_opcodes.h"

ptx_instr *pp_new_instr(pp *p)
{
    ptx_func *f = &p->m->funcs[p->f.fi];
    if (f->n_instrs >= UINT32_MAX - 1) {
        pp_oom(p);
        return NULL;
    }
    if (PP_GROW(p, f->instrs, p->f.cap_instrs, (size_t)f->n_instrs + 1)) return NULL;
    ptx_instr *in = &f->instrs[f->n_instrs++];
    *in = *ptx_instr_buf_init(&p->f.cur);
    return in;
}

void pp_commit_instr(pp *p, ptx_instr *in)
{
    pp_func *pf = &p->f;
    ptx_func *f = &p->m->funcs[pf->fi];
    size_t nregs = (size_t)in->nsrc + in->ndst;
    if (PP_GROW(p, f->opnd_pool, pf->cap_opnds, pf->n_opnds + in->nopnd) ||
        PP_GROW(p, f->reg_pool, pf->cap_pregs, pf->n_pregs + nregs)) {
        in->nopnd = in->nsrc = in->ndst = 0;
    } else {
        if (in->nopnd) memcpy(f->opnd_pool + pf->n_opnds, in->o, in->nopnd * sizeof *in->o);
        if (in->nsrc) memcpy(f->reg_pool + pf->n_pregs, in->src, in->nsrc * sizeof *in->src);
        if (in->ndst) memcpy(f->reg_pool + pf->n_pregs + in->nsrc, in->dst, in->ndst * sizeof *in->dst);
        pf->n_opnds += in->nopnd;
        pf->n_pregs += nregs;
    }
    /* Pending until pp_finish_instrs: the scratch is the next instruction's. */
    in->o = NULL;
    in->src = in->dst = NULL;
}

void pp_finish_instrs(pp *p)
{
    pp_func *pf = &p->f;
    ptx_func *f = &p->m->funcs[pf->fi];
    /* The pools grew by doubling: give back the unused tails (kept when realloc fails). */
    if (pf->n_opnds < pf->cap_opnds && pf->n_opnds) {
        ptx_operand *v = realloc(f->opnd_pool, pf->n_opnds * sizeof *v);
        if (v) f->opnd_pool = v;
    }
    if (pf->n_pregs < pf->cap_pregs && pf->n_pregs) {
        uint32_t *v = realloc(f->reg_pool, pf->n_pregs * sizeof *v);
        if (v) f->reg_pool = v;
    }
    size_t ko = 0, kr = 0;
    for (uint32_t i = 0; i < f->n_instrs; i++) {
        ptx_instr *in = &f->instrs[i];
        in->o = in->nopnd ? f->opnd_pool + ko : NULL;
        in->src = in->nsrc ? f->reg_pool + kr : NULL;
        in->dst = in->ndst ? f->reg_pool + kr + in->nsrc : NULL;
        ko += in->nopnd;
        kr += (size_t)in->nsrc + in->ndst;
    }
}

/* ---- registers read and written ---- */

static void add_reg(uint32_t *list, uint8_t *n, uint32_t r)
{
    if (r == PTX_NO_REG) return;
    for (unsigned i = 0; i < *n; i++)
        if (list[i] == r) return;
    if (*n < PTX_MAX_REGS_PER_INSTR) list[(*n)++] = r;
}

static void fill_registers(ptx_instr *in, const char *pattern)
{
    add_reg(in->src, &in->nsrc, in->guard);
    for (unsigned k = 0; k < in->nopnd; k++) {
        const ptx_operand *o = &in->o[k];
        char kind = pattern ? pattern[k] : 's';
        int dst = kind == 'd' || kind == 'D' || kind == 'v' || kind == 'u';
        uint32_t *list = dst ? in->dst : in->src;
        uint8_t *n = dst ? &in->ndst : &in->nsrc;
        switch (o->kind) {
        case PO_REG: add_reg(list, n, o->reg); add_reg(list, n, o->reg2); break;
        case PO_ADDR: add_reg(in->src, &in->nsrc, o->reg); break;
        case PO_VEC:
            for (unsigned e = 0; e < o->vec_n; e++) add_reg(list, n, o->vec[e]);
            break;
        /* the index is read; the array's registers are not listed (which one is known at run time) */
        case PO_RARRAY: add_reg(in->src, &in->nsrc, o->reg); break;
        default: break;
        }
    }
}

/* ---- call ---- */

static int scratch_param(pp *p, const ptx_tok *t, int32_t *sym, const char *what)
{
    const ptx_func *f = &p->m->funcs[p->f.fi];
    int64_t v = pp_lookup(&p->f.syms, pp_text(p, t), t->len);
    if (t->kind == TK_WORD && v >= 0 && f->syms[v].space == PS_PARAM) {
        *sym = (int32_t)v;
        return 0;
    }
    char got[64];
    pp_describe(p, t, got, sizeof got);
    pp_error(p, t, "expected a .param variable declared in the function as the %s, got %s", what, got);
    return -1;
}

/* call{.uni} [(ret),] fname [, (arg, ...)] ; */
static int call_operands(pp *p, ptx_instr *in)
{
    pp_func *f = &p->f;
    in->nopnd = 1;
    in->o[0].kind = PO_FUNC;
    in->o[0].imm = -1;
    if (pp_accept(p, '(')) {
        if (scratch_param(p, pp_next(p), &in->call_ret, "return value")) return -1;
        if (pp_is(pp_peek(p), ',')) {
            pp_error(p, pp_peek(p), "calls with more than one return value are not supported");
            return -1;
        }
        if (pp_expect(p, ')', "after the return value") || pp_expect(p, ',', "after the return value")) return -1;
    }
    const ptx_tok *t = pp_next(p);
    const char *s = pp_text(p, t);
    if (t->kind == TK_WORD && s[0] == '%') {
        pp_error(p, t, "indirect calls through a register are not supported");
        return -1;
    }
    if (t->kind != TK_WORD || !pp_is_ident(s, t->len, 0)) {
        char got[64];
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected the name of the called function, got %s", got);
        return -1;
    }
    if (pp_accept(p, ',')) {
        if (!pp_is(pp_peek(p), '(')) {
            pp_error(p, pp_peek(p), "calls through a prototype or a target list are not supported");
            return -1;
        }
        pp_next(p);
        size_t cap = 0;
        if (!pp_is(pp_peek(p), ')')) {
            do {
                if (in->n_call_args == UINT16_MAX) {
                    pp_error(p, pp_peek(p), "too many call arguments");
                    return -1;
                }
                if (PP_GROW(p, in->call_args, cap, (size_t)in->n_call_args + 1)) return -1;
                if (scratch_param(p, pp_next(p), &in->call_args[in->n_call_args], "argument")) return -1;
                in->n_call_args++;
            } while (pp_accept(p, ','));
        }
        if (pp_expect(p, ')', "to close the argument list")) return -1;
        if (pp_is(pp_peek(p), ',')) {
            pp_error(p, pp_peek(p), "calls through a prototype or a target list are not supported");
            return -1;
        }
    }
    /* The callee may be defined later: resolved and checked at the end of the module. */
    const ptx_func *pf = &p->m->funcs[f->fi];
    if (PP_GROW(p, p->calls, p->cap_calls, p->n_calls + 1)) return -1;
    p->calls[p->n_calls++] = (pp_use){f->fi, (uint32_t)(in - pf->instrs), pp_tok_index(p, t), 0, *t};
    return 0;
}

/* ---- the instruction ---- */

static size_t count_operands(const pp *p, size_t from, size_t end)
{
    if (from >= end) return 0;
    size_t n = 1, depth = 0;
    for (size_t i = from; i < end; i++) {
        const ptx_tok *t = &p->tok[i];
        if (pp_is(t, '(') || pp_is(t, '[') || pp_is(t, '{')) depth++;
        else if ((pp_is(t, ')') || pp_is(t, ']') || pp_is(t, '}')) && depth) depth--;
        else if (pp_is(t, ',') && !depth) n++;
    }
    return n;
}

static int guard(pp *p, ptx_instr *in)
{
    pp_next(p); /* @ */
    in->guard_neg = (uint8_t)pp_accept(p, '!');
    const ptx_tok *t = pp_next(p);
    if (t->kind != TK_WORD) {
        char got[64];
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected a predicate register after '@', got %s", got);
        return -1;
    }
    int64_t v = pp_lookup(&p->f.regs, pp_text(p, t), t->len);
    if (v < 0) {
        pp_error(p, t, "undeclared register '%.*s'", (int)(t->len > 40 ? 40 : t->len), pp_text(p, t));
        return -1;
    }
    const ptx_func *f = &p->m->funcs[p->f.fi];
    if (f->regs[v].type != PT_PRED) {
        pp_error(p, t, "guard '%s' is not a predicate register", f->regs[v].name);
        return -1;
    }
    in->guard = (uint32_t)v;
    return 0;
}

void pp_instruction(pp *p)
{
    const ptx_tok *first = pp_peek(p);
    size_t start = p->pos;
    /* Find the opcode (after an optional guard) and the end of the statement first, so that
     * messages can quote the instruction and operand parsing cannot run into the next one. */
    size_t op_idx = start;
    if (pp_is(first, '@')) {
        op_idx = start + 1;
        if (pp_is(&p->tok[op_idx], '!')) op_idx++;
        if (p->tok[op_idx].kind != TK_EOF) op_idx++;
    }
    const ptx_tok *opt = &p->tok[op_idx];
    const char *ops = pp_text(p, opt);
    if (opt->kind != TK_WORD || ops[0] == '.' || ops[0] == '%' || ops[0] == '$') {
        char got[64];
        pp_describe(p, opt, got, sizeof got);
        pp_error(p, opt, "expected an instruction, got %s", got);
        pp_skip_statement(p);
        return;
    }
    ptx_instr *in = pp_new_instr(p);
    if (!in) return;
    in->line = pp_line(p, first);
    in->col = pp_col(p, first);
    char why[160], text[160];
    int bad = ptx_decode_opcode(ops, opt->len, in, why, sizeof why);
    int missing;
    size_t end = pp_statement_end(p, op_idx, !bad && in->op != OP_CALL && ptx_operand_pattern(in, 0, NULL), &missing);
    size_t last = missing ? end - 1 : end;
    if (bad) {
        pp_statement_text(p, start, last, text, sizeof text);
        pp_error(p, opt, "unsupported instruction '%.*s': %s (in '%s')", (int)(opt->len > 60 ? 60 : opt->len), ops, why,
                 text);
        goto done;
    }
    p->lim = end;
    if (pp_is(first, '@') && guard(p, in)) goto done;
    p->pos = op_idx + 1;
    const char *pattern = NULL;
    if (in->op == OP_CALL) {
        if (call_operands(p, in)) goto done;
    } else {
        size_t n = count_operands(p, op_idx + 1, end);
        const char *expect = "";
        pattern = n <= PTX_MAX_OPNDS ? ptx_operand_pattern(in, (unsigned)n, &expect) : NULL;
        /* mov.indirect writes when its register array comes first: {a, b, ...}[i], s */
        if (pattern && in->op == OP_MOV_INDIRECT && pp_is(&p->tok[p->pos], '{')) pattern = "Rs";
        if (!pattern) {
            char opc[64];
            ptx_format_opcode(in, opc, sizeof opc);
            if (n > PTX_MAX_OPNDS) ptx_operand_pattern(in, 0, &expect);
            pp_statement_text(p, start, last, text, sizeof text);
            pp_error(p, opt, "%s takes %s operand%s, not %zu (in '%s')", opc, expect, strcmp(expect, "1") ? "s" : "", n,
                     text);
            goto done;
        }
        for (unsigned k = 0; k < n; k++) {
            if (k && pp_expect(p, ',', "between operands")) goto done;
            if (pp_operand(p, in, k, pattern[k])) goto done;
            in->nopnd = (uint8_t)(k + 1);
        }
        if (in->op == OP_BRX_IDX) in->nopnd = 1; /* the list is in in->targets */
    }
    if (!pp_at_end(p)) {
        char got[64];
        pp_describe(p, pp_peek(p), got, sizeof got);
        pp_error(p, pp_peek(p), "unexpected %s after the operands", got);
        goto done;
    }
    fill_registers(in, pattern);
done:
    pp_commit_instr(p, in);
    p->lim = p->ntok - 1;
    p->pos = end;
    if (missing) {
        const ptx_tok *prev = &p->tok[end - 1];
        char got[64];
        pp_describe(p, &p->tok[end], got, sizeof got);
        pp_error_at(p, pp_line(p, prev), pp_col(p, prev) + prev->len, "expected ';' after the instruction, got %s", got);
    } else {
        p->pos++;
    }
}
