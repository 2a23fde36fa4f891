/* The statistics registry's private layout, shared by its registration and dump files. */
#ifndef GTLM_STATS_INTERNAL_H
#define GTLM_STATS_INTERNAL_H

#include "../common/strset.h"
#include "stats.h"

/* Internally ratio and sum are their own kinds; the public API reports them as STAT_DERIVED. */
typedef enum entry_kind { E_COUNTER, E_REAL, E_FN, E_RATIO, E_SUM } entry_kind;

typedef struct stat_entry {
    char *path;
    char *unit;
    char *desc;
    char *gpgpusim_kernel; /* NULL when absent */
    char *gpgpusim_run;
    int host;
    entry_kind kind;
    uint64_t *csrc;   /* E_COUNTER */
    double *rsrc;     /* E_REAL */
    uint64_t run_u;   /* totals of finished kernels (counter) */
    double run_d;     /* totals of finished kernels (real) */
    stat_derive_fn fn; /* E_FN */
    const void *ctx;
    int num, den;     /* E_RATIO: ids */
    char *pattern;    /* E_SUM */
    int *members;     /* E_SUM: ids of matching counters/reals, registration order */
    int nmembers, capmembers;
} stat_entry;

/* A value with its exact integer form kept for counters (a double loses bits above 2^53). */
typedef struct stat_val {
    int is_int;
    uint64_t u;
    double d;
} stat_val;

typedef struct kernel_rec {
    char *name;
    int nstats;     /* statistics registered when the kernel ended */
    stat_val *vals; /* kernel-scope value of each of them */
} kernel_rec;

struct stat_registry {
    stat_entry *v;
    int n, cap;
    strset paths, gnames; /* registered paths; GPGPU-Sim names (the checks of a new name) */
    strset prefixes;      /* every proper dot-prefix of a registered path */
    int *sums, nsums, capsums; /* ids of the sum entries (a new counter joins those it matches) */
    kernel_rec *k;
    int nk, capk;
    int open;        /* a kernel is running: its live values count in the run scope */
    char *open_name; /* name of the running kernel */
    stat_val *saved; /* the sources' values when the running kernel began (stat_kernel_abort) */
    int nsaved, capsaved;
};

/* Value of statistic id in a scope, exact for counters. */
stat_val stat_eval(const stat_registry *r, int id, stat_scope scope);

#endif
