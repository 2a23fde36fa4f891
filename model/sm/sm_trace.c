/* Trace-driven warps: the SM runs Accel-Sim SASS traces instead of executing PTX. A CTA's thread
 * block comes from the simulator's reader (sm_trace_source); each warp walks its instruction
 * lines. Every line issues like a PTX instruction would: its traced registers go through the
 * scoreboard and register banks, its opcode class picks the unit and the -trace_opcode_latency_
 * initiation_* timing, memory lines send their traced addresses through the same LD/ST unit,
 * coalescer and caches, BAR lines are barriers of the CTA's warps, and a warp is done after its
 * last line (an EXIT line with lanes still running is an ordinary instruction: traces list
 * predicated-off EXITs in the middle of a warp's stream).
 *
 * Choices: a wide load's destination (LDG.E.64/.128) reserves the consecutive registers it
 * writes; generic LD/ST/ATOM resolve to shared or local memory when the address falls in the
 * header's shared / local window (4 GB from its base), else global; constant-bank reads (LDC,
 * ULDC) carry no address in traces and run on the integer unit; tensor-core ops run on the SP
 * units with the tensor latency (the SM has no tensor pipeline). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../trace/trace_config.h"
#include "../trace/trace_reader.h"
#include "sm_internal.h"

#define TRACE_WINDOW (1ull << 32)

/* How the pipeline treats opcode id (cached; the reader adds ids while it reads). */
static const sm_trace_op *op_of(sm_core *s, uint16_t id)
{
    if (id >= s->n_trace_ops) {
        uint32_t n = s->n_trace_ops ? s->n_trace_ops : 64;
        while (n <= id) n *= 2;
        sm_trace_op *t = realloc(s->trace_ops, n * sizeof *t);
        if (!t) return NULL;
        memset(t + s->n_trace_ops, 0, (n - s->n_trace_ops) * sizeof *t);
        s->trace_ops = t;
        s->n_trace_ops = n;
    }
    sm_trace_op *o = &s->trace_ops[id];
    if (o->known) return o;
    const trace_op_info *info = trace_opcode_info(s->trace->ops, id);
    int cls = info ? info->cls : TOC_INT;
    o->space = info ? info->space : PS_GENERIC;
    switch (cls) {
    case TOC_LOAD: o->op = OP_LD; break;
    case TOC_STORE: o->op = OP_ST; break;
    case TOC_ATOMIC: {
        const char *name = trace_opcode_name(s->trace->ops, id);
        o->op = name && strncmp(name, "RED", 3) == 0 ? OP_RED : OP_ATOM;
        break;
    }
    case TOC_BARRIER: o->op = OP_BAR; break;
    case TOC_MEMBAR: o->op = OP_MEMBAR; break;
    case TOC_EXIT: o->op = OP_EXIT; break;
    default: o->op = OP_ADD; break;
    }
    if (trace_op_is_memory(cls)) {
        o->fu.unit = FU_MEM;
        o->fu.latency = 0;
        o->fu.initiation = 1;
    } else {
        uint16_t lat = 1, init = 1;
        trace_latency(&s->cfg->trace, cls == TOC_BRANCH || cls == TOC_EXIT || cls == TOC_NOP || cls == TOC_BARRIER ||
                                              cls == TOC_MEMBAR ? TOC_INT : cls,
                      &lat, &init);
        const sm_config *c = &s->cfg->sm;
        int unit;
        switch (cls) {
        case TOC_SP: case TOC_TENSOR: unit = FU_SP; break;
        case TOC_DP: unit = c->n_dp_units > 0 ? FU_DP : FU_SFU; break;
        case TOC_SFU: unit = FU_SFU; break;
        default: unit = c->n_int_units > 0 ? FU_INT : FU_SP; break;
        }
        o->fu.unit = (uint8_t)unit;
        o->fu.latency = lat ? lat : 1;
        o->fu.initiation = init ? init : 1;
    }
    o->known = 1;
    return o;
}

/* Loads the warp's next line into tw->cur (or marks the stream finished). */
static void load_next(sm_core *s, sm_trace_warp *tw)
{
    if (!tw->left) {
        tw->insn = NULL;
        return;
    }
    const trace_insn *t = tw->insn;
    const sm_trace_op *o = op_of(s, t->op);
    ptx_instr *in = &tw->cur;
    in->op = o ? o->op : OP_ADD;
    in->type = 0;
    in->line = 0;
    in->nsrc = 0;
    in->ndst = 0;
    in->src = tw->cur_regs;
    in->dst = tw->cur_regs + PTX_MAX_REGS_PER_INSTR;
    for (int i = 0; i < t->nsrc && in->nsrc < PTX_MAX_REGS_PER_INSTR; i++) in->src[in->nsrc++] = t->src[i];
    /* a wide load writes consecutive registers from its destination */
    uint32_t wide = in->op == OP_LD && t->mem_width > 4 ? t->mem_width / 4u : 1u;
    uint32_t top = 0;
    for (int i = 0; i < t->ndst; i++)
        for (uint32_t k = 0; k < wide && in->ndst < PTX_MAX_REGS_PER_INSTR; k++) {
            uint32_t r = t->dst[i] + k;
            if (r == TRACE_RZ || (t->dst[i] < TRACE_RZ && r > TRACE_RZ)) break; /* a group never wraps into RZ */
            in->dst[in->ndst++] = r;
        }
    for (int i = 0; i < in->nsrc; i++) top = in->src[i] > top ? in->src[i] : top;
    for (int i = 0; i < in->ndst; i++) top = in->dst[i] > top ? in->dst[i] : top;
    if (top >= s->sb.n_regs) { /* registers above R255 (gtlm-written traces): widen the scoreboard */
        uint32_t n = s->sb.n_regs;
        while (n <= top) n *= 2;
        if (sb_grow(&s->sb, n) != 0) {
            s->error = 1;
            s->err.status = SIMT_ERR_NOMEM;
            snprintf(s->err.detail, sizeof s->err.detail, "SM %d: out of memory widening the scoreboard", s->id);
        }
        s->sb_regs = s->sb.n_regs;
    }
    tw->fu = o ? o->fu : (fu_timing){FU_SP, 1, 1};
    tw->is_mem = tw->fu.unit == FU_MEM;
    tw->pc = (uint32_t)(t->pc >> (s->trace->binary_version >= 70 ? 4 : 3));
}

int sm_trace_cta_start(sm_core *s, sm_cta_slot *c, const uint32_t ctaid[3], strbuf *err)
{
    if (!c->tb) {
        c->tb = calloc(1, sizeof *c->tb);
        c->tws = calloc(s->warps_per_cta ? s->warps_per_cta : 1, sizeof *c->tws);
        if (!c->tb || !c->tws) {
            strbuf_printf(err, "SM %d: out of memory for a trace-driven CTA", s->id);
            return -1;
        }
    }
    if (s->trace->get_tb(s->trace->ctx, ctaid, c->tb, err) != 0) return -1;
    c->t_live = 0;
    c->t_arrived = 0;
    for (uint32_t i = 0; i < s->warps_per_cta; i++) {
        sm_trace_warp *tw = &c->tws[i];
        const trace_warp *w = i < c->tb->n_warps ? &c->tb->warps[i] : NULL;
        tw->left = w ? w->n : 0;
        tw->insn = tw->left ? &c->tb->insns[w->first] : NULL;
        tw->state = tw->left ? SIMT_WARP_READY : SIMT_WARP_DONE;
        c->t_live += tw->left ? 1 : 0;
        load_next(s, tw);
    }
    return 0;
}

/* Where a traced address lives (generic accesses resolved by the header's windows). */
static uint8_t space_of(const sm_core *s, uint8_t space, uint64_t addr)
{
    if (space != PS_GENERIC) return space;
    const sm_trace_source *t = s->trace;
    if (t->shmem_base && addr >= t->shmem_base && addr - t->shmem_base < TRACE_WINDOW) return PS_SHARED;
    if (t->local_base && addr >= t->local_base && addr - t->local_base < TRACE_WINDOW) return PS_LOCAL;
    return PS_GLOBAL;
}

/* Releases the CTA's warps waiting at its barrier once every live warp arrived. */
static void barrier_check(sm_core *s, uint32_t cta)
{
    sm_cta_slot *c = &s->ctas[cta];
    if (!c->t_arrived || c->t_arrived < c->t_live) return;
    for (uint32_t i = 0; i < s->warps_per_cta; i++)
        if (c->tws[i].state == SIMT_WARP_AT_BARRIER) c->tws[i].state = SIMT_WARP_READY;
    c->t_arrived = 0;
    sm_mark_cta_dirty(s, cta);
}

void sm_trace_accesses(sm_core *s, uint32_t slot, simt_mem_access *acc)
{
    const sm_warp_slot *ws = &s->warps[slot];
    const sm_trace_warp *tw = ws->tw;
    const trace_insn *t = tw->insn;
    uint32_t mask = t->mask;
    acc->mask = 0;
    if (!tw->is_mem || t->addr_at == TRACE_NO_ADDR || !mask) return;
    const sm_trace_op *o = op_of(s, t->op);
    const uint64_t *a = &s->ctas[ws->cta].tb->addrs[t->addr_at];
    acc->space = space_of(s, o ? o->space : PS_GLOBAL, a[0]);
    acc->is_store = tw->cur.op == OP_ST || tw->cur.op == OP_RED;
    acc->is_atomic = tw->cur.op == OP_ATOM || tw->cur.op == OP_RED;
    acc->bytes = t->mem_width ? t->mem_width : 4;
    acc->mask = mask;
    /* shared-memory lines may carry the window's base (gtlm-written traces): offsets within it */
    uint64_t base = acc->space == PS_SHARED && s->trace->shmem_base && a[0] >= s->trace->shmem_base ? s->trace->shmem_base : 0;
    int k = 0;
    for (int l = 0; l < SIMT_WARP; l++)
        if (mask >> l & 1) acc->addr[l] = a[k++] - base;
}

uint32_t sm_trace_lanes(const sm_core *s, uint32_t slot) { return s->warps[slot].tw->insn->mask; }

uint32_t sm_trace_advance(sm_core *s, uint32_t slot)
{
    sm_warp_slot *ws = &s->warps[slot];
    sm_trace_warp *tw = ws->tw;
    sm_cta_slot *c = &s->ctas[ws->cta];
    int is_bar = tw->cur.op == OP_BAR;
    uint32_t lanes = (uint32_t)__builtin_popcount(tw->insn->mask);
    tw->insn++;
    tw->left--;
    load_next(s, tw);
    if (!tw->left) {
        tw->state = SIMT_WARP_DONE;
        c->t_live--;
        barrier_check(s, ws->cta);
    } else if (is_bar) {
        tw->state = SIMT_WARP_AT_BARRIER;
        c->t_arrived++;
        barrier_check(s, ws->cta);
    }
    return lanes;
}
