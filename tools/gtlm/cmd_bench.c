/* gtlm bench functional: speed of functional execution on a fixed kernel mix, measured, with
 * the results checked so a fast wrong answer never counts. Not a test: it prints figures. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

extern const unsigned char gtlm_bench_ptx[];

typedef struct bench_total {
    double seconds, warp_insn, thread_insn;
} bench_total;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Launches one kernel, times it and reports its instruction rate. */
static int timed_launch(gtlm_sim *sim, gtlm_module *m, const char *k, unsigned gx, unsigned gy, unsigned bx,
                        unsigned by, const void *const *args, const size_t *sizes, size_t n, bench_total *tot)
{
    unsigned grid[3] = {gx, gy, 1}, block[3] = {bx, by, 1};
    double t0 = now();
    if (gtlm_launch(sim, m, k, grid, block, 0, args, sizes, n) != GTLM_OK) {
        fprintf(stderr, "gtlm bench: %s\n", gtlm_last_error());
        return CLI_FAIL;
    }
    double dt = now() - t0, w = 0, t = 0;
    gtlm_stat_get_kernel(sim, "gpu.warp_insn", &w);
    gtlm_stat_get_kernel(sim, "gpu.thread_insn", &t);
    printf("%-16s warp_insn = %.0f  seconds = %.3f  warp_insn_per_sec = %.0f\n", k, w, dt, dt > 0 ? w / dt : 0);
    tot->seconds += dt;
    tot->warp_insn += w;
    tot->thread_insn += t;
    return CLI_OK;
}

static int check(int ok, const char *what)
{
    if (!ok) fprintf(stderr, "gtlm bench: wrong result from %s\n", what);
    return ok ? CLI_OK : CLI_FAIL;
}

static int run_mix(gtlm_sim *sim, gtlm_module *m, bench_total *tot)
{
    enum { N = 256 * 256, MN = 192 };
    float *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    float *a = malloc(MN * MN * sizeof *a), *b = malloc(MN * MN * sizeof *b), *c = malloc(MN * MN * sizeof *c);
    int *seeds = malloc(N * sizeof *seeds), *steps = malloc(N * sizeof *steps);
    unsigned *vals = malloc(N * sizeof *vals);
    int rc = (!in || !out || !a || !b || !c || !seeds || !steps || !vals) ? CLI_FAIL : CLI_OK;
    unsigned seed = 12345;
    unsigned long long expect_sum = 0;
    for (int i = 0; rc == CLI_OK && i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        in[i] = (float)(seed % 1000) / 100.0f;
        seeds[i] = (int)(seed % 100000) + 1;
        vals[i] = seed % 1000;
        expect_sum += vals[i];
    }
    for (int i = 0; rc == CLI_OK && i < MN * MN; i++) {
        a[i] = (float)(i % 7) - 3.0f;
        b[i] = (float)(i % 5) - 2.0f;
    }
    gtlm_devptr din = 0, dout = 0, da = 0, db = 0, dc = 0, dseeds = 0, dsteps = 0, dvals = 0, dtotal = 0;
    int iters = 96, n = MN;
    unsigned zero = 0, total = 0;
    if (rc == CLI_OK &&
        (gtlm_malloc(sim, N * 4, &din) || gtlm_malloc(sim, N * 4, &dout) || gtlm_malloc(sim, MN * MN * 4, &da) ||
         gtlm_malloc(sim, MN * MN * 4, &db) || gtlm_malloc(sim, MN * MN * 4, &dc) || gtlm_malloc(sim, N * 4, &dseeds) ||
         gtlm_malloc(sim, N * 4, &dsteps) || gtlm_malloc(sim, N * 4, &dvals) || gtlm_malloc(sim, 4, &dtotal) ||
         gtlm_memcpy_htod(sim, din, in, N * 4) || gtlm_memcpy_htod(sim, da, a, MN * MN * 4) ||
         gtlm_memcpy_htod(sim, db, b, MN * MN * 4) || gtlm_memcpy_htod(sim, dseeds, seeds, N * 4) ||
         gtlm_memcpy_htod(sim, dvals, vals, N * 4) || gtlm_memcpy_htod(sim, dtotal, &zero, 4))) {
        fprintf(stderr, "gtlm bench: %s\n", gtlm_last_error());
        rc = CLI_FAIL;
    }
    const void *fa[] = {&dout, &din, &iters};
    const size_t fs[] = {8, 8, 4};
    const void *ma[] = {&dc, &da, &db, &n};
    const size_t ms[] = {8, 8, 8, 4};
    const void *ca[] = {&dsteps, &dseeds};
    const size_t cs[] = {8, 8};
    const void *ra[] = {&dtotal, &dvals};
    if (rc == CLI_OK) rc = timed_launch(sim, m, "bench_fma_loop", N / 256, 1, 256, 1, fa, fs, 3, tot);
    if (rc == CLI_OK) rc = timed_launch(sim, m, "bench_matmul", MN / 16, MN / 16, 16, 16, ma, ms, 4, tot);
    if (rc == CLI_OK) rc = timed_launch(sim, m, "bench_collatz", N / 256, 1, 256, 1, ca, cs, 2, tot);
    if (rc == CLI_OK) rc = timed_launch(sim, m, "bench_reduce", N / 256, 1, 256, 1, ra, cs, 2, tot);
    if (rc == CLI_OK && (gtlm_memcpy_dtoh(sim, out, dout, N * 4) || gtlm_memcpy_dtoh(sim, c, dc, MN * MN * 4) ||
                         gtlm_memcpy_dtoh(sim, steps, dsteps, N * 4) || gtlm_memcpy_dtoh(sim, &total, dtotal, 4)))
        rc = CLI_FAIL;
    if (rc == CLI_OK) { /* spot checks against the host */
        float acc = 0.0f;
        for (int k = 0; k < iters; k++) acc = fmaf(acc, 0.999f, in[7] + (float)k);
        rc |= check(out[7] == acc, "bench_fma_loop");
        float s = 0.0f;
        for (int k = 0; k < MN; k++) s += a[5 * MN + k] * b[k * MN + 9];
        rc |= check(c[5 * MN + 9] == s, "bench_matmul");
        unsigned v = (unsigned)seeds[99];
        int st = 0;
        while (v > 1 && st < 1000) {
            v = (v & 1) ? 3 * v + 1 : v >> 1;
            st++;
        }
        rc |= check(steps[99] == st, "bench_collatz");
        rc |= check(total == (unsigned)expect_sum, "bench_reduce");
    }
    free(in); free(out); free(a); free(b); free(c); free(seeds); free(steps); free(vals);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "functional") != 0) {
        fprintf(stderr, "usage: gtlm bench functional [--config F] [-name value ...]\n");
        return CLI_USAGE;
    }
    cli_args a;
    int rc = cli_parse(argc - 1, argv + 1, 0, 0, &a);
    if (rc != CLI_OK) return rc;
    if (a.n_overrides + 2 <= CLI_MAX_OVERRIDES) { /* the benchmark measures functional mode */
        a.overrides[a.n_overrides++] = "-gtlm_mode";
        a.overrides[a.n_overrides++] = "functional";
    }
    gtlm_sim *sim = NULL;
    if ((rc = cli_create_sim(&a, &sim)) != CLI_OK) return rc;
    gtlm_module *m = NULL;
    bench_total tot = {0, 0, 0};
    if (gtlm_module_load_ptx(sim, (const char *)gtlm_bench_ptx, "bench_kernels.ptx", &m) != GTLM_OK) {
        fprintf(stderr, "gtlm bench: %s\n", gtlm_last_error());
        rc = CLI_FAIL;
    } else {
        rc = run_mix(sim, m, &tot);
    }
    if (rc == CLI_OK) {
        printf("functional_warp_insn = %.0f\n", tot.warp_insn);
        printf("functional_seconds = %.3f\n", tot.seconds);
        printf("functional_warp_insn_per_sec = %.0f\n", tot.seconds > 0 ? tot.warp_insn / tot.seconds : 0);
        printf("functional_thread_insn_per_sec = %.0f\n", tot.seconds > 0 ? tot.thread_insn / tot.seconds : 0);
    }
    gtlm_sim_destroy(sim);
    return rc;
}
