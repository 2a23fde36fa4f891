/*
 * Register allocation of a PTX function's virtual registers onto physical 32-bit per-thread
 * registers, as ptxas does before the hardware sees the code: liveness over the function's CFG
 * (ptx_cfg.c), an interference graph, then greedy colouring in program order (the order a linear
 * scan visits live ranges; exact for straight-line code) onto the lowest free registers.
 *
 * Widths: a predicate lives in the predicate file (no 32-bit register), a 64-bit register takes an
 * aligned pair (2k, 2k + 1) as on NVIDIA GPUs, 8/16/32-bit ones take one register.
 * Liveness: a guarded write may leave the old value for the lanes whose guard is false, so it does
 * not end the register's live range (the value is read-modified-written). Writes are per lane, so
 * standard liveness is safe under SIMT divergence: a register live in lanes waiting at a
 * reconvergence point is live on every path those lanes still take.
 * Budget: registers past the budget are spills in ptxas; here they fold onto register
 * (colour mod budget) and that register is marked shared (it holds several live values).
 */
#ifndef GTLM_REG_ALLOC_H
#define GTLM_REG_ALLOC_H

#include <stdint.h>

#include "../ptx/ptx_ir.h"

#define RA_NONE UINT32_MAX

typedef struct reg_alloc {
    uint32_t n_regs;     /* the function's register slots */
    uint32_t *phys;      /* per slot: its first physical register, RA_NONE (predicate, never accessed) */
    uint8_t *width;      /* per slot: physical registers it takes (0, 1 or 2) */
    uint32_t n_colours;  /* registers the colouring needs (before folding onto the budget) */
    uint32_t n_phys;     /* registers used after folding: min(n_colours, budget) */
    uint32_t n_spilled;  /* slots folded because their colour was past the budget */
    uint8_t *shared;     /* per physical register (n_phys): a folded slot shares it */
} reg_alloc;

/* Allocates f's registers onto at most budget physical registers (0: no limit). 0, or -1 (memory,
 * or a function too large for the interference matrix: more than RA_MAX_REGS slots). */
#define RA_MAX_REGS 16384u
int reg_alloc_build(reg_alloc *out, const ptx_func *f, uint32_t budget);
void reg_alloc_free(reg_alloc *a);

/* The 32-bit registers a slot of this type takes. */
uint32_t reg_alloc_width(uint8_t ptx_type);

#endif
