/* LAWS, the Locality-Aware Warp Scheduler of APRES (seeds/002 §IV-A, spec apres.md §3.2): the
 * policy's state, exposed so that tests and statistics can read the queue and the tables. */
#ifndef GTLM_SM_SCHED_LAWS_H
#define GTLM_SM_SCHED_LAWS_H

#include <stdint.h>

#include "sched.h"

#define LAWS_LLT_START UINT64_MAX /* LLPC of a warp that has issued no global load (spec gap 3) */
#define LAWS_MAX_WGT 16

typedef struct laws_group {
    uint8_t valid;
    uint32_t head;    /* the warp whose load formed the group; its L1 outcome decides */
    uint64_t pc;      /* that load's PC */
    uint8_t *member;  /* per local warp: 1 = in the group (the doc's 48-bit vector) */
} laws_group;

typedef struct laws_state {
    uint32_t n;           /* local warps */
    uint32_t *queue;      /* live local warps, highest priority first */
    uint32_t n_queue;
    uint64_t *llt;        /* Last Load Table: per local warp, the PC of its last global load */
    laws_group wgt[LAWS_MAX_WGT]; /* Warp Group Table */
    uint32_t n_wgt;
    int merge_is_hit;     /* a hit-reserved (MSHR merge) outcome moves the group to the head */
    uint32_t *scratch;
    /* statistics */
    uint64_t groups, group_members, wgt_full, head_moves, tail_moves, stale_groups, prefetch_moves;
    uint64_t table_bits;  /* LLT and WGT bits read, written or compared (the energy model charges them) */
} laws_state;

/* Index of the group (WGT entry) formed by head warp's load at pc, or -1. */
int laws_find_group(const laws_state *l, uint32_t head, uint64_t pc);

/* For SAP (APRES): when s runs LAWS and slot's load at pc heads a group, writes the group's SM
 * slots to out (room for s->n_local) and returns their count; else 0. */
uint32_t laws_group_slots(const sched *s, uint32_t slot, uint64_t pc, uint32_t *out);
/* Moves these SM slots (owned by s, running LAWS) to the queue head in the given order. */
void laws_prioritize(sched *s, const uint32_t *slots, uint32_t n);

#endif
