// Mars MapReduce runtime, device side, part 2: the runtime's kernels, instantiated with the
// application's functions (include after defining them; see mars_device.cuh).
//   mars_map_count / mars_map        map phase (count pass, write pass)
//   mars_prescan / mars_uniform_add  exclusive prefix sum (work-efficient up/down sweep over
//                                    512 elements per 256-thread block in padded shared memory,
//                                    block sums scanned recursively by the host, then added)
//   mars_sort_chunk / mars_sort_step / mars_sort_merge
//                                    bitonic sort of the int4 records by mars_compare: 512
//                                    records per block in shared memory, global steps for
//                                    distances of 512 and more
//   mars_chunk_sizes / mars_copy_chunks  after the sort, keys and values copied into sorted order
//   mars_group_flags / mars_group_starts  group boundaries (flag, scan, scatter)
//   mars_reduce_count / mars_reduce  reduce phase over the groups (count pass, write pass)
// Work split as Mars: block b (id gridDim.y * blockIdx.x + blockIdx.y) owns per_task *
// blockDim.x consecutive records (or groups), thread t takes t, t + blockDim.x, ... of them;
// one task per thread, whose sizes the prefix sums turn into output offsets.
#ifndef MARS_KERNELS_CUH
#define MARS_KERNELS_CUH

#include "mars_device.cuh"

__device__ inline int mars_block_id() { return gridDim.y * blockIdx.x + blockIdx.y; }
__device__ inline int mars_task() { return mars_block_id() * blockDim.x + threadIdx.x; }

// First and end (exclusive) item of this thread's stride-blockDim.x walk.
__device__ inline void mars_task_items(int n, int per_task, int *first, int *end)
{
    int base = mars_block_id() * blockDim.x * per_task;
    *first = base + threadIdx.x;
    *end = min(base + (int)blockDim.x * per_task, n);
}

extern "C" __global__ void mars_map_count(const char *keys, const char *vals, const int4 *index, int n, int per_task,
                                          int stage, int *key_bytes, int *val_bytes, int *counts)
{
    int first, end;
    mars_task_items(n, per_task, &first, &end);
    mars_count_emit e = {key_bytes, val_bytes, counts, mars_task()};
    for (int r = first; r < end; r += blockDim.x) mars_map(keys, vals, index[r], stage, e);
}

extern "C" __global__ void mars_map(const char *keys, const char *vals, const int4 *index, int n, int per_task,
                                    int stage, const int *key_base, const int *val_base, const int *count_base,
                                    int2 *offsets, int *emitted, char *out_keys, char *out_vals, int4 *out_index)
{
    int first, end;
    mars_task_items(n, per_task, &first, &end);
    mars_write_emit e = {key_base, val_base, count_base, offsets, emitted, out_keys, out_vals, out_index, mars_task()};
    for (int r = first; r < end; r += blockDim.x) mars_map(keys, vals, index[r], stage, e);
}

extern "C" __global__ void mars_reduce_count(const char *keys, const char *vals, const int4 *index,
                                             const int *starts, int groups, int per_task, int stage, int *key_bytes,
                                             int *val_bytes, int *counts)
{
    int first, end;
    mars_task_items(groups, per_task, &first, &end);
    mars_count_emit e = {key_bytes, val_bytes, counts, mars_task()};
    for (int g = first; g < end; g += blockDim.x) mars_reduce(keys, vals, index, starts[g], starts[g + 1], stage, e);
}

extern "C" __global__ void mars_reduce(const char *keys, const char *vals, const int4 *index, const int *starts,
                                       int groups, int per_task, int stage, const int *key_base, const int *val_base,
                                       const int *count_base, int2 *offsets, int *emitted, char *out_keys,
                                       char *out_vals, int4 *out_index)
{
    int first, end;
    mars_task_items(groups, per_task, &first, &end);
    mars_write_emit e = {key_base, val_base, count_base, offsets, emitted, out_keys, out_vals, out_index, mars_task()};
    for (int g = first; g < end; g += blockDim.x) mars_reduce(keys, vals, index, starts[g], starts[g + 1], stage, e);
}

// Shared-memory index with one pad word per 32 (bank-conflict avoidance).
#define MARS_PAD(i) ((i) + ((i) >> 5))

extern "C" __global__ void mars_prescan(const int *in, int *out, int *block_sums, int n)
{
    __shared__ int t[MARS_PAD(MARS_SCAN_ELEMS)];
    int base = mars_block_id() * MARS_SCAN_ELEMS, a = threadIdx.x, b = threadIdx.x + MARS_SCAN_ELEMS / 2;
    t[MARS_PAD(a)] = base + a < n ? in[base + a] : 0;
    t[MARS_PAD(b)] = base + b < n ? in[base + b] : 0;
    int off = 1;
    for (int d = MARS_SCAN_ELEMS / 2; d > 0; d >>= 1, off <<= 1) {
        __syncthreads();
        if ((int)threadIdx.x < d) {
            int lo = off * (2 * threadIdx.x + 1) - 1, hi = off * (2 * threadIdx.x + 2) - 1;
            t[MARS_PAD(hi)] += t[MARS_PAD(lo)];
        }
    }
    if (threadIdx.x == 0) {
        block_sums[mars_block_id()] = t[MARS_PAD(MARS_SCAN_ELEMS - 1)];
        t[MARS_PAD(MARS_SCAN_ELEMS - 1)] = 0;
    }
    for (int d = 1; d < MARS_SCAN_ELEMS; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if ((int)threadIdx.x < d) {
            int lo = off * (2 * threadIdx.x + 1) - 1, hi = off * (2 * threadIdx.x + 2) - 1;
            int x = t[MARS_PAD(lo)];
            t[MARS_PAD(lo)] = t[MARS_PAD(hi)];
            t[MARS_PAD(hi)] += x;
        }
    }
    __syncthreads();
    if (base + a < n) out[base + a] = t[MARS_PAD(a)];
    if (base + b < n) out[base + b] = t[MARS_PAD(b)];
}

extern "C" __global__ void mars_uniform_add(int *data, const int *sums, int n)
{
    int base = mars_block_id() * MARS_SCAN_ELEMS, add = sums[mars_block_id()];
    if (base + (int)threadIdx.x < n) data[base + threadIdx.x] += add;
    if (base + (int)threadIdx.x + MARS_SCAN_ELEMS / 2 < n) data[base + threadIdx.x + MARS_SCAN_ELEMS / 2] += add;
}

// Padding records (key size -1) sort after every real one.
__device__ inline int mars_order(const char *keys, const char *vals, int4 a, int4 b, int stage)
{
    if (a.y < 0) return b.y < 0 ? 0 : 1;
    if (b.y < 0) return -1;
    return mars_compare(keys, vals, a, b, stage);
}

// One compare-exchange of the bitonic network on the pair (lo, lo + j) at global position pos.
__device__ inline void mars_exchange(const char *keys, const char *vals, int4 *s, int lo, int hi, bool up, int stage)
{
    int4 a = s[lo], b = s[hi];
    if ((mars_order(keys, vals, a, b, stage) > 0) == up) {
        s[lo] = b;
        s[hi] = a;
    }
}

// Steps j = from .. 1 of stage k on this block's chunk in shared memory.
__device__ inline void mars_chunk_steps(const char *keys, const char *vals, int4 *s, int base, int k, int from,
                                        int stage)
{
    for (int j = from; j > 0; j >>= 1) {
        __syncthreads();
        int lo = 2 * threadIdx.x - (threadIdx.x & (j - 1));
        mars_exchange(keys, vals, s, lo, lo + j, ((base + lo) & k) == 0, stage);
    }
    __syncthreads();
}

extern "C" __global__ void mars_sort_chunk(const char *keys, const char *vals, int4 *index, int stage)
{
    __shared__ int4 s[MARS_SORT_CHUNK];
    int base = mars_block_id() * MARS_SORT_CHUNK, h = MARS_SORT_CHUNK / 2;
    s[threadIdx.x] = index[base + threadIdx.x];
    s[threadIdx.x + h] = index[base + threadIdx.x + h];
    for (int k = 2; k <= MARS_SORT_CHUNK; k <<= 1) mars_chunk_steps(keys, vals, s, base, k, k >> 1, stage);
    index[base + threadIdx.x] = s[threadIdx.x];
    index[base + threadIdx.x + h] = s[threadIdx.x + h];
}

// Steps j < MARS_SORT_CHUNK of stage k, in shared memory.
extern "C" __global__ void mars_sort_merge(const char *keys, const char *vals, int4 *index, int k, int stage)
{
    __shared__ int4 s[MARS_SORT_CHUNK];
    int base = mars_block_id() * MARS_SORT_CHUNK, h = MARS_SORT_CHUNK / 2;
    s[threadIdx.x] = index[base + threadIdx.x];
    s[threadIdx.x + h] = index[base + threadIdx.x + h];
    mars_chunk_steps(keys, vals, s, base, k, h, stage);
    index[base + threadIdx.x] = s[threadIdx.x];
    index[base + threadIdx.x + h] = s[threadIdx.x + h];
}

// One global step (distance j >= MARS_SORT_CHUNK) of stage k: thread i owns one pair.
extern "C" __global__ void mars_sort_step(const char *keys, const char *vals, int4 *index, int j, int k, int stage)
{
    int i = mars_task();
    int lo = 2 * i - (i & (j - 1));
    mars_exchange(keys, vals, index, lo, lo + j, (lo & k) == 0, stage);
}

// After the sort, as Mars: the keys (part 0: .x/.y) or values (part 1: .z/.w) are copied into
// a new buffer in sorted order (thread per record, byte by byte, at scanned offsets), so that
// grouping and reduce read them contiguously.
extern "C" __global__ void mars_chunk_sizes(const int4 *index, int n, int part, int *sizes)
{
    int i = mars_task();
    if (i < n) sizes[i] = part == 0 ? index[i].y : index[i].w;
}

extern "C" __global__ void mars_copy_chunks(const char *src, int4 *index, const int *offsets, int n, int part, char *dst)
{
    int i = mars_task();
    if (i >= n) return;
    int4 r = index[i];
    int from = part == 0 ? r.x : r.z, size = part == 0 ? r.y : r.w, to = offsets[i];
    for (int b = 0; b < size; b++) dst[to + b] = src[from + b];
    if (part == 0) r.x = to;
    else r.z = to;
    index[i] = r;
}

extern "C" __global__ void mars_group_flags(const char *keys, const int4 *index, int n, int stage, int *flags)
{
    int i = mars_task();
    if (i < n) flags[i] = (i == 0 || !mars_same_key(keys, index[i - 1], index[i], stage)) ? 1 : 0;
}

extern "C" __global__ void mars_group_starts(const int *flags, const int *group, int n, int *starts)
{
    int i = mars_task();
    if (i < n && flags[i]) starts[group[i]] = i;
}

#endif
