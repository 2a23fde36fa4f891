// HISTO (Parboil): saturating 2-D histogram. Every input value (a 32-bit bin index into an
// hw x hh histogram) adds one to its bin; bins are 8-bit and saturate at 255.
// Written for gtlm from the algorithm's description.
//
// Kernels and original launch shapes (kept), run in this order once per iteration:
//  1. histo_prescan <<<64, 512>>>: each CTA samples the first 1/8 of its 1/64 of the input,
//     each thread computes a mean and standard deviation of its samples, a shared-memory tree
//     averages them, and thread 0 widens [min, max] (global atomics) to the sub-histogram blocks
//     of 24K bins covering mean -/+ 10 sigma: the dense "eye" of the input distribution.
//  2. histo_intermediates <<<h / 16, w / 2>>>: each thread reads two pixels per row (one 8-byte
//     load) for 16 rows and writes each pixel's bin as a uchar4 (block, row of the shared
//     sub-histogram, word in that row, bit offset of the byte). Pixel 2t of a row is stored at
//     position t and pixel 2t+1 at t + w/2 (a permutation of the row, harmless for a histogram).
//  3. histo_main <<<(14, eye blocks), 768>>>: CTA (x, y) owns sub-histogram block min + y of
//     24K 8-bit bins packed four to a word in 24 KB of shared memory, and reads every
//     (14 * 768)-th pixel from x * 768 + tid: the 14 CTAs of a grid row together read all pixels,
//     so every eye block rescans the whole input. Counting is a shared atomicAdd on the packed
//     word; a byte overflowing from 255 is recorded in a global 32-bit overflow array (+256, and
//     corrections for the carry into the next bytes of the word). CTAs with y == 0 also count
//     pixels outside the eye directly in a global array of 16-bit counters (read, then atomicAdd
//     only while below 255). Each CTA then writes its packed block into slice x of the
//     sub-histogram array (14 slices of the whole histogram).
//  4. histo_final <<<42, 512>>>: bins below and above the eye: clamp the 16-bit counter to 255
//     and clear it; bins in the eye: sum the 14 packed sub-histograms' bytes and the overflow
//     word, clamp to 255, clear the overflow word. Writes the 8-bit histogram, four bins at a time.
// Fixed bugs of the original:
//  - histo_main copies whole 24K-bin blocks and histo_final walks whole eye blocks, so when the
//    histogram is not a multiple of 24K bins the last block writes past its slice of the
//    sub-histogram array (into the next slice: a race with the CTA writing there) and past the
//    histogram arrays; both now stop at the histogram's end (the host also clamps the eye to
//    existing blocks).
//  - the carry correction into byte +3 of a packed word tested only byte +2 (not that the carry
//    also passed byte +1), undercounting one bin in a rare case; it now requires the carry chain.
//  - the float-to-unsigned conversion of mean - 10 sigma was undefined when negative; it is now
//    clamped to 0 explicitly (what the hardware conversion does).
// The host zeroes the 16-bit counters and the overflow array once (the original leaves them
// uninitialised after cudaMalloc); histo_final clears what it read, so iterations repeat.
#define KB 24
#define BINS_PER_BLOCK (KB * 1024)
#define BLOCK_X 14
#define PRESCAN_THREADS 512
#define UNROLL 16

extern "C" __global__ void histo_prescan(const unsigned *input, int size, unsigned *minmax)
{
    __shared__ float mean_s[PRESCAN_THREADS];
    __shared__ float dev_s[PRESCAN_THREADS];
    const int chunk = size / gridDim.x;
    const int first = blockIdx.x * chunk + threadIdx.x;
    const int end = blockIdx.x * chunk + chunk / 8;   // sample 1/8 of the chunk

    float mean = 0.0f;
    unsigned n = 0;
    for (int a = first; a < end; a += blockDim.x) {
        mean += input[a];
        n++;
    }
    mean /= n;
    float var = 0.0f;
    for (int a = first; a < end; a += blockDim.x) {
        float d = input[a] - mean;
        var += d * d;
    }
    var /= n;
    const int t = threadIdx.x;
    mean_s[t] = mean;
    dev_s[t] = sqrtf(var);

    for (int s = PRESCAN_THREADS / 2; s >= 32; s >>= 1) {
        __syncthreads();
        if (t < s) {
            mean_s[t] += mean_s[t + s];
            dev_s[t] += dev_s[t + s];
        }
    }
    // the last steps within warp 0: the original relies on implicit warp lock-step; __syncwarp makes
    // that explicit (needed since Volta), the loads and stores are the same
    for (int s = 16; s >= 2; s >>= 1) {
        __syncwarp();
        if (t < s) {
            mean_s[t] += mean_s[t + s];
            dev_s[t] += dev_s[t + s];
        }
    }
    __syncwarp();
    if (t == 0) {
        float m = (mean_s[0] + mean_s[1]) / PRESCAN_THREADS;
        float sd = (dev_s[0] + dev_s[1]) / PRESCAN_THREADS;
        float lo = m - 10.0f * sd, hi = m + 10.0f * sd;
        atomicMin(minmax, (lo > 0.0f ? (unsigned)lo : 0u) / BINS_PER_BLOCK);
        atomicMax(minmax + 1, (hi > 0.0f ? (unsigned)hi : 0u) / BINS_PER_BLOCK);
    }
}

__device__ __forceinline__ uchar4 encode_bin(unsigned bin)
{
    uchar4 e;
    e.x = (unsigned char)(bin / BINS_PER_BLOCK);     // sub-histogram block
    e.y = (unsigned char)((bin >> 10) % KB);         // row of the shared array
    e.z = (unsigned char)((bin >> 2) % 256);         // word in the row
    e.w = (unsigned char)((bin % 4) * 8);            // bit offset of the byte in the word
    return e;
}

extern "C" __global__ void histo_intermediates(const uint2 *input, unsigned height, unsigned width, unsigned pitch,
                                               uchar4 *map)
{
    const unsigned line = UNROLL * blockIdx.x;
    const uint2 *src = input + line * pitch + threadIdx.x;
    unsigned dst = line * width + threadIdx.x;
    const bool odd_tail = (width % 2) && threadIdx.x == blockDim.x - 1;
#pragma unroll
    for (int r = 0; r < UNROLL; r++) {
        uint2 two = *src;
        map[dst] = encode_bin(two.x);
        if (!odd_tail) map[dst + blockDim.x] = encode_bin(two.y);
        src += pitch;
        dst += width;
    }
}

__device__ __forceinline__ unsigned decode_bin(uchar4 e)
{
    return e.x * BINS_PER_BLOCK + e.w / 8 + (e.z << 2) + (e.y << 10);
}

// Pixels outside the eye: 16-bit counters, two per word, incremented only while below 255.
__device__ __forceinline__ void count_outside(unsigned *histo16, unsigned eye_min, unsigned eye_max, uchar4 e)
{
    if (e.x < eye_min || e.x > eye_max) {
        const unsigned bin = decode_bin(e);
        const unsigned shift = (bin % 2) ? 16 : 0;
        const unsigned old = histo16[bin / 2];
        if (((old >> shift) & 0xFFFF) < 255) atomicAdd(&histo16[bin / 2], 1u << shift);
    }
}

// Pixels of this CTA's block: packed 8-bit bins in shared memory, overflow recorded globally.
__device__ __forceinline__ void count_inside(unsigned *overflow, unsigned (*sub)[256], unsigned block, uchar4 e)
{
    if (e.x != block) return;
    const unsigned shift = e.w;
    const unsigned prev = atomicAdd(&sub[e.y][e.z], 1u << shift);
    if (((prev >> shift) & 0xFF) != 0xFF) return;
    // this byte wrapped from 255 to 0 and carried one into the next byte of the word
    const unsigned bin = decode_bin(e);
    const unsigned b1 = (prev >> (shift + 8)) & 0xFF;
    const unsigned b2 = (prev >> (shift + 16)) & 0xFF;
    const unsigned b3 = (prev >> (shift + 24)) & 0xFF;
    const bool c1 = shift < 24;               // the carry reached byte +1
    const bool c2 = shift < 16 && b1 == 0xFF; // ... and byte +2
    const bool c3 = shift < 8 && b1 == 0xFF && b2 == 0xFF;
    atomicAdd(&overflow[bin], 256u);
    // a byte that got the carry: was below 255 -> it counts one too many; was 255 -> it wrapped
    if (c1) atomicAdd(&overflow[bin + 1], b1 < 0xFF ? 0xFFFFFFFFu : 0xFFu);
    if (c2) atomicAdd(&overflow[bin + 2], b2 < 0xFF ? 0xFFFFFFFFu : 0xFFu);
    if (c3) atomicAdd(&overflow[bin + 3], b3 < 0xFF ? 0xFFFFFFFFu : 0xFFu);
}

extern "C" __global__ void histo_main(const uchar4 *map, unsigned num, unsigned eye_min, unsigned eye_max,
                                      unsigned histo_height, unsigned histo_width, unsigned *subhisto,
                                      unsigned *histo16, unsigned *overflow)
{
    __shared__ unsigned sub[KB][256];
    const unsigned block = eye_min + blockIdx.y;
    unsigned *flat = &sub[0][0];
    for (int i = threadIdx.x; i < BINS_PER_BLOCK / 4; i += blockDim.x) flat[i] = 0;
    __syncthreads();

    unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.y == 0) {
        while (p < num) {
            uchar4 e = map[p];
            p += blockDim.x * gridDim.x;
            count_inside(overflow, sub, block, e);
            count_outside(histo16, eye_min, eye_max, e);
        }
    } else {
        while (p < num) {
            uchar4 e = map[p];
            p += blockDim.x * gridDim.x;
            count_inside(overflow, sub, block, e);
        }
    }

    const unsigned words = histo_height * histo_width / 4;
    const unsigned first = block * (BINS_PER_BLOCK / 4);
    unsigned *out = subhisto + blockIdx.x * words + first;
    __syncthreads();
    for (unsigned i = threadIdx.x; i < BINS_PER_BLOCK / 4 && first + i < words; i += blockDim.x) out[i] = flat[i];
}

__device__ __forceinline__ unsigned char sat8(unsigned v) { return (unsigned char)min(v, 255u); }

extern "C" __global__ void histo_final(unsigned eye_min, unsigned eye_max, unsigned histo_height,
                                       unsigned histo_width, const unsigned *subhisto, unsigned *histo16,
                                       unsigned *overflow, uchar4 *out)
{
    const unsigned start = threadIdx.x + blockIdx.x * blockDim.x;
    const unsigned step = gridDim.x * blockDim.x;
    const unsigned total = histo_height * histo_width;
    const unsigned low = eye_min * BINS_PER_BLOCK;
    const unsigned high = min((eye_max + 1) * BINS_PER_BLOCK, total);
    ushort4 *h16 = (ushort4 *)histo16;
    uint4 *ov = (uint4 *)overflow;

    for (unsigned i = start; i < low / 4; i += step) {
        ushort4 v = h16[i];
        h16[i] = make_ushort4(0, 0, 0, 0);
        out[i] = make_uchar4(sat8(v.x), sat8(v.y), sat8(v.z), sat8(v.w));
    }
    for (unsigned i = low / 4 + start; i < high / 4; i += step) {
        uint4 v = ov[i];
        ov[i] = make_uint4(0, 0, 0, 0);
#pragma unroll
        for (int j = 0; j < BLOCK_X; j++) {
            unsigned packed = subhisto[i + j * (total / 4)];
            v.x += packed & 0xFF;
            v.y += (packed >> 8) & 0xFF;
            v.z += (packed >> 16) & 0xFF;
            v.w += packed >> 24;
        }
        out[i] = make_uchar4(sat8(v.x), sat8(v.y), sat8(v.z), sat8(v.w));
    }
    for (unsigned i = high / 4 + start; i < total / 4; i += step) {
        ushort4 v = h16[i];
        h16[i] = make_ushort4(0, 0, 0, 0);
        out[i] = make_uchar4(sat8(v.x), sat8(v.y), sat8(v.z), sat8(v.w));
    }
}
