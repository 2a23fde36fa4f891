/* Warp scheduler: one object per scheduler of an SM, with a pluggable priority policy.
 *
 * Warp slots are split among the SM's schedulers as GPGPU-Sim does: SM warp slot w belongs to
 * scheduler w % n_schedulers. Inside a scheduler a warp has a local index j (slot = id + j * n).
 *
 * Each cycle the SM fills a status byte per SM warp slot (sched_status) and calls sched_order();
 * the scheduler writes its ready warps (SM slot numbers) in priority order, the SM tries them in
 * that order, issues the first one that can issue (functional unit free, ...) and reports it with
 * sched_issued(). Warp lifetimes come with sched_warp_start()/sched_warp_exit(); the LD/ST unit
 * reports each memory access outcome with sched_mem_feedback() (the DESIGN.md §10 seam for CCWS,
 * LAWS, ...).
 *
 * The common core (sched_registry.c) keeps what every policy needs: liveness, launch age, the
 * live warps sorted oldest first, the last issued warp, and the run-time active-warp limit
 * (sched_set_warp_limit, the §10 seam "active warp/CTA limit per SM, changeable at run time"):
 * with a limit L > 0 only the L oldest live warps of this scheduler may issue; the others are shown
 * to the policy as SCHED_WARP_THROTTLED. Policies see local indices only.
 *
 * A new policy is a new file defining a sched_policy plus one line in sched_registry.c.
 * Nothing here allocates after sched_init. */
#ifndef GTLM_SM_SCHED_H
#define GTLM_SM_SCHED_H

#include <stdint.h>

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

#define SCHED_NONE UINT32_MAX

/* Per warp slot, filled by the SM each cycle. */
enum sched_status {
    SCHED_WARP_IDLE = 0,       /* no live warp in the slot (ignored; liveness comes from warp_start) */
    SCHED_WARP_READY = 1,      /* has a decoded instruction whose operands are ready */
    SCHED_WARP_STALL = 2,      /* not ready for a short while (pipeline, short-latency operand, i-miss) */
    SCHED_WARP_STALL_LONG = 3, /* waits on a long-latency operation: a global/local load in flight,
                           * a barrier or a memory fence (two-level swaps such warps out) */
    SCHED_WARP_THROTTLED = 4   /* set by the core only: beyond the run-time warp limit */
};
/* Flag the SM may OR into a status byte: the warp waits at a barrier. The core strips it before
 * the policy sees the status; with barrier_free such a warp takes no slot of the warp limit (the
 * warps its barrier waits for could otherwise never issue: SWL would deadlock). */
#define SCHED_AT_BARRIER 0x80u

/* Memory-access outcome reported by the LD/ST unit. */
enum sched_mem_outcome { SCHED_MEM_HIT = 0, SCHED_MEM_MISS = 1, SCHED_MEM_MERGE = 2 };

/* Two-level and warp-limiting priority codes, GPGPU-Sim's scheduler_prioritization_type values. */
enum { SCHED_PRIO_LRR = 0, SCHED_PRIO_SRR = 1, SCHED_PRIO_GTO = 2, SCHED_PRIO_OLDEST = 5 };

struct sched;

typedef struct sched_policy {
    const char *name;
    /* Parses params, allocates *state. Returns 0, or -1 with a message in err. The core's fields
     * (n_local, id, n_sched, ...) are set before create is called. */
    int (*create)(struct sched *s, const long long *params, int nparams, void **state, strbuf *err);
    void (*destroy)(void *state);
    /* st[j]: status of local warp j (IDLE for dead warps, THROTTLED beyond the limit). Writes
     * the local indices of READY warps in priority order to out[] and returns their count. */
    uint32_t (*order)(void *state, struct sched *s, const uint8_t *st, uint32_t *out);
    /* Optional hooks (NULL = nothing to do); warp is a local index. The core's bookkeeping
     * (last_issued, by_age) is already updated when they run. */
    void (*on_issue)(void *state, const struct sched *s, uint32_t warp, uint64_t pc);
    void (*on_warp_start)(void *state, const struct sched *s, uint32_t warp);
    void (*on_warp_exit)(void *state, const struct sched *s, uint32_t warp);
    void (*on_mem_feedback)(void *state, const struct sched *s, uint32_t warp, uint64_t pc, int outcome);
    /* 1 when order() changes the policy's state (two-level's active set): the SM then calls it every
     * cycle a warp is live; 0 lets the SM skip it in cycles where no ready warp could issue. */
    int stateful_order;
    /* Optional: the issued instruction at pc is a global load (ld.global, not atomics); called
     * after on_issue. LAWS forms its warp groups here. */
    void (*on_global_load)(void *state, const struct sched *s, uint32_t warp, uint64_t pc);
    /* Optional L1 data-cache line events (CCWS' victim tags): a load of warp missed on line (the
     * line address), and a line left the L1 (any warp's; every scheduler of the SM hears it). */
    void (*on_l1_miss_line)(void *state, const struct sched *s, uint32_t warp, uint64_t line);
    void (*on_l1_evict)(void *state, const struct sched *s, uint64_t line);
    /* Optional: 1 while the warp waits outside the policy's active set (two-level's pending pool);
     * Slumber puts such a warp's registers to sleep until it returns. */
    int (*in_pending)(const void *state, uint32_t warp);
} sched_policy;

typedef struct sched {
    const sched_policy *pol;
    void *pstate;
    uint32_t id, n_sched;   /* this scheduler, schedulers per SM */
    uint32_t n_slots;       /* warp slots of the SM */
    uint32_t n_local;       /* warps this scheduler owns */
    /* per local warp */
    uint8_t *live;
    uint64_t *age;          /* launch order given at warp start (smaller = older) */
    uint32_t *by_age;       /* live local warps, oldest first (ties by local index) */
    uint32_t n_live;
    uint8_t *st;            /* scratch: statuses handed to the policy */
    uint32_t *out;          /* scratch: the policy's local order */
    uint32_t last_issued;   /* local index of the last issued warp, SCHED_NONE before any */
    uint32_t greedy;        /* last_issued while that warp lives, else SCHED_NONE */
    uint32_t warp_limit;    /* run-time active-warp limit, 0 = none */
    uint8_t barrier_free;   /* warps flagged SCHED_AT_BARRIER take no slot of the limit */
    /* SM signals for policies that look at memory (MASCAR): set by the SM before sched_order */
    uint8_t mem_saturated;        /* the L1D has no free MSHR or miss-queue slot */
    const uint8_t *slot_next_mem; /* per SM warp slot: the next instruction uses the LD/ST unit, or NULL */
    /* statistics */
    uint64_t cycles;            /* sched_order calls */
    uint64_t idle_cycles;       /* ... that returned no warp while some warp was live */
    uint64_t throttled_cycles;  /* ... in which the limit held back a READY warp */
    uint64_t issued;
    uint64_t mem_hits, mem_misses, mem_merges;
    uint64_t policy_events;     /* policy-defined (two-level: swaps out of the active set) */
} sched;

/* Registry: the policy with this name, or NULL. */
const sched_policy *sched_policy_find(const char *name);
/* Names of every registered policy, NULL-terminated. */
const char *const *sched_policy_names(void);

/* Creates scheduler `id` of `n_sched` for an SM with n_slots warp slots, policy from spec
 * (-gpgpu_scheduler). Returns 0, or -1 with a message in err (unknown policy, bad parameter,
 * out of memory, id >= n_sched). */
int sched_init(sched *s, const gsim_policy_spec *spec, uint32_t n_slots, uint32_t id, uint32_t n_sched,
               strbuf *err);
void sched_free(sched *s);

/* Slot mapping. */
static inline uint32_t sched_owner(uint32_t slot, uint32_t n_sched) { return slot % n_sched; }
static inline uint32_t sched_slot(const sched *s, uint32_t local) { return s->id + local * s->n_sched; }
static inline uint32_t sched_local(const sched *s, uint32_t slot) { return slot / s->n_sched; }

/* Warp lifetime; slot is an SM warp slot owned by this scheduler, age its launch order (e.g. a
 * per-SM counter of started warps). Return 0, or -1 for a foreign or out-of-range slot, starting a
 * live slot or exiting a dead one. */
int sched_warp_start(sched *s, uint32_t slot, uint64_t age);
int sched_warp_exit(sched *s, uint32_t slot);

/* status: one byte per SM warp slot (sched_status). Writes SM slots of this scheduler's issue
 * candidates, best first, to out (room for n_local entries) and returns the count. */
uint32_t sched_order(sched *s, const uint8_t *status, uint32_t *out);
/* The SM issued an instruction at pc from this (live, owned) slot. Returns 0 or -1. */
int sched_issued(sched *s, uint32_t slot, uint64_t pc);
/* The instruction sched_issued just reported for slot is a global load. Returns 0 or -1. */
int sched_global_load_issued(sched *s, uint32_t slot, uint64_t pc);
/* L1 line events for policies with on_l1_miss_line / on_l1_evict (no-ops otherwise). */
int sched_l1_miss_line(sched *s, uint32_t slot, uint64_t line);
void sched_l1_evict(sched *s, uint64_t line);
static inline int sched_wants_l1_lines(const sched *s) { return s->pol->on_l1_miss_line || s->pol->on_l1_evict; }
/* LD/ST feedback for a memory instruction of slot at pc (sched_mem_outcome); the warp need not be
 * live any more (a response may come after exit). Returns 0, or -1 for a foreign slot or bad outcome. */
int sched_mem_feedback(sched *s, uint32_t slot, uint64_t pc, int outcome);

/* Run-time active-warp limit of this scheduler, 0 = none; takes effect at the next sched_order. */
void sched_set_warp_limit(sched *s, uint32_t limit);
static inline uint32_t sched_warp_limit(const sched *s) { return s->warp_limit; }
/* Share of an SM-wide limit for scheduler id: limit / n, plus one for ids below limit % n.
 * 0 (no limit) gives 0; a share that would be 0 (limit < n) is 1, so that no scheduler starves. */
uint32_t sched_split_limit(uint32_t sm_limit, uint32_t id, uint32_t n_sched);

static inline int sched_is_idle(const sched *s) { return s->n_live == 0; }
/* The warp of this (owned) slot waits in the policy's pending pool (0 for a policy without one). */
static inline int sched_warp_pending(const sched *s, uint32_t slot)
{
    return s->pol->in_pending && s->pol->in_pending(s->pstate, sched_local(s, slot));
}

/* Policies (one file each). */
extern const sched_policy sched_policy_lrr;
extern const sched_policy sched_policy_gto;
extern const sched_policy sched_policy_two_level;
extern const sched_policy sched_policy_swl;
extern const sched_policy sched_policy_laws;
extern const sched_policy sched_policy_ccws;
extern const sched_policy sched_policy_mascar;
extern const sched_policy sched_policy_pa;
/* PA-sched's current fetch group (0 for another policy). */
uint32_t pa_current_group(const sched *s);

/* Helper for policies: writes READY warps among the first n of list[] to out, returns count. */
uint32_t sched_emit_ready(const uint32_t *list, uint32_t n, const uint8_t *st, uint32_t *out);
/* Helper: greedy-then-oldest order (greedy warp first when READY, then by_age). */
uint32_t sched_order_gto(const sched *s, const uint8_t *st, uint32_t *out);

#endif
