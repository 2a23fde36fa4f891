/*
 * One DRAM channel's memory controller around a dram_core, in DRAM command-clock cycles: what
 * dram_core.h leaves to its wrapper.
 *
 *   push ─► latency queue ─(ready, one per cycle, when the scheduler has a slot)─► dram_core
 *        ─(completions, only as many as the return queue has room for)─► return queue ─► rsp_pop
 *
 * Latency queue (GPGPU-Sim's -dram_latency): a request pushed at cycle c may enter the scheduler
 * queue from cycle c + L, L = ceil(latency * dram_mhz / core_mhz) (the option is in core cycles),
 * in push order, at most one per cycle (the scheduler queue takes one request per command cycle,
 * as in GPGPU-Sim's memory partition). Its capacity is L + the scheduler queue's size: L entries
 * keep a one-request-per-cycle stream flowing through the delay, the rest absorb a full scheduler
 * queue; beyond that push refuses (DRAM_QUEUE_FULL) and the caller holds the request.
 * Return queue: -gpgpu_dram_return_queue_size entries (0: DRAM_UNLIMITED_QUEUE). While it is full,
 * completions stay in the core (dram_tick is called with no room), and once the core's in-flight
 * ring is full no further command issues: back-pressure without loss.
 *
 * Per cycle c (non-decreasing), dram_channel_tick(ch, c): first the latency queue's head enters the
 * core if it is ready and the core can accept, then dram_tick(c) collects the completions whose data
 * ended by c into the return queue and issues at most one command. So a lone read to a closed bank
 * pushed at p is in the return queue at p + L + tRCD + CL + burst cycles.
 */
#ifndef GTLM_DRAM_CHANNEL_H
#define GTLM_DRAM_CHANNEL_H

#include <stdint.h>

#include "../common/strbuf.h"
#include "dram_core.h"

typedef struct dram_channel_stats {
    uint64_t pushed;             /* requests accepted into the latency queue */
    uint64_t push_refused;       /* pushes refused: latency queue full */
    uint64_t sched_wait_cycles;  /* sum of cycles requests waited, past their latency, to enter the core */
    uint64_t return_full_cycles; /* cycles the return queue was full */
    uint64_t completed;          /* completions moved into the return queue */
    uint64_t latency_sum;        /* sum of (cycle entering the return queue - push cycle) */
} dram_channel_stats;

/* A response: the request's cookie and when it was pushed, its data ended and it became
 * visible in the return queue. */
typedef struct dram_channel_rsp {
    void *cookie;
    uint64_t addr;
    int is_write;
    uint64_t push_cycle, done_cycle, ready_cycle;
} dram_channel_rsp;

/* Internal state, exposed so the struct can live by value in a wrapper. */
typedef struct dram_channel_lq_entry {
    dram_request req;
    uint64_t push_cycle, ready_cycle;
} dram_channel_lq_entry;

typedef struct dram_channel_slot { /* a request inside the core: the caller's cookie and push cycle */
    void *cookie;
    uint64_t push_cycle;
} dram_channel_slot;

typedef struct dram_channel {
    dram_core core;
    uint64_t latency; /* L, in DRAM cycles */
    dram_channel_lq_entry *lq; /* ring */
    int lq_head, lq_n, lq_cap;
    dram_channel_rsp *rq;      /* ring */
    int rq_head, rq_n, rq_cap;
    dram_channel_slot *slots;  /* one per request the core can hold (queued + in flight) */
    int *free_slots, n_free, n_slots;
    dram_completion *out;      /* dram_tick's output buffer, one per in-flight slot */
    uint64_t full_mark;        /* return_full_cycles integrated up to this cycle */
    dram_channel_stats st;
} dram_channel;

/* ceil(core_cycles * block_mhz / core_mhz): a latency given in core cycles (GPGPU-Sim's
 * convention for -dram_latency) in another clock's cycles. The slack keeps a product that is
 * exact on paper (100 * 924 / 700 = 132) from rounding up on a floating-point error. */
static inline uint64_t dram_cycles_from_core(int core_cycles, double block_mhz, double core_mhz)
{
    if (core_cycles <= 0 || block_mhz <= 0 || core_mhz <= 0) return 0;
    double x = (double)core_cycles * block_mhz / core_mhz;
    uint64_t n = (uint64_t)x;
    return x - (double)n > 1e-9 ? n + 1 : n;
}

/* n_channels: -gpgpu_n_mem. Returns GTLM_ST_OK, GTLM_ST_ECONFIG or GTLM_ST_ENOMEM. */
int dram_channel_init(dram_channel *ch, const dram_config *cfg, int n_channels, double core_mhz, double dram_mhz);
void dram_channel_free(dram_channel *ch);

int dram_channel_can_accept(const dram_channel *ch);
/* GTLM_ST_OK; DRAM_QUEUE_FULL when the latency queue is full (hold the request, retry later);
 * GTLM_ST_EINVAL for a NULL request or size 0. A request is ready at max(cycle + L, the ready
 * cycle of the request pushed before it): the queue keeps push order. */
int dram_channel_push(dram_channel *ch, uint64_t cycle, const dram_request *r);
void dram_channel_tick(dram_channel *ch, uint64_t cycle);
/* The oldest response, or NULL. */
const dram_channel_rsp *dram_channel_rsp_peek(const dram_channel *ch);
/* Removes the oldest response (cycle: when, for the return-queue-full statistic). */
void dram_channel_rsp_pop(dram_channel *ch, uint64_t cycle);
int dram_channel_rsp_count(const dram_channel *ch);
/* First cycle >= cycle at which dram_channel_tick has work; DRAM_NO_WORK when it waits for a
 * push or a rsp_pop. */
uint64_t dram_channel_next_work(const dram_channel *ch, uint64_t cycle);
/* Anything queued, in the core, or waiting in the return queue. */
int dram_channel_busy(const dram_channel *ch);
/* One line of queue occupancies when busy, nothing when idle. */
void dram_channel_describe(const dram_channel *ch, strbuf *out);

#endif
