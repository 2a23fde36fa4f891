// LUD (Rodinia): in-place LU decomposition without pivoting of a dim x dim float matrix (row
// major), blocked by 16 (L has a unit diagonal and is stored below it). Written for gtlm from the
// algorithm's description.
//
// Original launch shapes, kept: for each 16-wide step at offset o (o = 0, 16, ..., dim-32):
//   lud_diagonal  <<<1, 16>>>            factor the 16x16 diagonal tile in shared memory (thread
//                                         = column; row loads of 64 B, two barriers per row);
//   lud_perimeter <<<(dim-o)/16-1, 32>>>  one CTA per tile right of / below the diagonal tile:
//                                         threads 0..15 solve the row tile (L11^-1 A12), threads
//                                         16..31 the column tile (A21 U11^-1), each thread one
//                                         column (row tile) or one row (column tile);
//   lud_internal  <<<(g, g), (16, 16)>>>  g = (dim-o)/16-1: every trailing tile -= column tile x
//                                         row tile from two 16x16 shared tiles (one element per
//                                         thread, 64-B row segments);
// then one final lud_diagonal for the last tile: 3*(dim/16-1)+1 launches.
// Nothing needed fixing (the original reads no memory out of bounds).
#define B 16

extern "C" __global__ void lud_diagonal(float *m, int dim, int offset)
{
    __shared__ float tile[B][B];
    int tx = threadIdx.x;
    int base = offset * dim + offset;
    for (int r = 0; r < B; r++) tile[r][tx] = m[base + r * dim + tx];
    __syncthreads();
    for (int k = 0; k < B - 1; k++) {
        // Column k of L (rows below k; thread = row).
        if (tx > k) {
            for (int j = 0; j < k; j++) tile[tx][k] -= tile[tx][j] * tile[j][k];
            tile[tx][k] /= tile[k][k];
        }
        __syncthreads();
        // Row k+1 of U (columns from k+1; thread = column).
        if (tx > k) {
            for (int j = 0; j < k + 1; j++) tile[k + 1][tx] -= tile[k + 1][j] * tile[j][tx];
        }
        __syncthreads();
    }
    // Row 0 is unchanged by the factorisation: store rows 1..15.
    for (int r = 1; r < B; r++) m[base + r * dim + tx] = tile[r][tx];
}

extern "C" __global__ void lud_perimeter(float *m, int dim, int offset)
{
    __shared__ float dia[B][B];
    __shared__ float row_tile[B][B];
    __shared__ float col_tile[B][B];
    int tx = threadIdx.x;
    int t = blockIdx.x + 1; // tile index right of / below the diagonal tile
    int base = offset * dim + offset;

    // Loads: the first half-warp takes the diagonal tile's upper rows and the row tile, the
    // second half-warp the diagonal tile's lower rows and the column tile.
    if (tx < B) {
        for (int r = 0; r < B / 2; r++) dia[r][tx] = m[base + r * dim + tx];
        for (int r = 0; r < B; r++) row_tile[r][tx] = m[base + r * dim + t * B + tx];
    } else {
        int c = tx - B;
        for (int r = B / 2; r < B; r++) dia[r][c] = m[base + r * dim + c];
        for (int r = 0; r < B; r++) col_tile[r][c] = m[base + (t * B + r) * dim + c];
    }
    __syncthreads();

    if (tx < B) {
        // Row tile: forward substitution with the unit lower triangle, thread = column.
        int c = tx;
        for (int r = 1; r < B; r++)
            for (int j = 0; j < r; j++) row_tile[r][c] -= dia[r][j] * row_tile[j][c];
    } else {
        // Column tile: solve against the upper triangle, thread = row.
        int r = tx - B;
        for (int k = 0; k < B; k++) {
            for (int j = 0; j < k; j++) col_tile[r][k] -= col_tile[r][j] * dia[j][k];
            col_tile[r][k] /= dia[k][k];
        }
    }
    __syncthreads();

    if (tx < B) {
        for (int r = 1; r < B; r++) m[base + r * dim + t * B + tx] = row_tile[r][tx];
    } else {
        int c = tx - B;
        for (int r = 0; r < B; r++) m[base + (t * B + r) * dim + c] = col_tile[r][c];
    }
}

extern "C" __global__ void lud_internal(float *m, int dim, int offset)
{
    __shared__ float row_tile[B][B];
    __shared__ float col_tile[B][B];
    int tx = threadIdx.x, ty = threadIdx.y;
    int grow = offset + (blockIdx.y + 1) * B; // first row of this trailing tile
    int gcol = offset + (blockIdx.x + 1) * B; // first column
    row_tile[ty][tx] = m[(offset + ty) * dim + gcol + tx];
    col_tile[ty][tx] = m[(grow + ty) * dim + offset + tx];
    __syncthreads();
    float sum = 0;
    for (int k = 0; k < B; k++) sum += col_tile[ty][k] * row_tile[k][tx];
    m[(grow + ty) * dim + gcol + tx] -= sum;
}
