/* CFD driver (Rodinia CF, euler3d): a synthetic 4-neighbour mesh in place of fvcorr.domn.097K.
 * Elements are the cells of an X x Y x Z lattice (the first `elements` cells); a cell of even
 * parity borders x+1, x-1, y+1, z+1 through faces with outward normals s*(1,1,1), s*(-1,-1,1),
 * s*(-1,1,-1), s*(1,-1,-1) (they sum to zero, so a uniform flow is steady), a cell of odd
 * parity borders x-1, x+1, y-1, z-1 with the opposite normals, so both sides of a face agree.
 * Faces leaving the mesh through z < 0 are wing surface (-1), all others far field (-2). The
 * numbering is shuffled within windows of 256 cells (an unstructured mesh's locality without its
 * regularity); volumes are random in [0.8, 1.2]. Normals are stored negated (inward), as the
 * original negates the file's. Mach 1.2 at 0 degrees far field. The solution after the
 * iterations is compared with a CPU version of the same kernels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_rodinia_cfd_ptx[], workload_rodinia_cfd_ptxas[];

#define NNB 4
#define NVAR 5
#define RK 3
#define BLOCK 192
#define GAMMA 1.4f

typedef struct vec3 {
    float x, y, z;
} vec3;

typedef struct farfield {
    float var[NVAR];
    vec3 fx, fy, fz, fe;
} farfield;

typedef struct mesh {
    int nel, nelr;
    float *areas, *normals;
    int32_t *nb;
} mesh;

static void flux_of(float density, vec3 m, float de, float p, vec3 v, vec3 *fx, vec3 *fy, vec3 *fz, vec3 *fe)
{
    (void)density;
    fx->x = v.x * m.x + p;
    fx->y = v.x * m.y;
    fx->z = v.x * m.z;
    fy->x = fx->y;
    fy->y = v.y * m.y + p;
    fy->z = v.y * m.z;
    fz->x = fx->z;
    fz->y = fy->z;
    fz->z = v.z * m.z + p;
    float de_p = de + p;
    fe->x = v.x * de_p;
    fe->y = v.y * de_p;
    fe->z = v.z * de_p;
}

/* State of element i: density, momentum, density energy, velocity, |v|^2, pressure, c. */
typedef struct state {
    float d, de, ss, p, c;
    vec3 m, v;
} state;

static state state_of(const float *var, int i, int nelr)
{
    state s;
    s.d = var[i];
    s.m.x = var[i + nelr];
    s.m.y = var[i + 2 * nelr];
    s.m.z = var[i + 3 * nelr];
    s.de = var[i + 4 * nelr];
    s.v.x = s.m.x / s.d;
    s.v.y = s.m.y / s.d;
    s.v.z = s.m.z / s.d;
    s.ss = s.v.x * s.v.x + s.v.y * s.v.y + s.v.z * s.v.z;
    s.p = (GAMMA - 1.0f) * (s.de - 0.5f * s.d * s.ss);
    s.c = sqrtf(GAMMA * s.p / s.d);
    return s;
}

static farfield make_farfield(void)
{
    farfield f;
    const float mach = 1.2f, angle = 0.0f;
    float density = 1.4f, pressure = 1.0f, c = sqrtf(GAMMA * pressure / density), speed = mach * c;
    vec3 v = {speed * cosf(angle), speed * sinf(angle), 0.0f};
    vec3 m = {density * v.x, density * v.y, density * v.z};
    float de = density * (0.5f * (speed * speed)) + pressure / (GAMMA - 1.0f);
    f.var[0] = density;
    f.var[1] = m.x;
    f.var[2] = m.y;
    f.var[3] = m.z;
    f.var[4] = de;
    flux_of(density, m, de, pressure, v, &f.fx, &f.fy, &f.fz, &f.fe);
    return f;
}

static int make_mesh(mesh *g, int nel, uint64_t seed)
{
    int side = (int)ceil(cbrt((double)nel)), X = side, Y = side, Z = (nel + X * Y - 1) / (X * Y);
    g->nel = nel;
    g->nelr = BLOCK * ((nel + BLOCK - 1) / BLOCK);
    size_t r = (size_t)g->nelr;
    g->areas = malloc(r * 4);
    g->normals = malloc(r * NNB * 3 * 4);
    g->nb = malloc(r * NNB * 4);
    int32_t *perm = malloc((size_t)nel * 4);
    if (!g->areas || !g->normals || !g->nb || !perm) {
        free(perm);
        return WL_ERROR;
    }
    wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (int i = 0; i < nel; i++) perm[i] = i;
    for (int w = 0; w < nel; w += 256) { /* shuffle within windows of 256 */
        int len = nel - w < 256 ? nel - w : 256;
        for (int i = len - 1; i > 0; i--) {
            int j = (int)wl_rng_range(&rng, 0, i), t = perm[w + i];
            perm[w + i] = perm[w + j];
            perm[w + j] = t;
        }
    }
    static const int dir[2][NNB][3] = {{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                                       {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 0, -1}}};
    static const float tet[NNB][3] = {{1, 1, 1}, {-1, -1, 1}, {-1, 1, -1}, {1, -1, -1}};
    const float s = 0.3f;
    for (int cell = 0; cell < nel; cell++) {
        int x = cell % X, y = (cell / X) % Y, z = cell / (X * Y), par = (x + y + z) & 1, e = perm[cell];
        g->areas[e] = (float)(0.8 + 0.4 * wl_rng_unit(&rng));
        for (int j = 0; j < NNB; j++) {
            int nx = x + dir[par][j][0], ny = y + dir[par][j][1], nz = z + dir[par][j][2];
            int other = nx + X * (ny + Y * nz);
            int inside = nx >= 0 && nx < X && ny >= 0 && ny < Y && nz >= 0 && nz < Z && other < nel;
            g->nb[e + j * r] = inside ? perm[other] : nz < 0 ? -1 : -2;
            float sign = par ? 1.0f : -1.0f; /* inward = -outward; outward is +tet for even cells */
            for (int d = 0; d < 3; d++) g->normals[e + (j + d * NNB) * r] = sign * s * tet[j][d];
        }
    }
    for (size_t i = (size_t)nel; i < r; i++) { /* padding repeats the last element */
        size_t l = (size_t)nel - 1;
        g->areas[i] = g->areas[l];
        for (int j = 0; j < NNB; j++) {
            g->nb[i + j * r] = g->nb[l + j * r];
            for (int d = 0; d < 3; d++) g->normals[i + (j + d * NNB) * r] = g->normals[l + (j + d * NNB) * r];
        }
    }
    free(perm);
    return WL_OK;
}

/* CPU versions of the kernels, same formulas and order in float. */
static void cpu_step_factor(const mesh *g, const float *var, float *sf)
{
    for (int i = 0; i < g->nelr; i++) {
        state s = state_of(var, i, g->nelr);
        sf[i] = 0.5f / (sqrtf(g->areas[i]) * (sqrtf(s.ss) + s.c));
    }
}

static void cpu_flux(const mesh *g, const farfield *ff, const float *var, float *flux)
{
    int r = g->nelr;
    for (int i = 0; i < r; i++) {
        state a = state_of(var, i, r);
        vec3 fx, fy, fz, fe, gx, gy, gz, ge;
        flux_of(a.d, a.m, a.de, a.p, a.v, &fx, &fy, &fz, &fe);
        float fd = 0, fde = 0, fmx = 0, fmy = 0, fmz = 0, speed = sqrtf(a.ss);
        for (int j = 0; j < NNB; j++) {
            int nb = g->nb[i + j * r];
            float n[3] = {g->normals[i + j * r], g->normals[i + (j + NNB) * r], g->normals[i + (j + 2 * NNB) * r]};
            float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (nb >= 0) {
                state b = state_of(var, nb, r);
                flux_of(b.d, b.m, b.de, b.p, b.v, &gx, &gy, &gz, &ge);
                float f = -len * 0.2f * 0.5f * (speed + sqrtf(b.ss) + a.c + b.c);
                fd += f * (a.d - b.d);
                fde += f * (a.de - b.de);
                fmx += f * (a.m.x - b.m.x);
                fmy += f * (a.m.y - b.m.y);
                fmz += f * (a.m.z - b.m.z);
                float bm[3] = {b.m.x, b.m.y, b.m.z}, am[3] = {a.m.x, a.m.y, a.m.z};
                float bge[3] = {ge.x, ge.y, ge.z}, afe[3] = {fe.x, fe.y, fe.z};
                float bgx[3] = {gx.x, gx.y, gx.z}, afx[3] = {fx.x, fx.y, fx.z};
                float bgy[3] = {gy.x, gy.y, gy.z}, afy[3] = {fy.x, fy.y, fy.z};
                float bgz[3] = {gz.x, gz.y, gz.z}, afz[3] = {fz.x, fz.y, fz.z};
                for (int d = 0; d < 3; d++) {
                    f = 0.5f * n[d];
                    fd += f * (bm[d] + am[d]);
                    fde += f * (bge[d] + afe[d]);
                    fmx += f * (bgx[d] + afx[d]);
                    fmy += f * (bgy[d] + afy[d]);
                    fmz += f * (bgz[d] + afz[d]);
                }
            } else if (nb == -1) {
                fmx += n[0] * a.p;
                fmy += n[1] * a.p;
                fmz += n[2] * a.p;
            } else if (nb == -2) {
                float am[3] = {a.m.x, a.m.y, a.m.z}, afe[3] = {fe.x, fe.y, fe.z}, afx[3] = {fx.x, fx.y, fx.z};
                float afy[3] = {fy.x, fy.y, fy.z}, afz[3] = {fz.x, fz.y, fz.z};
                float ffe[3] = {ff->fe.x, ff->fe.y, ff->fe.z}, ffx[3] = {ff->fx.x, ff->fx.y, ff->fx.z};
                float ffy[3] = {ff->fy.x, ff->fy.y, ff->fy.z}, ffz[3] = {ff->fz.x, ff->fz.y, ff->fz.z};
                for (int d = 0; d < 3; d++) {
                    float f = 0.5f * n[d];
                    fd += f * (ff->var[1 + d] + am[d]);
                    fde += f * (ffe[d] + afe[d]);
                    fmx += f * (ffx[d] + afx[d]);
                    fmy += f * (ffy[d] + afy[d]);
                    fmz += f * (ffz[d] + afz[d]);
                }
            }
        }
        flux[i] = fd;
        flux[i + r] = fmx;
        flux[i + 2 * r] = fmy;
        flux[i + 3 * r] = fmz;
        flux[i + 4 * r] = fde;
    }
}

static void cpu_time_step(const mesh *g, int j, const float *old, float *var, const float *sf, const float *flux)
{
    size_t r = (size_t)g->nelr;
    for (size_t i = 0; i < r; i++) {
        float f = sf[i] / (float)(RK + 1 - j);
        for (int v = 0; v < NVAR; v++) var[i + v * r] = old[i + v * r] + f * flux[i + v * r];
    }
}

/* Momentum against the CPU, component by component, relative to the element's momentum
 * magnitude |m| (~1.6 here): y and z are mostly below 1e-3 (only a few elements near the wing
 * are disturbed), so a per-component relative check with an absolute floor would pass any wrong
 * value there. Measured fma-vs-CPU rounding is below 2e-7 |m| after 4 iterations; the bound is
 * the 1e-5 |m| per iteration estimated above. */
static long compare_momentum(wl_ctx *c, const float *got, const float *want, int nelr, int nel, int iters)
{
    static const char *const name[] = {"momentum.x", "momentum.y", "momentum.z"};
    long bad = 0;
    for (int i = 0; i < nel; i++) {
        double mag = 0;
        for (int k = 1; k <= 3; k++) mag += (double)want[i + (size_t)k * nelr] * want[i + (size_t)k * nelr];
        double bound = 1e-5 * iters * sqrt(mag);
        for (int k = 1; k <= 3; k++) {
            double g = got[i + (size_t)k * nelr], w = want[i + (size_t)k * nelr];
            if (!(fabs(g - w) <= bound) && bad++ < 5)
                wl_fail(c, "%s[%d] = %.9g, expected %.9g (bound %.3g: 1e-5 |m| per iteration)", name[k - 1], i, g, w, bound);
        }
    }
    if (bad > 5) wl_fail(c, "momentum: %ld components beyond the bound in all", bad);
    return bad;
}

/* --corrupt-output: the largest momentum.y below 5e-4 has its top mantissa bit flipped (a 25-50 %
 * change that stays below 1e-3, the value a check with a 1e-3 absolute floor lets through). */
static int corrupt_small_momentum(wl_ctx *c, gtlm_devptr d_var, int nelr, int nel, float *scratch)
{
    int rc = wl_download(c, scratch, d_var + (gtlm_devptr)2 * (gtlm_devptr)nelr * 4, (size_t)nel * 4);
    int at = -1;
    for (int i = 0; rc == WL_OK && i < nel; i++)
        if (fabsf(scratch[i]) < 5e-4f && (at < 0 || fabsf(scratch[i]) > fabsf(scratch[at]))) at = i;
    if (rc == WL_OK && at < 0) rc = wl_fail(c, "no momentum.y below 5e-4 to corrupt");
    if (rc == WL_OK) rc = wl_corrupt(c, d_var + ((gtlm_devptr)2 * (gtlm_devptr)nelr + (gtlm_devptr)at) * 4, 4);
    return rc;
}

static int run(wl_ctx *c)
{
    int nel = (int)wl_param(c, "elements"), iters = (int)wl_param(c, "iterations");
    mesh g = {0};
    int rc = make_mesh(&g, nel, 97046);
    int nelr = g.nelr;
    size_t vb = (size_t)nelr * NVAR * 4;
    float *var = malloc(vb), *old = malloc(vb), *sf = malloc((size_t)nelr * 4), *flux = malloc(vb), *got = malloc(vb);
    if (rc == WL_OK && !(var && old && sf && flux && got)) rc = WL_ERROR;
    farfield ff = make_farfield();
    gtlm_devptr d_areas = 0, d_normals = 0, d_nb = 0, d_var = 0, d_old = 0, d_sf = 0, d_flux = 0;
    if (rc == WL_OK) rc = wl_upload(c, &d_areas, g.areas, (size_t)nelr * 4);
    if (rc == WL_OK) rc = wl_upload(c, &d_normals, g.normals, (size_t)nelr * NNB * 3 * 4);
    if (rc == WL_OK) rc = wl_upload(c, &d_nb, g.nb, (size_t)nelr * NNB * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &d_var, vb);
    if (rc == WL_OK) rc = wl_alloc(c, &d_old, vb);
    if (rc == WL_OK) rc = wl_alloc(c, &d_sf, (size_t)nelr * 4);
    if (rc == WL_OK) rc = wl_alloc(c, &d_flux, vb);
    static const char *const sym[] = {"ff_flux_momentum_x", "ff_flux_momentum_y", "ff_flux_momentum_z", "ff_flux_density_energy"};
    const vec3 *fv[] = {&ff.fx, &ff.fy, &ff.fz, &ff.fe};
    if (rc == WL_OK) rc = wl_check(c, gtlm_memcpy_to_symbol(c->sim, c->mod, "ff_variable", ff.var, sizeof ff.var, 0), "ff_variable");
    for (int k = 0; rc == WL_OK && k < 4; k++) rc = wl_check(c, gtlm_memcpy_to_symbol(c->sim, c->mod, sym[k], fv[k], 12, 0), sym[k]);
    unsigned grid = (unsigned)(nelr / BLOCK);
    const void *a_init[] = {&nelr, &d_var};
    const size_t s_init[] = {4, 8};
    const void *a_sf[] = {&nelr, &d_var, &d_areas, &d_sf};
    const size_t s_sf[] = {4, 8, 8, 8};
    const void *a_flux[] = {&nelr, &d_nb, &d_normals, &d_var, &d_flux};
    const size_t s_flux[] = {4, 8, 8, 8, 8};
    int j = 0;
    const void *a_ts[] = {&j, &nelr, &d_old, &d_var, &d_sf, &d_flux};
    const size_t s_ts[] = {4, 4, 8, 8, 8, 8};
    if (rc == WL_OK) rc = wl_launch(c, "cfd_initialize_variables", grid, 1, 1, BLOCK, 1, 1, 0, a_init, s_init, 2);
    for (int it = 0; rc == WL_OK && it < iters; it++) {
        /* old_variables = variables: a device-to-device cudaMemcpy in the original; the C API
         * has no such copy, so it goes through the host (not a kernel either way). */
        rc = wl_download(c, old, d_var, vb);
        if (rc == WL_OK) rc = wl_check(c, gtlm_memcpy_htod(c->sim, d_old, old, vb), "gtlm_memcpy_htod");
        if (rc == WL_OK) rc = wl_launch(c, "cfd_compute_step_factor", grid, 1, 1, BLOCK, 1, 1, 0, a_sf, s_sf, 4);
        for (j = 0; rc == WL_OK && j < RK; j++) {
            rc = wl_launch(c, "cfd_compute_flux", grid, 1, 1, BLOCK, 1, 1, 0, a_flux, s_flux, 5);
            if (rc == WL_OK) rc = wl_launch(c, "cfd_time_step", grid, 1, 1, BLOCK, 1, 1, 0, a_ts, s_ts, 6);
        }
    }
    if (rc == WL_OK && c->corrupt) rc = corrupt_small_momentum(c, d_var, nelr, nel, got);
    if (rc == WL_OK) rc = wl_download(c, got, d_var, vb);
    if (rc == WL_OK) {
        for (int v = 0; v < NVAR; v++)
            for (int i = 0; i < nelr; i++) var[i + (size_t)v * nelr] = ff.var[v];
        for (int it = 0; it < iters; it++) {
            memcpy(old, var, vb);
            cpu_step_factor(&g, var, sf);
            for (int k = 0; k < RK; k++) {
                cpu_flux(&g, &ff, var, flux);
                cpu_time_step(&g, k, old, var, sf, flux);
            }
        }
        /* The device fuses many multiply-adds (fma.rn.f32) that the CPU rounds twice; fluxes
         * sum ~60 terms per element, and their errors scale with the step (~0.2), so the
         * variables (all O(1)) agree to ~1e-5 relative per iteration: the spec's 1e-3
         * relative (0.1 %) leaves room for a few iterations. */
        static const char *const name[] = {"density", "momentum.x", "momentum.y", "momentum.z", "density_energy"};
        for (int v = 0; v < NVAR; v += 4)
            if (wl_compare_f32(c, name[v], got + (size_t)v * nelr, var + (size_t)v * nelr, (size_t)nel, 0.1, 1e-3))
                rc = WL_WRONG;
        if (compare_momentum(c, got, var, nelr, nel, iters)) rc = WL_WRONG;
    }
    gtlm_devptr all[] = {d_areas, d_normals, d_nb, d_var, d_old, d_sf, d_flux};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) gtlm_free(c->sim, all[i]);
    free(g.areas);
    free(g.normals);
    free(g.nb);
    free(var);
    free(old);
    free(sf);
    free(flux);
    free(got);
    return rc;
}

const wl_desc workload_rodinia_cfd = {
    .name = "CFD",
    .suite = "rodinia",
    .description = "3-D Euler finite-volume solver (euler3d) on a 4-neighbour unstructured mesh: step factor, 3 x (flux, RK step) per iteration",
    .kernels = "cfd_initialize_variables, cfd_compute_step_factor, cfd_compute_flux, cfd_time_step",
    .ptx = workload_rodinia_cfd_ptx,
    .ptxas = workload_rodinia_cfd_ptxas,
    .params = {"elements", "iterations"},
    .tiny = {4096, 1},
    .sim = {97046, 2},
    .paper = {97046, 2000},
    .doc = {97046, 2},
    .doc_source = "Morpheus (Accel-Sim app-collection input, spec Sec. 5 proposal): fvcorr.domn.097K, 2 iterations "
                  "(each repeats the same accesses)",
    .run = run,
};
