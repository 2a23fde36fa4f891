/* PDP through the L1's cache hooks (semantics in pdp_l1.h). */
#include "pdp_l1.h"

#include <stdlib.h>
#include <string.h>

const char *const pdp_mode_names[] = {"off", "static", "private", "global", "shared", NULL};

static int predicts(int mode) { return mode >= PDP_MODE_PRIVATE && mode < PDP_MODE_COUNT; }

/* Asked by an access, the victim is chosen before that access's on_read decrement: lines
   with RPD 1 are already unprotected (spec 3.2.2 decrements first). */
static int hook_victim(void *ctx, int set, const cache_line *lines, int at_fill)
{
    const pdp_l1 *p = ctx;
    /* gate closed: protection ranks nothing, the LRU unreserved line goes (bypass only if all are reserved) */
    return pdp_victim(&p->pol, set, lines, !p->bypass_open ? PDP_PD_MAX : at_fill ? 0 : 1);
}

int pdp_reuse_bin(unsigned hits) { return hits <= 2 ? (int)hits : hits <= 4 ? 3 : hits <= 8 ? 4 : 5; }

static uint16_t *reuse_of(pdp_l1 *p, int set, int way) { return &p->reuse[(size_t)set * p->cache->assoc + way]; }

static void hook_hit(void *ctx, cache_line *line, int set, int way, const cache_req *req)
{
    pdp_l1 *p = ctx;
    (void)line;
    if (req->is_write) return;
    uint16_t *r = reuse_of(p, set, way);
    if (*r < UINT16_MAX) (*r)++;
    if (p->mode != PDP_MODE_OBSERVE) pdp_protect(&p->pol, set, way);
}

static void hook_fill(void *ctx, cache_line *line, int set, int way, uint8_t sectors)
{
    pdp_l1 *p = ctx;
    (void)line;
    (void)sectors;
    *reuse_of(p, set, way) = 0;
    if (p->mode != PDP_MODE_OBSERVE) pdp_protect(&p->pol, set, way);
}

static void hook_evict(void *ctx, const cache_line *line, int set, int way)
{
    pdp_l1 *p = ctx;
    p->reuse_hist[pdp_reuse_bin(*reuse_of(p, set, way))]++;
    *reuse_of(p, set, way) = 0;
    if (p->evict_next) p->evict_next(p->evict_ctx, line, set, way);
}

/* The predicting L1 samples a load; at the period's end it predicts its new PD. */
static void observe(pdp_l1 *s, int set, uint64_t line_addr)
{
    pdp_predictor_access(&s->pred, set, line_addr);
    if (++s->period_loads >= (uint64_t)s->period) {
        s->period_loads = 0;
        s->predictions++;
        pdp_set_pd(&s->pol, pdp_predictor_period(&s->pred, s->pol.pd));
    }
}

static void hook_read(void *ctx, int set, int hit_way, const cache_req *req)
{
    pdp_l1 *p = ctx;
    pdp_set_access_except(&p->pol, set, hit_way);
    p->loads++;
    if (!predicts(p->mode)) return;
    if (p->source) {
        if (p->mode == PDP_MODE_GLOBAL) observe(p->source, set, cache_line_addr(p->cache, req->addr));
        pdp_set_pd(&p->pol, p->source->pol.pd);
        return;
    }
    observe(p, set, cache_line_addr(p->cache, req->addr));
}

static int alloc_reuse(pdp_l1 *p, cache_core *cache)
{
    p->reuse = calloc((size_t)cache->nsets * (size_t)cache->assoc, sizeof *p->reuse);
    return p->reuse ? 0 : -1;
}

/* The hooks on the cache: every mode counts reuse; the PDP modes also protect, choose victims
   and decrement on reads (p->mode set before). */
static void install_hooks(pdp_l1 *p, cache_core *cache)
{
    int pdp = p->mode != PDP_MODE_OBSERVE;
    p->cache = cache;
    cache_hooks h;
    memset(&h, 0, sizeof h);
    h.ctx = p;
    h.victim = pdp ? hook_victim : NULL;
    h.on_read = pdp ? hook_read : NULL;
    h.on_hit = hook_hit;
    h.on_fill = hook_fill;
    h.on_evict = hook_evict;
    cache_set_hooks(cache, &h);
}

int pdp_l1_init_observe(pdp_l1 *p, cache_core *cache)
{
    memset(p, 0, sizeof *p);
    if (alloc_reuse(p, cache) != 0) return -1;
    p->mode = PDP_MODE_OBSERVE;
    install_hooks(p, cache);
    return 0;
}

int pdp_l1_init(pdp_l1 *p, cache_core *cache, int mode, int pd, int period)
{
    memset(p, 0, sizeof *p);
    if (mode <= PDP_MODE_OFF || mode >= PDP_MODE_COUNT || period < 1) return -1;
    if (pdp_init(&p->pol, cache->nsets, cache->assoc, pd) != 0) return -1;
    if (alloc_reuse(p, cache) != 0) {
        pdp_free(&p->pol);
        return -1;
    }
    /* every set sampled; RD up to PDP_PD_MAX; E(dp) with de = associativity, PD from the
       associativity up (doc: "from associativity to maximum PD (4 to 64)") */
    if (predicts(mode) &&
        pdp_predictor_init(&p->pred, cache->nsets, 1, PDP_PD_MAX, cache->assoc,
                           cache->assoc < PDP_PD_MAX ? cache->assoc : PDP_PD_MAX) != 0) {
        pdp_free(&p->pol);
        free(p->reuse);
        p->reuse = NULL;
        return -1;
    }
    p->mode = mode;
    p->period = period;
    p->bypass_open = 1;
    install_hooks(p, cache);
    return 0;
}

void pdp_l1_free(pdp_l1 *p)
{
    if (p->mode == PDP_MODE_OFF) return;
    free(p->reuse);
    p->reuse = NULL;
    if (p->mode == PDP_MODE_OBSERVE) {
        p->mode = PDP_MODE_OFF;
        return;
    }
    pdp_free(&p->pol);
    if (predicts(p->mode)) pdp_predictor_free(&p->pred);
    p->mode = PDP_MODE_OFF;
}

void pdp_l1_follow(pdp_l1 *p, pdp_l1 *src)
{
    if ((p->mode == PDP_MODE_GLOBAL || p->mode == PDP_MODE_SHARED) && src != p && src->mode == p->mode) p->source = src;
}

void pdp_l1_chain_evict(pdp_l1 *p, void (*fn)(void *ctx, const cache_line *line, int set, int way), void *ctx)
{
    p->evict_next = fn;
    p->evict_ctx = ctx;
}

void pdp_l1_reset(pdp_l1 *p, int pd)
{
    if (p->mode == PDP_MODE_OFF || p->mode == PDP_MODE_OBSERVE) return;
    pdp_set_pd(&p->pol, pd);
    p->period_loads = 0;
    if (predicts(p->mode) && !p->source) {
        memset(p->pred.n, 0, (size_t)(p->pred.dmax + 1) * sizeof *p->pred.n);
        p->pred.nt = 0;
    }
}
