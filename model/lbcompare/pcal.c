#include "pcal.h"

void pcal_reset(pcal *p, uint32_t max_warps, uint32_t tokens, uint32_t step, int dynamic)
{
    p->max_warps = max_warps ? max_warps : 1;
    p->tokens = tokens && tokens < p->max_warps ? tokens : p->max_warps; /* 0: every warp */
    p->warps = p->max_warps;
    p->live = p->max_warps;
    p->step = step ? step : 1;
    p->dynamic = dynamic;
    p->phase = dynamic ? PCAL_TOKENS : PCAL_HOLD;
    p->dir = +1;
    p->reversed = 0;
    p->sampled = 0;
    p->best_ipc = 0;
    p->best_tokens = p->tokens;
    p->best_warps = p->warps;
    p->changes = 0;
}

void pcal_set_live(pcal *p, uint32_t live)
{
    p->live = live == 0 ? 1 : live < p->max_warps ? live : p->max_warps;
    if (p->tokens > p->live) p->tokens = p->live; /* the same allocation: every live warp holds one */
    if (p->best_tokens > p->live) p->best_tokens = p->live;
}

/* The warps a knob can act on: W, or the live warps when fewer. */
static uint32_t acting_warps(const pcal *p) { return p->warps < p->live ? p->warps : p->live; }

/* One step of the knob in p->dir within its bounds (1 <= T <= W <= max, both <= live); 0 when at a bound. */
static int step_knob(pcal *p)
{
    if (p->phase == PCAL_TOKENS) {
        uint32_t t = p->dir > 0 ? p->tokens + p->step : (p->tokens > p->step ? p->tokens - p->step : 1);
        if (t > acting_warps(p)) t = acting_warps(p);
        if (t == p->tokens) return 0;
        p->tokens = t;
    } else {
        uint32_t from = acting_warps(p);
        uint32_t w = from > p->step ? from - p->step : 1;
        if (w < p->tokens) w = p->tokens;
        if (w >= from) return 0;
        p->warps = w;
    }
    p->changes++;
    return 1;
}

/* The step just measured did not pay: back to the kept setting, then the other direction (tokens)
 * or the next knob, until a step can be taken or tuning is over. */
static void next_try(pcal *p)
{
    if (p->tokens != p->best_tokens || p->warps != p->best_warps) p->changes++;
    p->tokens = p->best_tokens;
    p->warps = p->best_warps;
    for (;;) {
        if (p->phase == PCAL_TOKENS && !p->reversed) {
            p->reversed = 1;
            p->dir = -1;
        } else if (p->phase == PCAL_TOKENS) {
            p->phase = PCAL_WARPS;
            p->dir = -1;
        } else {
            p->phase = PCAL_HOLD;
            return;
        }
        if (step_knob(p)) return;
    }
}

void pcal_period_end(pcal *p, double ipc)
{
    if (p->phase == PCAL_HOLD) return;
    if (!p->sampled) { /* the starting setting's IPC: now try the first step */
        p->sampled = 1;
        p->best_ipc = ipc;
        if (!step_knob(p)) next_try(p);
        return;
    }
    if (ipc > p->best_ipc) { /* the step paid: keep it and go on the same way */
        p->best_ipc = ipc;
        p->best_tokens = p->tokens;
        p->best_warps = p->warps;
        if (p->phase == PCAL_TOKENS) p->reversed = 1; /* a direction that pays is not reversed later */
        if (!step_knob(p)) next_try(p);
        return;
    }
    next_try(p);
}
