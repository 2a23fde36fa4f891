// MUM (MUMmerGPU, GPGPU-Sim ISPASS-2009 suite and Rodinia): exact matching of short DNA reads
// against a suffix tree of a reference genome. Written for gtlm from the algorithm's description.
//
// One thread per query read, 256 threads per CTA, grid ceil(queries / 256). For every start
// offset qs of its read (0 .. len - min_match), the thread walks the suffix tree from the root:
// it reads the read's next character, the 16-byte child record of the current node (children
// for A, C, G, T), the 8-byte edge record (start, end into the reference) of the child, then
// compares the reference along the edge with the read, one byte at a time. It records the
// deepest node it reached and the matched length as an int2 per (read, offset).
// The original reads the tree (node and children records) and the reference through 2-D texture
// references; nvcc 13 no longer has texture references, so they are plain global loads here
// (the loads keep their number and order). The original follows suffix links from one offset
// to the next; we restart at the root for every offset (the same tree, more tree reads near
// the root; see the driver's report).
struct Edge {
    int start, end; // reference interval [start, end) labelling the edge into this node
};

__device__ static int base_code(char ch)
{
    return ch == 'A' ? 0 : ch == 'C' ? 1 : ch == 'G' ? 2 : ch == 'T' ? 3 : 4;
}

extern "C" __global__ void mummergpu_kernel(int2 *match_coords, const char *queries, const char *ref,
                                            const int *query_addrs, const int *query_lens, const Edge *edges,
                                            const int4 *children, int num_queries, int min_match)
{
    int qid = blockIdx.x * blockDim.x + threadIdx.x;
    if (qid >= num_queries) return;
    int addr = query_addrs[qid];
    int qlen = query_lens[qid];
    int slots = qlen - min_match + 1;
    int2 *out = match_coords + (size_t)qid * slots;
    for (int qs = 0; qs < slots; qs++) {
        int node = 0, pos = qs;
        while (pos < qlen) {
            int code = base_code(queries[addr + pos]);
            if (code > 3) break;
            int4 kids = children[node];
            int child = code == 0 ? kids.x : code == 1 ? kids.y : code == 2 ? kids.z : kids.w;
            if (child == 0) break;
            Edge e = edges[child];
            int k = e.start;
            while (k < e.end && pos < qlen && ref[k] == queries[addr + pos]) {
                k++;
                pos++;
            }
            node = child;
            if (k < e.end) break; // mismatch (or read end) inside the edge
        }
        out[qs] = make_int2(node, pos - qs);
    }
}
