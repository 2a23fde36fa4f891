// Merge Sort (CUDA SDK "mergeSort", the "MGS" of PAVER): stable ascending sort of (key, value)
// pairs. Written for gtlm from the algorithm's description (rank-based merging).
//
// 1. merge_sort_shared <<<N / 1024, 512>>>: each CTA sorts 1024 pairs in shared memory; for run
//    lengths 1, 2, ..., 512 every thread takes element i of the left run and element i of the
//    right run of its pair of runs and moves each to (its index + its rank in the other run),
//    found by binary search (left elements count smaller keys, right elements smaller-or-equal
//    keys: stable).
// 2. Per global merge pass of runs of width w (1024, 2048, ... N / 2):
//    merge_partition <<<ceil(N / 128 / 256), 256>>>: for every tile of 128 outputs, the merge
//    path split (how many of the tile's first outputs come from the left run), by binary search
//    over the two runs in global memory;
//    merge_tiles <<<N / 128, 128>>>: the CTA of a tile loads its two splits, copies its slices
//    of the left and right runs (128 pairs in all) into shared memory and merges them by rank.
//    The SDK derives the same 128-output elementary intervals from sampled ranks (two extra
//    kernels); each merging CTA reads its two limits and then 128 keys and 128 values, as here:
//    with N = 4 M this is the 32,768-CTA kernel with 2 N + N / 64 global reads of PAVER.
#define SHARED_PAIRS 1024
#define TILE 128

__device__ static int rank_lower(const unsigned *run, int len, unsigned key)
{
    int lo = 0, hi = len;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (run[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

__device__ static int rank_upper(const unsigned *run, int len, unsigned key)
{
    int lo = 0, hi = len;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (run[mid] <= key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

extern "C" __global__ void merge_sort_shared(unsigned *dst_key, unsigned *dst_val, const unsigned *src_key,
                                             const unsigned *src_val)
{
    __shared__ unsigned key[SHARED_PAIRS], val[SHARED_PAIRS];
    unsigned tid = threadIdx.x, base_g = blockIdx.x * SHARED_PAIRS;
    key[tid] = src_key[base_g + tid];
    val[tid] = src_val[base_g + tid];
    key[tid + SHARED_PAIRS / 2] = src_key[base_g + tid + SHARED_PAIRS / 2];
    val[tid + SHARED_PAIRS / 2] = src_val[base_g + tid + SHARED_PAIRS / 2];
    for (int stride = 1; stride < SHARED_PAIRS; stride <<= 1) {
        int i = tid & (stride - 1), base = 2 * (tid - i);
        __syncthreads();
        unsigned ka = key[base + i], va = val[base + i];
        unsigned kb = key[base + stride + i], vb = val[base + stride + i];
        int pa = i + rank_lower(key + base + stride, stride, ka);
        int pb = i + rank_upper(key + base, stride, kb);
        __syncthreads();
        key[base + pa] = ka;
        val[base + pa] = va;
        key[base + pb] = kb;
        val[base + pb] = vb;
    }
    __syncthreads();
    dst_key[base_g + tid] = key[tid];
    dst_val[base_g + tid] = val[tid];
    dst_key[base_g + tid + SHARED_PAIRS / 2] = key[tid + SHARED_PAIRS / 2];
    dst_val[base_g + tid + SHARED_PAIRS / 2] = val[tid + SHARED_PAIRS / 2];
}

extern "C" __global__ void merge_partition(int *splits, const unsigned *key, int width, int tiles)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= tiles) return;
    int pair = t * TILE / (2 * width), k = t * TILE % (2 * width);
    const unsigned *a = key + pair * 2 * width, *b = a + width;
    int lo = k > width ? k - width : 0, hi = k < width ? k : width;
    while (lo < hi) { // first i with a[i] > b[k - i - 1]: the left run wins ties
        int mid = (lo + hi) >> 1;
        if (a[mid] <= b[k - mid - 1]) lo = mid + 1;
        else hi = mid;
    }
    splits[t] = lo;
}

extern "C" __global__ void merge_tiles(unsigned *dst_key, unsigned *dst_val, const unsigned *src_key,
                                       const unsigned *src_val, const int *splits, int width)
{
    __shared__ unsigned ka[TILE], va[TILE], kb[TILE], vb[TILE];
    int t = blockIdx.x, tid = threadIdx.x;
    int pair = t * TILE / (2 * width), k0 = t * TILE % (2 * width), k1 = k0 + TILE;
    int a0 = splits[t], a1 = k1 == 2 * width ? width : splits[t + 1];
    int b0 = k0 - a0, b1 = k1 - a1, la = a1 - a0, lb = b1 - b0;
    size_t a = (size_t)pair * 2 * width, b = a + width;
    if (tid < la) {
        ka[tid] = src_key[a + a0 + tid];
        va[tid] = src_val[a + a0 + tid];
    }
    if (tid < lb) {
        kb[tid] = src_key[b + b0 + tid];
        vb[tid] = src_val[b + b0 + tid];
    }
    __syncthreads();
    size_t out = a + k0;
    if (tid < la) {
        int p = tid + rank_lower(kb, lb, ka[tid]);
        dst_key[out + p] = ka[tid];
        dst_val[out + p] = va[tid];
    }
    if (tid < lb) {
        int p = tid + rank_upper(ka, la, kb[tid]);
        dst_key[out + p] = kb[tid];
        dst_val[out + p] = vb[tid];
    }
}
