// NW (Rodinia): Needleman-Wunsch global alignment score matrix of two sequences of length n over
// an (n+1) x (n+1) int matrix, score(i,j) = max(score(i-1,j-1) + ref(i,j), score(i,j-1) - penalty,
// score(i-1,j) - penalty). Written for gtlm from the algorithm's description.
//
// Original launch shape, kept: the matrix is cut into 16x16 tiles processed along anti-diagonals
// of tiles; nw_kernel_1 handles the upper-left triangle (launch i = 1..n/16 runs i CTAs), then
// nw_kernel_2 the lower-right one (launch i = n/16-1..1 runs i CTAs): 2*n/16 - 1 launches of
// CTAs of only 16 threads (half a warp). A CTA stages its tile's reference scores (16 rows of 16
// ints: 64-B row segments) and its north row, west column (stride `cols`: 16 lines) and corner
// into shared int temp[17][17] / ref[16][16], sweeps the tile's 31 inner anti-diagonals with a
// barrier after each (3 + 16 + 15 = 34 barriers per CTA) and writes the tile back row by row.
// Nothing needed fixing (the original reads no memory out of bounds).
#define B 16

__device__ __forceinline__ int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

// One 16x16 tile whose top-left cell is (row 1 + 16*tile_y, column 1 + 16*tile_x).
__device__ __forceinline__ void nw_tile(const int *reference, int *items, int cols, int penalty, int tile_x,
                                        int tile_y, int (*temp)[B + 1], int (*ref)[B])
{
    int tx = threadIdx.x;
    int corner = cols * B * tile_y + B * tile_x; // (16*tile_y, 16*tile_x)
    int cell = corner + cols + 1 + tx;           // row 1 of the tile, column tx
    int north = corner + 1 + tx;
    int west = corner + cols;

    if (tx == 0) temp[0][0] = items[corner];
    for (int r = 0; r < B; r++) ref[r][tx] = reference[cell + cols * r];
    __syncthreads();
    temp[tx + 1][0] = items[west + cols * tx];
    __syncthreads();
    temp[0][tx + 1] = items[north];
    __syncthreads();

    // Upper-left half of the tile's anti-diagonals, then the lower-right half.
    for (int m = 0; m < B; m++) {
        if (tx <= m) {
            int x = tx + 1, y = m - tx + 1;
            temp[y][x] = max3(temp[y - 1][x - 1] + ref[y - 1][x - 1], temp[y][x - 1] - penalty,
                              temp[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int m = B - 2; m >= 0; m--) {
        if (tx <= m) {
            int x = tx + B - m, y = B - tx;
            temp[y][x] = max3(temp[y - 1][x - 1] + ref[y - 1][x - 1], temp[y][x - 1] - penalty,
                              temp[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int r = 0; r < B; r++) items[cell + cols * r] = temp[r + 1][tx + 1];
}

extern "C" __global__ void nw_kernel_1(const int *reference, int *items, int cols, int penalty, int i,
                                       int block_width)
{
    __shared__ int temp[B + 1][B + 1];
    __shared__ int ref[B][B];
    (void)block_width;
    int bx = blockIdx.x;
    nw_tile(reference, items, cols, penalty, bx, i - 1 - bx, temp, ref);
}

extern "C" __global__ void nw_kernel_2(const int *reference, int *items, int cols, int penalty, int i,
                                       int block_width)
{
    __shared__ int temp[B + 1][B + 1];
    __shared__ int ref[B][B];
    int bx = blockIdx.x;
    nw_tile(reference, items, cols, penalty, bx + block_width - i, block_width - bx - 1, temp, ref);
}
