// BFS (GPGPU-Sim ISPASS-2009 suite): the single-kernel Harish-Narayanan breadth-first search.
// Written for gtlm from the algorithm's description.
//
// CSR graph: per node an 8-byte record {first edge, edge count}, an int edge array; byte arrays
// mask (frontier) and visited; int cost (-1 unreached, 0 at the source). One thread per node,
// 256 threads per CTA, grid ceil(N / 256); the host relaunches while the kernel set *over.
// A thread whose mask byte is set clears it, marks its node visited and walks its edges; every
// neighbour not yet visited gets cost = own cost + 1, its mask byte set and *over = 1.
// Quirk kept (the point of this variant, unlike Rodinia's two-kernel BFS): the frontier is
// updated in place, so a node discovered by a thread that runs earlier in the same launch can
// be expanded in that launch, and a later discoverer overwrites the cost of a node that is not
// yet visited: costs may exceed the BFS level and depend on the warp schedule. After every
// discovery the loop re-reads the own cost and the record's bounds (the stores may alias them),
// as the original. Byte-sized bool arrays, 16-bit PTX registers. No bugs to fix.

struct Node {
    int start;
    int count;
};

extern "C" __global__ void bfs_kernel(const Node *nodes, const int *edges, bool *mask, bool *visited, int *cost,
                                      bool *over, int n)
{
    int v = blockIdx.x * 256 + threadIdx.x;
    if (v < n && mask[v]) {
        mask[v] = false;
        visited[v] = true;
        for (int e = nodes[v].start; e < nodes[v].start + nodes[v].count; e++) {
            int u = edges[e];
            if (!visited[u]) {
                cost[u] = cost[v] + 1;
                mask[u] = true;
                *over = true;
            }
        }
    }
}
