/* The Morpheus hit/miss predictor (spec §3.3, Fig. 6; G3, G4): two Bloom filters per extended set,
 * BF1 and BF2, alternately cleared.
 *   query (Fig. 6a): a block is predicted present when BF1 says so.
 *   update (Fig. 6b), on every insertion or re-use of block b in set s: insert b into BF1 and BF2;
 *     n(s) += 1 when BF2 did not hold b yet; when n(s) >= the set's associativity, BF2 holds the
 *     n most recently used distinct blocks, hence (LRU) every resident block: BF1 is cleared, the
 *     two swap roles, n(s) = 0.
 * Invariant: BF1 holds at least every resident block, so a predicted miss is a true miss. A BF2
 * false positive only undercounts n (a later swap), which keeps the invariant.
 * Hashes: H3 (each output bit the parity of the key AND a fixed random mask), k per filter, the
 * same k functions for both filters. Modes: bloom, none (every request goes to the extended LLC),
 * perfect (the caller's ground truth). The false-negative checker compares each Bloom prediction
 * with the ground truth the caller passes and stops the run at a violation (or counts it). */
#ifndef GTLM_BLOOM_PRED_H
#define GTLM_BLOOM_PRED_H

#include <stdint.h>

#include "llc_config.h"

#define BLOOM_MAX_HASHES 8
#define BLOOM_MAX_INDEX_BITS 16

typedef struct bloom_stats {
    uint64_t predictions, predicted_hits, predicted_misses;
    uint64_t true_positives, false_positives, true_negatives, false_negatives;
    uint64_t updates, swaps, bf1_inserts; /* bf1_inserts: pending fills (bloom_note_pending) */
} bloom_stats;

/* Another implementation of the filters (the RTL twin through its transactor, tlm/rtl): when
 * bf1_has is set, the filter test, update and pending insert go to it and the C filters stay
 * unused; modes, statistics and the false-negative checker stay here. destroy runs in bloom_free. */
typedef struct bloom_ext {
    int (*bf1_has)(void *ctx, uint32_t set, uint64_t key);
    int (*update)(void *ctx, uint32_t set, uint64_t key, uint32_t assoc);
    void (*note_pending)(void *ctx, uint32_t set, uint64_t key);
    void (*destroy)(void *ctx);
    void *ctx;
} bloom_ext;

typedef struct bloom_pred {
    int mode;              /* llc_predictor_mode */
    int fn_fatal;          /* a false negative aborts (else it is counted) */
    uint32_t n_sets, bits, words, k, index_bits;
    uint64_t *bf;          /* n_sets x 2 filters x words */
    uint8_t *bf1;          /* per set: which filter is BF1 (0 or 1) */
    uint32_t *n;           /* per set: distinct blocks inserted into BF2 since the last swap */
    uint64_t mask[BLOOM_MAX_HASHES][BLOOM_MAX_INDEX_BITS];
    const char *name;      /* for the checker's message (e.g. the controller's) */
    bloom_stats st;
    bloom_ext ext;         /* all NULL: the C filters */
} bloom_pred;

/* bits: a power of two in [8, 65536]; k in [1, 8]. 0, or -1 on bad arguments / no memory. */
int bloom_init(bloom_pred *p, int mode, uint32_t n_sets, uint32_t bits, uint32_t k, int fn_fatal, uint64_t seed);
void bloom_free(bloom_pred *p);

/* Bit position of hash i of key (exposed for tests that craft collisions). */
uint32_t bloom_hash(const bloom_pred *p, uint32_t i, uint64_t key);
/* BF1 test of the raw filter (no statistics). */
int bloom_bf1_has(const bloom_pred *p, uint32_t set, uint64_t key);
/* The prediction for a request of key in set, given the truth (the block is resident): 1 = hit.
 * Counts true/false positives/negatives; a Bloom false negative stops the run when fn_fatal. */
int bloom_predict(bloom_pred *p, uint32_t set, uint64_t key, int resident);
/* Fig. 6(b) for an insertion or re-use of key in set of `assoc` blocks; returns 1 when BF1 and
 * BF2 swapped (the caller re-inserts its pending fills with bloom_note_pending). */
int bloom_update(bloom_pred *p, uint32_t set, uint64_t key, uint32_t assoc);
/* A block that will be inserted (a fill on its way to the set): BF1 only, so it is never predicted
 * a miss while in flight; the update when it is inserted counts it. */
void bloom_note_pending(bloom_pred *p, uint32_t set, uint64_t key);
/* Clears both filters of a set (tests: breaks the invariant on purpose). */
void bloom_clear_set(bloom_pred *p, uint32_t set);

#endif
