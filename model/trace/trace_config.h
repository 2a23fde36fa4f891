/* Options of the trace-driven front end (Accel-Sim SASS traces). */
#ifndef GTLM_TRACE_CONFIG_H
#define GTLM_TRACE_CONFIG_H

#include <stdint.h>

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

typedef struct trace_config {
    gsim_int_list lat_init[5]; /* int, sp, dp, sfu, tensor: "latency,initiation" in core cycles */
    int unknown_as_alu;        /* an opcode with no mapping runs as an integer op instead of failing */
} trace_config;

int trace_options_register(opt_registry *r, trace_config *c, strbuf *err);
int trace_config_check(const opt_registry *r, const trace_config *c, strbuf *err);

/* Latency and initiation interval of an ALU class (TOC_INT..TOC_TENSOR) from the options.
 * Control and no-op classes (TOC_BRANCH, TOC_EXIT, TOC_NOP, TOC_BARRIER, TOC_MEMBAR) issue on
 * the integer pipeline and get TOC_INT's values, as Accel-Sim times branches without a branch
 * unit. Returns 0, or -1 for the memory classes (their timing is the memory pipeline's) and
 * for a class out of range. */
int trace_latency(const trace_config *c, int cls, uint16_t *lat, uint16_t *init);

#endif
