/* Pieces of the SIMT executor shared between its files. */
#ifndef GTLM_SIMT_INTERNAL_H
#define GTLM_SIMT_INTERNAL_H

#include "simt.h"

/* Frame layout of a function in per-thread frame memory: locals, then call-site scratch,
 * then the function's own parameters and return values (kernels read theirs from the launch's
 * parameter buffer instead). */
typedef struct simt_frame_layout {
    uint64_t scratch_off, param_off, size;
} simt_frame_layout;

simt_frame_layout simt_frame_of(const ptx_func *f);

static inline simt_entry *simt_top(simt_warp *w) { return &w->stack[w->depth - 1]; }
/* The active lanes of entry e whose guard predicate of in holds (all active when unguarded). */
uint32_t simt_guard_mask(const simt_warp *w, const simt_entry *e, const ptx_instr *in);

static inline const ptx_func *simt_func(const simt_warp *w, uint32_t index)
{
    return &w->cta->launch->mod->ptx.funcs[index];
}

/* Sets *err for the current instruction of w. Returns status. */
simt_status simt_fail(simt_warp *w, simt_error *err, simt_status status, uint32_t lane, uint64_t addr, uint8_t space,
                      const char *detail);

/* Memory instructions (simt_memops.c). active: lanes executing. */
simt_status simt_exec_ld(simt_warp *w, const ptx_instr *in, uint32_t active, simt_mem_access *acc, simt_error *err);
simt_status simt_exec_st(simt_warp *w, const ptx_instr *in, uint32_t active, simt_mem_access *acc, simt_error *err);
simt_status simt_exec_atom(simt_warp *w, const ptx_instr *in, uint32_t active, simt_mem_access *acc,
                           simt_error *err);
/* Address of a symbol used as a value (mov %r, sym), in its own space. */
uint64_t simt_symbol_value(const simt_warp *w, const simt_entry *e, int32_t sym);

/* Control flow and synchronisation (simt_stack.c). They set the top entry's next pc. */
simt_status simt_exec_bra(simt_warp *w, const ptx_instr *in, uint32_t active, uint32_t taken, simt_error *err);
simt_status simt_exec_brx(simt_warp *w, const ptx_instr *in, uint32_t active, const uint64_t *index,
                          simt_error *err);
simt_status simt_exec_call(simt_warp *w, const ptx_instr *in, uint32_t active, simt_error *err);
simt_status simt_exec_ret(simt_warp *w, uint32_t active);
void simt_exec_exit(simt_warp *w, uint32_t active);
simt_status simt_exec_bar(simt_warp *w, const ptx_instr *in, uint32_t active, uint32_t id, simt_error *err);
/* Pops entries that reached their reconvergence point or have no lanes left. */
void simt_reconverge(simt_warp *w);
/* Releases the warps waiting at barrier id once every live warp arrived. */
void simt_barrier_check(simt_cta *c, uint32_t id);

/* Spin detection (simt_spin.c): after a taken or fallen-through branch at (func, pc) executed at
 * stack depth depth, and after any step of a warp flagged as spinning. */
void simt_spin_branch(simt_warp *w, uint32_t func, uint32_t pc, uint32_t depth);
void simt_spin_after_step(simt_warp *w);

#endif
