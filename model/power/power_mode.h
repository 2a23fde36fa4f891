/*
 * Power modes of a storage block (a cache line, a group of lines, a cache bank, a warp register,
 * a whole SM): ON, shallow sleep, sleep (drowsy, state kept) and OFF (power-gated, state lost).
 * Each mode has a leakage fraction of ON, a wake-up latency back to ON and a break-even time;
 * the energy of a round trip into a mode and back is derived from the break-even time, the
 * time for which the leakage saved equals it:
 *     E_transition(m) = t_breakeven(m) / f * P_block * (1 - leak_fraction(m)).
 *
 * A pm_domain holds the mode of each of its blocks and integrates residency (block-cycles per
 * mode, in the owner's clock). A policy (pm_policy) changes modes on events the owner reports;
 * the baseline policy "always_on" is no policy at all: every block stays ON, no access costs
 * anything and the timing model is untouched. With a policy, pm_access() wakes a block and
 * returns the cycles the access waits; an access to an OFF block finds its data lost.
 */
#ifndef GTLM_POWER_MODE_H
#define GTLM_POWER_MODE_H

#include <stdint.h>

#include "idle_hist.h"

typedef enum pm_mode { PM_ON = 0, PM_SHALLOW, PM_SLEEP, PM_OFF, PM_MODES } pm_mode;

const char *pm_mode_name(int mode); /* "on", "shallow", "sleep", "off" */

typedef struct pm_mode_params {
    double leak_fraction;     /* leakage in this mode / leakage ON */
    int wake_cycles;          /* cycles from this mode back to ON */
    int breakeven_cycles;     /* minimum residency that saves energy */
} pm_mode_params;

/* The modes of one block type (the -power_modes_* options). m[PM_ON] is 1, 0, 0. */
typedef struct pm_table {
    pm_mode_params m[PM_MODES];
} pm_table;

/* Events an owner reports to the policy. */
typedef enum pm_event {
    PM_EV_ALLOC = 0,   /* the block got live data (a fill, a warp's registers allocated, a CTA) */
    PM_EV_FREE,        /* its data is dead (an eviction, a warp exited, the SM is empty) */
    PM_EV_ACCESS,      /* read or written (after pm_access woke it) */
    PM_EV_IDLE,        /* the owner has no request for it pending */
    /* Look-ahead events (Snooze, docs/power.md): what the owner's input queues will bring. */
    PM_EV_ENQUEUE,     /* a request for the block entered an input queue (AGU->L1, ICNT->L2) */
    PM_EV_DEQUEUE,     /* that request left the queue (served, missed or dropped) */
    PM_EV_RESFAIL,     /* the queue's head request for the block failed its reservation */
    PM_EV_FILL,        /* a fill for the block entered the response queue (ICNT->L1, DRAM->L2) */
    PM_EV_FINISH       /* the owner is done: its SM finished all CTAs (L1), the kernel exited (L2) */
} pm_event;

struct pm_domain;

/* An external per-block controller (tlm/rtl: the Verilated Snooze controller of -rtl_power, a
 * recorder): when d->ext.op is set, the blocks' state and the policy's decisions live in it, and
 * power_mode.c keeps the mirror of the modes (pm_get) and every statistic from what it answers.
 * An op is a pm_event code (PM_EV_ACCESS: pm_access, the only way owners report an access) or: */
enum {
    PM_OP_BEGIN = 9,   /* pm_kernel_begin: sent to every block in order, block 0 first, same now */
    PM_OP_FILLED = 10, /* pm_filled */
    PM_OP_ON = 11      /* pm_set(ON) by the owner (a fill writes the block); owners set nothing else */
};
typedef struct pm_ext_out {
    uint8_t mode;  /* the block's mode after the op */
    uint8_t woke;  /* the op woke the block from a low-power mode (one wake counted) */
    uint8_t lost;  /* an access found the block's data lost */
    int wait;      /* cycles an access waits */
} pm_ext_out;
typedef struct pm_ext {
    void (*op)(void *ctx, uint32_t block, int op, uint64_t now, pm_ext_out *out);
    void (*destroy)(void *ctx); /* in pm_domain_free */
    void *ctx;
} pm_ext;

/* A power-management policy: decides modes from events. Hooks may be NULL. */
typedef struct pm_policy {
    const char *name;
    void (*on_event)(struct pm_domain *d, uint32_t block, pm_event ev, uint64_t now);
    pm_mode initial;   /* every block's mode at kernel start */
    /* Optional: called by pm_kernel_begin after every block was set to `initial`. */
    void (*begin)(struct pm_domain *d, uint64_t now);
    /* The policy for domains it does not manage (registers, whole SM); NULL: this one. */
    const struct pm_policy *non_cache;
    int needs_aux;     /* allocate d->aux (per-block policy state, kept across kernels) */
    /* Optional: allocate / free d->ps, a policy's own state (Slumber's counters and event queue). */
    int (*init)(struct pm_domain *d);
    void (*fini)(struct pm_domain *d);
    int regs_only;     /* a register-file policy: caches and the whole SM stay ON */
} pm_policy;

/* Built-in policies: "always_on" (the baseline, NULL hooks) and "off_when_unused" (a block is OFF
 * while it holds no live data, ON otherwise: the bound for a gating policy with perfect knowledge). */
const pm_policy *pm_policy_find(const char *name);
extern const pm_policy pm_policy_always_on;
extern const pm_policy pm_policy_off_when_unused;
/* Snooze (thesis Ch. 5, model/power/policy_snooze.c): "snooze" keeps valid data (OFF only while a
 * block holds nothing live), "snooze_destroy" gates valid blocks OFF at T1/T6/T7 (a real miss);
 * "coarse151" is the whole-cache policy of the thesis' reference [151]. */
extern const pm_policy pm_policy_snooze;
extern const pm_policy pm_policy_snooze_destroy;
extern const pm_policy pm_policy_coarse151;
/* Slumber (thesis Ch. 6, model/power/policy_slumber.c) and its competitor, the Warped Register File:
 * register-file policies (caches and SM stay ON). */
extern const pm_policy pm_policy_slumber;
extern const pm_policy pm_policy_wrf;
/* "gated": every block OFF from kernel start and never woken (an SM the run power-gates; not a
 * -power_policy choice, installed per SM by sm_power_gate). */
extern const pm_policy pm_policy_gated;
/* The policy to install on a non-cache domain (registers, SM) when `pol` is configured. */
const pm_policy *pm_policy_non_cache(const pm_policy *pol);
/* ... on a cache domain, and on the whole-SM domain. */
const pm_policy *pm_policy_cache(const pm_policy *pol);
const pm_policy *pm_policy_sm(const pm_policy *pol);

typedef struct pm_stats {
    uint64_t residency[PM_MODES]; /* block-cycles per mode, owner's clock */
    uint64_t entries[PM_MODES];   /* transitions into each low-power mode */
    uint64_t wakes;               /* accesses that found their block asleep or OFF */
    uint64_t wake_cycles;         /* cycles those accesses waited */
    uint64_t lost;                /* accesses that found their block OFF (data lost: a miss) */
    double transition_pj;         /* energy of mode round trips */
} pm_stats;

typedef struct pm_domain {
    const pm_policy *pol;  /* NULL: always ON (no per-block state is touched) */
    pm_table table;
    double block_leak_mw;  /* leakage of one block, ON */
    double mhz;            /* the owner's clock */
    uint32_t n;            /* blocks */
    uint8_t *mode;         /* per block (allocated only with a policy) */
    uint64_t *ready;       /* per block: cycle an early wake (pm_wake) completes */
    uint32_t *aux;         /* per block policy state (pol->needs_aux) */
    void *ps;              /* the policy's own state (pol->init) */
    uint32_t count[PM_MODES];
    uint64_t last;         /* cycle residency is integrated up to */
    uint64_t begin;        /* the kernel's first cycle (pm_kernel_begin) */
    uint8_t closed;        /* pm_close passed: nothing is counted until the next pm_kernel_begin (late
                            * fills between kernels change modes in no kernel's time) */
    pm_stats st;
    idle_hist *idle;       /* idle periods per block (cache domains under Snooze / [151]), or NULL */
    pm_ext ext;            /* all NULL: the C policy decides */
} pm_domain;

/* n blocks of block_leak_mw each; pol NULL or always_on = baseline. 0, or -1 (no memory). */
int pm_domain_init(pm_domain *d, uint32_t n, const pm_table *t, double block_leak_mw, double mhz,
                   const pm_policy *pol);
void pm_domain_free(pm_domain *d);
/* A policy is installed (anything but always-ON). */
static inline int pm_active(const pm_domain *d) { return d->pol != 0; }

/* Kernel boundaries: begin puts every block in the policy's initial mode at cycle now (the
 * statistics were zeroed by the registry); close integrates residency up to now and stops the
 * counting (modes may still change, e.g. a fill after the kernel exited) until the next begin. */
void pm_kernel_begin(pm_domain *d, uint64_t now);
void pm_close(pm_domain *d, uint64_t now);

/* Moves a block to a mode at cycle now; entering a low-power mode adds its transition energy. */
void pm_set(pm_domain *d, uint32_t block, pm_mode m, uint64_t now);
pm_mode pm_get(const pm_domain *d, uint32_t block);
/* An access to a block at cycle now: wakes it and returns the cycles the access waits (0 when ON);
 * *lost is set when the block was OFF (its data is gone). Tells the policy PM_EV_ACCESS. */
int pm_access(pm_domain *d, uint32_t block, uint64_t now, int *lost);
/* Wakes a block ahead of its access (a request seen in an input queue): it is ON from now, and an
 * access before now + W waits only the rest. Counts one wake; nothing when it is already ON. */
void pm_wake(pm_domain *d, uint32_t block, uint64_t now);
/* New data was written into a block that held nothing live: nothing of it is lost any more. */
void pm_filled(pm_domain *d, uint32_t block);
/* The block was read or written at now (its idle period ends): pm_access does it; a cache's fill too. */
void pm_note_access(pm_domain *d, uint32_t block, uint64_t now);
/* Snooze and [151] keep idle-period histograms of their cache blocks. */
int pm_policy_keeps_idle(const pm_policy *pol);
/* Reports an event to the policy (nothing without one). */
void pm_event_report(pm_domain *d, uint32_t block, pm_event ev, uint64_t now);
/* The C core as one external op (what d->ext answers for it; d has no ext): runs op on block b and
 * returns its outputs. The reference of the RTL testbench and of the recorder (power_ext.c). */
void pm_op_c(pm_domain *d, uint32_t block, int op, uint64_t now, pm_ext_out *out);

/* Derived figures. */
double pm_transition_pj(const pm_domain *d, int mode);        /* energy of one round trip */
/* Leakage energy (pJ) of n blocks over `cycles` of their clock, given the block-cycles spent in
 * each mode (residency[PM_ON] is not used: ON is whatever the other modes leave): n * cycles * P
 * minus what the low-power modes saved. Exact for always-ON: n * P * cycles / f. */
double pm_leakage_pj(const pm_table *t, double block_leak_mw, double mhz, double n, double cycles,
                     const double residency[PM_MODES]);
/* Break-even time from energies: the residency (cycles) after which a round trip of energy
 * transition_pj saves energy in a mode leaking `fraction` of block_leak_mw. */
double pm_breakeven_cycles(double transition_pj, double block_leak_mw, double fraction, double mhz);

#endif
