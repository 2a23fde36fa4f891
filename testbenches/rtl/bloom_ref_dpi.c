/* DPI-C side of tb_bloom_pred.sv: Morpheus' Bloom-filter predictor (model/llc/bloom_pred.c, bloom
 * mode) as the reference model. */
#include <stdint.h>

#include "llc/bloom_pred.h"

static bloom_pred ref;
static int ref_ready;

int ref_bloom_init(int sets, int bits, int k, long long seed)
{
    if (ref_ready) bloom_free(&ref);
    int rc = bloom_init(&ref, LLC_PRED_BLOOM, (uint32_t)sets, (uint32_t)bits, (uint32_t)k, 0, (uint64_t)seed);
    ref_ready = rc == 0;
    return rc;
}

/* H3 mask of hash i, index bit j (the RTL's mask port is loaded from these). */
long long ref_bloom_mask(int i, int j) { return (long long)ref.mask[i][j]; }

int ref_bloom_query(int set, long long key) { return bloom_bf1_has(&ref, (uint32_t)set, (uint64_t)key); }

/* op 0: update (returns 1 on a swap), op 1: a pending fill (returns 0). */
int ref_bloom_op(int op, int set, long long key, int assoc)
{
    if (op == 0) return bloom_update(&ref, (uint32_t)set, (uint64_t)key, (uint32_t)assoc);
    bloom_note_pending(&ref, (uint32_t)set, (uint64_t)key);
    return 0;
}

/* A replay's recorded mask (the recording run's seed): the C core hashes as the run did. */
void ref_bloom_set_mask(int i, int j, long long mask) { ref.mask[i][j] = (uint64_t)mask; }
