#include "simt_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/launch_limits.h"
#include "simt_internal.h"

#define SLICE 512 /* instructions a warp runs before the next warp's turn */

#define DYN_SHARED_MAX 0xFFFFFFFFu /* the occupancy check bounds it by the SM's shared memory */

int simt_launch_prepare(simt_launch *l, char *err, size_t len)
{
    const char *k = l->kernel->name;
    char why[160];
    if (launch_dims_check(l->grid, l->block, why, sizeof why) != 0) {
        snprintf(err, len, "kernel '%s': %s", k, why);
        return -1;
    }
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (l->dyn_shared > DYN_SHARED_MAX) {
        snprintf(err, len, "kernel '%s': %llu bytes of dynamic shared memory, at most %u", k,
                 (unsigned long long)l->dyn_shared, DYN_SHARED_MAX);
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

#define MAX_RESIDENT 4096 /* CTAs that may wait on each other at once in functional mode */

typedef enum { TURN_DONE, TURN_BLOCKED } turn_result;

static uint64_t cta_writes(const simt_cta *c)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < c->n_warps; i++) n += c->warps[i].writes;
    return n;
}

static simt_status fail_at(simt_error *err, const simt_cta *c, const simt_warp *w, const char *why)
{
    memset(err, 0, sizeof *err);
    err->status = SIMT_ERR_DEADLOCK;
    memcpy(err->cta, c->ctaid, sizeof err->cta);
    if (w) {
        err->warp = w->id;
        err->func = w->stack[w->depth - 1].func;
        err->pc = w->stack[w->depth - 1].pc;
    }
    snprintf(err->detail, sizeof err->detail, "%s", why);
    return SIMT_ERR_DEADLOCK;
}

/* Runs a CTA until it finishes or blocks: every live warp waits at a barrier or spins on memory
 * that the CTA itself has not written since the spins were seen. Without spinning warps this is
 * the plain one-CTA-at-a-time run. acc is non-NULL exactly when the launch has an observer. */
static simt_status run_turn(simt_cta *c, uint64_t *budget, simt_mem_access *acc, turn_result *res,
                            simt_error *err)
{
    uint64_t seen = cta_writes(c);
    for (uint32_t i = 0; i < c->n_warps; i++) simt_spin_reset(&c->warps[i]);
    for (;;) {
        int progressed = 0, live = 0, spinning = 0;
        for (uint32_t i = 0; i < c->n_warps; i++) {
            simt_warp *w = &c->warps[i];
            if (w->state == SIMT_WARP_DONE) continue;
            live = 1;
            for (int k = 0; k < SLICE && w->state == SIMT_WARP_READY && !simt_warp_spinning(w); k++) {
                if (*budget == 0) {
                    fail_at(err, c, w, "the instruction limit (-gpgpu_max_insn) was reached");
                    return err->status = SIMT_ERR_LIMIT;
                }
                (*budget)--;
                simt_status st = acc ? step_observed(c->launch, w, acc, err) : simt_warp_step(w, NULL, err);
                progressed = 1;
                if (st != SIMT_OK) return st;
                c->clock++;
            }
            spinning |= w->state == SIMT_WARP_READY && simt_warp_spinning(w);
        }
        if (!live) {
            *res = TURN_DONE;
            return SIMT_OK;
        }
        if (progressed) continue;
        if (!spinning) {
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
        uint64_t now = cta_writes(c);
        if (now == seen) {
            *res = TURN_BLOCKED;
            return SIMT_OK;
        }
        seen = now; /* the CTA wrote since its spins were seen: look again */
        for (uint32_t i = 0; i < c->n_warps; i++) simt_spin_reset(&c->warps[i]);
    }
}

typedef struct resident {
    simt_cta cta;
    uint64_t blocked_at; /* writes of all CTAs when it last blocked (UINT64_MAX: runnable) */
} resident;

static void retire(const simt_launch *l, resident *r, simt_run_stats *stats)
{
    simt_cta *c = &r->cta;
    for (uint32_t i = 0; i < c->n_warps; i++) {
        stats->warp_insn += c->warps[i].insn;
        stats->thread_insn += c->warps[i].thread_insn;
    }
    stats->ctas++;
    if (l->on_cta_done) l->on_cta_done(l, c, l->on_insn_ctx);
    simt_cta_free(c);
}

/* The first spinning warp of the resident CTAs, for the deadlock report. */
static simt_status report_spin(resident *const *pool, size_t n, uint64_t left, simt_error *err)
{
    for (size_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < pool[i]->cta.n_warps; k++) {
            const simt_warp *w = &pool[i]->cta.warps[k];
            if (w->state != SIMT_WARP_READY || !simt_warp_spinning(w)) continue;
            char why[160];
            snprintf(why, sizeof why,
                     "%zu resident CTAs spin on memory none of them writes, %llu CTAs cannot start; "
                     "this warp spins here",
                     n, (unsigned long long)left);
            fail_at(err, &pool[i]->cta, w, why);
            return err->status = SIMT_ERR_SPIN;
        }
    fail_at(err, &pool[0]->cta, NULL, "resident CTAs wait on each other");
    return err->status = SIMT_ERR_SPIN;
}

simt_status simt_run_functional(const simt_launch *l, uint64_t max_insn, simt_run_stats *stats, simt_error *err)
{
    uint64_t budget = max_insn ? max_insn : UINT64_MAX;
    memset(stats, 0, sizeof *stats);
    simt_mem_access record, *acc = l->on_mem || l->on_insn ? &record : NULL;
    uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2], next = 0, writes = 0;
    resident **pool = NULL; /* pointers: a CTA's warps point back at it */
    size_t n = 0, cap = 0;
    simt_status st = SIMT_OK;
    /* CTAs start in grid order; a new one starts when every resident CTA is blocked (normally
     * when the only one finished). A blocked CTA runs again once any CTA wrote since it blocked. */
    for (;;) {
        int ran = 0;
        for (size_t i = 0; i < n && st == SIMT_OK; i++) {
            resident *r = pool[i];
            if (r->blocked_at == writes) continue;
            uint64_t before = cta_writes(&r->cta);
            turn_result res;
            st = run_turn(&r->cta, &budget, acc, &res, err);
            if (st != SIMT_OK) break;
            writes += cta_writes(&r->cta) - before;
            ran = 1;
            if (res == TURN_DONE) {
                retire(l, r, stats);
                free(r);
                memmove(&pool[i], &pool[i + 1], (n - i - 1) * sizeof *pool);
                n--;
                i--;
            } else {
                r->blocked_at = writes;
            }
        }
        if (st != SIMT_OK) break;
        if (ran) continue;
        if (next == total) {
            if (n) st = report_spin(pool, n, 0, err);
            break;
        }
        if (n == MAX_RESIDENT) {
            st = report_spin(pool, n, total - next, err);
            break;
        }
        resident *r = malloc(sizeof *r);
        if (r && n == cap) {
            size_t nc = cap ? cap * 2 : 4;
            resident **p = realloc(pool, nc * sizeof *pool);
            if (p) pool = p, cap = nc;
        }
        uint32_t id[3] = {(uint32_t)(next % l->grid[0]), (uint32_t)(next / l->grid[0] % l->grid[1]),
                          (uint32_t)(next / l->grid[0] / l->grid[1])};
        if (!r || n == cap || simt_cta_init(&r->cta, l, id, 0) != 0) {
            free(r);
            memset(err, 0, sizeof *err);
            err->status = st = SIMT_ERR_NOMEM;
            snprintf(err->detail, sizeof err->detail, "out of memory setting up a CTA");
            break;
        }
        r->blocked_at = UINT64_MAX;
        pool[n++] = r;
        next++;
    }
    for (size_t i = 0; i < n; i++) {
        simt_cta_free(&pool[i]->cta);
        free(pool[i]);
    }
    free(pool);
    return st;
}
