#include "simt_run.h"

#include <stdio.h>
#include <string.h>

#include "simt_internal.h"

#define SLICE 512 /* instructions a warp runs before the next warp's turn */

int simt_launch_prepare(simt_launch *l, char *err, size_t len)
{
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (!threads || !l->grid[0] || !l->grid[1] || !l->grid[2]) {
        snprintf(err, len, "kernel '%s': empty grid or block", l->kernel->name);
        return -1;
    }
    if (threads > 1024) {
        snprintf(err, len, "kernel '%s': %llu threads per block, at most 1024", l->kernel->name,
                 (unsigned long long)threads);
        return -1;
    }
    if (l->block[2] > 64) {
        snprintf(err, len, "kernel '%s': block z dimension %u, at most 64", l->kernel->name, l->block[2]);
        return -1;
    }
    l->threads_per_cta = (uint32_t)threads;
    l->warps_per_cta = (uint32_t)((threads + SIMT_WARP - 1) / SIMT_WARP);
    l->static_shared = ptx_kernel_static_shared(&l->mod->ptx, l->kernel);
    l->dyn_shared_base = (l->static_shared + 15) & ~15ull;
    l->shared_bytes = l->dyn_shared_base + l->dyn_shared;
    return 0;
}

/* One step with the launch's observers (memory and per-instruction hooks) called after it. */
static simt_status step_observed(const simt_launch *l, simt_warp *w, simt_mem_access *acc, simt_error *err)
{
    const simt_entry *e = &w->stack[w->depth - 1];
    uint32_t func = e->func, pc = e->pc, mask = 0;
    const ptx_instr *in = NULL;
    if (l->on_insn) {
        in = &simt_func(w, func)->instrs[pc];
        mask = simt_guard_mask(w, e, in);
    }
    simt_status st = simt_warp_step(w, acc, err);
    if (st != SIMT_OK) return st;
    if (l->on_mem && acc->mask) l->on_mem(l, w, func, pc, acc, l->on_mem_ctx);
    if (l->on_insn) l->on_insn(l, w, func, pc, in, mask, acc->mask ? acc : NULL, l->on_insn_ctx);
    return SIMT_OK;
}

/* Runs one CTA to completion. acc is non-NULL exactly when the launch has an observer. */
static simt_status run_cta(simt_cta *c, uint64_t *budget, simt_run_stats *stats, simt_mem_access *acc,
                           simt_error *err)
{
    for (;;) {
        int progressed = 0, live = 0;
        for (uint32_t i = 0; i < c->n_warps; i++) {
            simt_warp *w = &c->warps[i];
            if (w->state == SIMT_WARP_DONE) continue;
            live = 1;
            for (int k = 0; k < SLICE && w->state == SIMT_WARP_READY; k++) {
                if (*budget == 0) {
                    memset(err, 0, sizeof *err);
                    err->status = SIMT_ERR_LIMIT;
                    err->warp = w->id;
                    memcpy(err->cta, c->ctaid, sizeof err->cta);
                    err->func = w->stack[w->depth - 1].func;
                    err->pc = w->stack[w->depth - 1].pc;
                    snprintf(err->detail, sizeof err->detail, "the instruction limit (-gpgpu_max_insn) was reached");
                    return SIMT_ERR_LIMIT;
                }
                (*budget)--;
                simt_status st = acc ? step_observed(c->launch, w, acc, err) : simt_warp_step(w, NULL, err);
                progressed = 1;
                if (st != SIMT_OK) return st;
                c->clock++;
            }
        }
        if (!live) break;
        if (!progressed) {
            memset(err, 0, sizeof *err);
            err->status = SIMT_ERR_DEADLOCK;
            memcpy(err->cta, c->ctaid, sizeof err->cta);
            /* Located at the barrier the first waiting warp stopped at, not where it resumes. */
            strbuf why;
            strbuf_init(&why);
            simt_cta_describe_barriers(c, &why, &err->func, &err->pc, &err->warp);
            snprintf(err->detail, sizeof err->detail, "every live warp waits at a barrier that cannot complete: %s",
                     strbuf_str(&why));
            strbuf_free(&why);
            return SIMT_ERR_DEADLOCK;
        }
    }
    for (uint32_t i = 0; i < c->n_warps; i++) {
        stats->warp_insn += c->warps[i].insn;
        stats->thread_insn += c->warps[i].thread_insn;
    }
    stats->ctas++;
    return SIMT_OK;
}

simt_status simt_run_functional(const simt_launch *l, uint64_t max_insn, simt_run_stats *stats, simt_error *err)
{
    uint64_t budget = max_insn ? max_insn : UINT64_MAX;
    memset(stats, 0, sizeof *stats);
    simt_mem_access record, *acc = l->on_mem || l->on_insn ? &record : NULL;
    for (uint32_t z = 0; z < l->grid[2]; z++)
        for (uint32_t y = 0; y < l->grid[1]; y++)
            for (uint32_t x = 0; x < l->grid[0]; x++) {
                uint32_t id[3] = {x, y, z};
                simt_cta c;
                if (simt_cta_init(&c, l, id, 0) != 0) {
                    memset(err, 0, sizeof *err);
                    err->status = SIMT_ERR_NOMEM;
                    snprintf(err->detail, sizeof err->detail, "out of memory setting up a CTA");
                    return SIMT_ERR_NOMEM;
                }
                simt_status st = run_cta(&c, &budget, stats, acc, err);
                simt_cta_free(&c);
                if (st != SIMT_OK) return st;
            }
    return SIMT_OK;
}
