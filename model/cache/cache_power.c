/* The cache's power-mode seam: lines grouped into power blocks, woken on access, gated by a policy. */
#include <stdlib.h>
#include <string.h>

#include "cache_core.h"

int cache_pm_init(cache_core *c, const pm_table *t, double leak_mw, double mhz, const pm_policy *pol,
                  int lines_per_block)
{
    uint32_t lines = (uint32_t)c->nsets * (uint32_t)c->assoc;
    if (lines_per_block <= 0 || (uint32_t)lines_per_block > lines) lines_per_block = (int)lines;
    uint32_t n = (lines + (uint32_t)lines_per_block - 1) / (uint32_t)lines_per_block;
    pm_domain_free(&c->pm);
    free(c->pm_live);
    c->pm_live = NULL;
    c->pm_lines = lines_per_block;
    if (pm_domain_init(&c->pm, n, t, leak_mw / n, mhz, pm_policy_cache(pol)) != 0) return -1;
    if (pm_active(&c->pm)) {
        c->pm_live = calloc(n, sizeof *c->pm_live);
        if (!c->pm_live) return -1;
        for (uint32_t i = 0; i < lines; i++)
            if (c->lines[i].allocated) c->pm_live[i / (uint32_t)lines_per_block]++;
    }
    return 0;
}

static uint32_t block_of(const cache_core *c, int set, int way)
{
    return ((uint32_t)set * (uint32_t)c->assoc + (uint32_t)way) / (uint32_t)c->pm_lines;
}

int cache_pm_touch(cache_core *c, int set, int way)
{
    c->gen++;
    int lost = 0;
    c->pm_wait = pm_access(&c->pm, block_of(c, set, way), c->now, &lost);
    if (!lost) return 0;
    /* Power-gated: the data is gone (dirty data too: a policy must write back before gating). */
    cache_line *l = cache_line_at(c, set, way);
    if (l->reserved) {
        l->valid = 0;
        l->dirty = 0;
        return 0;
    }
    memset(l, 0, sizeof *l);
    c->tagv[(size_t)set * c->assoc + way] = 0;
    uint32_t b = block_of(c, set, way);
    if (c->pm_live[b]) c->pm_live[b]--;
    return 1;
}

void cache_pm_alloc(cache_core *c, int set, int way)
{
    c->gen++;
    uint32_t b = block_of(c, set, way);
    pm_note_access(&c->pm, b, c->now); /* the fill writes the block */
    if (c->pm_live[b]++ == 0) {
        pm_filled(&c->pm, b);
        pm_event_report(&c->pm, b, PM_EV_ALLOC, c->now);
    }
    else {
        if (pm_get(&c->pm, b) != PM_ON) pm_set(&c->pm, b, PM_ON, c->now); /* a fill writes the block */
        pm_event_report(&c->pm, b, PM_EV_ALLOC, c->now);
    }
}

void cache_pm_free(cache_core *c, int set, int way)
{
    c->gen++;
    uint32_t b = block_of(c, set, way);
    if (c->pm_live[b] && --c->pm_live[b] == 0) pm_event_report(&c->pm, b, PM_EV_FREE, c->now);
}

/* Look-ahead (Snooze): a request for addr entered, left or failed at the cache's input queue. The
 * whole cache when it is one power block; otherwise the line's block when its tag is present (an
 * absent line has nothing to wake: its fill will). */
void cache_pm_queue(cache_core *c, uint64_t addr, pm_event ev, uint64_t now)
{
    if (!pm_active(&c->pm)) return;
    if (c->pm.n == 1) {
        pm_event_report(&c->pm, 0, ev, now);
        return;
    }
    int way = cache_probe(c, addr, NULL);
    if (way >= 0) pm_event_report(&c->pm, block_of(c, cache_set_index(c, addr), way), ev, now);
}

/* The owner is done (its SM finished its CTAs, the kernel exited): every block hears PM_EV_FINISH. */
void cache_pm_finish(cache_core *c, uint64_t now)
{
    if (!pm_active(&c->pm)) return;
    for (uint32_t b = 0; b < c->pm.n; b++) pm_event_report(&c->pm, b, PM_EV_FINISH, now);
}
