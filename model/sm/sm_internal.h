/* Pieces of the SM core shared between its files. */
#ifndef GTLM_SM_INTERNAL_H
#define GTLM_SM_INTERNAL_H

#include "sm_core.h"

#define SM_ID(route, payload) (((uint64_t)(route) << 62) | (uint64_t)(payload))
#define SM_ID_ROUTE(id) ((int)((id) >> 62))
#define SM_ID_PAYLOAD(id) ((id) & ((1ull << 62) - 1))

static inline fu_timing sm_fu(const sm_core *s, const ptx_instr *in)
{
    return s->fu_tab[in->op < OP_COUNT ? in->op : 0][in->type <= PT_F64 ? in->type : 0];
}

/* The hashed PC carried by the L1 line metadata and gtlm_mem_ext (5 bits, Linebacker's width). */
/* L1D prefetcher (sm_prefetch.c). on_access: a global demand request of the LD/ST unit's load
 * (first: the instruction's first request) with its L1 outcome, before the scheduler feedback;
 * targets_to_laws: after it. */
int sm_prefetch_init(sm_core *s);
void sm_prefetch_free(sm_core *s);
void sm_prefetch_reset(sm_core *s);
void sm_prefetch_on_access(sm_core *s, const coal_req *q, int first, cache_status st);
void sm_prefetch_targets_to_laws(sm_core *s);
/* One queued prefetch into the L1D (-gtlm_l1_prefetch_issue 1, 2); call with pf.q_n > 0 after the LD/ST stage. */
void sm_prefetch_cycle(sm_core *s, uint64_t cycle);

static inline uint32_t sm_pc_hash(uint32_t pc) { return pc & 31u; }

/* Writeback wheel and records (sm_wheel.c). */
int sm_wheel_init(sm_core *s, uint32_t size);
void sm_wheel_free(sm_core *s);
/* Due at cycle `at` (> the current cycle): release register reg of slot, or complete one access
 * of record rec. */
int sm_wheel_add(sm_core *s, uint64_t at, uint32_t slot, uint32_t reg, uint32_t rec);
/* Applies every event due at or before cycle. */
void sm_wheel_run(sm_core *s, uint64_t cycle);
uint64_t sm_wheel_next(const sm_core *s);
uint32_t sm_record_new(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t reg_base, int is_store,
                       uint64_t cycle);
/* One access of record r completed at cycle (the last one releases its registers). */
void sm_record_done(sm_core *s, uint32_t r, uint64_t cycle);

/* Linebacker (sm_linebacker.c): victim lines in unused registers. All no-ops unless -lb_enable. */
int sm_lb_init(sm_core *s);
void sm_lb_free(sm_core *s);
void sm_lb_kernel_begin(sm_core *s);
void sm_lb_tick(sm_core *s, uint64_t cycle);
/* Before a global load's L1 access of line: 1 when a victim line in the register file serves it
 * (a Reg hit, completing at the returned cycle in *done), 0 to go through the L1. */
int sm_lb_load_lookup(sm_core *s, uint64_t line, uint64_t cycle, int latency, uint64_t *done);
/* After the L1 access of a global load (hit: L1 hit or merged) / of a global store. */
void sm_lb_load_counted(sm_core *s, uint32_t pc, uint64_t line, int hit);
void sm_lb_store(sm_core *s, uint64_t line);
/* After the L1 access of a global load that went past a VTT miss: a miss whose request the L1 queued
 * leaves the SM only after the partition search (-lb_search_delay). */
void sm_lb_miss_queued(sm_core *s, uint64_t line, uint64_t cycle);
/* The L1's next outgoing request is a read still waiting for its search. */
int sm_lb_l1_held(const sm_core *s);
/* An L1 read left the SM. */
void sm_lb_l1_sent(sm_core *s, uint64_t line);
/* Recomputes the active partitions from the registers in use (throttling) and applies them. */
void sm_lb_update_vps(sm_core *s);

/* Linebacker's comparison baselines: PCAL, CacheExt, CERF (sm_lbcompare.c). */
void sm_lbc_l1_shape(const gtlm_config *cfg, gsim_cache_cfg *l1);
void sm_lbc_init(sm_core *s);
void sm_lbc_kernel_begin(sm_core *s);
/* The registers below the ones CacheExt / CERF took as L1 ways (the top of the file): Linebacker's
 * victim partitions stay under it (LB+CacheExt, Gap G23). n_regs when neither is on. */
uint32_t sm_lbc_free_top(const sm_core *s);
void sm_lbc_tick(sm_core *s, uint64_t cycle);
/* PCAL: 1 when this global load of slot skips the L1 (no token, line absent and not pending). */
int sm_lbc_pcal_bypass(sm_core *s, uint32_t slot, uint64_t line);
/* CERF: the register-bank access of a cached line (a hit's read, a fill's write); its wait. */
uint32_t sm_lbc_cerf_access(sm_core *s, uint64_t line, int is_write, uint64_t cycle);

/* Linebacker CTA throttling, register backup and restore (sm_lb_throttle.c). */
enum sm_lb_phase {
    SM_LB_ACTIVE = 0, /* schedulable */
    SM_LB_DRAINING,   /* throttled: waits for its in-flight work */
    SM_LB_BACKUP,     /* its registers go to memory through the buffer */
    SM_LB_BACKED,     /* inactive, registers in memory */
    SM_LB_RESTORING   /* its registers come back */
};
int sm_lbt_init(sm_core *s);
void sm_lbt_free(sm_core *s);
void sm_lbt_kernel_begin(sm_core *s);
/* Per tick: drain check, one buffer step through the RF arbiter, transfer start and completion. */
void sm_lbt_tick(sm_core *s, uint64_t cycle);
/* A period ended (IPC monitor): throttle, re-activate or keep. */
void sm_lbt_period_end(sm_core *s, uint64_t period_cycles);
/* CTA slot k starts / completes: its register region. */
void sm_lb_cta_start(sm_core *s, uint32_t k);
void sm_lb_cta_done(sm_core *s, uint32_t k);
int sm_lb_can_take_cta(const sm_core *s);
/* Warps of CTA slot k may not issue (throttled). */
static inline int sm_lb_held(const sm_core *s, uint32_t k) { return s->lb_phase && s->lb_phase[k] != SM_LB_ACTIVE; }
/* The buffer's request at the SM's port (it goes first), and its removal. */
int sm_lb_out_peek(const sm_core *s, sm_req *r);
void sm_lb_out_pop(sm_core *s);
/* A response to a request whose id has SM_LB_ID set. */
void sm_lb_response(sm_core *s, uint64_t payload);
/* First cycle >= cycle with Linebacker work (buffer, drain, a held miss), SM_NEVER when none. */
uint64_t sm_lb_next_work(const sm_core *s, uint64_t cycle);
#define SM_LB_ID (1ull << 61)   /* payload flag of the buffer's requests (route SM_ROUTE_ACK) */
#define SM_LB_ID_WRITE (1ull << 60)

/* APRES statistics (sm_locality.c): an L1D demand read's outcome, a prefetched line. */
int sm_locality_init(sm_core *s);
void sm_locality_free(sm_core *s);
void sm_locality_access(sm_core *s, uint64_t line, cache_status st);
void sm_locality_filled(sm_core *s, uint64_t line);

/* MASCAR's SM side (sm_rexq.c): the re-execution queue and the scheduler's signals. */
int sm_mascar_init(sm_core *s);
void sm_mascar_free(sm_core *s);
void sm_mascar_signals(sm_core *s); /* before the issue stage: saturation for the schedulers */
/* The LD/ST unit's load request q was refused by the L1D: 1 when parked in the queue. */
int sm_rexq_park(sm_core *s, const coal_req *q);
/* Before the LD/ST unit's own access: 1 when a parked request used the L1D port this cycle. */
int sm_rexq_cycle(sm_core *s, uint64_t cycle);
/* MRPB's SM side (sm_mrpb.c): the LD/ST unit's L1D requests through the per-warp reorder buffer. */
int sm_mrpb_init(sm_core *s);
void sm_mrpb_free(sm_core *s);
int sm_mrpb_push(sm_core *s, const coal_req *q);
void sm_mrpb_cycle(sm_core *s, uint64_t cycle);

/* LD/ST unit (sm_ldst.c). */
/* One request of the unit's instruction through the L1D (0: refused, retry). */
int sm_ldst_l1d_access(sm_core *s, const coal_req *q, uint64_t cycle);
/* The unit's instruction as a buffered request's owner, and the same access for a buffered request
   (the unit's own instruction is kept). */
void sm_ldst_who_now(const sm_core *s, sm_ldst_who *w);
int sm_ldst_l1d_replay(sm_core *s, const sm_ldst_who *w, const coal_req *q, uint64_t cycle);
/* Takes the memory instruction just executed by the warp in slot (acc: its accesses). */
void sm_ldst_accept(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t func, uint32_t pc,
                    uint32_t reg_base, const simt_mem_access *acc, uint64_t cycle);
void sm_ldst_cycle(sm_core *s, uint64_t cycle);
void sm_apply_response(sm_core *s, uint64_t cycle);
int sm_direct_push(sm_core *s, const sm_req *r);
sm_pc_stat *sm_pc_stat_of(sm_core *s, uint32_t func, uint32_t pc);

/* Power modes (sm_power.c): registers, L1D lines, the whole SM. */
int sm_power_init(sm_core *s);
void sm_power_free(sm_core *s);
/* Counts an instruction's register reads and writes; returns the cycles its operands wait to wake. */
uint32_t sm_power_operands(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t base, uint64_t cycle);
void sm_power_cta_start(sm_core *s, const sm_cta_slot *c, uint64_t cycle);
void sm_power_cta_done(sm_core *s, const sm_cta_slot *c);
/* The physical warp register (power block) of register reg (+ frame base) of the warp in slot,
 * and the register's place among its slot's registers (its storage unit). */
uint32_t sm_power_reg_block(const sm_core *s, uint32_t slot, uint32_t reg);
uint32_t sm_power_reg_unit(const sm_core *s, uint32_t reg);

/* Register-file policies' SM side (sm_power_rf.c; s->slb set only under slumber / wrf). */
typedef struct sm_slumber sm_slumber;
int sm_slumber_init(sm_core *s);
void sm_slumber_free(sm_core *s);
void sm_slumber_tick(sm_core *s, uint64_t cycle);
uint32_t sm_slumber_issue(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t base, uint64_t cycle);
/* Destinations of the issued instruction: written at write_at (a unit of known latency), 0 for a load. */
void sm_slumber_dests(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t base, uint64_t cycle, uint64_t write_at);
/* A result reaches register reg (+ base) of slot: the cycles it must wait (0: written, planned);
 * retry: it already waited (only the plan is left). */
uint32_t sm_slumber_writeback(sm_core *s, uint32_t slot, uint32_t reg, uint64_t cycle, int retry);
void sm_slumber_load_hit(sm_core *s, uint32_t slot);
void sm_slumber_load_miss(sm_core *s, sm_record *r, uint64_t cycle);
uint32_t sm_slumber_load_done(sm_core *s, sm_record *r, uint64_t cycle);
/* After scheduler order[0..n) issued order[from - 1] (from 0: none issued). */
void sm_slumber_lookahead(sm_core *s, const uint32_t *order, uint32_t n, uint32_t from, uint64_t cycle);
/* After scheduler sc ordered (before anything issues): warps that entered its pending pool sleep,
 * warps that left it wake (-slumber_park). */
void sm_slumber_pools(sm_core *s, const sched *sc, uint64_t cycle);
void sm_slumber_cta_start(sm_core *s, const sm_cta_slot *c, uint64_t cycle);
void sm_slumber_warp_done(sm_core *s, uint32_t slot, uint64_t cycle);
/* The running kernel's register map (-slumber_reg_map) and how many of a slot's registers it uses
 * (an allocation's count; the whole stride when the registers are spread). */
void sm_slumber_kernel_map(sm_core *s);
uint32_t sm_slumber_units_used(const sm_core *s);

/* Trace-driven warps (sm_trace.c). */
/* Starts CTA slot c from the trace: fills its block and warps. 0, or -1 with a message in err. */
int sm_trace_cta_start(sm_core *s, sm_cta_slot *c, const uint32_t ctaid[3], strbuf *err);
/* The memory accesses of slot's next trace line (acc->mask 0 when it has none). */
void sm_trace_accesses(sm_core *s, uint32_t slot, simt_mem_access *acc);
/* The lanes of slot's current trace line (those that executed it). */
uint32_t sm_trace_lanes(const sm_core *s, uint32_t slot);
/* Moves slot past its issued line (barriers and the end of the stream update the warp's state);
 * returns the line's active lanes. */
uint32_t sm_trace_advance(sm_core *s, uint32_t slot);

/* A warp slot holds a warp (PTX- or trace-driven), and the warp's state. */
static inline int sm_slot_live(const sm_warp_slot *ws) { return ws->w || ws->tw; }
static inline int sm_slot_state(const sm_warp_slot *ws)
{
    return ws->w ? (int)ws->w->state : ws->tw ? (int)ws->tw->state : (int)SIMT_WARP_DONE;
}

/* GPGPU-Sim 4.2 keeps a warp with an atomic in flight from issuing (shd_warp_t::waiting: m_n_atomic,
 * raised per lane at issue and lowered per response at writeback, so the warp waits for the whole
 * instruction); -gtlm_atomic_stalls_warp, -1 = only under --gpgpusim-compat. */
static inline int sm_atomic_stalls_warp(const gtlm_config *c)
{
    int v = c->sm.atomic_stalls_warp;
    return v >= 0 ? v : c->gpu.gpgpusim_compat;
}

/* Issue (sm_issue.c). */
void sm_issue_cycle(sm_core *s, uint64_t cycle);
/* Recomputes the status of every slot marked dirty. */
void sm_update_dirty(sm_core *s);
void sm_mark_dirty(sm_core *s, uint32_t slot);
void sm_mark_cta_dirty(sm_core *s, uint32_t cta);
/* Checks whether the CTA of slot finished and frees it. */
void sm_cta_check_done(sm_core *s, uint32_t cta);

#endif
