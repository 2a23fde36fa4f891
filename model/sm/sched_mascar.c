/* MASCAR, written from the HPCA 2015 paper's description (spec apres.md §7.4):
 * - the SM sets sched.mem_saturated each cycle (sm_issue.c: every L1D MSHR in use or its miss
 *   queue full, the paper's "memory saturation" signal);
 * - EP mode (not saturated): every ready warp, greedy-then-oldest (the paper's baseline order);
 * - MP mode (saturated): one owner warp alone may issue memory instructions, so that its requests
 *   are not interleaved with every other warp's; the other ready warps issue only non-memory
 *   instructions (sched.slot_next_mem says which), oldest first. The owner is kept while it lives
 *   and is not waiting on a long-latency operation; then it passes to the last issued warp if its
 *   next instruction is memory, else to the oldest ready warp whose next instruction is memory.
 * Parameter (-gpgpu_scheduler mascar[:rexq_entries]): the LD/ST unit's re-execution queue size,
 * 0..256, default 32 (the paper's size as we recall it; spec gap 19 leaves it open), 0 = none. */
#include "sched_mascar.h"

#include <stdlib.h>

static int mascar_create(sched *s, const long long *params, int nparams, void **state, strbuf *err)
{
    (void)s;
    long long q = nparams > 0 ? params[0] : 32;
    if (nparams > 1 || q < 0 || q > 256) {
        strbuf_printf(err, "warp scheduler 'mascar' takes [rexq_entries 0..256]");
        return -1;
    }
    mascar_state *m = calloc(1, sizeof *m);
    if (!m) {
        strbuf_printf(err, "warp scheduler 'mascar': out of memory");
        return -1;
    }
    m->owner = SCHED_NONE;
    m->rexq_entries = (uint32_t)q;
    *state = m;
    return 0;
}

static void mascar_destroy(void *state) { free(state); }

static int next_is_mem(const sched *s, uint32_t j) { return s->slot_next_mem && s->slot_next_mem[sched_slot(s, j)]; }

static int owner_usable(const sched *s, uint32_t j, const uint8_t *st)
{
    return j != SCHED_NONE && s->live[j] && st[j] != SCHED_WARP_STALL_LONG && st[j] != SCHED_WARP_IDLE;
}

static uint32_t pick_owner(const sched *s, const uint8_t *st)
{
    uint32_t g = s->greedy;
    if (g != SCHED_NONE && st[g] == SCHED_WARP_READY && next_is_mem(s, g)) return g;
    for (uint32_t k = 0; k < s->n_live; k++) {
        uint32_t j = s->by_age[k];
        if (st[j] == SCHED_WARP_READY && next_is_mem(s, j)) return j;
    }
    return SCHED_NONE;
}

static uint32_t mascar_order(void *state, sched *s, const uint8_t *st, uint32_t *out)
{
    mascar_state *m = state;
    int mode = s->mem_saturated ? MASCAR_MP : MASCAR_EP;
    if (mode != m->mode) {
        if (mode == MASCAR_MP) m->to_mp++;
        else m->to_ep++;
        m->mode = mode;
        m->owner = SCHED_NONE;
    }
    if (mode == MASCAR_EP) return sched_order_gto(s, st, out);
    m->mp_cycles++;
    if (!owner_usable(s, m->owner, st)) {
        uint32_t o = pick_owner(s, st);
        if (o != m->owner && o != SCHED_NONE) m->owner_changes++;
        m->owner = o;
    }
    uint32_t n = 0, o = m->owner;
    if (o != SCHED_NONE && st[o] == SCHED_WARP_READY) out[n++] = o;
    for (uint32_t k = 0; k < s->n_live; k++) {
        uint32_t j = s->by_age[k];
        if (j == o || st[j] != SCHED_WARP_READY) continue;
        if (next_is_mem(s, j)) m->held_mem_warps++;
        else out[n++] = j;
    }
    return n;
}

static void mascar_warp_exit(void *state, const sched *s, uint32_t warp)
{
    (void)s;
    mascar_state *m = state;
    if (m->owner == warp) m->owner = SCHED_NONE;
}

uint32_t mascar_rexq_entries(const sched *s)
{
    return s->pol == &sched_policy_mascar ? ((const mascar_state *)s->pstate)->rexq_entries : 0;
}

const sched_policy sched_policy_mascar = {
    .name = "mascar", .create = mascar_create, .destroy = mascar_destroy, .order = mascar_order,
    .on_warp_exit = mascar_warp_exit, .stateful_order = 1,
};
