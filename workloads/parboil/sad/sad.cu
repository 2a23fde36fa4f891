// Parboil SAD: the sum-of-absolute-differences stage of H.264 full-search motion estimation,
// written for gtlm from the algorithm's description. For every 4x4 block of the current frame
// and every displacement (dx, dy) in a +-16 pixel search window (33 x 33 = 1089 positions),
// the SAD against the reference frame; then SADs of the larger H.264 partitions (8x4, 4x8,
// 8x8, then 16x8, 8x16, 16x16) are summed from the smaller ones.
//
// Launch shapes as in the original: mb_sad_calc has one CTA per 4x4 block (grid 4*mbw x 4*mbh,
// 1584 CTAs for a QCIF frame) of 61 threads, each thread covering 18 consecutive search
// positions; larger_sad_calc_8 one CTA per 8x8 block, larger_sad_calc_16 one per macroblock,
// 32 threads looping over the positions. Reference pixels outside the frame are clamped to
// the border: the original reads the reference frame through a 2-D texture with clamping;
// here they are global loads with clamped coordinates. Pixels are unsigned 16-bit, SADs
// unsigned 16-bit, as in the original.
//
// SAD layout: for 4x4 block b (row-major over the frame's 4x4 blocks) and position p,
// sad4[b * 1089 + p]; the larger kinds likewise over their own blocks.
#define RANGE 16
#define DIM 33           // 2 * RANGE + 1
#define POSITIONS 1089   // DIM * DIM
#define POS_PER_THREAD 18

extern "C" __global__ void mb_sad_calc(unsigned short *sad4, const unsigned short *cur, const unsigned short *ref,
                                       int width, int height)
{
    __shared__ unsigned short blk[16];
    int bx = blockIdx.x, by = blockIdx.y; // this CTA's 4x4 block
    if (threadIdx.x < 16) blk[threadIdx.x] = cur[(by * 4 + threadIdx.x / 4) * width + bx * 4 + threadIdx.x % 4];
    __syncthreads();
    int first = threadIdx.x * POS_PER_THREAD;
    unsigned short *out = sad4 + (by * gridDim.x + bx) * POSITIONS;
    for (int p = first; p < first + POS_PER_THREAD && p < POSITIONS; p++) {
        int dy = p / DIM - RANGE, dx = p % DIM - RANGE;
        unsigned int sad = 0;
        for (int y = 0; y < 4; y++) {
            int ry = min(max(by * 4 + y + dy, 0), height - 1);
            for (int x = 0; x < 4; x++) {
                int rx = min(max(bx * 4 + x + dx, 0), width - 1);
                sad += abs((int)ref[ry * width + rx] - (int)blk[y * 4 + x]);
            }
        }
        out[p] = (unsigned short)sad;
    }
}

// The four SADs of a block's quadrants (top-left a, top-right b, bottom-left c, bottom-right
// d, each small_w blocks of the smaller kind per row) summed into the larger partitions of block
// `big`: two horizontal halves (top, bottom), two vertical halves (left, right) and the whole.
__device__ static void combine4(const unsigned short *small, unsigned short *halves_h, unsigned short *halves_v,
                                unsigned short *whole)
{
    int small_w = gridDim.x * 2, big = blockIdx.y * gridDim.x + blockIdx.x;
    int tl = (blockIdx.y * 2) * small_w + blockIdx.x * 2;
    const unsigned short *a = small + tl * POSITIONS, *b = a + POSITIONS, *c = small + (tl + small_w) * POSITIONS,
                         *d = c + POSITIONS;
    for (int p = threadIdx.x; p < POSITIONS; p += blockDim.x) {
        unsigned int va = a[p], vb = b[p], vc = c[p], vd = d[p];
        halves_h[(big * 2) * POSITIONS + p] = (unsigned short)(va + vb);
        halves_h[(big * 2 + 1) * POSITIONS + p] = (unsigned short)(vc + vd);
        halves_v[(big * 2) * POSITIONS + p] = (unsigned short)(va + vc);
        halves_v[(big * 2 + 1) * POSITIONS + p] = (unsigned short)(vb + vd);
        whole[big * POSITIONS + p] = (unsigned short)(va + vb + vc + vd);
    }
}

// One CTA per 8x8 block (grid 2*mbw x 2*mbh): 8x4 (top, bottom), 4x8 (left, right) and 8x8 from
// the four 4x4 SADs. 8x4 and 4x8 count two per 8x8 block, in the 8x8 blocks' order.
extern "C" __global__ void larger_sad_calc_8(unsigned short *sad8x4, unsigned short *sad4x8, unsigned short *sad8,
                                             const unsigned short *sad4)
{
    combine4(sad4, sad8x4, sad4x8, sad8);
}

// One CTA per macroblock (grid mbw x mbh): 16x8, 8x16 and 16x16 from the four 8x8 SADs.
extern "C" __global__ void larger_sad_calc_16(unsigned short *sad16x8, unsigned short *sad8x16,
                                              unsigned short *sad16, const unsigned short *sad8)
{
    combine4(sad8, sad16x8, sad8x16, sad16);
}
