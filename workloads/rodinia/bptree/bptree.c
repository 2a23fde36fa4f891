/* B+tree driver (Rodinia): a generated B+tree of order 256 over `keys` sorted distinct keys
 * (gaps 1..2, so about a third of random probes miss), nodes filled to 128..255 keys / 128..256
 * children as random insertion leaves them, stored breadth-first; then the original's command
 * file "k <queries>" (bt_find_k) and "j <range_queries> <range>" (bt_find_range) with random
 * probes (point probes uniform over the key span; ranges between present keys). Answers are compared exactly with a CPU walk of the same node array. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_rodinia_bptree_ptx[], workload_rodinia_bptree_ptxas[];

#define ORDER 256
#define MAX_LEVELS 16

typedef struct node {
    int32_t location;
    int32_t indices[ORDER + 1];
    int32_t keys[ORDER + 1];
    int32_t is_leaf;
    int32_t num_keys;
} node;

typedef struct tree {
    node *nodes;
    long n_nodes, height; /* height = levels below the root */
} tree;

/* Splits `items` into groups of lo..hi (the last may be smaller); returns the group count and
 * the group sizes in size[]. */
static long split(wl_rng *r, long items, long lo, long hi, int32_t *size)
{
    long groups = 0;
    if (items <= hi) {
        size[0] = (int32_t)items;
        return 1;
    }
    for (long left = items; left > 0; groups++) {
        long s = wl_rng_range(r, lo, hi);
        size[groups] = (int32_t)(s < left ? s : left);
        left -= size[groups];
    }
    return groups;
}

static int build(tree *t, const int32_t *key, long n, wl_rng *r)
{
    int32_t *size[MAX_LEVELS] = {0}, *minkey[MAX_LEVELS] = {0};
    long count[MAX_LEVELS], levels = 0, items = n;
    int rc = WL_OK;
    /* Level 0 = leaves (groups of keys), level l+1 groups the nodes of level l. */
    do {
        size[levels] = malloc((size_t)items * sizeof(int32_t));
        minkey[levels] = malloc((size_t)items * sizeof(int32_t));
        if (!size[levels] || !minkey[levels]) {
            rc = WL_ERROR;
            levels++;
            break;
        }
        count[levels] = split(r, items, ORDER / 2, levels == 0 ? ORDER - 1 : ORDER, size[levels]);
        items = count[levels++];
    } while (items > 1 && levels < MAX_LEVELS);
    if (rc == WL_OK && items > 1) rc = WL_ERROR;
    long base[MAX_LEVELS], total = 0;
    for (long l = levels - 1; l >= 0; l--) {
        base[l] = total;
        total += count[l];
    }
    t->n_nodes = total;
    t->height = levels - 1;
    t->nodes = rc == WL_OK ? calloc((size_t)total, sizeof(node)) : NULL;
    if (!t->nodes) rc = WL_ERROR;
    for (long l = 0; rc == WL_OK && l < levels; l++) {
        long first = 0; /* first key (leaves) or first child node (inner levels) */
        for (long j = 0; j < count[l]; j++) {
            node *nd = &t->nodes[base[l] + j];
            nd->location = (int32_t)(base[l] + j);
            nd->is_leaf = l == 0;
            nd->num_keys = size[l][j];
            for (int s = 0; s <= ORDER; s++) nd->keys[s] = INT_MAX;
            for (int s = 0; s < size[l][j]; s++) {
                nd->keys[s] = l == 0 ? key[first + s] : minkey[l - 1][first + s];
                nd->indices[s] = (int32_t)(l == 0 ? first + s : base[l - 1] + first + s);
            }
            minkey[l][j] = nd->keys[0];
            first += size[l][j];
        }
    }
    for (long l = 0; l < levels; l++) {
        free(size[l]);
        free(minkey[l]);
    }
    return rc;
}

/* The kernels' walk for one key: child t with keys[t] <= k < keys[t+1] at each level. */
static long walk(const tree *t, int32_t k)
{
    long cur = 0;
    for (long l = 0; l < t->height; l++) {
        const node *nd = &t->nodes[cur];
        for (int s = 0; s < ORDER; s++)
            if (nd->keys[s] <= k && nd->keys[s + 1] > k && nd->indices[s] < t->n_nodes) cur = nd->indices[s];
    }
    return cur;
}

static int find_slot(const tree *t, long leaf, int32_t k)
{
    for (int s = 0; s < ORDER; s++)
        if (t->nodes[leaf].keys[s] == k) return s;
    return -1;
}

static int run(wl_ctx *c)
{
    long n = wl_param(c, "keys"), nq = wl_param(c, "queries"), nr = wl_param(c, "range_queries");
    long range = wl_param(c, "range");
    if (n > (INT_MAX - 1) / 2) return wl_fail(c, "too many keys for int keys");
    wl_rng r;
    wl_rng_seed(&r, 1000000);
    int32_t *key = malloc((size_t)n * 4), *value = malloc((size_t)n * 4);
    size_t qb = (size_t)nq * 4, rb = (size_t)nr * 4;
    int32_t *qk = malloc(qb), *ans = malloc(qb), *want = malloc(qb);
    int32_t *rs = malloc(rb), *re = malloc(rb), *got_s = malloc(rb), *got_l = malloc(rb), *want_s = malloc(rb), *want_l = malloc(rb);
    int64_t *zero = calloc((size_t)(nq > nr ? nq : nr), 8);
    tree t = {0};
    int rc = (key && value && qk && ans && want && rs && re && got_s && got_l && want_s && want_l && zero) ? WL_OK : WL_ERROR;
    for (long i = 0, k = 1; rc == WL_OK && i < n; i++, k += wl_rng_range(&r, 1, 2)) {
        key[i] = (int32_t)k;
        value[i] = (int32_t)wl_rng_range(&r, 0, INT_MAX);
    }
    if (rc == WL_OK) rc = build(&t, key, n, &r);
    int32_t lo = rc == WL_OK ? key[0] : 0, hi = rc == WL_OK ? key[n - 1] : 0;
    for (long i = 0; rc == WL_OK && i < nq; i++) {
        qk[i] = (int32_t)wl_rng_range(&r, lo, hi);
        ans[i] = -1;
    }
    for (long i = 0; rc == WL_OK && i < nr; i++) {
        /* Ranges run from a present key to the key `range` places further (keys are nearly
         * dense, so this is the original's start + range), shifted back inside at the end. */
        long s = wl_rng_range(&r, 0, n - 1), e = s + range;
        if (e > n - 1) {
            s -= e - (n - 1);
            e = n - 1;
        }
        rs[i] = key[s < 0 ? 0 : s];
        re[i] = key[e];
        got_s[i] = got_l[i] = 0;
    }
    if (rc == WL_OK)
        fprintf(c->out, "B+tree: %ld keys, %ld nodes of %zu bytes, %ld levels below the root\n", n, t.n_nodes, sizeof(node),
                t.height);
    gtlm_devptr d_nodes = 0, d_rec = 0, d_cur = 0, d_off = 0, d_keys = 0, d_ans = 0;
    gtlm_devptr d_cur2 = 0, d_off2 = 0, d_last = 0, d_offl = 0, d_start = 0, d_end = 0, d_rs = 0, d_rl = 0;
    if (rc == WL_OK) rc = wl_upload(c, &d_nodes, t.nodes, (size_t)t.n_nodes * sizeof(node));
    if (rc == WL_OK) rc = wl_upload(c, &d_rec, value, (size_t)n * 4);
    /* k: bt_find_k */
    if (rc == WL_OK) rc = wl_upload(c, &d_cur, zero, (size_t)nq * 8);
    if (rc == WL_OK) rc = wl_upload(c, &d_off, zero, (size_t)nq * 8);
    if (rc == WL_OK) rc = wl_upload(c, &d_keys, qk, qb);
    if (rc == WL_OK) rc = wl_upload(c, &d_ans, ans, qb);
    const void *a1[] = {&t.height, &d_nodes, &t.n_nodes, &d_rec, &d_cur, &d_off, &d_keys, &d_ans};
    const size_t s1[] = {8, 8, 8, 8, 8, 8, 8, 8};
    if (rc == WL_OK) rc = wl_launch(c, "bt_find_k", (unsigned)nq, 1, 1, ORDER, 1, 1, 0, a1, s1, 8);
    if (rc == WL_OK) rc = wl_corrupt(c, d_ans, 4);
    if (rc == WL_OK) rc = wl_download(c, ans, d_ans, qb);
    /* j: bt_find_range */
    if (rc == WL_OK) rc = wl_upload(c, &d_cur2, zero, (size_t)nr * 8);
    if (rc == WL_OK) rc = wl_upload(c, &d_off2, zero, (size_t)nr * 8);
    if (rc == WL_OK) rc = wl_upload(c, &d_last, zero, (size_t)nr * 8);
    if (rc == WL_OK) rc = wl_upload(c, &d_offl, zero, (size_t)nr * 8);
    if (rc == WL_OK) rc = wl_upload(c, &d_start, rs, rb);
    if (rc == WL_OK) rc = wl_upload(c, &d_end, re, rb);
    if (rc == WL_OK) rc = wl_upload(c, &d_rs, got_s, rb);
    if (rc == WL_OK) rc = wl_upload(c, &d_rl, got_l, rb);
    const void *a2[] = {&t.height, &d_nodes, &t.n_nodes, &d_cur2, &d_off2, &d_last, &d_offl, &d_start, &d_end, &d_rs, &d_rl};
    const size_t s2[] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
    if (rc == WL_OK) rc = wl_launch(c, "bt_find_range", (unsigned)nr, 1, 1, ORDER, 1, 1, 0, a2, s2, 11);
    if (rc == WL_OK) rc = wl_corrupt(c, d_rl, 4);
    if (rc == WL_OK) rc = wl_download(c, got_s, d_rs, rb);
    if (rc == WL_OK) rc = wl_download(c, got_l, d_rl, rb);
    if (rc == WL_OK) {
        long hits = 0;
        for (long i = 0; i < nq; i++) {
            long leaf = walk(&t, qk[i]);
            int s = find_slot(&t, leaf, qk[i]);
            want[i] = s < 0 ? -1 : value[t.nodes[leaf].indices[s]];
            hits += s >= 0;
        }
        for (long i = 0; i < nr; i++) {
            long a = walk(&t, rs[i]), b = walk(&t, re[i]);
            int sa = find_slot(&t, a, rs[i]), sb = find_slot(&t, b, re[i]);
            want_s[i] = sa < 0 ? 0 : t.nodes[a].indices[sa];
            want_l[i] = sb < 0 ? 0 : t.nodes[b].indices[sb] - want_s[i] + 1;
        }
        fprintf(c->out, "B+tree: %ld of %ld point queries found\n", hits, nq);
        if (wl_compare_i32(c, "answer", ans, want, (size_t)nq)) rc = WL_WRONG;
        if (wl_compare_i32(c, "range start", got_s, want_s, (size_t)nr)) rc = WL_WRONG;
        if (wl_compare_i32(c, "range length", got_l, want_l, (size_t)nr)) rc = WL_WRONG;
    }
    gtlm_devptr all[] = {d_nodes, d_rec, d_cur, d_off, d_keys, d_ans, d_cur2, d_off2, d_last, d_offl, d_start, d_end, d_rs, d_rl};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) gtlm_free(c->sim, all[i]);
    free(t.nodes);
    free(key);
    free(value);
    free(qk);
    free(ans);
    free(want);
    free(rs);
    free(re);
    free(got_s);
    free(got_l);
    free(want_s);
    free(want_l);
    free(zero);
    return rc;
}

const wl_desc workload_rodinia_bptree = {
    .name = "B+tree",
    .suite = "rodinia",
    .description = "batched point (findK) and range (findRangeK, range = key positions spanned) searches, one CTA of 256 threads per query, in an order-256 B+tree",
    .kernels = "bt_find_k, bt_find_range",
    .ptx = workload_rodinia_bptree_ptx,
    .ptxas = workload_rodinia_bptree_ptxas,
    .params = {"keys", "queries", "range_queries", "range"},
    .tiny = {20000, 256, 128, 300},
    .sim = {1000000, 2000, 1000, 3000},
    .paper = {1000000, 10000, 6000, 3000},
    .run = run,
};
