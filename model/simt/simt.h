/*
 * Functional SIMT execution of PTX: one warp instruction at a time, with an active mask, an
 * immediate-post-dominator reconvergence stack, per-CTA shared memory and barriers, and the
 * per-thread local memory and call frames. The timing model calls simt_warp_step() at issue;
 * functional mode (simt_run.c) calls it in a loop.
 */
#ifndef GTLM_SIMT_H
#define GTLM_SIMT_H

#include <stdint.h>

#include "../common/strbuf.h"
#include "../mem/dmem.h"
#include "../ptx/ptx_ir.h"
#include "simt_alu.h"

/* Generic-address windows of the per-CTA shared and per-thread local spaces (and of the
 * constant bank); everything else in the generic space is global memory. */
#define SIMT_SHARED_WINDOW 0x0000F00000000000ull
#define SIMT_LOCAL_WINDOW 0x0000F80000000000ull
#define SIMT_CONST_WINDOW 0x0000E80000000000ull
#define SIMT_WINDOW_SIZE 0x0000010000000000ull

/* A loaded module: the parsed program plus its data placed in memory. */
typedef struct simt_module {
    ptx_module ptx;
    uint8_t *const_bank;     /* ptx.const_bytes, with initialisers */
    uint64_t global_base;    /* device address of the module's .global block (0 if none) */
    /* Per function: bytes of per-thread frame memory and register slots a call to it needs,
     * including everything it calls (no recursion: rejected at load). */
    uint64_t *frame_bytes;   /* this function's own frame: locals, call scratch, parameters */
    uint64_t *stack_bytes;   /* own frame plus the deepest chain of callees */
    uint32_t *stack_regs;    /* own registers plus the deepest chain of callees */
} simt_module;

/* Places a parsed module's data (constant bank, .global block with initialisers) and checks
 * every instruction is executable. Takes ownership of *ptx (on failure too). */
int simt_module_load(simt_module *sm, ptx_module *ptx, dmem *mem, char *err, size_t errlen);
void simt_module_free(simt_module *sm, dmem *mem);

typedef struct simt_launch simt_launch;
typedef struct simt_warp simt_warp;
typedef struct simt_cta simt_cta;
typedef struct simt_mem_access simt_mem_access;
/* Called after every executed memory instruction when set (profiling, tracing). */
typedef void (*simt_mem_hook)(const simt_launch *l, const simt_warp *w, uint32_t func, uint32_t pc,
                              const simt_mem_access *acc, void *ctx);
/* Called after every successfully executed warp instruction when set (trace writing): the
 * instruction at (func, pc), the lanes it executed for (active lanes whose guard held) and its
 * memory accesses (NULL for a non-memory instruction or one no lane executed). */
typedef void (*simt_insn_hook)(const simt_launch *l, const simt_warp *w, uint32_t func, uint32_t pc,
                               const ptx_instr *in, uint32_t mask, const simt_mem_access *acc, void *ctx);

/* One kernel launch. */
struct simt_launch {
    const simt_module *mod;
    const ptx_func *kernel;
    uint32_t func_index;
    uint32_t grid[3], block[3];
    uint64_t dyn_shared;      /* dynamic shared bytes */
    uint64_t static_shared;   /* ptx_kernel_static_shared */
    uint64_t shared_bytes;    /* static, aligned, then dynamic */
    uint64_t dyn_shared_base; /* offset of the dynamic part */
    uint8_t *params;          /* the parameter buffer */
    uint32_t warps_per_cta;
    uint32_t threads_per_cta;
    uint32_t grid_id;
    uint32_t n_sms;           /* %nsmid */
    dmem *mem;
    simt_mem_hook on_mem;     /* optional */
    void *on_mem_ctx;
    simt_insn_hook on_insn;   /* optional; functional mode (simt_run.c) only */
    void *on_insn_ctx;
    /* optional; functional mode only: a CTA finished (CTAs that wait on each other through
     * memory run interleaved, so an observer's per-CTA records end here) */
    void (*on_cta_done)(const simt_launch *l, const simt_cta *c, void *ctx);
};

/* Reasons a warp stops making progress or a kernel fails. */
typedef enum simt_status {
    SIMT_OK = 0,
    SIMT_ERR_BOUNDS,     /* access outside any allocation / area */
    SIMT_ERR_MISALIGNED,
    SIMT_ERR_TRAP,
    SIMT_ERR_UNSUPPORTED,
    SIMT_ERR_NOMEM,
    SIMT_ERR_DEADLOCK,   /* every live warp of a CTA waits at a barrier that cannot complete */
    SIMT_ERR_LIMIT,      /* the instruction limit (-gpgpu_max_insn) stopped the run */
    SIMT_ERR_SPIN        /* every started CTA spins on memory no CTA writes (functional mode) */
} simt_status;

typedef struct simt_error {
    simt_status status;
    uint32_t func, pc;   /* where */
    uint32_t warp, lane; /* warp within the CTA, lane */
    uint32_t cta[3];
    uint64_t addr;
    uint8_t space;       /* ptx_space of the access */
    char detail[480];
} simt_error;

/* The memory accesses of one executed memory instruction, for the timing model. */
struct simt_mem_access {
    uint8_t space;     /* ptx_space after generic resolution */
    uint8_t is_store, is_atomic;
    uint8_t bytes;     /* bytes per lane (vector size included) */
    uint32_t mask;     /* lanes that accessed */
    uint64_t addr[SIMT_WARP]; /* address in the resolved space (device address for global) */
};

/* One reconvergence-stack entry. */
typedef struct simt_entry {
    uint32_t pc, rpc;    /* next instruction; pop when pc reaches rpc */
    uint32_t mask;
    uint32_t func;       /* function whose code pc indexes */
    uint32_t reg_base;   /* first register slot of this function's frame in the warp */
    uint64_t frame_base; /* byte offset of the function's frame in per-thread frame memory */
    uint8_t call_body;   /* the bottom entry of a called function's activation */
} simt_entry;

/* Spin-wait detection: a warp that takes the same backward branch with its whole state
 * (registers, stack, flags) unchanged and no store, atomic or barrier in between can only leave
 * the loop when someone else writes memory: it spins (an inter-CTA barrier, a flag wait). */
typedef struct simt_spin {
    uint32_t func, pc, target; /* the backward branch being watched and its target */
    uint32_t depth;
    uint32_t iters;            /* times taken since the watch began */
    uint32_t next_check, interval; /* iteration of the next state comparison, and the spacing */
    uint64_t writes;           /* w->writes at the last check */
    uint64_t hash;             /* state at the last check (0: none yet) */
    uint8_t spinning;          /* the last check found the state unchanged */
} simt_spin;

typedef enum simt_warp_state { SIMT_WARP_READY = 0, SIMT_WARP_AT_BARRIER, SIMT_WARP_DONE } simt_warp_state;

struct simt_warp {
    simt_cta *cta;
    uint32_t id;          /* warp index within the CTA */
    uint32_t valid;       /* lanes that hold a thread (a partial last warp has fewer) */
    uint32_t retired;     /* lanes that executed exit/ret */
    uint32_t carry;       /* .cc flag per lane */
    simt_warp_state state;
    uint8_t barrier_id;
    uint32_t bar_func, bar_pc; /* the barrier instruction the warp waits at (state AT_BARRIER) */
    uint64_t *regs;       /* slot-major: regs[slot * 32 + lane] */
    uint32_t n_reg_slots;
    uint8_t *frames;      /* per-thread frame memory: lane * frame_stride */
    uint64_t frame_stride;
    simt_entry *stack;
    uint32_t depth, cap;
    uint64_t insn;        /* warp instructions executed */
    uint64_t thread_insn; /* thread instructions (active lanes summed) */
    uint64_t writes;      /* stores, atomics and barriers executed (what can wake a spinning warp) */
    simt_spin spin;       /* spin-wait detection (simt_spin.c) */
    /* The last mov.indirect: the distinct array registers (frame slots) its lanes read or wrote,
     * in lane order, for the timing model's second register-file access. */
    uint32_t imov_n;
    uint32_t imov_reg[SIMT_WARP];
};

struct simt_cta {
    const simt_launch *launch;
    uint32_t ctaid[3];
    uint8_t *shared;
    simt_warp *warps;
    uint32_t n_warps;
    uint32_t live_warps;          /* not done */
    uint32_t arrived[16];         /* warps waiting at each barrier id */
    uint32_t smid;
    uint64_t clock;               /* value of %clock64 (cycles, from the caller) */
};

/* Describes the warps of c waiting at barriers ("barrier 0 (name.ptx:12 (pc 5: bar.sync)): 2 of 3
 * live warps wait (warps 0, 1); warp 2 does not"), appended to out. Returns the number of waiting
 * warps; where the first of them waits goes to *func, *pc and *warp when any waits. */
uint32_t simt_cta_describe_barriers(const simt_cta *c, strbuf *out, uint32_t *func, uint32_t *pc, uint32_t *warp);

/* Sets up a CTA (shared memory, warps, registers, frames) of the launch. */
int simt_cta_init(simt_cta *c, const simt_launch *l, const uint32_t ctaid[3], uint32_t smid);
void simt_cta_free(simt_cta *c);

/* Executes the next instruction of a ready warp. acc, if not NULL, receives the memory
 * accesses of a memory instruction (acc->mask == 0 otherwise). Returns SIMT_OK or an error
 * described in *err. After it, w->state says whether the warp waits at a barrier or is done. */
simt_status simt_warp_step(simt_warp *w, simt_mem_access *acc, simt_error *err);

/* Whether the warp spins (see simt_spin); simt_spin_reset forgets what was seen, so the warp is
 * checked afresh (after memory it reads may have changed). */
static inline int simt_warp_spinning(const simt_warp *w) { return w->spin.spinning; }
void simt_spin_reset(simt_warp *w);

/* The instruction a ready warp executes next, and its function. */
const ptx_instr *simt_warp_next(const simt_warp *w, const ptx_func **f);
uint32_t simt_warp_active(const simt_warp *w);

/* Value of special register o for lane `lane` of warp `warp` of CTA ctaid (on SM smid, at clock). */
uint64_t simt_sreg(const simt_launch *l, const uint32_t ctaid[3], uint32_t smid, uint64_t clock, uint32_t warp,
                   uint32_t lane, const ptx_operand *o);

/* Builds the parameter buffer of a kernel from host arguments; checks counts and sizes.
 * Returns 0, or -1 with a message naming the offending parameter. The buffer is malloc'd. */
int simt_pack_params(const ptx_func *kernel, const void *const *args, const size_t *sizes, size_t n,
                     uint8_t **out, char *err, size_t errlen);

/* Formats an error as "kernel 'k': name:LINE (pc N: op): warp W lane L of CTA (x,y,z): ...". */
void simt_format_error(const simt_launch *l, const simt_error *e, char *buf, size_t len);

#endif
