/* Heart Wall (Rodinia) driver: synthetic ultrasound frames (the original test.avi is not in the
 * public snapshots): a dark background with speckle and two bright elliptic walls (inner
 * endocardium, outer epicardium) that contract and relax with a 10-frame heartbeat and drift a
 * little; 20 points on the inner wall and 31 on the outer one (the original's 51), templates cut
 * from frame 0. Each frame is one launch; the host keeps all frames in device memory.
 * Frames are float arrays of 8-bit values, as the original stores them.
 * Check: the CPU tracks the same points with the same integer sums and the same single float
 * division and square root per score (both correctly rounded, no fused operations), so every
 * position of every frame must match exactly. Sizes: rows x cols = 590 x 609 (the original
 * video's frames), template half-size t = 25 and search range m = 10 at paper size. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_rodinia_heartwall_ptx[], workload_rodinia_heartwall_ptxas[];

enum { POINTS = 51, INNER = 20, THREADS = 768 };
static const double PI = 3.14159265358979323846;

static void make_frame(float *img, int rows, int cols, int f, wl_rng *r)
{
    double beat = 1.0 + 0.08 * sin(2 * PI * f / 10.0), cy = rows / 2.0 + 2 * sin(f / 3.0), cx = cols / 2.0;
    double rad = (rows < cols ? rows : cols) * beat;
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            double dy = y - cy, dx = x - cx;
            double din = sqrt(dy * dy / (0.15 * 0.15 * rad * rad) + dx * dx / (0.18 * 0.18 * rad * rad));
            double dout = sqrt(dy * dy / (0.26 * 0.26 * rad * rad) + dx * dx / (0.30 * 0.30 * rad * rad));
            int wall = fabs(din - 1) < 0.08 || fabs(dout - 1) < 0.06;
            int v = (wall ? 190 : 40) + (int)wl_rng_range(r, -35, 35);
            img[(size_t)y * cols + x] = (float)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The kernel's search for one point on one frame (same arithmetic, same tie rule). */
static void track(const float *img, int rows, int cols, const float *tmpl, int t, int m, int32_t *pr,
                  int32_t *pc)
{
    int side = 2 * t + 1, n = side * side, span = 2 * m + 1, best = 0;
    float bs = -3.0e38f;
    for (int d = 0; d < span * span; d++) {
        int dr = d / span - m, dc = d % span - m, sti = 0, si = 0, sii = 0, st = 0;
        for (int i = 0; i < side; i++)
            for (int j = 0; j < side; j++) {
                int a = (int)tmpl[i * side + j];
                int b = (int)img[(size_t)clampi(*pr + dr + i - t, 0, rows - 1) * cols + clampi(*pc + dc + j - t, 0, cols - 1)];
                sti += a * b;
                si += b;
                sii += b * b;
                st += a;
            }
        long long num = (long long)n * sti - (long long)si * st, var = (long long)n * sii - (long long)si * si;
        float s = (float)num / sqrtf((float)(var + 1));
        if (s > bs) bs = s, best = d;
    }
    *pr += best / span - m;
    *pc += best % span - m;
}

static int run(wl_ctx *c)
{
    int rows = (int)wl_param(c, "rows"), cols = (int)wl_param(c, "cols"), frames = (int)wl_param(c, "frames");
    int t = (int)wl_param(c, "t"), m = (int)wl_param(c, "m");
    int side = 2 * t + 1, wside = side + 2 * m, npos = (2 * m + 1) * (2 * m + 1);
    size_t shared = ((size_t)side * side + (size_t)wside * wside + (size_t)npos) * 4 + THREADS * 8;
    if (rows < 32 || cols < 32 || frames < 1 || t < 1 || m < 1 || shared > 48 * 1024) {
        fprintf(c->out, "heartwall: need rows, cols >= 32, frames, t, m >= 1 and at most 48 KB of shared memory\n");
        return WL_USAGE;
    }
    size_t npix = (size_t)rows * cols; /* pixels per frame */
    float *video = malloc(npix * frames * sizeof *video), *tmpl = malloc((size_t)POINTS * side * side * 4);
    int32_t pr[POINTS], pc[POINTS];
    int32_t *hist = malloc((size_t)frames * POINTS * 8), *want = malloc((size_t)frames * POINTS * 8);
    int rc = (video && tmpl && hist && want) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 0x4ea7);
    for (int f = 0; rc == WL_OK && f < frames; f++) make_frame(video + f * npix, rows, cols, f, &r);
    double rad = rows < cols ? rows : cols;
    for (int p = 0; rc == WL_OK && p < POINTS; p++) {
        int inner = p < INNER;
        double ang = 2 * PI * (inner ? p : p - INNER) / (inner ? INNER : POINTS - INNER);
        pr[p] = (int)(rows / 2.0 + (inner ? 0.15 : 0.26) * rad * sin(ang));
        pc[p] = (int)(cols / 2.0 + (inner ? 0.18 : 0.30) * rad * cos(ang));
        for (int i = 0; i < side; i++)
            for (int j = 0; j < side; j++)
                tmpl[(p * side + i) * side + j] =
                    video[(size_t)clampi(pr[p] + i - t, 0, rows - 1) * cols + clampi(pc[p] + j - t, 0, cols - 1)];
    }
    gtlm_devptr dvideo = 0, dtmpl = 0, dpr = 0, dpc = 0, dhist = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dvideo, video, npix * frames * sizeof *video);
    if (rc == WL_OK) rc = wl_upload(c, &dtmpl, tmpl, (size_t)POINTS * side * side * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dpr, pr, sizeof pr);
    if (rc == WL_OK) rc = wl_upload(c, &dpc, pc, sizeof pc);
    if (rc == WL_OK) rc = wl_alloc(c, &dhist, (size_t)frames * POINTS * 8);
    for (int f = 0; rc == WL_OK && f < frames; f++) {
        gtlm_devptr frame = dvideo + f * npix * sizeof *video, h = dhist + (size_t)f * POINTS * 8;
        const void *args[] = {&frame, &rows, &cols, &dtmpl, &dpr, &dpc, &h, &t, &m};
        const size_t sizes[] = {8, 4, 4, 8, 8, 8, 8, 4, 4};
        rc = wl_launch(c, "heartwall_track", POINTS, 1, 1, THREADS, 1, 1, shared, args, sizes, 9);
        for (int p = 0; p < POINTS; p++) {
            track(video + f * npix, rows, cols, tmpl + p * side * side, t, m, &pr[p], &pc[p]);
            want[(f * POINTS + p) * 2] = pr[p];
            want[(f * POINTS + p) * 2 + 1] = pc[p];
        }
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dhist, sizeof(int32_t));
    if (rc == WL_OK) rc = wl_download(c, hist, dhist, (size_t)frames * POINTS * 8);
    if (rc == WL_OK && wl_compare_i32(c, "positions", hist, want, (size_t)frames * POINTS * 2)) rc = WL_WRONG;
    gtlm_devptr all[] = {dvideo, dtmpl, dpr, dpc, dhist};
    for (int i = 0; i < 5; i++) gtlm_free(c->sim, all[i]);
    free(video);
    free(tmpl);
    free(hist);
    free(want);
    return rc;
}

const wl_desc workload_rodinia_heartwall = {
    .name = "HeartWall",
    .suite = "rodinia",
    .description = "tracks 51 heart-wall points through ultrasound frames by template matching, one CTA per point",
    .kernels = "heartwall_track",
    .ptx = workload_rodinia_heartwall_ptx,
    .ptxas = workload_rodinia_heartwall_ptxas,
    .params = {"rows", "cols", "frames", "t", "m"},
    .tiny = {96, 96, 1, 3, 2},
    .sim = {590, 609, 4, 12, 6},
    .paper = {590, 609, 20, 25, 10},
    .run = run,
};
