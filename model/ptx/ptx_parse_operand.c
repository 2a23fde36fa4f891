/* Operands: immediates, registers, special registers, symbols, addresses, vectors, labels. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/fbits.h"
#include "ptx_internal.h"
#include "ptx_opcodes.h"

/* ---- immediates ---- */

enum lit { LIT_INT, LIT_F32BITS, LIT_F64BITS, LIT_FLOAT };

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Digits in the given radix with an optional U suffix; 0 when they fit in 64 bits. */
static int digits(const char *s, size_t n, unsigned radix, uint64_t *v)
{
    if (n && (s[n - 1] == 'U' || s[n - 1] == 'u')) n--;
    if (!n) return -1;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        int d = hexval(s[i]);
        if (d < 0 || (unsigned)d >= radix) return -1;
        if (x > (UINT64_MAX - (unsigned)d) / radix) return -2;
        x = x * radix + (unsigned)d;
    }
    *v = x;
    return 0;
}

static int parse_literal(const char *s, size_t n, enum lit *kind, uint64_t *bits, double *fv)
{
    char c1 = n > 1 ? s[1] : '\0';
    if (s[0] == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
        size_t want = c1 == 'f' || c1 == 'F' ? 8 : 16;
        if (n != want + 2 || digits(s + 2, n - 2, 16, bits)) return -1;
        if (s[n - 1] == 'U' || s[n - 1] == 'u') return -1;
        *kind = want == 8 ? LIT_F32BITS : LIT_F64BITS;
        return 0;
    }
    *kind = LIT_INT;
    if (s[0] == '0' && (c1 == 'x' || c1 == 'X')) return digits(s + 2, n - 2, 16, bits);
    if (s[0] == '0' && (c1 == 'b' || c1 == 'B')) return digits(s + 2, n - 2, 2, bits);
    int is_float = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E') is_float = 1;
    if (is_float) {
        char buf[64];
        if (n >= sizeof buf) return -1;
        memcpy(buf, s, n);
        buf[n] = '\0';
        char *end;
        errno = 0;
        *fv = strtod(buf, &end);
        if (*end || (s[n - 1] < '0' || s[n - 1] > '9')) return -1;
        *kind = LIT_FLOAT;
        return 0;
    }
    if (s[0] == '0' && n > 1 && s[1] != 'U' && s[1] != 'u') return digits(s + 1, n - 1, 8, bits);
    return digits(s, n, 10, bits);
}

int pp_immediate(pp *p, ptx_type type, int64_t *out)
{
    const ptx_tok *first = pp_peek(p);
    int neg = pp_accept(p, '-');
    const ptx_tok *t = pp_peek(p);
    const char *s = pp_text(p, t);
    if (t->kind != TK_NUM) {
        char got[64];
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected a number, got %s", got);
        return -1;
    }
    pp_next(p);
    enum lit kind;
    uint64_t bits = 0;
    double fv = 0;
    int rc = parse_literal(s, t->len, &kind, &bits, &fv);
    if (rc) {
        pp_error(p, t, rc == -2 ? "integer literal '%.*s' does not fit in 64 bits" : "bad immediate '%.*s'",
                 (int)(t->len > 40 ? 40 : t->len), s);
        return -1;
    }
    if (neg && (kind == LIT_F32BITS || kind == LIT_F64BITS)) {
        pp_error(p, first, "a bit-pattern literal ('%.*s') cannot have a sign", (int)t->len, s);
        return -1;
    }
    if (type == PT_F32 || type == PT_F64) {
        double v = kind == LIT_F32BITS ? (double)fbits_f32(bits)
                   : kind == LIT_F64BITS ? fbits_f64(bits)
                   : kind == LIT_FLOAT  ? fv
                                        : (double)(int64_t)bits; /* an integer literal means its value */
        if (neg) v = -v;
        /* Bit patterns of the instruction's own width are kept exactly (NaN payloads). */
        if (type == PT_F32) *out = (int64_t)(kind == LIT_F32BITS ? bits : fbits_of_f32((float)v));
        else *out = (int64_t)(kind == LIT_F64BITS ? bits : fbits_of_f64(v));
        return 0;
    }
    if (kind == LIT_FLOAT) {
        pp_error(p, t, "floating-point literal '%.*s' for an integer operand", (int)t->len, s);
        return -1;
    }
    *out = neg ? (int64_t)(0 - bits) : (int64_t)bits;
    return 0;
}

/* ---- special registers ---- */

static const struct {
    const char *name;
    uint8_t id, comps;
} sregs[] = {
    {"%tid", SR_TID, 1}, {"%ntid", SR_NTID, 1}, {"%ctaid", SR_CTAID, 1}, {"%nctaid", SR_NCTAID, 1},
    {"%laneid", SR_LANEID, 0}, {"%warpid", SR_WARPID, 0}, {"%nwarpid", SR_NWARPID, 0}, {"%smid", SR_SMID, 0},
    {"%nsmid", SR_NSMID, 0}, {"%gridid", SR_GRIDID, 0}, {"%clock", SR_CLOCK, 0}, {"%clock64", SR_CLOCK64, 0},
    {"%globaltimer", SR_GLOBALTIMER, 0}, {"%lanemask_eq", SR_LANEMASK_EQ, 0}, {"%lanemask_lt", SR_LANEMASK_LT, 0},
    {"%lanemask_le", SR_LANEMASK_LE, 0}, {"%lanemask_gt", SR_LANEMASK_GT, 0}, {"%lanemask_ge", SR_LANEMASK_GE, 0},
    {"%dynamic_smem_size", SR_DYNAMIC_SMEM_SIZE, 0}, {"%total_smem_size", SR_TOTAL_SMEM_SIZE, 0},
};

static const char *const unsupported_sregs[] = {"%envreg", "%pm", "%cluster", "%nclusterid", "%is_explicit_cluster",
                                                "%aggr_smem_size", "%reserved_smem", "%globaltimer_", "%current_graph_exec"};

/* 1: a special register (o filled); 0: not one; -1: error reported. */
static int special_register(pp *p, const ptx_tok *t, ptx_operand *o)
{
    const char *s = pp_text(p, t);
    size_t base = 0;
    while (base < t->len && s[base] != '.') base++;
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++) {
        if (strlen(sregs[i].name) != base || memcmp(s, sregs[i].name, base) != 0) continue;
        unsigned comp = 0;
        if (sregs[i].comps) {
            if (t->len != base + 2 || s[base + 1] < 'x' || s[base + 1] > 'z') {
                pp_error(p, t, "special register '%.*s' needs a component .x, .y or .z", (int)base, s);
                return -1;
            }
            comp = (unsigned)(s[base + 1] - 'x');
        } else if (base != t->len) {
            pp_error(p, t, "special register '%.*s' has no components", (int)base, s);
            return -1;
        }
        o->kind = PO_SREG;
        o->sreg = sregs[i].id;
        o->comp = (uint8_t)comp;
        return 1;
    }
    for (size_t i = 0; i < sizeof unsupported_sregs / sizeof unsupported_sregs[0]; i++) {
        size_t n = strlen(unsupported_sregs[i]);
        if (t->len >= n && memcmp(s, unsupported_sregs[i], n) == 0) {
            pp_error(p, t, "special register '%.*s' is not supported", (int)t->len, s);
            return -1;
        }
    }
    return 0;
}

/* ---- names ---- */

int pp_find_symbol(pp *p, const char *s, size_t n, int32_t *sym)
{
    int64_t v = pp_lookup(&p->f.syms, s, n);
    if (v >= 0) {
        *sym = (int32_t)v;
        return 0;
    }
    int64_t *mv = ptx_map_get(&p->msyms, s, n);
    if (mv) {
        *sym = PTX_MODULE_SYM(*mv);
        return 0;
    }
    return -1;
}

static const ptx_symbol *symbol(pp *p, int32_t sym)
{
    return ptx_symbol_ref(p->m, &p->m->funcs[p->f.fi], sym);
}

/* Whether operand kind k (second: the '|' register of D) wants a predicate register. */
static int wants_pred(const ptx_instr *in, char k, int second)
{
    if (k == 'p') return 1;
    if (k == 'i') return 0;
    if (k == 'D') return in->op == OP_SETP || second;
    if (k == 'd' && in->op == OP_TESTP) return 1;
    if (k == 't') return in->type2 == PT_PRED;
    return in->type == PT_PRED;
}

/* Resolves a register name (with or without '%'); reports and returns -1 when undeclared. */
static int register_slot(pp *p, const ptx_tok *t, uint32_t *slot, int quiet)
{
    const char *s = pp_text(p, t);
    int64_t v = pp_lookup(&p->f.regs, s, t->len);
    if (v >= 0) {
        *slot = (uint32_t)v;
        return 0;
    }
    if (quiet) return -1;
    if (!pp_is_ident(s, t->len, 1)) pp_error(p, t, "bad register name '%.*s'", (int)(t->len > 40 ? 40 : t->len), s);
    else pp_error(p, t, "undeclared register '%.*s'", (int)(t->len > 40 ? 40 : t->len), s);
    return -1;
}

static int check_pred(pp *p, const ptx_instr *in, const ptx_tok *t, uint32_t slot, char k, int second)
{
    const ptx_func *f = &p->m->funcs[p->f.fi];
    int is_pred = f->regs[slot].type == PT_PRED;
    int want = wants_pred(in, k, second);
    if (is_pred == want) return 0;
    if (want) pp_error(p, t, "'%s' is not a predicate register", f->regs[slot].name);
    else pp_error(p, t, "predicate register '%s' cannot be used here", f->regs[slot].name);
    return -1;
}

/* A register operand; '%name' or a register declared without '%'. */
static int reg_operand(pp *p, const ptx_instr *in, const ptx_tok *t, uint32_t *slot, char k, int second)
{
    if (t->kind != TK_WORD) {
        char got[64];
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected a register, got %s", got);
        return -1;
    }
    if (register_slot(p, t, slot, 0)) return -1;
    return check_pred(p, in, t, *slot, k, second);
}

static int is_dest(char k) { return k == 'd' || k == 'D' || k == 'v' || k == 'u'; }

static int word_operand(pp *p, ptx_instr *in, ptx_operand *o, char k)
{
    const ptx_tok *t = pp_next(p);
    const char *s = pp_text(p, t);
    if (s[0] == '%') {
        int sr = special_register(p, t, o);
        if (sr < 0) return -1;
        if (sr > 0) {
            if (k != 's' && k != 't' && k != 'i' && k != 'm') {
                pp_error(p, t, "special register '%.*s' cannot be used here", (int)t->len, s);
                return -1;
            }
            return 0;
        }
    }
    uint32_t slot;
    if (register_slot(p, t, &slot, s[0] != '%') == 0) {
        if (check_pred(p, in, t, slot, k, 0)) return -1;
        o->kind = PO_REG;
        o->reg = slot;
        if (k == 'D' && pp_accept(p, '|')) {
            const ptx_tok *t2 = pp_next(p);
            if (reg_operand(p, in, t2, &o->reg2, k, 1)) return -1;
        }
        return 0;
    }
    if (s[0] == '%') return -1; /* reported by register_slot */
    if (!pp_is_ident(s, t->len, 0)) {
        pp_error(p, t, "bad operand '%.*s'", (int)(t->len > 40 ? 40 : t->len), s);
        return -1;
    }
    int32_t sym;
    int is_sym = pp_find_symbol(p, s, t->len, &sym) == 0;
    int is_param = pp_lookup(&p->f.params, s, t->len) >= 0;
    if (is_sym && (k == 'm' || k == 'y')) {
        const ptx_symbol *ps = symbol(p, sym);
        if (ps->space == PS_PARAM) {
            pp_error(p, t, "the address of .param variable '%s' cannot be taken", ps->name);
            return -1;
        }
        if (k == 'y' && ps->space != in->space) {
            pp_error(p, t, "'%s' is a .%s variable, not .%s", ps->name, ptx_space_name((ptx_space)ps->space),
                     ptx_space_name((ptx_space)in->space));
            return -1;
        }
        o->kind = PO_SYMBOL;
        o->sym = sym;
        return 0;
    }
    if (is_param && (k == 'm' || k == 'y')) {
        pp_error(p, t, "the address of parameter '%.*s' cannot be taken", (int)t->len, s);
        return -1;
    }
    if (is_sym || is_param) {
        pp_error(p, t, "'%.*s' is a %s: use it as an address [%.*s]", (int)t->len, s, is_sym ? "variable" : "parameter",
                 (int)t->len, s);
        return -1;
    }
    if (is_dest(k)) pp_error(p, t, "undeclared register '%.*s'", (int)t->len, s);
    else if (ptx_map_get(&p->funcs, s, t->len))
        pp_error(p, t, "the address of function '%.*s' cannot be taken (indirect calls are not supported)", (int)t->len, s);
    else pp_error(p, t, "undefined name '%.*s'", (int)t->len, s);
    return -1;
}

/* ---- vectors ---- */

static int vector_operand(pp *p, ptx_instr *in, ptx_operand *o, char k)
{
    memset(o->vec, 0, sizeof o->vec); /* over sym and imm: unused elements stay 0 */
    const ptx_tok *open = pp_next(p);
    unsigned n = 0;
    do {
        const ptx_tok *t = pp_next(p);
        if (n == 4) {
            pp_error(p, t, "a vector has at most 4 elements");
            return -1;
        }
        if (pp_is_word(p, t, "_")) {
            if (k != 'v' && k != 'u') {
                pp_error(p, t, "'_' is only valid in a destination vector");
                return -1;
            }
            o->vec[n++] = PTX_NO_REG;
            continue;
        }
        if (reg_operand(p, in, t, &o->vec[n], k, 0)) return -1;
        n++;
    } while (pp_accept(p, ','));
    if (pp_expect(p, '}', "to close the vector")) return -1;
    o->kind = PO_VEC;
    o->vec_n = (uint8_t)n;
    if (k == 'u' || k == 'm') {
        if (!((in->type == PT_B32 && n == 2) || (in->type == PT_B64 && (n == 2 || n == 4)))) {
            pp_error(p, open, "only mov.b32 {a, b} and mov.b64 with 2 or 4 elements pack or unpack vectors");
            return -1;
        }
    } else if (n != in->vec) {
        pp_error(p, open, "expected a vector of %u registers for .v%u, got %u", in->vec, in->vec, n);
        return -1;
    }
    return 0;
}

/* ---- mov.indirect's register array ---- */

/* The document's Indirect-MOV takes an 8-bit register number (spec G9). */
#define PTX_RARRAY_MAX 256u

/* {r0, ..., rN-1}[idx]: N data registers of the instruction's type, indexed by a 32-bit integer
 * register. The array goes to in->rarray, the index to o->reg. */
static int rarray_operand(pp *p, ptx_instr *in, ptx_operand *o, unsigned k, char kind)
{
    pp_next(p); /* { */
    size_t cap = 0;
    unsigned n = 0;
    do {
        const ptx_tok *t = pp_next(p);
        if (n == PTX_RARRAY_MAX) {
            pp_error(p, t, "a register array has at most %u registers (Indirect-MOV's 8-bit register number)",
                     PTX_RARRAY_MAX);
            return -1;
        }
        uint32_t slot;
        if (reg_operand(p, in, t, &slot, kind, 0) || pp_check_register_type(p, in, k, (ptx_type)in->type, slot, t))
            return -1;
        if (PP_GROW(p, in->rarray, cap, (size_t)n + 1)) return -1;
        in->rarray[n++] = slot;
        in->n_targets = (uint16_t)n; /* freed with the instruction from here on */
    } while (pp_accept(p, ','));
    if (pp_expect(p, '}', "to close the register array") || pp_expect(p, '[', "after the register array ({r0, ...}[index])"))
        return -1;
    const ptx_tok *t = pp_next(p);
    if (t->kind == TK_NUM || pp_is(t, '-')) {
        pp_error(p, t, "the index of a register array must be a register (a constant index is a plain mov)");
        return -1;
    }
    if (reg_operand(p, in, t, &o->reg, 'i', 0) || pp_check_register_type(p, in, k, PT_U32, o->reg, t)) return -1;
    if (pp_expect(p, ']', "to close the register array's index")) return -1;
    o->kind = PO_RARRAY;
    return 0;
}

/* ---- addresses ---- */

static int address_operand(pp *p, ptx_instr *in, ptx_operand *o)
{
    if (pp_expect(p, '[', "to start an address")) return -1;
    const ptx_tok *t = pp_next(p);
    const char *s = pp_text(p, t);
    enum { BASE_REG, BASE_SYM, BASE_PARAM } base;
    int64_t param = -1;
    o->kind = PO_ADDR;
    if (t->kind == TK_NUM) {
        pp_error(p, t, "absolute addresses are not supported");
        return -1;
    }
    if (t->kind != TK_WORD) {
        char got[64];
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected a register or a name in the address, got %s", got);
        return -1;
    }
    if (s[0] == '%') {
        if (reg_operand(p, in, t, &o->reg, 'i', 0)) return -1;
        base = BASE_REG;
    } else if (pp_find_symbol(p, s, t->len, &o->sym) == 0) {
        base = BASE_SYM;
    } else if ((param = pp_lookup(&p->f.params, s, t->len)) >= 0) {
        base = BASE_PARAM;
    } else if (register_slot(p, t, &o->reg, 1) == 0) {
        if (check_pred(p, in, t, o->reg, 'i', 0)) return -1;
        base = BASE_REG;
    } else {
        pp_error(p, t, "undefined name '%.*s' in the address", (int)(t->len > 40 ? 40 : t->len), s);
        return -1;
    }
    int64_t off = 0;
    if (pp_accept(p, '+') || pp_is(pp_peek(p), '-')) {
        if (pp_immediate(p, PT_S64, &off)) return -1;
    }
    if (pp_expect(p, ']', "to close the address")) return -1;

    int ldst = in->op == OP_LD || in->op == OP_ST;
    if (base == BASE_REG) {
        if (in->space == PS_PARAM) {
            pp_error(p, t, "ld.param and st.param need a parameter or .param variable name as the address");
            return -1;
        }
    } else if (base == BASE_SYM) {
        const ptx_symbol *ps = symbol(p, o->sym);
        if (in->space == PS_GENERIC) {
            pp_error(p, t, "a generic address of '%s' is not supported here: use .%s or cvta", ps->name,
                     ptx_space_name((ptx_space)ps->space));
            return -1;
        }
        if (ps->space != in->space) {
            pp_error(p, t, "'%s' is a .%s variable, not .%s", ps->name, ptx_space_name((ptx_space)ps->space),
                     ptx_space_name((ptx_space)in->space));
            return -1;
        }
    } else {
        const ptx_func *f = &p->m->funcs[p->f.fi];
        int is_ret = (param >> 31) & 1;
        const ptx_param *pa = is_ret ? &f->rets[param & 0x7FFFFFFF] : &f->params[param & 0x7FFFFFFF];
        if (!ldst || in->space != PS_PARAM) {
            pp_error(p, t, "parameter '%s' can only be accessed with ld.param or st.param", pa->name);
            return -1;
        }
        if (in->op == OP_ST && f->is_entry) {
            pp_error(p, t, "kernel parameter '%s' is read-only", pa->name);
            return -1;
        }
        uint64_t access = (uint64_t)ptx_type_size((ptx_type)in->type) * in->vec;
        if (off < 0 || (uint64_t)off > pa->size || access > pa->size - (uint64_t)off) {
            pp_error(p, t, "[%s%+lld] is outside parameter '%s' (%llu bytes)", pa->name, (long long)off, pa->name,
                     (unsigned long long)pa->size);
            return -1;
        }
        o->imm = (int64_t)pa->offset + off;
        return 0;
    }
    o->imm = off;
    return 0;
}

/* ---- labels ---- */

static int label_operand(pp *p, ptx_instr *in, ptx_operand *o, unsigned k, int list)
{
    const ptx_tok *t = pp_next(p);
    if (t->kind != TK_WORD || !pp_is_ident(pp_text(p, t), t->len, 0)) {
        char got[64];
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected a %s, got %s", list ? ".branchtargets name" : "label", got);
        return -1;
    }
    pp_func *f = &p->f;
    const ptx_func *pf = &p->m->funcs[f->fi];
    pp_use u = {f->fi, (uint32_t)(in - pf->instrs), pp_tok_index(p, t), (uint8_t)k, *t};
    if (list) {
        if (PP_GROW(p, f->buses, f->cap_buses, f->n_buses + 1)) return -1;
        f->buses[f->n_buses++] = u;
        return 0; /* the list lives in in->targets, not in an operand */
    }
    if (PP_GROW(p, f->luses, f->cap_luses, f->n_luses + 1)) return -1;
    f->luses[f->n_luses++] = u;
    o->kind = PO_LABEL;
    o->imm = -1;
    return 0;
}

/* ---- one operand ---- */

static int operand(pp *p, ptx_instr *in, unsigned k, char kind);

int pp_operand(pp *p, ptx_instr *in, unsigned k, char kind)
{
    const ptx_tok *t = pp_peek(p);
    if (operand(p, in, k, kind)) return -1;
    return pp_check_operand_types(p, in, k, kind, t);
}

static int operand(pp *p, ptx_instr *in, unsigned k, char kind)
{
    ptx_operand *o = &in->o[k];
    const ptx_tok *t = pp_peek(p);
    char got[64];
    if (pp_at_end(p)) {
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected an operand, got %s", got);
        return -1;
    }
    if (kind == 'a') return address_operand(p, in, o);
    if (kind == 'l' || kind == 'x') return label_operand(p, in, o, k, kind == 'x');
    if (kind == 'r' || kind == 'R') {
        if (pp_is(t, '{')) return rarray_operand(p, in, o, k, kind);
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected a register array {r0, r1, ...}[index] as operand %u of mov.indirect, got %s", k + 1, got);
        return -1;
    }
    if (in->op == OP_MOV_INDIRECT && pp_is(t, '{')) {
        pp_error(p, t, "mov.indirect takes one register array, as its destination or as its source");
        return -1;
    }
    if (pp_is(t, '[')) {
        pp_error(p, t, "an address is not valid as operand %u here", k + 1);
        return -1;
    }
    if (pp_is(t, '{')) {
        if (kind != 'v' && kind != 'u' && kind != 'm' && kind != 'w') {
            pp_error(p, t, "a vector is not valid as operand %u here", k + 1);
            return -1;
        }
        return vector_operand(p, in, o, kind);
    }
    if ((kind == 'v' || kind == 'w') && in->vec > 1) {
        pp_error(p, t, "expected a {vector} of %u registers for .v%u", in->vec, in->vec);
        return -1;
    }
    if (pp_is(t, '!')) {
        if (kind != 'p') {
            pp_error(p, t, "'!' is only valid before a predicate source operand");
            return -1;
        }
        pp_next(p);
        o->neg = 1;
        o->kind = PO_REG;
        return reg_operand(p, in, pp_next(p), &o->reg, kind, 0);
    }
    if (pp_is(t, '-') || t->kind == TK_NUM) {
        if (is_dest(kind)) {
            pp_error(p, t, "operand %u must be a destination register", k + 1);
            return -1;
        }
        if (kind == 'p' || kind == 'y') {
            pp_error(p, t, "operand %u must be a %s", k + 1, kind == 'p' ? "predicate register" : "register or variable");
            return -1;
        }
        ptx_type ty = kind == 't' ? (ptx_type)in->type2 : kind == 'i' ? PT_U32 : (ptx_type)in->type;
        o->kind = PO_IMM;
        return pp_immediate(p, ty, &o->imm);
    }
    if (t->kind == TK_WORD) return word_operand(p, in, o, kind);
    pp_describe(p, t, got, sizeof got);
    pp_error(p, t, "expected an operand, got %s", got);
    return -1;
}
