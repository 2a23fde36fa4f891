/* The pieces of LocalityGuru's symbolic walk shared by the path walker (guru_sym.c) and the
 * instruction semantics (guru_sym_ops.c). Internal to model/analysis. */
#ifndef GTLM_GURU_SYM_OPS_H
#define GTLM_GURU_SYM_OPS_H

#include "guru_sym.h"

/* One path: affine registers, predicate registers, its condition and its loop nest. */
typedef struct gs_state {
    ga_aff *v;       /* per register slot */
    ga_dnf *p;       /* per predicate register (gs_ctx.pidx) */
    ga_aff atom[GS_ATOMS];
    uint8_t n_atoms, depth;
    uint8_t at_header, guard_done; /* a loop body's first visit of its header; the guard already split */
    uint32_t trip[GA_MAXLOOP];
    uint32_t pc;
    /* The last few or.b32 of two affine values: setp.lt.s32 (a | b), 0 is nvcc's test of
     * a < 0 || b < 0 (a sign bit), an interval clip when a and b are. Cleared at loops. */
    struct { uint32_t reg; ga_aff a, b; } orv[4];
    uint8_t n_or;
} gs_state;

typedef struct gs_ctx {
    const guru_kernel *k;
    const simt_launch *l;
    const ptx_func *f;
    guru_sym *s;
    uint32_t *pidx, n_pred; /* register slot -> predicate index, UINT32_MAX when not a predicate */
    uint32_t *back_of;      /* per pc: the last backward branch to it (a loop header), or UINT32_MAX */
    uint32_t *load_of;      /* per pc: index into k->loads, or UINT32_MAX */
    uint8_t *reach;         /* per pc: a global load can still follow (else a path may end there) */
    int record;             /* events are kept (the final pass of every enclosing loop) */
    int fail, oom;
    size_t forks;
    char why[180];
} gs_ctx;

/* A list of states. */
typedef struct gs_list { gs_state **x; size_t n, cap; } gs_list;

gs_state *gs_state_new(gs_ctx *c, const gs_state *from); /* a copy of from (NULL: uninitialised) */
void gs_state_free(gs_state *x);
void gs_fail(gs_ctx *c, uint32_t line, const char *what); /* keeps the first reason */
int gs_push(gs_ctx *c, gs_list *q, gs_state *x); /* 0, or -1 (x freed) */
void gs_list_free(gs_list *q);

/* Walks a loop body from its header h (start consumed) until every path reaches the back edge b
 * (collected in backs). 0, or -1 when the walk failed. */
int gs_loop_body(gs_ctx *c, gs_state *start, uint32_t h, uint32_t b, gs_list *backs);
/* Runs the loop [h, b] entered by state x (consumed); returns the single state after it (at
 * b + 1), or NULL when the walk failed (guru_sym_loop.c). */
gs_state *gs_run_loop(gs_ctx *c, gs_state *x, uint32_t h, uint32_t b);

/* Predicate register reg of x (negated when neg). */
ga_dnf gs_pred(gs_ctx *c, const gs_state *x, uint32_t reg, int neg, uint32_t line);
/* Executes a slice instruction or records a load on path x. */
void gs_exec(gs_ctx *c, gs_state *x, const ptx_instr *in, uint32_t pc);
/* Appends an event for path x (only while c->record). 0 or -1. */
int gs_record(gs_ctx *c, const gs_state *x, int kind, const ga_aff *val, int64_t lo, int64_t hi, uint32_t line);

#endif
