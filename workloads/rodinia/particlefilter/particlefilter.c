/* ParticleFilter driver: a synthetic video of bytes, IszX x IszY x Nfr (frames innermost, as the
 * original): background 100, a disk of radius 5 at 228 whose centre starts mid-image and moves by
 * (+1, -2) pixels per frame, Gaussian noise of sigma 5. Particles start at the image centre; per
 * frame 1..Nfr-1 the four kernels run in order. The final positions and weights are compared with
 * the same filter run in double on the CPU. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_rodinia_particlefilter_ptx[], workload_rodinia_particlefilter_ptxas[];

#define NT 512
#define RADIUS 5
#define PI 3.1415926535897932

typedef struct {
    int iszx, iszy, nfr, np, ones, max_size;
    const unsigned char *video;
    const int *objxy;
} pf_setup;

/* Disk offsets (dy, dx) with dx^2 + dy^2 < RADIUS^2: 69 pixels, as the original's disk. */
static int disk_offsets(int *objxy)
{
    int n = 0;
    for (int dx = -RADIUS; dx <= RADIUS; dx++)
        for (int dy = -RADIUS; dy <= RADIUS; dy++)
            if (dx * dx + dy * dy < RADIUS * RADIUS) {
                objxy[2 * n] = dy;
                objxy[2 * n + 1] = dx;
                n++;
            }
    return n;
}

static void make_video(unsigned char *video, int iszx, int iszy, int nfr)
{
    wl_rng r;
    wl_rng_seed(&r, 11);
    for (int x = 0; x < iszx; x++)
        for (int y = 0; y < iszy; y++)
            for (int k = 0; k < nfr; k++) {
                int dx = x - abs(iszx / 2 + k), dy = y - abs(iszy / 2 - 2 * k);
                double level = dx * dx + dy * dy < RADIUS * RADIUS ? 228 : 100;
                double g = sqrt(-2 * log(1.0 - wl_rng_unit(&r))) * cos(2 * PI * wl_rng_unit(&r));
                double v = level + 5 * g;
                video[((size_t)x * iszy + y) * nfr + k] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
}

/* The kernels' random numbers on the CPU: the same LCG with 32-bit wrap-around. */
static double randu(int *seed, int i)
{
    int32_t num = (int32_t)(1103515245u * (uint32_t)seed[i] + 12345u);
    seed[i] = num % INT_MAX;
    return fabs(seed[i] / ((double)INT_MAX));
}

static double randn(int *seed, int i)
{
    double u = randu(seed, i), v = randu(seed, i);
    double cosine = cos(2 * PI * v), rt = -2 * log(u);
    return sqrt(rt) * cosine;
}

/* The whole filter on the CPU in the kernels' order of operations (the CTA tree sums included). */
static void reference(const pf_setup *f, int *seed, double *ax, double *ay, double *w, double *xj, double *yj,
                      double *cdf, double *u)
{
    int np = f->np, blocks = (np + NT - 1) / NT;
    double buf[NT];
    for (int k = 1; k < f->nfr; k++) {
        for (int i = 0; i < np; i++) {
            ax[i] = xj[i];
            ay[i] = yj[i];
            w[i] = 1 / ((double)np);
            ax[i] = ax[i] + 1.0 + 5.0 * randn(seed, i);
            ay[i] = ay[i] - 2.0 + 2.0 * randn(seed, i);
        }
        for (int i = 0; i < np; i++) {
            double l = 0;
            for (int y = 0; y < f->ones; y++) {
                int ix = (int)floor(ax[i] + 0.5) + f->objxy[2 * y + 1];
                int iy = (int)floor(ay[i] + 0.5) + f->objxy[2 * y];
                int idx = abs(ix * f->iszy * f->nfr + iy * f->nfr + k);
                int v = f->video[idx >= f->max_size ? 0 : idx];
                l += (pow((double)(v - 100), 2) - pow((double)(v - 228), 2)) / 50.0;
            }
            w[i] = w[i] * exp(l / f->ones);
        }
        double sum = 0;
        for (int b = 0; b < blocks; b++) {
            for (int t = 0; t < NT; t++) buf[t] = b * NT + t < np ? w[b * NT + t] : 0.0;
            for (int s = NT / 2; s > 0; s >>= 1)
                for (int t = 0; t < s; t++) buf[t] += buf[t + s];
            sum += buf[0];
        }
        cdf[0] = w[0] / sum;
        for (int x = 1; x < np; x++) cdf[x] = w[x] / sum + cdf[x - 1];
        double u1 = (1 / ((double)np)) * randu(seed, 0);
        for (int i = 0; i < np; i++) {
            w[i] = w[i] / sum;
            u[i] = u1 + i / ((double)np);
        }
        for (int i = 0; i < np; i++) {
            int index = np - 1;
            for (int x = 0; x < np; x++)
                if (cdf[x] >= u[i]) {
                    index = x;
                    break;
                }
            xj[i] = ax[index];
            yj[i] = ay[index];
        }
    }
}

static int run(wl_ctx *c)
{
    pf_setup f;
    f.iszx = (int)wl_param(c, "x");
    f.iszy = (int)wl_param(c, "y");
    f.nfr = (int)wl_param(c, "frames");
    f.np = (int)wl_param(c, "particles");
    if (f.nfr < 2 || f.iszx < 4 * RADIUS || f.iszy < 4 * RADIUS)
        return wl_fail(c, "need at least 2 frames and an image of at least %d x %d", 4 * RADIUS, 4 * RADIUS);
    if ((double)f.iszx * f.iszy * f.nfr > INT_MAX / 4) return wl_fail(c, "video too large for int offsets");
    f.max_size = f.iszx * f.iszy * f.nfr;
    int np = f.np, objxy[2 * (2 * RADIUS + 1) * (2 * RADIUS + 1)];
    f.ones = disk_offsets(objxy);
    f.objxy = objxy;
    size_t nd = (size_t)np * sizeof(double);
    unsigned char *video = malloc((size_t)f.max_size);
    int *seed = malloc((size_t)np * sizeof(int)), *seed_ref = malloc((size_t)np * sizeof(int));
    double *host = calloc(9 * (size_t)np, sizeof(double)); /* ax ay w xj yj cdf u, got x, got y */
    double *got_w = malloc(nd);
    int rc = (video && seed && seed_ref && host && got_w) ? WL_OK : WL_ERROR;
    double *ax = host, *ay = host + np, *w = host + 2 * np, *xj = host + 3 * np, *yj = host + 4 * np;
    double *cdf = host + 5 * np, *u = host + 6 * np, *got_x = host + 7 * np, *got_y = host + 8 * np;
    if (rc == WL_OK) {
        make_video(video, f.iszx, f.iszy, f.nfr);
        f.video = video;
        wl_rng r;
        wl_rng_seed(&r, 5);
        for (int i = 0; i < np; i++) seed_ref[i] = seed[i] = (int)wl_rng_range(&r, 1, INT_MAX - 1);
        for (int i = 0; i < np; i++) {
            xj[i] = ax[i] = f.iszx / 2; /* the initial estimate: the image centre */
            yj[i] = ay[i] = f.iszy / 2;
            w[i] = 1 / ((double)np);
        }
    }
    gtlm_devptr dax = 0, day = 0, dxj = 0, dyj = 0, dcdf = 0, du = 0, dw = 0, dl = 0, dind = 0, dobj = 0, dI = 0, dseed = 0,
                dpart = 0;
    int blocks = (np + NT - 1) / NT;
    if (rc == WL_OK) rc = wl_upload(c, &dax, ax, nd);
    if (rc == WL_OK) rc = wl_upload(c, &day, ay, nd);
    if (rc == WL_OK) rc = wl_upload(c, &dxj, xj, nd);
    if (rc == WL_OK) rc = wl_upload(c, &dyj, yj, nd);
    if (rc == WL_OK) rc = wl_upload(c, &dcdf, cdf, nd);
    if (rc == WL_OK) rc = wl_upload(c, &du, u, nd);
    if (rc == WL_OK) rc = wl_upload(c, &dw, w, nd);
    if (rc == WL_OK) rc = wl_upload(c, &dl, cdf, nd); /* likelihood: zeros */
    if (rc == WL_OK) rc = wl_alloc(c, &dind, (size_t)np * f.ones * sizeof(int));
    if (rc == WL_OK) rc = wl_upload(c, &dobj, objxy, (size_t)f.ones * 2 * sizeof(int));
    if (rc == WL_OK) rc = wl_upload(c, &dI, video, (size_t)f.max_size);
    if (rc == WL_OK) rc = wl_upload(c, &dseed, seed, (size_t)np * sizeof(int));
    if (rc == WL_OK) rc = wl_alloc(c, &dpart, (size_t)blocks * sizeof(double));
    for (int k = 1; rc == WL_OK && k < f.nfr; k++) {
        const void *al[] = {&dax, &day, &dxj, &dyj, &dcdf, &dind, &dobj, &dl, &dI, &du, &dw, &np, &f.ones,
                            &f.max_size, &k, &f.iszy, &f.nfr, &dseed, &dpart};
        const size_t sl[] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 8, 8};
        rc = wl_launch(c, "likelihood_kernel", (unsigned)blocks, 1, 1, NT, 1, 1, 0, al, sl, 19);
        const void *as[] = {&dpart, &np, &dw, &dcdf, &du, &dseed};
        const size_t ss[] = {8, 4, 8, 8, 8, 8};
        if (rc == WL_OK) rc = wl_launch(c, "sum_kernel", (unsigned)blocks, 1, 1, NT, 1, 1, 0, as, ss, 6);
        const void *an[] = {&dw, &np, &dpart, &dcdf, &du, &dseed};
        if (rc == WL_OK) rc = wl_launch(c, "normalize_weights_kernel", (unsigned)blocks, 1, 1, NT, 1, 1, 0, an, ss, 6);
        const void *af[] = {&dax, &day, &dcdf, &du, &dxj, &dyj, &dw, &np};
        const size_t sf[] = {8, 8, 8, 8, 8, 8, 8, 4};
        if (rc == WL_OK) rc = wl_launch(c, "find_index_kernel", (unsigned)blocks, 1, 1, NT, 1, 1, 0, af, sf, 8);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dax, sizeof(double));
    if (rc == WL_OK) rc = wl_download(c, got_x, dax, nd);
    if (rc == WL_OK) rc = wl_download(c, got_y, day, nd);
    if (rc == WL_OK) rc = wl_download(c, got_w, dw, nd);
    if (rc == WL_OK) {
        double xe = 0, ye = 0;
        for (int i = 0; i < np; i++) {
            xe += got_x[i] * got_w[i];
            ye += got_y[i] * got_w[i];
        }
        fprintf(c->out, "%s: estimate (%.3f, %.3f), object at (%d, %d)\n", c->desc->name, xe, ye,
                abs(f.iszx / 2 + f.nfr - 1), abs(f.iszy / 2 - 2 * (f.nfr - 1)));
        reference(&f, seed_ref, ax, ay, w, xj, yj, cdf, u);
        /* Double throughout; CUDA's exp/log/cos and the contracted FMAs differ from the CPU's in the
         * last bit or two (about 1e-16 relative), far from moving a rounded position or a CDF
         * comparison at these sizes. Tolerance 1e-6 relative (1e-4 %), as the spec suggests. */
        long bad = wl_compare_f64(c, "arrayX", got_x, ax, (size_t)np, 1e-4, 0.0);
        bad += wl_compare_f64(c, "arrayY", got_y, ay, (size_t)np, 1e-4, 0.0);
        bad += wl_compare_f64(c, "weights", got_w, w, (size_t)np, 1e-4, 0.0);
        if (bad) rc = WL_WRONG;
    }
    gtlm_devptr all[] = {dax, day, dxj, dyj, dcdf, du, dw, dl, dind, dobj, dI, dseed, dpart};
    for (int i = 0; i < 13; i++) gtlm_free(c->sim, all[i]);
    free(video);
    free(seed);
    free(seed_ref);
    free(host);
    free(got_w);
    return rc;
}

const wl_desc workload_rodinia_particlefilter = {
    .name = "ParticleFilter",
    .suite = "rodinia",
    .description = "particle filter (double arrays, \"float\" build) tracking a disk through an x*y*frames byte "
                   "video: likelihood, sum, normalise, find-index kernels per frame in 512-thread CTAs",
    .kernels = "likelihood_kernel, sum_kernel, normalize_weights_kernel, find_index_kernel",
    .ptx = workload_rodinia_particlefilter_ptx,
    .ptxas = workload_rodinia_particlefilter_ptxas,
    .params = {"x", "y", "frames", "particles"},
    .tiny = {64, 64, 4, 512},
    .sim = {128, 128, 4, 8192},
    .paper = {128, 128, 10, 1000},
    .doc = {128, 128, 10, 8192},
    .doc_source = "Linebacker (Sec. 2.1: inputs enlarged until every SM has work): the default 1000 particles "
                  "launch 2 CTAs of 512; 8192 particles give 16, one per SM of the 16-SM GPU",
    .run = run,
};
