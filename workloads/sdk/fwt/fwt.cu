// FastWalshTransform (CUDA SDK style): dyadic (XOR) convolution of an N-float signal with a
// K-float kernel through the Walsh-Hadamard transform: out = WHT(WHT(data) * WHT(kernel) / N).
// Written for gtlm from the algorithm's description.
//
// One WHT of 2^L points (natural order) runs as radix-4 stages. While the sub-transform size
// n = 2^l exceeds 2^11: fwt_global, in place in global memory, grid (n / (4*256), M), block 256,
// where M = 2^L / n sub-transforms: thread pos < n/4 of sub-transform blockIdx.y combines the
// elements pos, pos + n/4, pos + n/2, pos + 3n/4 (stride-n/2 then stride-n/4 butterflies; each
// of the four loads and stores is coalesced), then n /= 4, M *= 4. The last 2^10 or 2^11 points
// of every sub-transform: fwt_shared, grid M, block n/4, n floats of dynamic shared memory: load,
// radix-4 stages with strides n/4, n/16, ... in shared memory (a barrier before each), a final
// radix-2 stage when log2 n is odd, store. modulate: grid 128, block 256, grid-stride
// data[i] *= kernel[i] / N (by the reciprocal, as the SDK). Order as the SDK: WHT(data),
// WHT(kernel zero-padded to N), modulate, WHT(data). No bugs to fix.

extern "C" __global__ void fwt_global(float *dst, const float *src, int stride)
{
    int pos = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockDim.x * gridDim.x * 4;  // points per sub-transform
    const float *s = src + blockIdx.y * n;
    float *d = dst + blockIdx.y * n;
    int lo = pos & (stride - 1);
    int i0 = ((pos - lo) << 2) + lo, i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
    float a = s[i0], b = s[i1], c = s[i2], e = s[i3];
    float p = a + c, q = a - c, r = b + e, t = b - e;
    d[i0] = p + r;
    d[i1] = p - r;
    d[i2] = q + t;
    d[i3] = q - t;
}

extern "C" __global__ void fwt_shared(float *dst, const float *src, int log2n)
{
    extern __shared__ float sh[];
    int n = 1 << log2n, base = blockIdx.x << log2n, pos = threadIdx.x;
    for (int i = threadIdx.x; i < n; i += blockDim.x) sh[i] = src[base + i];
    for (int stride = n >> 2; stride > 0; stride >>= 2) {
        int lo = pos & (stride - 1);
        int i0 = ((pos - lo) << 2) + lo, i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
        __syncthreads();
        float a = sh[i0], b = sh[i1], c = sh[i2], e = sh[i3];
        float p = a + c, q = a - c, r = b + e, t = b - e;
        sh[i0] = p + r;
        sh[i1] = p - r;
        sh[i2] = q + t;
        sh[i3] = q - t;
    }
    if (log2n & 1) {
        __syncthreads();
        for (int i = threadIdx.x; i < n / 2; i += blockDim.x) {
            float a = sh[2 * i], b = sh[2 * i + 1];
            sh[2 * i] = a + b;
            sh[2 * i + 1] = a - b;
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) dst[base + i] = sh[i];
}

extern "C" __global__ void modulate(float *a, const float *b, int n)
{
    float rcp = 1.0f / (float)n;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a[i] *= b[i] * rcp;
}
