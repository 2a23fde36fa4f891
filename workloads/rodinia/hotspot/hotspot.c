/* HotSpot driver (Rodinia HS): args "n pyramid iterations" as in `hotspot 512 2 2`; synthetic
 * temperature (about 320-345 K) and power maps (a few hot rectangles on a low background);
 * the original's chip constants; result compared with a CPU stencil with the same formula. */
#include <stdlib.h>

#include "workload.h"

extern const char workload_rodinia_hotspot_ptx[], workload_rodinia_hotspot_ptxas[];

typedef struct chip {
    float cap, rx, ry, rz, step;
} chip;

/* The original's constants and derived quantities, all in float as there. */
static chip chip_constants(int rows, int cols)
{
    const float t_chip = 0.0005f, height = 0.016f, width = 0.016f, k_si = 100, heat_si = 1.75e6f, factor = 0.5f;
    const float max_pd = 3.0e6f, precision = 0.001f;
    float gh = height / rows, gw = width / cols;
    chip k;
    k.cap = factor * heat_si * t_chip * gw * gh;
    k.rx = gw / (2.0f * k_si * t_chip * gh);
    k.ry = gh / (2.0f * k_si * t_chip * gw);
    k.rz = t_chip / (k_si * gh * gw);
    float max_slope = max_pd / (factor * t_chip * heat_si);
    k.step = precision / max_slope;
    return k;
}

/* One time step on the CPU with the kernel's operation order (float inputs, the 2.0 terms in
 * double); neighbours outside the chip are the cell itself. */
static void cpu_step(const chip *k, const float *p, const float *t, float *out, int rows, int cols)
{
    float sdc = k->step / k->cap, rx_1 = 1.0f / k->rx, ry_1 = 1.0f / k->ry, rz_1 = 1.0f / k->rz;
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            size_t i = (size_t)y * cols + x;
            float c = t[i];
            float tn = t[i - (y > 0 ? (size_t)cols : 0)], ts = t[i + (y < rows - 1 ? (size_t)cols : 0)];
            float tw = t[i - (x > 0)], te = t[i + (x < cols - 1)];
            out[i] = (float)(c + sdc * (p[i] + (ts + tn - 2.0 * c) * ry_1 + (te + tw - 2.0 * c) * rx_1 + (80.0f - c) * rz_1));
        }
}

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "n"), pyr = (int)wl_param(c, "pyramid"), iters = (int)wl_param(c, "iterations");
    if (pyr > 7) return wl_fail(c, "pyramid must be 1..7 (a 16x16 tile keeps 16 - 2*pyramid cells)");
    size_t cells = (size_t)n * n, bytes = cells * 4;
    float *temp = malloc(bytes), *power = malloc(bytes), *got = malloc(bytes), *tmp = malloc(bytes);
    int rc = (temp && power && got && tmp) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 512);
    for (size_t i = 0; rc == WL_OK && i < cells; i++) {
        int y = (int)(i / (size_t)n), x = (int)(i % (size_t)n);
        temp[i] = 320.0f + 15.0f * (float)(x + y) / (float)(2 * n) + 10.0f * (float)wl_rng_unit(&r);
        power[i] = 1e-6f * (float)wl_rng_unit(&r);
    }
    for (int h = 0; rc == WL_OK && h < 12; h++) { /* functional units: hot rectangles */
        int y0 = (int)wl_rng_range(&r, 0, n - 1), x0 = (int)wl_rng_range(&r, 0, n - 1);
        int hy = (int)wl_rng_range(&r, 1, n / 6 + 1), hx = (int)wl_rng_range(&r, 1, n / 6 + 1);
        float pw = (float)(2e-5 + 8e-5 * wl_rng_unit(&r));
        for (int y = y0; y < y0 + hy && y < n; y++)
            for (int x = x0; x < x0 + hx && x < n; x++) power[(size_t)y * n + x] = pw;
    }
    chip k = chip_constants(n, n);
    gtlm_devptr d_power = 0, d_t[2] = {0, 0};
    if (rc == WL_OK) rc = wl_upload(c, &d_power, power, bytes);
    if (rc == WL_OK) rc = wl_upload(c, &d_t[0], temp, bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &d_t[1], bytes);
    int border = pyr, inner = 16 - 2 * pyr, src = 0;
    unsigned g = (unsigned)((n + inner - 1) / inner);
    for (int t = 0; rc == WL_OK && t < iters; t += pyr) {
        int steps = iters - t < pyr ? iters - t : pyr;
        const void *args[] = {&steps, &d_power, &d_t[src], &d_t[1 - src], &n, &n, &border, &border,
                              &k.cap, &k.rx, &k.ry, &k.rz, &k.step};
        const size_t sizes[] = {4, 8, 8, 8, 4, 4, 4, 4, 4, 4, 4, 4, 4};
        rc = wl_launch(c, "hotspot_step", g, g, 1, 16, 16, 1, 0, args, sizes, 13);
        src = 1 - src;
    }
    if (rc == WL_OK) rc = wl_corrupt(c, d_t[src], 4);
    if (rc == WL_OK) rc = wl_download(c, got, d_t[src], bytes);
    if (rc == WL_OK) {
        float *cur = temp, *next = tmp;
        for (int t = 0; t < iters; t++) {
            cpu_step(&k, power, cur, next, n, n);
            float *s = cur;
            cur = next;
            next = s;
        }
        /* One rounding to float per step on both sides; the f64 part may be fused (fma) on the
         * device: 1e-4 % = 1e-6 relative is about 10 float ulps at 330 K. */
        if (wl_compare_f32(c, "temp", got, cur, cells, 1e-4, 0.0)) rc = WL_WRONG;
    }
    gtlm_free(c->sim, d_power);
    gtlm_free(c->sim, d_t[0]);
    gtlm_free(c->sim, d_t[1]);
    free(temp);
    free(power);
    free(got);
    free(tmp);
    return rc;
}

const wl_desc workload_rodinia_hotspot = {
    .name = "HotSpot",
    .suite = "rodinia",
    .description = "thermal 5-point stencil on an n x n chip, 16x16 tiles with pyramid ghost zones (args n pyramid iterations; pyramid 1..7, any n)",
    .kernels = "hotspot_step",
    .ptx = workload_rodinia_hotspot_ptx,
    .ptxas = workload_rodinia_hotspot_ptxas,
    .params = {"n", "pyramid", "iterations"},
    .tiny = {64, 2, 2},
    .sim = {512, 2, 2},
    .paper = {512, 2, 2},
    .doc = {512, 2, 2},
    .doc_source = "Morpheus (Accel-Sim app-collection input, spec Sec. 5 proposal): 512 2 2",
    .run = run,
};
