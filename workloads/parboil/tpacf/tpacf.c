/* TPACF driver (Parboil): a synthetic catalogue of `points` galaxies and `sets` random catalogues
 * of the same size. Galaxies cluster: 70 % lie around 24 cluster centres with a Gaussian angular
 * spread of about 1 degree, the rest are uniform on the sky, so the data-data histogram differs
 * from the random ones as in a real survey; random catalogues are uniform on the sphere. Bins:
 * 20 logarithmic angular bins from 1 to 10^4 arcminutes (5 per decade), plus one slot below and
 * one above. One launch of gen_hists with 2 * sets + 1 CTAs; every histogram is verified
 * exactly against a CPU pair count that rounds the dot product in the kernel's order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_parboil_tpacf_ptx[], workload_parboil_tpacf_ptxas[];

#define NUM_BINS 20
#define SLOTS (NUM_BINS + 2)
#define BLOCK 256

static void unit_vector(double ra, double dec, float *x, float *y, float *z)
{
    *x = (float)(cos(dec) * cos(ra)), *y = (float)(cos(dec) * sin(ra)), *z = (float)sin(dec);
}

static void uniform_point(wl_rng *r, float *x, float *y, float *z)
{
    double zz = 2 * wl_rng_unit(r) - 1, phi = 6.283185307179586 * wl_rng_unit(r);
    unit_vector(phi, asin(zz), x, y, z);
}

static double gauss(wl_rng *r)
{
    double u1 = wl_rng_unit(r), u2 = wl_rng_unit(r);
    return sqrt(-2.0 * log(1.0 - u1)) * cos(6.283185307179586 * u2);
}

static int bin_of(const float *binb, float dot)
{
    int lo = 0, hi = NUM_BINS + 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (dot >= binb[mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

static void cpu_hist(const float *x, const float *y, const float *z, int n, int s1, int s2, const float *binb,
                     uint64_t *h)
{
    const float *x1 = x + (size_t)s1 * n, *y1 = y + (size_t)s1 * n, *z1 = z + (size_t)s1 * n;
    const float *x2 = x + (size_t)s2 * n, *y2 = y + (size_t)s2 * n, *z2 = z + (size_t)s2 * n;
    memset(h, 0, SLOTS * sizeof *h);
    for (int i = 0; i < n; i++)
        for (int j = s1 == s2 ? i + 1 : 0; j < n; j++) {
            float a = x1[i] * x2[j], b = y1[i] * y2[j], c = z1[i] * z2[j];
            float s = a + b;
            s = s + c;
            h[bin_of(binb, s)]++;
        }
}

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "points"), sets = (int)wl_param(c, "sets");
    if (n < 1 || n > 100000 || sets < 1 || sets > 1000)
        return wl_fail(c, "need 1 <= points <= 100000 and 1 <= sets <= 1000");
    size_t total = (size_t)(sets + 1) * n, ctas = 2 * (size_t)sets + 1;
    float *x = malloc(total * 4), *y = malloc(total * 4), *z = malloc(total * 4), binb[NUM_BINS + 1];
    uint64_t *got = malloc(ctas * SLOTS * 8), *want = malloc(SLOTS * 8);
    int rc = x && y && z && got && want ? WL_OK : wl_fail(c, "out of host memory");
    wl_rng r;
    wl_rng_seed(&r, 0x79acf);
    float cx[24], cy[24], cz[24];
    for (int k = 0; k < 24; k++) uniform_point(&r, &cx[k], &cy[k], &cz[k]);
    for (int i = 0; rc == WL_OK && i < n; i++) {
        if (wl_rng_unit(&r) < 0.7) { /* around a cluster centre */
            int k = (int)wl_rng_range(&r, 0, 23);
            double ra = atan2(cy[k], cx[k]) + 0.0175 * gauss(&r), dec = asin(cz[k]) + 0.0175 * gauss(&r);
            unit_vector(ra, dec, &x[i], &y[i], &z[i]);
        } else {
            uniform_point(&r, &x[i], &y[i], &z[i]);
        }
    }
    for (size_t i = (size_t)n; rc == WL_OK && i < total; i++) uniform_point(&r, &x[i], &y[i], &z[i]);
    for (int k = 0; k <= NUM_BINS; k++) /* 10^(k/5) arcminutes */
        binb[k] = (float)cos(pow(10.0, k / 5.0) / 60.0 * 3.141592653589793 / 180.0);
    if (rc == WL_OK) fprintf(c->out, "TPACF: %d points, %d random sets, %zu CTAs\n", n, sets, ctas);
    gtlm_devptr dx = 0, dy = 0, dz = 0, dh = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dx, x, total * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dy, y, total * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dz, z, total * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &dh, ctas * SLOTS * 8);
    if (rc == WL_OK)
        rc = wl_check(c, gtlm_memcpy_to_symbol(c->sim, c->mod, "binb", binb, sizeof binb, 0),
                      "gtlm_memcpy_to_symbol(binb)");
    if (rc == WL_OK) {
        const void *a[] = {&dh, &dx, &dy, &dz, &sets, &n};
        const size_t s[] = {8, 8, 8, 8, 4, 4};
        rc = wl_launch(c, "gen_hists", (unsigned)ctas, 1, 1, BLOCK, 1, 1, 0, a, s, 6);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dh, 8);
    if (rc == WL_OK) rc = wl_download(c, got, dh, ctas * SLOTS * 8);
    long bad = 0;
    for (size_t b = 0; rc == WL_OK && b < ctas; b++) {
        int s1 = b == 0 ? 0 : b <= (size_t)sets ? 0 : (int)b - sets, s2 = b == 0 ? 0 : b <= (size_t)sets ? (int)b : s1;
        cpu_hist(x, y, z, n, s1, s2, binb, want);
        for (int k = 0; k < SLOTS; k++)
            if (got[b * SLOTS + k] != want[k] && bad++ < 5)
                wl_fail(c, "histogram of CTA %zu slot %d: %llu, expected %llu", b, k,
                        (unsigned long long)got[b * SLOTS + k], (unsigned long long)want[k]);
    }
    if (rc == WL_OK && bad) rc = wl_fail(c, "%ld histogram counts differ", bad);
    if (rc == WL_OK) { /* the correlation the histograms are for (printed, for the record) */
        uint64_t dd = 0, dr = 0, rr = 0;
        for (int k = 1; k <= NUM_BINS; k++) {
            dd += got[k];
            for (int s = 1; s <= sets; s++) dr += got[(size_t)s * SLOTS + k], rr += got[(size_t)(sets + s) * SLOTS + k];
        }
        fprintf(c->out, "TPACF: pairs within 1'..10^4': DD %llu, DR %llu, RR %llu\n", (unsigned long long)dd,
                (unsigned long long)dr, (unsigned long long)rr);
    }
    gtlm_free(c->sim, dx), gtlm_free(c->sim, dy), gtlm_free(c->sim, dz), gtlm_free(c->sim, dh);
    free(x), free(y), free(z), free(got), free(want);
    return rc;
}

const wl_desc workload_parboil_tpacf = {
    .name = "TPACF",
    .suite = "parboil",
    .description = "two-point angular correlation histograms: a clustered catalogue of `points` galaxies against "
                   "itself and `sets` uniform random catalogues (2 * sets + 1 CTAs)",
    .kernels = "gen_hists",
    .ptx = workload_parboil_tpacf_ptx,
    .ptxas = workload_parboil_tpacf_ptxas,
    .params = {"points", "sets"},
    .tiny = {200, 2},
    .sim = {487, 34}, /* 69 CTAs: every SM of a 68-SM GPU busy, a third of the paper run */
    .paper = {487, 100},
    .run = run,
};
