/*
 * The benchmark suite's plug-in interface. Each workload is a folder
 * workloads/<suite>/<name>/ with <name>.cu (our own CUDA source), <name>.ptx (nvcc -ptx
 * -arch=compute_75), <name>.ptxas.txt (ptxas -v -arch=sm_75 output) and <name>.c, a host
 * driver that uses only the public C API. The driver defines
 *     const wl_desc workload_<suite>_<name> = {...};
 * and the build registers it (workloads/CMakeLists.txt generates the registry from the
 * folders), embedding the .ptx and .ptxas.txt text as workload_<suite>_<name>_ptx[] and
 * workload_<suite>_<name>_ptxas[].
 */
#ifndef GTLM_WORKLOAD_H
#define GTLM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <gtlm/gtlm.h>

#define WL_MAX_PARAMS 7

/* Result of a workload run. */
enum { WL_OK = 0, WL_WRONG = 1, WL_ERROR = 2, WL_USAGE = 3 /* bad size or parameter */ };

typedef struct wl_ctx wl_ctx;

typedef struct wl_desc {
    const char *name;        /* "ATAX": as the documents abbreviate it */
    const char *suite;       /* "polybench", "rodinia", "sdk", "parboil", "ispass", "pannotia" */
    const char *description; /* one line */
    const char *kernels;     /* "atax_kernel1, atax_kernel2" */
    const char *ptx;         /* the embedded .ptx text */
    const char *ptxas;       /* the embedded ptxas -v output */
    /* Size parameters: names and their values per preset (unused slots NULL / 0). */
    const char *params[WL_MAX_PARAMS];
    long tiny[WL_MAX_PARAMS], sim[WL_MAX_PARAMS], paper[WL_MAX_PARAMS];
    /* The "doc" preset: the input the documents evaluate this benchmark with, and which
     * documents and figures it comes from. A benchmark whose documents state no input leaves
     * doc_source NULL and "doc" means its paper size. */
    long doc[WL_MAX_PARAMS];
    const char *doc_source;
    /* Allocates, launches, verifies. Returns WL_OK, WL_WRONG (verification failed, reported
     * through wl_fail) or WL_ERROR (an API call failed, reported through wl_check). */
    int (*run)(wl_ctx *c);
    /* Optional: NULL when the size parameters p (desc->params order) are supported, else what is
     * wrong ("m must be a multiple of 128"); wl_run rejects them before the run. */
    const char *(*check)(const long *p);
} wl_desc;

struct wl_ctx {
    gtlm_sim *sim;
    gtlm_module *mod;
    const wl_desc *desc;
    long p[WL_MAX_PARAMS];   /* the chosen size parameters, in desc->params order */
    int corrupt;             /* test hook: wl_corrupt() flips one output element */
    FILE *out;               /* progress and verification messages */
    int failures;            /* mismatches reported so far */
    uint64_t digest;         /* FNV-1a over every byte downloaded, in order (modes must agree) */
};

/* Value of a size parameter by name (aborts the run with WL_ERROR if the name is unknown). */
long wl_param(const wl_ctx *c, const char *name);

/* Reports a failed API call; returns WL_ERROR when rc != GTLM_OK, else WL_OK. */
int wl_check(wl_ctx *c, int rc, const char *what);
#define WL_TRY(c, call)                                                                            \
    do {                                                                                           \
        if (wl_check((c), (call), #call) != WL_OK) return WL_ERROR;                                \
    } while (0)

/* The configuration's SM count (clusters x cores per cluster), 0 when it cannot be read. */
int wl_sm_count(wl_ctx *c);

/* Device buffer helpers (each reports failures through wl_check). */
int wl_alloc(wl_ctx *c, gtlm_devptr *p, size_t bytes);
int wl_upload(wl_ctx *c, gtlm_devptr *p, const void *host, size_t bytes); /* alloc + copy */
int wl_download(wl_ctx *c, void *host, gtlm_devptr p, size_t bytes);

/* Launch with arguments given as pointers and sizes (NULL-terminated pairs are awkward in C:
 * pass arrays). */
int wl_launch(wl_ctx *c, const char *kernel, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
              unsigned bz, size_t dyn_shared, const void *const *args, const size_t *sizes, size_t n);

/* Test hook: when c->corrupt is set, flips the low bit of the element at index 0 of the
 * device buffer p (elem bytes wide) so that verification must fail. Call it on the main
 * output just before copying it back. */
int wl_corrupt(wl_ctx *c, gtlm_devptr p, size_t elem);

/* Deterministic inputs: xorshift64* seeded per workload. */
typedef struct wl_rng {
    uint64_t s;
} wl_rng;
void wl_rng_seed(wl_rng *r, uint64_t seed);
uint64_t wl_rng_next(wl_rng *r);
double wl_rng_unit(wl_rng *r);             /* [0, 1) */
long wl_rng_range(wl_rng *r, long lo, long hi); /* [lo, hi] */
/* v[i] = (float)(unit draw * scale) for i < n, in order. */
void wl_fill_f32(wl_rng *r, float *v, size_t n, double scale);

/* Verification: exact integer comparison, and floats within a relative tolerance (PolyBench's
 * percentDiff rule: |a-b| / (|a| + 1e-8) * 100 > pct fails, pairs with both |a|,|b| < small are
 * skipped). Each reports the first few mismatches and returns the number of mismatches. */
long wl_compare_i32(wl_ctx *c, const char *what, const int32_t *got, const int32_t *want, size_t n);
long wl_compare_u32(wl_ctx *c, const char *what, const uint32_t *got, const uint32_t *want, size_t n);
long wl_compare_f32(wl_ctx *c, const char *what, const float *got, const float *want, size_t n, double pct,
                    double small);
long wl_compare_f64(wl_ctx *c, const char *what, const double *got, const double *want, size_t n, double pct,
                    double small);
/* Records a verification failure with a message; returns WL_WRONG. */
int wl_fail(wl_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The registry (generated). */
extern const wl_desc *const wl_registry[];
extern const size_t wl_registry_count;
extern const char *const wl_registry_ids[]; /* "suite/folder" of each entry */
/* By name, "suite/name" or "suite/folder", case-insensitively; NULL when unknown or ambiguous. */
const wl_desc *wl_find(const char *name);

/* Runs a workload: loads its module (and ptxas resources), picks the size, runs, verifies.
 * size: "tiny", "sim", "paper" or "doc"; overrides: "name=value" strings for size parameters. */
int wl_run(const wl_desc *d, gtlm_sim *sim, const char *size, const char *const *overrides, size_t n_overrides,
           int corrupt, FILE *out);

#endif
