/* LBM driver (Parboil): a channel of SIZE_X x SIZE_Y x SIZE_Z cells, walls on the four x and y
 * sides and a spherical obstacle in the middle (obstacle cells bounce back), the first two z
 * layers driven at a fixed velocity (the original's accelerated inflow cells), everything at rest
 * with density 1 at the start. `iterations` launches of performStreamCollide_kernel, swapping
 * the two grids as the original does.
 *
 * Verified against the same update on the CPU in float. The GPU code may fuse multiply-adds and
 * order the moment sums differently, so each value may differ by a few units in the last place
 * per step; the BGK collision relaxes every cell towards its equilibrium, so such differences do
 * not grow: we accept 2e-5 relative to the value (+1e-7 absolute), about 150 ulp, and print the
 * largest difference seen. A wrong direction, weight or neighbour changes values by 1e-3 or
 * more. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_parboil_lbm_ptx[], workload_parboil_lbm_ptxas[];

#define N_E 20
#define FLAG 19
#define OBSTACLE 1u
#define ACCEL 2u
#define OMEGA 1.95f

static const int EX[19] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1};
static const int EY[19] = {0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 0, 0, 0};
static const int EZ[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1};
static const int OPP[19] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};

static float weight(int e) { return e == 0 ? 1.0f / 3.0f : e < 7 ? 1.0f / 18.0f : 1.0f / 36.0f; }

static void cpu_step(const float *src, float *dst, int sx, int sy, int sz, long total, long margin)
{
    for (int z = 0; z < sz; z++)
        for (int y = 0; y < sy; y++)
            for (int x = 0; x < sx; x++) {
                long c = margin + x + (long)y * sx + (long)z * sx * sy;
                float f[19];
                for (int e = 0; e < 19; e++) f[e] = src[e * total + c];
                uint32_t flags;
                memcpy(&flags, &src[FLAG * total + c], 4);
                if (flags & OBSTACLE) {
                    for (int e = 0; e < 19; e++) {
                        int o = OPP[e];
                        dst[o * total + c + EX[o] + EY[o] * sx + (long)EZ[o] * sx * sy] = f[e];
                    }
                    continue;
                }
                float rho = 0, ux = 0, uy = 0, uz = 0;
                for (int e = 0; e < 19; e++) {
                    rho += f[e];
                    ux += (float)EX[e] * f[e];
                    uy += (float)EY[e] * f[e];
                    uz += (float)EZ[e] * f[e];
                }
                ux /= rho, uy /= rho, uz /= rho;
                if (flags & ACCEL) ux = 0.005f, uy = 0.002f, uz = 0.000f;
                float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
                for (int e = 0; e < 19; e++) {
                    float eu = (float)EX[e] * ux + (float)EY[e] * uy + (float)EZ[e] * uz;
                    float feq = weight(e) * rho * (1.0f + 3.0f * eu + 4.5f * eu * eu - u2);
                    dst[e * total + c + EX[e] + EY[e] * sx + (long)EZ[e] * sx * sy] = (1.0f - OMEGA) * f[e] + OMEGA * feq;
                }
            }
}

static int run(wl_ctx *c)
{
    int sx = (int)wl_param(c, "x"), sy = (int)wl_param(c, "y"), sz = (int)wl_param(c, "z");
    int iters = (int)wl_param(c, "iterations");
    if (sx < 4 || sx > 1024 || sy < 4 || sy > 65535 || sz < 4 || sz > 65535 || iters < 1 ||
        (long)sx * sy * sz > 16L << 20)
        return wl_fail(c, "need 4 <= x <= 1024, y, z >= 4, at most 16 M cells, iterations >= 1");
    long cells = (long)sx * sy * sz, margin = 2L * sx * sy, total = cells + 2 * margin;
    size_t bytes = (size_t)N_E * total * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *got = malloc(bytes);
    int rc = a && b && got ? WL_OK : wl_fail(c, "out of host memory");
    long obstacles = 0;
    for (long i = 0; rc == WL_OK && i < total; i++) {
        long k = i - margin;
        int x = (int)(k % sx), y = (int)(k / sx % sy), z = (int)(k / sx / sy);
        uint32_t flags = 0;
        if (k >= 0 && k < cells) {
            double dx = x - sx / 2.0, dy = y - sy / 2.0, dz = z - sz / 2.0, r = (sx < sy ? sx : sy) / 6.0;
            if (x == 0 || x == sx - 1 || y == 0 || y == sy - 1 || dx * dx + dy * dy + dz * dz <= r * r)
                flags = OBSTACLE;
            else if (z < 2)
                flags = ACCEL;
        }
        obstacles += flags == OBSTACLE;
        for (int e = 0; e < 19; e++) a[e * total + i] = weight(e);
        memcpy(&a[FLAG * total + i], &flags, 4);
    }
    if (rc == WL_OK) {
        memcpy(b, a, bytes);
        fprintf(c->out, "LBM: %d x %d x %d cells (%ld obstacle), %d time steps, grid %d x %d of %d threads\n", sx, sy, sz,
                obstacles, iters, sy, sz, sx);
    }
    gtlm_devptr d[2] = {0, 0};
    if (rc == WL_OK) rc = wl_upload(c, &d[0], a, bytes);
    if (rc == WL_OK) rc = wl_upload(c, &d[1], b, bytes);
    int total_i = (int)total, margin_i = (int)margin;
    for (int t = 0; rc == WL_OK && t < iters; t++) {
        const void *args[] = {&d[t & 1], &d[(t + 1) & 1], &total_i, &margin_i};
        const size_t sizes[] = {8, 8, 4, 4};
        rc = wl_launch(c, "performStreamCollide_kernel", (unsigned)sy, (unsigned)sz, 1, (unsigned)sx, 1, 1, 0, args,
                       sizes, 4);
    }
    gtlm_devptr out = d[iters & 1];
    if (rc == WL_OK) rc = wl_corrupt(c, out + (uint64_t)margin * 4 + (uint64_t)sx * 4 + 4, 4); /* a fluid cell */
    if (rc == WL_OK) rc = wl_download(c, got, out, bytes);
    if (rc == WL_OK) {
        for (int t = 0; t < iters; t++) {
            cpu_step(a, b, sx, sy, sz, total, margin);
            float *s = a;
            a = b, b = s;
        }
        double worst = 0;
        long bad = 0;
        for (long i = 0; i < (long)N_E * total; i++) {
            double d_ = fabs((double)got[i] - a[i]), tol = 2e-5 * fabs(a[i]) + 1e-7;
            if (!(d_ <= tol) && bad++ < 5)
                wl_fail(c, "distribution %ld of cell %ld: %.9g, expected %.9g", i / total, i % total - margin,
                        got[i], a[i]);
            if (d_ / (fabs(a[i]) + 1e-30) > worst && a[i] != 0) worst = d_ / fabs(a[i]);
        }
        fprintf(c->out, "LBM: largest relative difference from the CPU %.3g\n", worst);
        if (bad) rc = wl_fail(c, "%ld of %ld values differ", bad, (long)N_E * total);
    }
    gtlm_free(c->sim, d[0]), gtlm_free(c->sim, d[1]);
    free(a), free(b), free(got);
    return rc;
}

const wl_desc workload_parboil_lbm = {
    .name = "LBM",
    .suite = "parboil",
    .description = "D3Q19 lattice-Boltzmann channel flow around a sphere, x * y * z cells (one CTA per y, z line), "
                   "`iterations` time steps",
    .kernels = "performStreamCollide_kernel",
    .ptx = workload_parboil_lbm_ptx,
    .ptxas = workload_parboil_lbm_ptxas,
    .params = {"x", "y", "z", "iterations"},
    .tiny = {32, 8, 6, 2},
    .sim = {120, 120, 40, 2}, /* 4800 CTAs: every SM of a 68-SM GPU busy, minutes in timing mode */
    .paper = {120, 120, 150, 100},
    .run = run,
};
