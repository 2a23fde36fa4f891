/*
 * Basic blocks, successors and immediate post-dominators of one function, and the
 * reconvergence point of every branch (the first instruction of the ipdom of its block).
 *
 * Post-dominators are dominators of the reverse CFG rooted at a virtual exit that every
 * ret/exit/trap (and falling off the end) leads to; they are computed with the iterative
 * algorithm of Cooper, Harvey and Kennedy over the reverse post-order of the reverse CFG.
 * Blocks that cannot reach the exit (infinite loops) get the virtual exit as ipdom, and an
 * edge into such a block counts as an edge to the exit.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"

#define EXIT_BLOCK UINT32_MAX
#define UNDEF UINT32_MAX

typedef struct cfg {
    uint32_t nb;          /* blocks; node nb is the virtual exit */
    uint32_t *sstart;     /* forward successors of block b: slist[sstart[b] .. sstart[b + 1]) (exit = nb) */
    uint32_t *slist;
    uint32_t *pstart;     /* forward predecessors of node v (incl. the exit) */
    uint32_t *plist;
    uint32_t *po;         /* post-order number in the DFS of the reverse CFG, UNDEF if not reached */
    uint32_t *order;      /* nodes in post-order */
    uint32_t norder;
    uint32_t *idom;
} cfg;

static void cfg_free(cfg *c)
{
    free(c->sstart), free(c->slist), free(c->pstart), free(c->plist);
    free(c->po), free(c->order), free(c->idom);
}

static int is_block_end(const ptx_instr *in)
{
    return in->op == OP_BRA || in->op == OP_BRX_IDX || in->op == OP_RET || in->op == OP_EXIT || in->op == OP_TRAP;
}

/* Block index of a branch target pc (the exit node for a label at the end of the function). */
static uint32_t target_block(const ptx_func *f, int64_t pc, uint32_t nb)
{
    return pc >= 0 && pc < (int64_t)f->n_instrs ? f->block_of[pc] : nb;
}

static int add_succ(uint32_t *list, uint32_t *n, uint32_t cap, uint32_t s)
{
    for (uint32_t i = 0; i < *n; i++)
        if (list[i] == s) return 0;
    if (*n >= cap) return -1;
    list[(*n)++] = s;
    return 0;
}

/* Successors of every block, as a flat list in c and in the ptx_block fields. */
static int successors(ptx_func *f, cfg *c)
{
    uint32_t nb = c->nb, total = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_instr *last = &f->instrs[f->blocks[b].end - 1];
        total += 2 + (last->op == OP_BRX_IDX ? last->n_targets : 0);
    }
    c->sstart = malloc(((size_t)nb + 1) * sizeof *c->sstart);
    c->slist = malloc(((size_t)total + 1) * sizeof *c->slist);
    if (!c->sstart || !c->slist) return -1;
    uint32_t k = 0;
    for (uint32_t b = 0; b < nb; b++) {
        ptx_block *bl = &f->blocks[b];
        const ptx_instr *last = &f->instrs[bl->end - 1];
        uint32_t *list = c->slist + k, n = 0, cap = total - k;
        uint32_t fall = bl->end < f->n_instrs ? f->block_of[bl->end] : nb;
        int guarded = last->guard != PTX_NO_REG;
        switch (last->op) {
        case OP_BRA:
            add_succ(list, &n, cap, target_block(f, last->o[0].imm, nb));
            if (guarded) add_succ(list, &n, cap, fall);
            break;
        case OP_BRX_IDX:
            for (uint32_t t = 0; t < last->n_targets; t++) add_succ(list, &n, cap, target_block(f, last->targets[t], nb));
            if (guarded || !last->n_targets) add_succ(list, &n, cap, fall);
            break;
        case OP_RET: case OP_EXIT: case OP_TRAP:
            add_succ(list, &n, cap, nb);
            if (guarded) add_succ(list, &n, cap, fall);
            break;
        default: add_succ(list, &n, cap, fall); break;
        }
        c->sstart[b] = k;
        k += n;
        bl->nsucc = n;
        for (uint32_t i = 0; i < n && i < 2; i++) bl->succ[i] = list[i] == nb ? EXIT_BLOCK : list[i];
        if (n > 2) {
            bl->succ_more = malloc(n * sizeof *bl->succ_more);
            if (!bl->succ_more) return -1;
            for (uint32_t i = 0; i < n; i++) bl->succ_more[i] = list[i] == nb ? EXIT_BLOCK : list[i];
        }
    }
    c->sstart[nb] = k;
    return 0;
}

static int predecessors(cfg *c)
{
    uint32_t n = c->nb + 1, ne = c->sstart[c->nb];
    c->pstart = calloc((size_t)n + 1, sizeof *c->pstart);
    c->plist = malloc(((size_t)ne + 1) * sizeof *c->plist);
    if (!c->pstart || !c->plist) return -1;
    for (uint32_t e = 0; e < ne; e++) c->pstart[c->slist[e] + 1]++;
    for (uint32_t v = 0; v < n; v++) c->pstart[v + 1] += c->pstart[v];
    uint32_t *fill = malloc((size_t)n * sizeof *fill);
    if (!fill) return -1;
    memcpy(fill, c->pstart, (size_t)n * sizeof *fill);
    for (uint32_t b = 0; b < c->nb; b++)
        for (uint32_t e = c->sstart[b]; e < c->sstart[b + 1]; e++) c->plist[fill[c->slist[e]]++] = b;
    free(fill);
    return 0;
}

/* Iterative depth-first search of the reverse CFG from the exit, numbering nodes in post-order. */
static int reverse_postorder(cfg *c)
{
    uint32_t n = c->nb + 1;
    c->po = malloc((size_t)n * sizeof *c->po);
    c->order = malloc((size_t)n * sizeof *c->order);
    uint32_t *stack = malloc((size_t)n * sizeof *stack), *edge = malloc((size_t)n * sizeof *edge);
    if (!c->po || !c->order || !stack || !edge) {
        free(stack), free(edge);
        return -1;
    }
    for (uint32_t v = 0; v < n; v++) c->po[v] = UNDEF;
    uint32_t sp = 0;
    uint8_t *seen = calloc(n, 1);
    if (!seen) {
        free(stack), free(edge);
        return -1;
    }
    stack[sp] = c->nb, edge[sp++] = c->pstart[c->nb], seen[c->nb] = 1;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (edge[sp - 1] < c->pstart[v + 1]) {
            uint32_t w = c->plist[edge[sp - 1]++];
            if (!seen[w]) {
                seen[w] = 1;
                stack[sp] = w, edge[sp++] = c->pstart[w];
            }
        } else {
            c->po[v] = c->norder;
            c->order[c->norder++] = v;
            sp--;
        }
    }
    free(seen), free(stack), free(edge);
    return 0;
}

static uint32_t intersect(const cfg *c, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (c->po[a] < c->po[b]) a = c->idom[a];
        while (c->po[b] < c->po[a]) b = c->idom[b];
    }
    return a;
}

static int postdominators(cfg *c)
{
    uint32_t n = c->nb + 1;
    c->idom = malloc((size_t)n * sizeof *c->idom);
    if (!c->idom) return -1;
    for (uint32_t v = 0; v < n; v++) c->idom[v] = UNDEF;
    c->idom[c->nb] = c->nb;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = c->norder; i-- > 0;) { /* reverse post-order, the exit first */
            uint32_t b = c->order[i];
            if (b == c->nb) continue;
            uint32_t nd = UNDEF;
            for (uint32_t e = c->sstart[b]; e < c->sstart[b + 1]; e++) {
                uint32_t s = c->slist[e];
                if (c->po[s] == UNDEF) s = c->nb; /* into an infinite loop: may as well never return */
                if (c->idom[s] == UNDEF) continue;
                nd = nd == UNDEF ? s : intersect(c, nd, s);
            }
            if (nd != c->idom[b]) {
                c->idom[b] = nd;
                changed = 1;
            }
        }
    }
    return 0;
}

static int leaders(ptx_func *f)
{
    uint32_t n = f->n_instrs;
    uint8_t *lead = calloc((size_t)n + 1, 1);
    if (!lead) return -1;
    lead[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_instr *in = &f->instrs[i];
        if (in->op == OP_BRA && in->o[0].imm >= 0 && in->o[0].imm < (int64_t)n) lead[in->o[0].imm] = 1;
        if (in->op == OP_BRX_IDX)
            for (uint32_t t = 0; t < in->n_targets; t++)
                if (in->targets[t] < n) lead[in->targets[t]] = 1;
        if (is_block_end(in)) lead[i + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) nb += lead[i];
    f->blocks = calloc(nb, sizeof *f->blocks);
    f->block_of = malloc((size_t)n * sizeof *f->block_of);
    if (!f->blocks || !f->block_of) {
        free(lead);
        return -1;
    }
    f->n_blocks = nb;
    uint32_t b = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (lead[i]) {
            if (b != UINT32_MAX) f->blocks[b].end = i;
            f->blocks[++b].start = i;
        }
        f->block_of[i] = b;
    }
    f->blocks[b].end = n;
    free(lead);
    return 0;
}

int ptx_cfg_build(ptx_func *f)
{
    if (!f->n_instrs) return 0;
    cfg c;
    memset(&c, 0, sizeof c);
    int rc = -1;
    if (leaders(f)) goto out;
    c.nb = f->n_blocks;
    if (successors(f, &c) || predecessors(&c) || reverse_postorder(&c) || postdominators(&c)) goto out;
    for (uint32_t b = 0; b < c.nb; b++)
        f->blocks[b].ipdom = c.idom[b] == UNDEF || c.idom[b] == c.nb ? EXIT_BLOCK : c.idom[b];
    for (uint32_t i = 0; i < f->n_instrs; i++) {
        ptx_instr *in = &f->instrs[i];
        uint32_t ip = f->blocks[f->block_of[i]].ipdom;
        int branch = in->op == OP_BRA || in->op == OP_BRX_IDX;
        in->reconv_pc = branch && ip != EXIT_BLOCK ? f->blocks[ip].start : f->n_instrs;
    }
    rc = 0;
out:
    cfg_free(&c);
    return rc;
}
