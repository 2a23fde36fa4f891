// FDTD-2D (PolyBench/GPU): 2-D finite-difference time-domain kernel on nx x ny row-major float
// fields ex, ey, hz, run for tmax time steps with a source term fict[t] on row 0 of ey.
// Written for gtlm from the algorithm's description.
//
// Launch shape as in the original: per time step three kernels in this order, each with one
// thread per grid point, block (32,8), grid (ceil(ny/32), ceil(nx/8)); j = x index (column),
// i = y index (row), so a warp reads and writes one coalesced 128-B row segment per array and
// the neighbour rows i-1 / i+1 are reused through the caches across CTAs. 3 * tmax launches.
//   step1: ey[i][j] = fict[t] on row 0, else ey[i][j] -= 0.5 * (hz[i][j] - hz[i-1][j])
//   step2: ex[i][j] -= 0.5 * (hz[i][j] - hz[i][j-1])                      for j > 0
//   step3: hz[i][j] -= 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])  for i < nx-1, j < ny-1
// fict[t] is read from global memory, t is a kernel argument.
// Quirks kept: all three fields are nx x ny (the last row/column of hz is never updated).
// Bugs fixed: none needed (bounds checks make sizes that are not multiples of the block work).
extern "C" __global__ void fdtd_step1(int nx, int ny, const float *fict, float *ey, const float *hz, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny) {
        if (i == 0)
            ey[j] = fict[t];
        else
            ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
    }
}

extern "C" __global__ void fdtd_step2(int nx, int ny, float *ex, const float *hz)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny && j > 0) ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

extern "C" __global__ void fdtd_step3(int nx, int ny, const float *ex, const float *ey, float *hz)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx - 1 && j < ny - 1)
        hz[i * ny + j] = hz[i * ny + j] -
                         0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}
