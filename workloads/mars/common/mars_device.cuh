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
// Values are 0, 1 or 2 ints; keys are byte strings or one int (an application uses one kind).
#ifndef MARS_DEVICE_CUH
#define MARS_DEVICE_CUH

#define MARS_BLOCK 256      // Mars' DEFAULT_DIMBLOCK
#define MARS_SCAN_ELEMS 512 // elements per scan block (two per thread)
#define MARS_SORT_CHUNK 512 // records sorted in shared memory per block (two per thread)

// The counting pass: what a thread would emit.
struct mars_count_emit {
    static const bool counting = true; // lets a map whose output sizes are fixed skip its work
    int key_bytes, val_bytes, count;
    __device__ void emit(const char *, int ksize, int nvals, int, int)
    {
        key_bytes += ksize;
        val_bytes += 4 * nvals;
        count++;
    }
    __device__ void emit_i(int, int nvals, int, int)
    {
        key_bytes += 4;
        val_bytes += 4 * nvals;
        count++;
    }
};

// The writing pass: copies the pair to this thread's scanned offsets.
struct mars_write_emit {
    static const bool counting = false;
    char *keys, *vals;
    int4 *index;
    int key_at, val_at, at;
    __device__ void put_vals(int nvals, int v0, int v1)
    {
        int *v = (int *)(vals + val_at);
        if (nvals > 0) v[0] = v0;
        if (nvals > 1) v[1] = v1;
    }
    __device__ void emit(const char *k, int ksize, int nvals, int v0, int v1)
    {
        for (int i = 0; i < ksize; i++) keys[key_at + i] = k[i];
        put_vals(nvals, v0, v1);
        index[at++] = make_int4(key_at, ksize, val_at, 4 * nvals);
        key_at += ksize;
        val_at += 4 * nvals;
    }
    __device__ void emit_i(int k, int nvals, int v0, int v1)
    {
        *(int *)(keys + key_at) = k;
        put_vals(nvals, v0, v1);
        index[at++] = make_int4(key_at, 4, val_at, 4 * nvals);
        key_at += 4;
        val_at += 4 * nvals;
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

__device__ inline int mars_int_at(const char *buf, int offset) { return *(const int *)(buf + offset); }

#endif
