/*
 * Register operand types against the instruction type, as the PTX ISA states them
 * ("Operand Type Information" and "Operand Size Exceeding Instruction-Type Size"):
 *  - a .bN instruction type accepts a register of any type of N bits; .sN and .uN accept .bN,
 *    .sN and .uN registers; .fN accepts .fN and .bN registers;
 *  - ld, st and cvt relax the size: their data registers may be wider than the instruction
 *    type (narrow values in regular-width registers), except that a floating-point type still
 *    needs a register of its exact size unless the register is of a bit-size type;
 *  - everything else needs the exact size. A narrower register is never valid.
 * Operand-specific types: mul/mad .wide write (and mad .wide adds) twice the width; popc, clz
 * and bfind write .u32; shift amounts, bit-field positions, lane masks and barrier ids are .u32.
 */
#include <stdio.h>

#include "ptx_internal.h"
#include "ptx_opcodes.h"

static char family(ptx_type t)
{
    if (t >= PT_B8 && t <= PT_B64) return 'b';
    if (t >= PT_U8 && t <= PT_U64) return 'u';
    if (t >= PT_S8 && t <= PT_S64) return 's';
    if (t >= PT_F16 && t <= PT_F64) return 'f';
    return 0;
}

static ptx_type twice(ptx_type t)
{
    switch (t) {
    case PT_U16: return PT_U32;
    case PT_U32: return PT_U64;
    case PT_S16: return PT_S32;
    case PT_S32: return PT_S64;
    case PT_B16: return PT_B32;
    case PT_B32: return PT_B64;
    default: return t;
    }
}

/* The type operand k (pattern letter kind) must have; PT_NONE when not a typed data operand. */
static ptx_type expected(const ptx_instr *in, unsigned k, char kind)
{
    ptx_type ty = (ptx_type)in->type;
    int wide = in->mode == PM_WIDE && (in->op == OP_MUL || in->op == OP_MAD);
    switch (kind) {
    case 'i': return PT_U32;
    case 't': return (ptx_type)in->type2;
    case 'y': case 'u': case 'm': case 'v': case 'w': return ty;
    case 'D': return in->op == OP_SETP ? PT_NONE : ty;
    case 'd':
        if (in->op == OP_POPC || in->op == OP_CLZ || in->op == OP_BFIND) return PT_U32;
        if (in->op == OP_BAR || in->op == OP_TESTP) return PT_NONE; /* .u32 or .pred by mode */
        return wide ? twice(ty) : ty;
    case 's': return wide && k == 3 ? twice(ty) : ty;
    default: return PT_NONE;
    }
}

static int relaxed(const ptx_instr *in, char kind)
{
    return in->op == OP_LD || in->op == OP_ST || (in->op == OP_CVT && (kind == 'd' || kind == 't'));
}

/* 0 when a register of type reg fits; else -1 with the rule broken in why. */
static int fits(ptx_type want, ptx_type reg, int relax, char *why, size_t n)
{
    char fw = family(want), fr = family(reg);
    unsigned sw = ptx_type_size(want), sr = ptx_type_size(reg);
    if (!fw || !fr) return 0; /* predicates are checked elsewhere */
    int compatible = fw == 'b' || (fw == 'f' ? fr == 'f' || fr == 'b' : fr != 'f');
    if (!compatible) {
        snprintf(why, n, "a .%s register does not fit a .%s operand (%s)", ptx_type_name(reg), ptx_type_name(want),
                 fw == 'f' ? "a floating-point operand takes .f or .b registers" : "integer and floating-point types do not mix");
        return -1;
    }
    int size_ok = sr == sw || (relax && sr > sw && (fw != 'f' || fr == 'b'));
    if (!size_ok) {
        snprintf(why, n, "a %u-bit .%s register does not fit a %u-bit .%s operand%s", sr * 8, ptx_type_name(reg), sw * 8,
                 ptx_type_name(want), sr > sw && relax ? " (a wider register holds only integer or bit-size values)" : "");
        return -1;
    }
    return 0;
}

/* Checks the registers of operand k; reports at t (the operand's first token). */
int pp_check_operand_types(pp *p, const ptx_instr *in, unsigned k, char kind, const ptx_tok *t)
{
    const ptx_operand *o = &in->o[k];
    ptx_type want = expected(in, k, kind);
    if (want == PT_NONE || want == PT_PRED) return 0;
    if (o->kind == PO_VEC && (kind == 'u' || kind == 'm')) return 0; /* mov's pack/unpack: half-width parts */
    uint32_t regs[4];
    unsigned n = 0;
    if (o->kind == PO_REG) regs[n++] = o->reg;
    else if (o->kind == PO_VEC)
        for (unsigned i = 0; i < o->vec_n; i++)
            if (o->vec[i] != PTX_NO_REG) regs[n++] = o->vec[i];
    const ptx_func *f = &p->m->funcs[p->f.fi];
    for (unsigned i = 0; i < n; i++) {
        char why[160], opc[64];
        if (fits(want, (ptx_type)f->regs[regs[i]].type, relaxed(in, kind), why, sizeof why) == 0) continue;
        ptx_format_opcode(in, opc, sizeof opc);
        pp_error(p, t, "operand %u of %s: register '%s': %s", k + 1, opc, f->regs[regs[i]].name, why);
        return -1;
    }
    return 0;
}

int pp_check_register_type(pp *p, const ptx_instr *in, unsigned k, ptx_type want, uint32_t reg, const ptx_tok *t)
{
    const ptx_func *f = &p->m->funcs[p->f.fi];
    char why[160], opc[64];
    if (fits(want, (ptx_type)f->regs[reg].type, 0, why, sizeof why) == 0) return 0;
    ptx_format_opcode(in, opc, sizeof opc);
    pp_error(p, t, "operand %u of %s: register '%s': %s", k + 1, opc, f->regs[reg].name, why);
    return -1;
}
