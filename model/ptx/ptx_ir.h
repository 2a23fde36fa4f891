/*
 * The in-memory form of a PTX module: what the parser (ptx_parse.c) produces and the SIMT
 * executor (model/simt) runs. Everything is resolved at load time: registers are slots,
 * labels are instruction indices, symbols are indices into the module's or function's
 * symbol table, opcodes and qualifiers are enums. Executing an instruction never looks at text.
 */
#ifndef GTLM_PTX_IR_H
#define GTLM_PTX_IR_H

#include <stddef.h>
#include <stdint.h>

/* ---- types and state spaces ---- */

typedef enum ptx_type {
    PT_NONE = 0,
    PT_PRED,
    PT_B8, PT_B16, PT_B32, PT_B64,
    PT_U8, PT_U16, PT_U32, PT_U64,
    PT_S8, PT_S16, PT_S32, PT_S64,
    PT_F16, PT_F32, PT_F64 /* F16 is parsed for .reg declarations only; arithmetic on it is rejected */
} ptx_type;

typedef enum ptx_space {
    PS_GENERIC = 0, /* no state-space qualifier: a generic address */
    PS_GLOBAL,
    PS_SHARED,
    PS_LOCAL,
    PS_CONST,
    PS_PARAM,  /* kernel parameters, or a function's parameters / call-site scratch */
    PS_REG     /* not a memory space: .reg declarations */
} ptx_space;

/* ---- opcodes ---- */

typedef enum ptx_op {
    OP_INVALID = 0,
    /* integer and floating-point arithmetic */
    OP_ADD, OP_SUB, OP_MUL, OP_MAD, OP_MUL24, OP_MAD24, OP_SAD, OP_DIV, OP_REM, OP_ABS, OP_NEG,
    OP_MIN, OP_MAX, OP_FMA, OP_ADDC, OP_SUBC, OP_MADC,
    OP_RCP, OP_SQRT, OP_RSQRT, OP_EX2, OP_LG2, OP_SIN, OP_COS, OP_TANH, OP_COPYSIGN, OP_TESTP,
    /* bit manipulation */
    OP_POPC, OP_CLZ, OP_BREV, OP_BFIND, OP_BFE, OP_BFI, OP_SHF, OP_PRMT,
    OP_AND, OP_OR, OP_XOR, OP_NOT, OP_CNOT, OP_SHL, OP_SHR,
    /* comparison and selection */
    OP_SETP, OP_SELP, OP_SET, OP_SLCT,
    /* data movement and conversion */
    OP_MOV, OP_CVT, OP_CVTA, OP_LD, OP_ST, OP_ATOM, OP_RED,
    /* control flow */
    OP_BRA, OP_BRX_IDX, OP_CALL, OP_RET, OP_EXIT, OP_TRAP,
    /* synchronisation and warp-level operations */
    OP_BAR, OP_BAR_WARP, OP_MEMBAR, OP_FENCE, OP_SHFL, OP_VOTE, OP_ACTIVEMASK, OP_NANOSLEEP,
    /* gtlm's extension: mov.indirect, Morpheus' register-indexed move (docs/morpheus.md) */
    OP_MOV_INDIRECT,
    OP_COUNT
} ptx_op;

/* Rounding qualifiers (.rn .rz .rm .rp for floats, .rni .rzi .rmi .rpi to integral). */
typedef enum ptx_rnd { PR_NONE = 0, PR_RN, PR_RZ, PR_RM, PR_RP, PR_RNI, PR_RZI, PR_RMI, PR_RPI } ptx_rnd;

/* setp/set comparison operators. */
typedef enum ptx_cmp {
    PC_NONE = 0,
    PC_EQ, PC_NE, PC_LT, PC_LE, PC_GT, PC_GE,     /* signed / ordered */
    PC_LO, PC_LS, PC_HI, PC_HS,                   /* unsigned */
    PC_EQU, PC_NEU, PC_LTU, PC_LEU, PC_GTU, PC_GEU, /* unordered float */
    PC_NUM, PC_NAN
} ptx_cmp;

/* Secondary operation of setp/set (.and/.or/.xor with a predicate operand). */
typedef enum ptx_boolop { PB_NONE = 0, PB_AND, PB_OR, PB_XOR } ptx_boolop;

/* Per-opcode sub-mode, one field shared by the opcodes that need it. */
typedef enum ptx_mode {
    PM_NONE = 0,
    PM_LO, PM_HI, PM_WIDE,                        /* mul, mad, mul24, mad24, madc */
    PM_SHFL_UP, PM_SHFL_DOWN, PM_SHFL_BFLY, PM_SHFL_IDX,
    PM_VOTE_ALL, PM_VOTE_ANY, PM_VOTE_UNI, PM_VOTE_BALLOT,
    PM_ATOM_ADD, PM_ATOM_MIN, PM_ATOM_MAX, PM_ATOM_INC, PM_ATOM_DEC, PM_ATOM_EXCH, PM_ATOM_CAS,
    PM_ATOM_AND, PM_ATOM_OR, PM_ATOM_XOR,
    PM_SHF_L, PM_SHF_R,                           /* shf.l / shf.r */
    PM_BAR_SYNC, PM_BAR_ARRIVE, PM_BAR_RED_POPC, PM_BAR_RED_AND, PM_BAR_RED_OR,
    PM_LVL_CTA, PM_LVL_GL, PM_LVL_SYS,            /* membar / fence level */
    PM_TESTP_FINITE, PM_TESTP_INFINITE, PM_TESTP_NUMBER, PM_TESTP_NOTANUMBER, PM_TESTP_NORMAL, PM_TESTP_SUBNORMAL,
    PM_PRMT_DEFAULT, PM_PRMT_F4E, PM_PRMT_B4E, PM_PRMT_RC8, PM_PRMT_ECL, PM_PRMT_ECR, PM_PRMT_RC16
} ptx_mode;

/* Boolean qualifiers, as bits of ptx_instr.flags. */
enum {
    PF_FTZ = 1u << 0,
    PF_SAT = 1u << 1,
    PF_APPROX = 1u << 2,
    PF_FULL = 1u << 3,
    PF_CC = 1u << 4,       /* .cc: writes the carry flag */
    PF_UNI = 1u << 5,      /* bra.uni, call.uni, ret.uni: the compiler says the branch is uniform */
    PF_NC = 1u << 6,       /* ld.global.nc */
    PF_VOLATILE = 1u << 7,
    PF_WRAP = 1u << 8,     /* shf .wrap (else .clamp) */
    PF_CLAMP = 1u << 9,
    PF_SHIFTAMT = 1u << 10, /* bfind.shiftamt */
    PF_TO = 1u << 11,      /* cvta.to.<space>: generic -> space (else space -> generic) */
    PF_SYNC = 1u << 12,    /* shfl.sync, vote.sync, bar.warp.sync */
    PF_ALIGNED = 1u << 13, /* bar.sync .aligned */
    PF_RELAXED = 1u << 14, /* atom/red/ld/st memory-order qualifiers, recorded only */
    PF_ACQUIRE = 1u << 15,
    PF_RELEASE = 1u << 16,
    PF_NOFTZ = 1u << 17
};

/* ---- operands ---- */

typedef enum ptx_opnd_kind {
    PO_NONE = 0,
    PO_REG,     /* reg: a register slot (predicates too); neg = '!' for predicate operands */
    PO_IMM,     /* imm: integer immediate, or the bit pattern of a float one (0f/0d or decimal) */
    PO_SREG,    /* sreg: special register id, comp: 0..2 for .x/.y/.z */
    PO_SYMBOL,  /* sym: the address of a symbol (in its own state space) used as a value */
    PO_ADDR,    /* [reg + imm] or [sym + imm]: reg is PTX_NO_REG when a symbol is the base.
                 * Parameters are not symbols: [name + off] of a kernel or function parameter
                 * (ld.param/st.param, instruction space PS_PARAM) has reg = PTX_NO_REG,
                 * sym = PTX_NO_SYM and imm = the parameter's offset in the parameter buffer or
                 * frame (ptx_param.offset) + off. [name + off] of a call-site .param scratch
                 * variable has sym = that function symbol (space PS_PARAM) and imm = off. */
    PO_VEC,     /* {r0, r1, ...}: vec[] register slots, vec_n of them (PTX_NO_REG for a '_' sink) */
    PO_LABEL,   /* imm = target instruction index (n_instrs for a label at the end of the function) */
    PO_FUNC,    /* imm = function index in the module */
    PO_RARRAY   /* {r0, ..., rN-1}[idx] of mov.indirect: reg = the index register; the array's
                 * register slots are the instruction's rarray (n_targets of them) */
} ptx_opnd_kind;

#define PTX_NO_REG UINT32_MAX
#define PTX_NO_SYM (-1)

typedef enum ptx_sreg {
    SR_TID = 1, SR_NTID, SR_CTAID, SR_NCTAID, /* with comp 0..2 */
    SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
    SR_CLOCK, SR_CLOCK64, SR_GLOBALTIMER,
    SR_LANEMASK_EQ, SR_LANEMASK_LT, SR_LANEMASK_LE, SR_LANEMASK_GT, SR_LANEMASK_GE,
    SR_DYNAMIC_SMEM_SIZE, SR_TOTAL_SMEM_SIZE
} ptx_sreg;

/* 32 bytes (a module holds 2.6 per instruction on average): a vector's registers share their storage with
 * sym and imm, which only other kinds use. Read vec only of a PO_VEC operand (below vec_n),
 * sym and imm only of the other kinds. */
typedef struct ptx_operand {
    uint8_t kind;   /* ptx_opnd_kind */
    uint8_t neg;    /* '!' before a predicate operand */
    uint8_t comp;   /* special-register component */
    uint8_t vec_n;  /* PO_VEC: element count (1..4) */
    uint32_t reg;   /* PO_REG / PO_ADDR base register, else PTX_NO_REG */
    uint32_t reg2;  /* second destination of "d|p" (shfl, setp): PTX_NO_REG when absent */
    uint16_t sreg;  /* PO_SREG: ptx_sreg */
    union {
        struct {
            int32_t sym; /* PO_SYMBOL / PO_ADDR symbol, else PTX_NO_SYM; see ptx_symbol_ref */
            int64_t imm; /* immediate value / address offset / label pc / function index */
        };
        uint32_t vec[4]; /* PO_VEC: vec_n register slots */
    };
} ptx_operand;

/* ---- symbols (variables of every state space but .reg) ---- */

typedef struct ptx_symbol {
    char *name;
    uint8_t space;        /* ptx_space */
    uint8_t type;         /* element ptx_type */
    uint8_t is_extern;    /* .extern (dynamic shared memory, or defined elsewhere) */
    uint8_t is_visible;
    uint32_t align;       /* bytes */
    uint64_t elem_count;  /* 1 for scalars; array length; 0 for an unsized extern array */
    uint64_t size;        /* bytes = elem_count * type size (or the declared byte count) */
    uint64_t offset;      /* assigned by layout: offset inside its space's area (see below) */
    uint8_t *init;        /* initial bytes (size bytes) or NULL for zero / uninitialised */
    uint32_t line, col;
} ptx_symbol;

/* Symbol references in operands: a non-negative sym indexes the function's own symbols
 * (ptx_func.syms); a negative one below PTX_NO_SYM, -(i + 2), indexes the module's
 * (ptx_module.syms). */
#define PTX_MODULE_SYM(i) (-(int32_t)(i) - 2)
#define PTX_IS_MODULE_SYM(s) ((s) <= -2)
#define PTX_MODULE_SYM_INDEX(s) ((uint32_t)(-(s) - 2))

/* ---- instructions ---- */

#define PTX_MAX_OPNDS 6
#define PTX_MAX_REGS_PER_INSTR 12

/* 88 bytes. A module holds millions of these (1.6 M in a 52 MB file), so the operands and the
 * register lists are not inline: o, src and dst point into the function's pools (ptx_func
 * opnd_pool and reg_pool), nopnd, nsrc and ndst long. Code that builds an instruction by hand
 * (trace-driven warps, tables, tests) gives it storage with ptx_instr_buf. Copying a ptx_instr
 * copies the pointers, not the operands. */
typedef struct ptx_instr {
    uint16_t op;      /* ptx_op */
    uint8_t type;     /* main ptx_type (destination type for cvt) */
    uint8_t type2;    /* cvt source type; setp/set/slct/selp second type where given */
    uint8_t space;    /* ptx_space for ld/st/atom/red/cvta; PS_GENERIC when absent */
    uint8_t rnd;      /* ptx_rnd */
    uint8_t cmp;      /* ptx_cmp */
    uint8_t boolop;   /* ptx_boolop */
    uint8_t mode;     /* ptx_mode */
    uint8_t vec;      /* 1, 2 or 4 (ld/st .v2/.v4) */
    uint8_t nopnd;
    uint8_t guard_neg;   /* @!%p */
    uint32_t guard;      /* predicate register slot, PTX_NO_REG when unguarded */
    uint32_t flags;      /* PF_* bits */
    /* Registers the instruction reads and writes (slots, each listed once; the guard, address
     * base registers and every register of a non-destination operand, e.g. all of st's and
     * red's, count as sources; '_' sinks are left out), for the scoreboard, register-file
     * banks and register liveness. At most PTX_MAX_REGS_PER_INSTR each. */
    uint8_t nsrc, ndst;
    uint16_t n_call_args;
    uint16_t n_targets;
    int32_t call_ret;    /* PTX_NO_SYM when the callee returns nothing */

    ptx_operand *o;      /* nopnd operands in PTX order: destination(s) first */
    uint32_t *src, *dst;

    /* call: callee in o[0] as PO_FUNC (nopnd = 1); the argument and return symbols (call-site
     * .param scratch of the calling function, as symbol references) are listed here. */
    int32_t *call_args;
    /* brx.idx: the candidate labels' instruction indices (from its .branchtargets list); the
     * index is its only operand, o[0] (nopnd = 1). mov.indirect: its register array's slots
     * (rarray, n_targets of them; malloc'd like targets). */
    union {
        uint32_t *targets;
        uint32_t *rarray;
    };

    /* Control flow, filled by ptx_cfg.c: for a branch (bra, brx.idx), the instruction index
     * where its divergent paths meet again (the immediate post-dominator's first instruction,
     * or ptx_func.n_instrs for the virtual exit). n_instrs for every other instruction. */
    uint32_t reconv_pc;

    uint32_t line, col; /* source position of the instruction's first token */
} ptx_instr;

/* An instruction with room for every operand and register of its own. */
typedef struct ptx_instr_buf {
    ptx_instr in;
    ptx_operand o[PTX_MAX_OPNDS];
    uint32_t regs[2 * PTX_MAX_REGS_PER_INSTR];
} ptx_instr_buf;

/* Zeroes b, as the parser starts an instruction (no guard, empty operands, vec 1), and points
 * b->in at b's storage; returns &b->in. */
ptx_instr *ptx_instr_buf_init(ptx_instr_buf *b);
/* Empties an operand: PO_NONE, no register, no symbol. */
void ptx_operand_clear(ptx_operand *o);

/* ---- functions and the module ---- */

typedef struct ptx_reg {
    char *name;        /* "%r12" (after range expansion), "%temp"; in ptx_func.reg_names */
    uint8_t type;      /* declared ptx_type */
} ptx_reg;

/* Storage of a function's register names, many to an allocation (a module declares about one
 * register per 30 bytes of text, and "%r<100>" is 100 names). */
typedef struct ptx_name_block {
    struct ptx_name_block *next;
    size_t used, cap;
    char text[];
} ptx_name_block;

typedef struct ptx_param {
    char *name;
    uint8_t type;      /* element type */
    uint32_t align;
    uint64_t size;     /* bytes */
    uint64_t offset;   /* in the kernel's parameter buffer, or the function's parameter frame */
} ptx_param;

typedef struct ptx_block {
    uint32_t start, end; /* instruction range [start, end) */
    uint32_t nsucc;
    uint32_t succ[2];    /* successor blocks; UINT32_MAX stands for the virtual exit */
    uint32_t *succ_more; /* brx.idx may have more than two successors: all of them here when nsucc > 2 */
    uint32_t ipdom;      /* immediate post-dominator block, UINT32_MAX = virtual exit */
} ptx_block;

typedef struct ptx_func {
    char *name;
    uint8_t is_entry;    /* .entry (kernel) or .func */
    uint8_t is_extern;   /* declared only (e.g. vprintf): calling it is an error at load */
    uint8_t is_visible;
    ptx_param *params;   /* kernel parameters or function parameters, in order */
    uint32_t n_params;
    ptx_param *rets;     /* function return parameters (0 or 1 in nvcc output) */
    uint32_t n_rets;
    uint64_t param_bytes;/* size of the parameter buffer / frame (params then returns) */

    ptx_reg *regs;       /* every register slot; scoped re-declarations get new slots */
    uint32_t n_regs;
    ptx_name_block *reg_names; /* the regs' names */
    ptx_symbol *syms;    /* function-scope .shared/.local symbols and call-site .param scratch */
    uint32_t n_syms;
    uint64_t local_bytes;  /* per-thread .local area (depots), laid out by ptx_layout */
    uint64_t scratch_bytes;/* per-thread call-site .param scratch area */

    ptx_instr *instrs;
    uint32_t n_instrs;
    ptx_operand *opnd_pool; /* every instruction's operands, in instruction order */
    uint32_t *reg_pool;     /* every instruction's src then dst registers */
    ptx_block *blocks;
    uint32_t n_blocks;
    uint32_t *block_of;  /* instruction index -> block index */

    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg; /* 0 when not given */
    uint32_t line, col;
} ptx_func;

typedef struct ptx_module {
    char *name;          /* the file name or the name given at load, for messages */
    uint32_t version_major, version_minor;
    char target[32];     /* "sm_75" */
    uint32_t address_size;

    ptx_func *funcs;
    uint32_t n_funcs;
    ptx_symbol *syms;    /* module-scope .global/.const/.shared symbols */
    uint32_t n_syms;

    /* Layout of module-scope data, by ptx_layout: .const symbols in one bank, .global
     * symbols in one block (placed in device memory by the loader), static .shared symbols
     * at the start of every CTA's shared memory, dynamic (.extern) shared after them. */
    uint64_t const_bytes;
    uint64_t global_bytes;
    uint64_t shared_static_bytes; /* module-scope statics; function-scope ones are added per kernel */
} ptx_module;

/* Size in bytes of a type (0 for PT_NONE, 1 for PT_PRED as stored in memory). */
unsigned ptx_type_size(ptx_type t);
int ptx_type_is_float(ptx_type t);
int ptx_type_is_signed(ptx_type t);
const char *ptx_type_name(ptx_type t);   /* "u32" */
const char *ptx_op_name(ptx_op op);      /* "add" */
const char *ptx_space_name(ptx_space s); /* "global", "" for generic */

/* The symbol an operand refers to, from the function or the module. */
const ptx_symbol *ptx_symbol_ref(const ptx_module *m, const ptx_func *f, int32_t sym);
const ptx_func *ptx_module_find_func(const ptx_module *m, const char *name);

/* Shared memory a kernel needs before the dynamic part: module statics plus every
 * function-scope .shared symbol of the kernel and the functions it calls. */
uint64_t ptx_kernel_static_shared(const ptx_module *m, const ptx_func *kernel);

/* Writes "name.ptx:LINE (pc N: add.s32)" style descriptions of an instruction. */
void ptx_describe_instr(const ptx_module *m, const ptx_func *f, uint32_t pc, char *buf, size_t len);

void ptx_module_free(ptx_module *m);

#endif
