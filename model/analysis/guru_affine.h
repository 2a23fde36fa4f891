/*
 * Affine values and predicates for LocalityGuru's symbolic closed form (guru_sym.h): a register
 * holds c0 + sum_v c[v] * v over the thread index (tid.x/y/z), the block index (ctaid.x/y/z) and
 * one induction variable per enclosing loop (k0 outermost), with the kernel parameters and the
 * launch shape already folded into constants. A value is a mathematical integer; 32-bit registers
 * hold it modulo 2^32, which add, sub, mul and shl respect, so only where a value is widened or
 * compared must it lie in the type's range (an obligation, checked per TB over its index box).
 * A predicate is a small disjunction of conjunctions of atoms "affine >= 0".
 */
#ifndef GTLM_GURU_AFFINE_H
#define GTLM_GURU_AFFINE_H

#include <stdint.h>

enum { GA_TID = 0, GA_CTAID = 3, GA_K = 6, GA_MAXLOOP = 4, GA_NV = GA_K + GA_MAXLOOP };

typedef struct ga_aff {
    int64_t c0, c[GA_NV];
    uint8_t known;     /* 0: not affine (opaque) */
    uint32_t why_line; /* opaque: the PTX line that made it so */
} ga_aff;

#define GA_TERMS 4 /* disjuncts */
#define GA_ATOMS 4 /* atoms per disjunct */

typedef struct ga_term { uint8_t n; ga_aff atom[GA_ATOMS]; } ga_term;

typedef struct ga_dnf {
    int8_t n;          /* disjuncts; 0 = false, -1 = opaque; a disjunct with no atom is true */
    uint32_t why_line;
    ga_term t[GA_TERMS];
} ga_dnf;

ga_aff ga_const(int64_t c);
ga_aff ga_var(int v);
ga_aff ga_opaque(uint32_t line);
int ga_is_const(const ga_aff *a);
int ga_uses_var(const ga_aff *a, int v);
int ga_equal(const ga_aff *a, const ga_aff *b);
/* x*a + y*b; opaque when an input is or a coefficient overflows (line names the instruction). */
ga_aff ga_lin(int64_t x, const ga_aff *a, int64_t y, const ga_aff *b, uint32_t line);
/* a * b when one of them is constant, else opaque. */
ga_aff ga_mul(const ga_aff *a, const ga_aff *b, uint32_t line);
/* a with variable v replaced by x * v + y (x = 0: by the constant y). */
ga_aff ga_subst(const ga_aff *a, int v, int64_t x, int64_t y, uint32_t line);

ga_dnf ga_true(void);
ga_dnf ga_false(void);
ga_dnf ga_popaque(uint32_t line);
ga_dnf ga_atom(const ga_aff *a); /* a >= 0, folded when constant */
ga_dnf ga_and(const ga_dnf *a, const ga_dnf *b, uint32_t line);
ga_dnf ga_or(const ga_dnf *a, const ga_dnf *b, uint32_t line);
ga_dnf ga_not(const ga_dnf *a, uint32_t line);
int ga_dnf_equal(const ga_dnf *a, const ga_dnf *b);

/* floor / ceil of a / b (b != 0). */
int64_t ga_floordiv(int64_t a, int64_t b);
int64_t ga_ceildiv(int64_t a, int64_t b);

#endif
