/*
 * Idleness of power blocks (thesis seed 004, Sec. 5.1, Figs. 5.3 and 5.4; spec C.6/C.8): the idle
 * periods between consecutive accesses to each block, binned by length, and their total. An idle
 * period is the run of cycles with no access (spec PROPOSAL: t(k+1) - t(k) - 1 between accesses at
 * t(k) and t(k+1)), plus the leading span from the kernel's start to a block's first access and the
 * trailing span from its last access to the kernel's end. Idleness = idle_cycles / block_cycles
 * (the thesis' "cumulative sum of the reuse distance ... normalized to the total execution cycles").
 * Several accesses in one cycle make no period. Bins (upper bounds, cycles): the 2-cycle break-even
 * of Table 5.2, the thesis' "most idle cycles are shorter than 10 cycles", then decades.
 */
#ifndef GTLM_IDLE_HIST_H
#define GTLM_IDLE_HIST_H

#include <stdint.h>

#define IDLE_BINS 7
extern const uint64_t idle_hist_upper[IDLE_BINS]; /* 2, 9, 31, 99, 999, 9999, UINT64_MAX */
extern const char *const idle_hist_bin_name[IDLE_BINS]; /* "le2", ..., "gt9999" */

typedef struct idle_hist {
    uint32_t n;
    uint64_t *next;                  /* per block: the first cycle of its current idle run */
    uint64_t begin;                  /* the cycle block_cycles are counted from */
    uint64_t periods[IDLE_BINS];     /* statistics (zeroed by the registry per kernel) */
    uint64_t cycles[IDLE_BINS];
    uint64_t idle_cycles, block_cycles;
} idle_hist;

int idle_hist_init(idle_hist *h, uint32_t n); /* 0, or -1 (memory) */
void idle_hist_free(idle_hist *h);
void idle_hist_begin(idle_hist *h, uint64_t now);                  /* every block idle from now */
void idle_hist_access(idle_hist *h, uint32_t block, uint64_t now);  /* ends the block's idle run */
void idle_hist_close(idle_hist *h, uint64_t now);                   /* trailing runs end at now */

#endif
