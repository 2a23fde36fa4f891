// ParticleFilter, "float" build (Rodinia; the arrays are double all the same): tracks a disk
// moving through a noisy IszX x IszY x Nfr video of bytes with Nparticles particles. Per frame:
//   likelihood_kernel         each particle moves by (+1, -2) plus Gaussian noise (Box-Muller
//                             from its own LCG seed: A=1103515245, C=12345, M=INT_MAX), lists the
//                             video offsets of its countOnes disk pixels in ind[], sums
//                             ((I-100)^2 - (I-228)^2)/50 over them (pow(double, 2)), scales its
//                             weight by exp(mean); CTA tree sum of the weights in
//                             __shared__ double[512] -> partial_sums[CTA]
//   sum_kernel                thread 0 alone adds the per-CTA partial sums, builds the CDF of the
//                             normalised weights and draws u[0] (see "bug fixed")
//   normalize_weights_kernel  weights /= sum; u[i] = u[0] + i/Nparticles
//   find_index_kernel         each particle searches the CDF linearly for the first entry >= u[i]
//                             (every lane reads the same CDF[x]: broadcast; divergent break) and
//                             resamples its position.
// Written for gtlm from the algorithm's description.
//
// Original launch shape, kept: 1-D grid of ceil(Nparticles/512) CTAs of 512 threads for all four
// kernels, four launches per frame. The video index is x*IszY*Nfr + y*Nfr + frame (frames
// innermost), as the original. f64 exp/log/cos/sqrt and pow(double, 2) are kept.
//
// Bugs fixed:
// - The original normalize_weights_kernel has thread 0 of CTA 0 build the CDF from the weights
//   while the other CTAs are still normalising theirs, and every other CTA reads u[0] before CTA
//   0 has drawn it: results depend on CTA scheduling. Here the serial CDF loop and the u[0] draw
//   run in sum_kernel's thread 0 (one launch earlier, from weights/sum: the same values), so the
//   launch count, the serial single-thread loops and their memory traffic stay, without the race.
// - The original's rounding helper returns the truncated value (it returns `n++`); here
//   positions are rounded to nearest.
#define NT 512
#define PI 3.1415926535897932
#define LCG_A 1103515245u
#define LCG_C 12345u
#define LCG_M 2147483647

// Uniform in [0,1) from the particle's LCG (32-bit wrap-around, as the original's int math).
__device__ double d_randu(int *seed, int index)
{
    int num = (int)(LCG_A * (unsigned)seed[index] + LCG_C);
    seed[index] = num % LCG_M;
    return fabs(seed[index] / ((double)LCG_M));
}

// Standard normal by Box-Muller.
__device__ double d_randn(int *seed, int index)
{
    double u = d_randu(seed, index);
    double v = d_randu(seed, index);
    double cosine = cos(2 * PI * v);
    double rt = -2 * log(u);
    return sqrt(rt) * cosine;
}

__device__ int round_nearest(double v) { return (int)floor(v + 0.5); }

extern "C" __global__ void likelihood_kernel(double *arrayX, double *arrayY, const double *xj, const double *yj,
                                             double *CDF, int *ind, const int *objxy, double *likelihood,
                                             const unsigned char *I, double *u, double *weights, int Nparticles,
                                             int countOnes, int max_size, int k, int IszY, int Nfr, int *seed,
                                             double *partial_sums)
{
    __shared__ double buffer[NT];
    (void)CDF;
    (void)u;
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < Nparticles) {
        arrayX[i] = xj[i];
        arrayY[i] = yj[i];
        weights[i] = 1 / ((double)Nparticles);
        arrayX[i] = arrayX[i] + 1.0 + 5.0 * d_randn(seed, i);
        arrayY[i] = arrayY[i] - 2.0 + 2.0 * d_randn(seed, i);
    }
    __syncthreads();
    if (i < Nparticles) {
        for (int y = 0; y < countOnes; y++) {
            int indX = round_nearest(arrayX[i]) + objxy[y * 2 + 1];
            int indY = round_nearest(arrayY[i]) + objxy[y * 2];
            ind[i * countOnes + y] = abs(indX * IszY * Nfr + indY * Nfr + k);
            if (ind[i * countOnes + y] >= max_size) ind[i * countOnes + y] = 0;
        }
        double sum = 0;
        for (int y = 0; y < countOnes; y++) {
            int v = I[ind[i * countOnes + y]];
            sum += (pow((double)(v - 100), 2) - pow((double)(v - 228), 2)) / 50.0;
        }
        likelihood[i] = sum;
        likelihood[i] = likelihood[i] / countOnes;
        weights[i] = weights[i] * exp(likelihood[i]);
    }
    buffer[threadIdx.x] = 0.0;
    __syncthreads();
    if (i < Nparticles) buffer[threadIdx.x] = weights[i];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buffer[threadIdx.x] += buffer[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial_sums[blockIdx.x] = buffer[0];
}

extern "C" __global__ void sum_kernel(double *partial_sums, int Nparticles, const double *weights, double *CDF,
                                      double *u, int *seed)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i == 0) {
        double sum = 0.0;
        int num_blocks = (int)ceil((double)Nparticles / (double)blockDim.x);
        for (int x = 0; x < num_blocks; x++) sum += partial_sums[x];
        partial_sums[0] = sum;
        // CDF of the normalised weights and the first systematic-resampling point (moved here
        // from normalize_weights_kernel, see the header).
        CDF[0] = weights[0] / sum;
        for (int x = 1; x < Nparticles; x++) CDF[x] = weights[x] / sum + CDF[x - 1];
        u[0] = (1 / ((double)Nparticles)) * d_randu(seed, i);
    }
}

extern "C" __global__ void normalize_weights_kernel(double *weights, int Nparticles, const double *partial_sums,
                                                    double *CDF, double *u, int *seed)
{
    __shared__ double u1, sum_weights;
    (void)CDF;
    (void)seed;
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (threadIdx.x == 0) sum_weights = partial_sums[0];
    __syncthreads();
    if (i < Nparticles) weights[i] = weights[i] / sum_weights;
    __syncthreads();
    if (threadIdx.x == 0) u1 = u[0];
    __syncthreads();
    if (i < Nparticles) u[i] = u1 + i / ((double)Nparticles);
}

extern "C" __global__ void find_index_kernel(const double *arrayX, const double *arrayY, const double *CDF,
                                             const double *u, double *xj, double *yj, const double *weights,
                                             int Nparticles)
{
    (void)weights;
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < Nparticles) {
        int index = -1;
        for (int x = 0; x < Nparticles; x++) {
            if (CDF[x] >= u[i]) {
                index = x;
                break;
            }
        }
        if (index == -1) index = Nparticles - 1;
        xj[i] = arrayX[index];
        yj[i] = arrayY[index];
    }
}
