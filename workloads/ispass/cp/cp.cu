// CP (GPGPU-Sim ISPASS-2009 suite, the Parboil "cuda_short" coulombic potential): electrostatic
// potential of a set of point charges on one z-slice of a regular lattice.
// Written for gtlm from the algorithm's description (direct Coulomb summation).
//
// Atoms live in constant memory as float4 (x, y, dz^2, q), dz^2 precomputed by the host for the
// slice, MAX_ATOMS per launch (the host launches once per chunk). Block (16, 8); each thread
// computes UNROLLX = 2 lattice points of one row, BLOCK_X apart, so the warp's stores are
// coalesced: x = blockIdx.x * BLOCK_X * UNROLLX + threadIdx.x and x + BLOCK_X,
// y = blockIdx.y * 8 + threadIdx.y. Every thread reads every atom at the same address
// (constant broadcast) and accumulates q * rsqrt(dx^2 + dy^2 + dz^2), then adds its sums to the
// lattice in global memory (read-modify-write: the chunks accumulate).
#define MAX_ATOMS 4000
#define BLOCK_X 16
#define UNROLLX 2

__constant__ float4 atominfo[MAX_ATOMS];

extern "C" __global__ void cenergy(int numatoms, float gridspacing, float *energygrid)
{
    unsigned x = blockIdx.x * BLOCK_X * UNROLLX + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned out = gridDim.x * BLOCK_X * UNROLLX * y + x;
    float coorx = gridspacing * x, coory = gridspacing * y;
    float step = gridspacing * BLOCK_X;
    float e1 = 0.0f, e2 = 0.0f;
    for (int a = 0; a < numatoms; a++) {
        float dy = coory - atominfo[a].y;
        float dyz2 = dy * dy + atominfo[a].z;
        float dx1 = coorx - atominfo[a].x;
        float dx2 = dx1 + step;
        e1 += atominfo[a].w * rsqrtf(dx1 * dx1 + dyz2);
        e2 += atominfo[a].w * rsqrtf(dx2 * dx2 + dyz2);
    }
    energygrid[out] += e1;
    energygrid[out + BLOCK_X] += e2;
}
