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

/* LD/ST unit (sm_ldst.c). */
/* Takes the memory instruction just executed by the warp in slot (acc: its accesses). */
void sm_ldst_accept(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t func, uint32_t pc,
                    uint32_t reg_base, const simt_mem_access *acc, uint64_t cycle);
void sm_ldst_cycle(sm_core *s, uint64_t cycle);
void sm_apply_response(sm_core *s, uint64_t cycle);
int sm_direct_push(sm_core *s, const sm_req *r);
sm_pc_stat *sm_pc_stat_of(sm_core *s, uint32_t func, uint32_t pc);

/* Issue (sm_issue.c). */
void sm_issue_cycle(sm_core *s, uint64_t cycle);
/* Recomputes the status of every slot marked dirty. */
void sm_update_dirty(sm_core *s);
void sm_mark_dirty(sm_core *s, uint32_t slot);
void sm_mark_cta_dirty(sm_core *s, uint32_t cta);
/* Checks whether the CTA of slot finished and frees it. */
void sm_cta_check_done(sm_core *s, uint32_t cta);

#endif
