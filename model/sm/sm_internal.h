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

/* LD/ST unit (sm_ldst.c). */
/* One request of the unit's instruction through the L1D (0: refused, retry). */
int sm_ldst_l1d_access(sm_core *s, const coal_req *q, uint64_t cycle);
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

/* Trace-driven warps (sm_trace.c). */
/* Starts CTA slot c from the trace: fills its block and warps. 0, or -1 with a message in err. */
int sm_trace_cta_start(sm_core *s, sm_cta_slot *c, const uint32_t ctaid[3], strbuf *err);
/* The memory accesses of slot's next trace line (acc->mask 0 when it has none). */
void sm_trace_accesses(sm_core *s, uint32_t slot, simt_mem_access *acc);
/* Moves slot past its issued line (barriers and the end of the stream update the warp's state);
 * returns the line's active lanes. */
uint32_t sm_trace_advance(sm_core *s, uint32_t slot);

/* A warp slot holds a warp (PTX- or trace-driven), and the warp's state. */
static inline int sm_slot_live(const sm_warp_slot *ws) { return ws->w || ws->tw; }
static inline int sm_slot_state(const sm_warp_slot *ws)
{
    return ws->w ? (int)ws->w->state : ws->tw ? (int)ws->tw->state : (int)SIMT_WARP_DONE;
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
