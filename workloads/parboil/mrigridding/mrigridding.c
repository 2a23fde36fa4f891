/* MRI-Gridding driver (Parboil): `samples` k-space samples of a 3-D radial acquisition (spokes
 * through the centre of a grid of side `grid`, one sample per grid unit along each spoke, spoke
 * directions spread over the sphere by a golden-angle spiral), so the sample density falls off
 * as 1/r^2 from the centre as in a real radial scan and the bins are very unevenly filled.
 * Random complex sample values. Kaiser-Bessel kernel of width 4 grid units (cutoff radius 2,
 * oversampling 2, beta = pi * sqrt(8.2)) tabulated in 256 entries against the squared distance.
 * Four launches: binning, scan, reorder, gridding.
 *
 * Verified against a CPU gridding in double over the same bins and table entries. The samples of
 * a bin are in atomic (schedule) order, so the GPU's float sums may be ordered differently from
 * any fixed order: a float sum of k terms is within k * 2^-24 * sum|terms| of the exact sum (plus
 * one rounding per product), and the check allows twice that per grid point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_parboil_mrigridding_ptx[], workload_parboil_mrigridding_ptxas[];

#define TILE 8
#define TPB 512
#define LUT_SIZE 256
#define SCAN_T 1024

typedef struct sample {
    float x, y, z, re, im, pad[3];
} sample;

static double bessel_i0(double x)
{
    double sum = 1, term = 1;
    for (int k = 1; k < 50; k++) {
        term *= (x / (2 * k)) * (x / (2 * k));
        sum += term;
    }
    return sum;
}

static int run(wl_ctx *c)
{
    int gs = (int)wl_param(c, "grid"), n = (int)wl_param(c, "samples");
    if (gs < TILE || gs % TILE || gs > 512 || n < 1 || n > (1 << 24))
        return wl_fail(c, "grid must be a multiple of 8 up to 512, 1 <= samples <= 2^24");
    int bpd = gs / TILE, n_bins = bpd * bpd * bpd;
    size_t points = (size_t)gs * gs * gs;
    const float cutoff2 = 4.0f;
    float lut[LUT_SIZE], scale = LUT_SIZE / cutoff2;
    double beta = 3.141592653589793 * sqrt(8.2);
    for (int k = 0; k < LUT_SIZE; k++) {
        double d2 = (k + 0.5) * cutoff2 / LUT_SIZE, f = 1 - d2 / cutoff2;
        lut[k] = (float)(bessel_i0(beta * sqrt(f > 0 ? f : 0)) / bessel_i0(beta));
    }
    sample *s = calloc((size_t)n, sizeof *s);
    float *gre = malloc(points * 4), *gim = malloc(points * 4), *gd = malloc(points * 4);
    int rc = s && gre && gim && gd ? WL_OK : wl_fail(c, "out of host memory");
    wl_rng r;
    wl_rng_seed(&r, 0x6a1dd);
    int per_spoke = gs, spokes = (n + per_spoke - 1) / per_spoke;
    for (int i = 0; rc == WL_OK && i < n; i++) {
        int sp = i / per_spoke, t = i % per_spoke;
        double zc = 1 - (2.0 * sp + 1) / spokes, rr = sqrt(1 - zc * zc), phi = sp * 2.399963229728653;
        double d = t - per_spoke / 2.0 + 0.5, half = gs / 2.0, lim = gs - 1e-3;
        double p[3] = {half + d * rr * cos(phi), half + d * rr * sin(phi), half + d * zc};
        for (int k = 0; k < 3; k++) p[k] = p[k] < 0 ? 0 : p[k] > lim ? lim : p[k];
        s[i].x = (float)p[0], s[i].y = (float)p[1], s[i].z = (float)p[2];
        s[i].re = (float)(2 * wl_rng_unit(&r) - 1), s[i].im = (float)(2 * wl_rng_unit(&r) - 1);
    }
    if (rc == WL_OK)
        fprintf(c->out, "MRI-Gridding: %d samples on %d radial spokes, grid %d^3, %d bins, %d gridding CTAs of %d\n",
                n, spokes, gs, n_bins, n_bins, TPB);
    gtlm_devptr din = 0, dcount = 0, dbin = 0, dslot = 0, dstart = 0, dsorted = 0, dre = 0, dim = 0, ddens = 0;
    if (rc == WL_OK) rc = wl_upload(c, &din, s, (size_t)n * sizeof *s);
    if (rc == WL_OK) rc = wl_alloc(c, &dcount, (size_t)n_bins * 4);
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, dcount, 0, (size_t)n_bins * 4), "gtlm_memset");
    if (rc == WL_OK) rc = wl_alloc(c, &dbin, (size_t)n * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dslot, (size_t)n * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dstart, ((size_t)n_bins + 1) * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dsorted, (size_t)n * sizeof *s);
    if (rc == WL_OK) rc = wl_alloc(c, &dre, points * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dim, points * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &ddens, points * 4);
    if (rc == WL_OK)
        rc = wl_check(c, gtlm_memcpy_to_symbol(c->sim, c->mod, "lut", lut, sizeof lut, 0), "gtlm_memcpy_to_symbol(lut)");
    unsigned sgrid = (unsigned)((n + TPB - 1) / TPB);
    if (rc == WL_OK) {
        const void *a[] = {&din, &n, &bpd, &dcount, &dbin, &dslot};
        const size_t z[] = {8, 4, 4, 8, 8, 8};
        rc = wl_launch(c, "binning_kernel", sgrid, 1, 1, TPB, 1, 1, 0, a, z, 6);
    }
    if (rc == WL_OK) {
        const void *a[] = {&dcount, &dstart, &n_bins};
        const size_t z[] = {8, 8, 4};
        rc = wl_launch(c, "scan_kernel", 1, 1, 1, SCAN_T, 1, 1, 0, a, z, 3);
    }
    if (rc == WL_OK) {
        const void *a[] = {&din, &n, &dbin, &dslot, &dstart, &dsorted};
        const size_t z[] = {8, 4, 8, 8, 8, 8};
        rc = wl_launch(c, "reorder_kernel", sgrid, 1, 1, TPB, 1, 1, 0, a, z, 6);
    }
    if (rc == WL_OK) {
        const void *a[] = {&dsorted, &dstart, &bpd, &cutoff2, &dre, &dim, &ddens};
        const size_t z[] = {8, 8, 4, 4, 8, 8, 8};
        rc = wl_launch(c, "gridding_GPU", (unsigned)n_bins, 1, 1, TPB, 1, 1, 0, a, z, 7);
    }
    int32_t *start = malloc(((size_t)n_bins + 1) * 4), *count = calloc((size_t)n_bins, 4);
    if (rc == WL_OK && !(start && count)) rc = wl_fail(c, "out of host memory");
    if (rc == WL_OK) rc = wl_download(c, start, dstart, ((size_t)n_bins + 1) * 4); /* exact: counts only */
    size_t centre = ((size_t)gs / 2 * gs + gs / 2) * gs + gs / 2; /* a point every spoke passes near */
    if (rc == WL_OK) rc = wl_corrupt(c, dre + centre * 4, 4);
    if (rc == WL_OK) rc = wl_download(c, gre, dre, points * 4);
    if (rc == WL_OK) rc = wl_download(c, gim, dim, points * 4);
    if (rc == WL_OK) rc = wl_download(c, gd, ddens, points * 4);
    /* CPU: bins (same rule), their starts, then every grid point over its 27 neighbour bins */
    int *bin = malloc((size_t)n * sizeof *bin), *order = malloc((size_t)n * sizeof *order);
    int32_t *want_start = malloc(((size_t)n_bins + 1) * 4);
    if (rc == WL_OK && !(bin && order && want_start)) rc = wl_fail(c, "out of host memory");
    long bad = 0;
    if (rc == WL_OK) {
        for (int i = 0; i < n; i++) {
            int bx = (int)s[i].x / TILE, by = (int)s[i].y / TILE, bz = (int)s[i].z / TILE;
            bx = bx < bpd ? bx : bpd - 1, by = by < bpd ? by : bpd - 1, bz = bz < bpd ? bz : bpd - 1;
            bin[i] = (bz * bpd + by) * bpd + bx;
            count[bin[i]]++;
        }
        want_start[0] = 0;
        for (int b = 0; b < n_bins; b++) want_start[b + 1] = want_start[b] + count[b];
        if (wl_compare_i32(c, "bin start", start, want_start, (size_t)n_bins + 1)) rc = WL_WRONG;
        memset(count, 0, (size_t)n_bins * 4);
        for (int i = 0; i < n; i++) order[want_start[bin[i]] + count[bin[i]]++] = i;
    }
    for (size_t g = 0; rc == WL_OK && g < points; g++) {
        int px = (int)(g % gs), py = (int)(g / gs % gs), pz = (int)(g / gs / gs);
        int tx = px / TILE, ty = py / TILE, tz = pz / TILE;
        double re = 0, im = 0, dens = 0, mre = 0, mim = 0, md = 0;
        long k = 0;
        for (int nz = tz > 0 ? tz - 1 : 0; nz <= (tz + 1 < bpd ? tz + 1 : bpd - 1); nz++)
            for (int ny = ty > 0 ? ty - 1 : 0; ny <= (ty + 1 < bpd ? ty + 1 : bpd - 1); ny++)
                for (int nx = tx > 0 ? tx - 1 : 0; nx <= (tx + 1 < bpd ? tx + 1 : bpd - 1); nx++) {
                    int b = (nz * bpd + ny) * bpd + nx;
                    for (int j = want_start[b]; j < want_start[b + 1]; j++) {
                        const sample *q = &s[order[j]];
                        float dx = q->x - (float)px, dy = q->y - (float)py, dz = q->z - (float)pz;
                        float a = dx * dx, bb = dy * dy, cc = dz * dz;
                        float d2 = a + bb;
                        d2 = d2 + cc;
                        if (!(d2 < cutoff2)) continue;
                        float prod = d2 * scale;
                        int idx = (int)prod;
                        double w = lut[idx < LUT_SIZE - 1 ? idx : LUT_SIZE - 1];
                        re += w * q->re, im += w * q->im, dens += w;
                        mre += fabs(w * q->re), mim += fabs(w * q->im), md += w;
                        k++;
                    }
                }
        double u = 2.0 * (k + 1) / (1 << 24);
        if ((fabs(gre[g] - re) > u * mre + 1e-30 || fabs(gim[g] - im) > u * mim + 1e-30 ||
             fabs(gd[g] - dens) > u * md + 1e-30) &&
            bad++ < 5)
            wl_fail(c, "grid point (%d,%d,%d): (%.9g, %.9g, density %.9g), expected (%.9g, %.9g, %.9g)", px, py, pz,
                    gre[g], gim[g], gd[g], re, im, dens);
    }
    if (rc == WL_OK && bad) rc = wl_fail(c, "%ld of %zu grid points differ", bad, points);
    gtlm_free(c->sim, din), gtlm_free(c->sim, dcount), gtlm_free(c->sim, dbin), gtlm_free(c->sim, dslot);
    gtlm_free(c->sim, dstart), gtlm_free(c->sim, dsorted), gtlm_free(c->sim, dre), gtlm_free(c->sim, dim);
    gtlm_free(c->sim, ddens);
    free(s), free(gre), free(gim), free(gd), free(start), free(count), free(bin), free(order), free(want_start);
    return rc;
}

const wl_desc workload_parboil_mrigridding = {
    .name = "MRI-Gridding",
    .suite = "parboil",
    .description = "gridding of 3-D radial k-space samples onto a grid^3 Cartesian grid with a Kaiser-Bessel "
                   "kernel: binning, scan, reorder, gridding (one CTA of 512 threads per 8^3 tile)",
    .kernels = "binning_kernel, scan_kernel, reorder_kernel, gridding_GPU",
    .ptx = workload_parboil_mrigridding_ptx,
    .ptxas = workload_parboil_mrigridding_ptxas,
    .params = {"grid", "samples"},
    .tiny = {16, 128},
    .sim = {64, 8192},
    .paper = {128, 65536},
    .run = run,
};
