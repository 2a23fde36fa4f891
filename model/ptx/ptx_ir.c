/* Helpers over the parsed module (ptx_ir.h): names, lookups, shared-memory size, freeing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_ir.h"
#include "ptx_opcodes.h"

unsigned ptx_type_size(ptx_type t)
{
    switch (t) {
    case PT_PRED: case PT_B8: case PT_U8: case PT_S8: return 1;
    case PT_B16: case PT_U16: case PT_S16: case PT_F16: return 2;
    case PT_B32: case PT_U32: case PT_S32: case PT_F32: return 4;
    case PT_B64: case PT_U64: case PT_S64: case PT_F64: return 8;
    default: return 0;
    }
}

int ptx_type_is_float(ptx_type t) { return t == PT_F16 || t == PT_F32 || t == PT_F64; }

int ptx_type_is_signed(ptx_type t) { return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64; }

const char *ptx_type_name(ptx_type t)
{
    static const char *const names[] = {"", "pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32",
                                        "u64", "s8", "s16", "s32", "s64", "f16", "f32", "f64"};
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

const char *ptx_op_name(ptx_op op)
{
    static const char *const names[OP_COUNT] = {
        [OP_INVALID] = "invalid", [OP_ADD] = "add", [OP_SUB] = "sub", [OP_MUL] = "mul", [OP_MAD] = "mad",
        [OP_MUL24] = "mul24", [OP_MAD24] = "mad24", [OP_SAD] = "sad", [OP_DIV] = "div", [OP_REM] = "rem",
        [OP_ABS] = "abs", [OP_NEG] = "neg", [OP_MIN] = "min", [OP_MAX] = "max", [OP_FMA] = "fma",
        [OP_ADDC] = "addc", [OP_SUBC] = "subc", [OP_MADC] = "madc", [OP_RCP] = "rcp", [OP_SQRT] = "sqrt",
        [OP_RSQRT] = "rsqrt", [OP_EX2] = "ex2", [OP_LG2] = "lg2", [OP_SIN] = "sin", [OP_COS] = "cos",
        [OP_TANH] = "tanh", [OP_COPYSIGN] = "copysign", [OP_TESTP] = "testp", [OP_POPC] = "popc",
        [OP_CLZ] = "clz", [OP_BREV] = "brev", [OP_BFIND] = "bfind", [OP_BFE] = "bfe", [OP_BFI] = "bfi",
        [OP_SHF] = "shf", [OP_PRMT] = "prmt", [OP_AND] = "and", [OP_OR] = "or", [OP_XOR] = "xor",
        [OP_NOT] = "not", [OP_CNOT] = "cnot", [OP_SHL] = "shl", [OP_SHR] = "shr", [OP_SETP] = "setp",
        [OP_SELP] = "selp", [OP_SET] = "set", [OP_SLCT] = "slct", [OP_MOV] = "mov", [OP_CVT] = "cvt",
        [OP_CVTA] = "cvta", [OP_LD] = "ld", [OP_ST] = "st", [OP_ATOM] = "atom", [OP_RED] = "red",
        [OP_BRA] = "bra", [OP_BRX_IDX] = "brx.idx", [OP_CALL] = "call", [OP_RET] = "ret", [OP_EXIT] = "exit",
        [OP_TRAP] = "trap", [OP_BAR] = "bar", [OP_BAR_WARP] = "bar.warp", [OP_MEMBAR] = "membar",
        [OP_FENCE] = "fence", [OP_SHFL] = "shfl", [OP_VOTE] = "vote", [OP_ACTIVEMASK] = "activemask",
        [OP_NANOSLEEP] = "nanosleep", [OP_MOV_INDIRECT] = "mov.indirect",
    };
    return (unsigned)op < OP_COUNT && names[op] ? names[op] : "?";
}

const char *ptx_space_name(ptx_space s)
{
    static const char *const names[] = {"", "global", "shared", "local", "const", "param", "reg"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

void ptx_operand_clear(ptx_operand *o)
{
    memset(o, 0, sizeof *o);
    o->reg = o->reg2 = PTX_NO_REG;
    o->sym = PTX_NO_SYM;
}

ptx_instr *ptx_instr_buf_init(ptx_instr_buf *b)
{
    memset(b, 0, sizeof *b);
    ptx_instr *in = &b->in;
    in->guard = PTX_NO_REG;
    in->call_ret = PTX_NO_SYM;
    in->vec = 1;
    for (int k = 0; k < PTX_MAX_OPNDS; k++) ptx_operand_clear(&b->o[k]);
    in->o = b->o;
    in->src = b->regs;
    in->dst = b->regs + PTX_MAX_REGS_PER_INSTR;
    return in;
}

const ptx_symbol *ptx_symbol_ref(const ptx_module *m, const ptx_func *f, int32_t sym)
{
    if (sym >= 0) return f && (uint32_t)sym < f->n_syms ? &f->syms[sym] : NULL;
    if (PTX_IS_MODULE_SYM(sym) && PTX_MODULE_SYM_INDEX(sym) < m->n_syms) return &m->syms[PTX_MODULE_SYM_INDEX(sym)];
    return NULL;
}

const ptx_func *ptx_module_find_func(const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->n_funcs; i++)
        if (strcmp(m->funcs[i].name, name) == 0) return &m->funcs[i];
    return NULL;
}

/* End of a function's own static .shared symbols (0 when it has none). */
static uint64_t own_shared_end(const ptx_func *f)
{
    uint64_t end = 0;
    for (uint32_t i = 0; i < f->n_syms; i++) {
        const ptx_symbol *s = &f->syms[i];
        if (s->space == PS_SHARED && !s->is_extern && s->offset + s->size > end) end = s->offset + s->size;
    }
    return end;
}

uint64_t ptx_kernel_static_shared(const ptx_module *m, const ptx_func *kernel)
{
    uint64_t end = m->shared_static_bytes, own = own_shared_end(kernel);
    if (own > end) end = own;
    /* Functions the kernel calls, transitively: a depth-first walk over the call graph. */
    uint32_t n = m->n_funcs;
    uint8_t *seen = calloc(n ? n : 1, 1);
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
    if (!seen || !stack) { /* fall back to every function */
        for (uint32_t i = 0; i < n; i++)
            if (!m->funcs[i].is_entry && own_shared_end(&m->funcs[i]) > end) end = own_shared_end(&m->funcs[i]);
        free(seen);
        free(stack);
        return end;
    }
    uint32_t sp = 0, self = (uint32_t)(kernel - m->funcs);
    if (self < n) {
        stack[sp++] = self;
        seen[self] = 1;
    }
    while (sp) {
        const ptx_func *f = &m->funcs[stack[--sp]];
        for (uint32_t i = 0; i < f->n_instrs; i++) {
            const ptx_instr *in = &f->instrs[i];
            if (in->op != OP_CALL || in->o[0].imm < 0 || in->o[0].imm >= (int64_t)n || seen[in->o[0].imm]) continue;
            seen[in->o[0].imm] = 1;
            stack[sp++] = (uint32_t)in->o[0].imm;
            uint64_t e = own_shared_end(&m->funcs[in->o[0].imm]);
            if (e > end) end = e;
        }
    }
    free(seen);
    free(stack);
    return end;
}

void ptx_describe_instr(const ptx_module *m, const ptx_func *f, uint32_t pc, char *buf, size_t len)
{
    if (!len) return;
    if (!f || pc >= f->n_instrs) {
        snprintf(buf, len, "%s (pc %u: out of range)", m && m->name ? m->name : "?", pc);
        return;
    }
    char op[64];
    ptx_format_opcode(&f->instrs[pc], op, sizeof op);
    snprintf(buf, len, "%s:%u (pc %u: %s)", m && m->name ? m->name : "?", f->instrs[pc].line, pc, op);
}

void ptx_module_free(ptx_module *m)
{
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        ptx_func *f = &m->funcs[i];
        free(f->name);
        for (uint32_t k = 0; k < f->n_params; k++) free(f->params[k].name);
        for (uint32_t k = 0; k < f->n_rets; k++) free(f->rets[k].name);
        free(f->params);
        free(f->rets);
        for (ptx_name_block *b = f->reg_names, *next; b; b = next) {
            next = b->next;
            free(b);
        }
        free(f->regs);
        for (uint32_t k = 0; k < f->n_syms; k++) {
            free(f->syms[k].name);
            free(f->syms[k].init);
        }
        free(f->syms);
        for (uint32_t k = 0; k < f->n_instrs; k++) {
            free(f->instrs[k].call_args);
            free(f->instrs[k].targets);
        }
        free(f->instrs);
        free(f->opnd_pool);
        free(f->reg_pool);
        for (uint32_t k = 0; k < f->n_blocks; k++) free(f->blocks[k].succ_more);
        free(f->blocks);
        free(f->block_of);
    }
    free(m->funcs);
    for (uint32_t i = 0; i < m->n_syms; i++) {
        free(m->syms[i].name);
        free(m->syms[i].init);
    }
    free(m->syms);
    free(m->name);
    memset(m, 0, sizeof *m);
}
