/*
 * Hierarchical statistics registry. Blocks own their counters as plain fields (incrementing one
 * costs nothing extra); the registry points at them, names them ("gpu.sm[3].l1d.misses"),
 * gives each a unit and a description, and keeps per-run totals across kernels.
 *
 * Scopes: the kernel scope is the value of the current (or last finished) kernel; the run
 * scope is the sum over every kernel of the run. Counters are zeroed by stat_kernel_begin.
 * A statistic may also carry GPGPU-Sim's names for its kernel and run values
 * ("gpu_sim_cycle" / "gpu_tot_sim_cycle"); the text dump prints those names.
 */
#ifndef GTLM_STATS_H
#define GTLM_STATS_H

#include <stdint.h>
#include <stdio.h>

typedef enum stat_scope { STAT_SCOPE_KERNEL = 0, STAT_SCOPE_RUN = 1 } stat_scope;

typedef enum stat_kind {
    STAT_COUNTER, /* uint64_t owned by a block */
    STAT_REAL,    /* double owned by a block (energy, time) */
    STAT_DERIVED  /* computed from other statistics on demand */
} stat_kind;

typedef struct stat_registry stat_registry;

/* Computes a derived value for a scope from other statistics. */
typedef double (*stat_derive_fn)(const stat_registry *r, stat_scope scope, const void *ctx);

/* Optional facts about a statistic. */
typedef struct stat_names {
    const char *gpgpusim_kernel; /* GPGPU-Sim name of the kernel-scope value, or NULL */
    const char *gpgpusim_run;    /* GPGPU-Sim name of the run-scope value, or NULL */
    int host;                    /* 1: measured on the host (wall time, rates): not deterministic */
} stat_names;

stat_registry *stat_registry_new(void);
void stat_registry_free(stat_registry *r);

/* Registration returns the statistic's id (>= 0) or -1 (duplicate path, bad path, no memory).
 * Paths are dot-separated segments of [A-Za-z0-9_] with optional [index]: "gpu.sm[3].l1d.misses".
 * names may be NULL. */
int stat_add_counter(stat_registry *r, const char *path, uint64_t *src, const char *unit, const char *desc,
                     const stat_names *names);
int stat_add_real(stat_registry *r, const char *path, double *src, const char *unit, const char *desc,
                  const stat_names *names);
int stat_add_derived(stat_registry *r, const char *path, stat_derive_fn fn, const void *ctx, const char *unit,
                     const char *desc, const stat_names *names);
/* num/den of two registered statistics (0 when den is 0). */
int stat_add_ratio(stat_registry *r, const char *path, const char *num_path, const char *den_path,
                   const char *unit, const char *desc, const stat_names *names);
/* Sum of every counter/real whose path matches a pattern where "[*]" matches any index:
 * "gpu.sm[*].l1d.misses". Statistics registered later that match are included too. */
int stat_add_sum(stat_registry *r, const char *path, const char *pattern, const char *unit, const char *desc,
                 const stat_names *names);

/* Kernel boundaries: begin zeroes every counter/real source and starts a kernel; end adds the
 * kernel's values into the run totals and appends a record to the per-kernel history. */
void stat_kernel_begin(stat_registry *r, const char *kernel_name);
void stat_kernel_end(stat_registry *r);
/* Drops the running kernel as if it had never begun: no history record, nothing added to the
 * run totals, every counter/real source back to its value at stat_kernel_begin (a failed launch). */
void stat_kernel_abort(stat_registry *r);
/* Moves src's run totals, kernel history and current source values into dst, which must hold
 * the same statistics registered in the same order (a rebuilt GPU's fresh registry); neither may
 * have a kernel running. Returns 0, or -1 (nothing changed) when they differ. */
int stat_registry_adopt(stat_registry *dst, stat_registry *src);
/* Number of finished kernels. */
int stat_kernel_count(const stat_registry *r);

/* Looks a statistic up by path or by GPGPU-Sim name (which selects its own scope; the scope
 * argument then is ignored). Returns 0, or -1 when the name is unknown. */
int stat_get(const stat_registry *r, const char *name, stat_scope scope, double *out);
int stat_find(const stat_registry *r, const char *path); /* id or -1 */
double stat_value(const stat_registry *r, int id, stat_scope scope);
int stat_count(const stat_registry *r);
const char *stat_path(const stat_registry *r, int id);

/* GPGPU-Sim style "name = value" lines of every statistic that has a GPGPU-Sim name for the
 * scope, then "path = value" for the rest, in registration order. */
int stat_dump_text(const stat_registry *r, FILE *f, stat_scope scope);
/* JSON: {"run": {nested objects by path: {"value", "unit", "description", "host"}},
 *        "kernels": [{"index", "name", "stats": {"path": value, ...}}]} */
int stat_dump_json(const stat_registry *r, FILE *f);

#endif
