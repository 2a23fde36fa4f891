/* The SM's issue stage: warp status (ready / why not), scheduler order, functional-unit and
 * register-bank checks, functional execution at issue, warp exit and CTA completion. */
#include <string.h>

#include "../simt/simt_internal.h"
#include "sm_internal.h"

const char *sm_stall_name(int reason)
{
    static const char *const names[SM_STALL_N] = {"issued", "idle", "memory", "scoreboard", "barrier",
                                                  "functional_unit", "throttled"};
    return reason >= 0 && reason < SM_STALL_N ? names[reason] : "?";
}

void sm_mark_dirty(sm_core *s, uint32_t slot)
{
    sm_warp_slot *ws = &s->warps[slot];
    if (ws->dirty) return;
    ws->dirty = 1;
    s->dirty_list[s->n_dirty++] = slot;
}

void sm_mark_cta_dirty(sm_core *s, uint32_t cta)
{
    uint32_t first = s->ctas[cta].first_slot;
    for (uint32_t i = 0; i < s->warps_per_cta; i++) sm_mark_dirty(s, first + i);
}

/* Recomputes the status of one slot. */
static void update_status(sm_core *s, uint32_t slot)
{
    sm_warp_slot *ws = &s->warps[slot];
    uint8_t old = ws->status;
    ws->dirty = 0;
    ws->next_in = NULL;
    if (!sm_slot_live(ws) || ws->exited) {
        ws->status = SCHED_WARP_IDLE;
        ws->why = SM_STALL_IDLE;
    } else if (sm_lb_held(s, ws->cta)) { /* Linebacker throttled its CTA */
        ws->status = SCHED_WARP_THROTTLED;
        ws->why = SM_STALL_THROTTLED;
    } else if (sm_slot_state(ws) == SIMT_WARP_AT_BARRIER || (ws->fence && ws->stores) || ws->atomics) {
        ws->status = SCHED_WARP_STALL_LONG;
        ws->why = SM_STALL_BARRIER;
    } else {
        if (ws->fence && !ws->stores) ws->fence = 0;
        const ptx_instr *in;
        uint32_t base = 0;
        if (ws->tw) {
            in = ws->tw->insn ? &ws->tw->cur : NULL;
            ws->next_fu = ws->tw->fu;
        } else {
            const ptx_func *f;
            in = simt_warp_next(ws->w, &f);
            base = simt_top(ws->w)->reg_base;
            if (in) ws->next_fu = sm_fu(s, in);
        }
        ws->next_in = in;
        if (!in || sb_can_issue_instr(&s->sb, slot, in, base)) {
            ws->status = SCHED_WARP_READY;
            ws->why = SM_STALL_NONE;
        } else if (ws->loads) {
            ws->status = SCHED_WARP_STALL_LONG;
            ws->why = SM_STALL_MEMORY;
        } else {
            ws->status = SCHED_WARP_STALL;
            ws->why = SM_STALL_SCOREBOARD;
        }
    }
    uint32_t k = slot % s->n_sched;
    if (old == SCHED_WARP_READY) {
        s->n_ready--;
        s->sched_ready[k]--;
        s->sched_ready_mem[k] -= ws->ready_mem;
    }
    ws->ready_mem = 0;
    if (ws->status == SCHED_WARP_READY) {
        s->n_ready++;
        s->sched_ready[k]++;
        ws->ready_mem = ws->next_in && ws->next_fu.unit == FU_MEM;
        s->sched_ready_mem[k] += ws->ready_mem;
    }
    if (s->next_mem) s->next_mem[slot] = ws->ready_mem;
    s->status[slot] = (uint8_t)(ws->status | (sm_slot_live(ws) && !ws->exited &&
                                              sm_slot_state(ws) == SIMT_WARP_AT_BARRIER ? SCHED_AT_BARRIER : 0));
    s->sched_why_dirty[slot % s->n_sched] = 1;
}

/* Why scheduler k issued nothing: the most telling reason among its live warps. */
static uint8_t sched_reason(const sm_core *s, uint32_t k)
{
    int seen[SM_STALL_N] = {0};
    for (uint32_t slot = k; slot < s->n_slots; slot += s->n_sched) seen[s->warps[slot].why]++;
    if (seen[SM_STALL_MEMORY]) return SM_STALL_MEMORY;
    if (seen[SM_STALL_SCOREBOARD]) return SM_STALL_SCOREBOARD;
    if (seen[SM_STALL_BARRIER]) return SM_STALL_BARRIER;
    if (seen[SM_STALL_THROTTLED]) return SM_STALL_THROTTLED;
    return SM_STALL_IDLE;
}

/* A free instance of unit for scheduler k: any instance, or with -gpgpu_sub_core_model only the
 * scheduler's own (instance i belongs to scheduler i mod schedulers). */
static int unit_free(sm_core *s, int unit, uint64_t cycle, uint32_t k)
{
    int sub = s->cfg->sm.sub_core_model;
    for (int i = sub ? (int)k : 0; i < s->fu_count[unit]; i += sub ? (int)s->n_sched : 1)
        if (s->fu_free[unit][i] <= cycle) return i;
    return -1;
}

static void warp_exit(sm_core *s, uint32_t slot)
{
    sm_warp_slot *ws = &s->warps[slot];
    ws->exited = 1;
    s->live_warps--;
    if (s->slb) sm_slumber_warp_done(s, slot, s->last_tick);
    sched_warp_exit(&s->scheds[slot % s->n_sched], slot);
    sm_cta_check_done(s, ws->cta);
}

void sm_cta_check_done(sm_core *s, uint32_t k)
{
    sm_cta_slot *c = &s->ctas[k];
    if (!c->live) return;
    for (uint32_t i = 0; i < s->warps_per_cta; i++) {
        sm_warp_slot *ws = &s->warps[c->first_slot + i];
        if (!sm_slot_live(ws)) continue;
        if (!ws->exited || ws->loads || ws->stores || sb_pending_count(&s->sb, c->first_slot + i)) return;
    }
    for (uint32_t i = 0; i < s->warps_per_cta; i++) {
        uint32_t slot = c->first_slot + i;
        sm_warp_slot *ws = &s->warps[slot];
        if (ws->status == SCHED_WARP_READY) {
            s->n_ready--;
            s->sched_ready[slot % s->n_sched]--;
            s->sched_ready_mem[slot % s->n_sched] -= ws->ready_mem;
            ws->ready_mem = 0;
        }
        ws->w = NULL;
        ws->tw = NULL;
        ws->status = SCHED_WARP_IDLE;
        ws->why = SM_STALL_IDLE;
        s->status[slot] = SCHED_WARP_IDLE;
        s->sched_why_dirty[slot % s->n_sched] = 1;
        sb_clear_warp(&s->sb, slot);
    }
    if (!s->trace) simt_cta_free(&c->cta);
    c->live = 0;
    sm_lb_cta_done(s, k);
    s->live_ctas--;
    sm_power_cta_done(s, c);
    s->finished++;
    s->st.ctas_done++;
    s->progress++;
    s->work++;
}

/* GPGPU-Sim 4.2's stages around a unit's pipeline, one cycle each (its core runs writeback,
 * execute, read_operands, issue in reverse order, so an instruction moves one stage a cycle): the
 * ID_OC register, a collector unit taking it, its bank reads, dispatch from the collector to the
 * unit, and the EX_WB register before writeback frees the scoreboard. Measured in Accel-Sim on
 * QV100: a dependent chain costs latency + 5 per step (FFMA, IADD3, LDC: 7 with latency 2;
 * MUFU.RSQ: 25 with latency 20). */
#define SM_GPGPUSIM_RESULT_STAGES 5

static int result_stages(const gtlm_config *c)
{
    int n = c->sm.result_stages;
    return n >= 0 ? n : c->gpu.gpgpusim_compat ? SM_GPGPUSIM_RESULT_STAGES : 0;
}

/* mov.indirect's second register access (docs/morpheus.md, "The native Indirect-MOV"): the read
 * form reads the indexed registers after its first reads (the returned extra operand cycles); the
 * write form writes them at writeback like any destination, reserved here since which ones is
 * known only once the index was read. */
static uint32_t imov_access(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t base, uint32_t first_extra,
                            uint64_t cycle)
{
    const simt_warp *w = s->warps[slot].w;
    s->st.imov_insn++;
    if (in->o[0].kind == PO_RARRAY) {
        uint32_t d[SIMT_WARP];
        for (uint32_t i = 0; i < w->imov_n; i++) d[i] = w->imov_reg[i] + base;
        sb_reserve(&s->sb, slot, d, (int)w->imov_n); /* free: the scoreboard held back a pending one */
        s->st.imov_writes += w->imov_n;
        s->st.rf_writes += w->imov_n;
        return 0;
    }
    uint64_t waited = s->rf.st.indirect_conflict_cycles;
    uint32_t extra = regfile_indirect_reads(&s->rf, slot, w->imov_reg, (int)w->imov_n, base, 1 + first_extra,
                                            (uint32_t)s->cfg->sm.imov_delay, cycle);
    s->st.imov_reads += w->imov_n;
    s->st.rf_reads += w->imov_n;
    s->st.imov_conflict_cycles += s->rf.st.indirect_conflict_cycles - waited;
    return extra;
}

/* The timing side of an issued instruction: counts, the scheduler's note, and the LD/ST unit or
 * the result's writeback. */
static void issue_done(sm_core *s, uint32_t slot, const ptx_instr *in, fu_timing t, int inst, uint32_t func,
                       uint32_t pc, uint32_t base, const simt_mem_access *acc, int fences, uint64_t cycle)
{
    sm_warp_slot *ws = &s->warps[slot];
    s->st.warp_insn++;
    s->st.fu_issued[t.unit]++;
    s->progress++;
    sched_issued(&s->scheds[slot % s->n_sched], slot, ((uint64_t)func << 32) | pc);
    /* a load whose lanes are all off accesses nothing: it gets no L1 outcome, so LAWS forms no group */
    if (acc && acc->mask && acc->space == PS_GLOBAL && !acc->is_store && !acc->is_atomic)
        sched_global_load_issued(&s->scheds[slot % s->n_sched], slot, ((uint64_t)func << 32) | pc);
    uint32_t wake = sm_power_operands(s, slot, in, base, cycle); /* 0 unless registers are gated */
    if (t.unit == FU_MEM) {
        sm_ldst_accept(s, slot, in, func, pc, base, acc, cycle);
        s->ldst.wake_until = cycle + wake; /* its operands wake before the first access */
        if (s->slb) sm_slumber_dests(s, slot, in, base, cycle, 0);
        return;
    }
    s->fu_free[t.unit][inst] = cycle + t.initiation;
    uint32_t extra = regfile_operand_reads(&s->rf, slot, in->src, in->nsrc, base, cycle);
    int imov = in->op == OP_MOV_INDIRECT && !ws->tw;
    uint32_t second = imov ? imov_access(s, slot, in, base, extra, cycle) : 0;
    s->st.bank_conflict_cycles += extra;
    extra += second + wake + (uint32_t)result_stages(s->cfg);
    if (s->slb) sm_slumber_dests(s, slot, in, base, cycle, cycle + t.latency + extra);
    for (int i = 0; i < in->ndst; i++)
        if (in->dst[i] != PTX_NO_REG) sm_wheel_add(s, cycle + t.latency + extra, slot, in->dst[i] + base, SM_NO_RECORD);
    if (imov && in->o[0].kind == PO_RARRAY) /* the write form's destinations */
        for (uint32_t i = 0; i < ws->w->imov_n; i++)
            sm_wheel_add(s, cycle + t.latency + extra, slot, ws->w->imov_reg[i] + base, SM_NO_RECORD);
    if (fences && ws->stores) ws->fence = 1;
}

/* A membar or fence with at least one lane on (lanes: those its guard leaves on); one whose
 * lanes are all predicated off does nothing, like any other predicated-off instruction. */
static int is_fence(const ptx_instr *in, uint32_t lanes) { return (in->op == OP_MEMBAR || in->op == OP_FENCE) && lanes; }

/* Issues the next instruction of slot. Returns 1 when issued, 0 when its unit is busy. */
static int try_issue(sm_core *s, uint32_t slot, uint64_t cycle, int avoid_unit)
{
    sm_warp_slot *ws = &s->warps[slot];
    const ptx_instr *in = ws->next_in; /* the slot is clean: update_status ran since it last changed */
    if (!in) return 0;
    fu_timing t = ws->next_fu;
    if (avoid_unit >= 0 && t.unit == avoid_unit) return 0;
    int inst = -1;
    if (t.unit == FU_MEM) {
        if (s->ldst.busy) return 0;
    } else {
        inst = unit_free(s, t.unit, cycle, slot % s->n_sched);
        if (inst < 0) return 0;
    }
    simt_mem_access acc;
    acc.mask = 0;
    int is_mem_op = t.unit == FU_MEM;
    uint32_t base = 0, func = 0, pc;
    uint16_t op = in->op;
    if (ws->tw) {
        pc = ws->tw->pc;
        if (!is_mem_op && in->ndst) sb_reserve_instr(&s->sb, slot, in, 0);
        if (is_mem_op) sm_trace_accesses(s, slot, &acc);
        issue_done(s, slot, in, t, inst, func, pc, base, &acc, is_fence(in, sm_trace_lanes(s, slot)), cycle);
        s->work++;
        s->st.thread_insn += sm_trace_advance(s, slot); /* in (the warp's current line) changes here */
    } else {
        simt_warp *w = ws->w;
        simt_entry *top = simt_top(w);
        base = top->reg_base;
        func = top->func;
        pc = top->pc;
        uint64_t thread_before = w->thread_insn;
        w->cta->clock = cycle;
        if (!is_mem_op && in->ndst) sb_reserve_instr(&s->sb, slot, in, base);
        /* The launch's memory observer sees every access, as in functional mode (ld.param too). */
        const simt_launch *l = s->launch;
        simt_mem_access seen;
        seen.mask = 0;
        simt_mem_access *rec = is_mem_op ? &acc : l->on_mem ? &seen : NULL;
        int fences = is_fence(in, op == OP_MEMBAR || op == OP_FENCE ? simt_guard_mask(w, top, in) : 0);
        if (rec) sm_serial_point(s); /* memory instructions (and every one a memory observer sees) */
        simt_status st = simt_warp_step(w, rec, &s->err);
        if (st != SIMT_OK) {
            s->error = 1;
            return 1;
        }
        if (l->on_mem && rec && rec->mask) l->on_mem(l, w, func, pc, rec, l->on_mem_ctx);
        s->st.thread_insn += w->thread_insn - thread_before;
        if (!simt_warp_spinning(w)) s->work++;
        issue_done(s, slot, in, t, inst, func, pc, base, &acc, fences, cycle);
    }
    sm_mark_dirty(s, slot);
    int state = sm_slot_state(ws);
    if (state != SIMT_WARP_READY || op == OP_BAR || op == OP_EXIT || op == OP_RET) sm_mark_cta_dirty(s, ws->cta);
    if (state == SIMT_WARP_DONE && !ws->exited) warp_exit(s, slot);
    return 1;
}

void sm_update_dirty(sm_core *s)
{
    while (s->n_dirty) update_status(s, s->dirty_list[--s->n_dirty]);
}

void sm_issue_cycle(sm_core *s, uint64_t cycle)
{
    sm_update_dirty(s);
    sm_mascar_signals(s);
    s->st.ready_warps_sum += s->n_ready;
    if (s->pm_l1d_idle && !s->n_ready) cache_pm_idle(&s->l1d, cycle); /* coarse151: no ready warp */
    if (cycle < s->pm_issue_at) { /* the SM is still waking from a power mode (never without a policy) */
        for (uint32_t k = 0; k < s->n_sched; k++) {
            s->st.stall[SM_STALL_IDLE]++;
            s->st.issue_slots++;
            s->last_why[k] = SM_STALL_IDLE;
        }
        return;
    }
    int max_per_warp = s->cfg->sm.max_insn_issue_per_warp > 0 ? s->cfg->sm.max_insn_issue_per_warp : 1;
    for (uint32_t k = 0; k < s->n_sched && !s->error; k++) {
        sched *sc = &s->scheds[k];
        if (sched_is_idle(sc)) {
            s->last_why[k] = SM_STALL_IDLE;
            continue;
        }
        int pure = !sc->pol->stateful_order;
        if (pure && !s->sched_ready[k] && !s->sched_why_dirty[k] && s->last_why[k] != SM_STALL_NONE &&
            s->last_why[k] != SM_STALL_FU) {
            /* No ready warp and nothing changed: the same stall as last cycle, without ordering. */
            s->st.stall[s->last_why[k]]++;
            s->st.issue_slots++;
            continue;
        }
        if (pure && s->ldst.busy && s->sched_ready[k] && s->sched_ready[k] == s->sched_ready_mem[k] && !sc->warp_limit) {
            /* Every ready warp needs the busy LD/ST unit: a functional-unit stall, known without ordering. */
            s->last_why[k] = SM_STALL_FU;
            s->st.stall[SM_STALL_FU]++;
            s->st.issue_slots++;
            continue;
        }
        uint64_t throttled_before = sc->throttled_cycles;
        uint32_t n = sched_order(sc, s->status, s->order);
        if (s->slb) sm_slumber_pools(s, sc, cycle);
        int issued = 0;
        uint32_t next = 0; /* where the scheduler's look-ahead starts */
        for (uint32_t i = 0; i < n && !issued && !s->error; i++) {
            uint32_t slot = s->order[i];
            if (s->warps[slot].status != SCHED_WARP_READY) continue;
            int first_unit = s->warps[slot].next_in ? s->warps[slot].next_fu.unit : -1;
            if (!try_issue(s, slot, cycle, -1)) continue;
            issued = 1;
            next = i + 1;
            for (int extra = 1; extra < max_per_warp && !s->error; extra++) {
                update_status(s, slot);
                if (s->warps[slot].status != SCHED_WARP_READY) break;
                int avoid = s->cfg->sm.dual_issue_diff_units ? first_unit : -1;
                if (!try_issue(s, slot, cycle, avoid)) break;
            }
        }
        if (s->slb) sm_slumber_lookahead(s, s->order, n, next, cycle);
        uint8_t why;
        if (issued) why = SM_STALL_NONE;
        else if (n) why = SM_STALL_FU;
        else if (sc->throttled_cycles != throttled_before) why = SM_STALL_THROTTLED;
        else if (s->sched_why_dirty[k]) {
            why = sched_reason(s, k);
            s->sched_why_dirty[k] = 0;
        } else why = s->last_why[k];
        if (!issued && n == 0 && why == SM_STALL_NONE) why = sched_reason(s, k);
        s->last_why[k] = why;
        s->st.stall[why]++;
        s->st.issue_slots++;
    }
}
