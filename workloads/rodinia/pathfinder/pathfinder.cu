// PathFinder (Rodinia): minimum-cost path from the top row to the bottom row of a rows x cols grid
// of small integer weights, moving straight down or diagonally one column per row. Written for
// gtlm from the algorithm's description.
//
// Original launch shape, kept: one launch per `pyramid_height` rows, a 1-D grid of
// ceil(cols / (256 - 2*pyramid_height)) CTAs of 256 threads. Each CTA loads 256 columns of the
// previous row into shared memory and advances `iteration` rows in place (the pyramid: the valid
// region shrinks by one column per side and row, so neighbouring CTAs load overlapping halos of
// `pyramid_height` columns), with two barriers per row; the last row of the pyramid is written out.
// Per row every thread reads one wall element: coalesced.
// Quirks kept: none needed fixing (the original reads no memory out of bounds).
#define BLOCK 256

extern "C" __global__ void dynproc_kernel(int iteration, const int *wall, const int *src, int *dst, int cols,
                                          int rows, int start_step, int border)
{
    __shared__ int prev[BLOCK];
    __shared__ int result[BLOCK];
    (void)rows;
    int tx = threadIdx.x;
    int out_cols = BLOCK - 2 * iteration;           // columns this CTA finally produces
    int first = out_cols * (int)blockIdx.x - border; // grid column of lane 0
    int x = first + tx;
    // Lanes whose column lies inside the grid; neighbours are clamped to that range.
    int lo = first < 0 ? -first : 0;
    int hi = first + BLOCK > cols ? cols - 1 - first : BLOCK - 1;
    int west = tx - 1 < lo ? lo : tx - 1;
    int east = tx + 1 > hi ? hi : tx + 1;
    bool inside = tx >= lo && tx <= hi;

    if (x >= 0 && x < cols) prev[tx] = src[x];
    __syncthreads();
    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (tx >= i + 1 && tx <= BLOCK - i - 2 && inside) {
            computed = true;
            int best = min(min(prev[west], prev[tx]), prev[east]);
            result[tx] = best + wall[cols * (start_step + i) + x];
        }
        __syncthreads();
        if (i == iteration - 1) break;
        if (computed) prev[tx] = result[tx];
        __syncthreads();
    }
    if (computed) dst[x] = result[tx];
}
