/* CP (ISPASS coulombic potential) driver: atoms random point charges (q in [-0.5, 1], the net
 * positive charge of a protein fragment; positions inside the lattice's box, 0.5 to 4 A off the
 * slice so no distance vanishes), lattice spacing 0.1 A as the original, atoms sent in chunks
 * of 4000 through constant memory with one launch per chunk.
 * Check: a double-precision CPU sum per lattice point; a point fails when
 * |gpu - cpu| > (atoms + chunks + 4) * 2^-23 * sum |q / r|: the worst-case error bound of a
 * sequential float sum of that many terms plus the rsqrt.approx error (< 2^-22 relative). */
#include <math.h>
#include <stdlib.h>

#include "workload.h"

extern const char workload_ispass_cp_ptx[], workload_ispass_cp_ptxas[];

enum { MAX_ATOMS = 4000, BLOCK_X = 16, BLOCK_Y = 8, UNROLLX = 2 };

static int run(wl_ctx *c)
{
    int side = (int)wl_param(c, "side"), natoms = (int)wl_param(c, "atoms");
    if (side < 32 || side % (BLOCK_X * UNROLLX) || natoms < 1) {
        fprintf(c->out, "CP: side must be a positive multiple of %d, atoms at least 1\n", BLOCK_X * UNROLLX);
        return WL_USAGE;
    }
    float spacing = 0.1f;
    size_t n = (size_t)side * side;
    float *atoms = malloc((size_t)natoms * 4 * sizeof *atoms), *grid = calloc(n, sizeof *grid);
    int rc = (atoms && grid) ? WL_OK : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 0xc0);
    for (int a = 0; rc == WL_OK && a < natoms; a++) {
        float dz = (float)(0.5 + 3.5 * wl_rng_unit(&r));
        atoms[4 * a] = (float)(wl_rng_unit(&r) * side * spacing);
        atoms[4 * a + 1] = (float)(wl_rng_unit(&r) * side * spacing);
        atoms[4 * a + 2] = dz * dz;
        atoms[4 * a + 3] = (float)(-0.5 + 1.5 * wl_rng_unit(&r));
    }
    gtlm_devptr dgrid = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dgrid, grid, n * sizeof *grid);
    int chunks = 0;
    for (int first = 0; rc == WL_OK && first < natoms; first += MAX_ATOMS, chunks++) {
        int count = natoms - first < MAX_ATOMS ? natoms - first : MAX_ATOMS;
        rc = wl_check(c, gtlm_memcpy_to_symbol(c->sim, c->mod, "atominfo", atoms + 4 * first, (size_t)count * 16, 0),
                      "atominfo");
        const void *args[] = {&count, &spacing, &dgrid};
        const size_t sizes[] = {4, 4, 8};
        if (rc == WL_OK)
            rc = wl_launch(c, "cenergy", (unsigned)(side / (BLOCK_X * UNROLLX)), (unsigned)(side / BLOCK_Y), 1, BLOCK_X,
                           BLOCK_Y, 1, 0, args, sizes, 3);
    }
    if (rc == WL_OK) rc = wl_corrupt(c, dgrid, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, grid, dgrid, n * sizeof *grid);
    long bad = 0;
    double worst = 0;
    for (size_t p = 0; rc == WL_OK && p < n; p++) {
        double x = (double)(spacing * (float)(p % side)), y = (double)(spacing * (float)(p / side)), e = 0, mag = 0;
        for (int a = 0; a < natoms; a++) {
            double dx = x - atoms[4 * a], dy = y - atoms[4 * a + 1];
            double t = atoms[4 * a + 3] / sqrt(dx * dx + dy * dy + atoms[4 * a + 2]);
            e += t;
            mag += fabs(t);
        }
        double err = fabs(grid[p] - e), tol = (natoms + chunks + 4) * ldexp(mag, -23);
        if (err / tol > worst) worst = err / tol;
        if (err > tol && bad++ < 5)
            wl_fail(c, "energy[%zu] = %.9g, expected %.9g (tolerance %.3g)", p, grid[p], e, tol);
    }
    if (bad) rc = wl_fail(c, "%ld of %zu lattice points outside the tolerance", bad, n);
    if (rc == WL_OK) fprintf(c->out, "CP: %d launches, largest error %.3f of the tolerance\n", chunks, worst);
    gtlm_free(c->sim, dgrid);
    free(atoms);
    free(grid);
    return rc;
}

const wl_desc workload_ispass_cp = {
    .name = "CP",
    .suite = "ispass",
    .description = "coulombic potential of point charges on a lattice slice (direct summation)",
    .kernels = "cenergy",
    .ptx = workload_ispass_cp_ptx,
    .ptxas = workload_ispass_cp_ptxas,
    .params = {"side", "atoms"},
    .tiny = {64, 100},
    .sim = {256, 200},
    .paper = {256, 200},
    .run = run,
};
