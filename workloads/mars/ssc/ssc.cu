// SSC (Mars Similarity Score): cosine similarity of every pair of documents' feature vectors,
// ranked. Written for gtlm from the Mars paper's description (map computes one pair's score
// and emits (score, pair); the sort orders the pairs; no reduce); runtime in ../common.
//
// Input records: one per pair a < b (key = the two document ids; value = the feature matrix,
// headed by the feature count, the same bytes for every record).
//   map:  thread per pair (the count pass only counts one pair per record); walks both documents' rows of the row-major float matrix (one load
//         from each per feature: rows reused by every pair that names them, through the
//         caches) and emits (a.b / (|a| |b|), (a, b)).
//   sort: by score, highest first, then by (a, b).
#include "../common/mars_device.cuh"

template <class E> __device__ void mars_map(const char *keys, const char *vals, int4 rec, int, E &e)
{
    if (E::counting) { // one (score, pair) per record, as Mars' SSC map_count
        e.emit_i(0, 2, 0, 0);
        return;
    }
    int a = mars_int_at(keys, rec.x), b = mars_int_at(keys, rec.x + 4), features = mars_int_at(vals, rec.z);
    const float *m = (const float *)(vals + rec.z + 4);
    const float *fa = m + a * features, *fb = m + b * features;
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int f = 0; f < features; f++) {
        float x = fa[f], y = fb[f];
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    e.emit_i(__float_as_int(dot / (sqrtf(na) * sqrtf(nb))), 2, a, b);
}

template <class E> __device__ void mars_reduce(const char *, const char *, const int4 *, int, int, int, E &) {}

__device__ int mars_compare(const char *keys, const char *vals, int4 a, int4 b, int)
{
    float x = __int_as_float(mars_int_at(keys, a.x)), y = __int_as_float(mars_int_at(keys, b.x));
    if (x != y) return x > y ? -1 : 1;
    int a0 = mars_int_at(vals, a.z), b0 = mars_int_at(vals, b.z);
    if (a0 != b0) return a0 < b0 ? -1 : 1;
    int a1 = mars_int_at(vals, a.z + 4), b1 = mars_int_at(vals, b.z + 4);
    return a1 < b1 ? -1 : a1 > b1;
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int)
{
    return mars_int_at(keys, a.x) == mars_int_at(keys, b.x);
}

#include "../common/mars_kernels.cuh"
