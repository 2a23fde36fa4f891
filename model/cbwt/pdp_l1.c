/* PDP through the L1's cache hooks (semantics in pdp_l1.h). */
#include "pdp_l1.h"

#include <string.h>

const char *const pdp_mode_names[] = {"off", "static", "private", NULL};

/* Asked by an access, the victim is chosen before that access's on_read decrement: lines
   with RPD 1 are already unprotected (spec 3.2.2 decrements first). */
static int hook_victim(void *ctx, int set, const cache_line *lines, int at_fill)
{
    return pdp_victim(&((pdp_l1 *)ctx)->pol, set, lines, at_fill ? 0 : 1);
}

static void hook_hit(void *ctx, cache_line *line, int set, int way, const cache_req *req)
{
    (void)line;
    if (!req->is_write) pdp_protect(&((pdp_l1 *)ctx)->pol, set, way);
}

static void hook_fill(void *ctx, cache_line *line, int set, int way, uint8_t sectors)
{
    (void)line;
    (void)sectors;
    pdp_protect(&((pdp_l1 *)ctx)->pol, set, way);
}

static void hook_read(void *ctx, int set, int hit_way, const cache_req *req)
{
    pdp_l1 *p = ctx;
    pdp_set_access_except(&p->pol, set, hit_way);
    p->loads++;
    if (p->mode != PDP_MODE_PRIVATE) return;
    pdp_predictor_access(&p->pred, set, cache_line_addr(p->cache, req->addr));
    if (++p->period_loads >= (uint64_t)p->period) {
        p->period_loads = 0;
        p->predictions++;
        pdp_set_pd(&p->pol, pdp_predictor_period(&p->pred, p->pol.pd));
    }
}

int pdp_l1_init(pdp_l1 *p, cache_core *cache, int mode, int pd, int period)
{
    memset(p, 0, sizeof *p);
    if (mode <= PDP_MODE_OFF || mode >= PDP_MODE_COUNT || period < 1) return -1;
    if (pdp_init(&p->pol, cache->nsets, cache->assoc, pd) != 0) return -1;
    /* every set sampled; RD up to PDP_PD_MAX; E(dp) with de = associativity, PD from the
       associativity up (doc: "from associativity to maximum PD (4 to 64)") */
    if (mode == PDP_MODE_PRIVATE &&
        pdp_predictor_init(&p->pred, cache->nsets, 1, PDP_PD_MAX, cache->assoc,
                           cache->assoc < PDP_PD_MAX ? cache->assoc : PDP_PD_MAX) != 0) {
        pdp_free(&p->pol);
        return -1;
    }
    p->mode = mode;
    p->period = period;
    p->cache = cache;
    cache_hooks h;
    memset(&h, 0, sizeof h);
    h.ctx = p;
    h.victim = hook_victim;
    h.on_hit = hook_hit;
    h.on_fill = hook_fill;
    h.on_read = hook_read;
    cache_set_hooks(cache, &h);
    return 0;
}

void pdp_l1_free(pdp_l1 *p)
{
    if (p->mode == PDP_MODE_OFF) return;
    pdp_free(&p->pol);
    if (p->mode == PDP_MODE_PRIVATE) pdp_predictor_free(&p->pred);
    p->mode = PDP_MODE_OFF;
}
