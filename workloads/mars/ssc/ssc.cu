// SSC (Mars Similarity Score): cosine similarity of every pair of documents' feature vectors,
// ranked. Written for gtlm from the Mars paper's description and its SimilarityScore's
// documented behaviour (map computes one pair's score, emits (score, pair); sort and group by
// score; no reduce); runtime in ../common.
//
// Input records: one per pair a < b; key = {feature matrix pointer}, value = {a, b, features,
// unused}. The matrix is row-major floats, one row per document.
//   map:  thread per pair; walks both rows four floats at a time (float4 loads; the rows are
//         reused by every pair that names them, through the caches), then the remaining
//         floats; emits (a.b / (|a| |b|), (a, b)). The count pass only counts.
//   sort: by score, highest first; group: runs of equal scores.
#include "../common/mars_device.cuh"

struct ssc_key {
    const float *matrix;
};

template <class E> __device__ void mars_map(const char *keys, const char *vals, int4 rec, int, E &e)
{
    if (E::counting) {
        e.emit_i(0, 2, 0, 0);
        return;
    }
    const float *m = ((const ssc_key *)(keys + rec.x))->matrix;
    const int *v = (const int *)(vals + rec.z); // {a, b, features}
    int a = v[0], b = v[1], features = v[2], quads = features >> 2;
    const float4 *ra = (const float4 *)(m + a * features), *rb = (const float4 *)(m + b * features);
    float up = 0.0f, na = 0.0f, nb = 0.0f;
    for (int i = 0; i < quads; i++) {
        float4 x = ra[i], y = rb[i];
        up += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
        na += x.x * x.x + x.y * x.y + x.z * x.z + x.w * x.w;
        nb += y.x * y.x + y.y * y.y + y.z * y.z + y.w * y.w;
    }
    const float *ta = (const float *)(ra + quads), *tb = (const float *)(rb + quads);
    for (int i = 0; i < (features & 3); i++) {
        up += ta[i] * tb[i];
        na += ta[i] * ta[i];
        nb += tb[i] * tb[i];
    }
    e.emit_i(__float_as_int(up / (sqrtf(na) * sqrtf(nb))), 2, a, b);
}

template <class E> __device__ void mars_reduce(const char *, const char *, const int4 *, int, int, int, E &) {}

__device__ int mars_compare(const char *keys, const char *, int4 a, int4 b, int)
{
    float x = __int_as_float(mars_int_at(keys, a.x)), y = __int_as_float(mars_int_at(keys, b.x));
    return x > y ? -1 : x < y ? 1 : 0;
}

__device__ bool mars_same_key(const char *keys, int4 a, int4 b, int) { return mars_compare(keys, 0, a, b, 0) == 0; }

#include "../common/mars_kernels.cuh"
