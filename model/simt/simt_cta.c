/* CTA set-up, kernel parameter packing and error descriptions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt_internal.h"

int simt_cta_init(simt_cta *c, const simt_launch *l, const uint32_t ctaid[3], uint32_t smid)
{
    memset(c, 0, sizeof *c);
    c->launch = l;
    memcpy(c->ctaid, ctaid, sizeof c->ctaid);
    c->smid = smid;
    c->n_warps = l->warps_per_cta;
    c->live_warps = c->n_warps;
    c->shared = calloc(l->shared_bytes ? l->shared_bytes : 1, 1);
    c->warps = calloc(c->n_warps, sizeof *c->warps);
    if (!c->shared || !c->warps) {
        simt_cta_free(c);
        return -1;
    }
    const simt_module *sm = l->mod;
    uint32_t regs = sm->stack_regs[l->func_index];
    uint64_t stride = (sm->stack_bytes[l->func_index] + 15) & ~15ull;
    for (uint32_t i = 0; i < c->n_warps; i++) {
        simt_warp *w = &c->warps[i];
        w->cta = c;
        w->id = i;
        uint32_t first = i * SIMT_WARP, n = l->threads_per_cta - first;
        w->valid = n >= SIMT_WARP ? 0xffffffffu : (1u << n) - 1;
        w->n_reg_slots = regs;
        w->regs = calloc((size_t)(regs ? regs : 1) * SIMT_WARP, sizeof *w->regs);
        w->frame_stride = stride;
        w->frames = calloc((size_t)(stride ? stride : 1) * SIMT_WARP, 1);
        w->cap = 8;
        w->stack = malloc(w->cap * sizeof *w->stack);
        if (!w->regs || !w->frames || !w->stack) {
            simt_cta_free(c);
            return -1;
        }
        w->stack[0] = (simt_entry){0, UINT32_MAX, w->valid, l->func_index, 0, 0, 0};
        w->depth = 1;
    }
    return 0;
}

void simt_cta_free(simt_cta *c)
{
    for (uint32_t i = 0; c->warps && i < c->n_warps; i++) {
        free(c->warps[i].regs);
        free(c->warps[i].frames);
        free(c->warps[i].stack);
    }
    free(c->warps);
    free(c->shared);
    memset(c, 0, sizeof *c);
}

int simt_pack_params(const ptx_func *k, const void *const *args, const size_t *sizes, size_t n, uint8_t **out,
                     char *err, size_t len)
{
    *out = NULL;
    if (n != k->n_params) {
        snprintf(err, len, "kernel '%s' takes %u parameters, %zu given", k->name, k->n_params, n);
        return -1;
    }
    uint8_t *buf = calloc(k->param_bytes ? k->param_bytes : 1, 1);
    if (!buf) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const ptx_param *p = &k->params[i];
        if (!sizes || sizes[i] != p->size) {
            snprintf(err, len, "kernel '%s' parameter %zu ('%s') is %llu bytes, %zu given", k->name, i, p->name,
                     (unsigned long long)p->size, sizes ? sizes[i] : (size_t)0);
            free(buf);
            return -1;
        }
        if (!args || !args[i]) {
            snprintf(err, len, "kernel '%s' parameter %zu ('%s'): argument pointer is NULL", k->name, i, p->name);
            free(buf);
            return -1;
        }
        memcpy(buf + p->offset, args[i], p->size);
    }
    *out = buf;
    return 0;
}

static const char *status_text(simt_status s)
{
    switch (s) {
    case SIMT_ERR_BOUNDS: return "out-of-bounds access";
    case SIMT_ERR_MISALIGNED: return "misaligned access";
    case SIMT_ERR_TRAP: return "trap";
    case SIMT_ERR_UNSUPPORTED: return "unsupported operation";
    case SIMT_ERR_NOMEM: return "out of memory";
    case SIMT_ERR_DEADLOCK: return "barrier deadlock";
    case SIMT_ERR_LIMIT: return "instruction limit";
    case SIMT_ERR_SPIN: return "spin deadlock";
    default: return "error";
    }
}

void simt_format_error(const simt_launch *l, const simt_error *e, char *buf, size_t len)
{
    const ptx_module *m = &l->mod->ptx;
    const ptx_func *f = e->func < m->n_funcs ? &m->funcs[e->func] : l->kernel;
    char where[200] = "";
    if (e->pc < f->n_instrs) ptx_describe_instr(m, f, e->pc, where, sizeof where);
    if (e->status == SIMT_ERR_DEADLOCK || e->status == SIMT_ERR_LIMIT || e->status == SIMT_ERR_SPIN) {
        /* about warps, not one access */
        snprintf(buf, len, "kernel '%s': %s at %s: warp %u of CTA (%u,%u,%u): %s", l->kernel->name,
                 status_text(e->status), where, e->warp, e->cta[0], e->cta[1], e->cta[2], e->detail);
        return;
    }
    uint32_t t = e->warp * SIMT_WARP + e->lane;
    uint32_t tid[3] = {t % l->block[0], (t / l->block[0]) % l->block[1], t / (l->block[0] * l->block[1])};
    if (e->space == PS_REG) { /* a register index (mov.indirect), not an address: the detail says it */
        snprintf(buf, len, "kernel '%s': %s at %s: warp %u lane %u (thread (%u,%u,%u) of CTA (%u,%u,%u)): %s",
                 l->kernel->name, status_text(e->status), where, e->warp, e->lane, tid[0], tid[1], tid[2], e->cta[0],
                 e->cta[1], e->cta[2], e->detail);
        return;
    }
    snprintf(buf, len,
             "kernel '%s': %s at %s: warp %u lane %u (thread (%u,%u,%u) of CTA (%u,%u,%u)): %s at address 0x%llx",
             l->kernel->name, status_text(e->status), where, e->warp, e->lane, tid[0], tid[1], tid[2], e->cta[0],
             e->cta[1], e->cta[2], e->detail[0] ? e->detail : status_text(e->status), (unsigned long long)e->addr);
}
