/* The SASS opcode an executed PTX instruction is written as in an Accel-Sim trace (table and
 * reasons in docs/traces.md). Only the first dot-separated token matters to Accel-Sim (it picks
 * the functional unit from its per-architecture opcode map), plus the width suffix of memory
 * opcodes (.U8 .U16 .64 .128), from which its parser re-derives the access size. */
#ifndef GTLM_TRACE_SASS_MAP_H
#define GTLM_TRACE_SASS_MAP_H

#include <stdint.h>

#include "../ptx/ptx_ir.h"

typedef struct trace_sass {
    char opcode[48];
    uint8_t is_mem; /* written with mem_width and addresses (global, shared, local, generic spaces) */
    uint8_t width;  /* bytes per lane of a memory instruction, vector size included */
} trace_sass;

/* in_kernel: the instruction belongs to a .entry function (ret is then EXIT, and ld.param of a
 * kernel parameter is a constant-bank load). */
void trace_sass_map(const ptx_instr *in, int in_kernel, trace_sass *out);

#endif
