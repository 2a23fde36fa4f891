// PVR (Mars Page View Rank): ranks pages by their view counts. Written for gtlm from the Mars
// paper's description and its PageViewRank's documented behaviour (map takes Page View Count's
// output as (views, url offset) pairs; sort and group by views, highest first; no reduce);
// runtime in ../common.
//
// Input records: one per page, key = its view count (int), value = the offset of its
// "url\tviews" line in Page View Count's output file (int).
//   map:   thread per page; emits (views, offset).
//   sort:  by views, highest first; group: runs of equal view counts (the ranking's ties).
#include "../common/mars_device.cuh"

template <class E> __device__ void mars_map(const char *keys, const char *vals, int4 rec, int, E &e)
{
    e.emit_i(mars_int_at(keys, rec.x), 1, mars_int_at(vals, rec.z), 0);
}

template <class E> __device__ void mars_reduce(const char *, const char *, const int4 *, int, int, int, E &) {}

__device__ int mars_compare(const char *keys, const char *, int4 a, int4 b, int)
{
    int x = mars_int_at(keys, a.x), y = mars_int_at(keys, b.x);
    return x > y ? -1 : x < y ? 1 : 0;
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int) { return mars_compare(keys, 0, a, b, 0) == 0; }

#include "../common/mars_kernels.cuh"
