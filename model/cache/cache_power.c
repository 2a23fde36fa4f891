/* The cache's power-mode seam: lines grouped into power blocks, woken on access, gated by a policy. */
#include <stdlib.h>
#include <string.h>

#include "cache_core.h"

uint32_t cache_pm_blocks(uint32_t lines, int nsect, int lines_per_block, int per_sector)
{
    if (lines_per_block <= 0 || (uint32_t)lines_per_block > lines) return 1;
    if (lines_per_block == 1 && per_sector && nsect > 1) return lines * (uint32_t)nsect;
    return (lines + (uint32_t)lines_per_block - 1) / (uint32_t)lines_per_block;
}

void cache_pm_set_per_sector(cache_core *c, int on) { c->pm_per_sector = on != 0; }

void cache_pm_set_resq(cache_core *c, int entries) { c->pm_resq_cap = entries > 0 ? entries : 0; }

int cache_pm_per_sector_for(const char *policy, int option)
{
    const pm_policy *p = pm_policy_find(policy);
    return option && p && pm_policy_cache(p) != &pm_policy_always_on;
}

int cache_pm_init(cache_core *c, const pm_table *t, double leak_mw, double mhz, const pm_policy *pol,
                  int lines_per_block)
{
    uint32_t lines = (uint32_t)c->nsets * (uint32_t)c->assoc;
    if (lines_per_block <= 0 || (uint32_t)lines_per_block > lines) lines_per_block = (int)lines;
    uint32_t n = cache_pm_blocks(lines, c->nsect, lines_per_block, c->pm_per_sector);
    pm_domain_free(&c->pm);
    free(c->pm_live);
    free(c->pm_smask);
    free(c->pm_resq);
    c->pm_live = NULL;
    c->pm_smask = NULL;
    c->pm_resq = NULL;
    c->pm_resq_n = 0;
    c->pm_lines = lines_per_block;
    c->pm_sect = n > lines ? c->nsect : 1;
    if (pm_domain_init(&c->pm, n, t, leak_mw / n, mhz, pm_policy_cache(pol)) != 0) return -1;
    if (pm_active(&c->pm)) {
        c->pm_live = calloc(n, sizeof *c->pm_live);
        if (!c->pm_live) return -1;
        if (c->pm_resq_cap && !(c->pm_resq = calloc((size_t)c->pm_resq_cap, sizeof *c->pm_resq))) return -1;
        if (c->pm_sect > 1) {
            if (!(c->pm_smask = calloc(lines, 1))) return -1;
            for (int set = 0; set < c->nsets; set++) cache_pm_sync(c, set, -1, 0); /* lines already live */
            return 0;
        }
        for (uint32_t i = 0; i < lines; i++)
            if (c->lines[i].allocated) c->pm_live[i / (uint32_t)lines_per_block]++;
    }
    return 0;
}

static uint32_t block_of(const cache_core *c, int set, int way)
{
    return ((uint32_t)set * (uint32_t)c->assoc + (uint32_t)way) / (uint32_t)c->pm_lines;
}

static uint32_t sector_block(const cache_core *c, int set, int way, int sector)
{
    return ((uint32_t)set * (uint32_t)c->assoc + (uint32_t)way) * (uint32_t)c->pm_sect + (uint32_t)sector;
}

/* Sector mode: the request's valid sectors are read or written; each wakes (the access waits for
 * the slowest) and an OFF one has lost its data: the sector is invalid, the line too when nothing
 * of it is left. Sectors not valid are missing: their fill will write (and wake) them. */
static int touch_sectors(cache_core *c, int set, int way, uint8_t mask)
{
    cache_line *l = cache_line_at(c, set, way);
    uint8_t gone = 0;
    for (int s = 0; s < c->pm_sect; s++) {
        if (!((mask & l->valid) >> s & 1)) continue;
        int lost = 0, w = pm_access(&c->pm, sector_block(c, set, way, s), c->now, &lost);
        if (w > c->pm_wait) c->pm_wait = w;
        if (lost) gone |= (uint8_t)(1u << s);
    }
    if (!gone) return 0;
    l->valid &= (uint8_t)~gone;
    l->dirty &= (uint8_t)~gone;
    l->unreadable &= (uint8_t)~gone;
    if (!l->valid && !l->reserved) {
        memset(l, 0, sizeof *l);
        c->tagv[(size_t)set * c->assoc + way] = 0;
    }
    cache_pm_sync(c, set, way, 0);
    return 1;
}

int cache_pm_touch(cache_core *c, int set, int way, uint8_t mask)
{
    c->gen++;
    if (c->pm_sect > 1) {
        c->pm_wait = 0;
        return touch_sectors(c, set, way, mask);
    }
    int lost = 0;
    c->pm_wait = pm_access(&c->pm, block_of(c, set, way), c->now, &lost);
    if (!lost) return 0;
    /* Power-gated: the data is gone (dirty data too: a policy must write back before gating). */
    cache_line *l = cache_line_at(c, set, way);
    if (l->reserved) {
        l->valid = 0;
        l->dirty = 0;
        l->unreadable = 0;
        return 0;
    }
    memset(l, 0, sizeof *l);
    c->tagv[(size_t)set * c->assoc + way] = 0;
    uint32_t b = block_of(c, set, way);
    if (c->pm_live[b]) c->pm_live[b]--;
    return 1;
}

/* A block got live data: the first live line of a group (or a sector) is filled, any further line
 * of a group is written into a block already live. */
static void block_alloc(cache_core *c, uint32_t b, int first)
{
    pm_note_access(&c->pm, b, c->now); /* the fill writes the block */
    if (first) pm_filled(&c->pm, b);
    else if (pm_get(&c->pm, b) != PM_ON) pm_set(&c->pm, b, PM_ON, c->now); /* a fill writes the block */
    pm_event_report(&c->pm, b, PM_EV_ALLOC, c->now);
}

void cache_pm_alloc(cache_core *c, int set, int way)
{
    if (c->pm_sect > 1) return; /* sector mode: cache_pm_sync */
    c->gen++;
    uint32_t b = block_of(c, set, way);
    block_alloc(c, b, c->pm_live[b]++ == 0);
}

void cache_pm_free(cache_core *c, int set, int way)
{
    if (c->pm_sect > 1) return;
    c->gen++;
    uint32_t b = block_of(c, set, way);
    if (c->pm_live[b] && --c->pm_live[b] == 0) pm_event_report(&c->pm, b, PM_EV_FREE, c->now);
}

void cache_pm_sync(cache_core *c, int set, int way, uint8_t written)
{
    if (c->pm_sect <= 1 || !pm_active(&c->pm)) return;
    c->gen++;
    for (int w = 0; w < c->assoc; w++) {
        size_t i = (size_t)set * (size_t)c->assoc + (size_t)w;
        const cache_line *l = &c->lines[i];
        uint8_t live = l->allocated ? (uint8_t)((l->valid | l->reserved) & c->full_mask) : 0, was = c->pm_smask[i];
        uint8_t wrote = w == way ? written : 0;
        for (int s = 0; s < c->pm_sect; s++) {
            uint32_t b = sector_block(c, set, w, s);
            int now_live = live >> s & 1, was_live = was >> s & 1;
            if (now_live && (!was_live || (wrote >> s & 1))) block_alloc(c, b, !was_live);
            else if (!now_live && was_live) pm_event_report(&c->pm, b, PM_EV_FREE, c->now);
        }
        c->pm_smask[i] = live;
    }
}

/* The reservation queue takes a failed request's set: 1 when it has (or already had) an entry.
 * A set already queued takes no second one: the head request retries every cycle until it passes,
 * and one fill of the set pops the entry (our reading; the thesis pushes "the set of the top"). */
static int resq_push(cache_core *c, int set)
{
    if (!c->pm_resq_cap) return 1;
    for (int i = 0; i < c->pm_resq_n; i++)
        if (c->pm_resq[i] == (uint32_t)set) return 1;
    if (c->pm_resq_n == c->pm_resq_cap) {
        c->pm_resq_overflows++;
        return 0;
    }
    c->pm_resq[c->pm_resq_n++] = (uint32_t)set;
    return 1;
}

void cache_pm_fill_done(cache_core *c, int set, int way)
{
    if (!pm_active(&c->pm)) return;
    for (int i = 0; i < c->pm_resq_n; i++)
        if (c->pm_resq[i] == (uint32_t)set) {
            memmove(&c->pm_resq[i], &c->pm_resq[i + 1], (size_t)(c->pm_resq_n - i - 1) * sizeof *c->pm_resq);
            c->pm_resq_n--;
            break;
        }
    if (way < 0 || c->pm_sect > 1) return; /* sector mode: cache_pm_sync wrote the sectors */
    c->gen++;
    uint32_t b = block_of(c, set, way);
    if (c->pm_lines == 1) pm_filled(&c->pm, b); /* the whole block rewritten: nothing of it is lost */
    pm_event_report(&c->pm, b, PM_EV_ALLOC, c->now); /* written: the policy's T5/T4 (ON if requests wait) */
}

/* Look-ahead (Snooze): a request for addr entered, left or failed at the cache's input queue, or its
 * fill entered the response queue. The whole cache when it is one power block; otherwise the line's
 * block when its tag is present (an absent line has nothing to wake: its fill will); in sector mode
 * the live sectors it names. A reservation fail the full reservation queue cannot take is not told. */
void cache_pm_queue(cache_core *c, uint64_t addr, uint8_t sectors, pm_event ev, uint64_t now)
{
    if (!pm_active(&c->pm)) return;
    if (ev == PM_EV_RESFAIL && !resq_push(c, cache_set_index(c, addr))) return;
    if (c->pm.n == 1) {
        pm_event_report(&c->pm, 0, ev, now);
        return;
    }
    int way = cache_probe(c, addr, NULL);
    if (way < 0) return;
    int set = cache_set_index(c, addr);
    if (c->pm_sect <= 1) {
        pm_event_report(&c->pm, block_of(c, set, way), ev, now);
        return;
    }
    uint8_t live = c->pm_smask[(size_t)set * (size_t)c->assoc + (size_t)way];
    uint8_t m = (sectors & c->full_mask ? sectors : c->full_mask) & live;
    for (int s = 0; s < c->pm_sect; s++)
        if (m >> s & 1) pm_event_report(&c->pm, sector_block(c, set, way, s), ev, now);
}

/* The owner is done (its SM finished its CTAs, the kernel exited): every block hears PM_EV_FINISH. */
void cache_pm_finish(cache_core *c, uint64_t now)
{
    if (!pm_active(&c->pm)) return;
    for (uint32_t b = 0; b < c->pm.n; b++) pm_event_report(&c->pm, b, PM_EV_FINISH, now);
}

/* The owner has nothing for the cache to do (coarse151's L1: no warp of its SM is ready): every
 * block hears PM_EV_IDLE. */
void cache_pm_idle(cache_core *c, uint64_t now)
{
    if (!pm_active(&c->pm)) return;
    for (uint32_t b = 0; b < c->pm.n; b++) pm_event_report(&c->pm, b, PM_EV_IDLE, now);
}
