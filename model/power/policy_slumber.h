/*
 * Register-file power policies (thesis seed 004 Ch. 6; spec part D): Slumber and the Warped Register
 * File (WRF, the thesis' reference [2]), one power block per 128-byte warp register (pm_domain of
 * the SM's register file, four supply levels: ON, shallow sleep 0.9 V = PM_SHALLOW, deep sleep
 * 0.3 V = PM_SLEEP, power gated = PM_OFF; Table 6.1 in -power_modes_reg).
 *
 * The SM's register-file seam (model/sm/sm_power.c) reports what Slumber's control logic sees and
 * computes the predicted idle lengths (compiler hints x the warp's issue interval, the fetch-unit
 * list, the MSHR tracker); this file holds the per-register state (mode, the 10-bit countdown as a
 * due cycle, the pending write's hint) and decides the transitions, numbered as the spec's
 * reconstruction of Fig. 6.9 (D.3.5):
 *   T1  OFF -> OFF    a register of no thread block stays OFF (kernel start, rfp_free)
 *   T2  OFF -> SS     the countdown reaches (OFF wake - SS wake) before a predicted use: the
 *                     register waits in SS for the scheduler (after a TB's allocation: its first use)
 *   T3  SS -> ON      the scheduler's look-ahead (the next warps it will issue) wakes the operands
 *   T4  ON -> ON      a load's destination stays ON until the L1 reports hit or miss
 *   T5  ON -> OFF     the load missed the L1: the destination is gated, the countdown set to the
 *                     minimum latency of the level the MSHR tracker predicts
 *   T6  OFF -> ON     the countdown wakes it to be ON when the data arrives
 *   T7  ON -> ON      after an access, the next use is closer than the SS threshold
 *   T8  ON -> SS      ... closer than the DS threshold (woken by the look-ahead: T3)
 *   T9  ON -> DS      ... farther, and the next access reads it (or is undetermined)
 *   T10 ON -> OFF     ... farther than the OFF threshold, and the next access writes it (or none)
 *   T11 DS -> ON      the countdown wakes it before the predicted use
 *   T12 OFF -> ON     likewise from OFF
 *   TA  ALU destination: ON / SS / DS / OFF by the unit's latency, woken to be ON at write-back
 *   TF  any -> OFF    the warp finished (its registers are dead)
 *   TP  any -> SS/DS/OFF the two-level scheduler demoted the warp to its pending pool: the operands of
 *                     its buffered instructions shallow sleep, read-next registers deep sleep, the others
 *                     are gated, with no countdown (-slumber_park)
 *   TW  any -> ..     the warp's promotion back to the active pool re-plans them from their next
 *                     use (T7-T10 rules); a register needed at once wakes now and its wake (4, 13 or
 *                     16 cycles) delays the instruction that reads or writes it
 * An access finds its register ON or waits for it (wake stalls, counted by the mode it found and
 * the kind of access). Reading a register gated OFF since its last write reads lost data: counted
 * as lost (a hint error; the functional model keeps the values).
 *
 * WRF (spec D.7): unallocated registers OFF, allocated ones drowsy (DS), woken by each access and
 * put back to drowsy right after it; a long-latency load's destination stays ON from issue to
 * write-back (write-conservative); a finished warp's registers stay drowsy until its TB frees them.
 */
#ifndef GTLM_POLICY_SLUMBER_H
#define GTLM_POLICY_SLUMBER_H

#include <stdint.h>

#include "power_mode.h"

/* Slumber's and WRF's options (-slumber_*, -wrf_*; model/power/slumber_options.c). */
typedef struct slumber_config {
    int lat[3];            /* minimum latency of a load served by the L1, the L2, DRAM (pointer chase) */
    int min_idle[PM_MODES];/* idle length that enables SS, DS, OFF (Sec. 6.2: 4, 13, 16) */
    int lookahead;         /* warps after the issued one whose operands the scheduler wakes (3) */
    int lookahead_deep;    /* the look-ahead wakes DS and OFF registers too (1), or SS only (0) */
    int ibuffer;           /* instructions per warp in the instruction buffer (2) */
    int fetch_list;        /* fetch-unit-list entries (16) */
    int fetch_line;        /* PCs per L1I line (16) */
    int fetch_miss;        /* cycles a next use off the fetch-unit-list adds (an L1I miss; 0: no I-cache) */
    int counter_bits;      /* the countdown's width (10) */
    int long_alu_ds;       /* an ALU destination idling >= the OFF threshold: DS (1, Sec. 6.3.3) or OFF (0) */
    int hint_loops;        /* REG_HINTS_LOOPS_CONSERVATIVE (0, the thesis) or _DATAFLOW (1) */
    int wrf_wake;          /* WRF: visible cycles of a drowsy register's wake on access */
    int reg_map;           /* SLUMBER_MAP_ALLOC (0: register-allocated PTX) or SLUMBER_MAP_FIXED (1) */
    int mem_wait;          /* predicted idle periods include the warp's stall on a missed load (proposal) */
    int park;              /* a warp in the two-level pending pool sleeps until its promotion (proposal):
                            * SLUMBER_PARK_OFF, _ALL (DS / OFF), _IBUFFER (its next instructions' operands SS) */
    double overhead_frac;  /* Slumber's control logic (counters, tracker, fetch list, muxes) leaks this share of
                            * the register file's ON leakage, always (Sec. 6.3.4: "less than 1%") */
} slumber_config;

enum { SLUMBER_MAP_ALLOC = 0, SLUMBER_MAP_FIXED = 1 };
enum { SLUMBER_PARK_OFF = 0, SLUMBER_PARK_ALL = 1, SLUMBER_PARK_IBUFFER = 2 };

enum { RFP_READ = 0, RFP_WRITE, RFP_WRITEBACK, RFP_ACCESS_N };

/* What the policy counts (per SM, per kernel). */
typedef struct rfp_stats {
    uint64_t trans[17];                          /* T1..T12, TA (13), TF (14), TP (15), TW (16) */
    uint64_t stalls[RFP_ACCESS_N][PM_MODES];     /* accesses that waited, by access and mode found */
    uint64_t stall_cycles[RFP_ACCESS_N][PM_MODES];
    uint64_t lost;                               /* reads of a register gated OFF (a hint error) */
    uint64_t idle_hist[2][4];                    /* idle periods by next access (read, write) and length
                                                  * (< 4, 4-12, 13-15, >= 16 cycles) */
    uint64_t idle_cycles[2][4];
    uint64_t promo_stalls, promo_stall_cycles;   /* accesses that waited for a wake begun at promotion (TW) */
} rfp_stats;
#define RFP_TA 13
#define RFP_TF 14
#define RFP_TP 15
#define RFP_TW 16

/* Attaches the options (after pm_domain_init with pm_policy_slumber / pm_policy_wrf). */
void rfp_configure(pm_domain *d, const slumber_config *c);
int rfp_is_wrf(const pm_domain *d);
const rfp_stats *rfp_get_stats(const pm_domain *d);
rfp_stats *rfp_stats_of(pm_domain *d); /* NULL without a register-file policy */

/* Block b's countdown at cycle now (the VCD's power.reg.rK.countdown): the cycles left to the predicted
 * use it was loaded with, saturated at -slumber_counter_bits; it fires the wake when it reaches the
 * mode's wake latency (12 for T2's OFF -> SS). 0 when none runs (fired, re-planned, never set). */
uint32_t rfp_countdown(const pm_domain *d, uint32_t b, uint64_t now);
int rfp_counter_bits(const pm_domain *d); /* the countdown's width */

/* Applies the countdowns due up to now (call before any other report at now). */
void rfp_advance(pm_domain *d, uint64_t now);

/* An access at issue (operand read, or the destination of an instruction): returns the cycles it
 * waits for the register to be ON; the register is ON afterwards. */
int rfp_access(pm_domain *d, uint32_t b, int is_write, uint64_t now);
/* After an access: the next access is `kind` (RH_*), predicted `idle` cycles away (T7-T10 and the
 * countdown for T11/T12; at a TB's allocation, T1/T2). */
void rfp_after_access(pm_domain *d, uint32_t b, int kind, uint32_t idle, uint64_t now);
/* A TB's allocation: the register's first use is `kind`, `idle` cycles away (T1, then T2). */
void rfp_alloc(pm_domain *d, uint32_t b, int kind, uint32_t idle, uint64_t now);
/* A destination written at write_at by a unit of known latency (TA). Without may_gate (the
 * register holds other live values: several PTX registers share it) it sleeps at most in DS. */
void rfp_alu_dest(pm_domain *d, uint32_t b, uint64_t now, uint64_t write_at, int may_gate);
/* A load's destination: ON until the L1 outcome (T4); on a miss, gated until the predicted
 * arrival now + latency (T5, T6). */
void rfp_load_dest(pm_domain *d, uint32_t b, uint64_t now);
void rfp_load_miss(pm_domain *d, uint32_t b, uint64_t now, uint32_t latency, int may_gate);
/* Write-back of a result (once per result): the cycles it waits for the register (a countdown
 * that woke it late). While results are in flight to a register, rfp_after_access leaves it alone. */
int rfp_writeback(pm_domain *d, uint32_t b, uint64_t now);
/* The write to block b lands at cycle until (it waits for another block of the same register, the
 * other half of a 64-bit pair, to wake): until then b stays as it is, ON, and nothing gates it. */
void rfp_hold(pm_domain *d, uint32_t b, uint64_t until);
/* The scheduler will issue an instruction using the register soon (T3). */
void rfp_lookahead(pm_domain *d, uint32_t b, uint64_t now);
/* The two-level scheduler demoted the register's warp (TP): SS when `soon` (an operand of the
 * instructions in the warp's instruction buffer), else DS when the next access reads it, else OFF;
 * no countdown. A result in flight to it is left to its write-back (which parks it in turn). */
void rfp_park(pm_domain *d, uint32_t b, int kind, int soon, uint64_t now);
/* The warp was promoted (TW): the register's next use is `kind`, `idle` cycles away (T7-T10 rules;
 * an access that then waits for a wake begun here counts as a promotion stall). */
void rfp_promote(pm_domain *d, uint32_t b, int kind, uint32_t idle, uint64_t now);
/* The warp finished (TF); the TB's allocation (ALLOC) and release (FREE) come as pm events. */
void rfp_finish(pm_domain *d, uint32_t b, uint64_t now);

/* The memory wait (-slumber_mem_wait, our proposal where the thesis is silent): a warp that has
 * issued `issued` instructions will first stall at stream index stall_idx (the first use of a missed
 * load's data) until stall_until (the miss + the MSHR tracker's minimum latency). A use at index
 * `use` at or after the stall cannot come before stall_until plus the instructions between at the
 * warp's issue interval (x16): the idle period from now is at least that. 0 when the use comes
 * before the stall, the warp passed it, or the data is due. */
uint64_t rfp_mem_wait(uint64_t stall_idx, uint64_t stall_until, uint64_t issued, uint64_t use, uint64_t now,
                      uint32_t interval16);

/* The mode an idle period of `idle` cycles followed by an access of `kind` deserves (D.3.2). */
pm_mode rfp_mode_for(const slumber_config *c, uint32_t idle, int kind);

#endif
