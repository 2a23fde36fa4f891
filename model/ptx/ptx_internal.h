/*
 * State and helpers shared by the parser's files (ptx_parse_*.c). Not part of the API.
 *
 * Parsing is one pass over a window of tokens (ptx_parse_window.c). Names are resolved through hash maps:
 * registers and function-scope symbols through scoped maps (a declaration in an inner
 * { } block shadows an outer one until its '}', via an undo log), labels per function,
 * functions and module symbols per module. Forward references (labels, callees) are
 * recorded and resolved at the end of the function or module.
 */
#ifndef GTLM_PTX_INTERNAL_H
#define GTLM_PTX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"
#include "ptx_ir.h"
#include "ptx_lex.h"
#include "ptx_map.h"

#define PP_MAX_ERRORS 20
#define PP_MAX_WARNINGS 50
/* Bounds on what one file may ask for, so that hostile input cannot exhaust memory. */
#define PP_MAX_REGS (1u << 20)       /* registers per function (nvcc's biggest have thousands) */
#define PP_MAX_ARRAY (1ull << 32)    /* bytes of one variable */
#define PP_MAX_INIT (1ull << 26)     /* bytes of one initialised variable (stored in the module) */
#define PP_MAX_KERNEL_PARAMS 32764u  /* bytes of a kernel's parameters: CUDA's limit */

typedef struct pp_undo {   /* a scoped binding to restore at '}' */
    ptx_map *map;
    const char *key;
    uint32_t klen;
    int64_t old;           /* -1: the name was unbound */
} pp_undo;

typedef struct pp_label {  /* a label definition */
    uint32_t pc, tok;
} pp_label;

typedef struct pp_use {    /* a reference to resolve later: label, branch-target list or callee */
    uint32_t func, pc, tok;
    uint8_t opnd;
    ptx_tok tk;            /* the token itself, for what is resolved after its window is gone */
} pp_use;

typedef struct pp_btlist { /* $L: .branchtargets $L1, $L2; -> tokens of the labels */
    uint32_t tok, first, n;
} pp_btlist;

/* The function being parsed. */
typedef struct pp_func {
    uint32_t fi;                 /* index in m->funcs */
    size_t cap_regs, cap_syms, cap_instrs;
    ptx_map regs, syms, params, labels, btargets;
    pp_undo *undo;
    size_t n_undo, cap_undo;
    size_t *marks;               /* undo-log length at each open '{' */
    size_t depth, cap_marks;
    pp_label *ldefs;
    size_t n_ldefs, cap_ldefs;
    pp_use *luses, *buses;       /* label operands; brx.idx list operands */
    size_t n_luses, cap_luses, n_buses, cap_buses;
    pp_btlist *bts;
    size_t n_bts, cap_bts;
    uint32_t *bt_toks;
    size_t n_bt_toks, cap_bt_toks;
    ptx_instr_buf cur;           /* the instruction being parsed: its operands and registers */
    size_t n_opnds, cap_opnds, n_pregs, cap_pregs; /* the function's pools (ptx_func) */
} pp_func;

typedef struct pp {
    const char *name;            /* for messages */
    const char *src;
    /* The token window (ptx_parse_window.c): the tokens from a module-scope statement on to a
     * later one; token indices and pointers hold until the next pp_window_refill. */
    ptx_tok *tok;
    size_t ntok, pos, lim;       /* tokens at or after lim are not part of the current statement */
    ptx_toks lines;              /* the line table of everything lexed (lines.t unused) */
    const ptx_toks *toks;        /* &lines: positions */
    ptx_lexer lx;
    size_t cap_tok, last_b;      /* last_b: the window's last module-statement start (has_b) */
    int has_b, lex_done, may_extend;
    size_t scan_depth;           /* '{' depth after the last token lexed */
    int scan_after_end;          /* the last token lexed ended a statement at depth 0 */
    strbuf *err, *warn;
    unsigned nerr, nwarn;
    int stop;                    /* too many errors, or out of memory */
    int oom;
    ptx_module *m;
    size_t cap_funcs, cap_msyms;
    ptx_map funcs, msyms, all_labels, warned;
    pp_use *calls, *lost_labels; /* callees to resolve; labels not found in their function */
    size_t n_calls, cap_calls, n_lost, cap_lost;
    pp_func f;
} pp;

/* ---- ptx_parse_util.c ---- */
void pp_error_at(pp *p, uint32_t line, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void pp_error(pp *p, const ptx_tok *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void pp_warn(pp *p, const ptx_tok *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void pp_oom(pp *p);
/* Grows *arr to hold need elements; on failure reports out of memory and returns -1. */
int pp_grow(pp *p, void **arr, size_t *cap, size_t need, size_t elem);
#define PP_GROW(p, arr, cap, need) pp_grow((p), (void **)&(arr), &(cap), (need), sizeof *(arr))
char *pp_strndup(pp *p, const char *s, size_t n);

const ptx_tok *pp_peek(const pp *p);
const ptx_tok *pp_peek2(const pp *p);          /* the token after pp_peek */
const ptx_tok *pp_next(pp *p);                 /* returns the current token and advances */
int pp_at_end(const pp *p);                    /* at the statement limit */
const char *pp_text(const pp *p, const ptx_tok *t);
int pp_is(const ptx_tok *t, char punct);
int pp_is_word(const pp *p, const ptx_tok *t, const char *word);
int pp_accept(pp *p, char punct);
/* Expects a punctuation character; reports "expected 'c' <ctx>, got ..." when absent. */
int pp_expect(pp *p, char punct, const char *ctx);
/* Describes a token for messages: "'text'", "end of file", "an unterminated comment". */
void pp_describe(const pp *p, const ptx_tok *t, char *buf, size_t len);
uint32_t pp_tok_index(const pp *p, const ptx_tok *t);
uint32_t pp_line(const pp *p, const ptx_tok *t); /* 1-based position of t's first byte */
uint32_t pp_col(const pp *p, const ptx_tok *t);
int pp_same_line(const pp *p, const ptx_tok *a, const ptx_tok *b);
/* Skips to just after the next ';' (or before a '}' closing the enclosing block, or EOF). */
void pp_skip_statement(pp *p);
/* Index of the token that ends the statement whose opcode is at index first: its ';', or the
 * token where a ';' is evidently missing (*missing set). no_operands: the opcode takes none,
 * so a new line right after it starts the next statement. */
size_t pp_statement_end(const pp *p, size_t first, int no_operands, int *missing);
/* The statement's source text from token first to last, whitespace collapsed, for messages. */
void pp_statement_text(const pp *p, size_t first, size_t last, char *buf, size_t len);
/* Reads an unsigned decimal/hex integer token (no sign) into *v. */
int pp_uint(pp *p, uint64_t *v, const char *what);
int pp_is_ident(const char *s, size_t n, int allow_percent);

/* ---- ptx_parse_window.c: the token window ---- */
int pp_window_init(pp *p, const char *text, size_t len); /* -1: too large or out of memory */
/* Before each module-scope statement: makes sure the window holds it whole (and a few tokens
 * beyond). May move the tokens: indices and pointers from before do not hold. 0, or -1 (OOM). */
int pp_window_refill(pp *p);
/* Drops the tokens before pos and lexes on: for pp_skip_statement at the sentinel, when
 * may_extend (no token pointer or index from before is used after it). 0, or -1 (OOM). */
int pp_window_extend(pp *p);
/* pp_skip_statement for a module-scope statement whose caller keeps no token: it may run
 * past the window's end. */
void pp_skip_module_statement(pp *p);
void pp_window_free(pp *p);

/* ---- ptx_parse_scope.c: scoped name tables ---- */
void pp_func_begin(pp *p, uint32_t fi);
void pp_func_end(pp *p);                        /* frees the per-function tables */
int pp_scope_open(pp *p);
void pp_scope_close(pp *p);
/* Binds name (owned by the module) to val in the current scope; -1 and an error when it is
 * already bound in this scope. */
int pp_bind(pp *p, ptx_map *map, const char *name, int64_t val, const ptx_tok *at, const char *what);
int64_t pp_lookup(const ptx_map *map, const char *s, size_t n); /* slot, or -1 */

/* ---- ptx_parse_decl.c ---- */
void pp_reg_decl(pp *p);
/* A variable declaration; the directive has been read. module: module scope; space: PS_*. */
void pp_var_decl(pp *p, int module, ptx_space space, int is_extern, int is_visible);
/* A parameter list from '(' to ')'. On failure *out holds the *n parameters read so far. */
int pp_param_list(pp *p, ptx_param **out, uint32_t *n);

/* ---- ptx_parse_func.c ---- */
/* Skips an ignored directive (.loc, .file, .section, ...): the rest of its line, a ';', and at
 * module scope (block set) a { } block that follows, as .section has. Warns once per name. */
void pp_skip_directive(pp *p, int block);
/* A function after its .entry/.func directive: signature, then a body or ';'. */
void pp_function(pp *p, int is_entry, int is_extern, int is_visible);

/* ---- ptx_parse_instr.c ---- */
void pp_instruction(pp *p);
ptx_instr *pp_new_instr(pp *p);  /* its o, src and dst are the scratch p->f.cur until committed */
/* Appends a finished instruction's operands and registers to the function's pools. */
void pp_commit_instr(pp *p, ptx_instr *in);
/* At the end of the function: fits the pools and points every instruction into them. */
void pp_finish_instrs(pp *p);

/* ---- ptx_parse_operand.c ---- */
int pp_operand(pp *p, ptx_instr *in, unsigned k, char kind);
/* Operand k's registers against the instruction's type (ptx_typecheck.c); reports at t. */
int pp_check_operand_types(pp *p, const ptx_instr *in, unsigned k, char kind, const ptx_tok *t);
/* Checks one register of operand k against type want (the rules above); reports at t. */
int pp_check_register_type(pp *p, const ptx_instr *in, unsigned k, ptx_type want, uint32_t reg, const ptx_tok *t);
/* Immediate (with optional leading '-'): type says how a decimal float / integer literal is
 * converted (PT_F32, PT_F64 give that type's bits; anything else an integer). */
int pp_immediate(pp *p, ptx_type type, int64_t *out);
int pp_find_symbol(pp *p, const char *s, size_t n, int32_t *sym); /* function then module scope */

/* ---- ptx_resolve.c: end-of-function and end-of-module resolution and checks ---- */
void pp_resolve_function(pp *p);
void pp_resolve_module(pp *p);

/* ---- ptx_layout.c ---- */
void ptx_layout_params(ptx_func *f);
int ptx_layout_module(ptx_module *m);

/* ---- ptx_cfg.c ---- */
int ptx_cfg_build(ptx_func *f); /* 0, or -1 when out of memory */

#endif
