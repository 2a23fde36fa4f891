/* ConvolutionSeparable driver: a w x h float image convolved with a 17-tap separable filter,
 * iters (row pass, column pass) pairs as the SDK's warm-up plus timing loop. Image and taps are
 * integers 0..15 as the SDK's inputs, so every partial sum is an integer below
 * 17*15*17*15*15 < 2^24: exact in float in any order, compared exactly. */
#include <stdlib.h>

#include "workload.h"

extern const char workload_sdk_convsep_ptx[], workload_sdk_convsep_ptxas[];

#define R 8
#define TAPS (2 * R + 1)

static int run(wl_ctx *c)
{
    int w = (int)wl_param(c, "w"), h = (int)wl_param(c, "h");
    long iters = wl_param(c, "iters");
    if (w % 128 || h % 64) return wl_fail(c, "w must be a multiple of 128 and h of 64");
    size_t n = (size_t)w * h, bytes = n * sizeof(float);
    float *in = malloc(bytes), *tmp = malloc(bytes), *out = malloc(bytes), *want = malloc(bytes), taps[TAPS];
    int rc = (in && tmp && out && want) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 0xc0);
    for (int k = 0; k < TAPS; k++) taps[k] = (float)wl_rng_range(&r, 0, 15);
    for (size_t i = 0; rc == WL_OK && i < n; i++) in[i] = (float)wl_rng_range(&r, 0, 15);
    for (int y = 0; rc == WL_OK && y < h; y++) /* rows: tap R - k weighs the pixel at offset k */
        for (int x = 0; x < w; x++) {
            float s = 0.0f;
            for (int k = -R; k <= R; k++)
                if (x + k >= 0 && x + k < w) s += taps[R - k] * in[(size_t)y * w + x + k];
            tmp[(size_t)y * w + x] = s;
        }
    for (int y = 0; rc == WL_OK && y < h; y++) /* columns */
        for (int x = 0; x < w; x++) {
            float s = 0.0f;
            for (int k = -R; k <= R; k++)
                if (y + k >= 0 && y + k < h) s += taps[R - k] * tmp[(size_t)(y + k) * w + x];
            want[(size_t)y * w + x] = s;
        }
    gtlm_devptr din = 0, dtmp = 0, dout = 0;
    if (rc == WL_OK)
        rc = wl_check(c, gtlm_memcpy_to_symbol(c->sim, c->mod, "c_kernel", taps, sizeof taps, 0), "c_kernel");
    if (rc == WL_OK) rc = wl_upload(c, &din, in, bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &dtmp, bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &dout, bytes);
    const void *rargs[] = {&dtmp, &din, &w, &h, &w}, *cargs[] = {&dout, &dtmp, &w, &h, &w};
    const size_t sizes[] = {8, 8, 4, 4, 4};
    for (long it = 0; rc == WL_OK && it < iters; it++) {
        rc = wl_launch(c, "conv_rows", (unsigned)(w / 128), (unsigned)(h / 4), 1, 16, 4, 1, 0, rargs, sizes, 5);
        if (rc == WL_OK)
            rc = wl_launch(c, "conv_cols", (unsigned)(w / 16), (unsigned)(h / 64), 1, 16, 8, 1, 0, cargs, sizes, 5);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dout, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dout, bytes);
    if (rc == WL_OK && wl_compare_f32(c, "dst", out, want, n, 0.0, 0.0)) rc = WL_WRONG;
    gtlm_free(c->sim, din);
    gtlm_free(c->sim, dtmp);
    gtlm_free(c->sim, dout);
    free(in);
    free(tmp);
    free(out);
    free(want);
    return rc;
}

/* The sizes the kernels handle; others would run and fail verification. */
static const char *supported_sizes(const long *p)
{
    return p[0] % 128 || p[1] % 64 ? "w must be a multiple of 128 and h of 64" : NULL;
}

const wl_desc workload_sdk_convsep = {
    .name = "ConvolutionSeparable",
    .suite = "sdk",
    .description = "separable 17-tap convolution of a w x h image (w multiple of 128, h of 64): row then column pass, "
                   "iters pairs",
    .kernels = "conv_rows, conv_cols",
    .ptx = workload_sdk_convsep_ptx,
    .ptxas = workload_sdk_convsep_ptxas,
    .params = {"w", "h", "iters"},
    .tiny = {256, 128, 1},
    .sim = {1024, 1024, 1},
    .paper = {3072, 3072, 17},
    .run = run,
    .check = supported_sizes,
};
