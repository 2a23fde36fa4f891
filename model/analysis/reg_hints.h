/*
 * Slumber's compiler hints (thesis seed 004, Sec. 6.3.1; spec D.3.3): for every register operand of
 * every instruction, the type of the register's next access after that instruction (read or write)
 * and, optionally, how far it is (instructions along the shortest path, and that instruction's pc).
 *
 * Storage units: registers can share a physical 128-byte warp register (several PTX registers
 * spread over fewer physical ones), so the pass works on units: unit_of[reg] names the unit of each
 * register slot and an access to any register of a unit is an access to the unit. NULL: one unit
 * per register (the PTX-level hints). A write to one register of a shared unit leaves the others'
 * values in place, so it counts as a read of the unit (the unit is never taken for dead by it).
 *
 * The analysis is a backward dataflow over the function's CFG (ptx_cfg.c): the next access is
 *   READ  when any path's first access reads the unit (a read-modify-write, a guard, a guarded
 *         write, which may leave the old value in place, all count as reads),
 *   WRITE when every path that accesses it again first writes it,
 *   NONE  when no path accesses it again (the value is dead: WRITE for power gating).
 * SIMT order: while a warp runs one side of a divergent branch, its other lanes wait (at the
 * reconvergence point, or at the other side's start) with values a write of this side does not
 * replace, so inside a side the next access is joined with theirs: a read there keeps the value.
 * Loop rule (thesis: "if the iteration count is not a resolvable constant, we conservatively assign
 * a fixed flag (1)"): with REG_HINTS_LOOPS_CONSERVATIVE a next access reached through a loop's back
 * edge (a branch to an earlier or the same block) is READ: the pass does not resolve iteration counts.
 * REG_HINTS_LOOPS_DATAFLOW joins the paths through back edges like any other (exact per path).
 */
#ifndef GTLM_REG_HINTS_H
#define GTLM_REG_HINTS_H

#include <stdint.h>

#include "../ptx/ptx_ir.h"

enum { RH_NONE = 0, RH_WRITE = 1, RH_READ = 2 };
enum { REG_HINTS_LOOPS_CONSERVATIVE = 0, REG_HINTS_LOOPS_DATAFLOW = 1 };
#define RH_FAR 0xffffu /* no next access, or farther than this */

typedef struct reg_hint {
    uint8_t kind;     /* RH_NONE / RH_WRITE / RH_READ: the next access after this instruction */
    uint16_t dist;    /* instructions to it along the shortest path (1: the next one); RH_FAR */
    uint32_t next_pc; /* that instruction (f->n_instrs when none) */
} reg_hint;

typedef struct reg_hints {
    uint32_t n_instrs;
    uint32_t *first;  /* per pc: index of its first entry; entries: src[0..nsrc) then dst[0..ndst) */
    reg_hint *h;
    uint32_t n_units;
    reg_hint *entry;  /* per unit: its first access from the function's entry (a warp's first use) */
} reg_hints;

/* Builds the hints of f. unit_of (f->n_regs entries, each < n_units) or NULL. 0, or -1 (memory). */
int reg_hints_build(reg_hints *out, const ptx_func *f, const uint32_t *unit_of, uint32_t n_units, int loop_rule);

/* Units of a register allocation (reg_alloc.h): a register spans width[reg] units from unit_of[reg]
 * (0: none, a predicate; an operand spanning two gets the join of their hints: read if either is),
 * and only units marked shared keep other live values across a write (an allocation's folded
 * spills); without width / shared: one unit per register, shared when several map to it. */
typedef struct reg_units {
    const uint32_t *unit_of; /* NULL: one unit per register (then the rest is ignored) */
    const uint8_t *width;    /* per register, or NULL: 1 */
    const uint8_t *shared;   /* per unit, or NULL: several registers map to it */
    uint32_t n_units;
} reg_units;
int reg_hints_build_units(reg_hints *out, const ptx_func *f, const reg_units *u, int loop_rule);
void reg_hints_free(reg_hints *h);

/* The hint of source operand i / destination operand i of the instruction at pc (NULL outside). */
const reg_hint *reg_hint_src(const reg_hints *h, const ptx_func *f, uint32_t pc, int i);
const reg_hint *reg_hint_dst(const reg_hints *h, const ptx_func *f, uint32_t pc, int i);

#endif
