/* Occupancy: how many CTAs of a kernel fit on one SM at once, and which resource binds.
 *
 * Threads per CTA are padded to whole warps (a partial warp occupies a full warp slot). Each
 * resource gives a bound; the result is the smallest:
 *   threads   max_threads / padded threads per CTA
 *   CTA slots max_ctas
 *   registers by the register-allocation rule below (no bound when the kernel uses none)
 *   shared    shmem_size / (static + dynamic shared memory per CTA) (no bound when it uses none)
 * A CTA that does not fit at all gives 0 CTAs (bound 0 from the resource that is too small;
 * also when regs_per_thread exceeds max_regs_per_thread, which is then reported as registers).
 *
 * Register allocation rules:
 *   OCC_REGS_GPGPUSIM (default): GPGPU-Sim 3.x: registers per thread rounded up to a multiple of
 *       4, times padded threads per CTA, allocated per CTA: registers / (padded * round4(regs)).
 *   OCC_REGS_EXACT: registers / (padded * regs), no rounding.
 *   OCC_REGS_PER_WARP: CUDA occupancy calculator style: each warp takes regs * warp_size rounded
 *       up to `unit` registers (Fermi, compute 2.x: 64; Kepler and later: 256); whole warps fit,
 *       CTAs = floor(warps that fit / warps per CTA).
 * Shared memory is allocated exactly (GPGPU-Sim 3.x); an allocation unit can be given in bytes. */
#ifndef GTLM_SM_OCCUPANCY_H
#define GTLM_SM_OCCUPANCY_H

#include <stdint.h>

struct sm_config;

enum occ_reg_rule { OCC_REGS_GPGPUSIM = 0, OCC_REGS_EXACT = 1, OCC_REGS_PER_WARP = 2 };

/* Bits of occ_result.limits and values of occ_result.limit (the first binding one in this order,
 * GPGPU-Sim's "limited by: threads cta_limit regs shmem" order). */
enum occ_limit {
    OCC_LIMIT_THREADS = 1,
    OCC_LIMIT_CTAS = 2,
    OCC_LIMIT_REGS = 4,
    OCC_LIMIT_SHMEM = 8
};

typedef struct occ_sm {
    uint32_t max_threads;        /* -gpgpu_shader_core_pipeline first */
    uint32_t warp_size;          /* -gpgpu_shader_core_pipeline second */
    uint32_t max_ctas;           /* -gpgpu_shader_cta */
    uint32_t registers;          /* -gpgpu_shader_registers */
    uint32_t max_regs_per_thread;/* -gpgpu_shader_max_regs_per_thread style cap, 0 = none */
    uint32_t shmem_size;         /* -gpgpu_shmem_size, bytes */
} occ_sm;

typedef struct occ_kernel {
    uint32_t threads_per_cta;    /* blockDim.x * y * z */
    uint32_t regs_per_thread;    /* ptxas "Used N registers" */
    uint32_t shmem_static;       /* ptxas "N bytes smem" */
    uint32_t shmem_dynamic;      /* launch's dynamic shared memory */
} occ_kernel;

typedef struct occ_alloc {
    int reg_rule;                /* occ_reg_rule */
    uint32_t reg_unit;           /* OCC_REGS_PER_WARP: registers per allocation unit (> 0) */
    uint32_t shmem_unit;         /* bytes per shared-memory allocation unit, 0 or 1 = exact */
} occ_alloc;

typedef struct occ_result {
    uint32_t ctas;               /* CTAs per SM, 0 when one does not fit */
    uint32_t warps_per_cta;      /* padded */
    uint32_t by_threads, by_ctas, by_regs, by_shmem; /* each bound, UINT32_MAX = unbounded */
    unsigned limits;             /* every resource whose bound equals ctas (occ_limit bits) */
    unsigned limit;              /* the first of them in occ_limit order */
} occ_result;

/* The SM's limits from its configuration. */
void occ_sm_from_config(const struct sm_config *c, occ_sm *sm);
/* GPGPU-Sim's rule (all-zero occ_alloc is the same). */
static inline occ_alloc occ_alloc_default(void)
{
    occ_alloc a = {OCC_REGS_GPGPUSIM, 0, 0};
    return a;
}

/* alloc may be NULL (the default). Returns 0, or -1 for an invalid input (zero threads per CTA,
 * zero warp size, unknown rule, OCC_REGS_PER_WARP with unit 0); *r is zeroed then. */
int occ_compute(const occ_sm *sm, const occ_kernel *k, const occ_alloc *alloc, occ_result *r);

#endif
