/*
 * One memory sub-partition's L2 bank (GPGPU-Sim-like), in L2-clock cycles, over the cache core.
 *
 * Path of a request (the wrapper calls l2_slice_tick(s, c) with non-decreasing c; cycles may be
 * skipped when l2_slice_next_work says so):
 *   push(r, t) ─► front hook: FORWARD ─► forward queue (ready at t; the wrapper drains it)
 *             └─► LOCAL ─► ROP queue, ready for the tag stage at t + rop_cycles
 *   tag stage: at most one request per cycle through cache_access(). A reservation failure keeps
 *     the request at the head; it retries every cycle (each attempt is counted, like GPGPU-Sim).
 *     The tag stage also waits while the response queue holds L2_RSP_QUEUE_CAP responses
 *     (back-pressure from the interconnect, as GPGPU-Sim's L2->icnt queue).
 *   data port: responses leave in order; each holds the port for ceil(bytes / port_width)
 *     cycles (bytes = the request's data size: read data out, write data in). A hit whose tag
 *     lookup was at cycle T starts on the port at T + 1 (or when the port frees) and is ready to
 *     pop when its port cycles end: push at t -> ready at t + rop_cycles + 1 + port cycles.
 *   misses: the cache core queues reads / writes / write-backs in its miss queue; each tick moves
 *     one into the DRAM queue (L2_DRAM_QUEUE_CAP records), visible that cycle. A request that
 *     missed at cycle T is visible in the DRAM queue at T + 1.
 *   fills: l2_slice_dram_fill(addr, mask, f) takes effect at the tick of cycle f (before that
 *     cycle's tag lookup): cache_fill, and each woken read/atomic queues for the data port from f.
 *
 * Request kinds (choices where the brief left room):
 *   READ       a load or prefetch: HIT responds with data, MISS/HIT_RESERVED waits for the fill.
 *   WRITE      a store; WRITEBACK a dirty L1 line: the cache's write policy applies (the shipped
 *              L2 configs are write-back; write_alloc from the config string). The write is
 *              acknowledged (response without data) once it passed the tag stage, after its data
 *              went through the data port.
 *   ATOMIC     the data is already updated functionally by the SM: looked up as a read that also
 *              dirties the line's sectors when the line is present: at once on a hit, at the fill
 *              on a miss (its response, with data, goes out then).
 * Perfect L2: every access hits (the cache is not consulted), nothing goes to DRAM.
 * A disabled L2 ("none") is not modelled: l2_slice_init fails.
 *
 * Queue sizes (-gpgpu_dram_partition_queues icnt_l2:l2_dram:dram_l2:l2_icnt, GPGPU-Sim's default
 * 8:8:8:8): the ROP queue holds rop_cycles + icnt_l2 requests, so a request per cycle flows
 * through the ROP delay without refusals and icnt_l2 more can wait at the tag stage (GPGPU-Sim's
 * icnt->L2 queue behind its unbounded ROP delay queue). The DRAM queue holds l2_dram records and
 * the tag stage stops at l2_icnt responses; fills may exceed that limit since they cannot be
 * refused (the storage covers every MSHR waiter). dram_l2 bounds nothing here: the fill inbox
 * holds every outstanding read and the DRAM's return queue bounds that path. The forward queue
 * (the controller seam's, not GPGPU-Sim's) holds L2_FWD_QUEUE_CAP.
 */
#ifndef GTLM_L2_SLICE_H
#define GTLM_L2_SLICE_H

#include <stdint.h>

#include "../cache/cache_core.h"
#include "../common/strbuf.h"
#include "../dram/dram_addr.h"
#include "../gpu/gpu_config.h"

#define L2_NEVER UINT64_MAX
/* GPGPU-Sim's default partition queue sizes (the params' defaults) */
#define L2_ROP_EXTRA 8
#define L2_RSP_QUEUE_CAP 8
#define L2_DRAM_QUEUE_CAP 8
#define L2_FWD_QUEUE_CAP 8

typedef enum l2_req_kind { L2_REQ_READ = 0, L2_REQ_WRITE, L2_REQ_ATOMIC, L2_REQ_WRITEBACK } l2_req_kind;

/* A request from the interconnect. */
typedef struct l2_req {
    uint64_t addr;
    uint64_t cookie;     /* the caller's (the wrapper: the payload pointer), returned in the response */
    uint32_t bytes;      /* data size */
    uint32_t pc_hash;
    uint8_t sector_mask; /* 0: whole line */
    uint8_t kind;        /* l2_req_kind */
    int32_t src;         /* the SM whose load this READ is, -1 otherwise (prefetch, or unknown) */
    uint8_t prefetch;    /* a READ an L1 prefetcher sent (counted apart: pf_* statistics) */
} l2_req;

/* A response for the interconnect. */
typedef struct l2_rsp {
    uint64_t cookie;
    uint64_t ready;      /* first cycle it can be popped */
    uint32_t bytes;      /* data returned: the request's size for reads and atomics, 0 for writes */
    uint8_t hit;         /* the tag lookup hit (a merged or missed request: 0) */
    uint8_t kind;        /* l2_req_kind of the request */
} l2_rsp;

/* A request for DRAM. */
typedef struct l2_dram_req {
    uint64_t addr;       /* line address */
    uint64_t cookie;     /* the interconnect request whose tag lookup queued it; 0 for write-backs */
    uint64_t ready;      /* first cycle it can be popped */
    uint32_t bytes;      /* 32 per sector in the mask (sectored L2), else the line size */
    uint8_t sector_mask;
    uint8_t is_write;
    uint8_t kind;        /* cache_out_kind: read, write (passed down) or write-back (eviction) */
    uint8_t ext;         /* 1: the L2-side controller's (Morpheus), its response goes back to it */
} l2_dram_req;

/* Controller seam in front of the bank (DESIGN.md §10): asked once per pushed request. */
typedef enum l2_front_decision { L2_FRONT_LOCAL = 0, L2_FRONT_FORWARD = 1 } l2_front_decision;
typedef struct l2_front {
    void *ctx;
    l2_front_decision (*decide)(void *ctx, const l2_req *r); /* NULL: every request is local */
} l2_front;

typedef struct l2_slice_params {
    gsim_cache_cfg dl2;
    int rop_cycles;      /* ROP delay in L2 cycles */
    int perfect;         /* every access hits */
    int sector_mshr;     /* MSHR limits per sector (sectored L2) */
    int read_mq_reserve; /* reads that miss or merge need 2 free miss-queue slots */
    int miss_classes;    /* classify read misses (cache_miss_class.h) */
    int icnt_l2_q;       /* requests that may wait for the tag stage after the ROP delay; 0: L2_ROP_EXTRA */
    int l2_dram_q;       /* DRAM queue records; 0: L2_DRAM_QUEUE_CAP */
    int l2_icnt_q;       /* responses at which the tag stage stops; 0: L2_RSP_QUEUE_CAP */
    int partition_set_index; /* sets indexed by the address inside the sub-partition (needs part_map) */
    const dram_addr_map *part_map; /* the GPU's address map (the owner sets it; NULL: full address) */
    int part_n_sub;      /* sub-partitions per channel */
} l2_slice_params;

typedef struct l2_slice_stats {
    uint64_t accesses;            /* tag lookups, reservation failures included */
    uint64_t reads, writes, atomics; /* of those; writes include L1 write-backs */
    uint64_t hits, hit_reserved, misses; /* tag outcomes as GPGPU-Sim counts them (cache_result.stat_status) */
    uint64_t served_hits;                /* lookups served as hits (status HIT: the timing's, power's) */
    uint64_t reservation_fails;   /* failed tag attempts (retried next cycle) */
    uint64_t res_fail[CACHE_FAIL_COUNT]; /* ... by cache_fail_reason */
    uint64_t rop_stall_cycles;    /* cycles a request ready at the ROP head waited for the tag stage
                                     (reservation failures, response queue full) */
    uint64_t rop_full;            /* pushes refused: ROP or forward queue full */
    uint64_t forwarded;           /* requests the front hook sent elsewhere */
    uint64_t dram_reads, dram_writes; /* records queued for DRAM (writes include write-backs) */
    uint64_t writebacks;          /* dirty L2 lines written back */
    uint64_t fills;               /* DRAM fills applied */
    uint64_t port_busy_cycles;    /* data-port cycles in use */
    uint64_t atomic_unallocated;  /* atomics woken while their line was not allocated (bypass hook) */
    /* prefetch reads (l2_req.prefetch), also counted in the totals above */
    uint64_t pf_reads, pf_hits, pf_hit_reserved, pf_misses;
    uint64_t pf_dram_reads;       /* DRAM reads a prefetch's miss queued (counted by the wrapper) */
    uint64_t pf_bytes;            /* data returned to prefetch reads */
} l2_slice_stats;

/* Internal queues, exposed so the slice can live by value in a wrapper. */
typedef struct l2_rop_entry { l2_req r; uint64_t ready; } l2_rop_entry;
typedef struct l2_fill_entry { uint64_t addr, cycle; uint8_t mask; } l2_fill_entry;
typedef struct l2_waiter { /* a read/atomic waiting in an MSHR; cache cookie = index + 1 */
    uint64_t cookie;
    uint32_t bytes;
    uint8_t kind, mask;
    int32_t src;          /* l2_req.src */
    int next_free;
} l2_waiter;

typedef struct l2_slice {
    l2_slice_params p;
    cache_core cache;
    l2_front front;
    int port_width;
    /* rings: array, head, count, capacity */
    l2_rop_entry *rop; int rop_head, rop_n, rop_cap;
    l2_req *fwd_q; uint64_t *fwd_ready; int fwd_head, fwd_n;
    l2_rsp *rsp; int rsp_head, rsp_n, rsp_alloc; /* grown on demand (an MSHR of 1024 x 1024 ...) */
    l2_dram_req *dram; int dram_head, dram_n, dram_cap;
    int rsp_cap;          /* the tag stage stops while rsp_n reaches it */
    l2_fill_entry *fills; int fill_head, fill_n, fill_cap;
    uint64_t *mq_cookie; int mqc_head, mqc_n, mqc_cap; /* requester of each miss-queue entry */
    l2_waiter *wait; int wait_free, wait_cap; /* ... would otherwise reserve entries x merge slots */
    int wait_alloc, wait_used;                /* slots allocated so far (<= wait_cap), in use */
    uint64_t *woken;      /* cache_fill scratch: mshr_merge cookies */
    uint64_t port_free;   /* first cycle the data port is free */
    uint64_t tag_free;    /* first cycle the tag stage is free (the last lookup + 1) */
    uint64_t stall_since; /* cycle the ROP head first failed to enter the tag stage, or L2_NEVER */
    /* Observers (CBWT's victim bits, model/cbwt/cbwt_l2.h) use the cache's hooks and these:
       tag_src is the src of the request in the tag stage during cache_access (-1 otherwise);
       served, when set, hears after each fill the SMs (bit per SM id < 64) whose loads it woke. */
    int32_t tag_src;
    void (*served)(void *ctx, uint64_t sm_mask);
    void *served_ctx;
    l2_slice_stats st;
} l2_slice;

/* ceil(latency * l2_mhz / core_mhz): a latency given in core cycles in the L2's clock. */
static inline int l2_core_to_l2_cycles(int latency, double core_mhz, double l2_mhz)
{
    if (latency <= 0) return 0;
    if (core_mhz <= 0 || l2_mhz <= 0) return latency;
    double x = (double)latency * l2_mhz / core_mhz;
    long long n = (long long)x;
    if ((double)n < x - 1e-9) n++; /* ceil, tolerant of rounding in the MHz ratio */
    return (int)n;
}

void l2_slice_params_from_config(const gtlm_config *cfg, l2_slice_params *p);
/* 0, or -1 for a bad or disabled cache configuration or no memory. */
int l2_slice_init(l2_slice *s, const l2_slice_params *p);
void l2_slice_free(l2_slice *s);
void l2_slice_set_front(l2_slice *s, const l2_front *f); /* NULL: pass-through */

int l2_slice_can_accept(const l2_slice *s);
/* 0 when taken (queued locally or forwarded), -1 when full (counted in rop_full). */
int l2_slice_push(l2_slice *s, const l2_req *r, uint64_t cycle);
void l2_slice_tick(l2_slice *s, uint64_t cycle);
/* DRAM data for line addr arrived; applied at the tick of `cycle`. -1 when the inbox is full. */
int l2_slice_dram_fill(l2_slice *s, uint64_t addr, uint8_t sector_mask, uint64_t cycle);

/* Output queues: the head when it is ready at `cycle`, else NULL; pop returns 0 or -1 (empty). */
const l2_rsp *l2_slice_rsp_peek(const l2_slice *s, uint64_t cycle);
int l2_slice_rsp_pop(l2_slice *s, l2_rsp *out);
const l2_dram_req *l2_slice_dram_peek(const l2_slice *s, uint64_t cycle);
int l2_slice_dram_pop(l2_slice *s, l2_dram_req *out);
const l2_req *l2_slice_fwd_peek(const l2_slice *s, uint64_t cycle);
/* The L2-side controller's outputs through the slice: a response to request r (its cookie, kind,
 * bytes) on the data port from `earliest`, like a hit's; a record into the DRAM queue. -1: no
 * memory / the DRAM queue is full. */
int l2_slice_respond_ext(l2_slice *s, const l2_req *r, int hit, uint64_t earliest);
int l2_slice_dram_push(l2_slice *s, const l2_dram_req *d);
int l2_slice_fwd_pop(l2_slice *s, l2_req *out);

/* First cycle >= cycle at which a tick has work or an output head becomes ready; an output head
 * already ready before `cycle` is not counted (it waits on the wrapper's channel, which the
 * wrapper knows about). L2_NEVER when nothing is pending. */
uint64_t l2_slice_next_work(const l2_slice *s, uint64_t cycle);
int l2_slice_busy(const l2_slice *s);
/* One line of queue occupancies (nothing when idle). */
void l2_slice_describe(const l2_slice *s, strbuf *out);

#endif
