/* PTX instruction -> SASS opcode for Accel-Sim traces. Names are what nvcc emits for sm_70 and
 * later, restricted to first tokens present in Accel-Sim's Volta opcode map (binary version 70)
 * so its trace-driven front end accepts every line. One PTX instruction becomes one SASS line:
 * where the compiler would emit a sequence (integer division, 64-bit adds), the line carries the
 * opcode that decides the sequence's functional unit. */
#include "trace_sass_map.h"

#include <stdio.h>

static int is_float(uint8_t t) { return t == PT_F16 || t == PT_F32 || t == PT_F64; }
static int is_f64(uint8_t t) { return t == PT_F64; }
static int is_wide(uint8_t t) { return ptx_type_size((ptx_type)t) == 8; }
static int is_signed(uint8_t t) { return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64; }

static const char *cmp_name(uint8_t c)
{
    static const char *const n[] = {"EQ", "EQ", "NE", "LT", "LE", "GT", "GE", "LT", "LE", "GT", "GE",
                                    "EQU", "NEU", "LTU", "LEU", "GTU", "GEU", "NUM", "NAN"};
    return c < sizeof n / sizeof n[0] ? n[c] : "EQ";
}

static const char *bool_name(uint8_t b) { return b == PB_OR ? "OR" : b == PB_XOR ? "XOR" : "AND"; }

/* Size suffix of a memory opcode: SASS spells 4 bytes with none. */
static const char *width_suffix(unsigned bytes, int signed_subword)
{
    switch (bytes) {
    case 1: return signed_subword ? ".S8" : ".U8";
    case 2: return signed_subword ? ".S16" : ".U16";
    case 8: return ".64";
    case 16: return ".128";
    default: return "";
    }
}

static const char *type_name(uint8_t t)
{
    switch (t) {
    case PT_S8: return "S8";
    case PT_S16: return "S16";
    case PT_S32: return "S32";
    case PT_S64: return "S64";
    case PT_B8: case PT_U8: return "U8";
    case PT_B16: case PT_U16: return "U16";
    case PT_B64: case PT_U64: return "U64";
    case PT_F16: return "F16";
    case PT_F32: return "F32";
    case PT_F64: return "F64";
    default: return "U32";
    }
}

static const char *atom_name(uint8_t mode)
{
    switch (mode) {
    case PM_ATOM_MIN: return "MIN";
    case PM_ATOM_MAX: return "MAX";
    case PM_ATOM_INC: return "INC";
    case PM_ATOM_DEC: return "DEC";
    case PM_ATOM_EXCH: return "EXCH";
    case PM_ATOM_CAS: return "CAS";
    case PM_ATOM_AND: return "AND";
    case PM_ATOM_OR: return "OR";
    case PM_ATOM_XOR: return "XOR";
    default: return "ADD";
    }
}

static void set(trace_sass *o, const char *name) { snprintf(o->opcode, sizeof o->opcode, "%s", name); }

/* Three-way choice by the instruction type: integer, f32, f64. */
static void by_type(trace_sass *o, uint8_t t, const char *i, const char *f, const char *d)
{
    set(o, is_f64(t) ? d : is_float(t) ? f : i);
}

static void map_load(const ptx_instr *in, int in_kernel, trace_sass *o)
{
    unsigned bytes = ptx_type_size((ptx_type)in->type) * in->vec;
    const char *w = width_suffix(bytes, in->vec == 1 && is_signed(in->type));
    const ptx_operand *a = &in->o[1];
    switch (in->space) {
    case PS_GLOBAL: snprintf(o->opcode, sizeof o->opcode, "LDG.E%s%s", w, in->flags & PF_NC ? ".CONSTANT" : ""); break;
    case PS_SHARED: snprintf(o->opcode, sizeof o->opcode, "LDS%s", w); break;
    case PS_LOCAL: snprintf(o->opcode, sizeof o->opcode, "LDL%s", w); break;
    case PS_CONST: snprintf(o->opcode, sizeof o->opcode, "LDC%s", w); return;
    case PS_PARAM:
        /* A kernel's parameters sit in constant bank 0; a device function's parameters and
         * call-site scratch are registers under the SASS calling convention. */
        if (in_kernel && a->sym == PTX_NO_SYM && a->reg == PTX_NO_REG) snprintf(o->opcode, sizeof o->opcode, "LDC%s", w);
        else set(o, "MOV");
        return;
    default: snprintf(o->opcode, sizeof o->opcode, "LD.E%s", w); break;
    }
    o->is_mem = 1;
    o->width = (uint8_t)bytes;
}

static void map_store(const ptx_instr *in, trace_sass *o)
{
    unsigned bytes = ptx_type_size((ptx_type)in->type) * in->vec;
    const char *w = width_suffix(bytes, 0);
    switch (in->space) {
    case PS_GLOBAL: snprintf(o->opcode, sizeof o->opcode, "STG.E%s", w); break;
    case PS_SHARED: snprintf(o->opcode, sizeof o->opcode, "STS%s", w); break;
    case PS_LOCAL: snprintf(o->opcode, sizeof o->opcode, "STL%s", w); break;
    case PS_PARAM: set(o, "MOV"); return; /* call arguments: registers in SASS */
    default: snprintf(o->opcode, sizeof o->opcode, "ST.E%s", w); break;
    }
    o->is_mem = 1;
    o->width = (uint8_t)bytes;
}

/* atom and red; shared-memory reductions are ATOMS in SASS (there is no shared RED). */
static void map_atomic(const ptx_instr *in, int is_red, trace_sass *o)
{
    uint8_t t = in->type;
    const char *ty = t == PT_F32 ? ".F32.FTZ.RN"
                     : t == PT_F64 ? ".F64.RN"
                     : is_wide(t) ? ".64"
                     : is_signed(t) && (in->mode == PM_ATOM_MIN || in->mode == PM_ATOM_MAX) ? ".S32" : "";
    const char *op = atom_name(in->mode);
    if (in->space == PS_SHARED) snprintf(o->opcode, sizeof o->opcode, "ATOMS.%s%s", op, ty);
    else if (is_red) snprintf(o->opcode, sizeof o->opcode, "RED.E.%s%s.STRONG.GPU", op, ty);
    else snprintf(o->opcode, sizeof o->opcode, "%s.%s%s.STRONG.GPU", in->space == PS_GLOBAL ? "ATOMG.E" : "ATOM.E", op, ty);
    o->is_mem = 1;
    o->width = (uint8_t)ptx_type_size((ptx_type)t);
}

static void map_setp(const ptx_instr *in, trace_sass *o)
{
    uint8_t t = in->type;
    const char *c = cmp_name(in->cmp), *b = bool_name(in->boolop);
    if (is_f64(t)) snprintf(o->opcode, sizeof o->opcode, "DSETP.%s.%s", c, b);
    else if (is_float(t)) snprintf(o->opcode, sizeof o->opcode, "FSETP.%s.%s", c, b);
    else {
        int u = !is_signed(t) || in->cmp == PC_LO || in->cmp == PC_LS || in->cmp == PC_HI || in->cmp == PC_HS;
        snprintf(o->opcode, sizeof o->opcode, "ISETP.%s%s.%s", c, u ? ".U32" : "", b);
    }
}

/* mov: special registers are S2R (or CS2R for the clocks) unless SASS reads them from the
 * constant bank (launch dimensions, shared-memory sizes), where they are plain moves. */
static void map_mov(const ptx_instr *in, trace_sass *o)
{
    const ptx_operand *s = &in->o[1];
    if (in->type == PT_PRED) set(o, "PLOP3.LUT");
    else if (s->kind != PO_SREG) set(o, "MOV");
    else switch (s->sreg) {
        case SR_CLOCK: case SR_CLOCK64: case SR_GLOBALTIMER: set(o, "CS2R"); break;
        case SR_NTID: case SR_NCTAID: case SR_NSMID: case SR_NWARPID: case SR_GRIDID: case SR_DYNAMIC_SMEM_SIZE:
        case SR_TOTAL_SMEM_SIZE: set(o, "MOV"); break;
        default: set(o, "S2R"); break;
        }
}

static void map_cvt(const ptx_instr *in, trace_sass *o)
{
    int fd = is_float(in->type), fs = is_float(in->type2);
    const char *op = fd && fs ? (in->type == in->type2 ? "FRND" : "F2F") : fd ? "I2F" : fs ? "F2I" : "I2I";
    if (fd && fs && in->type == in->type2) snprintf(o->opcode, sizeof o->opcode, "%s%s", op, is_f64(in->type) ? ".F64" : "");
    else snprintf(o->opcode, sizeof o->opcode, "%s.%s.%s", op, type_name(in->type), type_name(in->type2));
}

static void map_shift(const ptx_instr *in, int left, trace_sass *o)
{
    const char *w = is_wide(in->type) ? "64" : "32";
    if (left) snprintf(o->opcode, sizeof o->opcode, "SHF.L.U%s%s", w, is_wide(in->type) ? ".HI" : "");
    else snprintf(o->opcode, sizeof o->opcode, "SHF.R.%s%s.HI", is_signed(in->type) ? "S" : "U", w);
}

void trace_sass_map(const ptx_instr *in, int in_kernel, trace_sass *o)
{
    o->opcode[0] = '\0';
    o->is_mem = 0;
    o->width = 0;
    uint8_t t = in->type;
    switch ((ptx_op)in->op) {
    case OP_ADD: case OP_SUB: by_type(o, t, "IADD3", "FADD", "DADD"); break;
    case OP_MUL:
        if (is_float(t)) by_type(o, t, "", "FMUL", "DMUL");
        else set(o, in->mode == PM_WIDE ? "IMAD.WIDE" : in->mode == PM_HI ? "IMAD.HI" : "IMAD");
        break;
    case OP_MAD:
        if (is_float(t)) by_type(o, t, "", "FFMA", "DFMA");
        else set(o, in->mode == PM_WIDE ? "IMAD.WIDE" : in->mode == PM_HI ? "IMAD.HI" : "IMAD");
        break;
    case OP_MUL24: case OP_MAD24: set(o, "IMAD"); break;
    case OP_SAD: set(o, "VABSDIFF"); break;
    /* division: the reciprocal seeds the sequence for floats, the high multiply for integers */
    case OP_DIV: by_type(o, t, "IMAD.HI", "MUFU.RCP", "MUFU.RCP64H"); break;
    case OP_REM: set(o, "IMAD.HI"); break;
    case OP_ABS: by_type(o, t, "IABS", "FADD.FTZ", "DADD"); break;
    case OP_NEG: by_type(o, t, "IADD3", "FADD.FTZ", "DADD"); break;
    case OP_MIN: case OP_MAX: by_type(o, t, "IMNMX", "FMNMX", "DSETP.MIN.AND"); break;
    case OP_FMA: by_type(o, t, "IMAD", "FFMA", "DFMA"); break;
    case OP_ADDC: case OP_SUBC: set(o, "IADD3.X"); break;
    case OP_MADC: set(o, "IMAD.X"); break;
    case OP_RCP: set(o, is_f64(t) ? "MUFU.RCP64H" : "MUFU.RCP"); break;
    case OP_SQRT: set(o, is_f64(t) ? "MUFU.RSQ64H" : "MUFU.SQRT"); break;
    case OP_RSQRT: set(o, is_f64(t) ? "MUFU.RSQ64H" : "MUFU.RSQ"); break;
    case OP_EX2: set(o, "MUFU.EX2"); break;
    case OP_LG2: set(o, "MUFU.LG2"); break;
    case OP_SIN: set(o, "MUFU.SIN"); break;
    case OP_COS: set(o, "MUFU.COS"); break;
    case OP_TANH: set(o, "MUFU.TANH"); break;
    case OP_COPYSIGN: set(o, "LOP3.LUT"); break;
    case OP_TESTP: set(o, is_f64(t) ? "DSETP.NUM.AND" : "FSETP.NUM.AND"); break;
    case OP_POPC: set(o, "POPC"); break;
    case OP_CLZ: set(o, "FLO.U32"); break;
    case OP_BREV: set(o, "BREV"); break;
    case OP_BFIND: set(o, is_signed(t) ? "FLO" : "FLO.U32"); break;
    case OP_BFE: set(o, is_signed(t) ? "SGXT" : "SGXT.U32"); break;
    case OP_BFI: set(o, "BMSK"); break;
    case OP_SHF: set(o, in->mode == PM_SHF_L ? (in->flags & PF_WRAP ? "SHF.L.W.U32.HI" : "SHF.L.U32.HI")
                                            : (in->flags & PF_WRAP ? "SHF.R.W.U32.HI" : "SHF.R.U32.HI"));
        break;
    case OP_PRMT: set(o, "PRMT"); break;
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT:
        set(o, t == PT_PRED ? "PLOP3.LUT" : "LOP3.LUT");
        break;
    case OP_SHL: map_shift(in, 1, o); break;
    case OP_SHR: map_shift(in, 0, o); break;
    case OP_SETP: map_setp(in, o); break;
    case OP_SELP: set(o, "SEL"); break;
    case OP_SET:
        if (is_f64(in->type2)) snprintf(o->opcode, sizeof o->opcode, "DSETP.%s.%s", cmp_name(in->cmp), bool_name(in->boolop));
        else if (is_float(in->type2)) snprintf(o->opcode, sizeof o->opcode, "FSET.BF.%s.%s", cmp_name(in->cmp), bool_name(in->boolop));
        else snprintf(o->opcode, sizeof o->opcode, "ISETP.%s.%s", cmp_name(in->cmp), bool_name(in->boolop));
        break;
    case OP_SLCT: set(o, is_float(in->type2) ? "FSEL" : "SEL"); break;
    case OP_MOV: map_mov(in, o); break;
    case OP_CVT: map_cvt(in, o); break;
    /* generic <-> space conversion adds or subtracts the window base; global is the identity */
    case OP_CVTA: set(o, in->space == PS_GLOBAL ? "MOV" : "IADD3"); break;
    case OP_LD: map_load(in, in_kernel, o); break;
    case OP_ST: map_store(in, o); break;
    case OP_ATOM: map_atomic(in, 0, o); break;
    case OP_RED: map_atomic(in, 1, o); break;
    case OP_BRA: set(o, "BRA"); break;
    case OP_BRX_IDX: set(o, "BRX"); break;
    case OP_CALL: set(o, "CALL.REL.NOINC"); break;
    case OP_RET: set(o, in_kernel ? "EXIT" : "RET.REL.NODEC"); break;
    case OP_EXIT: set(o, "EXIT"); break;
    case OP_TRAP: set(o, "BPT.TRAP"); break;
    case OP_BAR:
        set(o, in->mode == PM_BAR_ARRIVE ? "BAR.ARV"
               : in->mode == PM_BAR_RED_POPC ? "BAR.RED.POPC"
               : in->mode == PM_BAR_RED_AND ? "BAR.RED.AND"
               : in->mode == PM_BAR_RED_OR ? "BAR.RED.OR" : "BAR.SYNC");
        break;
    case OP_BAR_WARP: set(o, "WARPSYNC"); break;
    case OP_MEMBAR: case OP_FENCE:
        set(o, in->mode == PM_LVL_CTA ? "MEMBAR.CTA" : in->mode == PM_LVL_SYS ? "MEMBAR.SYS" : "MEMBAR.GPU");
        break;
    case OP_SHFL:
        set(o, in->mode == PM_SHFL_UP ? "SHFL.UP" : in->mode == PM_SHFL_DOWN ? "SHFL.DOWN"
               : in->mode == PM_SHFL_BFLY ? "SHFL.BFLY" : "SHFL.IDX");
        break;
    case OP_VOTE:
        set(o, in->mode == PM_VOTE_ALL ? "VOTE.ALL" : in->mode == PM_VOTE_UNI ? "VOTE.UNI" : "VOTE.ANY");
        break;
    case OP_ACTIVEMASK: set(o, "VOTE.ANY"); break;
    case OP_NANOSLEEP: set(o, "NANOSLEEP"); break;
    /* no SASS opcode: a trace carries no indexed register, so it replays as a plain move */
    case OP_MOV_INDIRECT: set(o, "MOV"); break;
    case OP_INVALID: case OP_COUNT: break;
    }
    if (!o->opcode[0]) set(o, "NOP");
}
