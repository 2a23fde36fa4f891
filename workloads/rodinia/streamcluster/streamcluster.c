/* Streamcluster driver: the original's streaming k-median on the host (chunks of a simulated
 * stream of uniform random points in [0,1)^dim, each clustered by local search: speedy initial
 * solution, then facility-location passes whose every pgain step evaluates one candidate centre
 * with one GPU launch; chunk centres are kept, weighted, and clustered again at the end). Every
 * launch is checked: the work_mem rows and switch flags the kernel produced are compared exactly
 * with the same computation on the CPU (one fmaf chain per point, as the committed PTX). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_rodinia_streamcluster_ptx[], workload_rodinia_streamcluster_ptxas[];

#define NT 512
#define MAXBLOCKS 65536
#define ITER 3           /* the original's iteration factor of a facility-location pass */
#define SP 1             /* speedy attempts before z is lowered */
#define CENTERS_MAX 1000 /* the original's clustersize argument: room for the chunks' centres */

typedef struct {
    float weight;
    float *coord;
    long assign;
    float cost;
} point;

typedef struct { /* the kernel's view of a point: the original's 32-byte struct on LP64 */
    float weight;
    uint32_t pad0;
    uint64_t coord;
    int64_t assign;
    float cost;
    uint32_t pad1;
} dev_point;

typedef struct {
    wl_ctx *c;
    wl_rng rng;
    int dim, rc;
    long num, launches;
    point *p;
    char *is_center, *sw, *want_sw;
    int *center_table;
    float *coord_t, *work, *want, *lower;
    dev_point *dp;
    int coord_dirty;
    gtlm_devptr d_coord, d_p, d_ct, d_sw, d_work;
    size_t work_cap;
} sc;

static double rand01(sc *s) { return wl_rng_unit(&s->rng); }

static float dist(const point *a, const point *b, int dim)
{
    float r = 0;
    for (int i = 0; i < dim; i++) r += (a->coord[i] - b->coord[i]) * (a->coord[i] - b->coord[i]);
    return r;
}

static void shuffle_points(sc *s)
{
    for (long i = 0; i + 1 < s->num; i++) {
        long j = i + (long)(wl_rng_next(&s->rng) % (uint64_t)(s->num - i));
        point t = s->p[i];
        s->p[i] = s->p[j];
        s->p[j] = t;
    }
    s->coord_dirty = 1;
}

static void shuffle_ints(sc *s, long *v, long n)
{
    for (long i = 0; i + 1 < n; i++) {
        long j = i + (long)(wl_rng_next(&s->rng) % (uint64_t)(n - i));
        long t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* The kernel's result for one launch, on the CPU, compared bit for bit. */
static int check_launch(sc *s, long x, int K, int stride)
{
    long n = s->num;
    memset(s->want, 0, (size_t)n * stride * sizeof(float));
    memset(s->want_sw, 0, (size_t)n);
    for (long t = 0; t < n; t++) {
        float d = 0;
        for (int i = 0; i < s->dim; i++) {
            float v = s->coord_t[(size_t)i * n + t] - s->coord_t[(size_t)i * n + x];
            d = fmaf(v, v, d);
        }
        float xc = d * s->p[t].weight;
        float *row = s->want + (size_t)t * stride;
        if (xc < s->p[t].cost) {
            s->want_sw[t] = 1;
            row[K] = 0.0f + (xc - s->p[t].cost);
        } else {
            row[s->center_table[s->p[t].assign]] = 0.0f + (s->p[t].cost - xc);
        }
    }
    for (long t = 0; t < n; t++)
        if (s->sw[t] != s->want_sw[t])
            return wl_fail(s->c, "launch %ld: switch_membership[%ld] = %d, expected %d", s->launches, t, s->sw[t],
                           s->want_sw[t]);
    if (wl_compare_u32(s->c, "work_mem", (const uint32_t *)s->work, (const uint32_t *)s->want, (size_t)n * stride))
        return WL_WRONG;
    return WL_OK;
}

/* Gain of opening centre x (the original's pgain): one kernel launch, then the host's decision. */
static double pgain(sc *s, long x, double z, long *numcenters)
{
    wl_ctx *c = s->c;
    long n = s->num;
    int K = (int)*numcenters, stride = K + 1, dim = s->dim;
    if (s->rc != WL_OK) return 0;
    int rc = WL_OK;
    if (s->coord_dirty) {
        for (long t = 0; t < n; t++)
            for (int i = 0; i < dim; i++) s->coord_t[(size_t)i * n + t] = s->p[t].coord[i];
        rc = wl_check(c, gtlm_memcpy_htod(c->sim, s->d_coord, s->coord_t, (size_t)n * dim * sizeof(float)), "coord");
        s->coord_dirty = 0;
    }
    int count = 0;
    for (long i = 0; i < n; i++)
        if (s->is_center[i]) s->center_table[i] = count++;
    for (long i = 0; i < n; i++)
        s->dp[i] = (dev_point){s->p[i].weight, 0, 0, s->p[i].assign, s->p[i].cost, 0};
    size_t work_bytes = (size_t)n * stride * sizeof(float);
    if (rc == WL_OK && work_bytes > s->work_cap) { /* grow the device and host copies of work_mem */
        gtlm_free(c->sim, s->d_work);
        s->d_work = 0;
        s->work_cap = work_bytes;
        free(s->work);
        free(s->want);
        s->work = malloc(work_bytes);
        s->want = malloc(work_bytes);
        rc = s->work && s->want ? wl_alloc(c, &s->d_work, work_bytes) : WL_ERROR;
    }
    if (rc == WL_OK) rc = wl_check(c, gtlm_memcpy_htod(c->sim, s->d_ct, s->center_table, (size_t)n * sizeof(int)), "center_table");
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, s->d_sw, 0, (size_t)n), "memset");
    if (rc == WL_OK) rc = wl_check(c, gtlm_memset(c->sim, s->d_work, 0, work_bytes), "memset");
    if (rc == WL_OK) rc = wl_check(c, gtlm_memcpy_htod(c->sim, s->d_p, s->dp, (size_t)n * sizeof(dev_point)), "points");
    long blocks = (n + NT - 1) / NT, gy = (blocks + MAXBLOCKS - 1) / MAXBLOCKS, gx = (blocks + gy - 1) / gy;
    int num = (int)n;
    const void *args[] = {&num, &dim, &x, &s->d_p, &K, &stride, &s->d_coord, &s->d_work, &s->d_ct, &s->d_sw};
    const size_t sizes[] = {4, 4, 8, 8, 4, 4, 8, 8, 8, 8};
    if (rc == WL_OK) rc = wl_launch(c, "kernel_compute_cost", (unsigned)gx, (unsigned)gy, 1, NT, 1, 1, 0, args, sizes, 10);
    s->launches++;
    if (rc == WL_OK) rc = wl_corrupt(c, s->d_work, sizeof(float));
    if (rc == WL_OK) rc = wl_download(c, s->work, s->d_work, work_bytes);
    if (rc == WL_OK) rc = wl_download(c, s->sw, s->d_sw, (size_t)n);
    if (rc == WL_OK) rc = check_launch(s, x, K, stride);
    if ((s->rc = rc) != WL_OK) return 0;

    /* Host side: close centres whose members gain by moving to x; open x if that saves cost. */
    int to_close = 0;
    float open_cost = (float)z;
    for (long i = 0; i < n; i++) {
        if (s->is_center[i]) {
            float low = (float)z;
            for (long j = 0; j < n; j++) low += s->work[(size_t)j * stride + s->center_table[i]];
            s->lower[s->center_table[i]] = low;
            if (low > 0) {
                to_close++;
                s->work[(size_t)i * stride + K] -= low;
            }
        }
        open_cost += s->work[(size_t)i * stride + K];
    }
    if (open_cost < 0) {
        for (long i = 0; i < n; i++) {
            int close_center = s->lower[s->center_table[s->p[i].assign]] > 0;
            if (s->sw[i] || close_center) {
                s->p[i].cost = dist(&s->p[i], &s->p[x], dim) * s->p[i].weight;
                s->p[i].assign = x;
            }
        }
        for (long i = 0; i < n; i++)
            if (s->is_center[i] && s->lower[s->center_table[i]] > 0) s->is_center[i] = 0;
        s->is_center[x] = 1;
        *numcenters = *numcenters + 1 - to_close;
    } else {
        open_cost = 0;
    }
    return -open_cost;
}

/* Facility-location passes over the feasible candidates until a pass gains less than e * cost. */
static double pFL(sc *s, long *feasible, long nf, double z, long *k, double cost, long iter, double e)
{
    double change = cost;
    while (s->rc == WL_OK && change / cost > e) {
        change = 0;
        shuffle_ints(s, feasible, nf);
        for (long i = 0; i < iter; i++) change += pgain(s, feasible[i % nf], z, k);
        cost -= change;
    }
    return cost;
}

/* Speedy initial solution: open point 0, then each point with probability cost / z. */
static double pspeedy(sc *s, double z, long *kcenter)
{
    point *p = s->p;
    for (long k = 0; k < s->num; k++) {
        p[k].cost = dist(&p[k], &p[0], s->dim) * p[k].weight;
        p[k].assign = 0;
    }
    *kcenter = 1;
    for (long i = 1; i < s->num; i++) {
        if (rand01(s) < p[i].cost / z) {
            ++*kcenter;
            for (long k = 0; k < s->num; k++) {
                float d = dist(&p[i], &p[k], s->dim) * p[k].weight;
                if (d < p[k].cost) {
                    p[k].cost = d;
                    p[k].assign = i;
                }
            }
        }
    }
    double cost = z * *kcenter;
    for (long k = 0; k < s->num; k++) cost += p[k].cost;
    return cost;
}

/* Feasible candidates: at most ITER*kmin*ln(kmin) points drawn with probability ~ weight. */
static long select_feasible(sc *s, long *feasible, long kmin, float *accum)
{
    long nf = s->num, cap = (long)(ITER * kmin * log((double)kmin));
    if (nf <= cap) {
        for (long i = 0; i < nf; i++) feasible[i] = i;
        return nf;
    }
    nf = cap;
    accum[0] = s->p[0].weight;
    for (long i = 1; i < s->num; i++) accum[i] = accum[i - 1] + s->p[i].weight;
    for (long i = 0; i < nf; i++) {
        float w = (float)(rand01(s) * accum[s->num - 1]);
        long lo = 0, hi = s->num - 1;
        while (lo < hi) { /* first index whose running weight reaches w */
            long mid = (lo + hi) / 2;
            if (accum[mid] < w)
                lo = mid + 1;
            else
                hi = mid;
        }
        feasible[i] = lo;
    }
    return nf;
}

/* k-median of the current points with kmin..kmax centres (the original's pkmedian). */
static void local_search(sc *s, long kmin, long kmax, long *feasible, float *accum)
{
    point *p = s->p;
    long n = s->num, k = 0;
    memset(s->is_center, 0, (size_t)n);
    s->coord_dirty = 1;
    double hiz = 0, loz = 0;
    for (long i = 0; i < n; i++) hiz += dist(&p[i], &p[0], s->dim) * p[i].weight;
    double z = (hiz + loz) / 2;
    if (n <= kmax) { /* every point is its own centre */
        for (long i = 0; i < n; i++) {
            p[i].assign = i;
            p[i].cost = 0;
        }
        return;
    }
    shuffle_points(s);
    double cost = pspeedy(s, z, &k);
    int tries = 0;
    while (k < kmin && tries < SP) {
        cost = pspeedy(s, z, &k);
        tries++;
    }
    while (k < kmin) {
        if (tries >= SP) {
            hiz = z;
            z = (hiz + loz) / 2;
            tries = 0;
        }
        shuffle_points(s);
        cost = pspeedy(s, z, &k);
        tries++;
    }
    long nf = select_feasible(s, feasible, kmin, accum);
    for (long i = 0; i < n; i++) s->is_center[p[i].assign] = 1;
    long iter = (long)(ITER * kmax * log((double)kmax));
    while (s->rc == WL_OK) {
        cost = pFL(s, feasible, nf, z, &k, cost, iter, 0.1);
        if ((k <= 1.1 * kmax && k >= 0.9 * kmin) || (k <= kmax + 2 && k >= kmin - 2))
            cost = pFL(s, feasible, nf, z, &k, cost, iter, 0.001);
        if (k > kmax) {
            loz = z;
            z = (hiz + loz) / 2;
            cost += (z - loz) * k;
        }
        if (k < kmin) {
            hiz = z;
            z = (hiz + loz) / 2;
            cost += (z - hiz) * k;
        }
        if ((k <= kmax && k >= kmin) || loz >= 0.999 * hiz) break;
    }
}

/* Merge every point into its centre (weighted mean), then append the centres to `centers`. */
static int keep_centers(sc *s, point *centers, long *ncenters)
{
    point *p = s->p;
    for (long i = 0; i < s->num; i++) {
        long a = p[i].assign;
        if (a == i) continue;
        float rel = p[i].weight / (p[a].weight + p[i].weight);
        for (int d = 0; d < s->dim; d++) p[a].coord[d] = p[a].coord[d] * (1.0f - rel) + p[i].coord[d] * rel;
        p[a].weight += p[i].weight;
    }
    memset(s->sw, 0, (size_t)s->num);
    for (long i = 0; i < s->num; i++) s->sw[p[i].assign] = 1; /* sw reused as "is a median" */
    for (long i = 0; i < s->num; i++)
        if (s->sw[i]) {
            if (*ncenters == CENTERS_MAX) /* as the original, which stops with "no more space for centers" */
                return wl_fail(s->c, "more than %d centres kept: use larger chunks", CENTERS_MAX);
            memcpy(centers[*ncenters].coord, p[i].coord, (size_t)s->dim * sizeof(float));
            centers[*ncenters].weight = p[i].weight;
            ++*ncenters;
        }
    return WL_OK;
}

static int run(wl_ctx *c)
{
    long kmin = wl_param(c, "kmin"), kmax = wl_param(c, "kmax"), n = wl_param(c, "n"), chunk = wl_param(c, "chunk");
    int dim = (int)wl_param(c, "dim");
    if (kmin < 2 || kmax < kmin || chunk > n) return wl_fail(c, "need 2 <= kmin <= kmax and chunk <= n");
    sc s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.dim = dim;
    wl_rng_seed(&s.rng, 1);
    long cap = chunk > CENTERS_MAX ? chunk : CENTERS_MAX;
    point *pts = malloc((size_t)cap * sizeof(point)), *centers = malloc(CENTERS_MAX * sizeof(point));
    float *block = malloc((size_t)cap * dim * sizeof(float)), *cblock = malloc((size_t)CENTERS_MAX * dim * sizeof(float));
    long *feasible = malloc((size_t)cap * sizeof(long));
    float *accum = malloc((size_t)cap * sizeof(float));
    s.is_center = malloc((size_t)cap);
    s.sw = malloc((size_t)cap);
    s.want_sw = malloc((size_t)cap);
    s.center_table = calloc((size_t)cap, sizeof(int));
    s.coord_t = malloc((size_t)cap * dim * sizeof(float));
    s.lower = malloc((size_t)(cap + 1) * sizeof(float));
    s.dp = malloc((size_t)cap * sizeof(dev_point));
    s.rc = (pts && centers && block && cblock && feasible && accum && s.is_center && s.sw && s.want_sw &&
            s.center_table && s.coord_t && s.lower && s.dp) ? WL_OK : WL_ERROR;
    if (s.rc == WL_OK) s.rc = wl_alloc(c, &s.d_coord, (size_t)cap * dim * sizeof(float));
    if (s.rc == WL_OK) s.rc = wl_alloc(c, &s.d_p, (size_t)cap * sizeof(dev_point));
    if (s.rc == WL_OK) s.rc = wl_alloc(c, &s.d_ct, (size_t)cap * sizeof(int));
    if (s.rc == WL_OK) s.rc = wl_alloc(c, &s.d_sw, (size_t)cap);
    for (long i = 0; s.rc == WL_OK && i < CENTERS_MAX; i++) centers[i].coord = cblock + (size_t)i * dim;
    long ncenters = 0, done = 0;
    wl_rng stream;
    wl_rng_seed(&stream, 12345);
    while (s.rc == WL_OK && done < n) { /* one chunk of the simulated stream */
        long m = n - done < chunk ? n - done : chunk;
        for (long i = 0; i < m; i++) {
            pts[i] = (point){1.0f, block + (size_t)i * dim, 0, 0};
            for (int d = 0; d < dim; d++) pts[i].coord[d] = (float)wl_rng_unit(&stream);
        }
        s.p = pts;
        s.num = m;
        local_search(&s, kmin, kmax, feasible, accum);
        if (s.rc == WL_OK) s.rc = keep_centers(&s, centers, &ncenters);
        done += m;
    }
    if (s.rc == WL_OK) { /* cluster the kept centres */
        s.p = centers;
        s.num = ncenters;
        local_search(&s, kmin, kmax, feasible, accum);
    }
    if (s.rc == WL_OK) fprintf(c->out, "%s: %ld pgain launches, %ld centres kept\n", c->desc->name, s.launches, ncenters);
    gtlm_devptr all[] = {s.d_coord, s.d_p, s.d_ct, s.d_sw, s.d_work};
    for (int i = 0; i < 5; i++) gtlm_free(c->sim, all[i]);
    free(pts);
    free(centers);
    free(block);
    free(cblock);
    free(feasible);
    free(accum);
    free(s.is_center);
    free(s.sw);
    free(s.want_sw);
    free(s.center_table);
    free(s.coord_t);
    free(s.lower);
    free(s.dp);
    free(s.work);
    free(s.want);
    return s.rc;
}

const wl_desc workload_rodinia_streamcluster = {
    .name = "Streamcluster",
    .suite = "rodinia",
    .description = "streaming k-median (kmin..kmax centres) of n uniform points in dim dimensions, chunks of "
                   "`chunk` points; one 512-thread-CTA launch per pgain candidate evaluation (paper = the "
                   "original's `10 20 256 65536 65536 1000`; sim halves kmin/kmax to keep ~600 launches with a "
                   "~1 MB working set)",
    .kernels = "kernel_compute_cost",
    .ptx = workload_rodinia_streamcluster_ptx,
    .ptxas = workload_rodinia_streamcluster_ptxas,
    .params = {"kmin", "kmax", "dim", "n", "chunk"},
    .tiny = {3, 6, 16, 1024, 512},
    .sim = {5, 10, 32, 4096, 4096},
    .paper = {10, 20, 256, 65536, 65536},
    .run = run,
};
