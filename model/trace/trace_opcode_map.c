/*
 * The SASS opcode map: base name -> class (and memory space) per GPU family. Facts from NVIDIA's
 * CUDA binary utilities instruction-set tables and Accel-Sim's ISA_Def opcode maps; the gtlm
 * choices are listed in trace_opcodes.h.
 */
#include "trace_opcodes.h"

#include <stdlib.h>
#include <string.h>

#include "../ptx/ptx_ir.h"

enum { FP = 1, FV = 2, FT = 4, FA = 8, FH = 16 }; /* Pascal, Volta, Turing, Ampere/Ada, Hopper */
#define ALL (FP | FV | FT | FA | FH)
#define VUP (FV | FT | FA | FH) /* Volta and later */
#define TUP (FT | FA | FH)      /* Turing and later (uniform datapath) */
#define AUP (FA | FH)           /* Ampere and later */

typedef struct op_entry {
    const char *base;
    uint8_t cls, space, families;
} op_entry;

static const op_entry op_map[] = {
    /* single precision and half precision */
    {"FADD", TOC_SP, 0, ALL}, {"FADD32I", TOC_SP, 0, ALL}, {"FCHK", TOC_SP, 0, ALL},
    {"FFMA", TOC_SP, 0, ALL}, {"FFMA32I", TOC_SP, 0, ALL}, {"FMNMX", TOC_SP, 0, ALL},
    {"FMUL", TOC_SP, 0, ALL}, {"FMUL32I", TOC_SP, 0, ALL}, {"FSEL", TOC_SP, 0, ALL},
    {"FSET", TOC_SP, 0, ALL}, {"FSETP", TOC_SP, 0, ALL}, {"FSWZADD", TOC_SP, 0, ALL},
    {"RRO", TOC_SP, 0, FP}, {"FCMP", TOC_SP, 0, FP},
    {"HADD2", TOC_SP, 0, ALL}, {"HADD2_32I", TOC_SP, 0, ALL}, {"HFMA2", TOC_SP, 0, ALL},
    {"HFMA2_32I", TOC_SP, 0, ALL}, {"HMUL2", TOC_SP, 0, ALL}, {"HMUL2_32I", TOC_SP, 0, ALL},
    {"HSET2", TOC_SP, 0, ALL}, {"HSETP2", TOC_SP, 0, ALL}, {"HMNMX2", TOC_SP, 0, AUP},
    /* double precision */
    {"DADD", TOC_DP, 0, ALL}, {"DFMA", TOC_DP, 0, ALL}, {"DMUL", TOC_DP, 0, ALL},
    {"DSETP", TOC_DP, 0, ALL}, {"DMNMX", TOC_DP, 0, FP}, {"DSET", TOC_DP, 0, FP},
    /* special functions */
    {"MUFU", TOC_SFU, 0, ALL},
    /* tensor cores */
    {"HMMA", TOC_TENSOR, 0, VUP}, {"IMMA", TOC_TENSOR, 0, TUP}, {"BMMA", TOC_TENSOR, 0, TUP},
    {"DMMA", TOC_TENSOR, 0, AUP}, {"HGMMA", TOC_TENSOR, 0, FH}, {"IGMMA", TOC_TENSOR, 0, FH},
    {"QGMMA", TOC_TENSOR, 0, FH}, {"BGMMA", TOC_TENSOR, 0, FH},
    /* integer */
    {"BMSK", TOC_INT, 0, ALL}, {"BREV", TOC_INT, 0, ALL}, {"FLO", TOC_INT, 0, ALL},
    {"IABS", TOC_INT, 0, ALL}, {"IADD", TOC_INT, 0, ALL}, {"IADD3", TOC_INT, 0, ALL},
    {"IADD32I", TOC_INT, 0, ALL}, {"IDP", TOC_INT, 0, ALL}, {"IDP4A", TOC_INT, 0, ALL},
    {"IMAD", TOC_INT, 0, ALL}, {"IMNMX", TOC_INT, 0, ALL}, {"IMUL", TOC_INT, 0, ALL},
    {"IMUL32I", TOC_INT, 0, ALL}, {"ISCADD", TOC_INT, 0, ALL}, {"ISCADD32I", TOC_INT, 0, ALL},
    {"ISETP", TOC_INT, 0, ALL}, {"LEA", TOC_INT, 0, ALL}, {"LOP", TOC_INT, 0, ALL},
    {"LOP3", TOC_INT, 0, ALL}, {"LOP32I", TOC_INT, 0, ALL}, {"POPC", TOC_INT, 0, ALL},
    {"SHF", TOC_INT, 0, ALL}, {"SHL", TOC_INT, 0, ALL}, {"SHR", TOC_INT, 0, ALL},
    {"VABSDIFF", TOC_INT, 0, ALL}, {"VABSDIFF4", TOC_INT, 0, ALL},
    {"XMAD", TOC_INT, 0, FP}, {"IMADSP", TOC_INT, 0, FP}, {"BFE", TOC_INT, 0, FP},
    {"BFI", TOC_INT, 0, FP}, {"ICMP", TOC_INT, 0, FP}, {"ISET", TOC_INT, 0, FP},
    {"VADD", TOC_INT, 0, FP}, {"VMNMX", TOC_INT, 0, FP},
    {"VIADD", TOC_INT, 0, FH}, {"VIADDMNMX", TOC_INT, 0, FH}, {"VIMNMX", TOC_INT, 0, FH},
    {"VIMNMX3", TOC_INT, 0, FH},
    /* conversions and moves (integer pipeline, as Accel-Sim's ALU_OP) */
    {"F2F", TOC_INT, 0, ALL}, {"F2I", TOC_INT, 0, ALL}, {"I2F", TOC_INT, 0, ALL},
    {"I2I", TOC_INT, 0, ALL}, {"I2IP", TOC_INT, 0, ALL}, {"FRND", TOC_INT, 0, ALL},
    {"F2FP", TOC_INT, 0, AUP}, {"I2FP", TOC_INT, 0, AUP}, {"F2IP", TOC_INT, 0, AUP},
    {"MOV", TOC_INT, 0, ALL}, {"MOV32I", TOC_INT, 0, ALL}, {"MOVM", TOC_INT, 0, TUP},
    {"PRMT", TOC_INT, 0, ALL}, {"SEL", TOC_INT, 0, ALL}, {"SGXT", TOC_INT, 0, ALL},
    {"SHFL", TOC_INT, 0, ALL},
    /* predicates */
    {"PLOP3", TOC_INT, 0, ALL}, {"PSETP", TOC_INT, 0, ALL}, {"P2R", TOC_INT, 0, ALL},
    {"R2P", TOC_INT, 0, ALL}, {"CSET", TOC_INT, 0, FP}, {"CSETP", TOC_INT, 0, FP},
    {"PSET", TOC_INT, 0, FP},
    /* uniform datapath (Turing and later) */
    {"R2UR", TOC_INT, 0, TUP}, {"S2UR", TOC_INT, 0, TUP}, {"REDUX", TOC_INT, 0, AUP},
    {"UBMSK", TOC_INT, 0, TUP}, {"UBREV", TOC_INT, 0, TUP}, {"UCLEA", TOC_INT, 0, TUP},
    {"UF2FP", TOC_INT, 0, TUP}, {"UFLO", TOC_INT, 0, TUP}, {"UIADD3", TOC_INT, 0, TUP},
    {"UIMAD", TOC_INT, 0, TUP}, {"UISETP", TOC_INT, 0, TUP}, {"ULDC", TOC_INT, 0, TUP},
    {"ULEA", TOC_INT, 0, TUP}, {"ULOP", TOC_INT, 0, TUP}, {"ULOP3", TOC_INT, 0, TUP},
    {"ULOP32I", TOC_INT, 0, TUP}, {"UMOV", TOC_INT, 0, TUP}, {"UP2UR", TOC_INT, 0, TUP},
    {"UPLOP3", TOC_INT, 0, TUP}, {"UPOPC", TOC_INT, 0, TUP}, {"UPRMT", TOC_INT, 0, TUP},
    {"UPSETP", TOC_INT, 0, TUP}, {"UR2UP", TOC_INT, 0, TUP}, {"USEL", TOC_INT, 0, TUP},
    {"USGXT", TOC_INT, 0, TUP}, {"USHF", TOC_INT, 0, TUP}, {"USHL", TOC_INT, 0, TUP},
    {"USHR", TOC_INT, 0, TUP}, {"VOTEU", TOC_INT, 0, TUP},
    /* loads, stores, atomics */
    {"LD", TOC_LOAD, PS_GENERIC, ALL}, {"LDG", TOC_LOAD, PS_GLOBAL, ALL},
    {"LDL", TOC_LOAD, PS_LOCAL, ALL}, {"LDS", TOC_LOAD, PS_SHARED, ALL},
    {"LDSM", TOC_LOAD, PS_SHARED, TUP}, {"LDGSTS", TOC_LOAD, PS_GLOBAL, AUP},
    {"LDC", TOC_INT, 0, ALL},
    {"ST", TOC_STORE, PS_GENERIC, ALL}, {"STG", TOC_STORE, PS_GLOBAL, ALL},
    {"STL", TOC_STORE, PS_LOCAL, ALL}, {"STS", TOC_STORE, PS_SHARED, ALL},
    {"ATOM", TOC_ATOMIC, PS_GENERIC, ALL}, {"ATOMG", TOC_ATOMIC, PS_GLOBAL, ALL},
    {"ATOMS", TOC_ATOMIC, PS_SHARED, ALL}, {"RED", TOC_ATOMIC, PS_GENERIC, ALL},
    /* cache control, error barriers, dependency barriers: integer pipeline */
    {"CCTL", TOC_INT, 0, ALL}, {"CCTLL", TOC_INT, 0, ALL}, {"CCTLT", TOC_INT, 0, ALL},
    {"ERRBAR", TOC_INT, 0, ALL}, {"CGAERRBAR", TOC_INT, 0, FH}, {"DEPBAR", TOC_INT, 0, ALL},
    {"LDGDEPBAR", TOC_INT, 0, AUP}, {"MATCH", TOC_INT, 0, ALL}, {"QSPC", TOC_INT, 0, ALL},
    {"SYNCS", TOC_INT, 0, FH}, {"ARRIVES", TOC_INT, 0, FH},
    /* textures and surfaces (no addresses in traces) */
    {"TEX", TOC_INT, 0, ALL}, {"TLD", TOC_INT, 0, ALL}, {"TLD4", TOC_INT, 0, ALL},
    {"TMML", TOC_INT, 0, ALL}, {"TXD", TOC_INT, 0, ALL}, {"TXQ", TOC_INT, 0, ALL},
    {"TEXS", TOC_INT, 0, FP}, {"TLD4S", TOC_INT, 0, FP}, {"TLDS", TOC_INT, 0, FP},
    {"SUATOM", TOC_INT, 0, ALL}, {"SULD", TOC_INT, 0, ALL}, {"SUQUERY", TOC_INT, 0, ALL},
    {"SURED", TOC_INT, 0, ALL}, {"SUST", TOC_INT, 0, ALL},
    /* barriers */
    {"BAR", TOC_BARRIER, 0, ALL}, {"MEMBAR", TOC_MEMBAR, 0, ALL}, {"FENCE", TOC_MEMBAR, 0, FH},
    /* control flow */
    {"BMOV", TOC_BRANCH, 0, ALL}, {"BPT", TOC_BRANCH, 0, ALL}, {"BRA", TOC_BRANCH, 0, ALL},
    {"BREAK", TOC_BRANCH, 0, ALL}, {"BRX", TOC_BRANCH, 0, ALL}, {"BRXU", TOC_BRANCH, 0, TUP},
    {"BSSY", TOC_BRANCH, 0, ALL}, {"BSYNC", TOC_BRANCH, 0, ALL}, {"CALL", TOC_BRANCH, 0, ALL},
    {"JMP", TOC_BRANCH, 0, ALL}, {"JMX", TOC_BRANCH, 0, ALL}, {"JMXU", TOC_BRANCH, 0, TUP},
    {"KILL", TOC_BRANCH, 0, ALL}, {"NANOSLEEP", TOC_BRANCH, 0, ALL}, {"RET", TOC_BRANCH, 0, ALL},
    {"RPCMOV", TOC_BRANCH, 0, ALL}, {"RTT", TOC_BRANCH, 0, ALL}, {"WARPSYNC", TOC_BRANCH, 0, ALL},
    {"YIELD", TOC_BRANCH, 0, ALL}, {"ELECT", TOC_BRANCH, 0, FH},
    {"SSY", TOC_BRANCH, 0, FP}, {"SYNC", TOC_BRANCH, 0, FP}, {"CAL", TOC_BRANCH, 0, FP},
    {"JCAL", TOC_BRANCH, 0, FP}, {"PRET", TOC_BRANCH, 0, FP}, {"BRK", TOC_BRANCH, 0, FP},
    {"PBK", TOC_BRANCH, 0, FP}, {"CONT", TOC_BRANCH, 0, FP}, {"PCNT", TOC_BRANCH, 0, FP},
    {"PEXIT", TOC_BRANCH, 0, FP},
    {"EXIT", TOC_EXIT, 0, ALL},
    /* miscellaneous */
    {"B2R", TOC_INT, 0, ALL}, {"CS2R", TOC_INT, 0, ALL}, {"CSMTEST", TOC_INT, 0, ALL},
    {"GETLMEMBASE", TOC_INT, 0, ALL}, {"LEPC", TOC_INT, 0, ALL}, {"PMTRIG", TOC_INT, 0, ALL},
    {"R2B", TOC_INT, 0, ALL}, {"S2R", TOC_INT, 0, ALL}, {"SETCTAID", TOC_INT, 0, ALL},
    {"SETLMEMBASE", TOC_INT, 0, ALL}, {"VOTE", TOC_INT, 0, ALL}, {"VOTE_VTG", TOC_INT, 0, ALL},
    {"NOP", TOC_NOP, 0, ALL}, {"WARPGROUP", TOC_NOP, 0, FH}, {"USETMAXREG", TOC_NOP, 0, FH},
    {"UCGABAR_ARV", TOC_NOP, 0, FH}, {"UCGABAR_WAIT", TOC_NOP, 0, FH},
};

int trace_opcode_family(uint32_t v)
{
    if (v >= 60 && v < 70) return 0;
    if (v >= 70 && v < 75) return 1;
    if (v >= 75 && v < 80) return 2;
    if (v >= 80 && v < 90) return 3;
    if (v == 90) return 4;
    return -1;
}

int trace_op_is_memory(int cls) { return cls == TOC_LOAD || cls == TOC_STORE || cls == TOC_ATOMIC; }

const char *trace_op_class_name(int cls)
{
    static const char *const names[TOC_N] = {"int",     "sp",     "dp",     "sfu",    "tensor", "load", "store",
                                             "atomic",  "barrier", "membar", "branch", "exit",   "nop"};
    return cls >= 0 && cls < TOC_N ? names[cls] : "?";
}

/* Bytes per lane named by one modifier: ".U8"/".S8" 1, ".U16"/".S16"/".16" 2, ".32" 4, ".64" 8,
 * ".128" 16; 0 for anything else (".E", ".SYS", ".LTC128B", ".F32", ...). */
static int modifier_width(const char *m, size_t len)
{
    if (len > 1 && (m[0] == 'U' || m[0] == 'S')) m++, len--;
    else if (len == 0 || m[0] < '0' || m[0] > '9') return 0;
    char buf[8];
    if (len >= sizeof buf) return 0;
    memcpy(buf, m, len);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (buf[i] < '0' || buf[i] > '9') return 0;
    int bits = atoi(buf);
    return bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128 ? bits / 8 : 0;
}

int trace_opcode_classify(const char *opcode, uint32_t binary_version, trace_op_info *out)
{
    memset(out, 0, sizeof *out);
    int fam = trace_opcode_family(binary_version);
    if (fam < 0 || !opcode) return -1;
    size_t blen = strcspn(opcode, ".");
    const op_entry *e = NULL;
    for (size_t i = 0; i < sizeof op_map / sizeof op_map[0]; i++)
        if (strlen(op_map[i].base) == blen && memcmp(op_map[i].base, opcode, blen) == 0) {
            if (op_map[i].families & (1u << fam)) e = &op_map[i];
            break;
        }
    if (!e) return -1;
    out->cls = e->cls;
    out->space = e->space;
    if (!trace_op_is_memory(e->cls)) return 0;
    if (strcmp(e->base, "LDSM") == 0) {
        out->width = 16; /* each lane names one 16-byte row of an 8x8 16-bit matrix */
        return 0;
    }
    /* The first modifier that names a size wins ("LDG.E.128.CONSTANT", "STG.E.U16"). */
    for (const char *m = opcode + blen; *m == '.';) {
        m++;
        size_t len = strcspn(m, ".");
        int w = modifier_width(m, len);
        if (w) {
            out->width = (uint8_t)w;
            break;
        }
        m += len;
    }
    return 0;
}
