// MatrixMul (CUDA SDK style): C = A * B with square shared-memory tiles.
// Written for gtlm from the algorithm's description (the textbook tiled product).
//
// A is hA x wA, B is wA x wB, C is hA x wB, all row-major floats. One CTA of TILE x TILE
// threads computes one TILE x TILE tile of C; thread (tx, ty) owns C[row][col] with
// row = TILE*by + ty, col = TILE*bx + tx. The CTA walks the wA/TILE tile pairs of A's row band
// and B's column band: each thread loads one element of each into shared memory (coalesced
// along x), a barrier, TILE multiply-adds from shared memory (As row broadcast, Bs conflict-free),
// a second barrier. Launch as the SDK: block (TILE, TILE), grid (wB/TILE, hA/TILE), one warm-up
// launch plus the timing loop. TILE = 16, the SDK's block size for pre-Fermi/Fermi-class GPUs
// (its newer default 32 makes 1024-thread CTAs that need more than the 32768 registers of the
// GTX 480-class SM we model, at nvcc 13's register count). The SDK requires every dimension to
// be a multiple of TILE; so do we (no bounds checks in the kernel, as the original). No bugs
// to fix.
#define TILE 16

extern "C" __global__ void matrix_mul(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int a0 = wA * TILE * blockIdx.y;  // first element of this CTA's row band of A
    int aLast = a0 + wA - 1;
    int b0 = TILE * blockIdx.x;       // first element of this CTA's column band of B
    float sum = 0.0f;
    for (int a = a0, b = b0; a <= aLast; a += TILE, b += TILE * wB) {
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[wB * TILE * blockIdx.y + TILE * blockIdx.x + wB * ty + tx] = sum;
}
