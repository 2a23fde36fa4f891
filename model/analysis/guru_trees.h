/*
 * LocalityGuru's static half (thesis Ch. 4, Algorithm 3; spec B.3.2 with the fixes of B.9.1-B.9.4):
 * for every global load of a kernel, the syntax tree of its address built backwards through the
 * CFG until the leaves are kernel parameters, special registers, symbol addresses and immediates.
 *
 * A tree node is a defining instruction; its children are, per source register, every definition
 * that reaches it (the backward walk over predecessors keeps a visited set, spec B.9.2, so a loop
 * variable is a node whose child is itself: the loop tree ST_loop of Alg. 4). Trees are also built
 * for the guard of every branch, exit and guarded load the load can be reached from (B.3.4's
 * predicate trees). A load is *resolved* when every leaf of those trees is static; a leaf that is
 * a memory read, an atomic, a lane exchange, %clock or %smid makes it data-dependent, and the load
 * says why. The instructions of the resolved trees form the slice guru_eval.c runs per thread.
 */
#ifndef GTLM_GURU_TREES_H
#define GTLM_GURU_TREES_H

#include <stddef.h>
#include <stdint.h>

#include "../ptx/ptx_ir.h"

/* What an instruction is to the evaluator (guru_kernel.role[pc]). */
enum guru_role {
    GURU_SKIP = 0,  /* not needed: the lanes step over it */
    GURU_SLICE,     /* computes a value some resolved tree needs */
    GURU_CONTROL,   /* branch, exit or return the evaluator follows */
    GURU_DEAD_END,  /* control it cannot follow, but no global load is reachable from it: lanes stop */
    GURU_LOAD       /* a resolved global (or generic) load: its lanes' addresses are recorded */
};

typedef struct guru_load {
    uint32_t pc, line;
    uint32_t tree;     /* loads with the same base register and reaching definitions share a tree */
    int64_t offset;    /* the address operand's immediate (Alg. 4's (register, offset) map) */
    int resolved;
    char why[200];     /* when not resolved: the first data-dependent leaf, with its line */
} guru_load;

typedef struct guru_kernel {
    const ptx_module *m;
    const ptx_func *f;
    guru_load *loads;
    uint32_t n_loads, n_trees, n_unresolved;
    uint8_t *role;     /* per instruction: enum guru_role */
} guru_kernel;

/* Analyses kernel f of module m. Returns 0, or -1 when memory ran out (k is zeroed then). */
int guru_analyse(const ptx_module *m, const ptx_func *f, guru_kernel *k);
void guru_kernel_free(guru_kernel *k);

/* Writes load i's address tree as an expression, e.g. "add(mul.wide(ctaid.y*ntid.y+tid.y, 4),
 * param[24])" with "loop(%r5)" where a definition reaches itself; cut with "..." beyond len. */
void guru_tree_text(const guru_kernel *k, uint32_t i, char *buf, size_t len);

#endif
