// ConvolutionSeparable (CUDA SDK style): 2-D convolution with a separable 17-tap filter
// (radius 8), as a row pass (src -> tmp) followed by a column pass (tmp -> dst), zero outside
// the image. Written for gtlm from the algorithm's description.
//
// Row pass: block (16, 4), grid (W / (8*16), H / 4). Each CTA stages 4 image rows of
// (8 result + 2 halo) * 16 = 160 floats in shared memory: thread (tx, ty) loads 10 elements
// 16 apart (8 main loads without a check, the left and right 16-wide halo blocks checked against
// the image edge and replaced by 0), a barrier, then computes its 8 outputs from 17 shared reads
// each.
// Column pass: block (16, 8), grid (W / 16, H / (8*8)). Each CTA stages 16 columns of
// (8 + 2) * 8 = 80 rows in shared memory, stored transposed as [16][81] (the +1 pad keeps the
// column walk free of bank conflicts); halo rows above and below are checked against the image
// edge. Global loads and stores are 16 floats (64 B) wide per half-warp row in both passes.
// Filter taps in __constant__ memory (uniform index: broadcast). The SDK requires W to be a
// multiple of 128 and H a multiple of 64 (and W, H >= 16); so do we. No bugs to fix.
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

#define ROWS_BX 16
#define ROWS_BY 4
#define ROWS_STEPS 8
#define ROWS_HALO 1

#define COLS_BX 16
#define COLS_BY 8
#define COLS_STEPS 8
#define COLS_HALO 1

__constant__ float c_kernel[KERNEL_LENGTH];

extern "C" __global__ void conv_rows(float *dst, const float *src, int W, int H, int pitch)
{
    __shared__ float s[ROWS_BY][(ROWS_STEPS + 2 * ROWS_HALO) * ROWS_BX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = (blockIdx.x * ROWS_STEPS - ROWS_HALO) * ROWS_BX + tx;  // may be negative (left halo)
    int y0 = blockIdx.y * ROWS_BY + ty;
    src += y0 * pitch + x0;
    dst += y0 * pitch + x0;
    (void)H;
#pragma unroll
    for (int i = ROWS_HALO; i < ROWS_HALO + ROWS_STEPS; i++) s[ty][tx + i * ROWS_BX] = src[i * ROWS_BX];
#pragma unroll
    for (int i = 0; i < ROWS_HALO; i++) s[ty][tx + i * ROWS_BX] = (x0 >= -i * ROWS_BX) ? src[i * ROWS_BX] : 0.0f;
#pragma unroll
    for (int i = ROWS_HALO + ROWS_STEPS; i < ROWS_STEPS + 2 * ROWS_HALO; i++)
        s[ty][tx + i * ROWS_BX] = (W - x0 > i * ROWS_BX) ? src[i * ROWS_BX] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int i = ROWS_HALO; i < ROWS_HALO + ROWS_STEPS; i++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) sum += c_kernel[KERNEL_RADIUS - j] * s[ty][tx + i * ROWS_BX + j];
        dst[i * ROWS_BX] = sum;
    }
}

extern "C" __global__ void conv_cols(float *dst, const float *src, int W, int H, int pitch)
{
    __shared__ float s[COLS_BX][(COLS_STEPS + 2 * COLS_HALO) * COLS_BY + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * COLS_BX + tx;
    int y0 = (blockIdx.y * COLS_STEPS - COLS_HALO) * COLS_BY + ty;  // may be negative (upper halo)
    src += y0 * pitch + x0;
    dst += y0 * pitch + x0;
    (void)W;
#pragma unroll
    for (int i = COLS_HALO; i < COLS_HALO + COLS_STEPS; i++) s[tx][ty + i * COLS_BY] = src[i * COLS_BY * pitch];
#pragma unroll
    for (int i = 0; i < COLS_HALO; i++)
        s[tx][ty + i * COLS_BY] = (y0 >= -i * COLS_BY) ? src[i * COLS_BY * pitch] : 0.0f;
#pragma unroll
    for (int i = COLS_HALO + COLS_STEPS; i < COLS_STEPS + 2 * COLS_HALO; i++)
        s[tx][ty + i * COLS_BY] = (H - y0 > i * COLS_BY) ? src[i * COLS_BY * pitch] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int i = COLS_HALO; i < COLS_HALO + COLS_STEPS; i++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) sum += c_kernel[KERNEL_RADIUS - j] * s[tx][ty + i * COLS_BY + j];
        dst[i * COLS_BY * pitch] = sum;
    }
}
