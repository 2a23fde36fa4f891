// 3DCONV (PolyBench/GPU): 15-term 3-D stencil B = conv(A) on an ni x nj x nk float grid
// (index i*nj*nk + j*nk + k). Written for gtlm from the algorithm's description.
//
// The host launches this kernel once per interior plane i = 1 .. ni-2 (254 launches at 256^3).
// Each launch: block (32,8), grid (ceil(nk/32), ceil(nj/8)), thread (k = x, j = y); only
// interior points are written. The term list is PolyBench's irregular one, kept term for term
// because it decides which lines are touched. With c11 = +2, c21 = +5, c31 = -8, c12 = -3,
// c22 = +6, c32 = -9, c13 = +4, c23 = +7, c33 = +10 and A(di, dj, dk) = A[i+di][j+dj][k+dk]:
//   B = c11 A(-1,-1,-1) + c13 A(+1,-1,-1) + c21 A(-1,-1,-1) + c23 A(+1,-1,-1)
//     + c31 A(-1,-1,-1) + c33 A(+1,-1,-1) + c12 A(0,-1,0) + c22 A(0,0,0) + c32 A(0,+1,0)
//     + c11 A(-1,-1,+1) + c13 A(+1,-1,+1) + c21 A(-1,0,+1) + c23 A(+1,0,+1)
//     + c31 A(-1,+1,+1) + c33 A(+1,+1,+1)
// (the first six terms read only two distinct points).
// Loads are coalesced along k; planes i-1, i, i+1 are reused across consecutive launches.
// Bug fixed: the original copies an uninitialised host buffer into B (its border stays
// garbage); our driver zeroes B first.
extern "C" __global__ void conv3d_kernel(const float *A, float *B, int ni, int nj, int nk, int i)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && j > 0 && k > 0 && i < ni - 1 && j < nj - 1 && k < nk - 1) {
        const float c11 = 2.0f, c21 = 5.0f, c31 = -8.0f;
        const float c12 = -3.0f, c22 = 6.0f, c32 = -9.0f;
        const float c13 = 4.0f, c23 = 7.0f, c33 = 10.0f;
        int plane = nj * nk;
        int o = i * plane + j * nk + k;                 // this point
        int lo = o - plane, hi = o + plane;             // same (j, k) in planes i-1 and i+1
        B[o] = c11 * A[lo - nk - 1] + c13 * A[hi - nk - 1]
             + c21 * A[lo - nk - 1] + c23 * A[hi - nk - 1]
             + c31 * A[lo - nk - 1] + c33 * A[hi - nk - 1]
             + c12 * A[o - nk] + c22 * A[o] + c32 * A[o + nk]
             + c11 * A[lo - nk + 1] + c13 * A[hi - nk + 1]
             + c21 * A[lo + 1] + c23 * A[hi + 1]
             + c31 * A[lo + nk + 1] + c33 * A[hi + nk + 1];
    }
}
