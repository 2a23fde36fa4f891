/* FastWalshTransform driver: dyadic convolution of 2^log2n data floats with a 2^log2k kernel,
 * as the SDK: WHT(data), WHT(kernel padded with zeros), modulate, WHT(data); each WHT is
 * radix-4 global stages down to 2^11 points then one shared-memory launch. Inputs U[0,1).
 * Reference: out[i] = sum_{j < K} data[i ^ j] kernel[j] in double. Tolerance 0.01 %: each
 * output (~K/4) comes out of 3 * log2n float butterfly levels whose intermediate magnitudes
 * are ~sqrt(N) times the output's at most, i.e. a relative error of a few 1e-6 (measured
 * max below 2e-6 at log2n = 20); 1e-4 keeps a margin while any real error fails. */
#include <stdlib.h>

#include "workload.h"

extern const char workload_sdk_fwt_ptx[], workload_sdk_fwt_ptxas[];

#define SHARED_LOG2 11

/* One in-place WHT of 2^log2n points in buffer d. */
static int wht(wl_ctx *c, gtlm_devptr d, int log2n)
{
    int rc = WL_OK;
    unsigned m = 1;
    for (; rc == WL_OK && log2n > SHARED_LOG2; log2n -= 2, m <<= 2) {
        int stride = 1 << (log2n - 2);
        const void *args[] = {&d, &d, &stride};
        const size_t sizes[] = {8, 8, 4};
        rc = wl_launch(c, "fwt_global", (unsigned)(1 << log2n) / (4 * 256), m, 1, 256, 1, 1, 0, args, sizes, 3);
    }
    const void *args[] = {&d, &d, &log2n};
    const size_t sizes[] = {8, 8, 4};
    if (rc == WL_OK)
        rc = wl_launch(c, "fwt_shared", m, 1, 1, (unsigned)(1 << log2n) / 4, 1, 1, (size_t)(1 << log2n) * sizeof(float),
                       args, sizes, 3);
    return rc;
}

static int run(wl_ctx *c)
{
    int log2n = (int)wl_param(c, "log2n"), log2k = (int)wl_param(c, "log2k");
    if (log2n < 10 || log2n > 28 || log2k > log2n) return wl_fail(c, "need 10 <= log2n <= 28 and log2k <= log2n");
    int n = 1 << log2n, k = 1 << log2k;
    float *data = malloc((size_t)n * sizeof *data), *kern = malloc((size_t)k * sizeof *kern);
    float *out = malloc((size_t)n * sizeof *out), *want = malloc((size_t)n * sizeof *want);
    int rc = (data && kern && out && want) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 0xf3f);
    for (int i = 0; rc == WL_OK && i < n; i++) data[i] = (float)wl_rng_unit(&r);
    for (int i = 0; rc == WL_OK && i < k; i++) kern[i] = (float)wl_rng_unit(&r);
    for (int i = 0; rc == WL_OK && i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < k; j++) s += (double)data[i ^ j] * kern[j];
        want[i] = (float)s;
    }
    gtlm_devptr dd = 0, dk = 0;
    size_t bytes = (size_t)n * sizeof(float);
    if (rc == WL_OK) rc = wl_upload(c, &dd, data, bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &dk, bytes);
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, dk, 0, bytes), "gtlm_memset");
    if (rc == WL_OK) rc = wl_check(c, gtlm_memcpy_htod(c->sim, dk, kern, (size_t)k * sizeof *kern), "gtlm_memcpy_htod");
    if (rc == WL_OK) rc = wht(c, dd, log2n);
    if (rc == WL_OK) rc = wht(c, dk, log2n);
    const void *margs[] = {&dd, &dk, &n};
    const size_t msizes[] = {8, 8, 4};
    if (rc == WL_OK) rc = wl_launch(c, "modulate", 128, 1, 1, 256, 1, 1, 0, margs, msizes, 3);
    if (rc == WL_OK) rc = wht(c, dd, log2n);
    if (rc == WL_OK) rc = wl_corrupt(c, dd, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dd, bytes);
    if (rc == WL_OK && wl_compare_f32(c, "out", out, want, (size_t)n, 1e-2, 0.0)) rc = WL_WRONG;
    gtlm_free(c->sim, dd);
    gtlm_free(c->sim, dk);
    free(data);
    free(kern);
    free(out);
    free(want);
    return rc;
}

const wl_desc workload_sdk_fwt = {
    .name = "FastWalshTransform",
    .suite = "sdk",
    .description = "dyadic convolution of 2^log2n floats with a 2^log2k kernel by three radix-4 Walsh-Hadamard transforms",
    .kernels = "fwt_global, fwt_shared, modulate",
    .ptx = workload_sdk_fwt_ptx,
    .ptxas = workload_sdk_fwt_ptxas,
    .params = {"log2n", "log2k"},
    .tiny = {14, 7},
    .sim = {20, 7},
    .paper = {23, 7},
    .run = run,
};
