/* Linebacker's CTA throttling in the SM (issue 18, spec linebacker.md §3.4-3.5, Gaps G3-G9).
 *
 * The IPC monitor (lb_ctl) ends a period every -lb_period cycles; once the Load Monitor selected
 * loads it throttles one CTA at once, then one more whenever the IPC rose by more than
 * -lb_ipc_upper and re-activates one when it fell by more than -lb_ipc_lower (hysteresis band
 * between). The SM's run-time CTA limit (lb_limit) follows; a throttled CTA's warps stop issuing
 * (SCHED_WARP_THROTTLED), drain their in-flight work, and its #reg warp registers go to memory
 * through the 6-entry buffer as 128-byte writes at the SM's port (MemKind::RegBackup), to a LIFO
 * region at a constant address per SM. The region's registers then become victim-cache space
 * (dynamically unused registers). Whenever a CTA may run again (a CTA completed, or the limit
 * rose) the CTA backed up last is restored first, before any new CTA is dispatched: its
 * partitions are deactivated, its lines read back with priority and written through the arbiter.
 * Register regions are decoupled from CTA slots: a CTA takes the lowest free region, so the
 * running CTAs stay at the bottom of the file and the free space on top.
 * Functional register values stay with the warps (the timing model moves bytes, not values). */
#include <stdlib.h>
#include <string.h>

#include "sm_internal.h"


int sm_lbt_init(sm_core *s)
{
    s->lb_phase = calloc(s->n_cta_slots, 1);
    s->lb_region = calloc(s->n_cta_slots, sizeof *s->lb_region);
    if (!s->lb_phase || !s->lb_region) return -1;
    lb_xfer_init(&s->lb_xfer, (uint32_t)s->cfg->lb.buffer, s->cfg->lb.backup_ack);
    return 0;
}

void sm_lbt_free(sm_core *s)
{
    free(s->lb_phase);
    free(s->lb_region);
    s->lb_phase = NULL;
    s->lb_region = NULL;
}

static uint64_t backup_base(const sm_core *s)
{
    return LB_BACKUP_BASE + (uint64_t)s->id * LB_BACKUP_SM_BYTES;
}

void sm_lbt_kernel_begin(sm_core *s)
{
    if (!s->lb_phase) return;
    memset(s->lb_phase, 0, s->n_cta_slots);
    for (uint32_t k = 0; k < s->n_cta_slots; k++) s->lb_region[k] = k;
    const lb_config *c = &s->cfg->lb;
    s->lb_thr_on = c->throttle && !c->victim_all && s->rf.cta_nreg > 0 &&
                   lb_ctl_reset(&s->lb_ctl, s->rf.cta_nreg, s->max_ctas_kernel, backup_base(s), c->ipc_upper,
                                c->ipc_lower) == 0;
    s->lb_limit = s->max_ctas_kernel;
    lb_xfer_init(&s->lb_xfer, (uint32_t)c->buffer, c->backup_ack);
    s->lb_xfer_serial++;
    s->lb_period_insn = s->st.warp_insn;
    s->lb_just_active = 0;
    s->lb_react_pending = 0;
}

/* The lowest region free for a CTA: unallocated and not a backed-up CTA's, or `own` (the region a
 * CTA being restored was backed up from: still allocated, its values are in memory). */
static uint32_t free_region(const sm_core *s, uint32_t own)
{
    for (uint32_t r = 0; r < s->rf.resident; r++)
        if (r == own || (!s->rf.cta_alloc[r] && !s->lb_ctl.cta[r].used)) return r;
    return LB_CTL_NONE;
}

static uint32_t cta_of_region(const sm_core *s, uint32_t r)
{
    for (uint32_t k = 0; k < s->max_ctas_kernel; k++)
        if (s->ctas[k].live && s->lb_region[k] == r) return k;
    return LB_CTL_NONE;
}

static uint32_t n_schedulable(const sm_core *s)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->max_ctas_kernel; k++)
        n += s->ctas[k].live && (s->lb_phase[k] == SM_LB_ACTIVE || s->lb_phase[k] == SM_LB_RESTORING);
    return n;
}

void sm_lb_cta_start(sm_core *s, uint32_t k)
{
    if (!s->lb_thr_on) {
        regfile_alloc_cta(&s->rf, k);
        return;
    }
    uint32_t r = free_region(s, LB_CTL_NONE);
    if (r == LB_CTL_NONE) r = k; /* cannot happen: dispatch waits while a backup holds a region */
    s->lb_region[k] = r;
    s->lb_phase[k] = SM_LB_ACTIVE;
    regfile_alloc_cta(&s->rf, r);
    lb_ctl_cta_start(&s->lb_ctl, r);
    s->st.lb_ctam_accesses++; /* Per-CTA Info set */
    sm_lb_update_vps(s);
}

void sm_lb_cta_done(sm_core *s, uint32_t k)
{
    if (!s->lb_thr_on) {
        regfile_release_cta(&s->rf, k);
        return;
    }
    uint32_t r = s->lb_region[k];
    regfile_release_cta(&s->rf, r);
    lb_ctl_cta_done(&s->lb_ctl, r);
    s->st.lb_ctam_accesses++;
    s->lb_phase[k] = SM_LB_ACTIVE; /* a throttled CTA whose warps had all exited completed while draining */
    sm_lb_update_vps(s);
}

int sm_lb_can_take_cta(const sm_core *s)
{
    if (!s->lb_thr_on) return 1;
    for (uint32_t k = 0; k < s->max_ctas_kernel; k++)
        if (s->ctas[k].live && s->lb_phase[k] != SM_LB_ACTIVE) return 0; /* restore first */
    return n_schedulable(s) < s->lb_limit;
}

/* The CTA's warps have nothing in flight (Gap G8): no load, store, pending result or LD/ST work. */
static int drained(const sm_core *s, uint32_t k)
{
    const sm_cta_slot *c = &s->ctas[k];
    if (s->ldst.busy && s->warps[s->ldst.slot].cta == k) return 0;
    for (uint32_t i = 0; i < s->warps_per_cta; i++) {
        const sm_warp_slot *ws = &s->warps[c->first_slot + i];
        if (!sm_slot_live(ws)) continue;
        if (ws->loads || ws->stores || sb_pending_count(&s->sb, c->first_slot + i)) return 0;
    }
    return 1;
}

/* Some warp of CTA k has not exited (a CTA whose warps all exited only waits to complete). */
static int has_running_warp(const sm_core *s, uint32_t k)
{
    const sm_cta_slot *c = &s->ctas[k];
    for (uint32_t i = 0; i < s->warps_per_cta; i++) {
        const sm_warp_slot *ws = &s->warps[c->first_slot + i];
        if (sm_slot_live(ws) && !ws->exited) return 1;
    }
    return 0;
}

static void throttle_one(sm_core *s)
{
    if (lb_ctl_n_active(&s->lb_ctl) <= 1) return;
    uint32_t top = LB_CTL_NONE; /* the CTA lb_ctl_throttle takes: the active one highest in the file */
    for (uint32_t r = 0; r < s->lb_ctl.n_slots; r++)
        if (s->lb_ctl.cta[r].used && s->lb_ctl.cta[r].act) top = r;
    uint32_t k = top == LB_CTL_NONE ? LB_CTL_NONE : cta_of_region(s, top);
    if (k == LB_CTL_NONE || !has_running_warp(s, k)) return;
    lb_ctl_throttle(&s->lb_ctl);
    s->st.lb_ctam_accesses++; /* ACT cleared; FRN and BP read for the backup */
    s->lb_phase[k] = SM_LB_DRAINING;
    s->lb_limit = n_schedulable(s);
    sm_mark_cta_dirty(s, k);
    s->st.lb_throttles++;
}

void sm_lbt_period_end(sm_core *s, uint64_t period_cycles)
{
    if (!s->lb_thr_on) return;
    lb_ctl_retire(&s->lb_ctl, s->st.warp_insn - s->lb_period_insn);
    s->lb_period_insn = s->st.warp_insn;
    lb_ctl_action a = lb_ctl_period_end(&s->lb_ctl, period_cycles);
    s->lb_last_ipc = s->lb_ctl.cur_ipc;
    if (s->lb_lm.state != LB_ACTIVE) return;
    if (s->lb_just_active) { /* throttling starts right after monitoring (spec §3.2) */
        s->lb_just_active = 0;
        throttle_one(s);
        return;
    }
    double prev = s->lb_ctl.prev_ipc;
    int drop = prev > 0.0 && (s->lb_ctl.cur_ipc - prev) / prev < s->lb_ctl.lower;
    if (a == LB_CTL_THROTTLE) {
        throttle_one(s);
    } else if (drop && s->lb_limit < s->max_ctas_kernel) {
        /* one more CTA may run: the last backed-up one is restored (below), else a new one starts */
        s->lb_limit++;
        s->st.lb_reactivations++;
        uint32_t inactive = 0; /* CTAs this re-activation may bring back */
        for (uint32_t k = 0; k < s->max_ctas_kernel; k++) inactive += s->ctas[k].live && s->lb_phase[k] != SM_LB_ACTIVE;
        if (s->lb_react_pending < inactive) s->lb_react_pending++;
    }
}

static void start_backup(sm_core *s, uint32_t k)
{
    uint32_t r = s->lb_region[k];
    lb_xfer_start(&s->lb_xfer, LB_XFER_BACKUP, k, regfile_frn(&s->rf, r), s->lb_ctl.bp, s->rf.cta_nreg);
    s->lb_xfer_serial++;
    s->lb_xfer_cta = k;
    s->lb_phase[k] = SM_LB_BACKUP;
}

static int start_restore(sm_core *s)
{
    uint32_t from = lb_ctl_restore_pick(&s->lb_ctl);
    uint32_t k = from == LB_CTL_NONE ? LB_CTL_NONE : cta_of_region(s, from);
    if (k == LB_CTL_NONE) return 0;
    uint32_t to = free_region(s, from);
    if (to == LB_CTL_NONE) return 0;
    regfile_release_cta(&s->rf, from);
    regfile_alloc_cta(&s->rf, to); /* its registers hold live values again: partitions there go */
    s->lb_region[k] = to;
    sm_lb_update_vps(s);
    lb_xfer_start(&s->lb_xfer, LB_XFER_RESTORE, k, regfile_frn(&s->rf, to), s->lb_ctl.cta[from].ba, s->rf.cta_nreg);
    s->lb_xfer_serial++;
    s->lb_xfer_cta = k;
    s->lb_xfer_from = from;
    s->lb_phase[k] = SM_LB_RESTORING;
    s->st.lb_ctam_accesses++; /* BA read, ACT set */
    if (s->lb_react_pending) s->lb_react_pending--; /* the IPC monitor asked for it */
    else s->st.lb_restores_on_completion++;        /* a CTA completed */
    return 1;
}

static void finish(sm_core *s)
{
    uint32_t k = s->lb_xfer_cta, r = s->lb_region[k];
    if (s->lb_xfer.kind == LB_XFER_BACKUP) {
        lb_ctl_backup_done(&s->lb_ctl, r);
        regfile_set_cta_active(&s->rf, r, 0); /* dynamically unused from now on */
        s->lb_phase[k] = SM_LB_BACKED;
        s->st.lb_backups++;
        s->st.lb_backup_bytes += (uint64_t)s->lb_xfer.n * LB_XFER_LINE;
    } else {
        lb_ctl_restore_done(&s->lb_ctl, s->lb_xfer_from, r);
        s->lb_phase[k] = SM_LB_ACTIVE;
        sm_mark_cta_dirty(s, k);
        s->st.lb_restores++;
        s->st.lb_restore_bytes += (uint64_t)s->lb_xfer.n * LB_XFER_LINE;
    }
    lb_xfer_finish(&s->lb_xfer);
    s->st.lb_ctam_accesses++; /* C, BA, FRN, BP and LRN updated */
    sm_lb_update_vps(s);
}

void sm_lbt_tick(sm_core *s, uint64_t cycle)
{
    if (!s->lb_thr_on) return;
    lb_xfer *x = &s->lb_xfer;
    if (x->kind != LB_XFER_IDLE) {
        s->st.lb_xfer_cycles++;
        int w;
        uint32_t rn = lb_xfer_rf_next(x, &w);
        if (rn != UINT32_MAX) { /* one register through the arbiter per cycle */
            regfile_nonop_access(&s->rf, rn, w, cycle);
            lb_xfer_rf_done(x);
        }
        if (x->peak > s->st.lb_buffer_peak) s->st.lb_buffer_peak = x->peak;
        if (lb_xfer_complete(x)) finish(s);
    }
    if (x->kind != LB_XFER_IDLE) return;
    for (uint32_t k = 0; k < s->max_ctas_kernel; k++) { /* a drained CTA's backup goes first */
        if (!s->ctas[k].live || s->lb_phase[k] != SM_LB_DRAINING) continue;
        if (!drained(s, k)) {
            s->st.lb_drain_cycles++;
            continue;
        }
        start_backup(s, k);
        return;
    }
    if (n_schedulable(s) < s->lb_limit) start_restore(s);
}

int sm_lb_out_peek(const sm_core *s, sm_req *r)
{
    uint64_t addr;
    int is_write;
    if (!s->lb_thr_on || !lb_xfer_mem_peek(&s->lb_xfer, &addr, &is_write)) return 0;
    memset(r, 0, sizeof *r);
    r->addr = addr;
    r->bytes = LB_XFER_LINE;
    r->kind = is_write ? SM_REQ_REG_BACKUP : SM_REQ_REG_RESTORE;
    r->cta = s->lb_xfer_cta;
    r->warp = s->ctas[s->lb_xfer_cta].first_slot;
    r->bypass = 1;
    r->id = SM_ID(SM_ROUTE_ACK, SM_LB_ID | (is_write ? SM_LB_ID_WRITE : 0) | s->lb_xfer_serial);
    return 1;
}

void sm_lb_out_pop(sm_core *s)
{
    lb_xfer_mem_sent(&s->lb_xfer);
    if (lb_xfer_complete(&s->lb_xfer)) finish(s);
}

void sm_lb_response(sm_core *s, uint64_t payload)
{
    if ((uint32_t)payload != s->lb_xfer_serial) return; /* an earlier transfer's acknowledgement */
    lb_xfer_mem_response(&s->lb_xfer, (payload & SM_LB_ID_WRITE) != 0);
    if (lb_xfer_complete(&s->lb_xfer)) finish(s);
}

uint64_t sm_lb_next_work(const sm_core *s, uint64_t cycle)
{
    uint64_t t = SM_NEVER;
    if (s->lb_dly_n) t = s->lb_dly[2 * s->lb_dly_head + 1];
    if (!s->lb_thr_on) return t < cycle ? cycle : t;
    int w;
    if (lb_xfer_rf_next(&s->lb_xfer, &w) != UINT32_MAX) return cycle;
    for (uint32_t k = 0; k < s->max_ctas_kernel; k++)
        if (s->ctas[k].live && s->lb_phase[k] == SM_LB_DRAINING && s->lb_xfer.kind == LB_XFER_IDLE) return cycle;
    if (s->lb_xfer.kind == LB_XFER_IDLE && lb_ctl_restore_pick(&s->lb_ctl) != LB_CTL_NONE &&
        n_schedulable(s) < s->lb_limit)
        return cycle;
    return t < cycle ? cycle : t;
}
