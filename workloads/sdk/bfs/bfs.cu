// BC, "BFS (CUDA SDK)" of Linebacker: no BFS is known in the CUDA SDK 4.0 samples, so this is
// our choice of the most plausible third BFS variant (see the driver): the queue-based BFS of
// the SDK era (Luo et al. 2010, Merrill's b40c), which streams an explicit frontier array
// instead of scanning per-node masks. Written for gtlm from the algorithm's description.
//
// CSR graph (row offsets, column indices), int level per node (-1 unreached). One launch per
// BFS level, one thread per frontier entry, 256 threads per CTA, grid ceil(frontier / 256):
// thread i reads frontier[i] (a coalesced streaming read), its two row offsets, then each
// neighbour u in turn; it claims u with atomicCAS(level[u], -1, depth + 1) and appends every
// claimed node to the next frontier at atomicAdd(next_size, 1). Levels are exact BFS levels;
// the order inside the next frontier depends on the schedule of the atomics.
extern "C" __global__ void bfs_frontier(const int *frontier, int size, const int *row, const int *col, int *level,
                                        int *next, int *next_size, int depth)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size) return;
    int v = frontier[i];
    int end = row[v + 1];
    for (int e = row[v]; e < end; e++) {
        int u = col[e];
        if (level[u] == -1 && atomicCAS(&level[u], -1, depth + 1) == -1) next[atomicAdd(next_size, 1)] = u;
    }
}
