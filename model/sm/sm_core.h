/*
 * One SM (shader core) of the timing model, in core cycles: warp slots, warp schedulers
 * (sched.h policies), scoreboard, functional-unit pipelines, register-file banks, the LD/ST unit
 * with the coalescer, the L1 data cache (cache_core), the constant cache and shared memory, and
 * CTA slots. Instructions execute functionally when they issue (simt_warp_step); the timing model
 * decides when they may issue and when their results become readable.
 *
 * Pipeline (one tick = one core cycle), in this order:
 *   1. responses: at most one returning memory response is applied (L1/constant fill, which wakes
 *      the merged requests, or an atomic / bypass / store-ack completion);
 *   2. writeback: results whose latency elapsed release their scoreboard entries;
 *   3. LD/ST: the memory instruction in the LD/ST unit moves one request through the L1 tag stage
 *      (or one shared-memory pass); a reservation failure retries the same request next cycle;
 *   4. issue: each scheduler orders its ready warps (policy) and issues the first whose unit is
 *      free, up to -gpgpu_max_insn_issue_per_warp instructions of that warp.
 * A warp is ready when it is live, not at a barrier or a memory fence, and its next instruction
 * has no pending source or destination register (scoreboard). Register-file banks: the sources of
 * an instruction are read through the register file's arbiter (model/regfile): bank (register +
 * warp if -gpgpu_reg_bank_use_warp_id) % banks; an instruction whose sources share a bank, or use
 * banks other instructions issued the same cycle read, is delayed one cycle per extra read of the
 * busiest bank (a simplified operand collector: the delay adds to the result latency; issue itself
 * is not blocked). Each CTA slot owns a contiguous range of physical warp registers.
 *
 * The SM talks to the memory system through two queues: sm_core_out_* (requests leaving for the
 * interconnect) and sm_core_response() (responses coming back). It allocates only at init and at
 * kernel start.
 */
#ifndef GTLM_SM_CORE_H
#define GTLM_SM_CORE_H

#include <stdint.h>

#include "../cache/cache_core.h"
#include "../cbwt/mrpb.h"
#include "../cbwt/pdp_l1.h"
#include "../prefetch/sap.h"
#include "../prefetch/sld.h"
#include "../prefetch/str.h"
#include "../common/strbuf.h"
#include "../gpu/gpu_config.h"
#include "../linebacker/lb_ctl.h"
#include "../linebacker/lb_monitor.h"
#include "../linebacker/lb_vtt.h"
#include "../linebacker/lb_xfer.h"
#include "../lbcompare/pcal.h"
#include "../regfile/regfile.h"
#include "../simt/simt.h"
#include "coalescer.h"
#include "fu_class.h"
#include "sched.h"
#include "scoreboard.h"

#define SM_NEVER UINT64_MAX
#define SM_NO_RECORD UINT32_MAX
#define SM_WB_RETRY (UINT32_MAX - 1) /* a write-back event that already waited for its register */

/* Where a response goes: encoded in the request's id (see sm_core_response). */
enum sm_req_route { SM_ROUTE_L1D = 0, SM_ROUTE_L1C = 1, SM_ROUTE_RECORD = 2, SM_ROUTE_ACK = 3 };

typedef enum sm_req_kind {
    SM_REQ_LOAD = 0, SM_REQ_STORE, SM_REQ_ATOMIC, SM_REQ_WRITEBACK,
    SM_REQ_REG_BACKUP,  /* Linebacker: a backed-up warp register written to memory */
    SM_REQ_REG_RESTORE  /* Linebacker: ... read back */
} sm_req_kind;

/* A request leaving the SM. */
typedef struct sm_req {
    uint64_t addr;       /* line address (sector requests: the line; sector_mask says which) */
    uint64_t id;         /* returned in the response: route << 62 | payload */
    uint32_t bytes;      /* data moved: read size or write size */
    uint32_t pc;         /* instruction index (0 for write-backs) */
    uint32_t pc_hash;
    uint32_t warp, cta;  /* warp slot, CTA slot */
    uint8_t kind;        /* sm_req_kind */
    uint8_t sector_mask;
    uint8_t bypass;      /* not allocated in L1 */
    uint8_t prefetch;    /* a read an L1 prefetcher queued (gtlm_mem_ext kind Prefetch) */
    uint64_t queued;     /* core cycle it entered its queue (L1 miss queue, bypass queue), SM_NEVER: unknown */
} sm_req;

/* Why a scheduler issued nothing in a cycle (GPGPU-Sim's stall breakdown). */
enum sm_stall {
    SM_STALL_NONE = 0,   /* issued */
    SM_STALL_IDLE,       /* no live warp */
    SM_STALL_MEMORY,     /* every live warp waits on a memory operation in flight */
    SM_STALL_SCOREBOARD, /* ... on a short-latency result */
    SM_STALL_BARRIER,    /* ... at a barrier or memory fence */
    SM_STALL_FU,         /* a warp was ready but its unit (or the LD/ST unit) was busy */
    SM_STALL_THROTTLED,  /* ready warps were held back by the active-warp limit */
    SM_STALL_N
};
const char *sm_stall_name(int reason);

typedef struct sm_stats {
    uint64_t cycles;          /* cycles with a CTA resident (active cycles) */
    uint64_t warp_insn, thread_insn;
    uint64_t issue_slots;     /* scheduler-cycles */
    uint64_t stall[SM_STALL_N]; /* scheduler-cycles per reason (NONE = issued) */
    uint64_t active_warps_sum;  /* sum over active cycles of resident warps (occupancy) */
    uint64_t ready_warps_sum;   /* sum over active cycles of READY warp slots (reported under Slumber/WRF) */
    uint64_t ctas_done;
    uint64_t fu_issued[FU_N];
    uint64_t bank_conflict_cycles;
    /* mov.indirect (Morpheus' Indirect-MOV): instructions, their second register reads (read form)
     * and writes (write form), and the cycles those reads waited for their bank */
    uint64_t imov_insn, imov_reads, imov_writes, imov_conflict_cycles;
    uint64_t rf_reads, rf_writes;             /* 128-byte warp register accesses */
    uint64_t ldst_res_fail[CACHE_FAIL_COUNT]; /* L1 reservation failures that stalled LD/ST */
    uint64_t l1_bank_conflicts;               /* L1D requests that waited a cycle for their bank */
    uint64_t shmem_insn, shmem_passes, shmem_conflict_cycles;
    uint64_t gmem_insn, gmem_requests, lmem_requests, cmem_requests, atomic_requests, bypass_requests;
    uint64_t requests_out, responses_in;
    uint64_t load_latency_sum, load_latency_n; /* issue -> last data, per global/local load instr */
    uint64_t load_latency_hist[16];            /* log2 buckets of the same */
    uint64_t mem_latency_sum, mem_latency_n;   /* request out -> response in, per request */
    /* Linebacker (-lb_enable; sm_linebacker.c) */
    uint64_t lb_reg_hits;        /* L1 misses served from a victim line in the register file */
    uint64_t lb_reg_hit_latency; /* their cycles (L1 latency + partition search + bank wait), summed */
    uint64_t lb_vtt_misses;      /* L1 misses that searched the active partitions in vain */
    uint64_t lb_victims_stored;  /* useful L1 victims moved into registers */
    uint64_t lb_victims_dropped; /* L1 victims not kept (not a selected load's, or no active partition) */
    uint64_t lb_monitor_tag_hits; /* monitoring: L1 misses whose tag was among the victim tags */
    uint64_t lb_store_invalidations; /* victim lines invalidated by a store */
    uint64_t lb_periods;         /* monitoring periods ended */
    uint64_t lb_activations;     /* kernels where the Load Monitor selected loads */
    uint64_t lb_disabled;        /* kernels where it found none (not cache sensitive) */
    uint64_t lb_selected_loads;  /* selected HPC entries, summed over activations */
    uint64_t lb_active_vps;      /* active partitions, summed over activations */
    uint64_t lb_search_cycles;   /* partition-search cycles L1 misses waited before leaving the SM */
    uint64_t lb_throttles, lb_reactivations; /* CTA throttling decisions (IPC monitor) */
    uint64_t lb_backups, lb_restores;        /* CTAs whose registers went out / came back */
    uint64_t lb_restores_on_completion;      /* ... restored because another CTA completed */
    uint64_t lb_backup_bytes, lb_restore_bytes;
    uint64_t lb_drain_cycles;    /* cycles throttled CTAs waited for their in-flight work */
    uint64_t lb_xfer_cycles;     /* cycles the backup/restore buffer was busy */
    uint64_t lb_buffer_peak;     /* largest buffer occupancy */
    uint64_t lb_sur_reg_cycles, lb_dur_reg_cycles; /* unused warp registers x active cycles (time averages) */
    uint64_t lb_vp_reg_cycles;   /* warp registers in active partitions x active cycles */
    uint64_t lb_active_cta_cycles; /* schedulable CTAs x active cycles */
    uint64_t lb_vp_changes;      /* changes of the active partition mask */
    uint64_t lb_lm_accesses;     /* Load Monitor entries read or written (energy, Table 3) */
    uint64_t lb_ctam_accesses;   /* CTA manager updates: CTA start / done, throttle, backup / restore (energy) */
    /* -lb_load_stats: per hashed PC (Load Monitor entry), over every SM's monitoring periods */
    uint64_t lb_ld_hits[LB_LM_ENTRIES], lb_ld_misses[LB_LM_ENTRIES]; /* L1 or victim-tag hits, misses */
    uint64_t lb_ld_high[LB_LM_ENTRIES];     /* periods it was above the hit threshold */
    uint64_t lb_ld_selected[LB_LM_ENTRIES]; /* kernels in which it was selected */
    /* Linebacker's comparison baselines (sm_lbcompare.c) */
    uint64_t pcal_bypasses;      /* PCAL: loads of warps without a token that skipped the L1 */
    uint64_t pcal_periods;       /* PCAL: sampling periods ended */
    uint64_t pcal_token_cycles, pcal_warp_cycles; /* PCAL: T and W x cycles with a CTA resident */
    uint64_t l1ext_way_kernels;  /* CacheExt / CERF: extra L1 ways, summed over kernels */
    uint64_t cerf_reg_hits;      /* CERF: L1 hits read from the register banks */
    uint64_t cerf_wait_cycles;   /* CERF: cycles those reads waited for their bank */
} sm_stats;

/* Per load PC of the current kernel: L1 outcomes (the per-load-PC miss record). */
typedef struct sm_pc_stat {
    uint32_t key;              /* func << 20 | pc, + 1 (0 = empty) */
    uint64_t accesses, hits, misses, merged;
} sm_pc_stat;

typedef struct sm_record {      /* a memory instruction with accesses in flight */
    uint32_t slot;              /* warp slot */
    uint32_t outstanding;       /* accesses not complete */
    uint32_t ndst;
    uint32_t dst[PTX_MAX_REGS_PER_INSTR];
    uint64_t issue_cycle;
    uint8_t is_store, long_latency, in_use;
    uint8_t is_atomic;          /* counted in its warp slot's atomics until it completes */
    uint8_t pm_gated, pm_learned; /* Slumber: destinations gated at the L1 miss; its level learned */
    uint8_t pm_written;           /* Slumber: the write-back reached the registers (waits counted) */
    uint64_t miss_cycle;
    uint32_t next_free;
} sm_record;

typedef struct sm_event {       /* a writeback due at a cycle */
    uint32_t slot;
    uint32_t reg;               /* register slot, or SM_NO_RECORD with rec set */
    uint32_t rec;               /* record whose one access completes, or SM_NO_RECORD */
} sm_event;

typedef struct sm_bucket { sm_event *ev; uint32_t n, cap; } sm_bucket;

/* A warp of a trace-driven CTA (sm_trace.c): its instruction stream and the next instruction
 * as the pipeline sees it. */
typedef struct sm_trace_warp {
    const struct trace_insn *insn; /* next instruction, NULL when every one issued */
    uint32_t left;              /* instructions not yet issued */
    uint32_t pc;                /* the next instruction's index (trace PC / instruction size) */
    uint8_t state;              /* simt_warp_state */
    uint8_t is_mem;             /* the next instruction goes to the LD/ST unit */
    ptx_instr cur;              /* the next instruction: op, registers (only those fields) */
    uint32_t cur_regs[2 * PTX_MAX_REGS_PER_INSTR]; /* cur's src then dst */
    fu_timing fu;               /* its unit, latency and initiation interval */
} sm_trace_warp;

typedef struct sm_warp_slot {
    simt_warp *w;               /* PTX-driven: the warp; NULL when free or trace-driven */
    sm_trace_warp *tw;          /* trace-driven: the warp; NULL otherwise */
    uint32_t cta;               /* CTA slot */
    uint32_t loads;             /* long-latency memory instructions in flight */
    uint32_t stores;            /* store/atomic instructions whose writes are not acknowledged */
    uint32_t atomics;           /* atomic instructions (ATOM, RED) whose responses have not all returned */
    uint8_t dirty;              /* status must be recomputed */
    uint8_t status;             /* sched_status */
    uint8_t why;                /* sm_stall reason when not ready */
    uint8_t exited;
    uint8_t fence;              /* a membar waits for this warp's stores */
    const ptx_instr *next_in;   /* the next instruction, valid while the slot is not dirty */
    fu_timing next_fu;          /* ... its unit and timing */
    uint8_t ready_mem;          /* READY and next_in needs the LD/ST unit */
} sm_warp_slot;

typedef struct sm_cta_slot {
    simt_cta cta;               /* PTX-driven */
    struct trace_tb *tb;        /* trace-driven: the block's instructions (allocated once) */
    sm_trace_warp *tws;         /* trace-driven: its warps (warps_per_cta, allocated once) */
    uint32_t t_live, t_arrived; /* trace-driven: warps not done, warps waiting at the barrier */
    uint32_t ctaid[3];
    uint8_t live;
    uint32_t first_slot;
} sm_cta_slot;

/* Where trace-driven CTAs come from (the simulator's trace reader). */
typedef struct sm_trace_source {
    /* Fills tb with thread block ctaid of the current kernel. 0, or -1 with a message in err. */
    int (*get_tb)(void *ctx, const uint32_t ctaid[3], struct trace_tb *tb, strbuf *err);
    void *ctx;
    const struct trace_opcode_table *ops; /* the reader's opcodes (ids grow while reading) */
    uint32_t binary_version;    /* instruction size: 8 bytes below 70, 16 from 70 */
    uint64_t shmem_base, local_base; /* generic addresses in [base, base + 4 GB) are shared / local */
    uint32_t shmem_per_cta;     /* the kernel's shared memory per CTA (the adaptive L1 carve-out) */
} sm_trace_source;

/* Per trace opcode id: how the pipeline treats it (sm_trace.c, filled on first use). */
typedef struct sm_trace_op {
    uint8_t known;
    uint16_t op;                /* ptx_op standing for it: OP_LD, OP_ST, OP_ATOM, OP_RED, OP_BAR,
                                   OP_MEMBAR, OP_EXIT or OP_ADD */
    uint8_t space;              /* ptx_space of a memory op (PS_GENERIC: by address) */
    fu_timing fu;
} sm_trace_op;

typedef struct sm_rsp {         /* a response waiting to be applied */
    uint64_t id, addr;
    uint64_t ready;             /* cycle it may be applied */
    uint8_t sector_mask;
} sm_rsp;

typedef struct sm_ldst {        /* the memory instruction in the LD/ST unit */
    uint8_t busy;
    uint8_t space;              /* ptx_space */
    uint8_t is_store, is_atomic;
    uint32_t slot, rec, pc, func;
    uint64_t shared_done;       /* shared memory: cycle the last pass ends */
    uint64_t wake_until;        /* operand registers waking from a power mode until this cycle */
    int next;                   /* next coalesced request */
    coal_result reqs;
} sm_ldst;

/* A prefetch waiting for the L1D tag port (-gtlm_l1_prefetch_issue 1, 2); SAP's carry their target warp. */
typedef struct sm_pf_pending {
    uint64_t addr;
    int64_t warp;               /* the target's logical warp ID (SAP), checked again at issue */
    uint32_t pc, slot;
    uint8_t has_target;
} sm_pf_pending;

/* The L1D prefetcher of the SM (sm_prefetch.c; -gtlm_l1_prefetcher). */
typedef struct sm_prefetch {
    int kind;                   /* 0 none, 1 str, 2 sld, 3 sap */
    str_pf str;
    sld_pf sld;
    sap sap;
    uint32_t *members;          /* SAP: scratch for a LAWS group (n_slots) */
    int64_t *member_ids;
    sap_prefetch *pf;
    uint32_t n_targets;         /* SAP targets waiting for LAWS (members[0..n_targets)) */
    uint64_t sap_targets;       /* warps SAP returned to LAWS */
    uint64_t storage_bytes;     /* SAP: APRES' Table II storage (LAWS + SAP) of this SM */
    int issue;                  /* -gtlm_l1_prefetch_issue: 0 at the trigger, 1 idle L1 port, 2 own port */
    sm_pf_pending *q;           /* prefetches waiting for the port: a ring of SM_PF_QUEUE */
    uint32_t q_head, q_n;
    uint64_t port_cycle;        /* the last cycle a demand request took the L1D tag port */
    uint64_t port_shared;       /* prefetches that accessed the L1D in a cycle a demand request did */
    uint64_t superseded;        /* SAP prefetches a newer group's trigger replaced before they issued */
    uint64_t queue_full;        /* STR/SLD prefetches refused by a full queue */
    uint64_t stale;             /* SAP prefetches whose target warp had exited when their turn came */
} sm_prefetch;

#define SM_PF_QUEUE 48u /* SAP's warp queue (Table II: 48 entries); STR and SLD use the same */

/* APRES' L1D locality, latency and traffic counters (sm_locality.c; -gtlm_apres_stats). */
typedef struct sm_locality {
    int on;
    uint64_t *lines;            /* every line ever filled or prefetched into this L1 (open addressing, line | 1) */
    uint64_t cap, n;
    int last_hit;               /* the previous demand read of the L1D hit */
    uint64_t hit_after_hit, hit_after_miss, merged, cold_misses, capacity_misses;
    uint64_t demand_latency_sum, demand_latency_n, demand_bytes;
    uint64_t pf_latency_sum, pf_latency_n, pf_bytes;
} sm_locality;

/* MASCAR's cache-access re-execution queue (sm_rexq.c): loads the L1D refused, parked so that
 * the LD/ST unit goes on with the next instruction. */
/* Whose a buffered L1D request is (MASCAR's re-execution queue, MRPB's reorder buffer): what
 * the LD/ST unit needs to access the L1D for it later (sm_ldst_l1d_replay). */
typedef struct sm_ldst_who {
    uint32_t slot, rec, pc, func;
    uint8_t space, is_store;
    int index;                  /* the request's index in its instruction (0: the first) */
} sm_ldst_who;
typedef struct sm_rexq_entry {
    sm_ldst_who who;
    coal_req q;
} sm_rexq_entry;
typedef struct sm_rexq {
    sm_rexq_entry *e;           /* ring; NULL without MASCAR */
    uint32_t head, n, cap;
    uint64_t parked, replayed, full; /* statistics: parked, re-executed, refused for want of room */
} sm_rexq;

/* Retry sleep (sm_retry_sleep.c): what each edge skipped after the last tick counts. */
#define SM_RETRY_MAX_SCHED 32  /* -gpgpu_num_sched_per_core's upper bound */
#define SM_RETRY_IDLE 0xFF     /* the scheduler has no warp: it counts nothing */
typedef struct sm_retry_plan {
    uint8_t allowed;            /* set by the owner when nothing observes the SM per edge */
    uint8_t armed;              /* the last tick ended with the LD/ST unit only retrying */
    uint8_t fail_why;           /* the L1's remembered failure (cache_fail_reason) */
    uint8_t why[SM_RETRY_MAX_SCHED]; /* per scheduler: the stall each edge counts, or SM_RETRY_IDLE */
    uint64_t live_warps;        /* added to active_warps_sum per edge */
} sm_retry_plan;

typedef struct sm_core {
    int id;
    const gtlm_config *cfg;
    /* sizes */
    uint32_t n_slots, n_cta_slots, n_sched;
    uint32_t max_ctas_kernel;   /* occupancy of the current kernel */
    uint32_t kernel_regs;       /* its ptxas registers per thread (0: unknown; set before kernel begin) */
    /* kernel */
    const simt_launch *launch;  /* PTX-driven kernel, or NULL */
    const sm_trace_source *trace; /* trace-driven kernel, or NULL */
    sm_trace_op *trace_ops;     /* per opcode id */
    uint32_t n_trace_ops;
    uint32_t warps_per_cta;
    /* state */
    sm_warp_slot *warps;
    sm_cta_slot *ctas;
    uint32_t live_ctas, live_warps;
    uint64_t warp_age;
    sched *scheds;
    uint8_t *status;            /* per slot, for sched_order */
    uint32_t *order;            /* scratch */
    uint32_t n_dirty;           /* slots whose status must be recomputed */
    uint32_t *dirty_list;
    uint32_t n_ready;           /* slots READY after the last issue stage */
    uint32_t *sched_ready;      /* per scheduler: its READY slots (a scheduler with none skips ordering) */
    uint32_t *sched_ready_mem;  /* ... of which the next instruction needs the LD/ST unit */
    uint8_t *sched_why_dirty;   /* per scheduler: its stall reason must be recomputed */
    scoreboard sb;
    uint32_t sb_regs;
    fu_timing fu_tab[OP_COUNT][PT_F64 + 1]; /* fu_timing_of per (opcode, type), computed once */
    uint8_t fu_count[FU_N];     /* unit instances per class (fu_unit_count, computed once) */
    uint64_t fu_free[FU_N][FU_MAX_UNITS]; /* per unit instance: first cycle it accepts an instruction */
    regfile rf;                 /* register file: banks, arbiter, CTA register ranges (model/regfile) */
    /* Linebacker (-lb_enable): Load Monitor, Victim Tag Table, next period boundary */
    int lb_on;
    int lb_storing;             /* a store is in the L1: its write-evict is no victim */
    lb_monitor lb_lm;
    lb_vtt lb_vtt;
    uint64_t lb_next_period;    /* 0: set at the kernel's first tick */
    uint64_t lb_search;         /* partition-search cycles of the last VTT miss (0: none) */
    uint64_t lb_now;            /* the cycle of the last tick */
    uint64_t *lb_dly;           /* ring of L1 misses held for their search: line, ready cycle pairs */
    uint32_t lb_dly_head, lb_dly_n, lb_dly_cap;
    /* Linebacker CTA throttling (sm_lb_throttle.c, -lb_throttle) */
    int lb_thr_on;              /* throttling runs in this kernel */
    int lb_just_active;         /* the Load Monitor selected loads at this period end */
    lb_ctl lb_ctl;              /* IPC monitor and CTA manager, indexed by register region */
    lb_xfer lb_xfer;            /* the backup/restore buffer */
    uint32_t lb_xfer_serial;    /* tags the buffer's requests (stale responses are ignored) */
    uint32_t lb_xfer_cta;       /* CTA slot the buffer works for */
    uint32_t lb_xfer_from;      /* restore: the CTA's region in the backup (LIFO top) */
    uint8_t *lb_phase;          /* per CTA slot: sm_lb_phase */
    uint32_t *lb_region;        /* per CTA slot: its register region (FRN = region x #reg) */
    uint32_t lb_limit;          /* run-time limit of schedulable CTAs */
    uint32_t lb_react_pending;  /* re-activations waiting for their restore (statistics) */
    uint64_t lb_period_insn;    /* warp_insn at the period's start */
    uint64_t lb_acc_at;         /* time averages accumulated up to this cycle */
    uint32_t lb_vp_mask;        /* active partitions (for the waveforms) */
    double lb_last_ipc;         /* IPC of the last period (for the waveforms, x1000 there) */
    /* Linebacker's comparison baselines (sm_lbcompare.c, model/lbcompare) */
    int pcal_on, l1ext_on, cerf_on;
    pcal pcal;                  /* PCAL's tokens and warp limit */
    uint64_t pcal_next;         /* next period end (0: set at the kernel's first tick) */
    uint64_t pcal_insn;         /* warp_insn at the period's start */
    uint64_t pcal_at;           /* time averages accumulated up to this cycle */
    uint64_t pcal_first_period; /* pcal_periods at the kernel's start: its first period is warm-up */
    uint32_t l1_base_ways;      /* the L1's own ways (-gpgpu_cache:dl1) */
    uint32_t l1_extra_ways;     /* ways the kernel's unused registers add */
    /* writeback wheel */
    sm_bucket *wheel;
    uint32_t wheel_size;        /* power of two > longest latency */
    uint64_t wheel_pending;     /* events in the wheel */
    uint64_t wheel_cycle;       /* next cycle whose bucket is unprocessed */
    uint64_t *wheel_bits;       /* bit b: bucket b holds events (so runs and next skip empty ones) */
    /* records */
    sm_record *rec;
    uint32_t n_rec, rec_free, rec_used;
    /* memory */
    cache_core l1d, l1c;
    int l1d_enabled;
    pdp_l1 pdp;                 /* CBWT's L1D policy (mode off: no hooks) */
    coal_mode coal;
    sm_ldst ldst;
    sm_prefetch pf;
    sm_rexq rexq;
    mrpb mrpb;                  /* MRPB's reorder buffer in front of the L1D (sm_mrpb.c; 0 queues: none) */
    sm_locality loc;
    uint8_t *next_mem;          /* per slot: next instruction uses the LD/ST unit (MASCAR only, else NULL) */
    sm_req *direct;             /* requests that skip the L1 (atomics, bypassed loads): ring */
    uint32_t direct_head, direct_n, direct_cap;
    uint32_t out_rr;            /* round-robin among the request sources */
    sm_rsp *rsp;                /* ring of responses */
    uint32_t rsp_head, rsp_n, rsp_cap;
    uint64_t outstanding;       /* requests out without a response */
    /* per load PC */
    sm_pc_stat *pcs;
    uint32_t pc_cap, pc_n;
    /* accounting across skipped cycles */
    uint64_t last_tick;         /* last cycle ticked (SM_NEVER before the first) */
    uint8_t *last_why;          /* per scheduler: the last cycle's stall reason */
    sm_retry_plan retry;
    uint64_t progress;          /* instructions issued + memory events: the watchdog's measure */
    uint64_t work;              /* CTAs started and finished + instructions of warps that do not spin
                                 * (simt_warp_spinning): the livelock watchdog's measure */
    uint32_t finished;          /* CTAs completed, not yet taken by the dispatcher */
    /* power modes (sm_power.c) */
    pm_domain rf_pm;            /* one block per 128-byte warp register */
    pm_domain sm_pm;            /* the whole SM */
    uint32_t rf_stride;         /* warp registers per warp slot */
    uint64_t pm_issue_at;       /* the SM wakes from a power mode: no issue before this cycle */
    int pm_l1d_idle;            /* coarse151: the L1D hears PM_EV_IDLE in cycles with no ready warp */
    struct sm_slumber *slb;     /* register-file policy's SM side (sm_power_rf.c), NULL without one */
    int error;                  /* a simt error stopped the SM */
    simt_error err;
    sm_stats st;
    /* -gtlm_threads: SMs of one edge tick in parallel; before its first access to state other SMs
     * share (the functional memory image: global loads, stores, atomics) the SM's tick calls
     * serial.enter, which returns once every SM before it in the edge's order has ticked. NULL
     * when the SM ticks alone (sm_serial_point). */
    struct { void (*enter)(void *ctx); void *ctx; uint8_t entered; } serial;
} sm_core;

/* The SM's tick is about to touch shared state: wait for its turn (once per tick). */
static inline void sm_serial_point(sm_core *s)
{
    if (s->serial.enter && !s->serial.entered) {
        s->serial.entered = 1;
        s->serial.enter(s->serial.ctx);
    }
}

/* A read's response reached the SM (-gtlm_apres_stats): its latency and bytes, demand or prefetch. */
void sm_locality_response(sm_core *s, int prefetch, uint32_t bytes, uint64_t latency);

/* Builds the SM from the configuration (schedulers, caches, units). Returns 0, or -1 with a
 * message in err. */
int sm_core_init(sm_core *s, const gtlm_config *cfg, int id, strbuf *err);
void sm_core_free(sm_core *s);

/* Kernel boundaries: begin sizes the scoreboard for the launch, sets its CTA limit per SM and
 * invalidates the L1s (GPGPU-Sim's per-kernel L1 flush); end drops per-kernel state. */
int sm_core_kernel_begin(sm_core *s, const simt_launch *l, uint32_t ctas_per_sm);
/* The same for a trace-driven kernel: CTAs come from src, warps_per_cta from the trace header;
 * the scoreboard covers R0..R254. */
int sm_core_kernel_begin_trace(sm_core *s, const sm_trace_source *src, uint32_t warps_per_cta, uint32_t ctas_per_sm);
void sm_core_kernel_end(sm_core *s);
/* CBWT: every scheduler's run-time warp limit (0 = none), and the most warps a scheduler can
   hold in this kernel (the resident CTAs' warps, shared out, at most its slots): n_max. */
void sm_core_set_warp_limit(sm_core *s, uint32_t per_sched);
uint32_t sm_core_warps_per_sched(const sm_core *s);

int sm_core_can_take_cta(const sm_core *s);
/* Starts a CTA of the current launch. Returns 0, or -1 (no slot, no memory). */
int sm_core_start_cta(sm_core *s, const uint32_t ctaid[3], uint64_t cycle);

void sm_core_tick(sm_core *s, uint64_t cycle);
/* First cycle >= cycle at which a tick has work; SM_NEVER when waiting for a response. */
uint64_t sm_core_next_work(const sm_core *s, uint64_t cycle);
/* The part of sm_core_next_work that waits for events: responses, the wheel, Linebacker. */
uint64_t sm_core_next_event(const sm_core *s, uint64_t cycle);
/* A request waits to leave towards the interconnect. */
int sm_core_has_out(const sm_core *s);
/* Retry sleep (sm_retry_sleep.c). arm: at the end of a tick, plans the counts of the edges that
 * follow if they only retry a remembered L1 failure. sleeps: whether the edges from `cycle` on
 * only count (link_free: the link would take a request now), so that the SM need not tick
 * before sm_core_next_event. catch_up: at a tick, counts the edges skipped since the last one. */
void sm_retry_arm(sm_core *s, uint64_t next);
int sm_retry_sleeps(const sm_core *s, uint64_t cycle, int link_free);
void sm_retry_catch_up(sm_core *s, uint64_t cycle);
/* No CTA resident and nothing in flight. */
int sm_core_idle(const sm_core *s);
/* Appends a line per CTA whose warps wait at a barrier (which warps, which barrier, where);
 * returns the number of waiting warps. */
uint32_t sm_core_describe_barriers(const sm_core *c, strbuf *out);
/* CTAs completed since the last call (the dispatcher uses it to refill). */
uint32_t sm_core_take_finished(sm_core *s);

/* Requests towards the interconnect: the next one (0 when none), and remove it once sent. */
int sm_core_out_peek(sm_core *s, sm_req *r);
void sm_core_out_pop(sm_core *s, uint64_t cycle);

/* A response to request id (its line address and sectors) arrives, usable from cycle ready. */
int sm_core_response(sm_core *s, uint64_t id, uint64_t addr, uint8_t sector_mask, uint64_t ready);

/* Power-mode residency: kernel start and end (core cycles) of the SM's domains. */
void sm_power_kernel_begin(sm_core *s, uint64_t now);
/* Power-gates the SM for the run (IBL, Morpheus): its registers, L1D lines and logic are OFF from
 * every kernel start (leaking the OFF fraction of -power_modes_*), its clock power is gated. 0 or -1. */
int sm_power_gate(sm_core *s);
void sm_power_close(sm_core *s, uint64_t now);

/* Watchdog: the state of the SM's non-idle parts, one line each. */
void sm_core_describe(const sm_core *s, strbuf *out);

/* Per-load-PC records of the current kernel: count and entry i. */
uint32_t sm_core_pc_count(const sm_core *s);
const sm_pc_stat *sm_core_pc_at(const sm_core *s, uint32_t i);

#endif
