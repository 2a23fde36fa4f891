// SYR2K (PolyBench/GPU): symmetric rank-2k update C = alpha * A * B^T + alpha * B * A^T + beta * C,
// A and B are ni x nj, C is ni x ni, row-major float (the full square C is computed).
// Written for gtlm from the algorithm's description.
//
// Launch shape as in the original: one thread per element of C, block (32,8), grid
// (ceil(ni/32), ceil(ni/8)); j = x index, i = y index. Per k four loads in the original's order:
// A[i][k] and B[i][k] are broadcasts within a warp, B[j][k] and A[j][k] are two uncoalesced
// streams (lanes nj*4 bytes apart). C[i][j] is scaled by beta and then accumulated in global
// memory (the pointers may alias, so one store per k remains).
// Quirks kept: the in-memory accumulator. Bugs fixed: none needed (bounds checks make sizes
// that are not multiples of the block work).
extern "C" __global__ void syr2k_kernel(int ni, int nj, float alpha, float beta, const float *a, const float *b,
                                        float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < ni) {
        c[i * ni + j] *= beta;
        for (int k = 0; k < nj; k++)
            c[i * ni + j] += alpha * a[i * nj + k] * b[j * nj + k] + alpha * b[i * nj + k] * a[j * nj + k];
    }
}
