// PVC (Mars Page View Count): distinct visitors per page of a web log, as two MapReduce jobs
// (the Mars paper: the first removes duplicate entries, the second counts page views).
// Written for gtlm from the Mars paper's description; runtime in ../common.
//
// Input records: one per log line "<url>\t<ip>\t<session>" (key = the line's bytes).
//   stage 0 map:    thread per line; scans to the second tab and emits (url\tip, no value).
//   stage 0 sort/group by the url\tip bytes; reduce: thread per distinct entry, emits (url).
//   stage 1 map:    thread per distinct entry, emits (url, 1).
//   stage 1 sort/group by url; reduce: thread per page, sums the ones, emits (url, views).
#include "../common/mars_device.cuh"

// Length of the key's prefix before its n-th tab (the whole key when there are fewer).
__device__ inline int pvc_field_end(const char *s, int len, int n)
{
    int i = 0;
    for (; i < len; i++)
        if (s[i] == '\t' && --n == 0) break;
    return i;
}

template <class E> __device__ void mars_map(const char *keys, const char *, int4 rec, int stage, E &e)
{
    const char *line = keys + rec.x;
    if (stage == 0) e.emit(line, pvc_field_end(line, rec.y, 2), 0, 0, 0);
    else e.emit(line, rec.y, 1, 1, 0);
}

template <class E>
__device__ void mars_reduce(const char *keys, const char *vals, const int4 *index, int first, int end, int stage, E &e)
{
    int4 r = index[first];
    if (stage == 0) {
        e.emit(keys + r.x, pvc_field_end(keys + r.x, r.y, 1), 0, 0, 0);
        return;
    }
    int sum = 0;
    for (int i = first; i < end; i++) sum += mars_int_at(vals, index[i].z);
    e.emit(keys + r.x, r.y, 1, sum, 0);
}

__device__ int mars_compare(const char *keys, const char *, int4 a, int4 b, int)
{
    return mars_strcmp(keys + a.x, a.y, keys + b.x, b.y);
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int) { return mars_compare(keys, 0, a, b, 0) == 0; }

#include "../common/mars_kernels.cuh"
