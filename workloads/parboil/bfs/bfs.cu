// Parboil BFS (Luo, Wong and Hwu, "An effective GPU implementation of breadth-first search",
// DAC 2010): level-synchronous BFS with a frontier queue, written for gtlm from the algorithm's
// description.
//
// Two kernels, chosen per level by the host as the original does by frontier size:
//  - bfs_multi_blk: one CTA per SM (the original's NUM_SM blocks of 512 threads) runs several
//    levels inside one launch, separated by a software global barrier: CTA thread 0 adds one to
//    a counter in global memory and spins until every CTA arrived. This only terminates when all
//    CTAs are resident at once, as on the original's target GPU. It returns when the frontier
//    is empty or outgrows the grid (more than gridDim.x * 512 nodes).
//  - bfs_level: one launch per level, one thread per frontier node, for large frontiers.
// Each thread expands one frontier node: node record (start, degree) and edge targets are read
// from global memory (the original reads them through 1-D textures), a neighbour still white is
// claimed with atomicExch on its colour, gets cost + 1 and is queued. New nodes go to a
// per-CTA queue in shared memory (the original's block-level queue; its finer per-warp bins are
// folded into it), overflowing straight to the global queue; at the end of a level the CTA
// reserves its range of the global queue with one atomicAdd and copies the block queue out.
// Costs are exact BFS levels whatever the interleaving; the order of nodes in the queue is not.
#define NUM_T 512      // threads per CTA (MAX_THREADS_PER_BLOCK of the original)
#define BQ_CAP 1600    // block-queue capacity in nodes
#define WHITE 0
#define GRAY 1

struct node_rec {
    int start, degree;
};

// Expands frontier node pid of level `level`: claims white neighbours and queues them.
__device__ static void expand(int pid, int level, const int2 *nodes, const int *edges, int *color, int *cost,
                              int *bq, int *bq_tail, int *out, int *out_tail)
{
    int2 nd = nodes[pid];
    for (int i = nd.x; i < nd.x + nd.y; i++) {
        int id = edges[i];
        if (color[id] != WHITE) continue; // cheap filter before the atomic, as the original
        if (atomicExch(&color[id], GRAY) != WHITE) continue;
        cost[id] = level + 1;
        int pos = atomicAdd(bq_tail, 1);
        if (pos < BQ_CAP) {
            bq[pos] = id;
        } else {
            out[atomicAdd(out_tail, 1)] = id;
        }
    }
}

// Copies the block queue to the global queue (one reservation per CTA).
__device__ static void flush_queue(int *bq, int *bq_tail, int *bq_base, int *out, int *out_tail)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        int n = *bq_tail < BQ_CAP ? *bq_tail : BQ_CAP;
        *bq_tail = n;
        *bq_base = atomicAdd(out_tail, n);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < *bq_tail; i += blockDim.x) out[*bq_base + i] = bq[i];
}

// The software global barrier: round `fold` completes when gridDim.x * fold CTAs arrived.
__device__ static void global_barrier(volatile int *count, int fold)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd((int *)count, 1);
        while (*count < (int)gridDim.x * fold) {
        }
    }
    __syncthreads();
}

extern "C" __global__ void bfs_level(const int *in, int n_in, int *out, int *out_tail, const int2 *nodes,
                                     const int *edges, int *color, int *cost, int level)
{
    __shared__ int bq[BQ_CAP];
    __shared__ int bq_tail, bq_base;
    if (threadIdx.x == 0) bq_tail = 0;
    __syncthreads();
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n_in) expand(in[tid], level, nodes, edges, color, cost, bq, &bq_tail, out, out_tail);
    flush_queue(bq, &bq_tail, &bq_base, out, out_tail);
}

// state[0..2]: queue tails, used round-robin by level (state[level % 3] collects level+1);
// state[3]: barrier counter; on return state[4] = frontier size, state[5] = level reached.
// q[0], q[1]: the two frontier queues (level parity).
extern "C" __global__ void bfs_multi_blk(int *q0, int *q1, int n_in, volatile int *state, const int2 *nodes,
                                         const int *edges, int *color, int *cost, int level)
{
    __shared__ int bq[BQ_CAP];
    __shared__ int bq_tail, bq_base;
    int fold = 0, n = n_in;
    int *in = q0, *out = q1;
    for (;;) {
        if (threadIdx.x == 0) bq_tail = 0;
        if (blockIdx.x == 0 && threadIdx.x == 0) state[(level + 1) % 3] = 0; // the next level's tail
        __syncthreads();
        int *tail = (int *)&state[level % 3];
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            expand(in[i], level, nodes, edges, color, cost, bq, &bq_tail, out, tail);
        flush_queue(bq, &bq_tail, &bq_base, out, tail);
        global_barrier(state + 3, ++fold);
        n = state[level % 3];
        level++;
        int *t = in;
        in = out;
        out = t;
        if (n == 0 || n > (int)(gridDim.x * blockDim.x)) break;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        state[4] = n;
        state[5] = level;
    }
}
