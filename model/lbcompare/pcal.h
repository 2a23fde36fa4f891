/* PCAL (priority-based cache allocation, Li et al. HPCA 2015; Linebacker's comparison baseline,
 * spec linebacker.md §7.4): W warps of an SM may issue, the T <= W oldest of them hold tokens and
 * allocate L1 lines; the others hit in the L1 but bypass it on a miss. Dynamic PCAL tunes T, then
 * W, by hill climbing on each period's IPC: a step is kept while the IPC rises, else it is undone
 * (tokens are first tried upwards, then downwards; warps downwards only), then the next knob; after
 * both the setting holds until the kernel ends. With a live start (pcal_set_live) the knobs move
 * within the warps actually resident after the warm-up period, so every step changes somebody's
 * allocation or issue (from every resident-capable warp, a kernel that never fills the SM would
 * spend its first steps on warps it does not have). Plain logic, no SM state. */
#ifndef GTLM_PCAL_H
#define GTLM_PCAL_H

#include <stdint.h>

typedef enum pcal_phase { PCAL_TOKENS = 0, PCAL_WARPS = 1, PCAL_HOLD = 2 } pcal_phase;

typedef struct pcal {
    uint32_t max_warps;     /* warps the kernel may keep resident per SM */
    uint32_t live;          /* the warps the knobs move within (max_warps until pcal_set_live) */
    uint32_t tokens, warps; /* T and W now (W == max_warps: no warp limit) */
    uint32_t step;
    int dynamic;
    pcal_phase phase;
    int dir;                /* +1 / -1: the direction of the knob being tuned */
    int reversed;           /* the tokens' downward direction was tried */
    int sampled;            /* best_ipc holds the IPC of the kept setting */
    double best_ipc;
    uint32_t best_tokens, best_warps;
    uint64_t changes;       /* settings changed (statistics) */
} pcal;

/* Kernel start: T = min(tokens, max_warps) (0: max_warps), W = max_warps, tuning from there. */
void pcal_reset(pcal *p, uint32_t max_warps, uint32_t tokens, uint32_t step, int dynamic);
/* The warm-up period ended with live warps resident: T above them drops to them, and the knobs
 * move below them from now on (W keeps no limit until the warp knob moves). */
void pcal_set_live(pcal *p, uint32_t live);
/* A period ended with this IPC; moves (T, W) by the hill climbing above. */
void pcal_period_end(pcal *p, double ipc);
/* The warp limit to apply: 0 when W is every resident warp. */
static inline uint32_t pcal_warp_limit(const pcal *p) { return p->warps >= p->max_warps ? 0 : p->warps; }

#endif
