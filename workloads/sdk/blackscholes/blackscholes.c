/* BlackScholes driver: options European calls and puts, 480 CTAs x 128 threads with a
 * grid-stride loop, iters launches (the SDK's timing loop). Inputs as the SDK: S U[5,30],
 * X U[1,100], T U[0.25,10], R = 0.02, V = 0.30. Reference: the same formulas in double.
 * Tolerance (absolute, prices are at most 100): __logf's absolute error (about 2^-21.4) moves
 * d1 by at most 2^-21.4 / (V sqrt(0.25)) ~ 2.5e-6, i.e. a price by S phi(d1) 2.5e-6 <= 3e-5;
 * __expf's 2-ulp relative error on X e^-RT adds <= 100 * 2.4e-7; ~20 float roundings of
 * terms <= 100 add ~20 * 100 * 6e-8 = 1.2e-4: 5e-4 covers all of them with margin, while
 * the corrupted element (a 25 %+ change of call[0] ~ 11) fails. */
#include <math.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_sdk_blackscholes_ptx[], workload_sdk_blackscholes_ptxas[];

static double cnd(double d)
{
    const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978, a5 = 1.330274429;
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = 0.39894228040143267794 * exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0 - c : c;
}

static long compare_abs(wl_ctx *c, const char *what, const float *got, const double *want, size_t n, double tol)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabs(got[i] - want[i]) <= tol) && bad++ < 5)
            wl_fail(c, "%s[%zu] = %.7g, expected %.7g (tolerance %g)", what, i, got[i], want[i], tol);
    if (bad > 5) wl_fail(c, "%s: %ld mismatches in all", what, bad);
    return bad;
}

static int run(wl_ctx *c)
{
    int n = (int)wl_param(c, "options");
    long iters = wl_param(c, "iters");
    float R = 0.02f, V = 0.30f;
    size_t bytes = (size_t)n * sizeof(float);
    float *s = malloc(bytes), *x = malloc(bytes), *t = malloc(bytes), *call = malloc(bytes), *put = malloc(bytes);
    double *wcall = malloc((size_t)n * sizeof(double)), *wput = malloc((size_t)n * sizeof(double));
    int rc = (s && x && t && call && put && wcall && wput) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 0xb5);
    for (int i = 0; rc == WL_OK && i < n; i++) {
        s[i] = (float)(5.0 + 25.0 * wl_rng_unit(&r));
        x[i] = (float)(1.0 + 99.0 * wl_rng_unit(&r));
        t[i] = (float)(0.25 + 9.75 * wl_rng_unit(&r));
        double sq = sqrt((double)t[i]), v = V, rr = R;
        double d1 = (log((double)s[i] / x[i]) + (rr + 0.5 * v * v) * t[i]) / (v * sq), d2 = d1 - v * sq;
        double xe = x[i] * exp(-rr * t[i]);
        wcall[i] = s[i] * cnd(d1) - xe * cnd(d2);
        wput[i] = xe * (1.0 - cnd(d2)) - s[i] * (1.0 - cnd(d1));
    }
    gtlm_devptr ds = 0, dx = 0, dt = 0, dcall = 0, dput = 0;
    if (rc == WL_OK) rc = wl_upload(c, &ds, s, bytes);
    if (rc == WL_OK) rc = wl_upload(c, &dx, x, bytes);
    if (rc == WL_OK) rc = wl_upload(c, &dt, t, bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &dcall, bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &dput, bytes);
    const void *args[] = {&dcall, &dput, &ds, &dx, &dt, &R, &V, &n};
    const size_t sizes[] = {8, 8, 8, 8, 8, 4, 4, 4};
    for (long it = 0; rc == WL_OK && it < iters; it++)
        rc = wl_launch(c, "black_scholes", 480, 1, 1, 128, 1, 1, 0, args, sizes, 8);
    if (rc == WL_OK) rc = wl_corrupt(c, dcall, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, call, dcall, bytes);
    if (rc == WL_OK) rc = wl_download(c, put, dput, bytes);
    if (rc == WL_OK && (compare_abs(c, "call", call, wcall, (size_t)n, 5e-4) | compare_abs(c, "put", put, wput, (size_t)n, 5e-4)))
        rc = WL_WRONG;
    gtlm_devptr all[] = {ds, dx, dt, dcall, dput};
    for (int i = 0; i < 5; i++) gtlm_free(c->sim, all[i]);
    free(s);
    free(x);
    free(t);
    free(call);
    free(put);
    free(wcall);
    free(wput);
    return rc;
}

const wl_desc workload_sdk_blackscholes = {
    .name = "BlackScholes",
    .suite = "sdk",
    .description = "float Black-Scholes call/put prices of options options, 480 x 128 threads grid-stride, iters launches",
    .kernels = "black_scholes",
    .ptx = workload_sdk_blackscholes_ptx,
    .ptxas = workload_sdk_blackscholes_ptxas,
    .params = {"options", "iters"},
    .tiny = {65536, 1},
    .sim = {1000000, 1},
    .paper = {4000000, 512},
    .run = run,
};
