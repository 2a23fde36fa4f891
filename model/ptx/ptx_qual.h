/*
 * Internal to the opcode decoder (ptx_opcodes.c, ptx_opcheck.c): qualifier classes, the
 * decoded qualifiers of one instruction, and the opcode table with its validity checks.
 */
#ifndef GTLM_PTX_QUAL_H
#define GTLM_PTX_QUAL_H

#include <stddef.h>
#include <stdint.h>

#include "ptx_ir.h"

/* Classes of qualifiers. A qualifier string may belong to several ("lo": compare or mul
 * mode); the opcode's allowed classes pick one. */
enum qclass {
    QC_TYPE, QC_SPACE, QC_RND, QC_CMP, QC_BOOL, QC_MUL, QC_SHFL, QC_VOTE, QC_ATOM, QC_SHF, QC_BAR, QC_BRED,
    QC_LEVEL, QC_TESTP, QC_PRMT, QC_VEC, QC_SEM, QC_SCOPE, QC_CACHE, QC_WARP, QC_IDX, QC_TO, QC_ALIGNED, QC_UNI,
    QC_SYNC, QC_FTZ, QC_SAT, QC_APPROX, QC_FULL, QC_CC, QC_NC, QC_VOLATILE, QC_WRAP, QC_CLAMP, QC_SHIFTAMT,
    QC_INDIRECT, QC_COUNT
};
#define Q(c) (1ull << QC_##c)

enum { BAR_SYNC = 1, BAR_ARRIVE, BAR_RED };
enum { LVL_CTA = 1, LVL_GL, LVL_SYS, LVL_GPU };
enum { SEM_RELAXED = 1, SEM_ACQUIRE, SEM_RELEASE, SEM_ACQ_REL, SEM_SC, SEM_WEAK };
enum { SCOPE_CTA = 1, SCOPE_GPU, SCOPE_SYS };
#define TYPE_UNSUPPORTED 0xFF

/* Decoded qualifiers of one instruction: v[class] = value, 0 when absent. */
typedef struct qd {
    uint8_t v[QC_COUNT];
    uint8_t types[2];
    uint8_t ntypes;
} qd;

/* Validates the qualifiers of one opcode and sets in->type, type2 and mode (the decoder sets
 * the other fields); returns -1 with the reason in why. op is the base name. */
typedef int (*check_fn)(const qd *q, ptx_instr *in, const char *op, char *why, size_t n);

typedef struct ptx_opspec {
    const char *name;  /* base name: "ld" */
    uint16_t op;       /* ptx_op */
    uint64_t allowed;  /* qualifier classes, Q(...) bits */
    check_fn check;
} ptx_opspec;

extern const char *const ptx_qclass_name[QC_COUNT];
/* The opcode of a base name ("ld"), or NULL. */
const ptx_opspec *ptx_find_opspec(const char *s, size_t len);
/* Writes a reason for rejecting an instruction into why; returns -1. */
int ptx_reason(char *why, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Compares a length-delimited string with a C string, like strcmp. */
int ptx_cmp_name(const char *a, size_t alen, const char *b);

#endif
