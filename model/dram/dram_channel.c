#include "dram_channel.h"

#include <stdlib.h>
#include <string.h>

#include "../common/status.h"

int dram_channel_init(dram_channel *ch, const dram_config *cfg, int n_channels, double core_mhz, double dram_mhz)
{
    memset(ch, 0, sizeof *ch);
    if (cfg->latency < 0 || cfg->return_queue_size < 0 || core_mhz <= 0 || dram_mhz <= 0) return GTLM_ST_ECONFIG;
    int rc = dram_core_init(&ch->core, cfg, n_channels);
    if (rc) return rc;
    ch->latency = dram_cycles_from_core(cfg->latency, dram_mhz, core_mhz);
    ch->lq_cap = (int)ch->latency + ch->core.qcap;
    ch->rq_cap = cfg->return_queue_size > 0 ? cfg->return_queue_size : DRAM_UNLIMITED_QUEUE;
    ch->n_slots = ch->core.qcap + ch->core.fly_cap;
    ch->lq = calloc((size_t)ch->lq_cap, sizeof *ch->lq);
    ch->rq = calloc((size_t)ch->rq_cap, sizeof *ch->rq);
    ch->slots = calloc((size_t)ch->n_slots, sizeof *ch->slots);
    ch->free_slots = calloc((size_t)ch->n_slots, sizeof *ch->free_slots);
    ch->out = calloc((size_t)ch->core.fly_cap, sizeof *ch->out);
    if (!ch->lq || !ch->rq || !ch->slots || !ch->free_slots || !ch->out) {
        dram_channel_free(ch);
        return GTLM_ST_ENOMEM;
    }
    /* Lowest slot index handed out first (a stack popped from the end). */
    for (int i = 0; i < ch->n_slots; i++) ch->free_slots[i] = ch->n_slots - 1 - i;
    ch->n_free = ch->n_slots;
    return GTLM_ST_OK;
}

void dram_channel_free(dram_channel *ch)
{
    dram_core_free(&ch->core);
    free(ch->lq);
    free(ch->rq);
    free(ch->slots);
    free(ch->free_slots);
    free(ch->out);
    ch->lq = NULL;
    ch->rq = NULL;
    ch->slots = NULL;
    ch->free_slots = NULL;
    ch->out = NULL;
}

/* Adds the cycles the return queue spent full up to cycle. */
static void integrate_full(dram_channel *ch, uint64_t cycle)
{
    if (cycle <= ch->full_mark) return;
    if (ch->rq_n >= ch->rq_cap) ch->st.return_full_cycles += cycle - ch->full_mark;
    ch->full_mark = cycle;
}

int dram_channel_can_accept(const dram_channel *ch) { return ch->lq_n < ch->lq_cap; }

int dram_channel_push(dram_channel *ch, uint64_t cycle, const dram_request *r)
{
    if (!r || r->size == 0) return GTLM_ST_EINVAL;
    if (ch->lq_n >= ch->lq_cap) {
        ch->st.push_refused++;
        return DRAM_QUEUE_FULL;
    }
    uint64_t ready = cycle + ch->latency;
    if (ch->lq_n) {
        const dram_channel_lq_entry *tail = &ch->lq[(ch->lq_head + ch->lq_n - 1) % ch->lq_cap];
        if (tail->ready_cycle > ready) ready = tail->ready_cycle;
    }
    dram_channel_lq_entry *e = &ch->lq[(ch->lq_head + ch->lq_n) % ch->lq_cap];
    e->req = *r;
    e->push_cycle = cycle;
    e->ready_cycle = ready;
    ch->lq_n++;
    ch->st.pushed++;
    return GTLM_ST_OK;
}

/* The latency queue's head enters the scheduler queue if it is ready and there is a slot. */
static void enter_core(dram_channel *ch, uint64_t cycle)
{
    if (!ch->lq_n || !ch->n_free || !dram_can_accept(&ch->core)) return;
    dram_channel_lq_entry *e = &ch->lq[ch->lq_head];
    if (e->ready_cycle > cycle) return;
    int slot = ch->free_slots[ch->n_free - 1];
    dram_request r = e->req;
    r.cookie = (void *)(uintptr_t)slot;
    if (dram_enqueue(&ch->core, cycle, &r) != GTLM_ST_OK) return;
    ch->n_free--;
    ch->slots[slot].cookie = e->req.cookie;
    ch->slots[slot].push_cycle = e->push_cycle;
    ch->st.sched_wait_cycles += cycle - e->ready_cycle;
    ch->lq_head = (ch->lq_head + 1) % ch->lq_cap;
    ch->lq_n--;
}

void dram_channel_tick(dram_channel *ch, uint64_t cycle)
{
    integrate_full(ch, cycle);
    enter_core(ch, cycle);
    int room = ch->rq_cap - ch->rq_n;
    if (room > ch->core.fly_cap) room = ch->core.fly_cap;
    int n = dram_tick(&ch->core, cycle, ch->out, room);
    for (int i = 0; i < n; i++) {
        const dram_completion *c = &ch->out[i];
        int slot = (int)(uintptr_t)c->cookie;
        dram_channel_rsp *r = &ch->rq[(ch->rq_head + ch->rq_n) % ch->rq_cap];
        r->cookie = ch->slots[slot].cookie;
        r->addr = c->addr;
        r->is_write = c->is_write;
        r->push_cycle = ch->slots[slot].push_cycle;
        r->done_cycle = c->done_cycle;
        r->ready_cycle = cycle;
        ch->rq_n++;
        ch->free_slots[ch->n_free++] = slot;
        ch->st.completed++;
        ch->st.latency_sum += cycle - r->push_cycle;
    }
}

const dram_channel_rsp *dram_channel_rsp_peek(const dram_channel *ch) { return ch->rq_n ? &ch->rq[ch->rq_head] : NULL; }

void dram_channel_rsp_pop(dram_channel *ch, uint64_t cycle)
{
    if (!ch->rq_n) return;
    integrate_full(ch, cycle);
    ch->rq_head = (ch->rq_head + 1) % ch->rq_cap;
    ch->rq_n--;
}

int dram_channel_rsp_count(const dram_channel *ch) { return ch->rq_n; }

uint64_t dram_channel_next_work(const dram_channel *ch, uint64_t cycle)
{
    uint64_t w = DRAM_NO_WORK;
    const dram_core *d = &ch->core;
    if (ch->lq_n && ch->n_free && dram_can_accept(d)) w = ch->lq[ch->lq_head].ready_cycle;
    /* With the return queue full, only command issue is work: completions wait for a pop, and
     * nothing issues once the in-flight ring is full. */
    int rq_full = ch->rq_n >= ch->rq_cap;
    if (!rq_full || (dram_queue_length(d) > 0 && d->fly_n < d->fly_cap)) {
        uint64_t c = dram_next_work_cycle(d, cycle);
        if (c < w) w = c;
    }
    if (w == DRAM_NO_WORK) return w;
    return w > cycle ? w : cycle;
}

int dram_channel_busy(const dram_channel *ch) { return ch->lq_n || ch->rq_n || !dram_idle(&ch->core); }

void dram_channel_describe(const dram_channel *ch, strbuf *out)
{
    if (!dram_channel_busy(ch)) return;
    strbuf_line(out, "latency queue %d/%d, scheduler queue %d/%d, in flight %d, return queue %d/%d", ch->lq_n,
                ch->lq_cap, dram_queue_length(&ch->core), ch->core.qcap, ch->core.fly_n, ch->rq_n, ch->rq_cap);
}
