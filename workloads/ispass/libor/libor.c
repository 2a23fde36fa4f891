/* LIBOR (ISPASS) driver: LIBOR market-model Monte Carlo, npath paths (one per thread, CTAs of
 * 64), the suite's constants (80 rates, 40 steps, 15 swaptions, delta 0.25, lambda 0.2, rates
 * 0.05, normals 0.3: every path is the same). libor_greeks (value and dV/dL0[79]) then
 * libor_value. Verification: all paths bitwise equal, and path 0 equal to a double-precision CPU
 * reference within 0.01 % (value and sensitivity). Error budget: each rate goes through up to
 * 40 steps of ~10 float operations with __expf / __fdividef (2 ulp each) and f64 parts, so its
 * relative error stays far below 40 * 10 * 2 * 6e-8 ~ 5e-5; the value (in-the-money payoffs
 * -100 (B + r S - 1) ~ 15 each, discounted) and the sensitivity (40 adjoint steps of the same
 * kind) inherit that without strong cancellation. Measured: 5.4e-7 (value) and 4.2e-7
 * (sensitivity) relative at 4096 paths. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_ispass_libor_ptx[], workload_ispass_libor_ptxas[];

enum { NN = 80, NMAT = 40, NOPT = 15 };
static const int maturities[NOPT] = {4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40};
static const float swaprates[NOPT] = {.045f, .05f, .055f, .045f, .05f, .055f, .045f, .05f,
                                      .055f, .045f, .05f, .055f, .045f, .05f, .055f};
static const float delta = 0.25f, lambda = 0.2f, l0 = 0.05f, z = 0.3f;

/* The CPU reference in double: value and dV/dL0[NN-1] of the common path. */
static void reference(double *value, double *sens)
{
    double L2[NMAT + 1][NN], B[NMAT], S[NMAT], B_b[NMAT], S_b[NMAT], L_b[NN], d = delta, lam = lambda;
    for (int i = 0; i < NN; i++) L2[0][i] = l0;
    for (int n = 0; n < NMAT; n++) {
        double sqez = sqrt(d) * (double)z, v = 0.0, con1 = d * lam;
        memcpy(L2[n + 1], L2[n], sizeof L2[n]);
        for (int i = n + 1; i < NN; i++) {
            v += con1 * L2[n][i] / (1.0 + d * L2[n][i]);
            L2[n + 1][i] = L2[n][i] * exp(con1 * v + lam * (sqez - 0.5 * con1));
        }
    }
    const double *L = L2[NMAT];
    double b = 1.0, s = 0.0, v = 0.0;
    for (int m = 0; m < NN - NMAT; m++) {
        b /= 1.0 + d * L[m + NMAT];
        s += d * b;
        B[m] = b;
        S[m] = s;
        B_b[m] = S_b[m] = 0.0;
    }
    for (int k = 0; k < NOPT; k++) {
        int m = maturities[k] - 1;
        double swapval = B[m] + (double)swaprates[k] * S[m] - 1.0;
        if (swapval < 0) {
            v -= 100.0 * swapval;
            S_b[m] -= 100.0 * swaprates[k];
            B_b[m] -= 100.0;
        }
    }
    for (int m = NN - NMAT - 1; m >= 0; m--) {
        int n = m + NMAT;
        B_b[m] += d * S_b[m];
        L_b[n] = -B_b[m] * B[m] * d / (1.0 + d * L[n]);
        if (m > 0) {
            S_b[m - 1] += S_b[m];
            B_b[m - 1] += B_b[m] / (1.0 + d * L[n]);
        }
    }
    b = 1.0;
    for (int n = 0; n < NMAT; n++) b /= 1.0 + d * L[n];
    v *= b;
    for (int n = 0; n < NMAT; n++) L_b[n] = -v * d / (1.0 + d * L[n]);
    for (int n = NMAT; n < NN; n++) L_b[n] *= b;
    for (int n = NMAT - 1; n >= 0; n--) { /* adjoint of the path */
        double v_b = 0.0, con1 = d * lam;
        for (int i = NN - 1; i > n; i--) {
            v_b += con1 * L2[n + 1][i] * L_b[i];
            double f = 1.0 / (1.0 + d * L2[n][i]);
            L_b[i] = L_b[i] * L2[n + 1][i] / L2[n][i] + v_b * con1 * f * f;
        }
    }
    *value = v;
    *sens = L_b[NN - 1];
}

/* All paths bitwise equal to path 0, and path 0 within pct percent of want. */
static long check(wl_ctx *c, const char *what, const float *got, int n, double want, double pct)
{
    long bad = 0;
    for (int i = 1; i < n; i++)
        if (memcmp(&got[i], &got[0], sizeof got[0]) && bad++ < 5)
            wl_fail(c, "%s[%d] = %.9g differs from path 0's %.9g (all paths are the same)", what, i, got[i], got[0]);
    if (bad > 5) wl_fail(c, "%s: %ld paths differ from path 0", what, bad);
    float w = (float)want;
    return bad + wl_compare_f32(c, what, got, &w, 1, pct, 0.0);
}

static int run(wl_ctx *c)
{
    int npath = (int)wl_param(c, "paths");
    if (npath % 64) return wl_fail(c, "paths must be a multiple of 64 (CTAs of 64 threads)");
    int n_ = NN, nmat = NMAT, nopt = NOPT;
    float lam[NN];
    for (int i = 0; i < NN; i++) lam[i] = lambda;
    size_t bytes = (size_t)npath * sizeof(float);
    float *v1 = malloc(bytes), *lb = malloc(bytes), *v2 = malloc(bytes);
    int rc = (v1 && lb && v2) ? WL_OK : WL_ERROR;
    struct {
        const char *name;
        const void *src;
        size_t bytes;
    } consts[] = {{"N", &n_, 4},          {"Nmat", &nmat, 4},         {"Nopt", &nopt, 4},
                  {"maturities", maturities, sizeof maturities},      {"delta", &delta, 4},
                  {"swaprates", swaprates, sizeof swaprates},         {"lambda", lam, sizeof lam}};
    for (size_t i = 0; rc == WL_OK && i < sizeof consts / sizeof consts[0]; i++)
        rc = wl_check(c, gtlm_memcpy_to_symbol(c->sim, c->mod, consts[i].name, consts[i].src, consts[i].bytes, 0),
                      consts[i].name);
    gtlm_devptr dv = 0, dlb = 0;
    if (rc == WL_OK) rc = wl_alloc(c, &dv, bytes);
    if (rc == WL_OK) rc = wl_alloc(c, &dlb, bytes);
    const void *args[] = {&dv, &dlb};
    const size_t sizes[] = {8, 8};
    unsigned grid = (unsigned)(npath / 64);
    if (rc == WL_OK) rc = wl_launch(c, "libor_greeks", grid, 1, 1, 64, 1, 1, 0, args, sizes, 2);
    if (rc == WL_OK) rc = wl_download(c, v1, dv, bytes);
    if (rc == WL_OK) rc = wl_download(c, lb, dlb, bytes);
    if (rc == WL_OK) rc = wl_launch(c, "libor_value", grid, 1, 1, 64, 1, 1, 0, args, sizes, 1);
    if (rc == WL_OK) rc = wl_corrupt(c, dv, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, v2, dv, bytes);
    double value = 0.0, sens = 0.0;
    reference(&value, &sens);
    if (rc == WL_OK && (check(c, "greeks v", v1, npath, value, 0.01) | check(c, "greeks dV/dL0[79]", lb, npath, sens, 0.01) |
                        check(c, "value v", v2, npath, value, 0.01)))
        rc = WL_WRONG;
    if (rc == WL_OK)
        fprintf(c->out, "LIBOR: value %.9g (reference %.9g), dV/dL0[79] %.9g (reference %.9g)\n", v2[0], value, lb[0],
                sens);
    gtlm_free(c->sim, dv);
    gtlm_free(c->sim, dlb);
    free(v1);
    free(lb);
    free(v2);
    return rc;
}

/* The sizes the kernels handle; others would run and fail verification. */
static const char *supported_sizes(const long *p)
{
    return p[0] % 64 ? "paths must be a multiple of 64 (one CTA of 64 threads per 64 paths)" : NULL;
}

const wl_desc workload_ispass_libor = {
    .name = "LIBOR",
    .suite = "ispass",
    .description = "LIBOR market-model Monte Carlo, paths paths (multiple of 64), greeks then value kernel, "
                   "local-memory arrays",
    .kernels = "libor_greeks, libor_value",
    .ptx = workload_ispass_libor_ptx,
    .ptxas = workload_ispass_libor_ptxas,
    .params = {"paths"},
    .tiny = {128},
    .sim = {4096},
    .paper = {4096},
    .doc = {8704},
    .doc_source = "Morpheus: the default 4096 paths give 64 CTAs of 64 threads, fewer than the 68 SMs; 8704 paths "
                  "give every SM two CTAs",
    .run = run,
    .check = supported_sizes,
};
