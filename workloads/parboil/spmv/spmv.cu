// SPMV (Parboil): y = A * x for a sparse matrix in JDS (jagged diagonal storage) format.
// Written for gtlm from the algorithm's description.
//
// Layout (built on the host): rows sorted by their number of non-zeros, longest first; perm[r]
// gives the original row of sorted row r. Groups of 32 sorted rows (one warp) are padded to the
// length of the group's longest row. Jagged diagonal k holds the k-th entry of every row whose
// group is longer than k, stored contiguously in sorted-row order, so lane r of a warp reads
// element jds_ptr[k] + r: data and column index loads are coalesced, the x[col] gather is not.
// jds_ptr[] (diagonal starts) and sh_zcnt[] (per-warp length) live in constant memory, as in the
// original (5000 entries each: at most 5000 diagonals and 5000 warps of rows).
//
// Original launch: one thread per sorted row; block 192 and grid ceil(rows / 192) when
// rows * 32 > SMs * 1536, else block 32 and one CTA per warp of rows; 50 launches, each
// recomputing the same y.
// Kept: the software-pipelined loop (the loads of diagonal k+1 are issued before the multiply of
// diagonal k), the per-warp bound from constant memory, the scatter y[perm[r]].
// Fixed: the original's converter gives padding entries the column index -1, so every padded
// slot reads x[-1], one element before the vector; our host converter stores column 0 there
// (data 0), so the padded multiply adds 0 * x[0].
#define WARP_SHIFT 5
#define MAX_JDS 5000

__constant__ int jds_ptr[MAX_JDS];
__constant__ int sh_zcnt[MAX_JDS];

extern "C" __global__ void spmv_jds(float *y, const float *data, const int *index, const int *perm,
                                    const float *x, const int *nzcnt_unused, int dim)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= dim) return;
    int len = sh_zcnt[row >> WARP_SHIFT];

    // Diagonal 0 is always read (every row has at least its diagonal entry).
    int pos = jds_ptr[0] + row;
    float a = data[pos];
    int col = index[pos];
    float xv = x[col];
    float acc = 0.0f;
    if (len > 1) {
        pos = jds_ptr[1] + row;
        col = index[pos];
        for (int k = 2; k < len; k++) {
            float a_next = data[pos];      // value of diagonal k-1
            pos = jds_ptr[k] + row;
            int col_next = index[pos];     // column of diagonal k
            float x_next = x[col];         // x for diagonal k-1
            acc += a * xv;                 // diagonal k-2
            col = col_next;
            a = a_next;
            xv = x_next;
        }
        float a_last = data[pos];
        float x_last = x[col];
        acc += a * xv;
        a = a_last;
        xv = x_last;
    }
    acc += a * xv;
    y[perm[row]] = acc;
}
