/* LocalityGuru's symbolic walk (guru_sym.h): paths through the resolved slice with affine register
 * values (loops: guru_sym_loop.c); events for the per-TB closed form (guru_sym_emit.c). */
#include "guru_sym.h"
#include "guru_sym_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GS_MAX_FORKS 4096 /* path states created before the walk gives up */

gs_state *gs_state_new(gs_ctx *c, const gs_state *from)
{
    gs_state *x = calloc(1, sizeof *x);
    if (x) {
        x->v = malloc((size_t)(c->f->n_regs ? c->f->n_regs : 1) * sizeof *x->v);
        x->p = malloc((size_t)(c->n_pred ? c->n_pred : 1) * sizeof *x->p);
    }
    if (!x || !x->v || !x->p) {
        if (x) free(x->v), free(x->p), free(x);
        gs_fail(c, 0, "out of memory");
        c->oom = 1;
        return NULL;
    }
    if (++c->forks > GS_MAX_FORKS) gs_fail(c, 0, "more than 4096 paths");
    if (from) {
        memcpy(x->v, from->v, (size_t)c->f->n_regs * sizeof *x->v);
        memcpy(x->p, from->p, (size_t)c->n_pred * sizeof *x->p);
        x->n_atoms = from->n_atoms, x->depth = from->depth, x->pc = from->pc;
        memcpy(x->atom, from->atom, sizeof x->atom);
        memcpy(x->trip, from->trip, sizeof x->trip);
        memcpy(x->orv, from->orv, sizeof x->orv);
        x->n_or = from->n_or;
    }
    return x;
}

void gs_state_free(gs_state *x)
{
    if (x) free(x->v), free(x->p), free(x);
}

void gs_fail(gs_ctx *c, uint32_t line, const char *what)
{
    if (c->fail) return;
    c->fail = 1;
    if (line) snprintf(c->why, sizeof c->why, "line %u: %s", line, what);
    else snprintf(c->why, sizeof c->why, "%s", what);
}

int gs_push(gs_ctx *c, gs_list *q, gs_state *x)
{
    if (!x) return -1;
    if (q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 16;
        gs_state **y = realloc(q->x, cap * sizeof *y);
        if (!y) {
            gs_state_free(x);
            gs_fail(c, 0, "out of memory");
            c->oom = 1;
            return -1;
        }
        q->x = y, q->cap = cap;
    }
    q->x[q->n++] = x;
    return 0;
}

void gs_list_free(gs_list *q)
{
    for (size_t i = 0; i < q->n; i++) gs_state_free(q->x[i]);
    free(q->x);
    memset(q, 0, sizeof *q);
}

/* Splits x on condition cond: one state per disjunct of cond (yes, its atoms added) and per
 * disjunct of not cond (no). x is consumed. */
static void split(gs_ctx *c, gs_state *x, const ga_dnf *cond, uint32_t line, gs_list *yes, gs_list *no)
{
    ga_dnf side[2] = {*cond, ga_not(cond, line)};
    gs_list *to[2] = {yes, no};
    for (int s = 0; s < 2 && !c->fail; s++) {
        if (side[s].n < 0) {
            gs_fail(c, line, "a condition on the indices is too complex (more than 4 disjuncts of 4 atoms)");
            break;
        }
        for (int t = 0; t < side[s].n && !c->fail; t++) {
            gs_state *y = gs_state_new(c, x);
            if (!y) break;
            for (int a = 0; a < side[s].t[t].n; a++) {
                if (y->n_atoms >= GS_ATOMS) {
                    gs_fail(c, line, "a path has more than 24 index conditions");
                    break;
                }
                y->atom[y->n_atoms++] = side[s].t[t].atom[a];
            }
            gs_push(c, to[s], y);
        }
    }
    gs_state_free(x);
}

/* Steps the states in q until they end (region [h, b] of a loop: until they reach the back edge
 * b, collected in backs; h = UINT32_MAX for the whole kernel). */
static int walk(gs_ctx *c, gs_list *q, uint32_t h, uint32_t b, gs_list *backs)
{
    const ptx_func *f = c->f;
    int in_loop = h != UINT32_MAX;
    while (q->n && !c->fail) {
        gs_state *x = q->x[--q->n];
        for (;;) {
            uint32_t pc = x->pc;
            if (in_loop && pc == b) {
                gs_push(c, backs, x);
                break;
            }
            if (pc >= f->n_instrs) {
                if (in_loop) gs_fail(c, 0, "a path leaves a loop through its end");
                gs_state_free(x);
                break;
            }
            if (!c->reach[pc] && !in_loop) { /* nothing it does can matter any more */
                gs_state_free(x);
                break;
            }
            if (in_loop && (pc < h || pc > b)) {
                gs_fail(c, f->instrs[pc].line, "a branch leaves a loop before its exit");
                gs_state_free(x);
                break;
            }
            if (c->back_of[pc] != UINT32_MAX && !(in_loop && pc == h && (x->at_header || x->guard_done))) {
                if (in_loop && c->back_of[pc] > b) {
                    gs_fail(c, f->instrs[pc].line, "loops that are not nested");
                    gs_state_free(x);
                    break;
                }
                x = gs_run_loop(c, x, pc, c->back_of[pc]);
                if (!x) break;
                continue;
            }
            x->at_header = 0;
            const ptx_instr *in = &f->instrs[pc];
            uint8_t role = c->k->role[pc];
            if (role == GURU_SKIP) {
                x->pc++;
                continue;
            }
            if (role == GURU_DEAD_END) {
                if (in_loop) gs_fail(c, in->line, "threads stop inside a loop");
                gs_state_free(x);
                break;
            }
            ga_dnf g = in->guard == PTX_NO_REG || x->guard_done ? ga_true()
                                                                : gs_pred(c, x, in->guard, in->guard_neg, in->line);
            if (g.n < 0) {
                gs_fail(c, in->line, "a guard that is not an affine condition on the indices");
                gs_state_free(x);
                break;
            }
            if (g.n == 0) { /* never holds on this path */
                x->pc++;
                continue;
            }
            if (g.n > 1 || g.t[0].n) { /* holds for some threads: one path per disjunct and side */
                gs_list yes = {0}, no = {0};
                split(c, x, &g, in->line, &yes, &no);
                for (size_t i = 0; i < yes.n; i++) yes.x[i]->guard_done = 1, gs_push(c, q, yes.x[i]);
                for (size_t i = 0; i < no.n; i++) no.x[i]->pc++, gs_push(c, q, no.x[i]);
                free(yes.x), free(no.x);
                break;
            }
            x->guard_done = 0;
            if (role != GURU_CONTROL) {
                gs_exec(c, x, in, pc);
                x->pc++;
                continue;
            }
            if (in->op == OP_BRA && in->nopnd && in->o[0].kind == PO_LABEL) {
                uint32_t t = (uint32_t)in->o[0].imm;
                if (t <= pc) {
                    gs_fail(c, in->line, "a backward branch that is not a loop's only back edge");
                    gs_state_free(x);
                    break;
                }
                x->pc = t;
                continue;
            }
            if (in->op == OP_EXIT || in->op == OP_RET) {
                if (in_loop) gs_fail(c, in->line, "threads leave inside a loop");
            } else {
                gs_fail(c, in->line, "control flow the closed form cannot follow");
            }
            gs_state_free(x);
            break;
        }
    }
    return c->fail ? -1 : 0;
}

int gs_loop_body(gs_ctx *c, gs_state *start, uint32_t h, uint32_t b, gs_list *backs)
{
    gs_list q = {0};
    start->pc = h, start->at_header = 1;
    if (gs_push(c, &q, start)) return -1;
    int rc = walk(c, &q, h, b, backs);
    gs_list_free(&q);
    return rc;
}

int gs_record(gs_ctx *c, const gs_state *x, int kind, const ga_aff *val, int64_t lo, int64_t hi, uint32_t line)
{
    guru_sym *s = c->s;
    if (!c->record) return 0;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        gs_event *e = realloc(s->ev, cap * sizeof *e);
        if (!e) {
            gs_fail(c, 0, "out of memory");
            c->oom = 1;
            return -1;
        }
        s->ev = e, s->cap = cap;
    }
    gs_event *e = &s->ev[s->n++];
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind, e->val = *val, e->lo = lo, e->hi = hi, e->line = line;
    e->depth = x->depth, e->n_atoms = x->n_atoms;
    memcpy(e->trip, x->trip, sizeof e->trip);
    memcpy(e->atom, x->atom, x->n_atoms * sizeof e->atom[0]);
    return 0;
}

/* reach[pc]: some global load is reachable from pc (over branches, back edges and fall-through). */
static void mark_reach(const ptx_func *f, gs_ctx *c)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t pc = f->n_instrs; pc-- > 0;) {
            if (c->reach[pc]) continue;
            const ptx_instr *in = &f->instrs[pc];
            int r = c->load_of[pc] != UINT32_MAX;
            int falls = !((in->op == OP_BRA && in->guard == PTX_NO_REG) ||
                          ((in->op == OP_EXIT || in->op == OP_RET) && in->guard == PTX_NO_REG));
            if (falls && pc + 1 < f->n_instrs) r |= c->reach[pc + 1];
            if (in->op == OP_BRA && in->nopnd && in->o[0].kind == PO_LABEL && (uint64_t)in->o[0].imm < f->n_instrs)
                r |= c->reach[in->o[0].imm];
            if (in->op == OP_BRX_IDX || in->op == OP_CALL) r = 1; /* not followed: keep the path (it fails there) */
            if (r) c->reach[pc] = 1, changed = 1;
        }
    }
}

int guru_sym_build(const guru_kernel *k, const simt_launch *l, guru_sym *s)
{
    memset(s, 0, sizeof *s);
    const ptx_func *f = k->f;
    gs_ctx c = {0};
    c.k = k, c.l = l, c.f = f, c.s = s, c.record = 1;
    s->n_loads = k->n_loads;
    s->load_why = calloc(k->n_loads ? k->n_loads : 1, sizeof *s->load_why);
    c.pidx = malloc((f->n_regs ? f->n_regs : 1) * sizeof *c.pidx);
    c.back_of = malloc((f->n_instrs ? f->n_instrs : 1) * sizeof *c.back_of);
    c.load_of = malloc((f->n_instrs ? f->n_instrs : 1) * sizeof *c.load_of);
    c.reach = calloc(f->n_instrs ? f->n_instrs : 1, 1);
    if (!s->load_why || !c.pidx || !c.back_of || !c.load_of || !c.reach) {
        free(c.pidx), free(c.back_of), free(c.load_of), free(c.reach);
        guru_sym_free(s);
        return -1;
    }
    for (uint32_t r = 0; r < f->n_regs; r++) c.pidx[r] = f->regs[r].type == PT_PRED ? c.n_pred++ : UINT32_MAX;
    for (uint32_t pc = 0; pc < f->n_instrs; pc++) c.back_of[pc] = c.load_of[pc] = UINT32_MAX;
    for (uint32_t i = 0; i < k->n_loads; i++) c.load_of[k->loads[i].pc] = i;
    for (uint32_t pc = 0; pc < f->n_instrs; pc++) {
        const ptx_instr *in = &f->instrs[pc];
        uint32_t t = (uint32_t)in->o[0].imm;
        if (in->op == OP_BRA && in->nopnd && in->o[0].kind == PO_LABEL && t <= pc &&
            (c.back_of[t] == UINT32_MAX || pc > c.back_of[t]))
            c.back_of[t] = pc;
    }
    mark_reach(f, &c);
    if (k->n_unresolved) gs_fail(&c, 0, "the kernel has loads LocalityGuru cannot resolve");
    gs_state *x = c.fail ? NULL : gs_state_new(&c, NULL);
    if (x) {
        for (uint32_t r = 0; r < f->n_regs; r++) x->v[r] = ga_opaque(0);
        for (uint32_t p = 0; p < c.n_pred; p++) x->p[p] = ga_popaque(0);
        gs_list q = {0};
        if (!gs_push(&c, &q, x)) walk(&c, &q, UINT32_MAX, UINT32_MAX, NULL);
        gs_list_free(&q);
    }
    free(c.pidx), free(c.back_of), free(c.load_of), free(c.reach);
    if (c.oom) {
        guru_sym_free(s);
        return -1;
    }
    if (c.fail) {
        s->failed = 1;
        snprintf(s->why, sizeof s->why, "%s", c.why);
    }
    for (uint32_t i = 0; i < s->n_loads; i++) {
        if (s->failed && !s->load_why[i][0]) snprintf(s->load_why[i], sizeof s->load_why[i], "the walk stopped: %s", s->why);
        if (s->load_why[i][0]) s->n_fallback++;
    }
    return 0;
}

void guru_sym_free(guru_sym *s)
{
    free(s->ev);
    free(s->load_why);
    memset(s, 0, sizeof *s);
}
