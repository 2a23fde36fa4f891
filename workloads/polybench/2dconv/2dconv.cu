// 2DCONV (PolyBench/GPU): B = 3x3 convolution of the ni x nj float image A (row-major).
// Written for gtlm from the algorithm's description.
//
// Only interior points (0 < i < ni-1, 0 < j < nj-1) are written; the border of B keeps the
// value it had before the launch. Weights cXY: X = column offset (1: j-1, 2: j, 3: j+1),
// Y = row offset (1: i-1, 2: i, 3: i+1):
//     row i-1:  +0.2  +0.5  -0.8
//     row i  :  -0.3  +0.6  -0.9
//     row i+1:  +0.4  +0.7  +0.10
// Launch as the original: block (32,8), one thread per output point, x -> column j,
// y -> row i, grid (ceil(nj/32), ceil(ni/8)) = 128 x 512 for 4096^2 (the original writes the
// grid as (NI/32, NJ/8), which is the same for its square image). Every input element is read
// by 9 threads: reuse inside a CTA (8 rows) and between neighbouring CTAs; all loads coalesced.
// Bug fixed: the original copies an uninitialised host buffer into B, so B's border is
// garbage; our driver zeroes B first.
extern "C" __global__ void conv2d_kernel(const float *A, float *B, int ni, int nj)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && j > 0 && i < ni - 1 && j < nj - 1) {
        const float c11 = 0.2f, c21 = 0.5f, c31 = -0.8f;
        const float c12 = -0.3f, c22 = 0.6f, c32 = -0.9f;
        const float c13 = 0.4f, c23 = 0.7f, c33 = 0.10f;
        const float *up = A + (i - 1) * nj, *mid = A + i * nj, *down = A + (i + 1) * nj;
        B[i * nj + j] = c11 * up[j - 1] + c21 * up[j] + c31 * up[j + 1]
                      + c12 * mid[j - 1] + c22 * mid[j] + c32 * mid[j + 1]
                      + c13 * down[j - 1] + c23 * down[j] + c33 * down[j + 1];
    }
}
