#include "guru_affine.h"

#include <string.h>

ga_aff ga_const(int64_t c)
{
    ga_aff a;
    memset(&a, 0, sizeof a);
    a.c0 = c, a.known = 1;
    return a;
}

ga_aff ga_var(int v)
{
    ga_aff a = ga_const(0);
    a.c[v] = 1;
    return a;
}

ga_aff ga_opaque(uint32_t line)
{
    ga_aff a;
    memset(&a, 0, sizeof a);
    a.why_line = line;
    return a;
}

int ga_is_const(const ga_aff *a)
{
    if (!a->known) return 0;
    for (int v = 0; v < GA_NV; v++)
        if (a->c[v]) return 0;
    return 1;
}

int ga_uses_var(const ga_aff *a, int v) { return a->known && a->c[v] != 0; }

int ga_equal(const ga_aff *a, const ga_aff *b)
{
    if (!a->known || !b->known) return 0;
    if (a->c0 != b->c0) return 0;
    for (int v = 0; v < GA_NV; v++)
        if (a->c[v] != b->c[v]) return 0;
    return 1;
}

/* x*p + y*q without overflow, else 0 with *ok cleared. */
static int64_t lin1(int64_t x, int64_t p, int64_t y, int64_t q, int *ok)
{
    int64_t s, t, r;
    if (__builtin_mul_overflow(x, p, &s) || __builtin_mul_overflow(y, q, &t) || __builtin_add_overflow(s, t, &r)) {
        *ok = 0;
        return 0;
    }
    return r;
}

ga_aff ga_lin(int64_t x, const ga_aff *a, int64_t y, const ga_aff *b, uint32_t line)
{
    if (!a->known) return *a;
    if (!b->known) return *b;
    ga_aff r = ga_const(0);
    int ok = 1;
    r.c0 = lin1(x, a->c0, y, b->c0, &ok);
    for (int v = 0; v < GA_NV; v++) r.c[v] = lin1(x, a->c[v], y, b->c[v], &ok);
    return ok ? r : ga_opaque(line);
}

ga_aff ga_mul(const ga_aff *a, const ga_aff *b, uint32_t line)
{
    if (!a->known) return *a;
    if (!b->known) return *b;
    ga_aff zero = ga_const(0);
    if (ga_is_const(a)) return ga_lin(a->c0, b, 0, &zero, line);
    if (ga_is_const(b)) return ga_lin(b->c0, a, 0, &zero, line);
    return ga_opaque(line); /* a product of two index terms is not affine */
}

ga_aff ga_subst(const ga_aff *a, int v, int64_t x, int64_t y, uint32_t line)
{
    if (!a->known || !a->c[v]) return *a;
    ga_aff r = *a;
    int ok = 1;
    r.c0 = lin1(a->c[v], y, 1, a->c0, &ok);
    r.c[v] = lin1(a->c[v], x, 0, 0, &ok);
    return ok ? r : ga_opaque(line);
}

ga_dnf ga_true(void)
{
    ga_dnf d;
    memset(&d, 0, sizeof d);
    d.n = 1;
    return d;
}

ga_dnf ga_false(void)
{
    ga_dnf d;
    memset(&d, 0, sizeof d);
    return d;
}

ga_dnf ga_popaque(uint32_t line)
{
    ga_dnf d = ga_false();
    d.n = -1, d.why_line = line;
    return d;
}

ga_dnf ga_atom(const ga_aff *a)
{
    if (!a->known) return ga_popaque(a->why_line);
    if (ga_is_const(a)) return a->c0 >= 0 ? ga_true() : ga_false();
    ga_dnf d = ga_true();
    d.t[0].n = 1, d.t[0].atom[0] = *a;
    return d;
}

/* Appends term t to d (dropping a duplicate); 0, or -1 when d is full. */
static int add_term(ga_dnf *d, const ga_term *t)
{
    for (int i = 0; i < d->n; i++)
        if (d->t[i].n == t->n && !memcmp(d->t[i].atom, t->atom, t->n * sizeof t->atom[0])) return 0;
    if (d->n >= GA_TERMS) return -1;
    d->t[d->n++] = *t;
    return 0;
}

ga_dnf ga_or(const ga_dnf *a, const ga_dnf *b, uint32_t line)
{
    if (a->n < 0) return *a;
    if (b->n < 0) return *b;
    ga_dnf r = *a;
    for (int i = 0; i < b->n; i++)
        if (add_term(&r, &b->t[i])) return ga_popaque(line);
    return r;
}

ga_dnf ga_and(const ga_dnf *a, const ga_dnf *b, uint32_t line)
{
    if (a->n < 0) return *a;
    if (b->n < 0) return *b;
    ga_dnf r = ga_false();
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++) {
            ga_term t = a->t[i];
            for (int k = 0; k < b->t[j].n; k++) {
                if (t.n >= GA_ATOMS) return ga_popaque(line);
                t.atom[t.n++] = b->t[j].atom[k];
            }
            if (add_term(&r, &t)) return ga_popaque(line);
        }
    return r;
}

ga_dnf ga_not(const ga_dnf *a, uint32_t line)
{
    if (a->n < 0) return *a;
    /* not(OR_i AND_j x_ij) = AND_i OR_j (-x_ij - 1 >= 0) */
    ga_dnf r = ga_true();
    ga_aff m1 = ga_const(-1);
    for (int i = 0; i < a->n; i++) {
        ga_dnf o = ga_false();
        for (int j = 0; j < a->t[i].n; j++) {
            ga_aff x = ga_lin(-1, &a->t[i].atom[j], 1, &m1, line);
            ga_dnf at = ga_atom(&x);
            o = ga_or(&o, &at, line);
        }
        r = ga_and(&r, &o, line);
        if (r.n < 0) return r;
    }
    return r;
}

int ga_dnf_equal(const ga_dnf *a, const ga_dnf *b)
{
    if (a->n < 0 || b->n < 0 || a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++) {
        if (a->t[i].n != b->t[i].n) return 0;
        for (int j = 0; j < a->t[i].n; j++)
            if (!ga_equal(&a->t[i].atom[j], &b->t[i].atom[j])) return 0;
    }
    return 1;
}

int64_t ga_floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t ga_ceildiv(int64_t a, int64_t b) { return -ga_floordiv(-a, b); }
