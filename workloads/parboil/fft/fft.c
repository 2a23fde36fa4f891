/* FFT driver (Parboil): `batch` complex signals of length n (a power of two), each a sum of a few
 * sinusoids plus noise, transformed by log2(n) launches of GPU_FFT_Global (grid n/2/256 x batch,
 * block 256). Verified per signal against a CPU double-precision FFT by the relative L2 error.
 * Bound: each pass is unitary up to a factor sqrt(2) per butterfly, and adds per element the
 * twiddle's error (sin.approx/cos.approx: absolute error at most 2^-20.9 on [-pi, pi], PTX ISA)
 * and three float roundings, relative to the RMS magnitude; over log2(n) passes the relative
 * RMS error is at most log2(n) * (2^-20.9 + 3 * 2^-24). The check allows 4 times that; one
 * corrupted element of a signal of n elements moves it by about 2^-1 / sqrt(n), far above. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_parboil_fft_ptx[], workload_parboil_fft_ptxas[];

#define BLOCK 256

static void cpu_fft(double *re, double *im, int n) /* in place, natural order, forward */
{
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            double t = re[i]; re[i] = re[j]; re[j] = t;
            t = im[i]; im[i] = im[j]; im[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        double ang = -2 * 3.141592653589793 / len;
        for (int i = 0; i < n; i += len)
            for (int k = 0; k < len / 2; k++) {
                double c = cos(ang * k), s = sin(ang * k);
                double xr = re[i + k + len / 2] * c - im[i + k + len / 2] * s;
                double xi = re[i + k + len / 2] * s + im[i + k + len / 2] * c;
                re[i + k + len / 2] = re[i + k] - xr, im[i + k + len / 2] = im[i + k] - xi;
                re[i + k] += xr, im[i + k] += xi;
            }
    }
}

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "n"), batch = (int)wl_param(c, "batch");
    if (n < 2 || (n & (n - 1)) || n > (1 << 24) || batch < 1 || batch > 65535 || (long)n * batch > (1L << 26))
        return wl_fail(c, "n must be a power of two >= 2, 1 <= batch <= 65535, n * batch <= 2^26");
    size_t total = (size_t)n * batch;
    float *x = malloc(total * 8), *y = malloc(total * 8);
    double *re = malloc((size_t)n * 8), *im = malloc((size_t)n * 8);
    int rc = x && y && re && im ? WL_OK : wl_fail(c, "out of host memory");
    wl_rng r;
    wl_rng_seed(&r, 0xff7);
    for (int b = 0; rc == WL_OK && b < batch; b++) {
        double f[3] = {(double)wl_rng_range(&r, 1, n / 2), (double)wl_rng_range(&r, 1, n / 2), wl_rng_unit(&r) * n / 2};
        for (int i = 0; i < n; i++) {
            double t = 6.283185307179586 * i / n, v = 0, w = 0;
            for (int k = 0; k < 3; k++) v += cos(f[k] * t) / (k + 1), w += sin(f[k] * t) / (k + 2);
            x[2 * ((size_t)b * n + i)] = (float)(v + 0.1 * (wl_rng_unit(&r) - 0.5));
            x[2 * ((size_t)b * n + i) + 1] = (float)(w + 0.1 * (wl_rng_unit(&r) - 0.5));
        }
    }
    int passes = 0;
    while ((1 << passes) < n) passes++;
    if (rc == WL_OK)
        fprintf(c->out, "FFT: %d transforms of %d points, %d passes of %d x %d CTAs\n", batch, n, passes,
                (n / 2 + BLOCK - 1) / BLOCK, batch);
    gtlm_devptr d[2] = {0, 0};
    if (rc == WL_OK) rc = wl_upload(c, &d[0], x, total * 8);
    if (rc == WL_OK) rc = wl_alloc(c, &d[1], total * 8);
    int cur = 0;
    for (int ns = 1; rc == WL_OK && ns < n; ns *= 2, cur ^= 1) {
        const void *a[] = {&d[cur], &d[cur ^ 1], &n, &ns};
        const size_t s[] = {8, 8, 4, 4};
        rc = wl_launch(c, "GPU_FFT_Global", (unsigned)((n / 2 + BLOCK - 1) / BLOCK), (unsigned)batch, 1, BLOCK, 1, 1,
                       0, a, s, 4);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, d[cur], 8);
    if (rc == WL_OK) rc = wl_download(c, y, d[cur], total * 8);
    double bound = 4 * passes * (pow(2, -20.9) + 3 * pow(2, -24)), worst = 0;
    long bad = 0;
    for (int b = 0; rc == WL_OK && b < batch; b++) {
        for (int i = 0; i < n; i++) re[i] = x[2 * ((size_t)b * n + i)], im[i] = x[2 * ((size_t)b * n + i) + 1];
        cpu_fft(re, im, n);
        double err = 0, norm = 0;
        for (int i = 0; i < n; i++) {
            double dr = y[2 * ((size_t)b * n + i)] - re[i], di = y[2 * ((size_t)b * n + i) + 1] - im[i];
            err += dr * dr + di * di, norm += re[i] * re[i] + im[i] * im[i];
        }
        double rel = sqrt(err / norm);
        if (rel > worst) worst = rel;
        if (!(rel <= bound) && bad++ < 5) wl_fail(c, "transform %d: relative L2 error %.3g > %.3g", b, rel, bound);
    }
    if (rc == WL_OK) fprintf(c->out, "FFT: largest relative L2 error %.3g (bound %.3g)\n", worst, bound);
    if (rc == WL_OK && bad) rc = wl_fail(c, "%ld of %d transforms differ", bad, batch);
    gtlm_free(c->sim, d[0]), gtlm_free(c->sim, d[1]);
    free(x), free(y), free(re), free(im);
    return rc;
}

const wl_desc workload_parboil_fft = {
    .name = "FFT",
    .suite = "parboil",
    .description = "batched complex radix-2 Stockham FFT, one global-memory pass per launch: batch transforms of "
                   "n points",
    .kernels = "GPU_FFT_Global",
    .ptx = workload_parboil_fft_ptx,
    .ptxas = workload_parboil_fft_ptxas,
    .params = {"n", "batch"},
    .tiny = {256, 4},
    .sim = {1024, 1024}, /* 8 MB per buffer: beyond every L2 of configs/ */
    .paper = {1024, 4096},
    .run = run,
};
