/* The extended LLC (Morpheus §3.5, G11, G12): the sets the cache-mode SMs' helper-kernel warps
 * manage, one set per warp, and the backend interface the Morpheus controllers talk to.
 *
 * Backend interface (ellc_backend): the controller submits one operation per set at a time (the
 * warp-status-table row is busy until its result is back), with the cycle the request arrives at
 * the SM; the backend reports completions (the cycle the warp stored its result). The parameterised
 * server model below implements it; the executed helper kernel (a later step) is a second backend.
 *
 * Server model: a set is an LRU array of `ways` 128-byte blocks with valid and dirty bits; its warp
 * serves one operation at a time (a later arrival waits: the queue of the set, FIFO), occupying it
 *   read/write/atomic hit:  tag + move + store        miss: tag + store (result only)
 *   fill:                   tag + move + store (victim choice, insertion, write-back data out)
 * cycles (the split of the document's 185 ns, -morpheus_svc_*_ns). A fill of a dirty block (an
 * atomic's) sets it dirty; a fill evicting a dirty block returns the victim for the write-back.
 * Replacement is exact LRU (a per-block last-use stamp): the Bloom-filter swap rule is only safe
 * under LRU, and the document's 12-bit saturating counters (G8) tie after 4095 accesses, which can
 * evict a newer block than the one the filters assume (a false negative). Cycles: the controller's
 * (L2) clock. Sets: global id g = rank x warps + warp, rank = the cache-mode SM's index among them. */
#ifndef GTLM_EXT_LLC_H
#define GTLM_EXT_LLC_H

#include <stdint.h>

#include "llc_config.h"

#define ELLC_NEVER UINT64_MAX

typedef enum ellc_unit { ELLC_UNIT_RF = 0, ELLC_UNIT_L1, ELLC_UNIT_SMEM } ellc_unit;
typedef enum ellc_kind { ELLC_READ = 0, ELLC_WRITE, ELLC_ATOMIC, ELLC_FILL } ellc_kind;

typedef struct ellc_req {
    uint64_t key;        /* line address (the full tag) */
    uint64_t tag;        /* the controller's: its queue entry */
    uint32_t set;        /* global extended set */
    uint16_t ctl;        /* controller that submitted it (its completions) */
    uint8_t kind;        /* ellc_kind */
    uint8_t dirty;       /* fill: the block is dirty (an atomic's result) */
    uint8_t size;        /* compression: bytes the block takes (bdi_bytes; 0: a whole line) */
} ellc_req;

#define ELLC_MAX_VICTIMS 4 /* compression: a 128-byte block can push out four 36-byte ones */

typedef struct ellc_done {
    ellc_req r;
    uint64_t arrive, start, done; /* at the SM: arrival, service start, result stored */
    uint64_t victim[ELLC_MAX_VICTIMS]; /* line addresses of the dirty victims written back */
    uint8_t hit;         /* read/write/atomic: the block was present */
    uint8_t writeback;   /* dirty victims leaving (a fill's, or a compressed write's that grew) */
} ellc_done;

/* Per cache-mode SM (gpu.sm[i].ext_llc.*). */
typedef struct ellc_sm_stats {
    uint64_t accesses, hits, misses; /* reads, writes, atomics */
    uint64_t fills, writebacks;
    uint64_t busy_cycles;            /* sum of service times of its warps */
    uint64_t queue_cycles;           /* sum of waits for a busy warp at the SM */
    uint64_t bytes;                  /* data moved in or out of its storage */
    uint64_t bdi_high, bdi_low;      /* compression: blocks stored at the high / low level */
} ellc_sm_stats;

typedef struct ellc_set {
    uint32_t ways;                   /* uncompressed blocks it holds (its frames in the address split) */
    uint32_t slots;                  /* block entries: ways, or with compression as many as fit compressed */
    uint32_t cap, used;              /* compression: bytes of storage, bytes taken */
    uint8_t unit;                    /* ellc_unit */
    uint64_t *key, *stamp;           /* per slot: line, last use (0: invalid) */
    uint8_t *dirty, *size;           /* per slot: dirty, bytes taken (compression) */
    uint64_t busy_until;             /* the warp is free from this cycle */
} ellc_set;

typedef struct ellc_server {
    uint32_t n_sms, warps, n_sets, n_ctl;
    uint32_t t_tag, t_move, t_store; /* cycles */
    uint32_t t_decomp;               /* compression: extra cycles to (de)compress a compressed block */
    int compress;                    /* BDI (-morpheus_compression): blocks take bdi_bytes */
    ellc_set *sets;
    ellc_sm_stats *st;               /* per rank */
    uint64_t clock;                  /* LRU stamps */
    struct ellc_pending { ellc_done *v; uint32_t n, cap; } *pend; /* per controller: completions not yet taken */
} ellc_server;

/* Blocks (ways) of a set of warp w under the storage variant (spec §6.3 model, G12):
 *   rf: R = min(max_regs, warp_regs / W) registers per warp, d data + ceil(d/32) metadata + aux <= R;
 *   l1 / smem: capacity / 128 B / W;  rf_l1: warps < rf_warps are RF sets with the registers the
 *   L1 warps (l1_warp_regs each) leave, the others share the L1.  *unit gets the storage. */
uint32_t ellc_ways(const llc_config *c, uint32_t warp_regs, uint32_t max_regs, uint32_t w, int *unit);

/* ns -> cycles (ceil) at mhz. */
uint32_t ellc_ns_to_cycles(double ns, double mhz);

int ellc_init(ellc_server *e, const llc_config *c, uint32_t n_sms, uint32_t warp_regs, uint32_t max_regs,
              uint32_t n_ctl, double mhz);
void ellc_free(ellc_server *e);

/* The backend interface. */
typedef struct ellc_backend {
    void *ctx;
    int (*submit)(void *ctx, const ellc_req *r, uint64_t arrive);          /* 0, -1: no memory */
    uint64_t (*next_done)(const void *ctx, uint32_t ctl);                  /* ELLC_NEVER: none */
    int (*pop_done)(void *ctx, uint32_t ctl, uint64_t cycle, ellc_done *out); /* 0 when one was due */
    int (*resident)(const void *ctx, uint32_t set, uint64_t key);          /* the functional tag store */
    uint32_t (*ways)(const void *ctx, uint32_t set);
    /* The set's associativity now (the Bloom swap threshold): blocks resident with compression,
     * else its ways. */
    uint32_t (*assoc)(const void *ctx, uint32_t set);
} ellc_backend;
ellc_backend ellc_server_backend(ellc_server *e);

int ellc_submit(ellc_server *e, const ellc_req *r, uint64_t arrive);
uint64_t ellc_next_done(const ellc_server *e, uint32_t ctl);
int ellc_pop_done(ellc_server *e, uint32_t ctl, uint64_t cycle, ellc_done *out);
int ellc_resident(const ellc_server *e, uint32_t set, uint64_t key);
uint64_t ellc_capacity_bytes(const ellc_server *e, uint32_t rank); /* of one cache-mode SM */
/* Dirty blocks one cache-mode SM holds now: at the application's end, the lines its helper kernel
 * writes back to DRAM (G24: off the critical path, so counted, not timed). */
uint64_t ellc_dirty_lines(const ellc_server *e, uint32_t rank);
uint32_t ellc_assoc(const ellc_server *e, uint32_t set);

#endif
