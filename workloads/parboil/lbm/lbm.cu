// Parboil LBM: one time step of a D3Q19 lattice-Boltzmann fluid solver (BGK collision, then
// streaming by pushing each post-collision distribution to the neighbour it moves to), written
// for gtlm from the algorithm's description. Launch as the original: one CTA per (y, z) line of
// cells, one thread per x (grid SIZE_Y x SIZE_Z, block SIZE_X). Layout as the original's CUDA
// version: structure of arrays, distribution e of cell c at grid[e * total + margin + c], with
// c = x + y * SIZE_X + z * SIZE_X * SIZE_Y and a margin of two z-layers before and after the
// domain, so that pushes from boundary cells stay inside the array; entry 19 holds the cell's
// flags (obstacle, accelerated inflow) as raw bits. Each thread does 20 coalesced loads and 19
// stores at 19 different neighbour offsets.
#define N_E 20
#define FLAG 19
#define OBSTACLE 1u
#define ACCEL 2u
#define OMEGA 1.95f

// Directions: C N S E W T B NE NW SE SW NT NB ST SB ET EB WT WB.
__constant__ int ex[19] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1};
__constant__ int ey[19] = {0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 0, 0, 0};
__constant__ int ez[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1};
__constant__ int opposite[19] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};

extern "C" __global__ void performStreamCollide_kernel(const float *src, float *dst, int total, int margin)
{
    int sx = blockDim.x, sy = gridDim.x;
    int c = margin + threadIdx.x + blockIdx.x * sx + blockIdx.y * sx * sy;
    float f[19];
    for (int e = 0; e < 19; e++) f[e] = src[e * total + c];
    unsigned int flags = __float_as_uint(src[FLAG * total + c]);
    if (flags & OBSTACLE) {
        // bounce back: what arrived moving in direction e leaves in the opposite direction
        for (int e = 0; e < 19; e++) {
            int o = opposite[e];
            dst[o * total + c + ex[o] + ey[o] * sx + ez[o] * sx * sy] = f[e];
        }
        return;
    }
    float rho = 0, ux = 0, uy = 0, uz = 0;
    for (int e = 0; e < 19; e++) {
        rho += f[e];
        ux += ex[e] * f[e];
        uy += ey[e] * f[e];
        uz += ez[e] * f[e];
    }
    ux /= rho, uy /= rho, uz /= rho;
    if (flags & ACCEL) ux = 0.005f, uy = 0.002f, uz = 0.000f;
    float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
    for (int e = 0; e < 19; e++) {
        float w = e == 0 ? 1.0f / 3.0f : e < 7 ? 1.0f / 18.0f : 1.0f / 36.0f;
        float eu = ex[e] * ux + ey[e] * uy + ez[e] * uz;
        float feq = w * rho * (1.0f + 3.0f * eu + 4.5f * eu * eu - u2);
        dst[e * total + c + ex[e] + ey[e] * sx + ez[e] * sx * sy] = (1.0f - OMEGA) * f[e] + OMEGA * feq;
    }
}
