/* gtlm microbench: what the compute rows (cmd_microbench.c) and the memory rows
 * (microbench_mem.c) share: one simulator with the microbenchmark module loaded, option readers,
 * the 16/48-step measurement and the printed rows. */
#ifndef GTLM_MICROBENCH_H
#define GTLM_MICROBENCH_H

#include <stddef.h>

#include <gtlm/gtlm.h>

#include "dram/dram_addr.h"

typedef struct mb {
    gtlm_sim *sim;
    gtlm_module *mod;
    gtlm_devptr out;
    int failed;
} mb;

/* An integer option of m's simulator (0 when unset). */
long mb_opt(mb *m, const char *name);
/* A real option (the clock domains' MHz are read with mb_clock). */
/* MHz of clock domain i (0 core, 1 interconnect, 2 L2, 3 DRAM) of -gpgpu_clock_domains. */
double mb_clock(mb *m, int i);
/* Field `key` of -gpgpu_dram_timing_opt ("nbk=16:CCD=2:..."), 0 when absent. */
long mb_dram_timing(mb *m, const char *key);
/* Cost of one step of kernel STEM with one 4- or 8-byte argument (per form: args[f]):
 * (48-step clock difference - 16-step one) / 32; -1 on failure. */
double mb_measure2(mb *m, const char *stem, unsigned threads, const void *const args[2], size_t size);
/* The L2's line size, data-port width in bytes (the 5th field of -gpgpu_cache:dl2, the line
 * when absent) and whether it is sectored. */
void mb_l2_geometry(mb *m, long *line, long *port, int *sectored);
/* The DRAM address map of m's options (-gpgpu_mem_addr_mapping, -gpgpu_n_mem, nbk): 0 or -1. */
int mb_addr_map(mb *m, dram_addr_map *map);
/* A row that must match exactly, and one that must lie in [lo, hi]. */
void mb_row(mb *m, const char *name, double got, double want, const char *formula);
void mb_row_range(mb *m, const char *name, double got, double lo, double hi, const char *formula);

/* The memory rows: L2 hit and DRAM row-hit / row-conflict pointer chases (microbench_mem.c).
 * They make their own simulators from the same arguments (overrides appended). */
struct cli_args;
void mb_memory(const struct cli_args *a, int *failed);
/* A simulator of the arguments a plus n_extra override strings, the module loaded (0, or -1). */
int mb_make(const struct cli_args *a, const char *const *extra, int n_extra, mb *m);
/* The saturation, data-port and MSHR rows (microbench_limits.c), each on its own simulators. */
void mb_limits(const struct cli_args *a, int *failed);

#endif
