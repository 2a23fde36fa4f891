// MUM (MUMmerGPU, GPGPU-Sim ISPASS-2009 suite and Rodinia): exact matching of short DNA reads
// against a suffix tree of a reference genome. Written for gtlm from the algorithm's description.
//
// One thread per query read, 256 threads per CTA, grid ceil(queries / 256). For every start
// offset qs of its read (0 .. len - min_match) the thread finds the longest prefix of the read's
// suffix that occurs in the reference and its locus (the node at or just below the match end),
// recorded as an int2 (node, length) per (read, offset). It walks down from the current node:
// it reads the read's next character, the 16-byte children record of the node (A, C, G, T) and
// the 16-byte node record of the child (edge start and end in the reference, string depth,
// suffix link), skips the part of the edge already known to match (skip/count), and compares
// the rest of the edge with the read one reference byte at a time.
// From one offset to the next, as MUMmerGPU, the thread follows the suffix link of the deepest
// node it fully matched (the match shortened by one character is known to occur) instead of
// restarting at the root.
// The original reads the tree and the reference through 2-D texture references; nvcc 13 no
// longer has texture references, so they are plain global loads here.
__device__ static int base_code(char ch)
{
    return ch == 'A' ? 0 : ch == 'C' ? 1 : ch == 'G' ? 2 : ch == 'T' ? 3 : 4;
}

// nodes[v] = (edge start, edge end, string depth, suffix link); node 0 is the root.
extern "C" __global__ void mummergpu_kernel(int2 *match_coords, const char *queries, const char *ref,
                                            const int *query_addrs, const int *query_lens, const int4 *nodes,
                                            const int4 *children, int num_queries, int min_match)
{
    int qid = blockIdx.x * blockDim.x + threadIdx.x;
    if (qid >= num_queries) return;
    const char *q = queries + query_addrs[qid];
    int qlen = query_lens[qid];
    int slots = qlen - min_match + 1;
    int2 *out = match_coords + (size_t)qid * slots;
    int node = 0, depth = 0, len = 0; // start node, its string depth; known match length
    for (int qs = 0; qs < slots; qs++) {
        int4 start = nodes[node]; // the node the suffix link led to (the root at first)
        int cur = node, link = start.w, cur_depth = start.z, locus = node;
        int pos = qs + depth, known = qs + len;
        while (pos < qlen) {
            int code = base_code(q[pos]);
            if (code > 3) break;
            int4 kids = children[cur];
            int child = code == 0 ? kids.x : code == 1 ? kids.y : code == 2 ? kids.z : kids.w;
            if (child == 0) break;
            int4 rec = nodes[child];
            int skip = min(max(known - pos, 0), rec.y - rec.x); // known to match: not compared
            int k = rec.x + skip;
            pos += skip;
            while (k < rec.y && pos < qlen && ref[k] == q[pos]) {
                k++;
                pos++;
            }
            locus = child;
            if (k < rec.y) break; // the match ends inside this edge
            cur = child;
            cur_depth = rec.z;
            link = rec.w;
        }
        len = pos - qs;
        out[qs] = make_int2(locus, len);
        // Next offset: the suffix link of the deepest fully matched node (leaves and the root
        // have link 0: restart at the root, skipping the known part).
        node = link;
        depth = link ? cur_depth - 1 : 0;
        len = len > 0 ? len - 1 : 0;
    }
}
