// KMeans (Rodinia "KM"): Lloyd's k-means; the GPU assigns points to the nearest centre, the
// host recomputes the centres. Written for gtlm from the algorithm's description.
//
// Two layouts of the feature array, chosen by the driver's `layout` parameter:
//   layout 1 (default, the point-major kernel of the earlier Rodinia releases that CCWS, APRES,
//       Linebacker and CBWT simulate): km_assign_rows reads features[p*nf + f], so each thread
//       walks its own row: a warp's load touches 32 lines nf*4 bytes apart and reuses them over
//       the feature loop (the cache-sensitive pattern those documents report);
//   layout 2 (Rodinia 3.1): the invert-mapping kernel, then km_assign over the column-major copy.
//   km_invert_mapping <<<ceil(n/256), 256>>> (once): thread p copies its point's features from
//       the row-major input (p*nf + f: lanes nf floats apart) into a column-major copy
//       (p + f*n: coalesced).
//   km_assign / km_assign_rows <<<(b,b), 256>>> with b = ceil(sqrt(ceil(n/256))), block id = gridDim.x*by + bx,
//       thread = point: squared distance to each of the k centres over nf features, features
//       from the column-major copy (coalesced), centres from __constant__ memory (uniform
//       address: broadcast); writes the index of the nearest centre (first one on ties).
// The original reads the features through a texture; textures do not compile any more, so the
// loads are plain read-only global loads (__ldg), as in Accel-Sim's "no-tex" copy. Quirks kept:
// the square 2-D grid with idle CTAs at the end, constant-memory centres (at most 32 clusters x
// 34 features), the strided reads of the transposition.

#define KM_THREADS 256
#define KM_MAX_CENTRE_FLOATS (32 * 34)

__constant__ float km_centres[KM_MAX_CENTRE_FLOATS];

extern "C" __global__ void km_invert_mapping(const float *in, float *out, int npoints, int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < npoints)
        for (int f = 0; f < nfeatures; f++) out[p + npoints * f] = in[p * nfeatures + f];
}

extern "C" __global__ void km_assign(const float *__restrict__ features, int nfeatures, int npoints, int nclusters,
                                     int *membership)
{
    unsigned block = gridDim.x * blockIdx.y + blockIdx.x;
    int p = block * blockDim.x + threadIdx.x;
    if (p < npoints) {
        float best = 3.402823466e+38f;
        int index = -1;
        for (int k = 0; k < nclusters; k++) {
            float d = 0;
            for (int f = 0; f < nfeatures; f++) {
                float diff = __ldg(&features[p + f * npoints]) - km_centres[k * nfeatures + f];
                d += diff * diff;
            }
            if (d < best) {
                best = d;
                index = k;
            }
        }
        membership[p] = index;
    }
}

extern "C" __global__ void km_assign_rows(const float *__restrict__ features, int nfeatures, int npoints,
                                          int nclusters, int *membership)
{
    unsigned block = gridDim.x * blockIdx.y + blockIdx.x;
    int p = block * blockDim.x + threadIdx.x;
    if (p < npoints) {
        float best = 3.402823466e+38f;
        int index = -1;
        for (int k = 0; k < nclusters; k++) {
            float d = 0;
            // One static load, as the documents report for KM (APRES: "100% of memory requests
            // from only one static load"): nvcc would otherwise unroll the loop by 4.
#pragma unroll 1
            for (int f = 0; f < nfeatures; f++) {
                float diff = __ldg(&features[p * nfeatures + f]) - km_centres[k * nfeatures + f];
                d += diff * diff;
            }
            if (d < best) {
                best = d;
                index = k;
            }
        }
        membership[p] = index;
    }
}
