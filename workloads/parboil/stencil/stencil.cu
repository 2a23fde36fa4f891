// Stencil (Parboil): 7-point 3-D Jacobi sweep, out = c1 * (sum of the 6 neighbours) - c0 * centre,
// on the interior of an nx x ny x nz float grid (x fastest); the host ping-pongs two grids.
// Written for gtlm from the algorithm's description.
//
// Original launch (kept): block (32,4); each thread owns two points of a row, x = base + tx and
// x = base + tx + 32 (thread coarsening along x, CTA tile 64 x 4); grid (ceil(nx/64), ceil(ny/4));
// dynamic shared memory of 2*32*4 floats holding the current xy-plane of the tile. Each thread
// marches along z from k = 1 to nz-2 keeping the planes below and above in registers; x and y
// neighbours come from shared memory except on the tile's edge, where they are loaded from
// global memory (left neighbour of the first point at tx == 0, right neighbour of the second
// point at tx == 31, the y neighbours at ty == 0 / ty == 3). Two barriers per plane.
// Boundary points are never written: the host copies the input into both grids first.
// No bugs of the original needed fixing.
#define IDX(x, y, z) ((x) + nx * ((y) + ny * (z)))

extern "C" __global__ void stencil7(float c0, float c1, const float *in, float *out, int nx, int ny, int nz)
{
    extern __shared__ float tile[];
    const int w = blockDim.x;                       // 32; a tile row holds 2 * w points
    const int x0 = blockIdx.x * 2 * w + threadIdx.x;
    const int x1 = x0 + w;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int s0 = threadIdx.y * 2 * w + threadIdx.x;
    const int s1 = s0 + w;

    tile[s0] = 0.0f;
    tile[s1] = 0.0f;
    __syncthreads();

    const bool interior0 = x0 > 0 && x0 < nx - 1 && y > 0 && y < ny - 1;
    const bool interior1 = x1 < nx - 1 && y > 0 && y < ny - 1;   // x1 >= 32 > 0 always
    const bool edge_left = threadIdx.x == 0;
    const bool edge_right = threadIdx.x == w - 1;
    const bool edge_low = threadIdx.y == 0;
    const bool edge_high = threadIdx.y == blockDim.y - 1;
    const bool in0 = x0 < nx && y < ny, in1 = x1 < nx && y < ny;

    float below0 = 0.0f, below1 = 0.0f, above0 = 0.0f, above1 = 0.0f;
    if (in0) {
        below0 = in[IDX(x0, y, 0)];
        tile[s0] = in[IDX(x0, y, 1)];
    }
    if (in1) {
        below1 = in[IDX(x1, y, 0)];
        tile[s1] = in[IDX(x1, y, 1)];
    }
    __syncthreads();

    for (int k = 1; k < nz - 1; k++) {
        if (in0) above0 = in[IDX(x0, y, k + 1)];
        if (interior0) {
            float left = edge_left ? in[IDX(x0 - 1, y, k)] : tile[s0 - 1];
            float south = edge_low ? in[IDX(x0, y - 1, k)] : tile[s0 - 2 * w];
            float north = edge_high ? in[IDX(x0, y + 1, k)] : tile[s0 + 2 * w];
            out[IDX(x0, y, k)] = (left + tile[s0 + 1] + north + south + above0 + below0) * c1 - tile[s0] * c0;
        }
        if (in1) above1 = in[IDX(x1, y, k + 1)];
        if (interior1) {
            float right = edge_right ? in[IDX(x1 + 1, y, k)] : tile[s1 + 1];
            float south = edge_low ? in[IDX(x1, y - 1, k)] : tile[s1 - 2 * w];
            float north = edge_high ? in[IDX(x1, y + 1, k)] : tile[s1 + 2 * w];
            out[IDX(x1, y, k)] = (right + tile[s1 - 1] + north + south + above1 + below1) * c1 - tile[s1] * c0;
        }
        // move up one plane: the current plane becomes "below", "above" becomes current
        __syncthreads();
        below0 = tile[s0];
        tile[s0] = above0;
        below1 = tile[s1];
        tile[s1] = above1;
        __syncthreads();
    }
}
