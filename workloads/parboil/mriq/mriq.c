/* MRI-Q driver (Parboil): voxels on a cube of side round(numX^(1/3)) (coordinates in voxel units,
 * centred), k-space samples on a stack of spirals (|k| <= 0.5 cycles per voxel, as a 3-D
 * non-Cartesian acquisition samples it), random phi. ComputePhiMag once, then ComputeQ once per
 * chunk of 1024 samples with the chunk in constant memory, as the original's host loop.
 *
 * Verified against a CPU double-precision sum. Tolerance per voxel, from first-order error
 * analysis of the float computation (u = 2^-24): the argument 2 pi k.x is off by at most
 * 6u * 2 pi (|kx x| + |ky y| + |kz z|) (products, sums, the 2 pi scaling), sinf/cosf add 2 ulp
 * (4u), the product with |phi|^2 one rounding, and the running sum at most u * sum of the
 * partial sums' magnitudes. The check uses twice that bound: a wrong or missing sample
 * (|phi|^2 ~ 0.67 on average) is far above it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_parboil_mriq_ptx[], workload_parboil_mriq_ptxas[];

#define PHI_THREADS 512
#define Q_THREADS 256
#define CHUNK 1024

static int run(wl_ctx *c)
{
    int numX = (int)wl_param(c, "voxels"), numK = (int)wl_param(c, "samples");
    if (numX < Q_THREADS || numX % Q_THREADS || numX > (1 << 24) || numK < 1 || numK > (1 << 20))
        return wl_fail(c, "voxels must be a positive multiple of 256 (at most 2^24), 1 <= samples <= 2^20");
    float *x = malloc((size_t)numX * 4), *y = malloc((size_t)numX * 4), *z = malloc((size_t)numX * 4);
    float *qr = malloc((size_t)numX * 4), *qi = malloc((size_t)numX * 4);
    float *phiR = malloc((size_t)numK * 4), *phiI = malloc((size_t)numK * 4), *mag = malloc((size_t)numK * 4);
    float *kv = malloc((size_t)numK * 16); /* kx, ky, kz, |phi|^2 */
    int rc = x && y && z && qr && qi && phiR && phiI && mag && kv ? WL_OK : wl_fail(c, "out of host memory");
    int side = (int)ceil(cbrt((double)numX));
    for (int i = 0; rc == WL_OK && i < numX; i++) {
        x[i] = (float)(i % side - side / 2);
        y[i] = (float)(i / side % side - side / 2);
        z[i] = (float)(i / side / side - side / 2);
    }
    wl_rng r;
    wl_rng_seed(&r, 0x3a1c0);
    int turns = 16, planes = numK / 256 > 1 ? numK / 256 : 1;
    for (int k = 0; rc == WL_OK && k < numK; k++) {
        int plane = k % planes, j = k / planes, per = (numK + planes - 1) / planes;
        double t = (double)j / per, rad = 0.5 * t, ang = 6.283185307179586 * turns * t;
        kv[4 * k] = (float)(rad * cos(ang));
        kv[4 * k + 1] = (float)(rad * sin(ang));
        kv[4 * k + 2] = (float)(planes > 1 ? -0.5 + (double)plane / (planes - 1) : 0.0);
        phiR[k] = (float)wl_rng_unit(&r);
        phiI[k] = (float)wl_rng_unit(&r);
    }
    if (rc == WL_OK)
        fprintf(c->out, "MRI-Q: %d voxels (cube of side %d), %d k-space samples in %d chunks\n", numX, side, numK,
                (numK + CHUNK - 1) / CHUNK);
    gtlm_devptr dpr = 0, dpi = 0, dmag = 0, dx = 0, dy = 0, dz = 0, dqr = 0, dqi = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dpr, phiR, (size_t)numK * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dpi, phiI, (size_t)numK * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dmag, (size_t)numK * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dx, x, (size_t)numX * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dy, y, (size_t)numX * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dz, z, (size_t)numX * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dqr, (size_t)numX * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dqi, (size_t)numX * 4);
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, dqr, 0, (size_t)numX * 4), "gtlm_memset");
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, dqi, 0, (size_t)numX * 4), "gtlm_memset");
    if (rc == WL_OK) {
        const void *a[] = {&dpr, &dpi, &dmag, &numK};
        const size_t s[] = {8, 8, 8, 4};
        rc = wl_launch(c, "ComputePhiMag_GPU", (unsigned)((numK + PHI_THREADS - 1) / PHI_THREADS), 1, 1, PHI_THREADS,
                       1, 1, 0, a, s, 4);
    }
    if (rc == WL_OK) rc = wl_download(c, mag, dmag, (size_t)numK * 4);
    for (int k = 0; rc == WL_OK && k < numK; k++) {
        float want = phiR[k] * phiR[k] + phiI[k] * phiI[k]; /* two roundings either way; the GPU may fuse one */
        if (fabsf(mag[k] - want) > 2.4e-7f * want) rc = wl_fail(c, "phiMag[%d] = %.9g, expected %.9g", k, mag[k], want);
        kv[4 * k + 3] = mag[k];
    }
    for (int k0 = 0; rc == WL_OK && k0 < numK; k0 += CHUNK) {
        int n = numK - k0 < CHUNK ? numK - k0 : CHUNK;
        rc = wl_check(c, gtlm_memcpy_to_symbol(c->sim, c->mod, "ck", kv + 4 * (size_t)k0, (size_t)n * 16, 0),
                      "gtlm_memcpy_to_symbol(ck)");
        const void *a[] = {&n, &dx, &dy, &dz, &dqr, &dqi};
        const size_t s[] = {4, 8, 8, 8, 8, 8};
        if (rc == WL_OK) rc = wl_launch(c, "ComputeQ_GPU", (unsigned)(numX / Q_THREADS), 1, 1, Q_THREADS, 1, 1, 0, a, s, 6);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dqr, 4);
    if (rc == WL_OK) rc = wl_download(c, qr, dqr, (size_t)numX * 4);
    if (rc == WL_OK) rc = wl_download(c, qi, dqi, (size_t)numX * 4);
    const double u = 1.0 / (1 << 24);
    long bad = 0;
    for (int i = 0; rc == WL_OK && i < numX; i++) {
        double sr = 0, si = 0, bound = 0, partial = 0;
        for (int k = 0; k < numK; k++) {
            const float *q = kv + 4 * (size_t)k;
            double arg = 6.283185307179586 * ((double)q[0] * x[i] + (double)q[1] * y[i] + (double)q[2] * z[i]);
            double spread = 6.283185307179586 * (fabs((double)q[0] * x[i]) + fabs((double)q[1] * y[i]) +
                                                 fabs((double)q[2] * z[i]));
            sr += q[3] * cos(arg);
            si += q[3] * sin(arg);
            bound += q[3] * (6 * u * spread + 5 * u);
            partial += fabs(sr) > fabs(si) ? fabs(sr) : fabs(si);
        }
        bound = 2 * (bound + u * partial);
        if ((fabs(qr[i] - sr) > bound || fabs(qi[i] - si) > bound) && bad++ < 5)
            wl_fail(c, "Q[%d] = (%.9g, %.9g), expected (%.9g, %.9g) within %.3g", i, qr[i], qi[i], sr, si, bound);
    }
    if (rc == WL_OK && bad) rc = wl_fail(c, "%ld of %d voxels differ", bad, numX);
    gtlm_free(c->sim, dpr), gtlm_free(c->sim, dpi), gtlm_free(c->sim, dmag), gtlm_free(c->sim, dx);
    gtlm_free(c->sim, dy), gtlm_free(c->sim, dz), gtlm_free(c->sim, dqr), gtlm_free(c->sim, dqi);
    free(x), free(y), free(z), free(qr), free(qi), free(phiR), free(phiI), free(mag), free(kv);
    return rc;
}

const wl_desc workload_parboil_mriq = {
    .name = "MRI-Q",
    .suite = "parboil",
    .description = "MRI reconstruction Q matrix: `voxels` voxels against `samples` non-Cartesian k-space samples "
                   "(1024 per ComputeQ launch, in constant memory)",
    .kernels = "ComputePhiMag_GPU, ComputeQ_GPU",
    .ptx = workload_parboil_mriq_ptx,
    .ptxas = workload_parboil_mriq_ptxas,
    .params = {"voxels", "samples"},
    .tiny = {512, 64},
    .sim = {32768, 512},
    .paper = {32768, 3072},
    .run = run,
};
