// BFS (Rodinia "BR"): Harish-Narayanan breadth-first search with frontier masks, two kernels
// per level. Written for gtlm from the algorithm's description.
//
// Graph in CSR form: one 8-byte record {first edge, degree} per node and an int edge list.
// Byte arrays mask (current frontier), updating (next frontier), visited; int cost (level,
// -1 = not reached, source 0).
//   bfs_expand: thread v; if v is in the frontier: leave it, and for each edge v->u with u not
//               yet visited set cost[u] = cost[v] + 1 and mark u for the next frontier.
//   bfs_update: thread v; if v is marked: it joins the frontier and the visited set, the mark
//               is cleared and the host's "another level" flag is raised.
// The host repeats (expand, update) until a level raises no flag.
// Launch as the original: 512 threads per block (all nodes in one block when fewer than 512),
// 1-D grid of ceil(N / 512) blocks, thread = node. Concurrent writers of cost[u] within one
// level all write the same value, so the result is deterministic.
// Quirks kept: byte-wide masks, per-thread edge walks of varying length (divergent loop),
// scattered visited/cost/updating accesses. No bugs of the original needed fixing.

struct bfs_node {
    int first;  // index of the first edge in the edge list
    int degree; // number of edges
};

extern "C" __global__ void bfs_expand(const bfs_node *nodes, const int *edges, bool *mask, bool *updating,
                                      const bool *visited, int *cost, int n)
{
    int v = blockIdx.x * 512 + threadIdx.x;
    if (v < n && mask[v]) {
        mask[v] = false;
        int end = nodes[v].first + nodes[v].degree;
        for (int e = nodes[v].first; e < end; e++) {
            int u = edges[e];
            if (!visited[u]) {
                cost[u] = cost[v] + 1;
                updating[u] = true;
            }
        }
    }
}

extern "C" __global__ void bfs_update(bool *mask, bool *updating, bool *visited, bool *again, int n)
{
    int v = blockIdx.x * 512 + threadIdx.x;
    if (v < n && updating[v]) {
        mask[v] = true;
        visited[v] = true;
        *again = true;
        updating[v] = false;
    }
}
