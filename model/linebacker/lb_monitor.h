/*
 * Linebacker Load Monitor (LM, spec linebacker.md §3.2): 32 entries indexed by the 5-bit hashed PC
 * (HPC) that L1 lines also carry. Every global load access counts a hit (in L1 or in the VTT) or a
 * miss for its HPC; at the end of each period (50,000 core cycles) the loads whose hit ratio
 * exceeds the threshold (20%) form this period's set. When a non-empty set repeats in two
 * consecutive periods it becomes the selected (high-locality) loads and Linebacker turns ACTIVE;
 * when the first two periods find none it is DISABLED; otherwise monitoring goes on.
 */
#ifndef GTLM_LB_MONITOR_H
#define GTLM_LB_MONITOR_H

#include <stdint.h>

#define LB_LM_ENTRIES 32

typedef enum lb_state { LB_MONITOR = 0, LB_ACTIVE = 1, LB_DISABLED = 2 } lb_state;

typedef struct lb_lm_entry {
    uint32_t pc;     /* the first load's full PC (the doc's "first access ... stores the full PC") */
    uint8_t has_pc;
    uint8_t valid;   /* 2-bit shift register: bit 0 this period's class, bit 1 the previous one */
    uint32_t hit, miss;
} lb_lm_entry;

typedef struct lb_monitor {
    lb_lm_entry e[LB_LM_ENTRIES];
    lb_state state;
    uint32_t periods;  /* ended monitoring periods */
    uint32_t prev;     /* HPC bit mask of the previous period's high-locality loads */
    uint32_t selected; /* HPC bit mask of the selected loads (ACTIVE) */
    double threshold;  /* hit ratio a load must exceed (0.20) */
} lb_monitor;

/* XOR-fold of the 32 PC bits into 5 (spec PROPOSAL for "XOR of 32-PC bits into 5 bits"). */
uint8_t lb_hpc(uint32_t pc);

/* Kernel launch: every field zeroed, MONITOR. */
void lb_monitor_reset(lb_monitor *m, double threshold);
/* One global load access of pc whose hashed PC is hpc (the hash the L1 lines carry, < 32): hit =
 * found in L1 or in the VTT. Counts only while MONITOR. */
void lb_monitor_access(lb_monitor *m, uint8_t hpc, uint32_t pc, int hit);
/* End of a period: classifies, shifts the valid bits, decides. Returns the state after it. */
lb_state lb_monitor_period_end(lb_monitor *m);
/* 1 when hpc is a selected load's (only in ACTIVE). */
int lb_monitor_selected(const lb_monitor *m, uint8_t hpc);

#endif
