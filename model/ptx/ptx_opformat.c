/* Operand patterns of each opcode, and the canonical text of a decoded opcode. */
#include <string.h>

#include "ptx_opcodes.h"

/* ---- operand patterns ---- */

const char *ptx_operand_pattern(const ptx_instr *in, unsigned n, const char **expect)
{
    const char *p = NULL, *alt = NULL; /* alt: a second valid form */
    switch ((ptx_op)in->op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_REM: case OP_MIN: case OP_MAX: case OP_AND:
    case OP_OR: case OP_XOR: case OP_ADDC: case OP_SUBC: case OP_MUL24: case OP_COPYSIGN:
        p = "dss"; break;
    case OP_SHL: case OP_SHR: p = "dsi"; break;
    case OP_MAD: case OP_MADC: case OP_MAD24: case OP_FMA: case OP_SAD: case OP_PRMT: p = "dsss"; break;
    case OP_BFE: p = "dsii"; break;
    case OP_BFI: p = "dssii"; break;
    case OP_SHF: p = "dssi"; break;
    case OP_ABS: case OP_NEG: case OP_NOT: case OP_CNOT: case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFIND:
    case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
    case OP_TESTP:
        p = "ds"; break;
    case OP_SETP: p = in->boolop ? "Dssp" : "Dss"; break;
    case OP_SET: p = in->boolop ? "dttp" : "dtt"; break;
    case OP_SELP: p = "dssp"; break;
    case OP_SLCT: p = "dsst"; break;
    case OP_MOV: p = "um"; break;
    case OP_MOV_INDIRECT: p = "dr"; break; /* the write form, "Rs", is picked by the parser */
    case OP_CVT: p = "dt"; break;
    case OP_CVTA: p = "dy"; break;
    case OP_LD: p = "va"; break;
    case OP_ST: p = "aw"; break;
    case OP_ATOM: p = in->mode == PM_ATOM_CAS ? "dass" : "das"; break;
    case OP_RED: p = "as"; break;
    case OP_BRA: p = "l"; break;
    case OP_BRX_IDX: p = "ix"; break;
    case OP_RET: case OP_EXIT: case OP_TRAP: case OP_MEMBAR: case OP_FENCE: p = ""; break;
    case OP_BAR:
        if (in->mode == PM_BAR_SYNC) p = "i", alt = "ii";
        else if (in->mode == PM_BAR_ARRIVE) p = "ii";
        else p = "dip", alt = "diip";
        break;
    case OP_BAR_WARP: case OP_NANOSLEEP: p = "i"; break;
    case OP_SHFL: p = "Dsiii"; break;
    case OP_VOTE: p = "dpi"; break;
    case OP_ACTIVEMASK: p = "d"; break;
    default: break;
    }
    static const char *const counts[] = {"no", "1", "2", "3", "4", "5", "6"};
    if (p && strlen(p) == n) return p;
    if (alt && strlen(alt) == n) return alt;
    if (expect) {
        size_t a = p ? strlen(p) : 0;
        if (alt) {
            static const char *const pairs[] = {"1 or 2", "3 or 4"};
            *expect = a == 1 ? pairs[0] : pairs[1];
        } else {
            *expect = counts[a < 7 ? a : 6];
        }
    }
    return NULL;
}

/* ---- formatting ---- */

static const char *const mode_names[] = {
    "", "lo", "hi", "wide", "up", "down", "bfly", "idx", "all", "any", "uni", "ballot", "add", "min", "max", "inc",
    "dec", "exch", "cas", "and", "or", "xor", "l", "r", "sync", "arrive", "red.popc", "red.and", "red.or", "cta",
    "gl", "sys", "finite", "infinite", "number", "notanumber", "normal", "subnormal", "", "f4e", "b4e", "rc8",
    "ecl", "ecr", "rc16"};
static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
static const char *const cmp_names[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                        "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const bool_names[] = {"", "and", "or", "xor"};

typedef struct out {
    char *buf;
    size_t len, pos;
} out;

/* Appends ".s" (or s first), truncating at the buffer's end. */
static void put(out *o, const char *s)
{
    if (!s || !*s) return;
    if (o->pos && o->pos + 1 < o->len) o->buf[o->pos++] = '.';
    while (*s && o->pos + 1 < o->len) o->buf[o->pos++] = *s++;
    o->buf[o->pos] = '\0';
}

static const char *mode_name(int m) { return m < (int)(sizeof mode_names / sizeof *mode_names) ? mode_names[m] : "?"; }

void ptx_format_opcode(const ptx_instr *in, char *buf, size_t len)
{
    if (!len) return;
    buf[0] = '\0';
    out o = {buf, len, 0};
    uint32_t f = in->flags;
    const char *ty = in->type ? ptx_type_name((ptx_type)in->type) : NULL;
    const char *ty2 = in->type2 ? ptx_type_name((ptx_type)in->type2) : NULL;
    const char *sem = (f & PF_ACQUIRE) && (f & PF_RELEASE) ? "acq_rel"
                      : f & PF_ACQUIRE                     ? "acquire"
                      : f & PF_RELEASE                     ? "release"
                      : f & PF_RELAXED                     ? "relaxed"
                                                           : NULL;
    const char *rnd = in->rnd < 9 ? rnd_names[in->rnd] : "?";
    const char *space = in->space <= PS_PARAM ? ptx_space_name((ptx_space)in->space) : "?";
    switch ((ptx_op)in->op) {
    case OP_LD: case OP_ST:
        put(&o, ptx_op_name((ptx_op)in->op));
        put(&o, f & PF_VOLATILE ? "volatile" : sem);
        put(&o, space);
        put(&o, f & PF_NC ? "nc" : NULL);
        put(&o, in->vec == 2 ? "v2" : in->vec == 4 ? "v4" : NULL);
        put(&o, ty);
        return;
    case OP_ATOM: case OP_RED:
        put(&o, ptx_op_name((ptx_op)in->op));
        put(&o, sem);
        put(&o, space);
        put(&o, mode_name(in->mode));
        put(&o, ty);
        return;
    case OP_CVTA:
        put(&o, "cvta");
        put(&o, f & PF_TO ? "to" : NULL);
        put(&o, space);
        put(&o, ty);
        return;
    case OP_SETP: case OP_SET:
        put(&o, ptx_op_name((ptx_op)in->op));
        put(&o, in->cmp < 19 ? cmp_names[in->cmp] : "?");
        put(&o, in->boolop < 4 ? bool_names[in->boolop] : "?");
        put(&o, f & PF_FTZ ? "ftz" : NULL);
        put(&o, ty);
        put(&o, ty2);
        return;
    case OP_BAR:
        put(&o, f & PF_ALIGNED ? "bar" : "barrier");
        put(&o, mode_name(in->mode));
        put(&o, ty);
        return;
    case OP_BAR_WARP: put(&o, "bar.warp.sync"); return;
    case OP_BRX_IDX: put(&o, "brx.idx"); put(&o, f & PF_UNI ? "uni" : NULL); return;
    case OP_MEMBAR: put(&o, "membar"); put(&o, mode_name(in->mode)); return;
    case OP_FENCE:
        put(&o, "fence");
        put(&o, sem ? sem : "sc");
        put(&o, in->mode == PM_LVL_GL ? "gpu" : mode_name(in->mode));
        return;
    case OP_SHFL: case OP_VOTE:
        put(&o, ptx_op_name((ptx_op)in->op));
        put(&o, "sync");
        put(&o, mode_name(in->mode));
        put(&o, ty);
        return;
    case OP_PRMT:
        put(&o, "prmt");
        put(&o, ty);
        put(&o, in->mode == PM_PRMT_DEFAULT ? NULL : mode_name(in->mode));
        return;
    case OP_SHF:
        put(&o, "shf");
        put(&o, mode_name(in->mode));
        put(&o, f & PF_WRAP ? "wrap" : "clamp");
        put(&o, ty);
        return;
    default:
        put(&o, ptx_op_name((ptx_op)in->op));
        put(&o, in->mode ? mode_name(in->mode) : NULL);
        put(&o, rnd);
        put(&o, f & PF_APPROX ? "approx" : NULL);
        put(&o, f & PF_FULL ? "full" : NULL);
        put(&o, f & PF_SHIFTAMT ? "shiftamt" : NULL);
        put(&o, f & PF_FTZ ? "ftz" : NULL);
        put(&o, f & PF_SAT ? "sat" : NULL);
        put(&o, f & PF_CC ? "cc" : NULL);
        put(&o, f & PF_UNI ? "uni" : NULL);
        put(&o, ty);
        put(&o, ty2);
        return;
    }
}
