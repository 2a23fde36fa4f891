// SM (Mars String Match): finds every occurrence of a keyword in a text. Written for gtlm from
// the Mars paper's description (map only: no sort, no reduce); runtime in ../common.
//
// Input records: one per line (key = the line's bytes; value = the keyword, the same bytes for
// every record, as the keyword travels with each record).
//   map: thread per line; tries the keyword at every byte position of the line (naive byte
//        compare, stopping at the first mismatch) and emits (match offset in the text, line
//        offset) for each occurrence, substrings of longer words included.
#include "../common/mars_device.cuh"

template <class E> __device__ void mars_map(const char *keys, const char *vals, int4 rec, int, E &e)
{
    const char *line = keys + rec.x, *word = vals + rec.z;
    for (int i = 0; i + rec.w <= rec.y; i++) {
        int j = 0;
        while (j < rec.w && line[i + j] == word[j]) j++;
        if (j == rec.w) e.emit_i(rec.x + i, 1, rec.x, 0);
    }
}

// Map only: the runtime's sort, group and reduce kernels exist but the driver never runs them.
template <class E> __device__ void mars_reduce(const char *, const char *, const int4 *, int, int, int, E &) {}

__device__ int mars_compare(const char *keys, const char *, int4 a, int4 b, int)
{
    int x = mars_int_at(keys, a.x), y = mars_int_at(keys, b.x);
    return x < y ? -1 : x > y;
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int) { return mars_compare(keys, 0, a, b, 0) == 0; }

#include "../common/mars_kernels.cuh"
