// B+tree (Rodinia): batched searches in a B+tree of order 256 stored as a flat array of nodes
// in breadth-first order. Written for gtlm from the algorithm's description.
//
// Node (2068 bytes, as the original's): {location, indices[257], keys[257], is_leaf,
// num_keys}. In an inner node child t covers keys [keys[t], keys[t+1]) and lives at
// indices[t]; unused key slots hold INT_MAX. In a leaf, keys[t] is a key and indices[t] the
// position of its record.
//   bt_find_k <<<queries, 256>>>: one CTA per query, thread t tests slot t of the current node
//       (256 consecutive ints: coalesced within the node, a random node per level); the thread
//       whose range holds the key stores the child in offset[q]; a barrier; thread 0 moves
//       current[q] to it; a barrier; repeated `height` times; at the leaf the thread holding
//       the key copies its record's value to answer[q].
//   bt_find_range <<<queries, 256>>>: the same walk for the two ends of a key range at once;
//       at the leaves the start key's record position is stored, then (after a barrier) the
//       range length = end position - start position + 1.
// The per-query walk state (current, offset, last, offset_2) lives in global memory (64-bit
// longs) as in the original, so every level re-reads it. Quirk kept: bt_find_k checks the
// child index against the node count through knodes[offset[q]] rather than
// knodes[current[q]] (equal at that point, one more global load). No bugs needed fixing.

#define BT_ORDER 256

struct bt_node {
    int location;
    int indices[BT_ORDER + 1];
    int keys[BT_ORDER + 1];
    int is_leaf;
    int num_keys;
};

struct bt_record {
    int value;
};

extern "C" __global__ void bt_find_k(long height, const bt_node *knodes, long knodes_elem, const bt_record *records,
                                     long *current, long *offset, const int *keys, bt_record *answer)
{
    int t = threadIdx.x, q = blockIdx.x;
    for (long level = 0; level < height; level++) {
        const bt_node *node = &knodes[current[q]];
        if (node->keys[t] <= keys[q] && node->keys[t + 1] > keys[q]) {
            if (knodes[offset[q]].indices[t] < knodes_elem) offset[q] = node->indices[t];
        }
        __syncthreads();
        if (t == 0) current[q] = offset[q];
        __syncthreads();
    }
    const bt_node *leaf = &knodes[current[q]];
    if (leaf->keys[t] == keys[q]) answer[q].value = records[leaf->indices[t]].value;
}

extern "C" __global__ void bt_find_range(long height, const bt_node *knodes, long knodes_elem, long *current,
                                         long *offset, long *last, long *offset_2, const int *start, const int *end,
                                         int *rec_start, int *rec_length)
{
    int t = threadIdx.x, q = blockIdx.x;
    for (long level = 0; level < height; level++) {
        const bt_node *a = &knodes[current[q]];
        if (a->keys[t] <= start[q] && a->keys[t + 1] > start[q]) {
            if (a->indices[t] < knodes_elem) offset[q] = a->indices[t];
        }
        const bt_node *b = &knodes[last[q]];
        if (b->keys[t] <= end[q] && b->keys[t + 1] > end[q]) {
            if (b->indices[t] < knodes_elem) offset_2[q] = b->indices[t];
        }
        __syncthreads();
        if (t == 0) {
            current[q] = offset[q];
            last[q] = offset_2[q];
        }
        __syncthreads();
    }
    const bt_node *a = &knodes[current[q]];
    if (a->keys[t] == start[q]) rec_start[q] = a->indices[t];
    __syncthreads();
    const bt_node *b = &knodes[last[q]];
    if (b->keys[t] == end[q]) rec_length[q] = b->indices[t] - rec_start[q] + 1;
}
