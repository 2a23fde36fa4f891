/* Merge Sort (CUDA SDK mergeSort) driver: n pairs (n a power of two, at least 1024); keys
 * uniform in [0, 2^20) so that large inputs hold many equal keys (stability is checked), values
 * the original indices, as the SDK sample. Paper size n = 4 M (the SDK default, 32,768 merging
 * CTAs per pass as in PAVER Table 3.2).
 * Check: keys and values equal a stable CPU sort (a counting sort by key), exactly. */
#include <stdint.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_sdk_mergesort_ptx[], workload_sdk_mergesort_ptxas[];

enum { SHARED_PAIRS = 1024, TILE = 128, KEY_RANGE = 1 << 20 };

static int run(wl_ctx *c)
{
    long nl = wl_param(c, "n");
    if (nl < SHARED_PAIRS || (nl & (nl - 1)) || nl > (1L << 28)) {
        fprintf(c->out, "MergeSort: n must be a power of two in [1024, 2^28]\n");
        return WL_USAGE;
    }
    int n = (int)nl, tiles = n / TILE;
    uint32_t *key = malloc((size_t)n * 4), *want_k = malloc((size_t)n * 4), *want_v = malloc((size_t)n * 4);
    uint32_t *got = malloc((size_t)n * 4), *count = calloc(KEY_RANGE + 1, 4);
    int rc = (key && want_k && want_v && got && count) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 0x3e5);
    for (int i = 0; rc == WL_OK && i < n; i++) {
        key[i] = (uint32_t)wl_rng_range(&r, 0, KEY_RANGE - 1);
        count[key[i] + 1]++;
    }
    for (int k = 0; rc == WL_OK && k < KEY_RANGE; k++) count[k + 1] += count[k];
    for (int i = 0; rc == WL_OK && i < n; i++) { /* stable counting sort: the reference */
        uint32_t at = count[key[i]]++;
        want_k[at] = key[i];
        want_v[at] = (uint32_t)i;
    }
    for (int i = 0; rc == WL_OK && i < n; i++) got[i] = (uint32_t)i;
    gtlm_devptr k0 = 0, v0 = 0, k1 = 0, v1 = 0, dsplit = 0;
    if (rc == WL_OK) rc = wl_upload(c, &k0, key, (size_t)n * 4);
    if (rc == WL_OK) rc = wl_upload(c, &v0, got, (size_t)n * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &k1, (size_t)n * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &v1, (size_t)n * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dsplit, (size_t)tiles * 4);
    const void *sargs[] = {&k1, &v1, &k0, &v0};
    const size_t p4[] = {8, 8, 8, 8, 8, 4};
    if (rc == WL_OK) rc = wl_launch(c, "merge_sort_shared", (unsigned)(n / SHARED_PAIRS), 1, 1, 512, 1, 1, 0, sargs, p4, 4);
    gtlm_devptr sk = k1, sv = v1, dk = k0, dv = v0;
    for (int width = SHARED_PAIRS; rc == WL_OK && width < n; width *= 2) {
        const void *pargs[] = {&dsplit, &sk, &width, &tiles};
        const size_t psizes[] = {8, 8, 4, 4};
        rc = wl_launch(c, "merge_partition", (unsigned)((tiles + 255) / 256), 1, 1, 256, 1, 1, 0, pargs, psizes, 4);
        const void *margs[] = {&dk, &dv, &sk, &sv, &dsplit, &width};
        if (rc == WL_OK) rc = wl_launch(c, "merge_tiles", (unsigned)tiles, 1, 1, TILE, 1, 1, 0, margs, p4, 6);
        gtlm_devptr tk = sk, tv = sv;
        sk = dk, sv = dv, dk = tk, dv = tv;
    }
    if (rc == WL_OK) rc = wl_corrupt(c, sk, sizeof(uint32_t));
    if (rc == WL_OK) rc = wl_download(c, got, sk, (size_t)n * 4);
    if (rc == WL_OK && wl_compare_u32(c, "keys", got, want_k, (size_t)n)) rc = WL_WRONG;
    if (rc == WL_OK) rc = wl_download(c, got, sv, (size_t)n * 4);
    if (rc == WL_OK && wl_compare_u32(c, "values", got, want_v, (size_t)n)) rc = WL_WRONG;
    gtlm_devptr all[] = {k0, v0, k1, v1, dsplit};
    for (int i = 0; i < 5; i++) gtlm_free(c->sim, all[i]);
    free(key);
    free(want_k);
    free(want_v);
    free(got);
    free(count);
    return rc;
}

const wl_desc workload_sdk_mergesort = {
    .name = "MergeSort",
    .suite = "sdk",
    .description = "stable merge sort of (key, value) pairs: shared-memory block sort, then merge-path passes",
    .kernels = "merge_sort_shared, merge_partition, merge_tiles",
    .ptx = workload_sdk_mergesort_ptx,
    .ptxas = workload_sdk_mergesort_ptxas,
    .params = {"n"},
    .tiny = {8192},
    .sim = {1 << 20},
    .paper = {1 << 22},
    .run = run,
};
