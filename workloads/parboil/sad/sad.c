/* SAD driver (Parboil): a synthetic video frame pair, width x height pixels (multiples of 16),
 * 8-bit luma in 16-bit samples as the original's frames: the reference is smooth texture
 * (a sum of gradients and sinusoids) plus noise, the current frame the reference moved by a
 * per-macroblock motion vector within the search range plus fresh noise, as real motion gives
 * for full-search motion estimation. Three launches: mb_sad_calc, larger_sad_calc_8,
 * larger_sad_calc_16. Every SAD of every partition and position is verified exactly against a
 * CPU full search. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_parboil_sad_ptx[], workload_parboil_sad_ptxas[];

#define RANGE 16
#define DIM 33
#define POSITIONS 1089
#define MB_THREADS 61 /* ceil(1089 / 18) */

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static void make_frames(uint16_t *ref, uint16_t *cur, int w, int h, wl_rng *r)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double v = 96 + 0.3 * x + 0.2 * y + 40 * sin(x * 0.21) * cos(y * 0.17) + 20 * sin((x + 2 * y) * 0.05);
            ref[y * w + x] = (uint16_t)clampi((int)(v + wl_rng_range(r, -6, 6)), 0, 255);
        }
    for (int my = 0; my < h / 16; my++)
        for (int mx = 0; mx < w / 16; mx++) {
            int vx = (int)wl_rng_range(r, -12, 12), vy = (int)wl_rng_range(r, -12, 12);
            for (int y = my * 16; y < my * 16 + 16; y++)
                for (int x = mx * 16; x < mx * 16 + 16; x++) {
                    int v = ref[clampi(y + vy, 0, h - 1) * w + clampi(x + vx, 0, w - 1)];
                    cur[y * w + x] = (uint16_t)clampi(v + (int)wl_rng_range(r, -3, 3), 0, 255);
                }
        }
}

/* The larger partitions of each of the bw x bh blocks from its quadrants' SADs, as combine4 in
 * sad.cu: horizontal halves, vertical halves, whole (unsigned 16-bit). */
static void combine4(const uint16_t *small, int bw, int bh, uint16_t *hh, uint16_t *hv, uint16_t *whole)
{
    int sw = 2 * bw;
    for (int by = 0; by < bh; by++)
        for (int bx = 0; bx < bw; bx++) {
            size_t big = (size_t)by * bw + bx, tl = (size_t)(by * 2) * sw + bx * 2;
            for (int p = 0; p < POSITIONS; p++) {
                unsigned a = small[tl * POSITIONS + p], b = small[(tl + 1) * POSITIONS + p];
                unsigned c = small[(tl + sw) * POSITIONS + p], d = small[(tl + sw + 1) * POSITIONS + p];
                hh[(big * 2) * POSITIONS + p] = (uint16_t)(a + b);
                hh[(big * 2 + 1) * POSITIONS + p] = (uint16_t)(c + d);
                hv[(big * 2) * POSITIONS + p] = (uint16_t)(a + c);
                hv[(big * 2 + 1) * POSITIONS + p] = (uint16_t)(b + d);
                whole[big * POSITIONS + p] = (uint16_t)(a + b + c + d);
            }
        }
}

/* The CPU full search: every 4x4 SAD, then the sums in the kernels' order (unsigned 16-bit). */
static void cpu_sads(const uint16_t *cur, const uint16_t *ref, int w, int h, uint16_t *s4, uint16_t *s8x4,
                     uint16_t *s4x8, uint16_t *s8, uint16_t *s16x8, uint16_t *s8x16, uint16_t *s16)
{
    int w4 = w / 4, h4 = h / 4, w8 = w / 8, h8 = h / 8, w16 = w / 16, h16 = h / 16;
    for (int by = 0; by < h4; by++)
        for (int bx = 0; bx < w4; bx++)
            for (int p = 0; p < POSITIONS; p++) {
                int dy = p / DIM - RANGE, dx = p % DIM - RANGE;
                unsigned sad = 0;
                for (int y = 0; y < 4; y++)
                    for (int x = 0; x < 4; x++) {
                        int rv = ref[clampi(by * 4 + y + dy, 0, h - 1) * w + clampi(bx * 4 + x + dx, 0, w - 1)];
                        sad += (unsigned)abs(rv - cur[(by * 4 + y) * w + bx * 4 + x]);
                    }
                s4[(size_t)(by * w4 + bx) * POSITIONS + p] = (uint16_t)sad;
            }
    combine4(s4, w8, h8, s8x4, s4x8, s8);
    combine4(s8, w16, h16, s16x8, s8x16, s16);
}

enum { K4, K8X4, K4X8, K8, K16X8, K8X16, K16, KINDS };
static const char *const kind_name[KINDS] = {"4x4", "8x4", "4x8", "8x8", "16x8", "8x16", "16x16"};

static int run(wl_ctx *c)
{
    int w = (int)wl_param(c, "width"), h = (int)wl_param(c, "height");
    if (w < 16 || h < 16 || w % 16 || h % 16 || (long)w * h > 4096L * 4096)
        return wl_fail(c, "width and height must be multiples of 16, at most 4096 x 4096 pixels");
    int mbs = (w / 16) * (h / 16);
    size_t blocks[KINDS] = {(size_t)mbs * 16, (size_t)mbs * 8, (size_t)mbs * 8, (size_t)mbs * 4,
                            (size_t)mbs * 2,  (size_t)mbs * 2, (size_t)mbs};
    size_t px = (size_t)w * h;
    uint16_t *ref = malloc(px * 2), *cur = malloc(px * 2), *got[KINDS], *want[KINDS];
    int rc = ref && cur ? WL_OK : wl_fail(c, "out of host memory");
    for (int k = 0; k < KINDS; k++) {
        got[k] = malloc(blocks[k] * POSITIONS * 2);
        want[k] = malloc(blocks[k] * POSITIONS * 2);
        if (!got[k] || !want[k]) rc = wl_fail(c, "out of host memory");
    }
    wl_rng r;
    wl_rng_seed(&r, 0x5ad5ad);
    if (rc == WL_OK) {
        make_frames(ref, cur, w, h, &r);
        fprintf(c->out, "SAD: %d x %d frame, %d macroblocks, %d x %d CTAs of mb_sad_calc\n", w, h, mbs, w / 4, h / 4);
    }
    gtlm_devptr dref = 0, dcur = 0, dk[KINDS] = {0};
    if (rc == WL_OK) rc = wl_upload(c, &dref, ref, px * 2);
    if (rc == WL_OK) rc = wl_upload(c, &dcur, cur, px * 2);
    for (int k = 0; rc == WL_OK && k < KINDS; k++) rc = wl_alloc(c, &dk[k], blocks[k] * POSITIONS * 2);
    if (rc == WL_OK) {
        const void *a[] = {&dk[K4], &dcur, &dref, &w, &h};
        const size_t s[] = {8, 8, 8, 4, 4};
        rc = wl_launch(c, "mb_sad_calc", (unsigned)(w / 4), (unsigned)(h / 4), 1, MB_THREADS, 1, 1, 0, a, s, 5);
    }
    if (rc == WL_OK) {
        const void *a[] = {&dk[K8X4], &dk[K4X8], &dk[K8], &dk[K4]};
        const size_t s[] = {8, 8, 8, 8};
        rc = wl_launch(c, "larger_sad_calc_8", (unsigned)(w / 8), (unsigned)(h / 8), 1, 32, 1, 1, 0, a, s, 4);
    }
    if (rc == WL_OK) {
        const void *a[] = {&dk[K16X8], &dk[K8X16], &dk[K16], &dk[K8]};
        const size_t s[] = {8, 8, 8, 8};
        rc = wl_launch(c, "larger_sad_calc_16", (unsigned)(w / 16), (unsigned)(h / 16), 1, 32, 1, 1, 0, a, s, 4);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dk[K16], 2);
    for (int k = 0; rc == WL_OK && k < KINDS; k++) rc = wl_download(c, got[k], dk[k], blocks[k] * POSITIONS * 2);
    if (rc == WL_OK) {
        cpu_sads(cur, ref, w, h, want[K4], want[K8X4], want[K4X8], want[K8], want[K16X8], want[K8X16], want[K16]);
        long bad = 0;
        for (int k = 0; k < KINDS; k++) {
            size_t n = blocks[k] * POSITIONS, first = n;
            long kb = 0;
            for (size_t i = 0; i < n; i++)
                if (got[k][i] != want[k][i] && kb++ == 0) first = i;
            if (kb)
                wl_fail(c, "%s SADs: %ld of %zu differ, first at block %zu position %zu: %u, expected %u", kind_name[k],
                        kb, n, first / POSITIONS, first % POSITIONS, got[k][first], want[k][first]);
            bad += kb;
        }
        if (bad) rc = WL_WRONG;
    }
    gtlm_free(c->sim, dref), gtlm_free(c->sim, dcur);
    for (int k = 0; k < KINDS; k++) {
        gtlm_free(c->sim, dk[k]);
        free(got[k]), free(want[k]);
    }
    free(ref), free(cur);
    return rc;
}

const wl_desc workload_parboil_sad = {
    .name = "SAD",
    .suite = "parboil",
    .description = "sum of absolute differences for H.264 full-search motion estimation (+-16 pixels, all seven "
                   "partition sizes), synthetic moving frame of width x height pixels",
    .kernels = "mb_sad_calc, larger_sad_calc_8, larger_sad_calc_16",
    .ptx = workload_parboil_sad_ptx,
    .ptxas = workload_parboil_sad_ptxas,
    .params = {"width", "height"},
    .tiny = {32, 16},
    .sim = {176, 144},
    .paper = {176, 144},
    .run = run,
};
