/* Functional-unit class, latency and initiation interval of a PTX instruction, from the SM's
 * configuration (-ptx_opcode_latency_* / -ptx_opcode_initiation_* lists in GPGPU-Sim's
 * ADD,MAX,MUL,MAD,DIV order, -ptx_opcode_*_sfu, unit counts).
 *
 * Mapping (GPGPU-Sim 3.x's, from its documentation of the option lists):
 *   memory      ld, st, atom, red -> the LD/ST unit (latency from the memory system); membar and
 *               fence are integer ops whose warp then waits for its stores' acknowledgements
 *   transcendental rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh -> SFU (sfu latency/initiation)
 *   divide      div, rem: DIV entry of the type's list; SFU unit
 *   f64         the dp list; DP unit when -gpgpu_num_dp_units > 0, else the SFU (Fermi GTX480)
 *   f32         the fp list; SP unit
 *   integer and everything else (mov, cvt, setp, logic, branches, ...): the int list; INT unit
 *               when -gpgpu_num_int_units > 0, else SP
 *   op index    min/max -> MAX, mul/mul24 -> MUL, mad/mad24/fma/sad/madc -> MAD, div/rem -> DIV,
 *               everything else -> ADD. */
#ifndef GTLM_SM_FU_CLASS_H
#define GTLM_SM_FU_CLASS_H

#include <stdint.h>

struct ptx_instr;
struct sm_config;

typedef enum fu_unit { FU_SP = 0, FU_SFU, FU_DP, FU_INT, FU_MEM, FU_N } fu_unit;

#define FU_MAX_UNITS 8 /* instances of one class an SM may have (-gpgpu_num_*_units) */

typedef struct fu_timing {
    uint8_t unit;       /* fu_unit */
    uint16_t latency;   /* cycles from issue to the result being readable */
    uint16_t initiation;/* cycles the unit is busy before it takes the next instruction */
} fu_timing;

/* Unit names for statistics ("sp", "sfu", ...). */
const char *fu_unit_name(int unit);
fu_timing fu_timing_of(const struct sm_config *c, const struct ptx_instr *in);
/* Units of each class on one SM (0 for classes mapped elsewhere; MEM is 1). */
int fu_unit_count(const struct sm_config *c, int unit);

#endif
