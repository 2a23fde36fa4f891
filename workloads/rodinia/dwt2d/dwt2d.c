/* DWT2D driver (Rodinia dwt2d `-d WxH -f -5 -l L`): a synthetic 8-bit RGB image (smooth
 * gradients, a few discs and noise: the statistics of a photo, not its content), split into
 * components on the GPU, then L levels of the forward 5/3 DWT per component. The three
 * coefficient planes are compared exactly with a CPU lifting implementation (integer
 * arithmetic, so bit-exact). */
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_rodinia_dwt2d_ptx[], workload_rodinia_dwt2d_ptxas[];

/* One level of the 5/3 lifting along n samples spaced by `step` (n even, >= 2); C division
 * truncates as the kernels'. */
static void lift(int32_t *v, int n, size_t step)
{
#define AT(i) v[(size_t)(i) * step]
    for (int i = 1; i < n; i += 2) AT(i) -= (AT(i - 1) + AT(i + 1 < n ? i + 1 : i - 1)) / 2;
    for (int i = 0; i < n; i += 2) AT(i) += (AT(i > 0 ? i - 1 : 1) + AT(i + 1 < n ? i + 1 : i - 1) + 2) / 4;
#undef AT
}

/* CPU reference of one component: `levels` levels on w x h, leaving the bands as the kernels
 * lay them out (LL, HL, LH, HH one after the other; the next level inside the LL area). */
static void cpu_dwt(const int32_t *comp, int32_t *out, int32_t *work, int w, int h, int levels)
{
    memcpy(work, comp, (size_t)w * h * 4);
    for (int l = 0; l < levels; l++, w /= 2, h /= 2) {
        for (int x = 0; x < w; x++) lift(work + x, h, (size_t)w);
        for (int y = 0; y < h; y++) lift(work + (size_t)y * w, w, 1);
        size_t q = (size_t)(w / 2) * (h / 2);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                size_t band = (size_t)(x & 1) + 2 * (size_t)(y & 1); /* LL, HL, LH, HH */
                out[band * q + (size_t)(y / 2) * (w / 2) + x / 2] = work[(size_t)y * w + x];
            }
        memcpy(work, out, q * 4);
    }
}

static int run(wl_ctx *c)
{
    int w = (int)wl_param(c, "width"), h = (int)wl_param(c, "height"), levels = (int)wl_param(c, "levels");
    int m = 1 << (levels < 30 ? levels : 30);
    if (levels > 12 || w % m || h % m || w / (m / 2) < 16 || h / (m / 2) < 16)
        return wl_fail(c, "width and height must be multiples of 2^levels and at least 16 * 2^(levels-1)");
    size_t pixels = (size_t)w * h, aligned = (pixels + 255) / 256 * 256 * 3;
    unsigned char *img = calloc(aligned, 1);
    int32_t *comp = malloc(pixels * 4), *got = malloc(pixels * 4), *want = malloc(pixels * 4), *work = malloc(pixels * 4);
    int rc = (img && comp && got && want && work) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 1024);
    int disc[8][4];
    for (int k = 0; k < 8; k++) {
        disc[k][0] = (int)wl_rng_range(&r, 0, w - 1);
        disc[k][1] = (int)wl_rng_range(&r, 0, h - 1);
        disc[k][2] = (int)wl_rng_range(&r, 4, w / 4 + 4);
        disc[k][3] = (int)wl_rng_range(&r, 0, 255);
    }
    for (int y = 0; rc == WL_OK && y < h; y++)
        for (int x = 0; x < w; x++) {
            int base = (x * 255 / w + y * 255 / h) / 2;
            for (int k = 0; k < 8; k++) {
                long dx = x - disc[k][0], dy = y - disc[k][1];
                if (dx * dx + dy * dy < (long)disc[k][2] * disc[k][2]) base = disc[k][3];
            }
            for (int ch = 0; ch < 3; ch++) {
                int v = base + (ch - 1) * 20 + (int)wl_rng_range(&r, -12, 12);
                img[((size_t)y * w + x) * 3 + ch] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    gtlm_devptr d_src = 0, d_in[3] = {0, 0, 0}, d_out[3] = {0, 0, 0};
    if (rc == WL_OK) rc = wl_upload(c, &d_src, img, aligned); /* zero-padded to whole CTAs */
    for (int k = 0; rc == WL_OK && k < 3; k++) {
        rc = wl_alloc(c, &d_in[k], pixels * 4);
        if (rc == WL_OK) rc = wl_alloc(c, &d_out[k], pixels * 4);
        if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, d_out[k], 0, pixels * 4), "gtlm_memset");
    }
    int npix = (int)pixels;
    const void *a_copy[] = {&d_in[0], &d_in[1], &d_in[2], &d_src, &npix};
    const size_t s_copy[] = {8, 8, 8, 8, 4};
    if (rc == WL_OK)
        rc = wl_launch(c, "dwt_rgb_to_components", (unsigned)(aligned / 768), 1, 1, 256, 1, 1, 0, a_copy, s_copy, 5);
    int launches = 1;
    for (int k = 0; rc == WL_OK && k < 3; k++) {
        int sx = w, sy = h;
        for (int l = 0; rc == WL_OK && l < levels; l++) {
            int win = sx >= 960 ? 192 : sx >= 480 ? 128 : 64, steps = (sy + 15 * 8 - 1) / (15 * 8);
            const char *kernel = win == 192 ? "dwt_fdwt53_192" : win == 128 ? "dwt_fdwt53_128" : "dwt_fdwt53_64";
            if ((sx + win - 1) / win * win > 2 * sx - 2) {
                rc = wl_fail(c, "level %d: width %d is too small for a %d-column window", l, sx, win);
                break;
            }
            const void *a[] = {&d_in[k], &d_out[k], &sx, &sy, &steps};
            const size_t s[] = {8, 8, 4, 4, 4};
            rc = wl_launch(c, kernel, (unsigned)((sx + win - 1) / win), (unsigned)((sy + 8 * steps - 1) / (8 * steps)), 1,
                           (unsigned)win, 1, 1, 0, a, s, 5);
            launches++;
            sx /= 2;
            sy /= 2;
            if (rc == WL_OK && l + 1 < levels) { /* LL band back into the input (cudaMemcpy D2D there) */
                size_t ll = (size_t)sx * sy * 4;
                rc = wl_download(c, work, d_out[k], ll);
                if (rc == WL_OK) rc = wl_check(c, gtlm_memcpy_htod(c->sim, d_in[k], work, ll), "gtlm_memcpy_htod");
            }
        }
    }
    if (rc == WL_OK) fprintf(c->out, "DWT2D: %d launches\n", launches);
    if (rc == WL_OK) rc = wl_corrupt(c, d_out[0], 4);
    static const char *const name[] = {"r", "g", "b"};
    long bad = 0;
    for (int k = 0; rc == WL_OK && k < 3; k++) {
        rc = wl_download(c, got, d_out[k], pixels * 4);
        if (rc != WL_OK) break;
        for (size_t i = 0; i < pixels; i++) comp[i] = img[i * 3 + (size_t)k] - 128;
        memset(want, 0, pixels * 4);
        cpu_dwt(comp, want, work, w, h, levels);
        bad += wl_compare_i32(c, name[k], got, want, pixels);
    }
    if (rc == WL_OK && bad) rc = WL_WRONG;
    gtlm_free(c->sim, d_src);
    for (int k = 0; k < 3; k++) {
        gtlm_free(c->sim, d_in[k]);
        gtlm_free(c->sim, d_out[k]);
    }
    free(img);
    free(comp);
    free(got);
    free(want);
    free(work);
    return rc;
}

/* The sizes the kernels handle; others would run and fail verification. */
static const char *supported_sizes(const long *p)
{
    return p[2] > 20 || p[0] % (1L << p[2]) || p[1] % (1L << p[2]) || p[0] < (16L << (p[2] - 1)) || p[1] < (16L << (p[2] - 1)) ? "width and height must be multiples of 2^levels and at least 16 * 2^(levels-1)" : NULL;
}

const wl_desc workload_rodinia_dwt2d = {
    .name = "DWT2D",
    .suite = "rodinia",
    .description = "forward 5/3 integer wavelet transform (levels, sliding-window CTAs) of the 3 components of an RGB image (width, height multiples of 2^levels, >= 16 * 2^(levels-1))",
    .kernels = "dwt_rgb_to_components, dwt_fdwt53_64, dwt_fdwt53_128, dwt_fdwt53_192",
    .ptx = workload_rodinia_dwt2d_ptx,
    .ptxas = workload_rodinia_dwt2d_ptxas,
    .params = {"width", "height", "levels"},
    .tiny = {192, 192, 3},
    .sim = {1024, 1024, 3},
    .paper = {1024, 1024, 3},
    .doc = {1024, 1024, 3},
    .doc_source = "Morpheus (Accel-Sim app-collection input, spec Sec. 5 proposal): -d 1024x1024 -l 3",
    .run = run,
    .check = supported_sizes,
};
