// Mars MapReduce runtime, device side, part 1: the types an application's functions use.
// Written for gtlm from the Mars paper's description (He et al., PACT 2008) and the runtime's
// documented structure; no Mars code is used.
//
// A key/value set is three buffers: key bytes, value bytes and one int4 record per pair
// {key offset, key size, value offset, value size}. Applications define, between this header
// and mars_kernels.cuh:
//   template <class E> __device__ void mars_map(const char *keys, const char *vals, int4 rec, int stage, E &e);
//   template <class E> __device__ void mars_reduce(const char *keys, const char *vals, const int4 *index,
//                                                  int first, int end, int stage, E &e);
//   __device__ int mars_compare(const char *keys, const char *vals, int4 a, int4 b, int stage); // sort order
//   __device__ bool mars_same_key(const char *keys, int4 a, int4 b, int stage);                 // grouping
// Each runs twice per phase, as in Mars: first with a counting emitter (sizes only), then,
// after prefix sums over the per-thread sizes, with a writing emitter at the scanned offsets.
// Not kept from Mars: its emit starts with __syncthreads() inside the data-dependent map loop
// (a barrier under divergence, undefined in CUDA), and its map kernel's unused dynamic shared
// memory.
// Values are 0, 1 or 2 ints; a key is copied byte by byte from a pointer (a string, or a small
// record such as {buffer pointer, offset, hash}) or is one int.
#ifndef MARS_DEVICE_CUH
#define MARS_DEVICE_CUH

#define MARS_BLOCK 256      // Mars' DEFAULT_DIMBLOCK
#define MARS_SCAN_ELEMS 512 // elements per scan block (two per thread)
#define MARS_SORT_CHUNK 512 // records sorted in shared memory per block (two per thread)

// The counting pass: what a thread would emit, added to its per-task counters in global
// memory (zeroed by the host), one read-modify-write of each per emitted pair as in Mars.
struct mars_count_emit {
    static const bool counting = true; // lets a map whose output sizes are fixed skip its work
    int *key_bytes, *val_bytes, *counts;
    int t;
    __device__ void emit(const char *, int ksize, int nvals, int, int)
    {
        key_bytes[t] += ksize;
        val_bytes[t] += 4 * nvals;
        counts[t]++;
    }
    __device__ void emit_i(int, int nvals, int v0, int v1) { emit(0, 4, nvals, v0, v1); }
};

// The writing pass, as Mars' emit: the thread's running byte offsets (int2, global, zeroed by
// the host) and its scanned bases locate the key and value bytes, which are copied byte by
// byte; its record index comes from its scanned count plus its emitted count (global), and the
// record's offsets follow its previous record's (loaded back from the index).
struct mars_write_emit {
    static const bool counting = false;
    const int *key_base, *val_base, *count_base;
    int2 *offsets;
    int *emitted;
    char *keys, *vals;
    int4 *index;
    int t;
    __device__ void record(int ksize, int vsize)
    {
        int2 o = offsets[t];
        o.x += ksize;
        o.y += vsize;
        offsets[t] = o;
        int c = emitted[t], at = count_base[t] + c;
        int4 r = index[at];
        if (c != 0) {
            int4 prev = index[at - 1];
            r.x = prev.x + prev.y;
            r.z = prev.z + prev.w;
        } else {
            r.x = key_base[t];
            r.z = val_base[t];
        }
        r.y = ksize;
        r.w = vsize;
        index[at] = r;
        emitted[t] = c + 1;
    }
    // The value's ints, byte by byte (Mars copies the value's bytes from the caller's buffer).
    __device__ void put_vals(char *p, int nvals, int v0, int v1)
    {
        for (int i = 0; i < 4 * nvals; i++) p[i] = (char)((i < 4 ? v0 : v1) >> (8 * (i & 3)));
    }
    __device__ void emit(const char *k, int ksize, int nvals, int v0, int v1)
    {
        int2 o = offsets[t];
        char *pk = keys + key_base[t] + o.x, *pv = vals + val_base[t] + o.y;
        for (int i = 0; i < ksize; i++) pk[i] = k[i];
        put_vals(pv, nvals, v0, v1);
        record(ksize, 4 * nvals);
    }
    __device__ void emit_i(int k, int nvals, int v0, int v1)
    {
        int2 o = offsets[t];
        char *pk = keys + key_base[t] + o.x, *pv = vals + val_base[t] + o.y;
        put_vals(pk, 1, k, 0);
        put_vals(pv, nvals, v0, v1);
        record(4, 4 * nvals);
    }
};

// Byte-string order: unsigned bytes, then the shorter string first.
__device__ inline int mars_strcmp(const char *a, int na, const char *b, int nb)
{
    int m = na < nb ? na : nb;
    for (int i = 0; i < m; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x != y) return x < y ? -1 : 1;
    }
    return na < nb ? -1 : na > nb ? 1 : 0;
}

// The applications' string hash (mars_hash on the host computes the same).
__device__ inline int mars_hash(const char *s, int n)
{
    unsigned h = (unsigned)n;
    for (int i = 0; i < n; i++) h = (h * 33u) ^ (unsigned char)s[i];
    return (int)h;
}

__device__ inline int mars_int_at(const char *buf, int offset) { return *(const int *)(buf + offset); }

#endif
