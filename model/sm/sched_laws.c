/* LAWS (APRES, seeds/002 §IV-A): a greedy priority-queue scheduler. Warps issue in queue order and
 * the queue only changes through warp groups: when a warp issues a global load, every warp whose
 * Last Load PC (LLT) equals the issuing warp's one forms a group in the Warp Group Table (WGT); the
 * L1 outcome of that load moves the group to the queue head (hit, or hit-reserved when merge_is_hit)
 * or to its tail (miss), and frees the WGT entry.
 *
 * Parameters (-gpgpu_scheduler laws[:wgt_entries[:merge_is_hit]]):
 *   wgt_entries  1..16, default 3 (doc: issue-to-execute pipeline stages)
 *   merge_is_hit 0/1, default 1 (spec gap 7: an MSHR merge shows inter-warp locality)
 * Choices where the document is silent (spec gaps): new warps enter at the tail in start order,
 * exited warps leave the queue (gap 2); a load issued while the WGT is full is ungrouped (gap 5);
 * the first L1 request of the head warp's load decides the outcome (gap 6's "first request"
 * option: the LD/ST unit reports each request and the group is gone after the first); a warp that
 * issues its next global load before its previous group got feedback frees that group (stale). */
#include "sched_laws.h"

#include <stdlib.h>
#include <string.h>

static void laws_destroy(void *state)
{
    laws_state *l = state;
    if (!l) return;
    for (uint32_t g = 0; g < LAWS_MAX_WGT; g++) free(l->wgt[g].member);
    free(l->queue);
    free(l->llt);
    free(l->scratch);
    free(l);
}

static int laws_create(sched *s, const long long *params, int nparams, void **state, strbuf *err)
{
    long long nw = nparams > 0 ? params[0] : 3, mh = nparams > 1 ? params[1] : 1;
    if (nparams > 2 || nw < 1 || nw > LAWS_MAX_WGT || (mh != 0 && mh != 1)) {
        strbuf_printf(err, "warp scheduler 'laws' takes [wgt_entries 1..%d[:merge_is_hit 0|1]]", LAWS_MAX_WGT);
        return -1;
    }
    laws_state *l = calloc(1, sizeof *l);
    uint32_t n = s->n_local ? s->n_local : 1;
    if (l) {
        l->n = s->n_local;
        l->n_wgt = (uint32_t)nw;
        l->merge_is_hit = (int)mh;
        l->queue = calloc(n, sizeof *l->queue);
        l->llt = calloc(n, sizeof *l->llt);
        l->scratch = calloc(n, sizeof *l->scratch);
    }
    int ok = l && l->queue && l->llt && l->scratch;
    for (uint32_t g = 0; ok && g < l->n_wgt; g++)
        ok = (l->wgt[g].member = calloc(n, 1)) != NULL;
    if (!ok) {
        laws_destroy(l);
        strbuf_printf(err, "warp scheduler 'laws': out of memory");
        return -1;
    }
    *state = l;
    return 0;
}

static uint32_t laws_order(void *state, sched *s, const uint8_t *st, uint32_t *out)
{
    (void)s;
    const laws_state *l = state;
    return sched_emit_ready(l->queue, l->n_queue, st, out);
}

static void laws_warp_start(void *state, const sched *s, uint32_t warp)
{
    (void)s;
    laws_state *l = state;
    l->llt[warp] = LAWS_LLT_START;
    l->queue[l->n_queue++] = warp;
}

static void laws_warp_exit(void *state, const sched *s, uint32_t warp)
{
    (void)s;
    laws_state *l = state;
    uint32_t k = 0;
    while (k < l->n_queue && l->queue[k] != warp) k++;
    for (; k + 1 < l->n_queue; k++) l->queue[k] = l->queue[k + 1];
    if (l->n_queue) l->n_queue--;
    for (uint32_t g = 0; g < l->n_wgt; g++) {
        l->wgt[g].member[warp] = 0;
        if (l->wgt[g].valid && l->wgt[g].head == warp) { /* no one left to decide for the group */
            l->wgt[g].valid = 0;
            memset(l->wgt[g].member, 0, l->n);
        }
    }
}

/* Table widths for the energy count: an LLT entry holds a 32-bit PC (Table II: 4 B per warp); a
 * WGT entry is compared on its head warp ID and PC and holds one member bit per warp. */
#define LAWS_PC_BITS 32u
#define LAWS_WGT_KEY_BITS (LAWS_PC_BITS + 6u)

int laws_find_group(const laws_state *l, uint32_t head, uint64_t pc)
{
    for (uint32_t g = 0; g < l->n_wgt; g++)
        if (l->wgt[g].valid && l->wgt[g].head == head && l->wgt[g].pc == pc) return (int)g;
    return -1;
}

static void free_group(laws_state *l, laws_group *gr)
{
    gr->valid = 0;
    memset(gr->member, 0, l->n ? l->n : 1);
}

static void laws_global_load(void *state, const sched *s, uint32_t warp, uint64_t pc)
{
    (void)s;
    laws_state *l = state;
    for (uint32_t g = 0; g < l->n_wgt; g++)
        if (l->wgt[g].valid && l->wgt[g].head == warp) {
            free_group(l, &l->wgt[g]);
            l->stale_groups++;
        }
    uint64_t llpc = l->llt[warp];
    l->llt[warp] = pc;
    /* the warp's LLT entry read and written, every live warp's entry compared with it */
    l->table_bits += (uint64_t)LAWS_PC_BITS * (2u + l->n_queue);
    laws_group *gr = NULL;
    for (uint32_t g = 0; g < l->n_wgt && !gr; g++)
        if (!l->wgt[g].valid) gr = &l->wgt[g];
    if (!gr) {
        l->wgt_full++;
        return;
    }
    gr->valid = 1;
    gr->head = warp;
    gr->pc = pc;
    gr->member[warp] = 1;
    uint32_t size = 1;
    for (uint32_t k = 0; k < l->n_queue; k++) {
        uint32_t v = l->queue[k];
        if (v != warp && l->llt[v] == llpc) {
            gr->member[v] = 1;
            size++;
        }
    }
    l->groups++;
    l->group_members += size;
    l->table_bits += LAWS_WGT_KEY_BITS + l->n; /* the WGT entry written */
}

/* Moves the group's warps to the head (head warp first, the others in queue order) or to the tail
 * (in queue order); the other warps keep their order. */
static void move_group(laws_state *l, const laws_group *gr, int to_head)
{
    uint32_t m = 0;
    if (to_head && gr->member[gr->head]) l->scratch[m++] = gr->head;
    for (uint32_t k = 0; k < l->n_queue; k++) {
        uint32_t v = l->queue[k];
        if (gr->member[v] && !(to_head && v == gr->head)) l->scratch[m++] = v;
    }
    uint32_t n_in = m;
    for (uint32_t k = 0; k < l->n_queue; k++)
        if (!gr->member[l->queue[k]]) l->scratch[m++] = l->queue[k];
    if (to_head) {
        memcpy(l->queue, l->scratch, l->n_queue * sizeof *l->queue);
        return;
    }
    uint32_t n_out = l->n_queue - n_in;
    memcpy(l->queue, l->scratch + n_in, n_out * sizeof *l->queue);
    memcpy(l->queue + n_out, l->scratch, n_in * sizeof *l->queue);
}

static void laws_feedback(void *state, const sched *s, uint32_t warp, uint64_t pc, int outcome)
{
    (void)s;
    laws_state *l = state;
    int g = laws_find_group(l, warp, pc);
    l->table_bits += (uint64_t)LAWS_WGT_KEY_BITS * l->n_wgt; /* the WGT searched for the head's group */
    if (g < 0) return;
    l->table_bits += l->n; /* its member vector read */
    laws_group *gr = &l->wgt[g];
    int hit = outcome == SCHED_MEM_HIT || (outcome == SCHED_MEM_MERGE && l->merge_is_hit);
    move_group(l, gr, hit);
    if (hit) l->head_moves++;
    else l->tail_moves++;
    free_group(l, gr);
}

uint32_t laws_group_slots(const sched *s, uint32_t slot, uint64_t pc, uint32_t *out)
{
    if (s->pol != &sched_policy_laws || slot % s->n_sched != s->id) return 0;
    const laws_state *l = s->pstate;
    int g = laws_find_group(l, sched_local(s, slot), pc);
    if (g < 0) return 0;
    uint32_t n = 0;
    for (uint32_t k = 0; k < l->n_queue; k++)
        if (l->wgt[g].member[l->queue[k]]) out[n++] = sched_slot(s, l->queue[k]);
    return n;
}

void laws_prioritize(sched *s, const uint32_t *slots, uint32_t n)
{
    if (s->pol != &sched_policy_laws || n == 0) return;
    laws_state *l = s->pstate;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) /* targets first, in the given order */
        for (uint32_t k = m; k < l->n_queue; k++)
            if (sched_slot(s, l->queue[k]) == slots[i]) {
                uint32_t w = l->queue[k];
                memmove(l->queue + m + 1, l->queue + m, (k - m) * sizeof *l->queue);
                l->queue[m++] = w;
                break;
            }
    l->prefetch_moves++;
}

const sched_policy sched_policy_laws = {
    .name = "laws", .create = laws_create, .destroy = laws_destroy, .order = laws_order,
    .on_warp_start = laws_warp_start, .on_warp_exit = laws_warp_exit, .on_mem_feedback = laws_feedback,
    .on_global_load = laws_global_load,
};
