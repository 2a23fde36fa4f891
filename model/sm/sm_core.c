/* The SM core: construction, kernel and CTA lifetime, the request/response queues towards the
 * interconnect, the per-cycle tick and idle skipping, and the watchdog's description. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cache/l1_carveout.h"
#include "../simt/simt_internal.h"
#include "../llc/llc_baselines.h"
#include "../trace/trace_reader.h"
#include "sm_internal.h"

static uint32_t pow2_at_least(uint32_t v)
{
    uint32_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

/* The longest latency an event can be scheduled ahead: every configured latency plus room for
 * register-bank delays. */
static uint32_t longest_latency(const gtlm_config *c)
{
    int m = c->sm.lat_sfu;
    const gsim_int_list *lists[3] = {&c->sm.lat_int, &c->sm.lat_fp, &c->sm.lat_dp};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < lists[i]->n; k++)
            if (lists[i]->v[k] > m) m = lists[i]->v[k];
    if (c->sm.smem_latency > m) m = c->sm.smem_latency;
    if (c->l1.dl1_latency > m) m = c->l1.dl1_latency;
    return (uint32_t)m + 2u * PTX_MAX_REGS_PER_INSTR + 64u;
}

/* L1D eviction hook, installed only for schedulers that keep victim tags: every scheduler hears it. */
static void sm_l1d_evicted(void *ctx, const cache_line *line, int set, int way)
{
    (void)set;
    (void)way;
    sm_core *s = ctx;
    for (uint32_t k = 0; k < s->n_sched; k++) sched_l1_evict(&s->scheds[k], line->tag);
}

int sm_core_init(sm_core *s, const gtlm_config *cfg, int id, strbuf *err)
{
    memset(s, 0, sizeof *s);
    s->id = id;
    s->cfg = cfg;
    int warp = cfg->sm.core_pipeline.second;
    if (warp != SIMT_WARP) {
        strbuf_printf(err, "SM: warp size %d is not supported (the executor runs %d-lane warps)\n", warp, SIMT_WARP);
        return -1;
    }
    s->n_slots = (uint32_t)(cfg->sm.core_pipeline.first / warp);
    s->n_cta_slots = (uint32_t)cfg->sm.max_ctas;
    s->n_sched = (uint32_t)(cfg->sm.n_schedulers > 0 ? cfg->sm.n_schedulers : 1);
    s->warps = calloc(s->n_slots, sizeof *s->warps);
    s->ctas = calloc(s->n_cta_slots ? s->n_cta_slots : 1, sizeof *s->ctas);
    s->status = calloc(s->n_slots, 1);
    s->order = calloc(s->n_slots, sizeof *s->order);
    s->dirty_list = calloc(s->n_slots, sizeof *s->dirty_list);
    s->last_why = calloc(s->n_sched, 1);
    s->sched_why_dirty = calloc(s->n_sched, 1);
    s->sched_ready = calloc(s->n_sched, sizeof *s->sched_ready);
    s->sched_ready_mem = calloc(s->n_sched, sizeof *s->sched_ready_mem);
    s->scheds = calloc(s->n_sched, sizeof *s->scheds);
    s->rec_free = SM_NO_RECORD;
    s->last_tick = SM_NEVER;
    regfile_config rc = {0};
    rc.n_regs = (uint32_t)(cfg->sm.registers > 0 ? cfg->sm.registers : 0) / (uint32_t)warp;
    rc.n_banks = (uint32_t)(cfg->sm.n_reg_banks > 0 ? cfg->sm.n_reg_banks : 1);
    rc.bank_use_warp_id = cfg->sm.reg_bank_use_warp_id;
    rc.n_groups = cfg->sm.sub_core_model ? s->n_sched : 1;
    rc.port_reads = (uint32_t)cfg->sm.reg_file_port_throughput;
    rc.n_cta_slots = s->n_cta_slots ? s->n_cta_slots : 1;
    rc.vc_base = 512; /* Eq. 2 base (Gap G1 PROPOSAL) */
    rc.vtt_sets = 48;
    rc.vp_ways = 4;
    if (rc.n_regs == 0) rc.n_regs = 1;
    int rf_bad = regfile_init(&s->rf, &rc);
    if (!s->warps || !s->ctas || !s->status || !s->order || !s->dirty_list || !s->last_why || !s->sched_why_dirty || !s->sched_ready || !s->sched_ready_mem ||
        rf_bad || !s->scheds || sm_wheel_init(s, pow2_at_least(longest_latency(cfg))) != 0) {
        strbuf_printf(err, "SM %d: out of memory\n", id);
        sm_core_free(s);
        return -1;
    }
    for (uint32_t k = 0; k < s->n_sched; k++) {
        if (sched_init(&s->scheds[k], &cfg->sm.scheduler, s->n_slots, k, s->n_sched, err) != 0) {
            for (uint32_t j = 0; j < k; j++) sched_free(&s->scheds[j]);
            free(s->scheds);
            s->scheds = NULL;
            sm_core_free(s);
            return -1;
        }
        s->last_why[k] = SM_STALL_IDLE;
        s->scheds[k].barrier_free = (uint8_t)(cfg->cbwt.barrier_free != 0);
        if (cfg->cbwt.maw) sched_set_warp_limit(&s->scheds[k], (uint32_t)cfg->cbwt.maw); /* SWL-N */
    }
    s->l1d_enabled = !cfg->l1.dl1.disabled;
    gsim_cache_cfg dl1 = cfg->l1.dl1; /* the adaptive carve-out allocates the unified array's ways */
    if (cfg->l1.adaptive_cache) dl1.assoc = l1_carveout_max_ways(&cfg->l1);
    sm_lbc_l1_shape(cfg, &dl1); /* CacheExt / CERF: room for the register file's capacity */
    if (s->l1d_enabled && (cache_init(&s->l1d, &dl1) != 0 ||
                           (cfg->l1.adaptive_cache &&
                            cache_set_ways(&s->l1d, cfg->l1.dl1.assoc, cfg->l1.dl1.alloc_policy) != 0))) {
        strbuf_printf(err, "SM %d: cannot build the L1 data cache from -gpgpu_cache:dl1\n", id);
        sm_core_free(s);
        return -1;
    }
    if (s->l1d_enabled && cfg->l1.adaptive_cache &&
        (cfg->sm.pdp_mode != PDP_MODE_OFF || cfg->cbwt.stats || cfg->cbwt.ctrl || cfg->lbc.cacheext || cfg->lbc.cerf ||
         cfg->morpheus.unified_sm_mem)) {
        strbuf_printf(err, "SM %d: -gpgpu_adaptive_cache_config 1 is not combined with CBWT's L1D policies and "
                      "statistics (they size their tables by the L1D's ways) nor with CacheExt / CERF / Unified-SM-Mem "
                      "(they add ways of their own)\n", id);
        sm_core_free(s);
        return -1;
    }
    if (s->l1d_enabled) {
        cache_set_sector_mshr(&s->l1d, cfg->l1.dl1_sector_mshr);
        cache_set_read_mq_reserve(&s->l1d, cfg->l1.dl1_read_mq_reserve);
        cache_set_partial_unreadable(&s->l1d, cfg->l1.dl1_partial_unreadable);
    }
    if (s->l1d_enabled && cfg->l1.dl1_miss_classes && cache_miss_classes_enable(&s->l1d)) {
        strbuf_printf(err, "SM %d: out of memory for the L1D miss classification\n", id);
        sm_core_free(s);
        return -1;
    }
    if (s->l1d_enabled && cfg->sm.pdp_mode != PDP_MODE_OFF &&
        pdp_l1_init(&s->pdp, &s->l1d, cfg->sm.pdp_mode, cfg->sm.pdp_pd, cfg->sm.pdp_period) != 0) {
        strbuf_printf(err, "SM %d: cannot build the L1D PDP policy (-pdp_pd 0..64, -pdp_period >= 1)\n", id);
        sm_core_free(s);
        return -1;
    }
    if (s->l1d_enabled && cfg->sm.pdp_mode != PDP_MODE_OFF) s->l1d.bypass_direct = !cfg->sm.pdp_bypass_mshr;
    if (s->l1d_enabled && cfg->sm.pdp_mode == PDP_MODE_OFF && (cfg->cbwt.stats || cfg->cbwt.ctrl) && pdp_l1_init_observe(&s->pdp, &s->l1d) != 0) {
        strbuf_printf(err, "SM %d: out of memory for the L1D reuse statistics\n", id);
        sm_core_free(s);
        return -1;
    }
    if (s->l1d_enabled && sched_wants_l1_lines(&s->scheds[0]) && s->pdp.mode != PDP_MODE_OFF) {
        pdp_l1_chain_evict(&s->pdp, sm_l1d_evicted, s); /* CCWS' victim tags behind PDP's hooks */
    } else if (s->l1d_enabled && sched_wants_l1_lines(&s->scheds[0])) { /* CCWS' victim tags */
        cache_hooks h = {.ctx = s, .on_evict = sm_l1d_evicted};
        cache_set_hooks(&s->l1d, &h);
    }
    if (sm_locality_init(s) != 0) {
        strbuf_printf(err, "SM %d: out of memory for the APRES statistics\n", id);
        sm_core_free(s);
        return -1;
    }
    if (sm_mrpb_init(s) != 0) {
        strbuf_printf(err, "SM %d: out of memory for MRPB's reorder buffer\n", id);
        sm_core_free(s);
        return -1;
    }
    if (sm_mascar_init(s) != 0) {
        strbuf_printf(err, "SM %d: out of memory for MASCAR's re-execution queue\n", id);
        sm_core_free(s);
        return -1;
    }
    if (sm_prefetch_init(s) != 0) {
        strbuf_printf(err, "SM %d: out of memory for the L1D prefetcher\n", id);
        sm_core_free(s);
        return -1;
    }
    if (cache_init(&s->l1c, &cfg->l1.const_l1) != 0) {
        strbuf_printf(err, "SM %d: cannot build the constant cache from -gpgpu_const_cache:l1\n", id);
        sm_core_free(s);
        return -1;
    }
    sm_lbc_init(s);
    if (sm_lb_init(s) != 0) {
        strbuf_printf(err, "SM %d: out of memory (Linebacker)\n", id);
        sm_core_free(s);
        return -1;
    }
    if (sm_power_init(s) != 0) {
        strbuf_printf(err, "SM %d: out of memory for the power modes\n", id);
        sm_core_free(s);
        return -1;
    }
    s->coal = coal_mode_of(cfg->sm.coalesce_arch);
    for (int u = 0; u < FU_N; u++) s->fu_count[u] = (uint8_t)fu_unit_count(&cfg->sm, u);
    for (int op = 0; op < OP_COUNT; op++)
        for (int t = 0; t <= PT_F64; t++) {
            ptx_instr in;
            memset(&in, 0, sizeof in);
            in.op = (uint16_t)op;
            in.type = (uint8_t)t;
            s->fu_tab[op][t] = fu_timing_of(&cfg->sm, &in);
        }
    return 0;
}

void sm_core_free(sm_core *s)
{
    for (uint32_t k = 0; k < s->n_cta_slots && s->ctas; k++) {
        if (s->ctas[k].live && !s->trace) simt_cta_free(&s->ctas[k].cta);
        if (s->ctas[k].tb) trace_tb_free(s->ctas[k].tb);
        free(s->ctas[k].tb);
        free(s->ctas[k].tws);
    }
    free(s->trace_ops);
    if (s->scheds)
        for (uint32_t k = 0; k < s->n_sched; k++) sched_free(&s->scheds[k]);
    if (s->sb.bits) sb_free(&s->sb);
    if (s->l1d.lines) cache_free(&s->l1d);
    pdp_l1_free(&s->pdp);
    if (s->l1c.lines) cache_free(&s->l1c);
    sm_power_free(s);
    sm_prefetch_free(s);
    sm_mascar_free(s);
    sm_mrpb_free(s);
    sm_locality_free(s);
    sm_wheel_free(s);
    free(s->warps);
    free(s->ctas);
    free(s->status);
    free(s->order);
    free(s->dirty_list);
    free(s->last_why);
    free(s->sched_why_dirty);
    free(s->sched_ready);
    free(s->sched_ready_mem);
    regfile_free(&s->rf);
    sm_lb_free(s);
    free(s->scheds);
    free(s->direct);
    free(s->rsp);
    free(s->pcs);
    memset(s, 0, sizeof *s);
}

/* Warp registers one CTA holds: its warps x registers per thread (ptxas' count, else the frame's
 * register slots; at most -gpgpu_max_regs_per_thread), shrunk to an even share when m CTAs would
 * not fit. */
static uint32_t rf_cta_regs(const sm_core *s, uint32_t regs, uint32_t m)
{
    uint32_t per_thread = s->kernel_regs ? s->kernel_regs : regs;
    int cap = s->cfg->sm.max_regs_per_thread;
    if (cap > 0 && per_thread > (uint32_t)cap) per_thread = (uint32_t)cap;
    uint64_t n = (uint64_t)s->warps_per_cta * per_thread;
    if (m && n * m > s->rf.cfg.n_regs) n = s->rf.cfg.n_regs / m;
    return (uint32_t)n;
}

/* Per-kernel set-up shared by both front ends. */
static int kernel_begin(sm_core *s, uint32_t warps_per_cta, uint32_t regs, uint32_t ctas_per_sm, uint64_t shmem_per_cta)
{
    if (s->warps_per_cta != warps_per_cta)
        for (uint32_t k = 0; k < s->n_cta_slots; k++) { /* trace warps are sized per CTA */
            free(s->ctas[k].tws);
            s->ctas[k].tws = NULL;
            if (s->ctas[k].tb) trace_tb_free(s->ctas[k].tb);
            free(s->ctas[k].tb);
            s->ctas[k].tb = NULL;
        }
    s->warps_per_cta = warps_per_cta;
    if (s->sb.bits) sb_free(&s->sb);
    if (sb_init(&s->sb, s->n_slots, regs ? regs : 1) != 0) return -1;
    s->sb_regs = regs;
    uint32_t m = ctas_per_sm;
    if (m > s->n_cta_slots) m = s->n_cta_slots;
    if (s->warps_per_cta && m > s->n_slots / s->warps_per_cta) m = s->n_slots / s->warps_per_cta;
    s->max_ctas_kernel = m;
    uint32_t cta_regs = rf_cta_regs(s, regs, m);
    if (regfile_kernel_start(&s->rf, cta_regs, m) != 0) return -1;
    if (s->l1d_enabled) cache_invalidate_all(&s->l1d);
    if (s->l1d_enabled && s->cfg->l1.adaptive_cache) { /* the carve-out for this kernel's shared memory */
        gsim_cache_cfg d = l1_carveout_dl1(&s->cfg->l1, shmem_per_cta * m);
        if (cache_set_ways(&s->l1d, d.assoc, d.alloc_policy) != 0) return -1;
    }
    if (s->l1d_enabled && s->cfg->morpheus.unified_sm_mem) { /* Unified-SM-Mem: unused registers -> L1D ways */
        uint64_t used = (uint64_t)cta_regs * m;
        uint64_t unused = s->rf.cfg.n_regs > used ? s->rf.cfg.n_regs - used : 0;
        cache_limit_victim_ways(&s->l1d, llc_unified_l1_ways(&s->cfg->morpheus, &s->l1d.cfg, unused));
    }
    cache_invalidate_all(&s->l1c);
    sm_prefetch_reset(s);
    sm_lbc_kernel_begin(s); /* before Linebacker: CacheExt's ways bound its partitions */
    sm_lb_kernel_begin(s); /* after the L1 invalidation: its evictions are no victims */
    if (s->pdp.mode != PDP_MODE_OFF && s->cfg->cbwt.pd_launch == CBWT_PD_RESET) pdp_l1_reset(&s->pdp, s->cfg->sm.pdp_pd);
    if (s->pcs) memset(s->pcs, 0, s->pc_cap * sizeof *s->pcs);
    s->pc_n = 0;
    s->retry.armed = 0;
    s->finished = 0;
    s->error = 0;
    return 0;
}

int sm_core_kernel_begin(sm_core *s, const simt_launch *l, uint32_t ctas_per_sm)
{
    s->launch = l;
    s->trace = NULL;
    return kernel_begin(s, l->warps_per_cta, l->mod->stack_regs[l->func_index], ctas_per_sm, l->shared_bytes);
}

int sm_core_kernel_begin_trace(sm_core *s, const sm_trace_source *src, uint32_t warps_per_cta, uint32_t ctas_per_sm)
{
    s->launch = NULL;
    s->trace = src;
    s->kernel_regs = 0; /* traces carry their own register count */
    for (uint32_t i = 0; i < s->n_trace_ops; i++) s->trace_ops[i].known = 0; /* a new opcode table */
    return kernel_begin(s, warps_per_cta, TRACE_RZ, ctas_per_sm, src->shmem_per_cta);
}

void sm_core_kernel_end(sm_core *s)
{
    s->launch = NULL;
    s->trace = NULL;
}

int sm_core_can_take_cta(const sm_core *s)
{
    return (s->launch || s->trace) && !s->error && s->live_ctas < s->max_ctas_kernel && sm_lb_can_take_cta(s);
}

int sm_core_start_cta(sm_core *s, const uint32_t ctaid[3], uint64_t cycle)
{
    if (!sm_core_can_take_cta(s)) return -1;
    uint32_t k = 0;
    while (k < s->max_ctas_kernel && s->ctas[k].live) k++;
    if (k == s->max_ctas_kernel) return -1;
    sm_cta_slot *c = &s->ctas[k];
    if (s->trace) {
        strbuf msg;
        strbuf_init(&msg);
        int rc = sm_trace_cta_start(s, c, ctaid, &msg);
        if (rc != 0) { /* a bad trace stops the kernel with the reader's message */
            s->error = 1;
            memset(&s->err, 0, sizeof s->err);
            s->err.status = SIMT_ERR_UNSUPPORTED;
            memcpy(s->err.cta, ctaid, sizeof s->err.cta);
            snprintf(s->err.detail, sizeof s->err.detail, "%s", strbuf_str(&msg));
        }
        strbuf_free(&msg);
        if (rc != 0) return -1;
    } else if (simt_cta_init(&c->cta, s->launch, ctaid, (uint32_t)s->id) != 0) {
        return -1;
    }
    memcpy(c->ctaid, ctaid, sizeof c->ctaid);
    if (!s->live_ctas) { /* the SM was empty: the cycles since its last tick were not active ones */
        s->last_tick = SM_NEVER;
        for (uint32_t j = 0; j < s->n_sched; j++) s->last_why[j] = SM_STALL_IDLE;
    }
    if (!s->trace) c->cta.clock = cycle;
    c->live = 1;
    sm_lb_cta_start(s, k);
    c->first_slot = k * s->warps_per_cta;
    s->live_ctas++;
    sm_power_cta_start(s, c, cycle);
    uint32_t n_warps = s->trace ? s->warps_per_cta : c->cta.n_warps;
    for (uint32_t i = 0; i < n_warps; i++) {
        uint32_t slot = c->first_slot + i;
        sm_warp_slot *ws = &s->warps[slot];
        uint8_t listed = ws->dirty; /* still on dirty_list from the slot's last warp: listed once only */
        memset(ws, 0, sizeof *ws);
        ws->dirty = listed;
        if (s->trace) ws->tw = &c->tws[i];
        else ws->w = &c->cta.warps[i];
        if (ws->tw && ws->tw->state == SIMT_WARP_DONE) { /* a warp the trace has no line for */
            ws->exited = 1;
            ws->cta = k;
            ws->status = SCHED_WARP_IDLE;
            ws->why = SM_STALL_IDLE;
            continue;
        }
        ws->cta = k;
        ws->status = SCHED_WARP_IDLE;
        sched_warp_start(&s->scheds[slot % s->n_sched], slot, s->warp_age++);
        s->live_warps++;
        sm_mark_dirty(s, slot);
    }
    s->progress++;
    s->work++;
    if (s->trace) sm_cta_check_done(s, k); /* a block without lines is done at once */
    return 0;
}

uint32_t sm_core_take_finished(sm_core *s)
{
    uint32_t n = s->finished;
    s->finished = 0;
    return n;
}

void sm_core_tick(sm_core *s, uint64_t cycle)
{
    if (s->error) return;
    if (s->retry.armed) sm_retry_catch_up(s, cycle);
    if (s->last_tick != SM_NEVER && cycle > s->last_tick + 1 && s->live_ctas) {
        /* Nothing changed in the skipped cycles: each scheduler stalled for the same reason. */
        uint64_t gap = cycle - s->last_tick - 1;
        for (uint32_t k = 0; k < s->n_sched; k++) s->st.stall[s->last_why[k]] += gap;
        s->st.issue_slots += gap * s->n_sched;
        s->st.cycles += gap;
        s->st.active_warps_sum += gap * s->live_warps;
        s->st.ready_warps_sum += gap * s->n_ready;
    }
    s->last_tick = cycle;
    if (s->live_ctas) {
        s->st.cycles++;
        s->st.active_warps_sum += s->live_warps;
    }
    if (s->slb) sm_slumber_tick(s, cycle);
    sm_lb_tick(s, cycle);
    sm_lbc_tick(s, cycle);
    sm_apply_response(s, cycle);
    sm_wheel_run(s, cycle);
    sm_ldst_cycle(s, cycle);
    if (s->pf.q_n) sm_prefetch_cycle(s, cycle);
    if (s->live_ctas) sm_issue_cycle(s, cycle);
    else sm_update_dirty(s);
    if (s->retry.allowed) sm_retry_arm(s, cycle + 1);
}

static int out_nonempty(const sm_core *s, int src)
{
    switch (src) {
    case 0: return s->direct_n > 0;
    case 1: return s->l1d_enabled && cache_out_count(&s->l1d) > 0 && !sm_lb_l1_held(s);
    default: return cache_out_count(&s->l1c) > 0;
    }
}

static int out_pick(const sm_core *s)
{
    sm_req lb;
    if (sm_lb_out_peek(s, &lb)) return 3; /* Linebacker's register backup/restore goes first */
    for (uint32_t i = 0; i < 3; i++) {
        int src = (int)((s->out_rr + i) % 3);
        if (out_nonempty(s, src)) return src;
    }
    return -1;
}

static uint32_t out_bytes(const cache_core *c, uint8_t mask)
{
    if (mask == 0 || mask == c->full_mask) return (uint32_t)c->cfg.line_size;
    return (uint32_t)__builtin_popcount(mask) * CACHE_SECTOR_BYTES;
}

int sm_core_out_peek(sm_core *s, sm_req *r)
{
    int src = out_pick(s);
    if (src < 0) return 0;
    if (src == 0) {
        *r = s->direct[s->direct_head];
        return 1;
    }
    if (src == 3) {
        int k = sm_lb_out_peek(s, r);
        r->queued = SM_NEVER; /* register traffic: not stamped */
        return k;
    }
    const cache_core *c = src == 1 ? &s->l1d : &s->l1c;
    const cache_out *o = cache_out_peek(c);
    memset(r, 0, sizeof *r);
    r->addr = o->addr;
    r->queued = o->queued;
    r->sector_mask = o->sector_mask;
    if (c->cfg.type != 'S' && o->kind == CACHE_OUT_READ) r->sector_mask = 0;
    r->bytes = out_bytes(c, r->sector_mask);
    switch (o->kind) {
    case CACHE_OUT_READ:
        r->kind = SM_REQ_LOAD;
        r->prefetch = o->prefetch;
        r->id = SM_ID(src == 1 ? SM_ROUTE_L1D : SM_ROUTE_L1C, 0);
        break;
    case CACHE_OUT_WRITE:
        r->kind = SM_REQ_STORE;
        r->id = SM_ID(SM_ROUTE_RECORD, o->cookie);
        if (o->cookie < s->n_rec) {
            r->warp = s->rec[o->cookie].slot;
            r->cta = s->warps[r->warp].cta;
        }
        break;
    default:
        r->kind = SM_REQ_WRITEBACK;
        r->id = SM_ID(SM_ROUTE_ACK, 0);
        break;
    }
    return 1;
}

void sm_core_out_pop(sm_core *s, uint64_t cycle)
{
    (void)cycle;
    int src = out_pick(s);
    if (src < 0) return;
    if (src == 3) {
        sm_lb_out_pop(s);
    } else if (src == 0) {
        s->direct_head = (s->direct_head + 1) % s->direct_cap;
        s->direct_n--;
    } else {
        cache_out o;
        cache_out_pop(src == 1 ? &s->l1d : &s->l1c, &o);
        if (src == 1 && o.kind == CACHE_OUT_READ && s->lb_dly_n) sm_lb_l1_sent(s, o.addr);
    }
    if (src != 3) s->out_rr = (uint32_t)(src + 1) % 3;
    s->outstanding++;
    s->st.requests_out++;
    s->progress++;
}

int sm_core_response(sm_core *s, uint64_t id, uint64_t addr, uint8_t sector_mask, uint64_t ready)
{
    if (s->rsp_n == s->rsp_cap) {
        uint32_t cap = s->rsp_cap ? s->rsp_cap * 2 : 64;
        sm_rsp *q = malloc(cap * sizeof *q);
        if (!q) return -1;
        for (uint32_t i = 0; i < s->rsp_n; i++) q[i] = s->rsp[(s->rsp_head + i) % s->rsp_cap];
        free(s->rsp);
        s->rsp = q;
        s->rsp_cap = cap;
        s->rsp_head = 0;
    }
    sm_rsp *r = &s->rsp[(s->rsp_head + s->rsp_n) % s->rsp_cap];
    r->id = id;
    r->addr = addr;
    r->sector_mask = sector_mask;
    /* Responses are applied in arrival order; a later one is never ready before an earlier one. */
    uint64_t prev = s->rsp_n ? s->rsp[(s->rsp_head + s->rsp_n - 1) % s->rsp_cap].ready : 0;
    r->ready = ready > prev ? ready : prev;
    s->rsp_n++;
    /* ICNT->L1's PM_EV_FILL is not reported here: a response arrives outside the SM's tick with
     * only its ready cycle, and an event stamped ahead of the SM's clock steps the RTL twin early
     * (rtl.vcd_rtl_signals); the fill still wakes its block when it is written */
    return 0;
}

uint64_t sm_core_next_work(const sm_core *s, uint64_t cycle)
{
    if (s->error) return SM_NEVER;
    if (s->n_dirty || s->n_ready || s->ldst.busy || s->rexq.n || s->mrpb.n || s->pf.q_n || out_pick(s) >= 0) return cycle;
    return sm_core_next_event(s, cycle);
}

int sm_core_has_out(const sm_core *s) { return out_pick(s) >= 0; }

uint64_t sm_core_next_event(const sm_core *s, uint64_t cycle)
{
    uint64_t t = sm_wheel_next(s);
    if (s->lb_on) {
        uint64_t l = sm_lb_next_work(s, cycle);
        if (l < t) t = l;
    }
    if (s->pcal_on && s->live_ctas && s->pcal_next && s->pcal.phase != PCAL_HOLD && s->pcal_next < t)
        t = s->pcal_next; /* PCAL samples its periods while it tunes */
    if (s->rsp_n) {
        uint64_t r = s->rsp[s->rsp_head].ready;
        if (r < t) t = r;
    }
    return t < cycle ? cycle : t;
}

int sm_core_idle(const sm_core *s)
{
    return !s->live_ctas && !s->outstanding && !s->rsp_n && !s->ldst.busy && !s->rexq.n && !s->mrpb.n && out_pick(s) < 0 &&
           !s->wheel_pending;
}

uint32_t sm_core_pc_count(const sm_core *s) { return s->pc_cap; }
const sm_pc_stat *sm_core_pc_at(const sm_core *s, uint32_t i) { return i < s->pc_cap ? &s->pcs[i] : NULL; }

/* A warp in a spin-wait loop: where the loop is, for the livelock report. */
static const char *spin_note(const sm_warp_slot *ws)
{
    static _Thread_local char buf[160];
    if (!ws->w || !simt_warp_spinning(ws->w)) return "";
    const simt_spin *sp = &ws->w->spin;
    const ptx_func *f = &ws->w->cta->launch->mod->ptx.funcs[sp->func];
    snprintf(buf, sizeof buf,
             "; SPINS in the loop %s:%u-%u (back edge taken %u times; its state repeats with no store between)",
             f->name, f->instrs[sp->target].line, f->instrs[sp->pc].line, sp->iters);
    return buf;
}

void sm_core_describe(const sm_core *s, strbuf *out)
{
    if (sm_core_idle(s)) return;
    strbuf_line(out, "sm[%d]: %u CTAs, %u live warps, %llu requests out without response, %u responses queued, "
                     "%u L1D MSHRs in use, %d in the L1D miss queue, %u bypass requests queued",
                s->id, s->live_ctas, s->live_warps, (unsigned long long)s->outstanding, s->rsp_n,
                s->l1d_enabled ? (unsigned)cache_mshr_in_use(&s->l1d) : 0u,
                s->l1d_enabled ? cache_out_count(&s->l1d) : 0, s->direct_n);
    if (s->ldst.busy)
        strbuf_line(out, "  LD/ST unit: warp slot %u pc %u (%s), request %d of %d", s->ldst.slot, s->ldst.pc,
                    ptx_space_name((ptx_space)s->ldst.space), s->ldst.next, s->ldst.reqs.n);
    for (uint32_t slot = 0; slot < s->n_slots; slot++) {
        const sm_warp_slot *ws = &s->warps[slot];
        if (!sm_slot_live(ws)) continue;
        const uint32_t *id = s->ctas[ws->cta].ctaid;
        uint32_t warp = slot - s->ctas[ws->cta].first_slot;
        if (ws->exited) {
            strbuf_line(out, "  warp slot %u (CTA (%u,%u,%u) warp %u): exited, %u loads and %u stores in flight, "
                             "%u registers pending",
                        slot, id[0], id[1], id[2], warp, ws->loads, ws->stores, sb_pending_count(&s->sb, slot));
            continue;
        }
        const char *where = "?", *op = "-";
        uint32_t line = 0;
        if (ws->tw) {
            where = "trace";
            line = ws->tw->pc;
            op = ws->tw->insn ? trace_opcode_name(s->trace->ops, ws->tw->insn->op) : "-";
        } else {
            const ptx_func *f;
            const ptx_instr *in = simt_warp_next(ws->w, &f);
            where = f ? f->name : "?";
            line = in ? in->line : 0;
            op = in ? ptx_op_name((ptx_op)in->op) : "-";
        }
        strbuf_line(out, "  warp slot %u (CTA (%u,%u,%u) warp %u): next %s:%u %s, %s%s, %u loads and %u stores in flight, "
                         "%u registers pending%s",
                    slot, id[0], id[1], id[2], warp, where, line, op, ws->status == SCHED_WARP_READY ? "" : "waits on ",
                    ws->status == SCHED_WARP_READY ? "ready" : sm_stall_name(ws->why), ws->loads, ws->stores,
                    sb_pending_count(&s->sb, slot), spin_note(ws));
    }
}

void sm_core_set_warp_limit(sm_core *s, uint32_t per_sched)
{
    for (uint32_t k = 0; k < s->n_sched; k++) sched_set_warp_limit(&s->scheds[k], per_sched);
}

uint32_t sm_core_warps_per_sched(const sm_core *s)
{
    uint32_t resident = s->max_ctas_kernel * s->warps_per_cta;
    uint32_t n = (resident + s->n_sched - 1) / s->n_sched;
    uint32_t cap = s->n_sched ? s->scheds[0].n_local : 0;
    return n < cap ? n : cap;
}
