#include "bloom_pred.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/mix64.h"

static uint64_t splitmix64(uint64_t *x) { return mix64(*x += MIX64_GOLDEN); }

int bloom_init(bloom_pred *p, int mode, uint32_t n_sets, uint32_t bits, uint32_t k, int fn_fatal, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    if (bits < 8 || bits > 65536 || (bits & (bits - 1)) || k < 1 || k > BLOOM_MAX_HASHES) return -1;
    p->mode = mode;
    p->fn_fatal = fn_fatal;
    p->n_sets = n_sets;
    p->bits = bits;
    p->words = (bits + 63) / 64;
    p->k = k;
    while ((1u << p->index_bits) < bits) p->index_bits++;
    for (uint32_t i = 0; i < k; i++)
        for (uint32_t j = 0; j < p->index_bits; j++) p->mask[i][j] = splitmix64(&seed);
    p->name = "morpheus";
    if (!n_sets) return 0;
    p->bf = calloc((size_t)n_sets * 2 * p->words, sizeof *p->bf);
    p->bf1 = calloc(n_sets, 1);
    p->n = calloc(n_sets, sizeof *p->n);
    return p->bf && p->bf1 && p->n ? 0 : -1;
}

void bloom_free(bloom_pred *p)
{
    if (p->ext.destroy) p->ext.destroy(p->ext.ctx);
    p->ext = (bloom_ext){0};
    free(p->bf);
    free(p->bf1);
    free(p->n);
    p->bf = NULL;
    p->bf1 = NULL;
    p->n = NULL;
}

uint32_t bloom_hash(const bloom_pred *p, uint32_t i, uint64_t key)
{
    uint32_t h = 0;
    for (uint32_t j = 0; j < p->index_bits; j++) h |= (uint32_t)__builtin_parityll(key & p->mask[i][j]) << j;
    return h;
}

static uint64_t *filter(const bloom_pred *p, uint32_t set, int which)
{
    return p->bf + ((size_t)set * 2 + (size_t)which) * p->words;
}

static int has(const bloom_pred *p, const uint64_t *f, uint64_t key)
{
    for (uint32_t i = 0; i < p->k; i++) {
        uint32_t b = bloom_hash(p, i, key);
        if (!(f[b / 64] >> (b % 64) & 1)) return 0;
    }
    return 1;
}

static void put(const bloom_pred *p, uint64_t *f, uint64_t key)
{
    for (uint32_t i = 0; i < p->k; i++) {
        uint32_t b = bloom_hash(p, i, key);
        f[b / 64] |= 1ull << (b % 64);
    }
}

int bloom_bf1_has(const bloom_pred *p, uint32_t set, uint64_t key)
{
    if (p->ext.bf1_has) return p->ext.bf1_has(p->ext.ctx, set, key);
    return has(p, filter(p, set, p->bf1[set]), key);
}

int bloom_predict(bloom_pred *p, uint32_t set, uint64_t key, int resident)
{
    int hit;
    if (p->mode == LLC_PRED_NONE) hit = 1;
    else if (p->mode == LLC_PRED_PERFECT) hit = resident != 0;
    else hit = bloom_bf1_has(p, set, key);
    p->st.predictions++;
    if (hit) {
        p->st.predicted_hits++;
        if (resident) p->st.true_positives++;
        else p->st.false_positives++;
    } else {
        p->st.predicted_misses++;
        if (resident) p->st.false_negatives++;
        else p->st.true_negatives++;
    }
    if (!hit && resident && p->fn_fatal) {
        fprintf(stderr,
                "gtlm: %s: FALSE NEGATIVE: the Bloom filter of extended set %u predicted a miss of line 0x%llx, "
                "which the extended LLC holds (BF1 must hold every resident block); stopping\n",
                p->name, set, (unsigned long long)key);
        abort();
    }
    return hit;
}

int bloom_update(bloom_pred *p, uint32_t set, uint64_t key, uint32_t assoc)
{
    if (p->mode != LLC_PRED_BLOOM) return 0;
    p->st.updates++;
    if (p->ext.update) {
        int swapped = p->ext.update(p->ext.ctx, set, key, assoc);
        p->st.swaps += (uint64_t)swapped;
        return swapped;
    }
    uint64_t *b1 = filter(p, set, p->bf1[set]), *b2 = filter(p, set, !p->bf1[set]);
    int in2 = has(p, b2, key);
    put(p, b1, key);
    put(p, b2, key);
    if (!in2) p->n[set]++;
    if (p->n[set] < assoc) return 0;
    memset(b1, 0, p->words * sizeof *b1); /* the old BF1 is cleared and becomes BF2 */
    p->bf1[set] = (uint8_t)!p->bf1[set];
    p->n[set] = 0;
    p->st.swaps++;
    return 1;
}

void bloom_note_pending(bloom_pred *p, uint32_t set, uint64_t key)
{
    if (p->mode != LLC_PRED_BLOOM) return;
    p->st.bf1_inserts++;
    if (p->ext.note_pending) {
        p->ext.note_pending(p->ext.ctx, set, key);
        return;
    }
    put(p, filter(p, set, p->bf1[set]), key);
}

void bloom_clear_set(bloom_pred *p, uint32_t set)
{
    memset(filter(p, set, 0), 0, 2 * p->words * sizeof *p->bf);
    p->n[set] = 0;
}
