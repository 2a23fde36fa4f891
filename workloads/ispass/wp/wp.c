/* WP (weather prediction microphysics) driver. The ISPASS input data are not in the public
 * snapshots, so the atmosphere is synthetic: nx x ny columns of nz levels 500 m thick; surface
 * temperature 290 K +- 8 K in a smooth horizontal wave plus noise, lapse rate 6.5 K/km up to
 * 11 km then isothermal; hydrostatic pressure from 1000 hPa and the ideal-gas density; relative
 * humidity 90% at the surface falling with height, with moist cells (slightly supersaturated,
 * with cloud water up to 2 g/kg and some rain) in about a third of the columns' lower levels.
 * steps time steps of 60 s, one launch each.
 * Check: a double-precision CPU copy of the scheme; every value within 0.01% plus an absolute
 * allowance: 1e-3 K for temperature, 1e-7 kg/kg for the water species and 1e-7 kg/m^2 for
 * surface rain. Condensation is a difference of vapour and saturation mixing ratios of about
 * 1e-2, so float rounding leaves absolute errors of some 1e-9 in cloud water of 1e-5 (measured
 * up to 8e-9 at sim size: relative errors of 3e-4 there); a wrong index or process moves values
 * by far more. */
#include <math.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_ispass_wp_ptx[], workload_ispass_wp_ptxas[];

enum { BX = 32, BY = 4 };
static const double CPD = 1004.5, LV = 2.5e6, RV = 461.6, QC0 = 1.0e-3;

static double qsat(double t, double p)
{
    double es = 610.78 * exp(17.27 * (t - 273.16) / (t - 35.86));
    return 0.622 * es / (p - es);
}

/* One time step of one column (the kernel's scheme in double). */
static void column(double *t, double *qv, double *qc, double *qr, const float *p, const float *den, const float *dz,
                   double *rain, int nz, size_t plane, size_t col, double dt)
{
    for (int k = 0; k < nz; k++) {
        size_t at = k * plane + col;
        double tk = t[at], qvk = qv[at], qck = qc[at], qrk = fmax(qr[at], 0), pk = p[at], rho = den[at];
        double qs = qsat(tk, pk), gamma = 1 + LV * LV * qs / (CPD * RV * tk * tk);
        double adj = fmax((qvk - qs) / gamma, -qck);
        qvk -= adj, qck += adj, tk += LV / CPD * adj;
        double a = fmin(qck, 1.0e-3 * fmax(qck - QC0, 0) * dt);
        qck -= a, qrk += a;
        double acc = fmin(qck, 2.2 * qck * pow(rho * qrk, 0.875) * dt);
        qck -= acc, qrk += acc;
        qs = qsat(tk, pk);
        double ev = fmin(qrk, 1.0e-2 * fmax(qs - qvk, 0) * sqrt(rho * qrk) * dt / gamma);
        qrk -= ev, qvk += ev, tk -= LV / CPD * ev;
        t[at] = tk, qv[at] = qvk, qc[at] = qck, qr[at] = qrk;
    }
    double in = 0;
    for (int k = nz - 1; k >= 0; k--) {
        size_t at = k * plane + col;
        double rho = den[at], q = fmax(qr[at], 0), h = dz[k];
        double vt = 36.34 * pow(rho * q, 0.1364) * sqrt(1.2 / rho), out = fmin(rho * q * h, rho * q * vt * dt);
        qr[at] = q + (in - out) / (rho * h);
        in = out;
    }
    rain[col] += in;
}

/* Mismatches of got against want beyond 0.01% + abs (the first few reported). */
static long compare(wl_ctx *c, const char *what, const float *got, const double *want, size_t n, double abs)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabs(got[i] - want[i]) <= 1e-4 * fabs(want[i]) + abs) && bad++ < 5)
            wl_fail(c, "%s[%zu] = %.9g, expected %.9g", what, i, got[i], want[i]);
    if (bad) wl_fail(c, "%s: %ld of %zu values outside 0.01%% + %g", what, bad, n, abs);
    return bad;
}

static int run(wl_ctx *c)
{
    int nx = (int)wl_param(c, "nx"), ny = (int)wl_param(c, "ny"), nz = (int)wl_param(c, "nz");
    int steps = (int)wl_param(c, "steps");
    if (nx < 1 || ny < 1 || nz < 1 || nz > 60 || steps < 1) {
        fprintf(c->out, "WP: nx, ny, steps >= 1 and 1 <= nz <= 60 (30 km)\n");
        return WL_USAGE;
    }
    size_t plane = (size_t)nx * ny, n = plane * nz;
    float *f[6], *dz = malloc((size_t)nz * 4), *rain = calloc(plane, 4);
    double *d[4], *drain = calloc(plane, 8);
    int rc = dz && rain && drain ? WL_OK : WL_ERROR;
    for (int a = 0; a < 6; a++) rc = (f[a] = malloc(n * 4)) ? rc : WL_ERROR;
    for (int a = 0; a < 4; a++) rc = (d[a] = malloc(n * 8)) ? rc : WL_ERROR;
    float *t = f[0], *qv = f[1], *qc = f[2], *qr = f[3], *p = f[4], *den = f[5];
    wl_rng r;
    wl_rng_seed(&r, 0x3e7);
    for (size_t col = 0; rc == WL_OK && col < plane; col++) {
        int i = (int)(col % nx), j = (int)(col / nx);
        double t0 = 290 + 8 * sin(6.2832 * i / nx) * cos(6.2832 * j / ny) + wl_rng_unit(&r) - 0.5;
        int moist = wl_rng_unit(&r) < 0.35, top = (int)wl_rng_range(&r, 2, 8);
        for (int k = 0; k < nz; k++) {
            size_t at = k * plane + col;
            double z = 250.0 + 500.0 * k, tk = t0 - 6.5e-3 * (z < 11000 ? z : 11000);
            double pk = 1.0e5 * pow(tk / t0, 9.80665 / (287.05 * 6.5e-3));
            if (z > 11000) pk *= exp(-9.80665 * (z - 11000) / (287.05 * tk));
            double rh = 0.9 * exp(-z / 6000.0), qs = qsat(tk, pk);
            t[at] = (float)tk;
            p[at] = (float)pk;
            den[at] = (float)(pk / (287.05 * tk));
            qc[at] = qr[at] = 0;
            if (moist && k < top) {
                rh = 1.0 + 0.02 * wl_rng_unit(&r);
                qc[at] = (float)(2.0e-3 * wl_rng_unit(&r));
                qr[at] = (float)(5.0e-4 * wl_rng_unit(&r));
            }
            qv[at] = (float)(rh * qs);
        }
    }
    for (int k = 0; k < nz; k++) dz[k] = 500.0f;
    for (size_t x = 0; rc == WL_OK && x < n; x++)
        for (int a = 0; a < 4; a++) d[a][x] = f[a][x];
    gtlm_devptr dev[6] = {0}, ddz = 0, drn = 0;
    for (int a = 0; a < 6; a++)
        if (rc == WL_OK) rc = wl_upload(c, &dev[a], f[a], n * 4);
    if (rc == WL_OK) rc = wl_upload(c, &ddz, dz, (size_t)nz * 4);
    if (rc == WL_OK) rc = wl_upload(c, &drn, rain, plane * 4);
    float dt = 60.0f;
    const void *args[] = {&dev[0], &dev[1], &dev[2], &dev[3], &dev[4], &dev[5], &ddz, &drn, &nx, &ny, &nz, &dt};
    const size_t sizes[] = {8, 8, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4};
    for (int s = 0; rc == WL_OK && s < steps; s++) {
        rc = wl_launch(c, "wsm_microphysics", (unsigned)((nx + BX - 1) / BX), (unsigned)((ny + BY - 1) / BY), 1, BX, BY,
                       1, 0, args, sizes, 12);
        for (size_t col = 0; col < plane; col++) column(d[0], d[1], d[2], d[3], p, den, dz, drain, nz, plane, col, dt);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dev[0], sizeof(float));
    static const char *names[4] = {"t", "qv", "qc", "qr"};
    static const double allowance[4] = {1e-3, 1e-7, 1e-7, 1e-7};
    for (int a = 0; a < 4; a++) {
        if (rc == WL_OK) rc = wl_download(c, f[a], dev[a], n * 4);
        if (rc == WL_OK && compare(c, names[a], f[a], d[a], n, allowance[a])) rc = WL_WRONG;
    }
    if (rc == WL_OK) rc = wl_download(c, rain, drn, plane * 4);
    double total = 0;
    for (size_t x = 0; rc == WL_OK && x < plane; x++) total += drain[x];
    if (rc == WL_OK && compare(c, "rain", rain, drain, plane, 1e-7)) rc = WL_WRONG;
    if (rc == WL_OK) fprintf(c->out, "WP: mean surface rain %.4g kg/m^2\n", total / plane);
    for (int a = 0; a < 6; a++) gtlm_free(c->sim, dev[a]), free(f[a]);
    for (int a = 0; a < 4; a++) free(d[a]);
    gtlm_free(c->sim, ddz);
    gtlm_free(c->sim, drn);
    free(dz);
    free(rain);
    free(drain);
    return rc;
}

const wl_desc workload_ispass_wp = {
    .name = "WP",
    .suite = "ispass",
    .description = "warm-rain microphysics step on synthetic atmospheric columns, one thread per column",
    .kernels = "wsm_microphysics",
    .ptx = workload_ispass_wp_ptx,
    .ptxas = workload_ispass_wp_ptxas,
    .params = {"nx", "ny", "nz", "steps"},
    .tiny = {64, 16, 20, 1},
    .sim = {256, 128, 28, 2},
    .paper = {512, 256, 28, 2},
    .run = run,
};
