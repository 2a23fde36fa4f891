/* Functions: signature, performance directives, and the body's statements. */
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"

static void free_params(ptx_param *a, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) free(a[i].name);
    free(a);
}

static int known_pragma(const pp *p, const ptx_tok *t)
{
    static const char *const known[] = {"\"nounroll\"", "\"used_bytes_mask", "\"enable_smem_spilling\""};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t n = strlen(known[i]);
        if (t->len >= n && memcmp(pp_text(p, t), known[i], n) == 0) return 1;
    }
    return 0;
}

/* .pragma "..." {, "..."} ; -- a hint: skipped, with a warning when unknown. */
static void pragma(pp *p)
{
    pp_next(p);
    do {
        const ptx_tok *t = pp_peek(p);
        if (t->kind != TK_STR) {
            char got[64];
            pp_describe(p, t, got, sizeof got);
            pp_error(p, t, "expected a string after .pragma, got %s", got);
            pp_skip_statement(p);
            return;
        }
        if (!known_pragma(p, t)) pp_warn(p, t, "ignoring .pragma %.*s", (int)(t->len > 60 ? 60 : t->len), pp_text(p, t));
        pp_next(p);
    } while (pp_accept(p, ','));
    if (pp_expect(p, ';', "after .pragma")) pp_skip_statement(p);
}

void pp_skip_directive(pp *p, int block)
{
    const ptx_tok *d = pp_next(p);
    if (!ptx_map_get(&p->warned, pp_text(p, d), d->len)) {
        pp_warn(p, d, "ignoring directive '%.*s'", (int)(d->len > 40 ? 40 : d->len), pp_text(p, d));
        if (ptx_map_put(&p->warned, pp_text(p, d), d->len, 1)) pp_oom(p);
    }
    while (pp_peek(p)->kind != TK_EOF && pp_same_line(p, d, pp_peek(p)) && !pp_is(pp_peek(p), ';') &&
           !pp_is(pp_peek(p), '{') && !pp_is(pp_peek(p), '}'))
        pp_next(p);
    if (block && pp_is(pp_peek(p), '{')) {
        size_t depth = 0;
        do {
            const ptx_tok *t = pp_next(p);
            if (pp_is(t, '{')) depth++;
            if (pp_is(t, '}')) depth--;
        } while (depth && pp_peek(p)->kind != TK_EOF);
    }
    pp_accept(p, ';');
}

/* ---- body statements ---- */

static void label(pp *p)
{
    const ptx_tok *t = pp_next(p);
    const char *s = pp_text(p, t);
    pp_next(p); /* ':' */
    pp_func *f = &p->f;
    if (!pp_is_ident(s, t->len, 0)) {
        pp_error(p, t, "bad label name '%.*s'", (int)(t->len > 40 ? 40 : t->len), s);
        return;
    }
    const ptx_tok *d = pp_peek(p);
    if (pp_is_word(p, d, ".branchtargets")) {
        pp_next(p);
        if (ptx_map_get(&f->btargets, s, t->len)) {
            pp_error(p, t, "duplicate .branchtargets list '%.*s'", (int)t->len, s);
            pp_skip_statement(p);
            return;
        }
        pp_btlist bl = {pp_tok_index(p, t), (uint32_t)f->n_bt_toks, 0};
        do {
            const ptx_tok *lt = pp_next(p);
            if (lt->kind != TK_WORD || !pp_is_ident(pp_text(p, lt), lt->len, 0)) {
                char got[64];
                pp_describe(p, lt, got, sizeof got);
                pp_error(p, lt, "expected a label in the .branchtargets list, got %s", got);
                pp_skip_statement(p);
                return;
            }
            if (PP_GROW(p, f->bt_toks, f->cap_bt_toks, f->n_bt_toks + 1)) return;
            f->bt_toks[f->n_bt_toks++] = pp_tok_index(p, lt);
            bl.n++;
        } while (pp_accept(p, ','));
        if (pp_expect(p, ';', "after the .branchtargets list")) {
            pp_skip_statement(p);
            return;
        }
        if (PP_GROW(p, f->bts, f->cap_bts, f->n_bts + 1)) return;
        f->bts[f->n_bts] = bl;
        if (ptx_map_put(&f->btargets, s, t->len, (int64_t)f->n_bts++)) pp_oom(p);
        return;
    }
    if (pp_is_word(p, d, ".callprototype") || pp_is_word(p, d, ".calltargets")) {
        pp_error(p, d, "indirect calls (%.*s) are not supported", (int)d->len, pp_text(p, d));
        pp_skip_statement(p);
        return;
    }
    int64_t *prev = ptx_map_get(&f->labels, s, t->len);
    if (prev) {
        const ptx_tok *pt = &p->tok[f->ldefs[*prev].tok];
        pp_error(p, t, "duplicate label '%.*s' (first defined at %u:%u)", (int)t->len, s, pp_line(p, pt), pp_col(p, pt));
        return;
    }
    if (PP_GROW(p, f->ldefs, f->cap_ldefs, f->n_ldefs + 1)) return;
    f->ldefs[f->n_ldefs] = (pp_label){p->m->funcs[f->fi].n_instrs, pp_tok_index(p, t)};
    if (ptx_map_put(&f->labels, s, t->len, (int64_t)f->n_ldefs++) ||
        (!ptx_map_get(&p->all_labels, s, t->len) && ptx_map_put(&p->all_labels, s, t->len, f->fi)))
        pp_oom(p);
}

/* Module-scope directives that show the function's '}' is missing. */
static int starts_module_item(const pp *p, const ptx_tok *t)
{
    static const char *const items[] = {".entry", ".func", ".visible", ".extern", ".weak", ".version", ".target",
                                        ".address_size"};
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
        if (pp_is_word(p, t, items[i])) return 1;
    return 0;
}

/* Returns 1 when the body ended ('}' or an error that ends it). */
static int directive(pp *p, const ptx_tok *open)
{
    const ptx_tok *t = pp_peek(p);
    if (pp_is_word(p, t, ".reg")) {
        pp_reg_decl(p);
    } else if (pp_is_word(p, t, ".shared") || pp_is_word(p, t, ".local") || pp_is_word(p, t, ".param")) {
        ptx_space sp = pp_is_word(p, t, ".shared") ? PS_SHARED : pp_is_word(p, t, ".local") ? PS_LOCAL : PS_PARAM;
        pp_next(p);
        pp_var_decl(p, 0, sp, 0, 0);
    } else if (pp_is_word(p, t, ".pragma")) {
        pragma(p);
    } else if (pp_is_word(p, t, ".loc") || pp_is_word(p, t, ".file") || pp_is_word(p, t, ".section") ||
               pp_is_word(p, t, ".dwarf")) {
        pp_skip_directive(p, 0);
    } else if (pp_is_word(p, t, ".global") || pp_is_word(p, t, ".const")) {
        pp_error(p, t, "function-scope %.*s variables are not supported", (int)t->len, pp_text(p, t));
        pp_skip_statement(p);
    } else if (starts_module_item(p, t)) {
        pp_error(p, t, "expected '}' to close the body of '%s' (opened at %u:%u) before '%.*s'",
                 p->m->funcs[p->f.fi].name, pp_line(p, open), pp_col(p, open), (int)t->len, pp_text(p, t));
        return 1;
    } else {
        pp_error(p, t, "unknown directive '%.*s'", (int)(t->len > 40 ? 40 : t->len), pp_text(p, t));
        pp_skip_statement(p);
    }
    return 0;
}

/* The instruction and register arrays grew by doubling: give back the unused tails (up to
 * half of them, and instructions are the bulk of a module's memory). */
static void shrink_instrs(pp *p, uint32_t fi)
{
    ptx_func *f = &p->m->funcs[fi];
    if (f->n_regs && p->f.cap_regs > f->n_regs) {
        ptx_reg *r = realloc(f->regs, (size_t)f->n_regs * sizeof *r);
        if (r) f->regs = r, p->f.cap_regs = f->n_regs; /* else keeping the larger array is fine */
    }
    if (!f->n_instrs || p->f.cap_instrs <= f->n_instrs) return;
    ptx_instr *v = realloc(f->instrs, (size_t)f->n_instrs * sizeof *v);
    if (!v) return;
    f->instrs = v;
    p->f.cap_instrs = f->n_instrs;
}

static void body(pp *p, uint32_t fi, const ptx_tok *open)
{
    pp_func_begin(p, fi);
    const ptx_func *pf = &p->m->funcs[fi];
    for (uint32_t i = 0; i < pf->n_params + pf->n_rets; i++) {
        int is_ret = i >= pf->n_params;
        const ptx_param *pa = is_ret ? &pf->rets[i - pf->n_params] : &pf->params[i];
        size_t n = strlen(pa->name);
        if (ptx_map_get(&p->f.params, pa->name, n)) {
            pp_error_at(p, pf->line, pf->col, "duplicate parameter name '%s' in '%s'", pa->name, pf->name);
            continue;
        }
        int64_t idx = is_ret ? (int64_t)(i - pf->n_params) | (1ll << 31) : (int64_t)i;
        if (ptx_map_put(&p->f.params, pa->name, n, idx)) pp_oom(p);
    }
    while (!p->stop) {
        const ptx_tok *t = pp_peek(p);
        if (t->kind == TK_EOF) {
            pp_error(p, t, "expected '}' at end of file to close the body of '%s' (opened at %u:%u)",
                     p->m->funcs[fi].name, pp_line(p, open), pp_col(p, open));
            break;
        }
        if (pp_is(t, '}')) {
            pp_next(p);
            if (!p->f.depth) break;
            pp_scope_close(p);
        } else if (pp_is(t, '{')) {
            pp_next(p);
            pp_scope_open(p);
        } else if (t->kind == TK_WORD && pp_text(p, t)[0] == '.') {
            if (directive(p, open)) break;
        } else if (t->kind == TK_WORD && pp_is(pp_peek2(p), ':')) {
            label(p);
        } else if (t->kind == TK_WORD || pp_is(t, '@')) {
            pp_instruction(p);
        } else {
            char got[64];
            pp_describe(p, t, got, sizeof got);
            pp_error(p, t, "expected an instruction, declaration or label, got %s", got);
            pp_skip_statement(p);
            if (pp_peek(p) == t) pp_next(p);
        }
    }
    pp_finish_instrs(p);
    pp_resolve_function(p);
    shrink_instrs(p, fi);
    pp_func_end(p);
}

/* ---- signature ---- */

typedef struct perf {
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
} perf;

static int perf_numbers(pp *p, uint32_t *v, int max)
{
    int n = 0;
    do {
        uint64_t x;
        const ptx_tok *t = pp_peek(p);
        if (pp_uint(p, &x, "a number")) return -1;
        if (x == 0 || x > UINT32_MAX) {
            pp_error(p, t, "value out of range");
            return -1;
        }
        if (n == max) {
            pp_error(p, t, "too many values");
            return -1;
        }
        v[n++] = (uint32_t)x;
    } while (pp_accept(p, ','));
    for (int i = n; i < max; i++) v[i] = 1; /* .maxntid 256 means 256 x 1 x 1 */
    return 0;
}

/* Directives between the signature and the body. Returns -1 on a syntax error. */
static int attributes(pp *p, perf *pf)
{
    for (;;) {
        const ptx_tok *t = pp_peek(p);
        if (pp_is_word(p, t, ".maxntid")) {
            pp_next(p);
            if (perf_numbers(p, pf->maxntid, 3)) return -1;
        } else if (pp_is_word(p, t, ".reqntid")) {
            pp_next(p);
            if (perf_numbers(p, pf->reqntid, 3)) return -1;
        } else if (pp_is_word(p, t, ".minnctapersm")) {
            pp_next(p);
            if (perf_numbers(p, &pf->minnctapersm, 1)) return -1;
        } else if (pp_is_word(p, t, ".maxnreg")) {
            pp_next(p);
            if (perf_numbers(p, &pf->maxnreg, 1)) return -1;
        } else if (pp_is_word(p, t, ".noreturn")) {
            pp_next(p);
        } else if (pp_is_word(p, t, ".pragma")) {
            pragma(p);
        } else if (t->kind == TK_WORD && pp_text(p, t)[0] == '.' && !pp_is_word(p, t, ".entry") &&
                   !pp_is_word(p, t, ".func") && !pp_is_word(p, t, ".visible")) {
            pp_warn(p, t, "ignoring directive '%.*s'", (int)(t->len > 40 ? 40 : t->len), pp_text(p, t));
            pp_next(p);
            while (pp_peek(p)->kind == TK_NUM || pp_is(pp_peek(p), ',')) pp_next(p);
        } else {
            return 0;
        }
    }
}

/* Adds the function or merges a definition into an earlier declaration; returns its index. */
static int64_t register_function(pp *p, const ptx_tok *nt, int is_entry, int is_extern, int is_visible, int has_body,
                                 ptx_param **params, uint32_t np, ptx_param **rets, uint32_t nr)
{
    ptx_module *m = p->m;
    const char *name = pp_text(p, nt);
    int64_t *prev = ptx_map_get(&p->funcs, name, nt->len);
    int dup = 0;
    if (prev) {
        ptx_func *f = &m->funcs[*prev];
        if (f->is_entry != is_entry || (has_body && !f->is_extern)) {
            pp_error(p, nt, "duplicate function '%s' (first declared at %u:%u)", f->name, f->line, f->col);
            dup = 1; /* parse the body into an unnamed slot */
        } else if (!has_body) {
            return *prev;
        } else {
            free_params(f->params, f->n_params);
            free_params(f->rets, f->n_rets);
            f->params = *params, f->n_params = np, *params = NULL;
            f->rets = *rets, f->n_rets = nr, *rets = NULL;
            f->is_extern = 0;
            f->is_visible = (uint8_t)is_visible;
            f->line = pp_line(p, nt);
            f->col = pp_col(p, nt);
            return *prev;
        }
    }
    if (m->n_funcs >= (1u << 20)) {
        pp_error(p, nt, "too many functions");
        return -1;
    }
    if (PP_GROW(p, m->funcs, p->cap_funcs, (size_t)m->n_funcs + 1)) return -1;
    ptx_func *f = &m->funcs[m->n_funcs];
    memset(f, 0, sizeof *f);
    f->name = pp_strndup(p, name, nt->len);
    if (!f->name) return -1;
    f->is_entry = (uint8_t)is_entry;
    f->is_extern = (uint8_t)(is_extern || !has_body);
    f->is_visible = (uint8_t)is_visible;
    f->params = *params, f->n_params = np, *params = NULL;
    f->rets = *rets, f->n_rets = nr, *rets = NULL;
    f->line = pp_line(p, nt);
    f->col = pp_col(p, nt);
    if (!dup && ptx_map_put(&p->funcs, f->name, nt->len, m->n_funcs)) {
        pp_oom(p);
        return -1;
    }
    return m->n_funcs++;
}

void pp_function(pp *p, int is_entry, int is_extern, int is_visible)
{
    ptx_param *params = NULL, *rets = NULL;
    uint32_t np = 0, nr = 0;
    if (!is_entry && pp_is(pp_peek(p), '(')) {
        const ptx_tok *rt = pp_peek(p);
        if (pp_param_list(p, &rets, &nr)) goto bad;
        if (nr > 1) {
            pp_error(p, rt, "functions with more than one return value are not supported");
            goto bad;
        }
    }
    const ptx_tok *nt = pp_peek(p);
    if (nt->kind != TK_WORD || !pp_is_ident(pp_text(p, nt), nt->len, 0)) {
        char got[64];
        pp_describe(p, nt, got, sizeof got);
        pp_error(p, nt, "expected a function name, got %s", got);
        goto bad;
    }
    pp_next(p);
    if (pp_is(pp_peek(p), '(') && pp_param_list(p, &params, &np)) goto bad;
    perf pf;
    memset(&pf, 0, sizeof pf);
    if (attributes(p, &pf)) goto bad;
    const ptx_tok *t = pp_peek(p);
    int has_body = pp_is(t, '{');
    if (!has_body && !pp_is(t, ';')) {
        char got[64];
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected '{' or ';' after the declaration of '%.*s', got %s", (int)nt->len, pp_text(p, nt), got);
        goto bad;
    }
    pp_next(p);
    int64_t fi = register_function(p, nt, is_entry, is_extern, is_visible, has_body, &params, np, &rets, nr);
    free_params(params, params ? np : 0);
    free_params(rets, rets ? nr : 0);
    if (fi < 0) return;
    ptx_func *f = &p->m->funcs[fi];
    ptx_layout_params(f);
    if (f->is_entry && f->param_bytes > PP_MAX_KERNEL_PARAMS)
        pp_error(p, nt, "the parameters of kernel '%s' take %llu bytes, more than CUDA's %u", f->name,
                 (unsigned long long)f->param_bytes, PP_MAX_KERNEL_PARAMS);
    if (!has_body) return;
    memcpy(f->maxntid, pf.maxntid, sizeof f->maxntid);
    memcpy(f->reqntid, pf.reqntid, sizeof f->reqntid);
    f->minnctapersm = pf.minnctapersm;
    f->maxnreg = pf.maxnreg;
    body(p, (uint32_t)fi, t);
    return;
bad:
    free_params(params, np);
    free_params(rets, nr);
    /* Skip the rest of the declaration: up to its ';', or its body whole, or the next function. */
    for (;;) {
        const ptx_tok *b = pp_peek(p);
        if (b->kind == TK_EOF || starts_module_item(p, b)) return;
        if (pp_is(b, ';')) {
            pp_next(p);
            return;
        }
        if (pp_is(b, '{')) break;
        pp_next(p);
    }
    size_t depth = 0;
    do {
        const ptx_tok *b = pp_next(p);
        if (pp_is(b, '{')) depth++;
        if (pp_is(b, '}')) depth--;
    } while (depth && pp_peek(p)->kind != TK_EOF);
}
