// Parboil MRI-Q: the Q matrix of non-Cartesian MRI reconstruction, written for gtlm from the
// algorithm's description. For every voxel x and every k-space sample k:
//   Q(x) = sum_k |phi(k)|^2 * exp(i * 2 pi * k . x)
// ComputePhiMag: |phi|^2 of each sample (512 threads per CTA). ComputeQ: one thread per voxel
// (256 per CTA) accumulates over the samples of one chunk, which the host copies to constant
// memory (1024 samples of (kx, ky, kz, |phi|^2) per launch, as the original): every thread of
// a warp reads the same sample, a constant-cache broadcast. x, y, z and the running Qr, Qi are
// read and written once per launch per voxel (coalesced). sinf/cosf are the precise library
// functions, as in the original (their slow path for large arguments uses local memory).
#define KERNEL_PHI_MAG_THREADS_PER_BLOCK 512
#define KERNEL_Q_THREADS_PER_BLOCK 256
#define KERNEL_Q_K_ELEMS_PER_GRID 1024
#define PIx2 6.2831853071795864769252867665590058f

struct kValues {
    float Kx, Ky, Kz, PhiMag;
};

__constant__ kValues ck[KERNEL_Q_K_ELEMS_PER_GRID];

extern "C" __global__ void ComputePhiMag_GPU(const float *phiR, const float *phiI, float *phiMag, int numK)
{
    int indexK = blockIdx.x * KERNEL_PHI_MAG_THREADS_PER_BLOCK + threadIdx.x;
    if (indexK < numK) {
        float real = phiR[indexK], imag = phiI[indexK];
        phiMag[indexK] = real * real + imag * imag;
    }
}

extern "C" __global__ void ComputeQ_GPU(int numK, const float *x, const float *y, const float *z, float *Qr,
                                        float *Qi)
{
    int xIndex = blockIdx.x * KERNEL_Q_THREADS_PER_BLOCK + threadIdx.x;
    float sX = x[xIndex], sY = y[xIndex], sZ = z[xIndex];
    float sQr = Qr[xIndex], sQi = Qi[xIndex];
    for (int k = 0; k < numK; k++) {
        float expArg = PIx2 * (ck[k].Kx * sX + ck[k].Ky * sY + ck[k].Kz * sZ);
        sQr += ck[k].PhiMag * cosf(expArg);
        sQi += ck[k].PhiMag * sinf(expArg);
    }
    Qr[xIndex] = sQr;
    Qi[xIndex] = sQi;
}
