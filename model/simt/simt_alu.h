/*
 * Warp-wide semantics of the instructions that neither touch memory nor steer control flow
 * nor exchange data between lanes: integer and floating-point arithmetic, bit manipulation,
 * comparison, selection and conversion (ptx_ops OP_ADD .. OP_SLCT and OP_CVT, except
 * OP_MOV/OP_CVTA which the executor does itself).
 *
 * The executor fetches each source operand (register, immediate, special register) as raw
 * bits into src[k][lane], k in PTX order after the destination(s), and stores dst[0][lane]
 * (and dst[1][lane] for a second result) into the destination registers as 64-bit slots.
 * The ALU interprets the raw bits by the instruction's type, as PTX's relaxed type rules say:
 * a .u32 operation reads the low 32 bits of its sources; results are written zero-extended
 * to 64 bits (sign-extension of narrow signed results is not done: registers hold the bits
 * of their declared width); predicates are 0 or 1.
 */
#ifndef GTLM_SIMT_ALU_H
#define GTLM_SIMT_ALU_H

#include <stdint.h>

#include "../ptx/ptx_ir.h"

#define SIMT_WARP 32

enum {
    SIMT_ALU_OK = 0,
    SIMT_ALU_UNSUPPORTED = -1 /* an opcode/type/qualifier combination the ALU does not implement */
};

/* Executes in for the lanes set in active.
 * src: nsrc source operands, each 32 lane values (raw bits; a '!%p' operand arrives inverted).
 * dst: dst[0] receives the result; dst[1] the second result where there is one
 *      (setp/set "p|q": q = the complement of p combined by the boolean operator).
 * carry: the per-lane .cc flag, one bit per lane; read by addc/subc/madc, written by .cc forms.
 * Lanes not in active are left untouched in dst. */
int simt_alu(const ptx_instr *in, const uint64_t (*src)[SIMT_WARP], int nsrc, uint64_t (*dst)[SIMT_WARP],
             uint32_t active, uint32_t *carry);

/* Whether simt_alu implements this instruction (used by the loader to reject a module with
 * an instruction the ALU cannot run, at load time rather than at run time). */
int simt_alu_supports(const ptx_instr *in);

#endif
