/* The SM's LD/ST unit: memory instructions after issue. Shared memory pays its bank-conflict
 * passes; parameter reads a fixed L1-hit latency; constant reads go through the constant cache;
 * global and local accesses are coalesced and their requests pass the L1 tag stage one per cycle
 * (up to one per L1 bank and cycle with -gpgpu_l1_banks).
 * Atomics, and global loads when -gpgpu_gmem_skip_L1D is set, skip the L1 and go to the L2. The
 * unit holds one instruction; the next memory instruction issues once the last request of the
 * current one passed the tag stage. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cache/l1_bank.h"
#include "../simt/simt_internal.h"
#include "smem_banks.h"
#include "sm_internal.h"
#include "../config/opt_limits.h"

#define CONST_LINE 64u

sm_pc_stat *sm_pc_stat_of(sm_core *s, uint32_t func, uint32_t pc)
{
    uint32_t key = ((func << 20) | (pc & 0xFFFFF)) + 1;
    if (s->pc_n * 2 >= s->pc_cap) { /* grow and rehash */
        uint32_t cap = s->pc_cap ? s->pc_cap * 2 : 256;
        sm_pc_stat *t = calloc(cap, sizeof *t);
        if (!t) return NULL;
        for (uint32_t i = 0; i < s->pc_cap; i++) {
            if (!s->pcs[i].key) continue;
            uint32_t h = (s->pcs[i].key * 2654435761u) & (cap - 1);
            while (t[h].key) h = (h + 1) & (cap - 1);
            t[h] = s->pcs[i];
        }
        free(s->pcs);
        s->pcs = t;
        s->pc_cap = cap;
    }
    uint32_t h = (key * 2654435761u) & (s->pc_cap - 1);
    while (s->pcs[h].key && s->pcs[h].key != key) h = (h + 1) & (s->pc_cap - 1);
    if (!s->pcs[h].key) {
        s->pcs[h].key = key;
        s->pc_n++;
    }
    return &s->pcs[h];
}

int sm_direct_push(sm_core *s, const sm_req *r)
{
    if (s->direct_n == s->direct_cap) {
        uint32_t cap = s->direct_cap ? s->direct_cap * 2 : 64;
        sm_req *q = malloc(cap * sizeof *q);
        if (!q) return -1;
        for (uint32_t i = 0; i < s->direct_n; i++) q[i] = s->direct[(s->direct_head + i) % s->direct_cap];
        free(s->direct);
        s->direct = q;
        s->direct_cap = cap;
        s->direct_head = 0;
    }
    s->direct[(s->direct_head + s->direct_n) % s->direct_cap] = *r;
    s->direct_n++;
    return 0;
}

/* Groups the active lanes' constant addresses by 64-byte line (one constant-cache access each). */
/* Global and local requests pass the L1D but atomics and bypassed global loads (and, as in
 * GPGPU-Sim 4.2, bypassed global stores: -gtlm_gmem_skip_l1d_stores). */
static int uses_l1d(const sm_core *s, const sm_ldst *u, int space)
{
    int v = s->cfg->sm.gmem_skip_l1d_stores;
    int stores_too = v >= 0 ? v : s->cfg->gpu.gpgpusim_compat;
    return !(u->is_atomic ||
             ((!u->is_store || stores_too) && space == PS_GLOBAL && s->cfg->l1.gmem_skip_l1d));
}

static void const_lines(const simt_mem_access *acc, coal_result *out)
{
    out->n = 0;
    out->n_lines = 0;
    for (int l = 0; l < SIMT_WARP; l++) {
        if (!(acc->mask >> l & 1)) continue;
        uint64_t line = acc->addr[l] & ~(uint64_t)(CONST_LINE - 1);
        int k;
        for (k = 0; k < out->n && out->req[k].line != line; k++) {}
        if (k == out->n && out->n < COAL_MAX_REQS) {
            out->req[k].addr = line;
            out->req[k].line = line;
            out->req[k].lanes = 0;
            out->req[k].sectors = 0;
            out->req[k].full = 0;
            out->req[k].bytes = CONST_LINE;
            out->n++;
            out->n_lines++;
        }
        if (k < out->n) out->req[k].lanes |= 1u << l;
    }
}

void sm_ldst_accept(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t func, uint32_t pc,
                    uint32_t reg_base, const simt_mem_access *acc, uint64_t cycle)
{
    sm_warp_slot *ws = &s->warps[slot];
    int is_store = in->op == OP_ST || in->op == OP_RED;
    if (!acc->mask) return; /* no lane executed it: nothing to do */
    if (!is_store) sb_reserve_instr(&s->sb, slot, in, reg_base);
    uint32_t rec = sm_record_new(s, slot, in, reg_base, is_store, cycle);
    if (rec == SM_NO_RECORD) {
        s->error = 1;
        s->err.status = SIMT_ERR_NOMEM;
        snprintf(s->err.detail, sizeof s->err.detail, "SM %d: out of memory for a memory record", s->id);
        return;
    }
    s->rec[rec].outstanding = 1; /* held by the LD/ST unit until its last request passed */
    if (is_store) ws->stores++;
    else ws->loads++;
    if (acc->is_atomic && sm_atomic_stalls_warp(s->cfg)) { /* GPGPU-Sim 4.2: the warp waits for it */
        s->rec[rec].is_atomic = 1;
        ws->atomics++;
        sm_mark_dirty(s, slot);
    }
    sm_ldst *u = &s->ldst;
    memset(u, 0, offsetof(sm_ldst, reqs));
    u->busy = 1;
    u->space = acc->space;
    u->is_store = (uint8_t)is_store;
    u->is_atomic = acc->is_atomic;
    u->slot = slot;
    u->rec = rec;
    u->pc = pc;
    u->func = func;
    u->next = 0;
    u->reqs.n = 0;
    switch (acc->space) {
    case PS_SHARED: {
        smem_conflict c;
        smem_bank_conflicts(acc->addr, acc->mask, acc->bytes, s->cfg->sm.shmem_banks, &c);
        int passes = c.passes > 0 ? c.passes : 1;
        u->shared_done = cycle + (uint64_t)passes;
        s->st.shmem_insn++;
        s->st.shmem_passes += (uint64_t)passes;
        s->st.shmem_conflict_cycles += (uint64_t)(passes - c.groups);
        break;
    }
    case PS_PARAM:
        u->shared_done = cycle + 1;
        break;
    case PS_CONST:
        const_lines(acc, &u->reqs);
        s->st.cmem_requests += (uint64_t)u->reqs.n;
        break;
    default: /* global, local */
        coal_coalesce_access(s->coal, acc, &u->reqs);
        if (s->l1d_enabled && uses_l1d(s, u, acc->space)) /* into AGU->L1: Snooze wakes ahead */
            for (int i = 0; i < u->reqs.n; i++)
                cache_pm_queue(&s->l1d, u->reqs.req[i].line, u->reqs.req[i].sectors, PM_EV_ENQUEUE, cycle);
        s->rec[rec].long_latency = 1;
        if (acc->space == PS_LOCAL) s->st.lmem_requests += (uint64_t)u->reqs.n;
        else s->st.gmem_requests += (uint64_t)u->reqs.n;
        s->st.gmem_insn++;
        break;
    }
}

/* The instruction left the LD/ST unit. */
static void ldst_finish(sm_core *s, uint64_t cycle)
{
    s->ldst.busy = 0;
    sm_record_done(s, s->ldst.rec, cycle);
}

static void feedback(sm_core *s, int outcome)
{
    sm_ldst *u = &s->ldst;
    sched_mem_feedback(&s->scheds[u->slot % s->n_sched], u->slot, ((uint64_t)u->func << 32) | u->pc, outcome);
}

static int direct_request(sm_core *s, const coal_req *q);

/* GPGPU-Sim 4.2 moves a memory instruction through the ID_OC register, a collector unit, its bank
 * reads and dispatch (one cycle each; gtlm's issue-to-LD/ST step is one of them) before its L1
 * latency queue; an L1D hit frees the scoreboard at the cache access, a shared load one cycle later
 * from the LD/ST writeback register. Accel-Sim, QV100, one-warp dependent chains: an L1-hit LDG
 * costs 24 cycles a step and an LDS 25 (both latencies 20), gtlm without these stages 21. */
#define SM_GPGPUSIM_LDST_STAGES 3
#define SM_GPGPUSIM_SMEM_STAGES 4

static uint64_t load_stages(const sm_core *s, int shared)
{
    const sm_config *c = &s->cfg->sm;
    int n = shared ? c->smem_result_stages : c->ldst_result_stages;
    if (n >= 0) return (uint64_t)n;
    if (!s->cfg->gpu.gpgpusim_compat) return 0;
    return shared ? SM_GPGPUSIM_SMEM_STAGES : SM_GPGPUSIM_LDST_STAGES;
}

/* One request through the L1 data cache. Returns 0 when it must retry next cycle. */
static int l1_access(sm_core *s, cache_core *c, const coal_req *q, uint64_t cycle, int latency)
{
    sm_ldst *u = &s->ldst;
    sm_record *r = &s->rec[u->rec];
    cache_req cr;
    memset(&cr, 0, sizeof cr);
    cr.addr = q->line;
    cr.cookie = u->rec;
    cr.pc_hash = sm_pc_hash(u->pc);
    cr.sector_mask = q->sectors;
    cr.is_write = u->is_store;
    cr.is_local = u->space == PS_LOCAL;
    cr.partial_mask = u->is_store ? (uint8_t)(q->sectors & (uint8_t)~q->full) : 0;
    int lb = s->lb_on && c == &s->l1d && u->space == PS_GLOBAL;
    if (c == &s->l1d) s->pf.port_cycle = cycle; /* queued prefetches wait for a cycle without a demand */
    uint64_t done;
    if (lb && !u->is_store && sm_lb_load_lookup(s, q->line, cycle, latency, &done)) { /* a Reg hit */
        r->outstanding++;
        sm_wheel_add(s, done, u->slot, SM_NO_RECORD, u->rec); /* the per-load L1 record counts L1 outcomes only */
        feedback(s, SCHED_MEM_HIT);
        return 1;
    }
    if (s->pcal_on && c == &s->l1d && u->space == PS_GLOBAL && !u->is_store && sm_lbc_pcal_bypass(s, u->slot, q->line))
    {
        cr.no_allocate = 1; /* PCAL: no token, so no L1 line ... */
        if (!s->cfg->lbc.pcal_bypass_mshr) {
            s->lb_search = 0; /* a Linebacker partition search (PCAL+SVC) no longer delays it */
            return direct_request(s, q); /* ... and no MSHR either: alone to the L2 */
        }
    }
    cache_result res;
    c->now = cycle;
    s->lb_storing = u->is_store;
    cache_status st = cache_access(c, &cr, &res);
    s->lb_storing = 0;
    if (st == CACHE_BYPASS_DIRECT) return direct_request(s, q); /* PDP bypass around the MSHRs (-pdp_bypass_mshr 0) */
    if (st == CACHE_RESERVATION_FAIL && c == &s->l1d && !u->is_store && s->cfg->cbwt.mrpb_stall_bypass) {
        s->st.ldst_res_fail[res.fail]++;
        return direct_request(s, q); /* MRPB: a load the L1 cannot take now goes to the L2 instead */
    }
    if (st == CACHE_RESERVATION_FAIL) {
        s->st.ldst_res_fail[res.fail]++;
        if (c == &s->l1d) cache_pm_queue(c, q->line, q->sectors, PM_EV_RESFAIL, cycle);
        return 0;
    }
    if (c == &s->l1d) cache_pm_queue(c, q->line, q->sectors, PM_EV_DEQUEUE, cycle);
    sm_pc_stat *p = c == &s->l1d && !u->is_store ? sm_pc_stat_of(s, u->func, u->pc) : NULL;
    if (p) p->accesses++;
    if (u->is_store) {
        if (lb) sm_lb_store(s, q->line);
        r->outstanding += res.write_sent;
        return 1;
    }
    if (lb) {
        sm_lb_load_counted(s, u->pc, q->line, st == CACHE_HIT || st == CACHE_HIT_RESERVED);
        sm_lb_miss_queued(s, q->line, st == CACHE_MISS ? cycle : SM_NEVER);
    }
    r->outstanding++;
    if (c == &s->l1d) sm_locality_access(s, q->line, st);
    if (c == &s->l1d && s->pf.kind) sm_prefetch_on_access(s, q, u->next == 0, st);
    if (s->slb) {
        if (st == CACHE_HIT || st == CACHE_HIT_RESERVED) sm_slumber_load_hit(s, u->slot); /* a merge: data soon */
        else sm_slumber_load_miss(s, r, cycle);
    }
    if (st == CACHE_HIT) {
        uint64_t bank = s->cerf_on && c == &s->l1d ? sm_lbc_cerf_access(s, q->line, 0, cycle) : 0; /* CERF's bank */
        uint64_t stages = c == &s->l1d ? load_stages(s, 0) : 0;
        sm_wheel_add(s, cycle + (uint64_t)latency + (uint64_t)c->pm_wait + bank + stages, u->slot, SM_NO_RECORD, u->rec);
        if (p) p->hits++;
        if (c == &s->l1d) feedback(s, SCHED_MEM_HIT);
    } else if (st == CACHE_HIT_RESERVED) {
        if (p) p->merged++;
        if (c == &s->l1d) feedback(s, SCHED_MEM_MERGE);
    } else {
        if (p) p->misses++;
        if (c == &s->l1d) {
            feedback(s, SCHED_MEM_MISS);
            sched_l1_miss_line(&s->scheds[u->slot % s->n_sched], u->slot, q->line);
            sm_prefetch_targets_to_laws(s);
        }
    }
    return 1;
}

int sm_ldst_l1d_access(sm_core *s, const coal_req *q, uint64_t cycle)
{
    return l1_access(s, &s->l1d, q, cycle, s->cfg->l1.dl1_latency);
}

void sm_ldst_who_now(const sm_core *s, sm_ldst_who *w)
{
    const sm_ldst *u = &s->ldst;
    memset(w, 0, sizeof *w);
    w->slot = u->slot;
    w->rec = u->rec;
    w->pc = u->pc;
    w->func = u->func;
    w->space = u->space;
    w->is_store = u->is_store;
    w->index = u->next;
}

int sm_ldst_l1d_replay(sm_core *s, const sm_ldst_who *w, const coal_req *q, uint64_t cycle)
{
    sm_ldst saved;
    memcpy(&saved, &s->ldst, offsetof(sm_ldst, reqs));
    sm_ldst *u = &s->ldst;
    memset(u, 0, offsetof(sm_ldst, reqs));
    u->busy = 1;
    u->space = w->space;
    u->is_store = w->is_store;
    u->slot = w->slot;
    u->rec = w->rec;
    u->pc = w->pc;
    u->func = w->func;
    u->next = w->index;
    int ok = sm_ldst_l1d_access(s, q, cycle);
    memcpy(&s->ldst, &saved, offsetof(sm_ldst, reqs));
    return ok;
}

/* A request that skips the L1 (atomics, bypassed loads). */
static int direct_request(sm_core *s, const coal_req *q)
{
    sm_ldst *u = &s->ldst;
    sm_req r;
    memset(&r, 0, sizeof r);
    r.addr = q->line;
    r.sector_mask = q->sectors;
    r.bytes = q->sectors ? (uint32_t)__builtin_popcount(q->sectors) * CACHE_SECTOR_BYTES : COAL_LINE_BYTES;
    r.kind = u->is_atomic ? SM_REQ_ATOMIC : u->is_store ? SM_REQ_STORE : SM_REQ_LOAD;
    r.bypass = 1;
    r.pc = u->pc;
    r.pc_hash = sm_pc_hash(u->pc);
    r.warp = u->slot;
    r.cta = s->warps[u->slot].cta;
    r.id = SM_ID(SM_ROUTE_RECORD, u->rec);
    r.queued = s->last_tick; /* called from this cycle's LD/ST stage */
    if (sm_direct_push(s, &r) != 0) return 0;
    s->rec[u->rec].outstanding++;
    if (s->slb) sm_slumber_load_miss(s, &s->rec[u->rec], s->last_tick);
    if (u->is_atomic) s->st.atomic_requests++;
    else s->st.bypass_requests++;
    return 1;
}

void sm_ldst_cycle(sm_core *s, uint64_t cycle)
{
    sm_ldst *u = &s->ldst;
    if (s->rexq.n && sm_rexq_cycle(s, cycle)) return; /* MASCAR: a parked load took the L1D port */
    if (s->mrpb.n) sm_mrpb_cycle(s, cycle);            /* MRPB: the buffer's pick takes the L1D port */
    if (!u->busy || cycle < u->wake_until) return;
    if (u->space == PS_SHARED || u->space == PS_PARAM) {
        if (cycle < u->shared_done) return;
        /* The last pass is this cycle; the data is readable after the access latency. */
        uint64_t lat = u->space == PS_SHARED ? (uint64_t)s->cfg->sm.smem_latency : (uint64_t)s->cfg->l1.dl1_latency;
        uint64_t stages = u->space == PS_SHARED ? load_stages(s, 1) : 0;
        s->rec[u->rec].outstanding++;
        sm_wheel_add(s, cycle + (lat ? lat : 1) + stages, u->slot, SM_NO_RECORD, u->rec);
        ldst_finish(s, cycle);
        return;
    }
    /* One request per cycle, but up to -gpgpu_l1_banks L1D requests when each is in another bank:
     * the first whose bank already took one this cycle waits for the next (a bank conflict). */
    const l1_config *l1 = &s->cfg->l1;
    uint64_t banks_used = 0;
    int room = 1;
    for (int k = 0; k < room && u->next < u->reqs.n; k++) {
        const coal_req *q = &u->reqs.req[u->next];
        int ok;
        if (u->space == PS_CONST) ok = l1_access(s, &s->l1c, q, cycle, l1->dl1_latency);
        else if (!s->l1d_enabled || !uses_l1d(s, u, u->space))
            ok = direct_request(s, q);
        else if (s->mrpb.n_queues)
            ok = sm_mrpb_push(s, q);
        else {
            uint32_t bank = l1_bank_of(q->addr, (uint32_t)l1->dl1_banks, (uint32_t)l1->dl1_bank_interleave, l1->dl1_bank_hash);
            if (banks_used >> bank & 1) {
                s->st.l1_bank_conflicts++;
                break;
            }
            if (k == 0) room = l1->dl1_banks;
            banks_used |= UINT64_C(1) << bank;
            ok = l1_access(s, &s->l1d, q, cycle, l1->dl1_latency) || sm_rexq_park(s, q);
        }
        if (!ok) return;
        u->next++;
        s->progress++;
    }
    if (u->next >= u->reqs.n) ldst_finish(s, cycle);
}

/* Applies the oldest response that is due (one per cycle: the L1 fill port). */
void sm_apply_response(sm_core *s, uint64_t cycle)
{
    if (!s->rsp_n) return;
    sm_rsp *r = &s->rsp[s->rsp_head];
    if (r->ready > cycle) return;
    sm_rsp rsp = *r;
    s->rsp_head = (s->rsp_head + 1) % s->rsp_cap;
    s->rsp_n--;
    s->outstanding--;
    s->progress++;
    s->st.responses_in++;
    uint64_t payload = SM_ID_PAYLOAD(rsp.id);
    switch (SM_ID_ROUTE(rsp.id)) {
    case SM_ROUTE_L1D:
    case SM_ROUTE_L1C: {
        cache_core *c = SM_ID_ROUTE(rsp.id) == SM_ROUTE_L1D ? &s->l1d : &s->l1c;
        uint64_t woken[L1_MAX_WOKEN]; /* >= cache_mshr_max_waiters: checked by the configuration */
        c->now = cycle;
        int n = cache_fill(c, rsp.addr, rsp.sector_mask, woken, L1_MAX_WOKEN);
        if (s->cerf_on && c == &s->l1d) (void)sm_lbc_cerf_access(s, rsp.addr, 1, cycle); /* the line into its bank */
        uint64_t wait = (uint64_t)(s->cfg->l1.dl1_latency > 0 ? s->cfg->l1.dl1_latency : 1);
        if (c == &s->l1d) wait += load_stages(s, 0);
        for (int i = 0; i < n; i++) sm_wheel_add(s, cycle + wait, 0, SM_NO_RECORD, (uint32_t)woken[i]);
        break;
    }
    case SM_ROUTE_RECORD:
        sm_record_done(s, (uint32_t)payload, cycle);
        break;
    default: /* a write-back's acknowledgement, or Linebacker's buffer */
        if (payload & SM_LB_ID) sm_lb_response(s, payload);
        break;
    }
}
