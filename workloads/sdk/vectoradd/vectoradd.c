/* VectorAdd driver: random inputs, one launch, exact check (one rounding per element). */
#include <stdlib.h>

#include "workload.h"

extern const char workload_sdk_vectoradd_ptx[], workload_sdk_vectoradd_ptxas[];

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "n");
    size_t bytes = (size_t)n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *out = malloc(bytes), *want = malloc(bytes);
    int rc = (a && b && out && want) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 42);
    for (int i = 0; rc == WL_OK && i < n; i++) {
        a[i] = (float)wl_rng_unit(&r);
        b[i] = (float)wl_rng_unit(&r);
        want[i] = a[i] + b[i];
    }
    gtlm_devptr da = 0, db = 0, dc = 0;
    if (rc == WL_OK) rc = wl_upload(c, &da, a, bytes);
    if (rc == WL_OK) rc = wl_upload(c, &db, b, bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &dc, bytes);
    const void *args[] = {&da, &db, &dc, &n};
    const size_t sizes[] = {8, 8, 8, 4};
    if (rc == WL_OK) rc = wl_launch(c, "vector_add", (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1, 0, args, sizes, 4);
    if (rc == WL_OK) rc = wl_corrupt(c, dc, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, out, dc, bytes);
    if (rc == WL_OK && wl_compare_f32(c, "C", out, want, (size_t)n, 0.0, 0.0)) rc = WL_WRONG;
    free(a);
    free(b);
    free(out);
    free(want);
    return rc;
}

const wl_desc workload_sdk_vectoradd = {
    .name = "VectorAdd",
    .suite = "sdk",
    .description = "element-wise sum of two float vectors, one thread per element",
    .kernels = "vector_add",
    .ptx = workload_sdk_vectoradd_ptx,
    .ptxas = workload_sdk_vectoradd_ptxas,
    .params = {"n"},
    .tiny = {4096},
    .sim = {1 << 20},
    .paper = {50000},
    .run = run,
};
