// Parboil MRI-Gridding: resampling non-Cartesian k-space samples onto a Cartesian grid with a
// Kaiser-Bessel kernel, written for gtlm from the algorithm's description. Four stages, as in
// the original's GPU path:
//  1. binning_kernel: each sample's bin (the 8 x 8 x 8 tile of grid points it lies in) and its
//     slot in that bin (atomicAdd on the bin's counter, so the order inside a bin is the
//     schedule's);
//  2. scan_kernel: exclusive prefix sum of the bin counts (one CTA of 1024 threads, chunk by
//     chunk, shared-memory scan) giving each bin's start;
//  3. reorder_kernel: samples copied to their bin's range (a scatter);
//  4. gridding_GPU: one CTA per tile, one thread per grid point (8 x 8 x 8 = 512); for each of the
//     27 bins around the tile, the CTA stages the bin's samples in shared memory in batches and
//     every thread adds the samples within the kernel radius, weighted by the Kaiser-Bessel
//     kernel read from a table in constant memory indexed by the squared distance.
// Squared distances are rounded step by step (no fused multiply-add) so that the CPU reference
// picks the same table entries.
#define TILE 8
#define TPB 512
#define LUT_SIZE 256
#define SCAN_T 1024

struct sample {
    float x, y, z, re, im, pad0, pad1, pad2; // 32 bytes, as the original's ReconstructionSample
};

__constant__ float lut[LUT_SIZE]; // kernel weight against squared distance / cutoff^2 * LUT_SIZE

extern "C" __global__ void binning_kernel(const sample *in, int n, int bins_per_dim, int *bin_count, int *bin_of,
                                          int *slot_of)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    sample s = in[i];
    int bx = min((int)s.x / TILE, bins_per_dim - 1), by = min((int)s.y / TILE, bins_per_dim - 1);
    int bz = min((int)s.z / TILE, bins_per_dim - 1);
    int b = (bz * bins_per_dim + by) * bins_per_dim + bx;
    bin_of[i] = b;
    slot_of[i] = atomicAdd(&bin_count[b], 1);
}

// bin_start[b] = sum of bin_count[0..b); bin_start[n_bins] = total.
extern "C" __global__ void scan_kernel(const int *bin_count, int *bin_start, int n_bins)
{
    __shared__ int buf[SCAN_T];
    __shared__ int carry;
    if (threadIdx.x == 0) carry = 0;
    for (int base = 0; base <= n_bins; base += SCAN_T) {
        int i = base + threadIdx.x;
        int v = i < n_bins ? bin_count[i] : 0;
        __syncthreads();
        buf[threadIdx.x] = v;
        __syncthreads();
        for (int off = 1; off < SCAN_T; off *= 2) { // Hillis-Steele inclusive scan
            int t = threadIdx.x >= off ? buf[threadIdx.x - off] : 0;
            __syncthreads();
            buf[threadIdx.x] += t;
            __syncthreads();
        }
        if (i <= n_bins) bin_start[i] = carry + buf[threadIdx.x] - v;
        __syncthreads();
        if (threadIdx.x == SCAN_T - 1) carry += buf[SCAN_T - 1];
    }
}

extern "C" __global__ void reorder_kernel(const sample *in, int n, const int *bin_of, const int *slot_of,
                                          const int *bin_start, sample *sorted)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) sorted[bin_start[bin_of[i]] + slot_of[i]] = in[i];
}

extern "C" __global__ void gridding_GPU(const sample *sorted, const int *bin_start, int bins_per_dim, float cutoff2,
                                        float *grid_re, float *grid_im, float *density)
{
    __shared__ float sx[TPB], sy[TPB], sz[TPB], sre[TPB], sim[TPB];
    int tiles = bins_per_dim, t = blockIdx.x;
    int tx = t % tiles, ty = t / tiles % tiles, tz = t / tiles / tiles;
    int px = tx * TILE + threadIdx.x % TILE, py = ty * TILE + threadIdx.x / TILE % TILE;
    int pz = tz * TILE + threadIdx.x / (TILE * TILE);
    float fx = (float)px, fy = (float)py, fz = (float)pz;
    float re = 0, im = 0, dens = 0, scale = LUT_SIZE / cutoff2;
    for (int nz = max(tz - 1, 0); nz <= min(tz + 1, tiles - 1); nz++)
        for (int ny = max(ty - 1, 0); ny <= min(ty + 1, tiles - 1); ny++)
            for (int nx = max(tx - 1, 0); nx <= min(tx + 1, tiles - 1); nx++) {
                int b = (nz * tiles + ny) * tiles + nx, start = bin_start[b], end = bin_start[b + 1];
                for (int base = start; base < end; base += TPB) {
                    __syncthreads();
                    if (base + threadIdx.x < end) {
                        sample s = sorted[base + threadIdx.x];
                        sx[threadIdx.x] = s.x, sy[threadIdx.x] = s.y, sz[threadIdx.x] = s.z;
                        sre[threadIdx.x] = s.re, sim[threadIdx.x] = s.im;
                    }
                    __syncthreads();
                    int cnt = min(TPB, end - base);
                    for (int j = 0; j < cnt; j++) {
                        float dx = __fsub_rn(sx[j], fx), dy = __fsub_rn(sy[j], fy), dz = __fsub_rn(sz[j], fz);
                        float d2 = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
                        if (d2 < cutoff2) {
                            float w = lut[min((int)__fmul_rn(d2, scale), LUT_SIZE - 1)];
                            re += w * sre[j];
                            im += w * sim[j];
                            dens += w;
                        }
                    }
                }
            }
    int g = (pz * tiles * TILE + py) * tiles * TILE + px;
    grid_re[g] = re;
    grid_im[g] = im;
    density[g] = dens;
}
