// WC (Mars Word Count): counts every word of a text. Written for gtlm from the Mars paper's
// description; runtime in ../common (map, bitonic sort, group, reduce, count-then-write).
//
// Input records: one per line (key = the line's bytes, no value).
//   map:    thread per line (Mars' default of one record per task); walks the line byte by
//           byte and emits (word, 1) for every maximal run of letters (case kept).
//   sort:   the (word, 1) records by word bytes; group: runs of equal words.
//   reduce: thread per word; sums its values (one load of the record and one of the value
//           per occurrence) and emits (word, count).
// The byte-granular line walk, the key copies at scanned offsets and the string compares of
// the sort are the data-dependent, byte-wide accesses that make Mars cache-sensitive.
#include "../common/mars_device.cuh"

__device__ inline bool wc_letter(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }

template <class E> __device__ void mars_map(const char *keys, const char *, int4 rec, int, E &e)
{
    const char *line = keys + rec.x;
    int i = 0;
    while (i < rec.y) {
        while (i < rec.y && !wc_letter(line[i])) i++;
        int start = i;
        while (i < rec.y && wc_letter(line[i])) i++;
        if (i > start) e.emit(line + start, i - start, 1, 1, 0);
    }
}

template <class E>
__device__ void mars_reduce(const char *keys, const char *vals, const int4 *index, int first, int end, int, E &e)
{
    int sum = 0;
    for (int i = first; i < end; i++) sum += mars_int_at(vals, index[i].z);
    int4 r = index[first];
    e.emit(keys + r.x, r.y, 1, sum, 0);
}

__device__ int mars_compare(const char *keys, const char *, int4 a, int4 b, int)
{
    return mars_strcmp(keys + a.x, a.y, keys + b.x, b.y);
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int) { return mars_compare(keys, 0, a, b, 0) == 0; }

#include "../common/mars_kernels.cuh"
