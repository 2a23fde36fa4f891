/*
 * The opcode table: which base opcodes and qualifier combinations gtlm's executor runs,
 * how each qualifier maps onto ptx_instr's fields, and which operands each form takes.
 * Internal to the parser.
 */
#ifndef GTLM_PTX_OPCODES_H
#define GTLM_PTX_OPCODES_H

#include <stddef.h>

#include "ptx_ir.h"

/* Decodes "ld.global.v4.f32" into in->op, type, type2, space, rnd, cmp, boolop, mode, vec and
 * flags. Returns 0, or -1 with the reason in why (e.g. "qualifier '.wide' is not valid for add"). */
int ptx_decode_opcode(const char *text, size_t len, ptx_instr *in, char *why, size_t whylen);

/*
 * The operand pattern of a decoded instruction with n operands, one character per operand,
 * or NULL when n operands are wrong (then *expect says how many are right, e.g. "3 or 4").
 *   d  destination register          D  destination register, optionally "d|p"
 *   v  ld destination: register or {vector} (vector iff .v2/.v4)
 *   u  mov destination: register or {vector} to unpack
 *   s  source (register, immediate, special register) of the instruction type
 *   t  source of the second type (cvt source, set/slct comparison operands)
 *   i  integer source (shift amounts, lane masks, barrier ids)
 *   m  mov source: also a symbol's address or a {vector} to pack
 *   y  cvta source: register or symbol
 *   w  st source: register, immediate or {vector} (vector iff .v2/.v4)
 *   p  predicate source, '!' allowed
 *   a  [address]   l  label   x  .branchtargets list name
 * call is parsed separately and has no pattern.
 */
const char *ptx_operand_pattern(const ptx_instr *in, unsigned n, const char **expect);

/* Writes the canonical opcode string of a decoded instruction ("ld.global.nc.v2.f64"). */
void ptx_format_opcode(const ptx_instr *in, char *buf, size_t len);

/* The ptx_type of a type qualifier without its dot ("b32"), PT_NONE when it is not one,
 * or -1 for a type gtlm does not support (bf16, f16x2, b128, ...). */
int ptx_type_from_name(const char *s, size_t len);

#endif
