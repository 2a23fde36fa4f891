// Pannotia PageRank (Che et al., IISWC 2013), written for gtlm from the algorithm's description:
// a push-style power iteration over a CSR graph, one thread per vertex.
//   pagerank1: vertex v adds rank[v] / outdegree(v) to the accumulator of every out-neighbour
//              (global float atomicAdd: scattered, contended on high-degree vertices);
//   pagerank2: rank[v] = (1 - d) / n + d * acc[v], and clears acc[v] for the next iteration.
// row[] holds each vertex's first edge (n + 1 entries) and col[] the edge targets; the loads of
// row[v], row[v + 1] and rank[v] are coalesced, col[e] is a per-thread stream, the atomics
// scatter. The accumulation order of the atomics is whatever the schedule gives, as on hardware.
#define DAMPING 0.85f

extern "C" __global__ void pagerank1(const int *row, const int *col, const float *rank, float *acc, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        int start = row[tid], end = row[tid + 1];
        if (end > start) {
            float share = rank[tid] / (float)(end - start);
            for (int e = start; e < end; e++) atomicAdd(&acc[col[e]], share);
        }
    }
}

extern "C" __global__ void pagerank2(float *rank, float *acc, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        rank[tid] = (1.0f - DAMPING) / (float)n + DAMPING * acc[tid];
        acc[tid] = 0.0f;
    }
}
