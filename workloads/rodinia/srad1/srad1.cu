// SRAD v1 (Rodinia): speckle-reducing anisotropic diffusion of an Nr x Nc image stored column
// major (element ei = row + Nr*col). Written for gtlm from the algorithm's description.
//
// Original launch shapes, kept: every kernel is a 1-D grid of ceil(Ne/512) CTAs of 512 threads,
// thread = pixel ei (Ne = Nr*Nc).
//   extract  (once)     I = exp(I/255)
//   per iteration:
//   prepare             sums[ei] = I, sums2[ei] = I^2
//   reduce   (repeated) CTA-wide tree sum of 512 elements spaced `mul` apart (shared float[512] x2;
//                       at step s the threads with (tx+1) % s == 0 add the partner s/2 below: the
//                       original's interleaved, divergent pattern), result stored at the CTA's
//                       first element; relaunched on the partial sums (mul *= 512) until one CTA
//                       is left. A partial last CTA reduces the largest power of two of its
//                       elements as a tree and adds the rest serially, as the original.
//   srad                directional differences through the neighbour index arrays iN/iS/jW/jE
//                       (north/south: same line, west/east: Nr elements away), coefficient c
//                       clamped to [0,1]; writes dN, dS, dW, dE, c
//   srad2               divergence from c, c(south), c(east) and the differences;
//                       I += 0.25*lambda*div
//   compress (once)     I = log(I)*255
// The float expressions with double literals (0.5, 1.0/16.0, 0.25, 1.0) are kept: f64 ops.
// Nothing needed fixing (every access stays inside the image).
#define NT 512

extern "C" __global__ void extract(long Ne, float *I)
{
    int ei = blockIdx.x * NT + threadIdx.x;
    if (ei < Ne) I[ei] = exp(I[ei] / 255);
}

extern "C" __global__ void prepare(long Ne, const float *I, float *sums, float *sums2)
{
    int ei = blockIdx.x * NT + threadIdx.x;
    if (ei < Ne) {
        sums[ei] = I[ei];
        sums2[ei] = I[ei] * I[ei];
    }
}

extern "C" __global__ void reduce(long Ne, int no, int mul, float *sums, float *sums2)
{
    __shared__ float psum[NT];
    __shared__ float psum2[NT];
    int tx = threadIdx.x, bx = blockIdx.x;
    int ei = (bx * NT + tx) * mul;
    // Elements this CTA holds: all 512 except in the last CTA of a level.
    int count = bx == gridDim.x - 1 ? NT - (gridDim.x * NT - no) : NT;
    if (ei < Ne) {
        psum[tx] = sums[ei];
        psum2[tx] = sums2[ei];
    }
    __syncthreads();
    if (count == NT) {
        for (int s = 2; s <= NT; s *= 2) {
            if ((tx + 1) % s == 0) {
                psum[tx] += psum[tx - s / 2];
                psum2[tx] += psum2[tx - s / 2];
            }
            __syncthreads();
        }
        if (tx == NT - 1) {
            sums[bx * mul * NT] = psum[tx];
            sums2[bx * mul * NT] = psum2[tx];
        }
    } else {
        int pow2 = 1;
        while (pow2 * 2 <= count) pow2 *= 2;
        for (int s = 2; s <= pow2; s *= 2) {
            if ((tx + 1) % s == 0 && tx < pow2) {
                psum[tx] += psum[tx - s / 2];
                psum2[tx] += psum2[tx - s / 2];
            }
            __syncthreads();
        }
        if (tx == pow2 - 1) {
            for (int j = pow2; j < count; j++) {
                psum[tx] += psum[j];
                psum2[tx] += psum2[j];
            }
            sums[bx * mul * NT] = psum[tx];
            sums2[bx * mul * NT] = psum2[tx];
        }
    }
}

extern "C" __global__ void srad(float lambda, int Nr, int Nc, long Ne, const int *iN, const int *iS, const int *jE,
                                const int *jW, float *dN, float *dS, float *dE, float *dW, float q0sqr, float *c,
                                const float *I)
{
    (void)lambda;
    (void)Nc;
    int ei = blockIdx.x * NT + threadIdx.x;
    int row = ei % Nr, col = ei / Nr;
    if (ei < Ne) {
        float jc = I[ei];
        float n = I[iN[row] + Nr * col] - jc;
        float s = I[iS[row] + Nr * col] - jc;
        float w = I[row + Nr * jW[col]] - jc;
        float e = I[row + Nr * jE[col]] - jc;
        float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
        float l = (n + s + w + e) / jc;
        float num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
        float den = 1 + (.25 * l);
        float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
        float cc = 1.0 / (1.0 + den);
        if (cc < 0)
            cc = 0;
        else if (cc > 1)
            cc = 1;
        dN[ei] = n;
        dS[ei] = s;
        dW[ei] = w;
        dE[ei] = e;
        c[ei] = cc;
    }
}

extern "C" __global__ void srad2(float lambda, int Nr, int Nc, long Ne, const int *iN, const int *iS, const int *jE,
                                 const int *jW, const float *dN, const float *dS, const float *dE, const float *dW,
                                 const float *c, float *I)
{
    (void)Nc;
    (void)iN;
    (void)jW;
    int ei = blockIdx.x * NT + threadIdx.x;
    int row = ei % Nr, col = ei / Nr;
    if (ei < Ne) {
        float cn = c[ei];
        float cs = c[iS[row] + Nr * col];
        float cw = c[ei];
        float ce = c[row + Nr * jE[col]];
        float d = cn * dN[ei] + cs * dS[ei] + cw * dW[ei] + ce * dE[ei];
        I[ei] = I[ei] + 0.25 * lambda * d;
    }
}

extern "C" __global__ void compress(long Ne, float *I)
{
    int ei = blockIdx.x * NT + threadIdx.x;
    if (ei < Ne) I[ei] = log(I[ei]) * 255;
}
