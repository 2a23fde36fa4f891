/*
 * SASS opcodes of Accel-Sim traces: what class of unit executes each one, and a table that
 * interns the full opcode strings a run meets ("LDG.E.64.SYS") into small ids.
 *
 * Classification is by the base name (the text before the first '.'), per GPU family of the
 * trace's binary version: Pascal 60..69, Volta 70..74, Turing 75..79, Ampere/Ada 80..89,
 * Hopper 90. The classes follow the unit categories of Accel-Sim's opcode maps (ISA_Def/
 * pascal_, volta_, turing_, ampere_, hopper_opcode.h), with these gtlm choices:
 *   - conversion, move, predicate, uniform-datapath (U*, R2UR, S2UR, VOTEU, REDUX) and
 *     miscellaneous ops (S2R, CS2R, DEPBAR, ...) issue on the integer pipeline (TOC_INT);
 *   - LDC and ULDC (constant-bank loads) are TOC_INT: NVBit does not report constant-space
 *     accesses as memory, so their trace lines carry mem_width 0 and no address (all six
 *     sample traces), and Accel-Sim times them as ALU ops too;
 *   - texture and surface ops (TEX, TLD, SULD, ...) are TOC_INT for the same reason (no
 *     per-lane address in the trace); Accel-Sim gives textures a fixed-latency unit instead;
 *   - control flow (BRA, BSSY, CALL, RET, WARPSYNC, SSY, PBK, ...) is TOC_BRANCH, which takes
 *     the integer pipeline's latency (trace_latency);
 *   - Hopper warpgroup MMAs (HGMMA, ...) are TOC_TENSOR; WARPGROUP/USETMAXREG are TOC_NOP;
 *     TMA bulk copies (UTMALDG, UBLKCP, ...) are not mapped (their address format differs).
 */
#ifndef GTLM_TRACE_OPCODES_H
#define GTLM_TRACE_OPCODES_H

#include <stdint.h>

typedef enum trace_op_class {
    TOC_INT = 0, TOC_SP, TOC_DP, TOC_SFU, TOC_TENSOR, /* ALU classes: latency from options */
    TOC_LOAD, TOC_STORE, TOC_ATOMIC,                 /* memory: space says where */
    TOC_BARRIER, TOC_MEMBAR, TOC_BRANCH, TOC_EXIT, TOC_NOP, TOC_N
} trace_op_class;

typedef struct trace_op_info {
    uint8_t cls;     /* trace_op_class */
    uint8_t space;   /* memory: ptx_space (PS_GLOBAL, PS_SHARED, PS_LOCAL, PS_CONST, PS_GENERIC
                        for generic LD/ST/ATOM/RED) from model/ptx/ptx_ir.h; else 0 */
    uint8_t width;   /* bytes per lane from a suffix (.U8/.S8 1, .U16/.S16/.16 2, .32 4, .64 8,
                        .128 16; LDSM 16, one 8x8 16-bit matrix row per lane), 0 = none;
                        memory classes only */
    uint8_t unknown; /* no mapping: treated as TOC_INT */
} trace_op_info;

/* The GPU families the maps cover; -1 for a binary version outside 60..90. */
int trace_opcode_family(uint32_t binary_version);
/* Returns 1 for TOC_LOAD, TOC_STORE, TOC_ATOMIC. */
int trace_op_is_memory(int cls);
/* Short class name ("int", "load", ...) for messages and reports. */
const char *trace_op_class_name(int cls);

/* Classifies a full opcode with modifiers ("LDG.E.64.SYS", "ISETP.GE.AND", "BAR.SYNC", "EXIT")
 * by its base name for binary versions 60..90. Returns 0, or -1 when the base is unknown for
 * that version (or the version is outside 60..90); out is then zeroed. */
int trace_opcode_classify(const char *opcode, uint32_t binary_version, trace_op_info *out);

typedef struct trace_opcode_table { /* interns full opcode strings; ids in first-seen order */
    char **names;
    trace_op_info *info;
    int8_t *family;    /* family the entry was classified for (one run may mix versions) */
    uint64_t *uses;    /* interning calls per id (= trace lines when the reader interns) */
    uint32_t n, cap;
    uint32_t *slots;   /* open-addressing hash index: id + 1, 0 = empty */
    uint32_t nslots;   /* power of two */
    uint64_t unknown_uses;
} trace_opcode_table;

void trace_opcode_table_init(trace_opcode_table *t);
void trace_opcode_table_free(trace_opcode_table *t);
/* Id of opcode (interned, classified); -1 if unknown and !unknown_as_alu (nothing is added),
 * or when memory runs out. An unknown opcode accepted as ALU is counted in unknown_uses. */
int trace_opcode_intern(trace_opcode_table *t, const char *opcode, uint32_t binary_version, int unknown_as_alu);
const char *trace_opcode_name(const trace_opcode_table *t, int id);
const trace_op_info *trace_opcode_info(const trace_opcode_table *t, int id);
uint32_t trace_opcode_count(const trace_opcode_table *t);
uint64_t trace_opcode_unknown_uses(const trace_opcode_table *t); /* lines whose opcode was unknown */
uint64_t trace_opcode_uses(const trace_opcode_table *t, int id);  /* interning calls for one id */

#endif
