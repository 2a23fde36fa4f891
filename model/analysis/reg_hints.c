/* Slumber's next-access hints (reg_hints.h): per storage unit, a backward fixed point over the
 * basic blocks, then one pass over the unit's accesses in pc order. */
#include "reg_hints.h"

#include <stdlib.h>
#include <string.h>

#define NO_BLOCK UINT32_MAX

typedef struct nxt { /* the next access as seen from a program point */
    uint8_t kind;
    uint32_t dist;   /* saturates at RH_FAR */
    uint32_t pc;
} nxt;

static nxt nxt_none(const ptx_func *f) { return (nxt){RH_NONE, RH_FAR, f->n_instrs}; }

static uint32_t sat(uint64_t d) { return d > RH_FAR ? RH_FAR : (uint32_t)d; }

/* Paths joined: a read on any of them wins; the distance is the shortest among the paths that
 * access the unit (ties: the lower pc, for determinism). */
static nxt join(nxt a, nxt b)
{
    if (b.kind == RH_NONE) return a;
    if (a.kind == RH_NONE) return b;
    nxt r = a.dist < b.dist || (a.dist == b.dist && a.pc <= b.pc) ? a : b;
    r.kind = a.kind > b.kind ? a.kind : b.kind;
    return r;
}

static int same(nxt a, nxt b) { return a.kind == b.kind && a.dist == b.dist && a.pc == b.pc; }

static uint32_t n_succ(const ptx_block *b) { return b->nsucc; }
static uint32_t succ_at(const ptx_block *b, uint32_t i) { return b->nsucc > 2 ? b->succ_more[i] : b->succ[i]; }

/* SIMT order: while a warp runs one side of a divergent branch X (successors S1, S2, reconvergence
 * R), its other lanes wait at R or at the other side's start with their own values, which a write
 * of the running side (to its lanes only) does not replace. So inside a side, a register's next
 * access is joined with the next access from R and from the other side's start. */
typedef struct xedges {
    uint32_t *start, *list; /* per block: blocks whose entry hint joins its accesses' hints */
} xedges;

static int add_xedges(xedges *x, const ptx_func *f)
{
    uint32_t nb = f->n_blocks, cap = 64, n = 0;
    uint32_t *from = malloc(cap * sizeof *from), *to = malloc(cap * sizeof *to);
    uint32_t *seen = malloc(((size_t)nb + 1) * sizeof *seen), *stack = malloc(((size_t)nb + 1) * sizeof *stack);
    x->start = calloc((size_t)nb + 2, sizeof *x->start);
    if (!from || !to || !seen || !stack || !x->start) goto fail;
    for (uint32_t b = 0; b < nb; b++) seen[b] = UINT32_MAX;
    for (uint32_t xb = 0; xb < nb; xb++) {
        const ptx_block *bx = &f->blocks[xb];
        if (n_succ(bx) != 2) continue;
        uint32_t side[2] = {succ_at(bx, 0), succ_at(bx, 1)}, r = bx->ipdom;
        for (int k = 0; k < 2; k++) { /* walk side k; its exits lead to the other side */
            uint32_t other = side[1 - k], mark = 2 * xb + (uint32_t)k, sp = 0;
            if (side[k] == UINT32_MAX || side[k] == r || other == side[k]) continue;
            seen[side[k]] = mark;
            stack[sp++] = side[k];
            while (sp) {
                uint32_t b = stack[--sp];
                const ptx_block *bl = &f->blocks[b];
                for (uint32_t i = 0; i < n_succ(bl); i++) {
                    uint32_t s = succ_at(bl, i);
                    if (s != r && s != UINT32_MAX && seen[s] != mark) {
                        seen[s] = mark;
                        stack[sp++] = s;
                    }
                }
                if (n + 2 > cap) {
                    cap *= 2;
                    uint32_t *nf = realloc(from, cap * sizeof *from);
                    if (nf) from = nf;
                    uint32_t *nt = realloc(to, cap * sizeof *to);
                    if (nt) to = nt;
                    if (!nf || !nt) goto fail;
                }
                if (r != UINT32_MAX) from[n] = b, to[n++] = r;
                if (other != UINT32_MAX && other != r) from[n] = b, to[n++] = other;
            }
        }
    }
    x->list = malloc(((size_t)n + 1) * sizeof *x->list);
    if (!x->list) goto fail;
    for (uint32_t i = 0; i < n; i++) x->start[from[i] + 1]++;
    for (uint32_t b = 0; b < nb; b++) x->start[b + 1] += x->start[b];
    for (uint32_t b = 0; b <= nb; b++) seen[b] = x->start[b];
    for (uint32_t i = 0; i < n; i++) x->list[seen[from[i]]++] = to[i];
    free(from), free(to), free(seen), free(stack);
    return 0;
fail:
    free(from), free(to), free(seen), free(stack);
    return -1;
}

typedef struct work {
    uint32_t *occ_start, *occ_pc; /* per unit, its accessing pcs in order (CSR) */
    uint8_t *occ_kind;
    uint32_t *first_occ;          /* per block: index into occ of the unit's first access, or NO_BLOCK */
    nxt *in, *out;                /* per block: the next access at its entry / after its last instruction */
    xedges x;
} work;

static void work_free(work *w)
{
    free(w->occ_start), free(w->occ_pc), free(w->occ_kind), free(w->first_occ), free(w->in), free(w->out);
    free(w->x.start), free(w->x.list);
}

static uint32_t unit(const reg_units *U, uint32_t reg) { return U->unit_of ? U->unit_of[reg] : reg; }
static uint32_t width(const reg_units *U, uint32_t reg) { return U->width ? U->width[reg] : 1; }

/* Register reg (< f->n_regs) occupies unit u. */
static int covers(const reg_units *U, uint32_t reg, uint32_t u)
{
    uint32_t w = width(U, reg), first = unit(U, reg);
    return w && u >= first && u - first < w;
}

/* The access of the instruction to unit u: RH_READ, RH_WRITE or RH_NONE. A unit shared by
 * several registers keeps the others' values across a write to one: the write counts as a read. */
static uint8_t access_kind(const ptx_instr *in, const reg_units *U, uint32_t nregs, uint32_t u, int shared)
{
    uint8_t k = RH_NONE;
    for (int i = 0; i < in->nsrc; i++)
        if (in->src[i] < nregs && covers(U, in->src[i], u)) return RH_READ;
    for (int i = 0; i < in->ndst; i++)
        if (in->dst[i] < nregs && covers(U, in->dst[i], u)) k = RH_WRITE;
    /* A guarded write may leave the old value for a later read: the value must be kept. */
    if (k == RH_WRITE && (in->guard != PTX_NO_REG || shared)) k = RH_READ;
    return k;
}

/* One pass over every instruction's units (each once per instruction): without fill, counts them
 * per unit into occ_start[u + 1]; with fill, stores each (pc, kind) at its unit's next slot. */
static uint64_t scan(work *w, const ptx_func *f, const reg_units *U, uint32_t n_units, uint32_t *seen,
                     uint32_t *fill, const uint8_t *shared)
{
    uint64_t total = 0;
    for (uint32_t u = 0; u < n_units; u++) seen[u] = UINT32_MAX;
    for (uint32_t pc = 0; pc < f->n_instrs; pc++) {
        const ptx_instr *in = &f->instrs[pc];
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < (pass ? in->ndst : in->nsrc); i++) {
                uint32_t r = pass ? in->dst[i] : in->src[i];
                if (r >= f->n_regs) continue;
                for (uint32_t h = 0; h < width(U, r); h++) {
                    uint32_t u = unit(U, r) + h;
                    if (u >= n_units || seen[u] == pc) continue;
                    seen[u] = pc;
                    total++;
                    if (!fill) {
                        w->occ_start[u + 1]++;
                        continue;
                    }
                    w->occ_pc[fill[u]] = pc;
                    w->occ_kind[fill[u]++] = access_kind(in, U, f->n_regs, u, shared[u]);
                }
            }
    }
    return total;
}

/* Per unit, the pcs accessing it (each once) and how. */
static int collect(work *w, const ptx_func *f, const reg_units *U, uint32_t n_units)
{
    uint8_t *members = calloc((size_t)n_units + 1, 1); /* 0, 1, 2 = several; then: shared */
    uint32_t *seen = malloc(((size_t)n_units + 1) * sizeof *seen);
    uint32_t *fill = malloc(((size_t)n_units + 1) * sizeof *fill);
    w->occ_start = calloc((size_t)n_units + 1, sizeof *w->occ_start);
    int rc = -1;
    if (!members || !seen || !fill || !w->occ_start) goto done;
    for (uint32_t r = 0; r < f->n_regs; r++)
        for (uint32_t h = 0; h < width(U, r); h++) {
            uint32_t u = unit(U, r) + h;
            if (u < n_units && members[u] < 2) members[u]++;
        }
    for (uint32_t u = 0; u < n_units; u++) members[u] = U->shared ? U->shared[u] != 0 : members[u] > 1;
    uint64_t total = scan(w, f, U, n_units, seen, NULL, members);
    for (uint32_t u = 0; u < n_units; u++) w->occ_start[u + 1] += w->occ_start[u];
    w->occ_pc = malloc((size_t)(total + 1) * sizeof *w->occ_pc);
    w->occ_kind = malloc((size_t)(total + 1));
    if (!w->occ_pc || !w->occ_kind) goto done;
    memcpy(fill, w->occ_start, (size_t)n_units * sizeof *fill);
    scan(w, f, U, n_units, seen, fill, members);
    rc = 0;
done:
    free(members), free(seen), free(fill);
    return rc;
}

/* The fixed point for one unit: in/out of every block. */
static void solve(work *w, const ptx_func *f, uint32_t u, int loop_rule)
{
    uint32_t nb = f->n_blocks;
    for (uint32_t b = 0; b < nb; b++) w->first_occ[b] = NO_BLOCK;
    for (uint32_t k = w->occ_start[u]; k < w->occ_start[u + 1]; k++) {
        uint32_t b = f->block_of[w->occ_pc[k]];
        if (w->first_occ[b] == NO_BLOCK) w->first_occ[b] = k;
    }
    for (uint32_t b = 0; b < nb; b++) {
        w->out[b] = nxt_none(f);
        uint32_t k = w->first_occ[b];
        w->in[b] = k == NO_BLOCK ? nxt_none(f) : (nxt){w->occ_kind[k], w->occ_pc[k] - f->blocks[b].start + 1, w->occ_pc[k]};
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t bi = nb; bi-- > 0;) {
            const ptx_block *bl = &f->blocks[bi];
            nxt o = nxt_none(f);
            for (uint32_t i = 0; i < n_succ(bl); i++) {
                uint32_t s = succ_at(bl, i);
                if (s == UINT32_MAX) continue; /* the exit: nothing more */
                nxt c = w->in[s];
                c.dist = sat((uint64_t)c.dist);
                /* An access reached over a back edge depends on the iteration count. */
                if (loop_rule == REG_HINTS_LOOPS_CONSERVATIVE && f->blocks[s].start <= bl->start && c.kind != RH_NONE)
                    c.kind = RH_READ;
                o = join(o, c);
            }

            if (!same(o, w->out[bi])) {
                w->out[bi] = o;
                changed = 1;
            }
            if (w->first_occ[bi] == NO_BLOCK) {
                nxt in = o;
                if (in.kind != RH_NONE) in.dist = sat((uint64_t)o.dist + (bl->end - bl->start));
                if (!same(in, w->in[bi])) {
                    w->in[bi] = in;
                    changed = 1;
                }
            }
        }
    }
}

#define RH_UNSET 0xff /* an operand no unit has set yet */

/* An operand spanning two units (a 64-bit register) gets the join of both: read if either is read
 * next, the nearer next access. */
static void put(reg_hint *e, reg_hint v)
{
    if (e->kind == RH_UNSET || e->kind == RH_NONE) *e = v;
    else if (v.kind != RH_NONE) {
        uint8_t k = e->kind > v.kind ? e->kind : v.kind;
        if (v.dist < e->dist || (v.dist == e->dist && v.next_pc < e->next_pc)) *e = v;
        e->kind = k;
    }
}

static void set_hints(reg_hints *h, const ptx_func *f, const reg_units *U, uint32_t pc, uint32_t u, nxt n)
{
    const ptx_instr *in = &f->instrs[pc];
    reg_hint v = {n.kind, (uint16_t)(n.kind == RH_NONE ? RH_FAR : n.dist), n.kind == RH_NONE ? f->n_instrs : n.pc};
    reg_hint *e = &h->h[h->first[pc]];
    for (int i = 0; i < in->nsrc; i++)
        if (in->src[i] < f->n_regs && covers(U, in->src[i], u)) put(&e[i], v);
    for (int i = 0; i < in->ndst; i++)
        if (in->dst[i] < f->n_regs && covers(U, in->dst[i], u)) put(&e[in->nsrc + i], v);
}

int reg_hints_build(reg_hints *out, const ptx_func *f, const uint32_t *unit_of, uint32_t n_units, int loop_rule)
{
    reg_units U = {unit_of, NULL, NULL, n_units};
    return reg_hints_build_units(out, f, &U, loop_rule);
}

int reg_hints_build_units(reg_hints *out, const ptx_func *f, const reg_units *U, int loop_rule)
{
    memset(out, 0, sizeof *out);
    for (uint32_t pc = 0; pc < f->n_instrs; pc++) /* mov.indirect's registers are known only at run time */
        if (f->instrs[pc].op == OP_MOV_INDIRECT) return -1;
    uint32_t n_units = U->unit_of ? U->n_units : f->n_regs;
    out->n_instrs = f->n_instrs;
    out->first = malloc(((size_t)f->n_instrs + 1) * sizeof *out->first);
    if (!out->first) return -1;
    uint32_t total = 0;
    for (uint32_t pc = 0; pc < f->n_instrs; pc++) {
        out->first[pc] = total;
        total += (uint32_t)f->instrs[pc].nsrc + f->instrs[pc].ndst;
    }
    out->first[f->n_instrs] = total;
    out->h = malloc(((size_t)total + 1) * sizeof *out->h);
    out->n_units = n_units;
    out->entry = malloc(((size_t)n_units + 1) * sizeof *out->entry);
    work w;
    memset(&w, 0, sizeof w);
    w.first_occ = malloc(((size_t)f->n_blocks + 1) * sizeof *w.first_occ);
    w.in = malloc(((size_t)f->n_blocks + 1) * sizeof *w.in);
    w.out = malloc(((size_t)f->n_blocks + 1) * sizeof *w.out);
    if (!out->h || !out->entry || !w.first_occ || !w.in || !w.out || add_xedges(&w.x, f) != 0 ||
        collect(&w, f, U, n_units) != 0) {
        work_free(&w);
        reg_hints_free(out);
        return -1;
    }
    for (uint32_t i = 0; i < total; i++) out->h[i] = (reg_hint){RH_UNSET, RH_FAR, f->n_instrs};
    for (uint32_t u = 0; u < n_units; u++) {
        out->entry[u] = (reg_hint){RH_NONE, RH_FAR, f->n_instrs};
        if (w.occ_start[u] == w.occ_start[u + 1] || !f->n_blocks) continue;
        solve(&w, f, u, loop_rule);
        if (w.in[0].kind != RH_NONE) out->entry[u] = (reg_hint){w.in[0].kind, (uint16_t)w.in[0].dist, w.in[0].pc};
        for (uint32_t k = w.occ_start[u]; k < w.occ_start[u + 1]; k++) {
            uint32_t pc = w.occ_pc[k], b = f->block_of[pc];
            nxt n;
            if (k + 1 < w.occ_start[u + 1] && f->block_of[w.occ_pc[k + 1]] == b)
                n = (nxt){w.occ_kind[k + 1], w.occ_pc[k + 1] - pc, w.occ_pc[k + 1]};
            else {
                n = w.out[b];
                if (n.kind != RH_NONE) n.dist = sat((uint64_t)n.dist + (f->blocks[b].end - 1 - pc));
            }
            for (uint32_t e = w.x.start[b]; e < w.x.start[b + 1]; e++) { /* the waiting lanes (SIMT order) */
                nxt c = w.in[w.x.list[e]];
                if (c.kind == RH_NONE) continue;
                if (n.kind == RH_NONE) n = c;
                else if (c.kind > n.kind) n.kind = c.kind;
            }
            set_hints(out, f, U, pc, u, n);
        }
    }
    /* Operands of registers outside the units (predicates of an allocation): undetermined = read. */
    for (uint32_t i = 0; i < total; i++)
        if (out->h[i].kind == RH_UNSET) out->h[i] = (reg_hint){RH_READ, RH_FAR, f->n_instrs};
    work_free(&w);
    return 0;
}

void reg_hints_free(reg_hints *h)
{
    free(h->first);
    free(h->h);
    free(h->entry);
    h->first = NULL;
    h->h = NULL;
    h->entry = NULL;
}

const reg_hint *reg_hint_src(const reg_hints *h, const ptx_func *f, uint32_t pc, int i)
{
    if (!h->h || pc >= h->n_instrs || i < 0 || i >= f->instrs[pc].nsrc) return NULL;
    return &h->h[h->first[pc] + (uint32_t)i];
}

const reg_hint *reg_hint_dst(const reg_hints *h, const ptx_func *f, uint32_t pc, int i)
{
    if (!h->h || pc >= h->n_instrs || i < 0 || i >= f->instrs[pc].ndst) return NULL;
    return &h->h[h->first[pc] + f->instrs[pc].nsrc + (uint32_t)i];
}
