// SYRK (PolyBench/GPU): symmetric rank-k update C = alpha * A * A^T + beta * C, A is ni x nj, C is
// ni x ni, row-major float (the full square C is computed, as in the original).
// Written for gtlm from the algorithm's description.
//
// Launch shape as in the original: one thread per element of C, block (32,8), grid
// (ceil(ni/32), ceil(ni/8)); j = x index, i = y index. Per warp and k: A[i][k] is a broadcast,
// A[j][k] is read by 32 lanes nj*4 bytes apart (uncoalesced, one line per lane, each line reused
// over the next 31 k if it stays in the cache). C[i][j] is scaled by beta and then accumulated
// in global memory (the pointers may alias, so one store per k remains).
// Quirks kept: the in-memory accumulator. Bugs fixed: none needed (bounds checks make sizes
// that are not multiples of the block work).
extern "C" __global__ void syrk_kernel(int ni, int nj, float alpha, float beta, const float *a, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < ni) {
        c[i * ni + j] *= beta;
        for (int k = 0; k < nj; k++) c[i * ni + j] += alpha * a[i * nj + k] * a[j * nj + k];
    }
}
