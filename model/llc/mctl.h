/* The Morpheus controller of one L2 slice (spec §3.2-3.4, Fig. 6, Fig. 7; G1, G2, G6, G10), in
 * L2-clock cycles, behind the slice's controller seam (l2_slice_set_front: extended addresses are
 * forwarded, everything else stays in the conventional slice, untouched).
 *
 * Address separator (G1): line key = addr / line; h = mix(key) mod (F_conv + F_ext), F_conv = the
 * slice's frames, F_ext = the frames of the extended sets homed here; h >= F_conv is extended, and
 * h - F_conv falls in one set's range of `ways` frames (capacity-proportional). Extended set g lives
 * in warp g % warps of cache-mode SM g / warps and is homed at slice g % n_slices, WST row g / n_slices (G2).
 *
 * A request forwarded at cycle t reaches the predictor at T = t + ctl_cycles (the slice's ROP delay
 * by default, so a predicted miss costs what a conventional miss costs), one per cycle:
 *   read:   predicted hit -> request queue (dispatchable from T+1); predicted miss -> DRAM read,
 *           visible in the slice's DRAM queue at T+1; its data goes to the requester through the
 *           slice's data port from the DRAM fill f, and a fill of the line is queued for the set at f.
 *   write:  acknowledged through the data port from T+1; predicted hit -> request queue (the
 *           warp merges it, dirty); predicted miss -> DRAM write at T+1 (no allocation).
 *   atomic: no prediction: always to the owning warp (one point of atomicity).
 * Request queue: per-set dequeue, the oldest entry whose set's WST row is idle, one dispatch per
 * cycle; the row stays busy until the result is back. Fills are queued like requests (not limited
 * by the depth). The backend (ext_llc.h) serves the operation; the interconnect in between is the
 * compute crossbar (tlm/icnt, -morpheus_noc_xbar 1) or ext_link (0; the C tests). Results back at a:
 *   read hit -> the requester's data through the data port from a; read miss (a false positive) ->
 *   DRAM read at a+1, then as a predicted miss; write miss -> DRAM write at a+1; atomic miss ->
 *   DRAM read, its fill is dirty; fill with a dirty victim -> DRAM write-back at a+1.
 * Merging: a read of a line with a read already pending for it (queued, at the warp, or waiting
 * for DRAM) joins it (up to MCTL_MERGE more): the warp moves whole 128-byte blocks and the read data
 * buffer holds one, so one operation answers all the line's sector requests (each response still
 * takes its own data-port cycles).
 * Predictor updates (Fig. 6b) run when a hit or a fill is back, i.e. in the set's service order
 * (one operation per set at a time), which is what the LRU swap rule needs; a queued fill's line
 * is in BF1 from the moment it is queued (and again after a swap), so it is never predicted a miss.
 * Packets (bytes): requests and results 8 (header) + data: read hits 8 + the requested bytes
 * (with merged reads: the whole line), writes 8 + bytes, fills and dirty victims 8 + 128. DRAM: the
 * controller's reads and writes move whole 128-byte lines (the extended LLC is not sectored). */
#ifndef GTLM_MCTL_H
#define GTLM_MCTL_H

#include <stdint.h>

#include "../l2/l2_slice.h"
#include "bloom_pred.h"
#include "ext_link.h"
#include "ext_llc.h"

typedef struct mctl_params {
    uint32_t slice, n_slices;
    uint32_t line;           /* bytes */
    uint64_t f_conv;         /* conventional frames of the slice */
    uint32_t ctl_cycles;     /* forward -> predictor */
    uint32_t depth;          /* request-queue entries */
    uint32_t input_cap;      /* requests between forward and predictor */
    uint32_t wst_rows;
    uint32_t header;         /* packet header bytes */
    uint32_t rbuf, wbuf;     /* read / write data buffer entries; 0: not limited (storage only) */
} mctl_params;

#define MCTL_MERGE 3         /* more reads of one line served by one operation (4 requesters, as an L2 MSHR) */

typedef struct mctl_entry {
    l2_req r;                /* the requester's (fills: only addr) */
    l2_req more[MCTL_MERGE]; /* reads of the same line merged into this one */
    uint8_t n_more;
    uint64_t key, ready, enq;
    uint32_t row;
    uint8_t kind;            /* ellc_kind */
    uint8_t dirty;           /* fill */
    uint8_t has_req;         /* a requester waits for this entry's result */
} mctl_entry;

typedef struct mctl_row {
    uint32_t set, ways;
    uint64_t first_frame;
    uint8_t busy;
    int32_t wbuf;            /* write data buffer entry held until the operation reaches the warp (-1: none) */
    mctl_entry cur;
} mctl_row;

typedef struct mctl_stats {
    uint64_t requests, reads, writes, atomics;
    uint64_t ext_hits, ext_misses;       /* lookup results of the warps */
    uint64_t dram_reads, dram_writes, writebacks, fills;
    uint64_t dispatched, queue_cycles;   /* request-queue waits (enqueue -> dispatch) */
    uint64_t predictor_stalls;           /* cycles a predicted hit waited for queue room */
    uint64_t max_queue;
    uint64_t merged;                     /* reads merged into a pending read of their line */
    uint64_t rbuf_stalls, wbuf_stalls;   /* cycles a result / a dispatch waited for a buffer entry */
    uint64_t hit_served;                 /* requests served by extended hits (writes and merged reads included) */
} mctl_stats;

/* Data buffers (§3.4; -morpheus_buffer_stall): an entry holds a block while it is in the controller.
 *   read data buffer:  a hit's result carrying data for requesters takes an entry when it arrives
 *                      (the warp's stores write the block there) until the last requester's data has
 *                      left through the slice's data port; with every entry taken the result waits
 *                      (its WST row stays busy) until one frees.
 *   write data buffer: a write or an atomic takes an entry for its data at dispatch (dequeue) until
 *                      the request has reached the warp (which reads it); with every entry taken the
 *                      queue dispatches other work (reads, fills) and the write waits.
 * Fills are staged in the slice's DRAM return path, not in these buffers. */

/* The interconnect path between the controller and the cache-mode SMs (tlm/llc/ext_noc.h carries
 * it as TLM transactions). Without one (to_sm NULL: the C unit tests) the controller times the
 * packets with ext_link itself and submits to the backend directly; with one, it hands each packet
 * over and the far end submits at the arrival (to_sm) or calls mctl_result_in (to_ctl). Either way
 * the link's port reservations are made in the same order, so the timing is the same. */
typedef struct mctl_net {
    void *ctx;
    /* operation q leaves controller ctl at cycle send for cache-mode SM rank, bytes on the wire;
     * *arrive gets its arrival; 0, or -1 when it could not be sent (retried) */
    int (*to_sm)(void *ctx, uint32_t ctl, uint32_t rank, uint64_t send, uint32_t bytes, const ellc_req *q,
                 uint64_t *arrive);
    /* the warp's result d leaves cache-mode SM rank at d->done for controller ctl, bytes on the wire */
    void (*to_ctl)(void *ctx, uint32_t rank, uint32_t ctl, uint32_t bytes, const ellc_done *d);
} mctl_net;

/* A growable FIFO of entries. */
typedef struct mctl_vec { mctl_entry *v; uint32_t n, cap; } mctl_vec;
typedef struct mctl_arrival { uint64_t at; ellc_done d; } mctl_arrival;

typedef struct mctl {
    mctl_params p;
    ellc_backend be;
    ext_link *link;
    mctl_net net;             /* zero: the interim direct path */
    uint32_t warps;           /* sets per cache-mode SM */
    bloom_pred bp;
    mctl_row *rows; uint32_t n_rows;
    uint64_t f_ext;
    mctl_vec input, queue, outbox, reads, rsps; /* outbox, reads: DRAM records; rsps: DRAM data for requesters */
    mctl_arrival *arr; uint32_t n_arr, cap_arr;
    uint32_t queued_hits;     /* queue entries that count against the depth (not fills) */
    uint32_t busy_rows;       /* WST rows whose warp is serving an operation (waveforms) */
    uint64_t *rbuf_free, *wbuf_free; /* per buffer entry: the cycle it is free again */
    mctl_stats st;
    /* compression: bytes a line takes (bdi_bytes of its data now); NULL: whole lines */
    uint32_t (*block_bytes)(void *ctx, uint64_t line_addr);
    void *block_ctx;
} mctl;

/* n_sets: all extended sets (cache-mode SMs x warps). 0, or -1 (no memory, or more sets homed
 * here than WST rows: *err_rows gets the count). */
int mctl_init(mctl *m, const mctl_params *p, const llc_config *c, ellc_backend be, ext_link *link, uint32_t n_sets,
              uint32_t warps, uint32_t *err_rows);
void mctl_free(mctl *m);

/* Address separator: 1 and the WST row when addr belongs to the extended LLC. */
int mctl_map(const mctl *m, uint64_t addr, uint32_t *row);
/* The slice's front hook (ctx: the mctl). */
l2_front mctl_front(mctl *m);

void mctl_tick(mctl *m, l2_slice *s, uint64_t cycle);
/* With an mctl_net whose to_sm cannot tell the arrival (*arrive = ELLC_NEVER: a crossbar with
 * contention), the operation of WST row `row` reached its warp at cycle `at`: its write data buffer
 * entry, if any, is free from then on. */
void mctl_request_arrived(mctl *m, uint32_t row, uint64_t at);
/* With an mctl_net: a warp's result d is back at the controller at cycle `at`. */
void mctl_result_in(mctl *m, const ellc_done *d, uint64_t at);
/* DRAM data of line addr for one of the controller's reads is back at `cycle`. */
void mctl_dram_done(mctl *m, uint64_t addr, uint64_t cycle);
uint64_t mctl_next_work(const mctl *m, const l2_slice *s, uint64_t cycle);
int mctl_busy(const mctl *m);
/* Storage of the controller (bytes): Bloom filters, and WST + queue (G6 field widths). */
uint64_t mctl_bloom_bytes(const mctl *m);

#endif
