/*
 * Forward references and load-time checks: labels at the end of each function, callees and
 * call signatures at the end of the module, so that nothing is discovered at run time.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"

static int64_t label_pc(pp *p, const ptx_tok *t)
{
    int64_t *v = ptx_map_get(&p->f.labels, pp_text(p, t), t->len);
    return v ? (int64_t)p->f.ldefs[*v].pc : -1;
}

static void lose_label(pp *p, const pp_use *u)
{
    if (PP_GROW(p, p->lost_labels, p->cap_lost, p->n_lost + 1)) return;
    p->lost_labels[p->n_lost] = *u;
    p->lost_labels[p->n_lost++].tk = p->tok[u->tok]; /* reported at the end of the module */
}

void pp_resolve_function(pp *p)
{
    pp_func *f = &p->f;
    ptx_func *pf = &p->m->funcs[f->fi];
    for (size_t i = 0; i < f->n_luses; i++) {
        const pp_use *u = &f->luses[i];
        int64_t pc = label_pc(p, &p->tok[u->tok]);
        if (pc < 0) lose_label(p, u);
        else if (u->opnd < pf->instrs[u->pc].nopnd) pf->instrs[u->pc].o[u->opnd].imm = pc; /* else failed to parse */
    }
    for (size_t i = 0; i < f->n_buses; i++) {
        const pp_use *u = &f->buses[i];
        const ptx_tok *t = &p->tok[u->tok];
        int64_t *bi = ptx_map_get(&f->btargets, pp_text(p, t), t->len);
        if (!bi) {
            pp_error(p, t, "undefined .branchtargets list '%.*s'", (int)t->len, pp_text(p, t));
            continue;
        }
        const pp_btlist *bl = &f->bts[*bi];
        ptx_instr *in = &pf->instrs[u->pc];
        if (bl->n > UINT16_MAX) {
            pp_error(p, t, "too many branch targets");
            continue;
        }
        free(in->targets);
        in->targets = malloc(bl->n * sizeof *in->targets);
        if (!in->targets) {
            pp_oom(p);
            return;
        }
        in->n_targets = 0;
        for (uint32_t k = 0; k < bl->n; k++) {
            const ptx_tok *lt = &p->tok[f->bt_toks[bl->first + k]];
            int64_t pc = label_pc(p, lt);
            if (pc < 0) pp_error(p, lt, "undefined label '%.*s' in .branchtargets list", (int)lt->len, pp_text(p, lt));
            else in->targets[in->n_targets++] = (uint32_t)pc;
        }
    }
}

static void check_call(pp *p, const pp_use *c)
{
    ptx_module *m = p->m;
    ptx_func *f = &m->funcs[c->func];
    ptx_instr *in = &f->instrs[c->pc];
    const ptx_tok *t = &c->tk;
    int64_t *ci = ptx_map_get(&p->funcs, pp_text(p, t), t->len);
    if (!ci) {
        pp_error_at(p, in->line, in->col, "call to undefined function '%.*s'", (int)t->len, pp_text(p, t));
        return;
    }
    if (in->nopnd) in->o[0].imm = *ci;
    const ptx_func *callee = &m->funcs[*ci];
    if (callee->is_entry) {
        pp_error_at(p, in->line, in->col, "'%s' is a kernel (.entry) and cannot be called", callee->name);
        return;
    }
    if (callee->is_extern) {
        pp_error_at(p, in->line, in->col,
                    "call to '%s', which is declared but not defined in this module "
                    "(printf/assert are not supported by gtlm's executor)",
                    callee->name);
        return;
    }
    if (in->n_call_args != callee->n_params) {
        pp_error_at(p, in->line, in->col, "call to '%s' passes %u argument%s, but '%s' takes %u", callee->name,
                    in->n_call_args, in->n_call_args == 1 ? "" : "s", callee->name, callee->n_params);
        return;
    }
    for (uint32_t k = 0; k < callee->n_params; k++) {
        const ptx_symbol *a = &f->syms[in->call_args[k]];
        if (a->size != callee->params[k].size)
            pp_error_at(p, in->line, in->col, "argument %u of the call to '%s' ('%s') is %llu bytes, but parameter '%s' is %llu",
                        k + 1, callee->name, a->name, (unsigned long long)a->size, callee->params[k].name,
                        (unsigned long long)callee->params[k].size);
    }
    if (in->call_ret != PTX_NO_SYM) {
        const ptx_symbol *r = &f->syms[in->call_ret];
        if (!callee->n_rets)
            pp_error_at(p, in->line, in->col, "call to '%s' expects a return value, but '%s' returns nothing",
                        callee->name, callee->name);
        else if (r->size != callee->rets[0].size)
            pp_error_at(p, in->line, in->col, "return value '%s' of the call to '%s' is %llu bytes, but '%s' returns %llu",
                        r->name, callee->name, (unsigned long long)r->size, callee->name,
                        (unsigned long long)callee->rets[0].size);
    }
}

void pp_resolve_module(pp *p)
{
    for (size_t i = 0; i < p->n_calls && !p->stop; i++) check_call(p, &p->calls[i]);
    for (size_t i = 0; i < p->n_lost && !p->stop; i++) {
        const pp_use *u = &p->lost_labels[i];
        const ptx_tok *t = &u->tk;
        int64_t *owner = ptx_map_get(&p->all_labels, pp_text(p, t), t->len);
        if (owner)
            pp_error(p, t, "label '%.*s' belongs to function '%s': a branch cannot leave function '%s'", (int)t->len,
                     pp_text(p, t), p->m->funcs[*owner].name, p->m->funcs[u->func].name);
        else
            pp_error(p, t, "undefined label '%.*s'", (int)t->len, pp_text(p, t));
    }
}
