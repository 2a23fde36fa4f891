// Heart Wall (Rodinia): tracks points of the inner and outer walls of a heart through a sequence
// of ultrasound frames by template matching. Written for gtlm from the algorithm's description.
//
// One launch per frame, one CTA per tracked point (the original tracks 20 endocardial and 31
// epicardial points: 51 CTAs), 768 threads (the original's NUMBER_THREADS). Frames and templates
// are float arrays, as in the original, holding 8-bit pixel values. Each CTA:
//  1. copies its point's template ((2t+1)^2 pixels, cut from the first frame) from global memory
//     and the frame window around the point's current position, (2t+1+2m)^2 pixels for a search
//     range of +-m, into shared memory (neighbouring points' windows overlap: the CTAs share
//     frame lines, as in the original);
//  2. for every displacement (one per thread, strided), correlates the template with the window
//     (sums of T*I, I and I^2 over the template area) and computes the normalised cross
//     correlation numerator / sqrt(window variance); the sums are exact integers (8-bit pixels),
//     the score one correctly rounded float division and square root, so a CPU reference
//     reproduces every score bit for bit;
//  3. reduces the best score (lowest displacement index on ties) in a shared tree;
//  4. thread 0 moves the point and records it.
// The original computes a full 2-D convolution and cumulative sums in per-point global buffers;
// we correlate only the displacements the search range allows (the same result) in shared memory.
#define THREADS 768

// At most 40 registers, so that one 768-thread CTA fits a Fermi SM's 32 K registers.
extern "C" __global__ void __maxnreg__(40)
    heartwall_track(const float *frame, int rows, int cols, const float *templates,
                                           int *pos_row, int *pos_col, int *history, int t, int m)
{
    extern __shared__ int smem[];
    int side = 2 * t + 1, wside = side + 2 * m, npos = (2 * m + 1) * (2 * m + 1);
    int *tmpl = smem, *win = tmpl + side * side;
    float *score = (float *)(win + wside * wside);
    float *best = score + npos;
    int *best_at = (int *)(best + THREADS);
    int p = blockIdx.x, tid = threadIdx.x;
    int r0 = pos_row[p] - t - m, c0 = pos_col[p] - t - m;

    for (int i = tid; i < side * side; i += THREADS) tmpl[i] = (int)templates[p * side * side + i];
    for (int i = tid; i < wside * wside; i += THREADS) {
        int r = min(max(r0 + i / wside, 0), rows - 1), c = min(max(c0 + i % wside, 0), cols - 1);
        win[i] = (int)frame[r * cols + c];
    }
    __syncthreads();

    int n = side * side;
    for (int d = tid; d < npos; d += THREADS) {
        int dr = d / (2 * m + 1), dc = d % (2 * m + 1);
        int sti = 0, si = 0, sii = 0, st = 0;
        for (int i = 0; i < side; i++)
            for (int j = 0; j < side; j++) {
                int a = tmpl[i * side + j], b = win[(dr + i) * wside + dc + j];
                sti += a * b;
                si += b;
                sii += b * b;
                st += a;
            }
        long long num = (long long)n * sti - (long long)si * st;
        long long var = (long long)n * sii - (long long)si * si;
        score[d] = (float)num / sqrtf((float)(var + 1));
    }
    __syncthreads();

    float v = -3.0e38f;
    int at = npos;
    for (int d = tid; d < npos; d += THREADS)
        if (score[d] > v) v = score[d], at = d;
    best[tid] = v;
    best_at[tid] = at;
    __syncthreads();
    for (int s = 512; s > 0; s >>= 1) { // 768 = 512 + 256: the first step folds the top third
        if (tid < s && tid + s < THREADS) {
            float o = best[tid + s];
            int oa = best_at[tid + s];
            if (o > best[tid] || (o == best[tid] && oa < best_at[tid])) best[tid] = o, best_at[tid] = oa;
        }
        __syncthreads();
    }
    if (tid == 0) {
        int d = best_at[0];
        int nr = pos_row[p] + d / (2 * m + 1) - m, nc = pos_col[p] + d % (2 * m + 1) - m;
        pos_row[p] = nr;
        pos_col[p] = nc;
        history[2 * p] = nr;
        history[2 * p + 1] = nc;
    }
}
