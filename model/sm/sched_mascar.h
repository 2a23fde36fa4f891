/* MASCAR (Sethia, Jamshidi, Mahlke, HPCA 2015), as APRES compares against it (spec apres.md §7.4):
 * a memory-saturation monitor switches the scheduler between Equal-Priority (EP) and
 * Memory-access-Priority (MP) modes; the LD/ST unit's re-execution queue (sm_ldst.c) parks loads the
 * saturated L1 refuses so that later hits go on. State exposed for tests and statistics. */
#ifndef GTLM_SM_SCHED_MASCAR_H
#define GTLM_SM_SCHED_MASCAR_H

#include <stdint.h>

#include "sched.h"

enum { MASCAR_EP = 0, MASCAR_MP = 1 };

typedef struct mascar_state {
    int mode;              /* MASCAR_EP or MASCAR_MP */
    uint32_t owner;        /* MP: the local warp that may issue memory instructions, or SCHED_NONE */
    uint32_t rexq_entries; /* re-execution queue size the SM's LD/ST unit uses (0 = none) */
    /* statistics */
    uint64_t to_mp, to_ep;     /* mode switches */
    uint64_t mp_cycles;        /* order() calls in MP mode */
    uint64_t owner_changes;
    uint64_t held_mem_warps;   /* MP: ready warps held back because their next instruction is memory */
} mascar_state;

/* The re-execution queue size when s runs MASCAR, else 0. */
uint32_t mascar_rexq_entries(const sched *s);

#endif
