// WP (weather prediction; the GPGPU-Sim ISPASS-2009 suite's port of a WRF single-moment
// microphysics scheme): one physics time step of warm-rain microphysics on every column of a
// model grid. Written for gtlm from the textbook description of such schemes (saturation
// adjustment, Kessler-type autoconversion and accretion, rain evaporation, rain sedimentation);
// it is a simplified scheme of the same shape, not the WSM5 code.
//
// Arrays are [k][j][i] with i fastest (WRF's i-k-j order collapsed to level planes), one thread
// per column (i, j), block (32, 4), grid (nx / 32, ny / 4): at every level a warp reads 32
// consecutive floats of each field (coalesced). Pass 1 walks the column bottom-up and applies
// the local processes level by level (7 loads, 4 stores per level, expf / powf / sqrtf);
// pass 2 walks top-down re-reading rain and density and moves rain down with its fall speed,
// the rain leaving the lowest level accumulating into the surface rain of the column.
// Every process is continuous in its inputs (no on/off jumps), so float rounding cannot flip
// a result: the CPU reference in double precision agrees within a small tolerance. Rain is
// clamped at zero where it is read (sedimentation can round it to -1e-20, and a power of a
// negative number would be NaN).
#define CP 1004.5f
#define LV 2.5e6f
#define RV 461.6f
#define QC0 1.0e-3f

__device__ static float sat_mixing_ratio(float t, float p)
{
    float es = 610.78f * expf(17.27f * (t - 273.16f) / (t - 35.86f));
    return 0.622f * es / (p - es);
}

extern "C" __global__ void wsm_microphysics(float *t, float *qv, float *qc, float *qr, const float *p, const float *den,
                                            const float *dz, float *rain, int nx, int ny, int nz, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny) return;
    size_t col = (size_t)j * nx + i, plane = (size_t)nx * ny;
    for (int k = 0; k < nz; k++) {
        size_t at = k * plane + col;
        float tk = t[at], qvk = qv[at], qck = qc[at], qrk = fmaxf(qr[at], 0.0f), pk = p[at], rho = den[at];
        float qs = sat_mixing_ratio(tk, pk);
        float gamma = 1.0f + LV * LV * qs / (CP * RV * tk * tk);
        float adj = (qvk - qs) / gamma; // > 0: condensation; < 0: evaporation of cloud water
        adj = fmaxf(adj, -qck);
        qvk -= adj;
        qck += adj;
        tk += LV / CP * adj;
        float auto_c = fminf(qck, 1.0e-3f * fmaxf(qck - QC0, 0.0f) * dt);
        qck -= auto_c;
        qrk += auto_c;
        float accr = fminf(qck, 2.2f * qck * powf(rho * qrk, 0.875f) * dt);
        qck -= accr;
        qrk += accr;
        qs = sat_mixing_ratio(tk, pk);
        float evap = fminf(qrk, 1.0e-2f * fmaxf(qs - qvk, 0.0f) * sqrtf(rho * qrk) * dt / gamma);
        qrk -= evap;
        qvk += evap;
        tk -= LV / CP * evap;
        t[at] = tk;
        qv[at] = qvk;
        qc[at] = qck;
        qr[at] = qrk;
    }
    float incoming = 0.0f; // rain mass per area entering the level from above
    for (int k = nz - 1; k >= 0; k--) {
        size_t at = k * plane + col;
        float rho = den[at], q = fmaxf(qr[at], 0.0f), h = dz[k];
        float vt = 36.34f * powf(rho * q, 0.1364f) * sqrtf(1.2f / rho);
        float out = fminf(rho * q * h, rho * q * vt * dt); // leaves through the bottom
        qr[at] = q + (incoming - out) / (rho * h);
        incoming = out;
    }
    rain[col] += incoming;
}
