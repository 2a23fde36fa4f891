/* Register allocation (reg_alloc.h): liveness, interference matrix, greedy colouring in program
 * order with aligned pairs for 64-bit registers, folding past the budget. */
#include "reg_alloc.h"

#include <stdlib.h>
#include <string.h>

typedef uint64_t word;
#define WB 64u

uint32_t reg_alloc_width(uint8_t t)
{
    switch (t) {
    case PT_PRED: return 0;
    case PT_B64: case PT_U64: case PT_S64: case PT_F64: return 2;
    default: return 1;
    }
}

static int bit(const word *s, uint32_t i) { return (int)(s[i / WB] >> (i % WB) & 1u); }
static void set(word *s, uint32_t i) { s[i / WB] |= (word)1 << (i % WB); }
static void clr(word *s, uint32_t i) { s[i / WB] &= ~((word)1 << (i % WB)); }

static uint32_t succ_at(const ptx_block *b, uint32_t i) { return b->nsucc > 2 ? b->succ_more[i] : b->succ[i]; }

/* A guarded write keeps the old value in the lanes whose guard is false: it reads it too. */
static int kills(const ptx_instr *in) { return in->guard == PTX_NO_REG; }

typedef struct ra_work {
    const ptx_func *f;
    const uint8_t *w; /* width per slot */
    uint32_t n, nw;   /* slots, words per set */
    word *gen, *kill, *in, *out, *adj, *live, *dead;
} ra_work;

/* Per block: registers read before any unguarded write (gen) and written unguarded (kill). */
static void local_sets(ra_work *k)
{
    const ptx_func *f = k->f;
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        word *g = k->gen + (size_t)b * k->nw, *kl = k->kill + (size_t)b * k->nw;
        for (uint32_t pc = f->blocks[b].start; pc < f->blocks[b].end; pc++) {
            const ptx_instr *in = &f->instrs[pc];
            for (int i = 0; i < in->nsrc; i++) {
                uint32_t r = in->src[i];
                if (r < k->n && k->w[r] && !bit(kl, r)) set(g, r);
            }
            for (int i = 0; i < in->ndst; i++) {
                uint32_t r = in->dst[i];
                if (r >= k->n || !k->w[r]) continue;
                if (kills(in)) set(kl, r);
                else if (!bit(kl, r)) set(g, r);
            }
        }
    }
}

/* Backward fixed point: out = union of the successors' in, in = gen | (out & ~kill). */
static void liveness(ra_work *k)
{
    const ptx_func *f = k->f;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = f->n_blocks; b-- > 0;) {
            word *o = k->out + (size_t)b * k->nw, *i = k->in + (size_t)b * k->nw;
            const word *g = k->gen + (size_t)b * k->nw, *kl = k->kill + (size_t)b * k->nw;
            for (uint32_t s = 0; s < f->blocks[b].nsucc; s++) {
                uint32_t sb = succ_at(&f->blocks[b], s);
                if (sb == UINT32_MAX) continue;
                const word *si = k->in + (size_t)sb * k->nw;
                for (uint32_t x = 0; x < k->nw; x++) o[x] |= si[x];
            }
            for (uint32_t x = 0; x < k->nw; x++) {
                word v = g[x] | (o[x] & ~kl[x]);
                if (v != i[x]) {
                    i[x] = v;
                    changed = 1;
                }
            }
        }
    }
}

static void edge(ra_work *k, uint32_t a, uint32_t b)
{
    if (a == b) return;
    set(k->adj + (size_t)a * k->nw, b);
    set(k->adj + (size_t)b * k->nw, a);
}

/* a interferes with every register of the set s. */
static void edges_with(ra_work *k, uint32_t a, const word *s)
{
    for (uint32_t x = 0; x < k->nw; x++)
        for (word v = s[x]; v; v &= v - 1) edge(k, a, x * WB + (uint32_t)__builtin_ctzll(v));
}

/* Each block backwards from its live-out set: a written register interferes with everything live
 * after the write (and with the instruction's other results); values live at the entry interfere
 * with each other (they were defined nowhere in the function). */
static void interference(ra_work *k)
{
    const ptx_func *f = k->f;
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        memcpy(k->live, k->out + (size_t)b * k->nw, k->nw * sizeof(word));
        for (uint32_t pc = f->blocks[b].end; pc-- > f->blocks[b].start;) {
            const ptx_instr *in = &f->instrs[pc];
            for (int i = 0; i < in->ndst; i++) {
                uint32_t d = in->dst[i];
                if (d >= k->n || !k->w[d]) continue;
                if (!bit(k->live, d)) set(k->dead, d);
                edges_with(k, d, k->live);
                for (int j = 0; j < i; j++)
                    if (in->dst[j] < k->n && k->w[in->dst[j]]) edge(k, d, in->dst[j]);
            }
            if (kills(in))
                for (int i = 0; i < in->ndst; i++)
                    if (in->dst[i] < k->n) clr(k->live, in->dst[i]);
            for (int i = 0; i < in->nsrc; i++)
                if (in->src[i] < k->n && k->w[in->src[i]]) set(k->live, in->src[i]);
            for (int i = 0; i < in->ndst; i++) /* a guarded write reads the old value */
                if (!kills(in) && in->dst[i] < k->n && k->w[in->dst[i]]) set(k->live, in->dst[i]);
        }
    }
    if (f->n_blocks)
        for (uint32_t x = 0; x < k->nw; x++)
            for (word v = k->in[x]; v; v &= v - 1) edges_with(k, x * WB + (uint32_t)__builtin_ctzll(v), k->in);
    /* A result nobody reads still lands in its register, possibly late (a load's): the hardware's
     * scoreboard on physical registers would order a later write to it after that one, ours works on
     * PTX registers and does not, so a dead result gets a register of its own. */
    for (uint32_t r = 0; r < k->n; r++) set(k->live, r);
    for (uint32_t x = 0; x < k->nw; x++)
        for (word v = k->dead[x]; v; v &= v - 1) edges_with(k, x * WB + (uint32_t)__builtin_ctzll(v), k->live);
}

typedef struct ra_order { uint32_t first, slot; } ra_order;

static int by_first(const void *a, const void *b)
{
    const ra_order *x = a, *y = b;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* Greedy colouring in order of first access: each register gets the lowest free register (an
 * aligned free pair for 64-bit ones) not held by a coloured neighbour. */
static int colour(ra_work *k, reg_alloc *a)
{
    const ptx_func *f = k->f;
    uint32_t n = k->n, cap = 2 * n + 4, cw = (cap + WB - 1) / WB;
    ra_order *ord = malloc(((size_t)n + 1) * sizeof *ord);
    word *busy = malloc((size_t)cw * sizeof *busy);
    uint32_t *first = malloc(((size_t)n + 1) * sizeof *first);
    if (!ord || !busy || !first) {
        free(ord), free(busy), free(first);
        return -1;
    }
    for (uint32_t r = 0; r < n; r++) first[r] = UINT32_MAX;
    for (uint32_t pc = f->n_instrs; pc-- > 0;) {
        const ptx_instr *in = &f->instrs[pc];
        for (int i = 0; i < in->nsrc; i++)
            if (in->src[i] < n) first[in->src[i]] = pc;
        for (int i = 0; i < in->ndst; i++)
            if (in->dst[i] < n) first[in->dst[i]] = pc;
    }
    uint32_t m = 0;
    for (uint32_t r = 0; r < n; r++)
        if (k->w[r] && first[r] != UINT32_MAX) ord[m++] = (ra_order){first[r], r};
    qsort(ord, m, sizeof *ord, by_first);
    for (uint32_t i = 0; i < m; i++) {
        uint32_t v = ord[i].slot, w = k->w[v], c = 0;
        memset(busy, 0, (size_t)cw * sizeof *busy);
        const word *row = k->adj + (size_t)v * k->nw;
        for (uint32_t x = 0; x < k->nw; x++)
            for (word bits = row[x]; bits; bits &= bits - 1) {
                uint32_t u = x * WB + (uint32_t)__builtin_ctzll(bits);
                if (a->phys[u] == RA_NONE) continue;
                for (uint32_t h = 0; h < a->width[u]; h++) set(busy, a->phys[u] + h);
            }
        while (bit(busy, c) || (w == 2 && bit(busy, c + 1))) c += w;
        a->phys[v] = c;
        a->width[v] = (uint8_t)w;
        if (c + w > a->n_colours) a->n_colours = c + w;
    }
    free(ord), free(busy), free(first);
    return 0;
}

/* Colours past the budget fold onto (colour mod budget), pairs kept aligned; those registers are
 * shared by several live values. */
static int fold(reg_alloc *a, uint32_t budget)
{
    uint32_t n = a->n_colours;
    if (budget && n > budget) n = budget;
    a->n_phys = n;
    a->shared = calloc((size_t)n + 1, 1);
    if (!a->shared) return -1;
    for (uint32_t r = 0; r < a->n_regs; r++) {
        uint32_t c = a->phys[r], w = a->width[r];
        if (c == RA_NONE || c + w <= n) continue;
        a->n_spilled++;
        c %= n;
        if (w == 2 && n >= 2) c &= ~1u;
        if (c + w > n) w = 1; /* a budget of one register */
        a->phys[r] = c;
        a->width[r] = (uint8_t)w;
        for (uint32_t h = 0; h < w; h++) a->shared[c + h] = 1;
    }
    return 0;
}

int reg_alloc_build(reg_alloc *out, const ptx_func *f, uint32_t budget)
{
    memset(out, 0, sizeof *out);
    uint32_t n = f->n_regs;
    if (n > RA_MAX_REGS) return -1;
    for (uint32_t pc = 0; pc < f->n_instrs; pc++) /* its registers are known only at run time */
        if (f->instrs[pc].op == OP_MOV_INDIRECT) return -1;
    out->n_regs = n;
    out->phys = malloc(((size_t)n + 1) * sizeof *out->phys);
    out->width = calloc((size_t)n + 1, 1);
    uint8_t *w = calloc((size_t)n + 1, 1);
    ra_work k = {f, w, n, (n + WB - 1) / WB + 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    size_t bs = ((size_t)f->n_blocks + 1) * k.nw;
    k.gen = calloc(bs, sizeof(word));
    k.kill = calloc(bs, sizeof(word));
    k.in = calloc(bs, sizeof(word));
    k.out = calloc(bs, sizeof(word));
    k.adj = calloc(((size_t)n + 1) * k.nw, sizeof(word));
    k.live = calloc(k.nw, sizeof(word));
    k.dead = calloc(k.nw, sizeof(word));
    int rc = -1;
    if (out->phys && out->width && w && k.gen && k.kill && k.in && k.out && k.adj && k.live && k.dead) {
        for (uint32_t r = 0; r < n; r++) {
            w[r] = (uint8_t)reg_alloc_width(f->regs[r].type);
            out->phys[r] = RA_NONE;
        }
        local_sets(&k);
        liveness(&k);
        interference(&k);
        rc = colour(&k, out) == 0 && fold(out, budget) == 0 ? 0 : -1;
    }
    free(w), free(k.gen), free(k.kill), free(k.in), free(k.out), free(k.adj), free(k.live), free(k.dead);
    if (rc) reg_alloc_free(out);
    return rc;
}

void reg_alloc_free(reg_alloc *a)
{
    free(a->phys), free(a->width), free(a->shared);
    memset(a, 0, sizeof *a);
}
