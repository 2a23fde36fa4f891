// Parboil TPACF: two-point angular correlation function of an astronomical catalogue, written
// for gtlm from the algorithm's description. Points are unit vectors on the sky (x, y, z arrays,
// one data set followed by the random sets). Each CTA builds one histogram of the angular
// distances of a set of point pairs, binned by comparing the dot product with the cosines of
// logarithmically spaced angles (binary search over constant memory):
//   CTA 0: data x data (pairs i < j), CTAs 1..S: data x random set k, CTAs S+1..2S: random set
//   k x itself (pairs i < j): 2S + 1 CTAs of 256 threads (201 for the original's 100 sets).
// Each thread holds one point of the first set in registers; the second set passes through
// shared memory in tiles of 256 points. Counts go to per-warp sub-histograms in shared memory
// (16 per warp, two lanes each, with shared atomics), summed at the end into the CTA's row of
// the output. The dot product is rounded step by step (no fused multiply-add) so that the CPU
// reference bins every pair identically.
#define BLOCK_SIZE 256
#define NUM_BINS 20                 // angular bins; slots 0 and NUM_BINS + 1 take the rest
#define HIST_SLOTS (NUM_BINS + 2)
#define HISTS_PER_WARP 16
#define NUM_HISTS (BLOCK_SIZE / 32 * HISTS_PER_WARP)

__constant__ float binb[NUM_BINS + 1]; // cos of the bin edges, decreasing

__device__ static int find_bin(float dot)
{
    int lo = 0, hi = NUM_BINS + 1; // first edge the dot product reaches, NUM_BINS + 1 if none
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (dot >= binb[mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

extern "C" __global__ void gen_hists(unsigned long long *hists, const float *xs, const float *ys, const float *zs,
                                     int num_sets, int num_elements)
{
    __shared__ unsigned int sub[HIST_SLOTS][NUM_HISTS];
    __shared__ float tx[BLOCK_SIZE], ty[BLOCK_SIZE], tz[BLOCK_SIZE];
    int bx = blockIdx.x, tid = threadIdx.x;
    int set1, set2, self;
    if (bx == 0) set1 = 0, set2 = 0, self = 1;                 // DD
    else if (bx <= num_sets) set1 = 0, set2 = bx, self = 0;    // DR
    else set1 = bx - num_sets, set2 = set1, self = 1;          // RR
    const float *x1 = xs + set1 * num_elements, *y1 = ys + set1 * num_elements, *z1 = zs + set1 * num_elements;
    const float *x2 = xs + set2 * num_elements, *y2 = ys + set2 * num_elements, *z2 = zs + set2 * num_elements;
    for (int i = tid; i < HIST_SLOTS * NUM_HISTS; i += BLOCK_SIZE) (&sub[0][0])[i] = 0;
    int h = tid / 32 * HISTS_PER_WARP + tid % 32 / (32 / HISTS_PER_WARP);
    for (int base1 = 0; base1 < num_elements; base1 += BLOCK_SIZE) {
        int i = base1 + tid;
        float px = 0, py = 0, pz = 0;
        if (i < num_elements) px = x1[i], py = y1[i], pz = z1[i];
        for (int base2 = self ? base1 : 0; base2 < num_elements; base2 += BLOCK_SIZE) {
            __syncthreads();
            if (base2 + tid < num_elements) {
                tx[tid] = x2[base2 + tid];
                ty[tid] = y2[base2 + tid];
                tz[tid] = z2[base2 + tid];
            }
            __syncthreads();
            int n2 = min(BLOCK_SIZE, num_elements - base2);
            if (i >= num_elements) continue;
            for (int j = self && base2 == base1 ? tid + 1 : 0; j < n2; j++) {
                float dot = __fadd_rn(__fadd_rn(__fmul_rn(px, tx[j]), __fmul_rn(py, ty[j])), __fmul_rn(pz, tz[j]));
                atomicAdd(&sub[find_bin(dot)][h], 1u);
            }
        }
    }
    __syncthreads();
    for (int b = tid; b < HIST_SLOTS; b += BLOCK_SIZE) {
        unsigned long long s = 0;
        for (int k = 0; k < NUM_HISTS; k++) s += sub[b][k];
        hists[bx * HIST_SLOTS + b] = s;
    }
}
