// PVR (Mars Page View Rank): ranks pages by their view counts. Written for gtlm from the Mars
// paper's description (map swaps key and value of Page View Count's output, the sort orders
// by views, reduce summarises each view count); runtime in ../common.
//
// Input records: (url, views), one per page (key = the url's bytes, value = one int).
//   map:    thread per page; emits (views, url offset).
//   sort:   by views, highest first, then by url offset; group: runs of equal views.
//   reduce: thread per view count; emits (views, (rank of its first page, pages)).
#include "../common/mars_device.cuh"

template <class E> __device__ void mars_map(const char *, const char *vals, int4 rec, int, E &e)
{
    e.emit_i(mars_int_at(vals, rec.z), 1, rec.x, 0);
}

template <class E>
__device__ void mars_reduce(const char *keys, const char *, const int4 *index, int first, int end, int, E &e)
{
    e.emit_i(mars_int_at(keys, index[first].x), 2, first + 1, end - first);
}

__device__ int mars_compare(const char *keys, const char *vals, int4 a, int4 b, int)
{
    int x = mars_int_at(keys, a.x), y = mars_int_at(keys, b.x);
    if (x != y) return x > y ? -1 : 1;
    int p = mars_int_at(vals, a.z), q = mars_int_at(vals, b.z);
    return p < q ? -1 : p > q;
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int)
{
    return mars_int_at(keys, a.x) == mars_int_at(keys, b.x);
}

#include "../common/mars_kernels.cuh"
