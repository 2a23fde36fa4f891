/* MUM (MUMmerGPU) driver: builds the suffix tree of a synthetic genome on the host (with string
 * depths and suffix links), matches reads sampled from it on the GPU, and checks every (read,
 * offset) record against a CPU walk that restarts at the root for every offset (an independent
 * route to the same longest match and locus as the kernel's suffix-link walk); on references up to 64 K bases it also checks the matched lengths of the
 * first reads by brute force (the longest prefix of the read's suffix that occurs anywhere in
 * the reference), which validates the tree itself.
 * Inputs (fixed seed; the ISPASS data files are not public in the snapshots): a reference of
 * ref_len bases, random with 40% GC content plus a 300-base repeat copied (2% substitutions)
 * every 5000 bases, as genomes have; queries reads of 25 bases (the ISPASS run's read length),
 * 90% sampled from the reference with 1% substitution errors, 10% from elsewhere; minimum match
 * length 20. Paper size: 50,000 reads (196 CTAs, PAVER Table 3.2) against ~1.4 MB. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_ispass_mum_ptx[], workload_ispass_mum_ptxas[];

enum { READ_LEN = 25, MIN_MATCH = 20 };

typedef struct {
    int32_t *start, *end; /* edge into each node: ref[start, end) */
    int32_t *kids;        /* 4 per node: A, C, G, T; 0 = none (the root is never a child) */
    int n;
} tree;

static int code_of(char ch)
{
    return ch == 'A' ? 0 : ch == 'C' ? 1 : ch == 'G' ? 2 : ch == 'T' ? 3 : 4;
}

static char random_base(wl_rng *r)
{
    double u = wl_rng_unit(r); /* 40% GC */
    return u < 0.3 ? 'A' : u < 0.5 ? 'C' : u < 0.7 ? 'G' : 'T';
}

static void make_genome(char *ref, int len, wl_rng *r)
{
    for (int i = 0; i < len; i++) ref[i] = random_base(r);
    for (int at = 5000; at + 300 < len; at += 5000) { /* repeats: copies of earlier segments */
        int from = (int)wl_rng_range(r, 0, at - 300);
        for (int k = 0; k < 300; k++) ref[at + k] = wl_rng_unit(r) < 0.02 ? random_base(r) : ref[from + k];
    }
}

static int new_node(tree *t, int start, int end)
{
    int v = t->n++;
    t->start[v] = start;
    t->end[v] = end;
    memset(t->kids + 4 * v, 0, 4 * sizeof *t->kids);
    return v;
}

/* Naive suffix-tree construction: inserts every suffix from the root, splitting edges. */
static void build_tree(tree *t, const char *ref, int len)
{
    t->n = 0;
    new_node(t, 0, 0);
    for (int i = 0; i < len; i++) {
        int node = 0, p = i;
        while (p < len) {
            int c = code_of(ref[p]), child = t->kids[4 * node + c];
            if (!child) {
                t->kids[4 * node + c] = new_node(t, p, len);
                break;
            }
            int k = t->start[child];
            while (k < t->end[child] && p < len && ref[k] == ref[p]) k++, p++;
            if (k == t->end[child]) {
                node = child;
                continue;
            }
            if (p == len) break; /* the suffix ends inside the edge: already present */
            int mid = new_node(t, t->start[child], k);
            t->kids[4 * mid + code_of(ref[k])] = child;
            t->start[child] = k;
            t->kids[4 * node + c] = mid;
            t->kids[4 * mid + code_of(ref[p])] = new_node(t, p, len);
            break;
        }
    }
}

/* String depths (iterative DFS) and suffix links: the node labelled by an internal node's label
 * without its first character, found by skip/count from the root over the label of one of its
 * occurrences (an internal node branches, so that shorter label branches too and is a node).
 * Leaves keep link 0: the kernel restarts at the root after them. rep[] and pos[] are scratch. */
static void link_tree(const tree *t, const char *ref, int len, int32_t *depth, int32_t *link, int32_t *rep,
                      int32_t *pos)
{
    int32_t *stack = link, top = 0; /* link[] doubles as the DFS stack before it is filled */
    int32_t *order = rep, n = 0;
    depth[0] = 0;
    stack[top++] = 0;
    while (top) {
        int v = stack[--top];
        order[n++] = v;
        for (int c = 0; c < 4; c++) {
            int w = t->kids[4 * v + c];
            if (w) {
                depth[w] = depth[v] + t->end[w] - t->start[w];
                stack[top++] = w;
            }
        }
    }
    /* Reverse preorder visits children before parents: rep = the suffix start of some leaf below. */
    for (int i = n - 1; i >= 0; i--) {
        int v = order[i], leaf = 1;
        for (int c = 0; c < 4; c++)
            if (t->kids[4 * v + c]) {
                if (leaf) pos[v] = pos[t->kids[4 * v + c]];
                leaf = 0;
            }
        if (leaf) pos[v] = len - depth[v];
    }
    for (int v = 0; v < t->n; v++) {
        int internal = 0;
        for (int c = 0; c < 4; c++) internal |= t->kids[4 * v + c] != 0;
        link[v] = 0;
        if (!internal || v == 0 || depth[v] == 1) continue;
        int cur = 0, g = 0, from = pos[v] + 1, want = depth[v] - 1;
        while (g < want) {
            cur = t->kids[4 * cur + code_of(ref[from + g])];
            g = depth[cur];
        }
        link[v] = cur; /* g == want: the shorter label ends at a node */
    }
}

/* The restart-from-root walk for one (read, offset): deepest node reached and matched length. */
static void walk(const tree *t, const char *ref, const char *q, int qlen, int qs, int32_t out[2])
{
    int node = 0, pos = qs;
    while (pos < qlen) {
        int c = code_of(q[pos]);
        if (c > 3) break;
        int child = t->kids[4 * node + c];
        if (!child) break;
        int k = t->start[child];
        while (k < t->end[child] && pos < qlen && ref[k] == q[pos]) k++, pos++;
        node = child;
        if (k < t->end[child]) break;
    }
    out[0] = node;
    out[1] = pos - qs;
}

/* Longest prefix of q[qs..qlen) occurring in ref, by brute force. */
static int longest_occurrence(const char *ref, int len, const char *q, int qlen, int qs)
{
    int best = 0;
    for (int i = 0; i < len; i++) {
        int k = 0;
        while (qs + k < qlen && i + k < len && ref[i + k] == q[qs + k]) k++;
        if (k > best) best = k;
    }
    return best;
}

static int run(wl_ctx *c)
{
    int len = (int)wl_param(c, "ref_len"), nq = (int)wl_param(c, "queries");
    int slots = READ_LEN - MIN_MATCH + 1, stride = READ_LEN + 1, maxn = 2 * len + 1;
    if (len < 2 * READ_LEN || nq < 1) {
        fprintf(c->out, "MUM: ref_len must be at least %d and queries at least 1\n", 2 * READ_LEN);
        return WL_USAGE;
    }
    size_t nout = (size_t)nq * slots;
    char *ref = malloc((size_t)len), *qs = malloc((size_t)nq * stride);
    int32_t *addrs = malloc((size_t)nq * 4), *lens = malloc((size_t)nq * 4);
    int32_t *got = malloc(nout * 8), *want = malloc(nout * 8), *recs = malloc((size_t)maxn * 16);
    int32_t *depth = malloc((size_t)maxn * 4), *link = malloc((size_t)maxn * 4), *scratch = malloc((size_t)maxn * 4);
    int32_t *scratch2 = malloc((size_t)maxn * 4);
    tree t = {malloc((size_t)maxn * 4), malloc((size_t)maxn * 4), malloc((size_t)maxn * 16), 0};
    int rc = (ref && qs && addrs && lens && got && want && recs && depth && link && scratch && scratch2 && t.start && t.end && t.kids) ? WL_OK : WL_ERROR;
    if (rc == WL_OK) {
        wl_rng r;
        wl_rng_seed(&r, 0x3a3);
        make_genome(ref, len, &r);
        build_tree(&t, ref, len);
        for (int q = 0; q < nq; q++) {
            char *s = qs + (size_t)q * stride;
            int from = wl_rng_unit(&r) < 0.9 ? (int)wl_rng_range(&r, 0, len - READ_LEN) : -1;
            for (int k = 0; k < READ_LEN; k++)
                s[k] = from < 0 || wl_rng_unit(&r) < 0.01 ? random_base(&r) : ref[from + k];
            s[READ_LEN] = 0;
            addrs[q] = q * stride;
            lens[q] = READ_LEN;
            for (int o = 0; o < slots; o++) walk(&t, ref, s, READ_LEN, o, want + 2 * ((size_t)q * slots + o));
        }
        link_tree(&t, ref, len, depth, link, scratch, scratch2);
        for (int v = 0; v < t.n; v++) {
            recs[4 * v] = t.start[v], recs[4 * v + 1] = t.end[v];
            recs[4 * v + 2] = depth[v], recs[4 * v + 3] = link[v];
        }
    }
    gtlm_devptr dout = 0, dq = 0, dref = 0, daddr = 0, dlen = 0, dnodes = 0, dkids = 0;
    if (rc == WL_OK) rc = wl_alloc(c, &dout, nout * 8);
    if (rc == WL_OK) rc = wl_upload(c, &dq, qs, (size_t)nq * stride);
    if (rc == WL_OK) rc = wl_upload(c, &dref, ref, (size_t)len);
    if (rc == WL_OK) rc = wl_upload(c, &daddr, addrs, (size_t)nq * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dlen, lens, (size_t)nq * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dnodes, recs, (size_t)t.n * 16);
    if (rc == WL_OK) rc = wl_upload(c, &dkids, t.kids, (size_t)t.n * 16);
    int min_match = MIN_MATCH;
    const void *args[] = {&dout, &dq, &dref, &daddr, &dlen, &dnodes, &dkids, &nq, &min_match};
    const size_t sizes[] = {8, 8, 8, 8, 8, 8, 8, 4, 4};
    if (rc == WL_OK)
        rc = wl_launch(c, "mummergpu_kernel", (unsigned)((nq + 255) / 256), 1, 1, 256, 1, 1, 0, args, sizes, 9);
    if (rc == WL_OK) rc = wl_corrupt(c, dout, sizeof(int32_t));
    if (rc == WL_OK) rc = wl_download(c, got, dout, nout * 8);
    if (rc == WL_OK && wl_compare_i32(c, "match_coords", got, want, 2 * nout)) rc = WL_WRONG;
    long full = 0;
    for (size_t i = 0; rc == WL_OK && i < nout; i++) full += want[2 * i + 1] >= MIN_MATCH;
    for (int q = 0; rc == WL_OK && len <= 65536 && q < 32 && q < nq; q++)
        for (int o = 0; o < slots; o++) {
            int b = longest_occurrence(ref, len, qs + (size_t)q * stride, READ_LEN, o);
            if (b != got[2 * ((size_t)q * slots + o) + 1])
                rc = wl_fail(c, "read %d offset %d: matched %d bases, the reference holds %d", q, o,
                             got[2 * ((size_t)q * slots + o) + 1], b);
        }
    if (rc == WL_OK)
        fprintf(c->out, "MUM: %d tree nodes, %ld of %zu offsets match >= %d bases\n", t.n, full, nout, MIN_MATCH);
    gtlm_devptr all[] = {dout, dq, dref, daddr, dlen, dnodes, dkids};
    for (int i = 0; i < 7; i++) gtlm_free(c->sim, all[i]);
    free(ref);
    free(qs);
    free(addrs);
    free(lens);
    free(got);
    free(want);
    free(recs);
    free(depth);
    free(link);
    free(scratch);
    free(scratch2);
    free(t.start);
    free(t.end);
    free(t.kids);
    return rc;
}

const wl_desc workload_ispass_mum = {
    .name = "MUM",
    .suite = "ispass",
    .description = "MUMmerGPU: suffix-tree matching of 25-base reads against a reference genome",
    .kernels = "mummergpu_kernel",
    .ptx = workload_ispass_mum_ptx,
    .ptxas = workload_ispass_mum_ptxas,
    .params = {"ref_len", "queries"},
    .tiny = {8192, 512},
    .sim = {262144, 20000},
    .paper = {1400000, 50000},
    .run = run,
};
