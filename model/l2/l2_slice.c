/* The L2 slice: ROP delay, tag stage, data port, miss and fill paths (semantics in l2_slice.h). */
#include "l2_slice.h"

#include <stdlib.h>
#include <string.h>

static int popcount8(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Index of the i-th element of a ring. */
#define L2_WAIT_FIRST 64 /* waiter slots allocated at first; more as MSHRs merge more requests */

static int ring_at(int head, int i, int cap) { return (head + i) % cap; }

/* Waiter slots and the response ring grow on demand, so memory follows what a run uses. A new
 * slot is handed out only when every allocated one is taken, and then in index order, as a
 * pool of wait_cap slots allocated at once would: the cookies, hence the run, are the same. */
static int wait_grow(l2_slice *s)
{
    if (s->wait_alloc >= s->wait_cap) return -1;
    int n = s->wait_alloc > s->wait_cap / 2 ? s->wait_cap : 2 * s->wait_alloc;
    l2_waiter *w = realloc(s->wait, (size_t)n * sizeof *w);
    if (!w) return -1;
    for (int i = s->wait_alloc; i < n; i++) w[i].next_free = i + 1 < n ? i + 1 : -1;
    s->wait = w;
    s->wait_free = s->wait_alloc;
    s->wait_alloc = n;
    return 0;
}

/* Room for need responses in the ring (kept in order from its head); -1 when out of memory. */
static int rsp_reserve(l2_slice *s, int need)
{
    if (need <= s->rsp_alloc) return 0;
    int n = 2 * s->rsp_alloc > need ? 2 * s->rsp_alloc : need;
    l2_rsp *r = malloc((size_t)n * sizeof *r);
    if (!r) return -1;
    for (int i = 0; i < s->rsp_n; i++) r[i] = s->rsp[ring_at(s->rsp_head, i, s->rsp_alloc)];
    free(s->rsp);
    s->rsp = r;
    s->rsp_head = 0;
    s->rsp_alloc = n;
    return 0;
}

void l2_slice_params_from_config(const gtlm_config *cfg, l2_slice_params *p)
{
    memset(p, 0, sizeof *p);
    p->dl2 = cfg->l2.dl2;
    p->rop_cycles = l2_core_to_l2_cycles(cfg->l2.rop_latency, cfg->gpu.clocks.core_mhz, cfg->gpu.clocks.l2_mhz);
    p->perfect = cfg->l2.perfect_l2;
    p->sector_mshr = cfg->l2.dl2_sector_mshr;
    p->read_mq_reserve = cfg->l2.dl2_read_mq_reserve;
    p->miss_classes = cfg->l2.dl2_miss_classes;
    /* -1: GPGPU-Sim 4.2's rule whenever its configuration files are loaded (compat mode) */
    int psi = cfg->l2.dl2_partition_set_index;
    p->partition_set_index = psi < 0 ? cfg->gpu.gpgpusim_compat != 0 : psi;
    p->part_n_sub = cfg->gpu.sub_partitions_per_channel;
    const gsim_int_list *q = &cfg->l2.partition_queues;
    if (q->n == 4) {
        p->icnt_l2_q = q->v[0];
        p->l2_dram_q = q->v[1];
        p->l2_icnt_q = q->v[3]; /* v[2], DRAM->L2: see l2_slice.h */
    }
}

static uint64_t partition_addr(const void *ctx, uint64_t addr)
{
    const l2_slice_params *p = ctx;
    return dram_addr_partition_address(p->part_map, p->part_n_sub, addr);
}

int l2_slice_init(l2_slice *s, const l2_slice_params *p)
{
    memset(s, 0, sizeof *s);
    if (!p || p->rop_cycles < 0) return -1;
    s->p = *p;
    if (cache_init(&s->cache, &p->dl2)) return -1;
    cache_set_sector_mshr(&s->cache, p->sector_mshr);
    cache_set_read_mq_reserve(&s->cache, p->read_mq_reserve);
    if (p->partition_set_index && p->part_map) cache_set_index_addr(&s->cache, partition_addr, &s->p);
    if (p->miss_classes && cache_miss_classes_enable(&s->cache)) {
        cache_free(&s->cache);
        return -1;
    }
    s->port_width = p->dl2.port_width > 0 ? p->dl2.port_width : p->dl2.line_size;
    s->rop_cap = p->rop_cycles + (p->icnt_l2_q > 0 ? p->icnt_l2_q : L2_ROP_EXTRA);
    s->dram_cap = p->l2_dram_q > 0 ? p->l2_dram_q : L2_DRAM_QUEUE_CAP;
    s->rsp_cap = p->l2_icnt_q > 0 ? p->l2_icnt_q : L2_RSP_QUEUE_CAP;
    s->wait_cap = p->dl2.mshr_entries * p->dl2.mshr_merge;
    s->wait_alloc = s->wait_cap < L2_WAIT_FIRST ? s->wait_cap : L2_WAIT_FIRST;
    s->rsp_alloc = s->rsp_cap + s->wait_alloc;
    s->fill_cap = p->dl2.mshr_entries * CACHE_SECTORS + s->dram_cap;
    s->mqc_cap = s->cache.mq_cap;
    s->rop = calloc((size_t)s->rop_cap, sizeof *s->rop);
    s->dram = calloc((size_t)s->dram_cap, sizeof *s->dram);
    s->fwd_q = calloc(L2_FWD_QUEUE_CAP, sizeof *s->fwd_q);
    s->fwd_ready = calloc(L2_FWD_QUEUE_CAP, sizeof *s->fwd_ready);
    s->rsp = calloc((size_t)s->rsp_alloc, sizeof *s->rsp);
    s->fills = calloc((size_t)s->fill_cap, sizeof *s->fills);
    s->mq_cookie = calloc((size_t)s->mqc_cap, sizeof *s->mq_cookie);
    s->wait = calloc((size_t)s->wait_alloc, sizeof *s->wait);
    s->woken = calloc((size_t)cache_mshr_max_waiters(&s->cache), sizeof *s->woken);
    if (!s->woken || !s->rop || !s->dram || !s->fwd_q || !s->fwd_ready || !s->rsp || !s->fills || !s->mq_cookie || !s->wait) {
        l2_slice_free(s);
        return -1;
    }
    for (int i = 0; i < s->wait_alloc; i++) s->wait[i].next_free = i + 1 < s->wait_alloc ? i + 1 : -1;
    s->wait_free = 0;
    s->stall_since = L2_NEVER;
    s->tag_src = -1;
    return 0;
}

void l2_slice_free(l2_slice *s)
{
    cache_free(&s->cache);
    free(s->rop);
    free(s->dram);
    free(s->fwd_q);
    free(s->fwd_ready);
    free(s->rsp);
    free(s->fills);
    free(s->mq_cookie);
    free(s->wait);
    free(s->woken);
    memset(s, 0, sizeof *s);
}

void l2_slice_set_front(l2_slice *s, const l2_front *f)
{
    if (f)
        s->front = *f;
    else
        memset(&s->front, 0, sizeof s->front);
}

/* ---- input ---- */

int l2_slice_can_accept(const l2_slice *s) { return s->rop_n < s->rop_cap && s->fwd_n < L2_FWD_QUEUE_CAP; }

int l2_slice_push(l2_slice *s, const l2_req *r, uint64_t cycle)
{
    if (!l2_slice_can_accept(s)) {
        s->st.rop_full++;
        return -1;
    }
    if (s->front.decide && s->front.decide(s->front.ctx, r) == L2_FRONT_FORWARD) {
        int i = ring_at(s->fwd_head, s->fwd_n++, L2_FWD_QUEUE_CAP);
        s->fwd_q[i] = *r;
        s->fwd_ready[i] = cycle;
        s->st.forwarded++;
        return 0;
    }
    l2_rop_entry *e = &s->rop[ring_at(s->rop_head, s->rop_n++, s->rop_cap)];
    e->r = *r;
    e->ready = cycle + (uint64_t)s->p.rop_cycles;
    cache_pm_queue(&s->cache, r->addr, r->sector_mask, PM_EV_ENQUEUE, cycle); /* ICNT->L2: Snooze wakes ahead */
    return 0;
}

int l2_slice_dram_fill(l2_slice *s, uint64_t addr, uint8_t sector_mask, uint64_t cycle)
{
    if (s->fill_n >= s->fill_cap) return -1;
    l2_fill_entry *f = &s->fills[ring_at(s->fill_head, s->fill_n++, s->fill_cap)];
    f->addr = addr;
    f->mask = sector_mask;
    f->cycle = cycle;
    cache_pm_queue(&s->cache, addr, sector_mask, PM_EV_FILL, cycle); /* DRAM->L2: Snooze wakes the fill's block (T5) */
    return 0;
}

/* ---- data port and responses ---- */

static void respond(l2_slice *s, const l2_req *r, uint64_t cookie, int hit, uint64_t earliest)
{
    uint32_t port_bytes = r->bytes ? r->bytes : (uint32_t)s->p.dl2.line_size;
    uint64_t cycles = (port_bytes + (uint32_t)s->port_width - 1) / (uint32_t)s->port_width;
    uint64_t start = max_u64(earliest, s->port_free);
    s->port_free = start + cycles;
    s->st.port_busy_cycles += cycles;
    l2_rsp *o = &s->rsp[ring_at(s->rsp_head, s->rsp_n++, s->rsp_alloc)]; /* rsp_reserve made room */
    o->cookie = cookie;
    o->ready = s->port_free;
    o->bytes = (r->kind == L2_REQ_READ || r->kind == L2_REQ_ATOMIC) ? r->bytes : 0;
    o->hit = (uint8_t)hit;
    o->kind = r->kind;
}

int l2_slice_respond_ext(l2_slice *s, const l2_req *r, int hit, uint64_t earliest)
{
    if (rsp_reserve(s, s->rsp_n + 1)) return -1;
    respond(s, r, r->cookie, hit, earliest);
    return 0;
}

int l2_slice_dram_push(l2_slice *s, const l2_dram_req *d)
{
    if (s->dram_n >= s->dram_cap) return -1;
    s->dram[ring_at(s->dram_head, s->dram_n++, s->dram_cap)] = *d;
    return 0;
}

/* The sectors an atomic touched become dirty (its line is present). */
static int dirty_line(l2_slice *s, uint64_t addr, uint8_t mask)
{
    int way = cache_probe(&s->cache, addr, NULL);
    if (way < 0) return -1;
    cache_line *l = cache_line_at(&s->cache, cache_set_index(&s->cache, addr), way);
    uint8_t m = mask & s->cache.full_mask;
    if (!m || s->cache.nsect == 1) m = s->cache.full_mask;
    l->dirty |= m & l->valid;
    return 0;
}

/* ---- miss-queue bookkeeping: who queued each entry (for the DRAM record's cookie) ---- */

static void note_new_mq_entries(l2_slice *s, int before, uint64_t cookie)
{
    for (int n = cache_out_count(&s->cache) - before; n > 0 && s->mqc_n < s->mqc_cap; n--)
        s->mq_cookie[ring_at(s->mqc_head, s->mqc_n++, s->mqc_cap)] = cookie;
}

static void move_to_dram(l2_slice *s, uint64_t cycle)
{
    cache_out o;
    if (s->dram_n >= s->dram_cap || cache_out_pop(&s->cache, &o)) return;
    uint64_t cookie = 0;
    if (s->mqc_n) {
        cookie = s->mq_cookie[s->mqc_head];
        s->mqc_head = (s->mqc_head + 1) % s->mqc_cap;
        s->mqc_n--;
    }
    l2_dram_req *d = &s->dram[ring_at(s->dram_head, s->dram_n++, s->dram_cap)];
    d->addr = o.addr;
    d->sector_mask = o.sector_mask;
    d->kind = o.kind;
    d->ext = 0;
    d->is_write = o.kind != CACHE_OUT_READ;
    d->cookie = o.kind == CACHE_OUT_WRITEBACK ? 0 : cookie;
    d->bytes = s->cache.nsect > 1 ? (uint32_t)(CACHE_SECTOR_BYTES * popcount8(o.sector_mask))
                                  : (uint32_t)s->p.dl2.line_size;
    d->ready = cycle;
    if (d->is_write) {
        s->st.dram_writes++;
        s->st.writebacks += o.kind == CACHE_OUT_WRITEBACK;
    } else {
        s->st.dram_reads++;
    }
}

/* ---- fills ---- */

static void apply_fill(l2_slice *s, const l2_fill_entry *f, uint64_t cycle)
{
    uint64_t *woken = s->woken;
    int max_wake = cache_mshr_max_waiters(&s->cache);
    int before = cache_out_count(&s->cache);
    s->cache.now = cycle;
    int n = cache_fill(&s->cache, f->addr, f->mask, woken, max_wake);
    note_new_mq_entries(s, before, 0); /* write-backs of victims chosen at fill */
    s->st.fills++;
    uint64_t served = 0;
    for (int i = 0; i < n && i < max_wake; i++) {
        if (!woken[i]) continue; /* a write merged into the MSHR: acknowledged already */
        int k = (int)(woken[i] - 1);
        l2_waiter *w = &s->wait[k];
        if (w->kind == L2_REQ_READ && w->src >= 0 && w->src < 64) served |= 1ull << w->src;
        l2_req r = {0};
        r.kind = w->kind;
        r.bytes = w->bytes;
        if (w->kind == L2_REQ_ATOMIC && dirty_line(s, f->addr, w->mask)) s->st.atomic_unallocated++;
        respond(s, &r, w->cookie, 0, cycle);
        w->next_free = s->wait_free;
        s->wait_free = k;
        s->wait_used--;
    }
    if (s->served && n >= 0) s->served(s->served_ctx, served);
}

/* ---- tag stage ---- */

static void count_kind(l2_slice *s, const l2_req *r)
{
    s->st.accesses++;
    if (r->kind == L2_REQ_READ)
        s->st.reads++;
    else if (r->kind == L2_REQ_ATOMIC)
        s->st.atomics++;
    else
        s->st.writes++;
}

/* One tag lookup of the ROP head at `cycle`: 0 when it passed, -1 when it must retry. */
static int tag_access(l2_slice *s, const l2_req *r, uint64_t cycle)
{
    int is_write = r->kind == L2_REQ_WRITE || r->kind == L2_REQ_WRITEBACK;
    if (s->p.perfect) {
        count_kind(s, r);
        s->st.hits++;
        s->st.served_hits++;
        respond(s, r, r->cookie, 1, cycle + 1);
        return 0;
    }
    cache_req cr = {0};
    cr.addr = r->addr;
    cr.pc_hash = r->pc_hash;
    cr.sector_mask = r->sector_mask;
    cr.is_write = (uint8_t)is_write;
    int k = -1;
    if (rsp_reserve(s, s->rsp_n + 1)) return -1; /* out of memory: retried */
    if (!is_write) { /* reads and atomics may wait in an MSHR: they get a waiter slot as cookie */
        if (s->wait_free < 0) wait_grow(s);
        k = s->wait_free;
        if (k < 0) return -1; /* out of memory (wait_cap cannot run out: one slot per MSHR waiter) */
        cr.cookie = (uint64_t)k + 1;
    }
    int before = cache_out_count(&s->cache);
    cache_result res;
    s->cache.now = cycle;
    s->tag_src = r->kind == L2_REQ_READ ? r->src : -1;
    cache_status st = cache_access(&s->cache, &cr, &res);
    s->tag_src = -1;
    if (st == CACHE_RESERVATION_FAIL) { /* an access attempt, as GPGPU-Sim counts L2 accesses */
        s->st.accesses++;
        s->st.reservation_fails++;
        s->st.res_fail[res.fail]++;
        cache_pm_queue(&s->cache, r->addr, r->sector_mask, PM_EV_RESFAIL, cycle);
        return -1;
    }
    note_new_mq_entries(s, before, r->cookie);
    count_kind(s, r);
    s->st.served_hits += st == CACHE_HIT;
    if (res.stat_status == CACHE_HIT)
        s->st.hits++;
    else if (res.stat_status == CACHE_HIT_RESERVED)
        s->st.hit_reserved++;
    else
        s->st.misses++;
    if (r->prefetch) {
        s->st.pf_reads++;
        s->st.pf_bytes += r->bytes;
        s->st.pf_hits += st == CACHE_HIT;
        s->st.pf_hit_reserved += st == CACHE_HIT_RESERVED;
        s->st.pf_misses += st == CACHE_MISS;
    }
    if (is_write || st == CACHE_HIT) {
        if (r->kind == L2_REQ_ATOMIC) dirty_line(s, r->addr, r->sector_mask);
        respond(s, r, r->cookie, st == CACHE_HIT, cycle + 1 + (uint64_t)s->cache.pm_wait);
        return 0;
    }
    l2_waiter *w = &s->wait[k];
    s->wait_free = w->next_free;
    s->wait_used++;
    w->cookie = r->cookie;
    w->bytes = r->bytes;
    w->kind = r->kind;
    w->mask = r->sector_mask;
    w->src = r->src;
    w->next_free = -1;
    return 0;
}

static void tag_stage(l2_slice *s, uint64_t cycle)
{
    if (!s->rop_n || s->rop[s->rop_head].ready > cycle) return;
    if (s->rsp_n >= s->rsp_cap || tag_access(s, &s->rop[s->rop_head].r, cycle)) {
        if (s->stall_since == L2_NEVER) s->stall_since = cycle;
        return;
    }
    /* The head could have gone through at max(ready, tag stage free); the rest were stalls
       (counted here, so cycles skipped while waiting for response-queue room count too). */
    s->st.rop_stall_cycles += cycle - max_u64(s->rop[s->rop_head].ready, s->tag_free);
    s->tag_free = cycle + 1;
    s->stall_since = L2_NEVER;
    uint64_t addr = s->rop[s->rop_head].r.addr;
    uint8_t sectors = s->rop[s->rop_head].r.sector_mask;
    s->rop_head = (s->rop_head + 1) % s->rop_cap;
    s->rop_n--;
    cache_pm_queue(&s->cache, addr, sectors, PM_EV_DEQUEUE, cycle);
    if (!s->rop_n) cache_pm_queue(&s->cache, addr, sectors, PM_EV_IDLE, cycle); /* no pending request ([151]) */
}

void l2_slice_tick(l2_slice *s, uint64_t cycle)
{
    while (s->fill_n && s->fills[s->fill_head].cycle <= cycle) {
        if (rsp_reserve(s, s->rsp_n + s->wait_used)) break; /* a fill wakes at most every waiter */
        l2_fill_entry f = s->fills[s->fill_head];
        s->fill_head = (s->fill_head + 1) % s->fill_cap;
        s->fill_n--;
        apply_fill(s, &f, cycle);
    }
    move_to_dram(s, cycle); /* entries queued by earlier lookups: one per cycle */
    tag_stage(s, cycle);
}

/* ---- outputs ---- */

const l2_rsp *l2_slice_rsp_peek(const l2_slice *s, uint64_t cycle)
{
    return s->rsp_n && s->rsp[s->rsp_head].ready <= cycle ? &s->rsp[s->rsp_head] : NULL;
}

int l2_slice_rsp_pop(l2_slice *s, l2_rsp *out)
{
    if (!s->rsp_n) return -1;
    if (out) *out = s->rsp[s->rsp_head];
    s->rsp_head = (s->rsp_head + 1) % s->rsp_alloc;
    s->rsp_n--;
    return 0;
}

const l2_dram_req *l2_slice_dram_peek(const l2_slice *s, uint64_t cycle)
{
    return s->dram_n && s->dram[s->dram_head].ready <= cycle ? &s->dram[s->dram_head] : NULL;
}

int l2_slice_dram_pop(l2_slice *s, l2_dram_req *out)
{
    if (!s->dram_n) return -1;
    if (out) *out = s->dram[s->dram_head];
    s->dram_head = (s->dram_head + 1) % s->dram_cap;
    s->dram_n--;
    return 0;
}

const l2_req *l2_slice_fwd_peek(const l2_slice *s, uint64_t cycle)
{
    return s->fwd_n && s->fwd_ready[s->fwd_head] <= cycle ? &s->fwd_q[s->fwd_head] : NULL;
}

int l2_slice_fwd_pop(l2_slice *s, l2_req *out)
{
    if (!s->fwd_n) return -1;
    if (out) *out = s->fwd_q[s->fwd_head];
    s->fwd_head = (s->fwd_head + 1) % L2_FWD_QUEUE_CAP;
    s->fwd_n--;
    return 0;
}

/* ---- scheduling and watchdog ---- */

static uint64_t output_ready(int n, uint64_t ready, uint64_t cycle) { return n && ready >= cycle ? ready : L2_NEVER; }

uint64_t l2_slice_next_work(const l2_slice *s, uint64_t cycle)
{
    uint64_t w = L2_NEVER;
    if (s->fill_n) w = min_u64(w, max_u64(cycle, s->fills[s->fill_head].cycle));
    if (cache_out_count(&s->cache) && s->dram_n < s->dram_cap) w = cycle;
    if (s->rop_n && s->rsp_n < s->rsp_cap) w = min_u64(w, max_u64(cycle, s->rop[s->rop_head].ready));
    w = min_u64(w, output_ready(s->rsp_n, s->rsp_n ? s->rsp[s->rsp_head].ready : 0, cycle));
    w = min_u64(w, output_ready(s->dram_n, s->dram_n ? s->dram[s->dram_head].ready : 0, cycle));
    w = min_u64(w, output_ready(s->fwd_n, s->fwd_n ? s->fwd_ready[s->fwd_head] : 0, cycle));
    return w;
}

int l2_slice_busy(const l2_slice *s)
{
    return s->rop_n || s->fwd_n || s->rsp_n || s->dram_n || s->fill_n || cache_out_count(&s->cache) ||
           cache_mshr_in_use(&s->cache);
}

void l2_slice_describe(const l2_slice *s, strbuf *out)
{
    if (!l2_slice_busy(s)) return;
    strbuf_printf(out, "rop %d/%d", s->rop_n, s->rop_cap);
    if (s->stall_since != L2_NEVER)
        strbuf_printf(out, " (head stalled since %llu)", (unsigned long long)s->stall_since);
    strbuf_printf(out, ", miss queue %d, dram queue %d/%d, responses %d/%d, mshr %d/%d, fills pending %d",
                  cache_out_count(&s->cache), s->dram_n, s->dram_cap, s->rsp_n, s->rsp_cap,
                  cache_mshr_in_use(&s->cache), s->p.dl2.mshr_entries, s->fill_n);
    if (s->fwd_n) strbuf_printf(out, ", forward %d/%d", s->fwd_n, L2_FWD_QUEUE_CAP);
}
