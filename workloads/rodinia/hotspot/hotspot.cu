// HotSpot (Rodinia "HS"): transient thermal simulation of a chip on a rows x cols grid, a
// 5-point stencil with "pyramid" ghost zones. Written for gtlm from the algorithm's
// description.
//
// hotspot_step <<<(ceil(cols/(16-2p)), ceil(rows/(16-2p))), (16,16)>>> with p = steps of this
// launch (the pyramid height): each CTA loads a 16x16 tile of temperature and power (tiles
// overlap by p cells on every side, cells outside the chip are not loaded) into shared memory,
// then advances it p time steps in place, the valid region shrinking by one cell per side and
// step; neighbours outside the chip are clamped to the tile's valid region (the chip edge
// reflects); the inner (16-2p)^2 cells are written out. The host calls it with
// p = min(pyramid, remaining steps) and swaps source and destination after each launch.
// Per cell and step:
//   t' = t + step/Cap * (P + (tS + tN - 2.0*t)/Ry + (tE + tW - 2.0*t)/Rx + (80 - t)/Rz)
// (the 2.0 literal is double, as in the original, so those terms are computed in f64).
// Quirks kept: three 1 KB shared tiles, redundant halo loads by neighbouring CTAs, two
// barriers per step, f64 arithmetic from the double literal. No bugs of the original needed
// fixing.

#define TILE 16

extern "C" __global__ void hotspot_step(int steps, const float *power, const float *temp_src, float *temp_dst,
                                        int cols, int rows, int border_cols, int border_rows, float cap, float rx,
                                        float ry, float rz, float step)
{
    __shared__ float t_cur[TILE][TILE];
    __shared__ float p_tile[TILE][TILE];
    __shared__ float t_next[TILE][TILE];

    const float amb = 80.0f;
    float step_div_cap = step / cap;
    float rx_1 = 1.0f / rx, ry_1 = 1.0f / ry, rz_1 = 1.0f / rz;

    int tx = threadIdx.x, ty = threadIdx.y;
    int inner = TILE - 2 * steps; // cells each CTA finally produces per dimension
    int y0 = inner * blockIdx.y - border_rows; // chip coordinates of the tile's corner
    int x0 = inner * blockIdx.x - border_cols;
    int y = y0 + ty, x = x0 + tx;
    int idx = cols * y + x;
    bool on_chip = y >= 0 && y < rows && x >= 0 && x < cols;
    if (on_chip) {
        t_cur[ty][tx] = temp_src[idx];
        p_tile[ty][tx] = power[idx];
    }
    __syncthreads();

    // Part of the tile that lies on the chip.
    int vy0 = y0 < 0 ? -y0 : 0;
    int vy1 = y0 + TILE - 1 > rows - 1 ? TILE - 1 - (y0 + TILE - rows) : TILE - 1;
    int vx0 = x0 < 0 ? -x0 : 0;
    int vx1 = x0 + TILE - 1 > cols - 1 ? TILE - 1 - (x0 + TILE - cols) : TILE - 1;
    int n = ty - 1 < vy0 ? vy0 : ty - 1;
    int s = ty + 1 > vy1 ? vy1 : ty + 1;
    int w = tx - 1 < vx0 ? vx0 : tx - 1;
    int e = tx + 1 > vx1 ? vx1 : tx + 1;

    bool computed = false;
    for (int i = 0; i < steps; i++) {
        computed = false;
        if (tx >= i + 1 && tx <= TILE - i - 2 && ty >= i + 1 && ty <= TILE - i - 2 && tx >= vx0 && tx <= vx1 &&
            ty >= vy0 && ty <= vy1) {
            computed = true;
            float t = t_cur[ty][tx];
            t_next[ty][tx] = t + step_div_cap * (p_tile[ty][tx] + (t_cur[s][tx] + t_cur[n][tx] - 2.0 * t) * ry_1 +
                                                 (t_cur[ty][e] + t_cur[ty][w] - 2.0 * t) * rx_1 + (amb - t) * rz_1);
        }
        __syncthreads();
        if (i == steps - 1) break;
        if (computed) t_cur[ty][tx] = t_next[ty][tx];
        __syncthreads();
    }
    if (computed) temp_dst[idx] = t_next[ty][tx];
}
