/* LocalityGuru's syntax trees (Algorithm 3 with spec B.9.1-B.9.4): reaching definitions walked
 * backwards over the CFG, closures classified static or data-dependent, the evaluation slice. */
#include "guru_trees.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct u32vec { uint32_t *v; size_t n, cap; } u32vec;

static int push(u32vec *a, uint32_t x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        uint32_t *v = realloc(a->v, cap * sizeof *v);
        if (!v) return -1;
        a->v = v, a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

typedef struct ctx {
    const ptx_module *m;
    const ptx_func *f;
    uint32_t *pred_start, *pred; /* CSR predecessor lists of the blocks */
    uint8_t *seen_block;         /* scratch, one per block */
    uint8_t *seen_pc;            /* scratch, one per instruction */
    u32vec stack, defs, queue;
} ctx;

static int writes(const ptx_instr *in, uint32_t reg)
{
    for (unsigned i = 0; i < in->ndst; i++)
        if (in->dst[i] == reg) return 1;
    return 0;
}

static int is_global_load(const ptx_instr *in)
{
    return in->op == OP_LD && (in->space == PS_GLOBAL || in->space == PS_GENERIC);
}

/* Scans [start, end) of the function backwards for definitions of reg; returns 1 when an
 * unguarded one ends the walk on this path. */
static int scan(ctx *c, uint32_t reg, uint32_t start, uint32_t end, int *oom)
{
    for (uint32_t pc = end; pc-- > start;) {
        const ptx_instr *in = &c->f->instrs[pc];
        if (!writes(in, reg)) continue;
        if (!c->seen_pc[pc]) {
            c->seen_pc[pc] = 1;
            if (push(&c->defs, pc)) *oom = 1;
        }
        if (in->guard == PTX_NO_REG) return 1;
    }
    return 0;
}

/* Every definition of reg that reaches instruction pc (into c->defs, ascending pc). An empty
 * answer means the register is read before any write on every path (it holds 0). */
static int reaching_defs(ctx *c, uint32_t reg, uint32_t pc)
{
    const ptx_func *f = c->f;
    int oom = 0;
    c->defs.n = 0;
    c->stack.n = 0;
    uint32_t b0 = f->block_of[pc];
    memset(c->seen_block, 0, f->n_blocks);
    if (!scan(c, reg, f->blocks[b0].start, pc, &oom))
        for (uint32_t p = c->pred_start[b0]; p < c->pred_start[b0 + 1]; p++) oom |= push(&c->stack, c->pred[p]);
    while (c->stack.n && !oom) {
        uint32_t b = c->stack.v[--c->stack.n];
        if (c->seen_block[b]) continue;
        c->seen_block[b] = 1;
        if (scan(c, reg, f->blocks[b].start, f->blocks[b].end, &oom)) continue;
        for (uint32_t p = c->pred_start[b]; p < c->pred_start[b + 1]; p++) oom |= push(&c->stack, c->pred[p]);
    }
    for (size_t i = 0; i < c->defs.n; i++) c->seen_pc[c->defs.v[i]] = 0;
    /* ascending, so the trees print the same on every run */
    for (size_t i = 1; i < c->defs.n; i++)
        for (size_t j = i; j > 0 && c->defs.v[j - 1] > c->defs.v[j]; j--) {
            uint32_t t = c->defs.v[j];
            c->defs.v[j] = c->defs.v[j - 1];
            c->defs.v[j - 1] = t;
        }
    return oom ? -1 : 0;
}

static int sreg_static(uint16_t s)
{
    return s != SR_SMID && s != SR_CLOCK && s != SR_CLOCK64 && s != SR_GLOBALTIMER;
}

/* Whether a definition is a leaf the analysis cannot know at launch (the why names it). */
static int data_source(const ctx *c, uint32_t pc, char *why, size_t len)
{
    const ptx_instr *in = &c->f->instrs[pc];
    const char *what = NULL;
    switch (in->op) {
    case OP_LD:
        if (in->space == PS_PARAM && c->f->is_entry && in->o[1].reg == PTX_NO_REG && in->o[1].sym == PTX_NO_SYM)
            break; /* a kernel parameter */
        what = in->space == PS_GLOBAL || in->space == PS_GENERIC ? "a global load" : "a memory read";
        break;
    case OP_ATOM: case OP_SHFL: case OP_VOTE: case OP_ACTIVEMASK: case OP_CALL: case OP_BAR:
        what = "a value from memory or other threads";
        break;
    case OP_MOV: case OP_CVT: case OP_CVTA: case OP_ST: case OP_RED: case OP_BRA: case OP_EXIT: case OP_RET:
        break;
    default:
        if (!((in->op >= OP_ADD && in->op <= OP_SLCT))) what = "an instruction the analysis does not evaluate";
    }
    for (unsigned k = 1; !what && k < in->nopnd; k++) {
        const ptx_operand *o = &in->o[k];
        if (o->kind == PO_SREG && !sreg_static(o->sreg)) what = "%smid or a clock";
        if (o->kind == PO_SYMBOL) {
            const ptx_symbol *s = ptx_symbol_ref(c->m, c->f, o->sym);
            if (!s || (s->space != PS_GLOBAL && s->space != PS_SHARED && s->space != PS_CONST))
                what = "the address of a local or parameter variable";
        }
    }
    if (!what) return 0;
    snprintf(why, len, "depends on %s (line %u: %s)", what, in->line, ptx_op_name((ptx_op)in->op));
    return 1;
}

/* The closure of the registers instruction root reads: every reaching definition, transitively.
 * Marks them in mark[] (when not NULL) and returns 1 with why filled when a leaf is data. */
static int closure(ctx *c, uint32_t root, uint8_t *mark, char *why, size_t len, int *oom)
{
    const ptx_func *f = c->f;
    uint8_t *seen = calloc(f->n_instrs, 1);
    u32vec q = {0};
    int data = 0;
    if (!seen || push(&q, root)) {
        free(seen);
        free(q.v);
        *oom = 1;
        return 0;
    }
    for (size_t h = 0; h < q.n && !data && !*oom; h++) {
        uint32_t pc = q.v[h];
        const ptx_instr *in = &f->instrs[pc];
        if (pc != root && data_source(c, pc, why, len)) {
            data = 1;
            break;
        }
        for (unsigned s = 0; s < in->nsrc && !*oom; s++) {
            if (reaching_defs(c, in->src[s], pc)) {
                *oom = 1;
                break;
            }
            for (size_t d = 0; d < c->defs.n; d++) {
                uint32_t x = c->defs.v[d];
                if (seen[x]) continue;
                seen[x] = 1;
                if (push(&q, x)) *oom = 1;
            }
        }
    }
    if (!data && mark)
        for (size_t h = 1; h < q.n; h++) mark[q.v[h]] = 1;
    free(seen);
    free(q.v);
    return data;
}

static int build_preds(ctx *c)
{
    const ptx_func *f = c->f;
    c->pred_start = calloc((size_t)f->n_blocks + 1, sizeof *c->pred_start);
    if (!c->pred_start) return -1;
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        const ptx_block *bl = &f->blocks[b];
        for (uint32_t s = 0; s < bl->nsucc; s++) {
            uint32_t t = bl->nsucc > 2 ? bl->succ_more[s] : bl->succ[s];
            if (t < f->n_blocks) c->pred_start[t + 1]++;
        }
    }
    for (uint32_t b = 0; b < f->n_blocks; b++) c->pred_start[b + 1] += c->pred_start[b];
    c->pred = malloc(((size_t)c->pred_start[f->n_blocks] + 1) * sizeof *c->pred);
    uint32_t *fill = calloc((size_t)f->n_blocks + 1, sizeof *fill);
    if (!c->pred || !fill) {
        free(fill);
        return -1;
    }
    for (uint32_t b = 0; b < f->n_blocks; b++) {
        const ptx_block *bl = &f->blocks[b];
        for (uint32_t s = 0; s < bl->nsucc; s++) {
            uint32_t t = bl->nsucc > 2 ? bl->succ_more[s] : bl->succ[s];
            if (t < f->n_blocks) c->pred[c->pred_start[t] + fill[t]++] = b;
        }
    }
    free(fill);
    return 0;
}

/* Marks unresolved (with why) every load reachable from instruction pc. */
static int unresolve_reachable(ctx *c, guru_kernel *k, uint32_t pc, const char *why)
{
    const ptx_func *f = c->f;
    uint8_t *from = calloc(f->n_instrs + 1, 1); /* instructions reachable from pc */
    uint8_t *seen = calloc(f->n_blocks, 1);
    u32vec st = {0};
    int oom = !from || !seen;
    uint32_t b0 = f->block_of[pc];
    for (uint32_t i = pc + 1; !oom && i < f->blocks[b0].end; i++) from[i] = 1;
    for (uint32_t s = 0; !oom && s < f->blocks[b0].nsucc; s++)
        oom |= push(&st, f->blocks[b0].nsucc > 2 ? f->blocks[b0].succ_more[s] : f->blocks[b0].succ[s]);
    while (st.n && !oom) {
        uint32_t b = st.v[--st.n];
        if (b >= f->n_blocks || seen[b]) continue;
        seen[b] = 1;
        for (uint32_t i = f->blocks[b].start; i < f->blocks[b].end; i++) from[i] = 1;
        for (uint32_t s = 0; s < f->blocks[b].nsucc; s++)
            oom |= push(&st, f->blocks[b].nsucc > 2 ? f->blocks[b].succ_more[s] : f->blocks[b].succ[s]);
    }
    int any = 0;
    for (uint32_t i = 0; !oom && i < k->n_loads; i++) {
        guru_load *ld = &k->loads[i];
        if (ld->pc == UINT32_MAX || !from[ld->pc]) continue;
        any = 1;
        if (!ld->resolved) continue;
        ld->resolved = 0;
        snprintf(ld->why, sizeof ld->why, "%.190s", why);
    }
    free(from);
    free(seen);
    free(st.v);
    return oom ? -1 : any;
}

static int is_control(const ptx_instr *in)
{
    return in->op == OP_BRA || in->op == OP_BRX_IDX || in->op == OP_EXIT || in->op == OP_RET || in->op == OP_CALL;
}

int guru_analyse(const ptx_module *m, const ptx_func *f, guru_kernel *k)
{
    memset(k, 0, sizeof *k);
    k->m = m, k->f = f;
    ctx c = {0};
    c.m = m, c.f = f;
    int oom = build_preds(&c);
    c.seen_block = calloc(f->n_blocks + 1, 1);
    c.seen_pc = calloc(f->n_instrs + 1, 1);
    k->role = calloc(f->n_instrs + 1, 1);
    uint32_t n = 0;
    for (uint32_t pc = 0; pc < f->n_instrs; pc++) n += is_global_load(&f->instrs[pc]) || f->instrs[pc].op == OP_CALL;
    k->loads = calloc(n + 1, sizeof *k->loads);
    oom |= !c.seen_block || !c.seen_pc || !k->role || !k->loads;
    uint8_t *slice = oom ? NULL : calloc(f->n_instrs + 1, 1);
    oom |= !slice;
    /* the loads' own trees (address and guard) */
    for (uint32_t pc = 0; !oom && pc < f->n_instrs; pc++) {
        const ptx_instr *in = &f->instrs[pc];
        if (in->op == OP_CALL) { /* a callee's reads are not analysed (spec B.9.8: fall back) */
            guru_load *ld = &k->loads[k->n_loads++];
            ld->pc = UINT32_MAX, ld->line = in->line, ld->tree = UINT32_MAX;
            const ptx_func *callee = in->o[0].kind == PO_FUNC ? &m->funcs[in->o[0].imm] : NULL;
            snprintf(ld->why, sizeof ld->why, "calls %s (line %u): loads of called functions are not analysed",
                     callee ? callee->name : "a function", in->line);
            continue;
        }
        if (!is_global_load(in)) continue;
        guru_load *ld = &k->loads[k->n_loads++];
        ld->pc = pc, ld->line = in->line, ld->offset = in->o[1].imm;
        ld->resolved = !closure(&c, pc, slice, ld->why, sizeof ld->why, &oom);
    }
    /* control the loads depend on: predicate trees of branches, exits, brx (spec B.3.4, B.9.4) */
    for (uint32_t pc = 0; !oom && pc < f->n_instrs; pc++) {
        const ptx_instr *in = &f->instrs[pc];
        if (!is_control(in)) continue;
        char why[160] = "", msg[200];
        int data = in->op == OP_BRX_IDX || in->op == OP_CALL;
        if (in->op == OP_BRX_IDX) snprintf(why, sizeof why, "an indirect branch (brx.idx)");
        if (in->op == OP_CALL) snprintf(why, sizeof why, "a call");
        if (!data && in->nsrc) data = closure(&c, pc, NULL, why, sizeof why, &oom);
        if (data) {
            snprintf(msg, sizeof msg, "control at line %u %s", in->line, why);
            int any = unresolve_reachable(&c, k, pc, msg);
            if (any < 0) oom = 1;
            if (in->op != OP_CALL) k->role[pc] = GURU_DEAD_END;
        } else {
            k->role[pc] = GURU_CONTROL;
        }
    }
    /* slice of the control the evaluator follows */
    for (uint32_t pc = 0; !oom && pc < f->n_instrs; pc++)
        if (k->role[pc] == GURU_CONTROL && f->instrs[pc].nsrc) closure(&c, pc, slice, NULL, 0, &oom);
    for (uint32_t i = 0; !oom && i < k->n_loads; i++) {
        guru_load *ld = &k->loads[i];
        if (!ld->resolved) k->n_unresolved++;
        if (ld->pc == UINT32_MAX) continue;
        if (ld->resolved) k->role[ld->pc] = GURU_LOAD;
        /* the offset map: same base register, same reaching definitions -> one tree */
        const ptx_operand *a = &f->instrs[ld->pc].o[1];
        ld->tree = k->n_trees;
        for (uint32_t j = 0; j < i; j++) {
            const guru_load *o = &k->loads[j];
            if (o->pc == UINT32_MAX || f->instrs[o->pc].o[1].reg != a->reg || f->instrs[o->pc].o[1].sym != a->sym)
                continue;
            int same = 1;
            for (uint32_t p = o->pc; p < ld->pc && same; p++) same = a->reg == PTX_NO_REG || !writes(&f->instrs[p], a->reg);
            if (same && f->block_of[o->pc] == f->block_of[ld->pc]) {
                ld->tree = o->tree;
                break;
            }
        }
        if (ld->tree == k->n_trees) k->n_trees++;
    }
    for (uint32_t pc = 0; !oom && pc < f->n_instrs; pc++)
        if (slice[pc] && k->role[pc] == GURU_SKIP) k->role[pc] = GURU_SLICE;
    free(slice);
    free(c.pred_start), free(c.pred), free(c.seen_block), free(c.seen_pc);
    free(c.stack.v), free(c.defs.v), free(c.queue.v);
    if (oom) {
        guru_kernel_free(k);
        return -1;
    }
    return 0;
}

void guru_kernel_free(guru_kernel *k)
{
    free(k->loads);
    free(k->role);
    memset(k, 0, sizeof *k);
}

/* ---- printing a tree ---- */

typedef struct printer {
    ctx c;
    char *buf;
    size_t len, at;
    uint32_t path[24];
    unsigned depth;
} printer;

static void put(printer *p, const char *s)
{
    size_t n = strlen(s);
    if (p->at + n + 4 >= p->len) {
        if (p->at + 4 < p->len) {
            memcpy(p->buf + p->at, "...", 4);
            p->at += 3;
        }
        p->at = p->len; /* full */
        return;
    }
    memcpy(p->buf + p->at, s, n + 1);
    p->at += n;
}

static void print_def(printer *p, uint32_t pc);

static void print_reg(printer *p, uint32_t reg, uint32_t at)
{
    const ptx_func *f = p->c.f;
    if (p->at >= p->len) return; /* full: the rest of the tree is not walked */
    if (reaching_defs(&p->c, reg, at) || p->c.defs.n == 0) {
        put(p, f->regs[reg].name);
        return;
    }
    size_t n = p->c.defs.n;
    int phi = n > 1;
    uint32_t defs[8];
    if (n > 8) n = 8;
    memcpy(defs, p->c.defs.v, n * sizeof *defs);
    if (n > 1) put(p, "phi(");
    for (size_t i = 0; i < n && p->at < p->len; i++) {
        if (i) put(p, ", ");
        int looped = 0;
        for (unsigned d = 0; d < p->depth; d++) looped |= p->path[d] == defs[i];
        if (looped) {
            put(p, "loop(");
            put(p, f->regs[reg].name);
            put(p, ")");
        } else if (p->depth >= 24) {
            put(p, "...");
        } else {
            print_def(p, defs[i]);
        }
    }
    if (phi) put(p, ")");
}

static void print_operand(printer *p, const ptx_operand *o, uint32_t pc)
{
    static const char *const sregs[] = {"", "tid", "ntid", "ctaid", "nctaid"};
    char t[64];
    switch (o->kind) {
    case PO_REG:
        if (o->neg) put(p, "!");
        print_reg(p, o->reg, pc);
        return;
    case PO_IMM: snprintf(t, sizeof t, "%lld", (long long)o->imm); break;
    case PO_SREG:
        if (o->sreg >= SR_TID && o->sreg <= SR_NCTAID) snprintf(t, sizeof t, "%s.%c", sregs[o->sreg], "xyz"[o->comp % 3]);
        else snprintf(t, sizeof t, "%%sreg%u", o->sreg);
        break;
    case PO_SYMBOL: {
        const ptx_symbol *s = ptx_symbol_ref(p->c.m, p->c.f, o->sym);
        snprintf(t, sizeof t, "&%s", s ? s->name : "?");
        break;
    }
    default: snprintf(t, sizeof t, "?");
    }
    put(p, t);
}

static void print_def(printer *p, uint32_t pc)
{
    const ptx_func *f = p->c.f;
    const ptx_instr *in = &f->instrs[pc];
    p->path[p->depth++] = pc;
    if (in->op == OP_LD && in->space == PS_PARAM) {
        const char *name = "param";
        for (uint32_t i = 0; i < f->n_params; i++)
            if (f->params[i].offset == (uint64_t)in->o[1].imm) name = f->params[i].name;
        put(p, name);
    } else if (in->op == OP_MOV && in->nopnd == 2 && in->o[1].kind != PO_VEC) {
        print_operand(p, &in->o[1], pc);
    } else {
        put(p, ptx_op_name((ptx_op)in->op));
        if (in->mode == PM_WIDE) put(p, ".wide");
        if (in->op == OP_SETP || in->op == OP_SET) {
            static const char *const cmps[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
            if (in->cmp < sizeof cmps / sizeof *cmps) {
                put(p, ".");
                put(p, cmps[in->cmp]);
            }
        }
        put(p, "(");
        for (unsigned k = 1; k < in->nopnd; k++) {
            if (k > 1) put(p, ", ");
            print_operand(p, &in->o[k], pc);
        }
        put(p, ")");
    }
    p->depth--;
}

void guru_tree_text(const guru_kernel *k, uint32_t i, char *buf, size_t len)
{
    if (!len) return;
    buf[0] = 0;
    const guru_load *ld = &k->loads[i];
    if (ld->pc == UINT32_MAX) return;
    printer p = {0};
    p.c.m = k->m, p.c.f = k->f;
    p.buf = buf, p.len = len;
    p.c.seen_block = calloc(k->f->n_blocks + 1, 1);
    p.c.seen_pc = calloc(k->f->n_instrs + 1, 1);
    if (!p.c.seen_block || !p.c.seen_pc || build_preds(&p.c)) {
        snprintf(buf, len, "(out of memory)");
    } else {
        const ptx_operand *a = &k->f->instrs[ld->pc].o[1];
        if (a->reg != PTX_NO_REG) print_reg(&p, a->reg, ld->pc);
        else print_operand(&p, &(ptx_operand){.kind = PO_SYMBOL, .sym = a->sym}, ld->pc);
        char off[32];
        snprintf(off, sizeof off, " + %lld", (long long)ld->offset);
        if (ld->offset) put(&p, off);
    }
    free(p.c.pred_start), free(p.c.pred), free(p.c.seen_block), free(p.c.seen_pc);
    free(p.c.stack.v), free(p.c.defs.v);
}
