/* Spin-wait detection. A warp spins when it takes the same backward branch twice, SPIN_CHECK
 * iterations apart, with its whole architectural state unchanged and nothing written in between:
 * replaying the same loads then gives the same state again, so only another CTA's (or warp's)
 * write can let it out. Functional mode uses it to run other CTAs meanwhile; the timing model's
 * watchdog uses it to tell a livelock (only spinning warps issue) from work. */
#include <string.h>

#include "simt_internal.h"

/* Iterations between state comparisons: 32 at first, doubling (up to 1024) each time the state
 * changed, so that long ordinary loops pay for few comparisons. */
#define SPIN_CHECK 32
#define SPIN_CHECK_MAX 1024

void simt_spin_reset(simt_warp *w) { memset(&w->spin, 0, sizeof w->spin); }

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

/* Only the active lanes' registers: between two checks at the same branch with the same stack
 * the others did not run. */
static uint64_t state_hash(const simt_warp *w)
{
    uint64_t h = 0xcbf29ce484222325ull;
    uint32_t active = simt_top((simt_warp *)w)->mask;
    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        for (uint32_t r = 0; r < w->n_reg_slots; r++) h = mix(h, w->regs[(size_t)r * SIMT_WARP + lane]);
    }
    h = mix(h, ((uint64_t)w->carry << 32) | w->retired);
    for (uint32_t d = 0; d < w->depth; d++) {
        const simt_entry *e = &w->stack[d];
        h = mix(h, ((uint64_t)e->pc << 32) | e->rpc);
        h = mix(h, ((uint64_t)e->mask << 32) | e->func);
    }
    return h ? h : 1;
}

void simt_spin_branch(simt_warp *w, uint32_t func, uint32_t pc, uint32_t depth)
{
    const simt_entry *e = simt_top(w);
    int backward = e->func == func && w->depth == depth && e->pc <= pc;
    simt_spin *s = &w->spin;
    if (!backward) return; /* leaving the loop is seen by simt_spin_after_step */
    if (!s->iters || s->func != func || s->pc != pc || s->depth != depth) {
        *s = (simt_spin){.func = func, .pc = pc, .target = e->pc, .depth = depth, .iters = 1, .writes = w->writes,
                         .next_check = SPIN_CHECK, .interval = SPIN_CHECK};
        return;
    }
    if (++s->iters < s->next_check) return;
    uint64_t h = state_hash(w);
    s->spinning = s->hash == h && s->writes == w->writes;
    if (!s->spinning && s->hash && s->interval < SPIN_CHECK_MAX) s->interval *= 2;
    s->next_check = s->iters + s->interval;
    s->hash = h;
    s->writes = w->writes;
}

void simt_spin_after_step(simt_warp *w)
{
    simt_spin *s = &w->spin;
    if (w->writes != s->writes || w->state != SIMT_WARP_READY) {
        s->spinning = 0;
        return;
    }
    const simt_entry *e = simt_top(w);
    if (e->func != s->func || w->depth != s->depth || e->pc < s->target || e->pc > s->pc) s->spinning = 0;
}
