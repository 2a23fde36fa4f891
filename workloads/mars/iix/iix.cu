// IIX (Mars Inverted Index): for every link target in a set of HTML files, the positions of
// the links to it. Written for gtlm from the Mars paper's description (map, then sort and
// group; no reduce); runtime in ../common.
//
// Input records: one per HTML line (key = the line's bytes).
//   map:   thread per line; walks the line looking for `href="` (byte compares at every
//          position) and emits (target url up to the closing quote, its offset in the text).
//   sort:  by url bytes, then by offset (a total order); group: runs of equal urls. The
//          grouped set is the inverted index.
#include "../common/mars_device.cuh"

__device__ inline bool iix_href_at(const char *s, int i, int len)
{
    const char pat[6] = {'h', 'r', 'e', 'f', '=', '"'};
    if (i + 6 > len) return false;
    for (int j = 0; j < 6; j++)
        if (s[i + j] != pat[j]) return false;
    return true;
}

template <class E> __device__ void mars_map(const char *keys, const char *, int4 rec, int, E &e)
{
    const char *line = keys + rec.x;
    for (int i = 0; i < rec.y; i++) {
        if (!iix_href_at(line, i, rec.y)) continue;
        int start = i + 6, end = start;
        while (end < rec.y && line[end] != '"') end++;
        e.emit(line + start, end - start, 1, rec.x + start, 0);
        i = end;
    }
}

template <class E> __device__ void mars_reduce(const char *, const char *, const int4 *, int, int, int, E &) {}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int)
{
    return mars_strcmp(keys + a.x, a.y, keys + b.x, b.y) == 0;
}

__device__ int mars_compare(const char *keys, const char *vals, int4 a, int4 b, int)
{
    int d = mars_strcmp(keys + a.x, a.y, keys + b.x, b.y);
    if (d) return d;
    int x = mars_int_at(vals, a.z), y = mars_int_at(vals, b.z);
    return x < y ? -1 : x > y;
}

#include "../common/mars_kernels.cuh"
