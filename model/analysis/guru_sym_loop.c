/* Loops of LocalityGuru's symbolic walk (guru_sym.h): a loop [header, back edge] is summarised by
 * an induction proof over its registers and a trip count solved from its uniform exit. */
#include "guru_sym_ops.h"

#include <stdlib.h>
#include <string.h>

#define GS_MAX_PROBES 64  /* induction proof rounds per loop */
#define GS_MAX_TRIP (INT64_C(1) << 31)

/* The trip count of a loop that continues while cond(k) holds at its back edge (k = 0, 1, ...):
 * the first k where it fails, plus one. */
static int64_t solve_trip(gs_ctx *c, const ga_dnf *cond, int var, uint32_t line)
{
    int64_t k = 0;
    for (int guard = 0; guard <= GA_TERMS; guard++) {
        int moved = 0;
        for (int t = 0; t < cond->n; t++) {
            int64_t lo = 0, hi = GS_MAX_TRIP;
            for (int a = 0; a < cond->t[t].n; a++) {
                const ga_aff *x = &cond->t[t].atom[a];
                int64_t s = x->c[var];
                if (!s) {
                    if (x->c0 < 0) hi = -1;
                } else if (s > 0) {
                    int64_t m = ga_ceildiv(-x->c0, s);
                    if (m > lo) lo = m;
                } else {
                    int64_t m = ga_floordiv(x->c0, -s);
                    if (m < hi) hi = m;
                }
            }
            if (lo <= k && k <= hi) {
                if (hi >= GS_MAX_TRIP) {
                    gs_fail(c, line, "the loop's exit condition never fails");
                    return -1;
                }
                k = hi + 1, moved = 1;
            }
        }
        if (!moved) return k + 1;
    }
    gs_fail(c, line, "the loop's exit condition is not an interval of iterations");
    return -1;
}

gs_state *gs_run_loop(gs_ctx *c, gs_state *x, uint32_t h, uint32_t b)
{
    const ptx_func *f = c->f;
    const ptx_instr *br = &f->instrs[b];
    int d = x->depth, var = GA_K + d;
    uint32_t line = br->line, nr = f->n_regs;
    if (d >= GA_MAXLOOP) {
        gs_fail(c, line, "loops nested more than 4 deep");
        gs_state_free(x);
        return NULL;
    }
    if (br->guard == PTX_NO_REG) {
        gs_fail(c, line, "a loop without a conditional back edge");
        gs_state_free(x);
        return NULL;
    }
    uint8_t *written = calloc(nr ? nr : 1, 1), *cand = calloc(nr ? nr : 1, 1);
    int64_t *delta = calloc(nr ? nr : 1, sizeof *delta);
    gs_state *out = NULL;
    gs_list backs = {0};
    int record = c->record;
    if (!written || !cand || !delta) {
        gs_fail(c, 0, "out of memory");
        goto done;
    }
    for (uint32_t pc = h; pc < b; pc++)
        if (c->k->role[pc] == GURU_SLICE)
            for (unsigned i = 0; i < f->instrs[pc].ndst; i++) written[f->instrs[pc].dst[i]] = 1;
    /* Candidate steps: one pass from the entry values. */
    c->record = 0;
    gs_state *h0 = gs_state_new(c, x);
    if (!h0 || gs_loop_body(c, h0, h, b, &backs)) goto done;
    for (uint32_t r = 0; r < nr; r++) {
        if (!written[r] || c->pidx[r] != UINT32_MAX || !x->v[r].known) continue;
        cand[r] = backs.n > 0;
        for (size_t i = 0; i < backs.n && cand[r]; i++) {
            ga_aff dv = ga_lin(1, &backs.x[i]->v[r], -1, &x->v[r], line);
            if (!ga_is_const(&dv) || (i && dv.c0 != delta[r])) cand[r] = 0;
            delta[r] = dv.c0;
        }
    }
    /* Induction: with k's values at the header, the back edge must carry k + 1's. */
    gs_state *hs = NULL;
    for (int round = 0; round <= GS_MAX_PROBES; round++) {
        gs_list_free(&backs);
        gs_state_free(hs);
        hs = gs_state_new(c, x);
        if (!hs) goto done;
        hs->depth = (uint8_t)(d + 1);
        hs->trip[d] = 0;
        hs->n_or = 0;
        for (uint32_t r = 0; r < nr; r++) {
            if (!written[r]) continue;
            if (c->pidx[r] != UINT32_MAX) hs->p[c->pidx[r]] = ga_popaque(line);
            else if (!cand[r]) hs->v[r] = ga_opaque(line);
            else {
                ga_aff kv = ga_var(var);
                hs->v[r] = ga_lin(1, &x->v[r], delta[r], &kv, line);
            }
        }
        gs_state *run = gs_state_new(c, hs);
        if (!run || gs_loop_body(c, run, h, b, &backs)) goto done;
        int changed = 0;
        for (uint32_t r = 0; r < nr; r++) {
            if (!written[r] || !cand[r]) continue;
            ga_aff next = ga_subst(&hs->v[r], var, 1, 1, line);
            for (size_t i = 0; i < backs.n && cand[r]; i++)
                if (!ga_equal(&backs.x[i]->v[r], &next)) cand[r] = 0, changed = 1;
        }
        if (!changed) break;
        if (round == GS_MAX_PROBES) {
            gs_fail(c, line, "the loop's induction did not settle");
            goto done_hs;
        }
    }
    if (!backs.n) {
        gs_fail(c, line, "no path reaches the loop's back edge");
        goto done_hs;
    }
    /* The exit: the same condition on every path, a function of k alone. */
    ga_dnf cont = gs_pred(c, backs.x[0], br->guard, br->guard_neg, line);
    for (size_t i = 1; i < backs.n; i++) {
        ga_dnf o = gs_pred(c, backs.x[i], br->guard, br->guard_neg, line);
        if (!ga_dnf_equal(&o, &cont)) cont.n = -1;
    }
    if (cont.n < 0) {
        gs_fail(c, line, "the loop's exit condition is not affine or differs between threads");
        goto done_hs;
    }
    for (int t = 0; t < cont.n; t++)
        for (int a = 0; a < cont.t[t].n; a++)
            for (int v = 0; v < GA_NV; v++)
                if (v != var && cont.t[t].atom[a].c[v]) {
                    gs_fail(c, line, v < GA_K ? "the loop's exit depends on the thread or block index"
                                              : "the loop's trip count depends on an outer loop");
                    goto done_hs;
                }
    int64_t trip = solve_trip(c, &cont, var, line);
    if (trip < 0) goto done_hs;
    /* The recorded pass. */
    gs_list_free(&backs);
    c->record = record;
    hs->trip[d] = (uint32_t)trip;
    gs_state *run = gs_state_new(c, hs);
    if (!run || gs_loop_body(c, run, h, b, &backs)) goto done_hs;
    out = gs_state_new(c, x);
    if (!out) goto done_hs;
    out->n_or = 0;
    for (uint32_t r = 0; r < nr; r++) {
        if (!written[r]) continue;
        if (c->pidx[r] != UINT32_MAX) {
            out->p[c->pidx[r]] = ga_popaque(line);
            continue;
        }
        ga_aff v = ga_subst(&backs.x[0]->v[r], var, 0, trip - 1, line);
        for (size_t i = 1; i < backs.n && v.known; i++) {
            ga_aff w = ga_subst(&backs.x[i]->v[r], var, 0, trip - 1, line);
            if (!ga_equal(&v, &w)) v = ga_opaque(line);
        }
        out->v[r] = v;
    }
    out->pc = b + 1;
done_hs:
    gs_state_free(hs);
done:
    c->record = record;
    gs_list_free(&backs);
    free(written), free(cand), free(delta);
    gs_state_free(x);
    return c->fail ? (gs_state_free(out), NULL) : out;
}
