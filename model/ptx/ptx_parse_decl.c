/* Declarations: .reg registers, variables of the memory state spaces, parameter lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"
#include "ptx_opcodes.h"

static void err_got(pp *p, const char *what)
{
    char got[64];
    const ptx_tok *t = pp_peek(p);
    pp_describe(p, t, got, sizeof got);
    pp_error(p, t, "expected %s, got %s", what, got);
}

/* A type qualifier such as ".b32"; returns the type or -1 after reporting an error. */
static int type_qual(pp *p, int allow_f16, int allow_pred)
{
    const ptx_tok *t = pp_peek(p);
    const char *s = pp_text(p, t);
    if (t->kind != TK_WORD || s[0] != '.') {
        err_got(p, "a type (.b32, .u64, .f32, ...)");
        return -1;
    }
    int ty = ptx_type_from_name(s + 1, t->len - 1);
    if (ty < 0 || (ty == PT_F16 && !allow_f16)) {
        pp_error(p, t, "type '%.*s' is not supported", (int)t->len, s);
        return -1;
    }
    if (ty == PT_NONE) {
        err_got(p, "a type (.b32, .u64, .f32, ...)");
        return -1;
    }
    if (ty == PT_PRED && !allow_pred) {
        pp_error(p, t, "type .pred is only valid for registers");
        return -1;
    }
    pp_next(p);
    return ty;
}

static int align_qual(pp *p, uint32_t *align)
{
    const ptx_tok *at = pp_next(p); /* .align */
    uint64_t a;
    if (pp_uint(p, &a, "an alignment")) return -1;
    if (a == 0 || (a & (a - 1)) || a > 4096) {
        pp_error(p, at, "alignment %llu is not a power of two up to 4096", (unsigned long long)a);
        return -1;
    }
    *align = (uint32_t)a;
    return 0;
}

/* ---- registers ---- */

/* A copy of a register name in the function's name blocks (they never move: the name maps
 * keep pointers to the names). Blocks double from 256 bytes to 64 KB. */
static char *reg_name(pp *p, ptx_func *f, const char *s, size_t n)
{
    ptx_name_block *b = f->reg_names;
    if (!b || b->cap - b->used < n + 1) {
        size_t cap = b ? b->cap * 2 : 256;
        if (cap > 65536) cap = 65536;
        if (cap < n + 1) cap = n + 1;
        ptx_name_block *nb = malloc(sizeof *nb + cap);
        if (!nb) {
            pp_oom(p);
            return NULL;
        }
        nb->next = b;
        nb->used = 0;
        nb->cap = cap;
        f->reg_names = b = nb;
    }
    char *d = b->text + b->used;
    memcpy(d, s, n);
    d[n] = '\0';
    b->used += n + 1;
    return d;
}

static int add_reg(pp *p, const char *s, size_t n, ptx_type type, const ptx_tok *at)
{
    ptx_func *f = &p->m->funcs[p->f.fi];
    if (f->n_regs >= PP_MAX_REGS) {
        pp_error(p, at, "too many registers in one function (more than %u)", PP_MAX_REGS);
        return -1;
    }
    if (PP_GROW(p, f->regs, p->f.cap_regs, (size_t)f->n_regs + 1)) return -1;
    char *name = reg_name(p, f, s, n);
    if (!name) return -1;
    uint32_t slot = f->n_regs++;
    f->regs[slot].name = name;
    f->regs[slot].type = (uint8_t)type;
    return pp_bind(p, &p->f.regs, name, slot, at, "register");
}

void pp_reg_decl(pp *p)
{
    pp_next(p); /* .reg */
    const ptx_tok *t = pp_peek(p);
    if (pp_is_word(p, t, ".v2") || pp_is_word(p, t, ".v4")) {
        pp_error(p, t, "vector registers are not supported");
        goto bad;
    }
    int ty = type_qual(p, 1, 1);
    if (ty < 0) goto bad;
    do {
        const ptx_tok *nt = pp_peek(p);
        const char *s = pp_text(p, nt);
        if (nt->kind != TK_WORD || s[0] == '.') {
            err_got(p, "a register name");
            goto bad;
        }
        if (!pp_is_ident(s, nt->len, 1)) {
            pp_error(p, nt, "bad register name '%.*s'", (int)nt->len, s);
            goto bad;
        }
        pp_next(p);
        if (pp_accept(p, '<')) {
            uint64_t n;
            const ptx_tok *ct = pp_peek(p);
            if (pp_uint(p, &n, "a register count")) goto bad;
            if (n > PP_MAX_REGS) {
                pp_error(p, ct, "register range %.*s<%llu> is too large", (int)nt->len, s, (unsigned long long)n);
                goto bad;
            }
            if (pp_expect(p, '>', "after the register count")) goto bad;
            if (nt->len > 40) {
                pp_error(p, nt, "register name '%.20s...' is too long for a range", s);
                goto bad;
            }
            char buf[64];
            for (uint64_t i = 0; i < n && !p->stop; i++) {
                int len = snprintf(buf, sizeof buf, "%.*s%llu", (int)nt->len, s, (unsigned long long)i);
                if (add_reg(p, buf, (size_t)len, (ptx_type)ty, nt)) goto bad;
            }
        } else if (add_reg(p, s, nt->len, (ptx_type)ty, nt)) {
            goto bad;
        }
    } while (pp_accept(p, ','));
    /* A missing ';' is reported without skipping: the next line is likely a good statement. */
    pp_expect(p, ';', "after the register declaration");
    return;
bad:
    pp_skip_statement(p);
}

/* ---- variables ---- */

/* Stores one initialiser value as elem bytes little-endian at *buf + k * elem. */
static int put_init(pp *p, uint8_t **buf, size_t *cap, uint64_t k, unsigned elem, int64_t v, uint64_t limit,
                    const ptx_tok *at, ptx_type type)
{
    if (k >= limit) {
        pp_error(p, at, "too many initialisers (the variable has %llu elements)", (unsigned long long)limit);
        return -1;
    }
    if (elem < 8 && !ptx_type_is_float(type)) {
        int64_t hi = v >> (8 * elem);
        if (hi != 0 && hi != -1) {
            pp_error(p, at, "initialiser %lld does not fit in .%s", (long long)v, ptx_type_name(type));
            return -1;
        }
    }
    if (PP_GROW(p, *buf, *cap, (size_t)(k + 1) * elem)) return -1;
    for (unsigned b = 0; b < elem; b++) (*buf)[k * elem + b] = (uint8_t)((uint64_t)v >> (8 * b));
    return 0;
}

/* A literal or a { } list (nested lists are flattened). */
static int init_values(pp *p, uint8_t **buf, size_t *cap, uint64_t *k, unsigned elem, uint64_t limit, ptx_type type,
                       int depth)
{
    const ptx_tok *t = pp_peek(p);
    if (pp_is(t, '{')) {
        if (depth > 8) {
            pp_error(p, t, "initialiser lists nested too deeply");
            return -1;
        }
        pp_next(p);
        if (pp_accept(p, '}')) return 0;
        do {
            if (init_values(p, buf, cap, k, elem, limit, type, depth + 1)) return -1;
        } while (pp_accept(p, ','));
        return pp_expect(p, '}', "to close the initialiser list");
    }
    if (t->kind == TK_WORD) {
        pp_error(p, t, "address initialisers ('%.*s') are not supported", (int)(t->len > 40 ? 40 : t->len), pp_text(p, t));
        return -1;
    }
    int64_t v;
    if (pp_immediate(p, type, &v)) return -1;
    if (put_init(p, buf, cap, *k, elem, v, limit, t, type)) return -1;
    (*k)++;
    return 0;
}

static int add_symbol(pp *p, int module, ptx_symbol *s, const ptx_tok *at)
{
    if (module) {
        ptx_module *m = p->m;
        if (ptx_map_get(&p->msyms, s->name, strlen(s->name))) {
            pp_error(p, at, "symbol '%s' is already declared", s->name);
            return -1;
        }
        if (PP_GROW(p, m->syms, p->cap_msyms, (size_t)m->n_syms + 1)) return -1;
        m->syms[m->n_syms] = *s;
        if (ptx_map_put(&p->msyms, s->name, strlen(s->name), m->n_syms)) {
            pp_oom(p);
            return -1;
        }
        m->n_syms++;
        return 0;
    }
    ptx_func *f = &p->m->funcs[p->f.fi];
    if (PP_GROW(p, f->syms, p->f.cap_syms, (size_t)f->n_syms + 1)) return -1;
    f->syms[f->n_syms] = *s;
    uint32_t i = f->n_syms++;
    return pp_bind(p, &p->f.syms, f->syms[i].name, i, at, "symbol");
}

/* One name [dims] [= init] of a declaration; ownership of everything passes to the module. */
static int var_name(pp *p, int module, ptx_space space, int is_extern, int is_visible, ptx_type type, uint32_t align)
{
    const ptx_tok *nt = pp_peek(p);
    const char *s = pp_text(p, nt);
    if (nt->kind != TK_WORD || !pp_is_ident(s, nt->len, 0)) {
        err_got(p, "a variable name");
        return -1;
    }
    pp_next(p);
    uint64_t count = 1;
    int unsized = 0;
    while (pp_is(pp_peek(p), '[')) {
        const ptx_tok *bt = pp_next(p);
        uint64_t n;
        if (pp_is(pp_peek(p), ']') && count == 1 && !unsized) {
            unsized = 1;
        } else {
            if (pp_uint(p, &n, "an array size")) return -1;
            if (n == 0 || n > PP_MAX_ARRAY || count > PP_MAX_ARRAY / n) {
                pp_error(p, bt, "array size of '%.*s' is zero or too large", (int)nt->len, s);
                return -1;
            }
            count *= n;
        }
        if (pp_expect(p, ']', "after the array size")) return -1;
    }
    unsigned elem = ptx_type_size(type);
    if (count * elem > PP_MAX_ARRAY) {
        pp_error(p, nt, "variable '%.*s' is too large", (int)nt->len, s);
        return -1;
    }
    uint8_t *init = NULL;
    size_t cap = 0;
    uint64_t n_init = 0;
    if (pp_is(pp_peek(p), '=')) {
        const ptx_tok *eq = pp_next(p);
        if (space != PS_GLOBAL && space != PS_CONST) {
            pp_error(p, eq, "only .global and .const variables can be initialised");
            return -1;
        }
        if (is_extern) {
            pp_error(p, eq, "an .extern variable cannot be initialised");
            return -1;
        }
        if (!unsized && count * elem > PP_MAX_INIT) {
            pp_error(p, eq, "initialised variable '%.*s' is too large (more than %llu bytes)", (int)nt->len, s,
                     (unsigned long long)PP_MAX_INIT);
            return -1;
        }
        uint64_t limit = unsized ? PP_MAX_INIT / elem : count;
        if (init_values(p, &init, &cap, &n_init, elem, limit, type, 0)) {
            free(init);
            return -1;
        }
        if (unsized) {
            count = n_init;
            unsized = 0;
            if (!count) {
                pp_error(p, nt, "an unsized array needs at least one initialiser");
                free(init);
                return -1;
            }
        }
        uint64_t bytes = count * elem;
        if (PP_GROW(p, init, cap, (size_t)bytes)) {
            free(init);
            return -1;
        }
        memset(init + n_init * elem, 0, (size_t)(bytes - n_init * elem));
    }
    if (unsized && !(is_extern && space == PS_SHARED)) {
        pp_error(p, nt, "only .extern .shared arrays may be unsized");
        return -1;
    }
    if (is_extern && space != PS_SHARED) {
        pp_error(p, nt, ".extern %s variable '%.*s' is not defined in this module", ptx_space_name(space), (int)nt->len, s);
        free(init);
        return -1;
    }
    ptx_symbol sym;
    memset(&sym, 0, sizeof sym);
    sym.name = pp_strndup(p, s, nt->len);
    if (!sym.name) {
        free(init);
        return -1;
    }
    sym.space = (uint8_t)space;
    sym.type = (uint8_t)type;
    sym.is_extern = (uint8_t)is_extern;
    sym.is_visible = (uint8_t)is_visible;
    sym.align = align ? align : elem;
    sym.elem_count = unsized ? 0 : count;
    sym.size = unsized ? 0 : count * elem;
    sym.init = init;
    sym.line = pp_line(p, nt);
    sym.col = pp_col(p, nt);
    if (add_symbol(p, module, &sym, nt)) {
        if (module) { /* not stored: free it here (function symbols are stored even when the name clashes) */
            free(sym.name);
            free(init);
        }
        return -1;
    }
    return 0;
}

void pp_var_decl(pp *p, int module, ptx_space space, int is_extern, int is_visible)
{
    uint32_t align = 0;
    size_t start = p->pos;
    for (;;) {
        const ptx_tok *t = pp_peek(p);
        if (pp_is_word(p, t, ".texref") || pp_is_word(p, t, ".surfref") || pp_is_word(p, t, ".samplerref")) {
            pp_error(p, t, "texture and surface references are not supported");
            goto bad;
        }
        if (pp_is_word(p, t, ".align")) {
            if (align_qual(p, &align)) goto bad;
        } else if (pp_is_word(p, t, ".v2") || pp_is_word(p, t, ".v4")) {
            pp_error(p, t, "vector variables are not supported");
            goto bad;
        } else if (pp_is_word(p, t, ".attribute") || pp_is_word(p, t, ".ptr")) {
            pp_error(p, t, "'%.*s' on a variable is not supported", (int)t->len, pp_text(p, t));
            goto bad;
        } else {
            break;
        }
    }
    int ty = type_qual(p, 0, 0);
    if (ty < 0) goto bad;
    if (pp_is_word(p, pp_peek(p), ".align") && align_qual(p, &align)) goto bad;
    do {
        if (var_name(p, module, space, is_extern, is_visible, (ptx_type)ty, align)) goto bad;
    } while (pp_accept(p, ','));
    pp_expect(p, ';', "after the variable declaration"); /* no skip: see pp_reg_decl */
    return;
bad:
    /* From the start: an initialiser's braces are balanced, and so skipped whole. */
    p->pos = start;
    if (module) pp_skip_module_statement(p); /* the caller, top_level, keeps no token */
    else pp_skip_statement(p);
}

/* ---- parameter lists ---- */

static int one_param(pp *p, ptx_param *out)
{
    const ptx_tok *t = pp_peek(p);
    if (pp_is_word(p, t, ".reg")) {
        pp_error(p, t, "register parameters (.reg) are not supported; use .param");
        return -1;
    }
    if (!pp_is_word(p, t, ".param")) {
        err_got(p, "'.param'");
        return -1;
    }
    pp_next(p);
    uint32_t align = 0;
    int ty = -1;
    for (;;) {
        t = pp_peek(p);
        if (pp_is_word(p, t, ".align")) {
            uint32_t a;
            if (align_qual(p, &a)) return -1;
            if (ty < 0) align = a; /* an .align after .ptr is the pointee's */
        } else if (pp_is_word(p, t, ".ptr") || pp_is_word(p, t, ".global") || pp_is_word(p, t, ".shared") ||
                   pp_is_word(p, t, ".const") || pp_is_word(p, t, ".local")) {
            pp_next(p); /* pointer attributes: a hint only */
        } else if (ty < 0) {
            ty = type_qual(p, 0, 0);
            if (ty < 0) return -1;
        } else {
            break;
        }
    }
    const ptx_tok *nt = pp_peek(p);
    if (nt->kind != TK_WORD || !pp_is_ident(pp_text(p, nt), nt->len, 0)) {
        err_got(p, "a parameter name");
        return -1;
    }
    pp_next(p);
    uint64_t count = 1;
    if (pp_accept(p, '[')) {
        const ptx_tok *ct = pp_peek(p);
        if (pp_uint(p, &count, "an array size")) return -1;
        if (count == 0 || count > (1u << 20)) {
            pp_error(p, ct, "parameter array size is zero or too large");
            return -1;
        }
        if (pp_expect(p, ']', "after the array size")) return -1;
    }
    out->name = pp_strndup(p, pp_text(p, nt), nt->len);
    if (!out->name) return -1;
    out->type = (uint8_t)ty;
    out->size = count * ptx_type_size((ptx_type)ty);
    out->align = align ? align : ptx_type_size((ptx_type)ty);
    out->offset = 0;
    return 0;
}

int pp_param_list(pp *p, ptx_param **out, uint32_t *n)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    if (pp_expect(p, '(', "to open the parameter list")) return -1;
    if (pp_accept(p, ')')) return 0;
    do {
        if (*n >= 4096) {
            pp_error(p, pp_peek(p), "too many parameters");
            return -1;
        }
        if (PP_GROW(p, *out, cap, (size_t)*n + 1)) return -1;
        if (one_param(p, &(*out)[*n])) return -1;
        (*n)++;
    } while (pp_accept(p, ','));
    return pp_expect(p, ')', "to close the parameter list");
}
