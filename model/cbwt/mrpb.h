/*
 * MRPB's request reordering (Jia et al., HPCA 2014, as seeds/001 Sec. VI-B describes it: "FIFO
 * buffers to reorder memory requests, shortening the reuse distance of memory requests before
 * they are sent to L1 caches"; spec section 7 item 8, gap G24). Per SM, `n_queues` FIFOs of
 * `depth` entries sit between the coalescer and the L1D. A request goes to queue warp % n_queues
 * (the signature: the warp). The drain sends the head of the current queue and stays on that
 * queue until it is empty, then moves round-robin to the next non-empty queue: one warp's
 * requests reach the L1 back to back instead of interleaved with every other warp's.
 *
 * The entries are opaque records of `esize` bytes (the SM stores what it needs to replay the
 * access). No cycle logic here: the SM pushes from its LD/ST unit and drains one per cycle.
 */
#ifndef GTLM_CBWT_MRPB_H
#define GTLM_CBWT_MRPB_H

#include <stddef.h>
#include <stdint.h>

typedef struct mrpb {
    int n_queues, depth;   /* 0 queues: MRPB off */
    size_t esize;
    unsigned char *buf;    /* n_queues rings of depth entries */
    int *head, *count;
    int cur;               /* the queue being drained */
    uint32_t n;            /* entries buffered in all queues */
    uint64_t pushed, full, switches; /* statistics: entries in, pushes refused (queue full), queue changes */
} mrpb;

/* 0, or -1 (queues outside 1..64, depth outside 1..256, esize 0, or no memory). */
int mrpb_init(mrpb *m, int n_queues, int depth, size_t esize);
void mrpb_free(mrpb *m);
/* Appends a request of warp `warp` to its queue: 0, or -1 when that queue is full. */
int mrpb_push(mrpb *m, uint32_t warp, const void *entry);
/* The request the drain sends next (stays buffered until mrpb_pop), NULL when empty. */
const void *mrpb_head(mrpb *m);
/* Removes the request mrpb_head returned. */
void mrpb_pop(mrpb *m);

#endif
