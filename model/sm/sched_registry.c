/* Warp-scheduler registry (name -> policy) and the core shared by every policy. */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

/* A new policy: its file plus one line here. */
static const sched_policy *const policies[] = {
    &sched_policy_lrr,
    &sched_policy_gto,
    &sched_policy_two_level,
    &sched_policy_swl,
    &sched_policy_laws,
    &sched_policy_ccws,
    &sched_policy_mascar,
    &sched_policy_pa,
};
#define N_POLICIES (sizeof policies / sizeof policies[0])

static const char *const policy_names[] = {"lrr", "gto", "two_level_active", "warp_limiting", "laws", "ccws", "mascar", "pa", NULL};

const sched_policy *sched_policy_find(const char *name)
{
    for (size_t i = 0; i < N_POLICIES; i++)
        if (strcmp(policies[i]->name, name) == 0)
            return policies[i];
    return NULL;
}

const char *const *sched_policy_names(void) { return policy_names; }

int sched_init(sched *s, const gsim_policy_spec *spec, uint32_t n_slots, uint32_t id, uint32_t n_sched,
               strbuf *err)
{
    memset(s, 0, sizeof *s);
    if (n_sched == 0 || id >= n_sched || n_slots == 0) {
        strbuf_printf(err, "warp scheduler %u of %u with %u warp slots: bad shape", id, n_sched, n_slots);
        return -1;
    }
    s->pol = sched_policy_find(spec->name);
    if (!s->pol) {
        strbuf_printf(err, "unknown warp scheduler '%s'", spec->name);
        return -1;
    }
    s->id = id;
    s->n_sched = n_sched;
    s->n_slots = n_slots;
    s->n_local = n_slots > id ? (n_slots - id + n_sched - 1) / n_sched : 0;
    s->last_issued = SCHED_NONE;
    s->greedy = SCHED_NONE;
    uint32_t n = s->n_local ? s->n_local : 1;
    s->live = calloc(n, 1);
    s->st = calloc(n, 1);
    s->age = calloc(n, sizeof *s->age);
    s->by_age = calloc(n, sizeof *s->by_age);
    s->out = calloc(n, sizeof *s->out);
    if (!s->live || !s->st || !s->age || !s->by_age || !s->out) {
        strbuf_printf(err, "warp scheduler: out of memory");
        sched_free(s);
        return -1;
    }
    if (s->pol->create(s, spec->params, spec->nparams, &s->pstate, err) != 0) {
        s->pstate = NULL;
        sched_free(s);
        return -1;
    }
    return 0;
}

void sched_free(sched *s)
{
    if (s->pol && s->pstate)
        s->pol->destroy(s->pstate);
    free(s->live);
    free(s->st);
    free(s->age);
    free(s->by_age);
    free(s->out);
    memset(s, 0, sizeof *s);
}

/* local index of an owned slot, or SCHED_NONE */
static uint32_t own(const sched *s, uint32_t slot)
{
    if (slot >= s->n_slots || slot % s->n_sched != s->id)
        return SCHED_NONE;
    return slot / s->n_sched;
}

static int older(const sched *s, uint32_t a, uint32_t b)
{
    return s->age[a] < s->age[b] || (s->age[a] == s->age[b] && a < b);
}

int sched_warp_start(sched *s, uint32_t slot, uint64_t age)
{
    uint32_t j = own(s, slot);
    if (j == SCHED_NONE || s->live[j])
        return -1;
    s->live[j] = 1;
    s->age[j] = age;
    uint32_t k = s->n_live;
    while (k > 0 && older(s, j, s->by_age[k - 1])) {
        s->by_age[k] = s->by_age[k - 1];
        k--;
    }
    s->by_age[k] = j;
    s->n_live++;
    if (s->pol->on_warp_start)
        s->pol->on_warp_start(s->pstate, s, j);
    return 0;
}

int sched_warp_exit(sched *s, uint32_t slot)
{
    uint32_t j = own(s, slot);
    if (j == SCHED_NONE || !s->live[j])
        return -1;
    s->live[j] = 0;
    uint32_t k = 0;
    while (s->by_age[k] != j)
        k++;
    for (; k + 1 < s->n_live; k++)
        s->by_age[k] = s->by_age[k + 1];
    s->n_live--;
    if (s->greedy == j)
        s->greedy = SCHED_NONE;
    if (s->pol->on_warp_exit)
        s->pol->on_warp_exit(s->pstate, s, j);
    return 0;
}

uint32_t sched_order(sched *s, const uint8_t *status, uint32_t *out)
{
    s->cycles++;
    /* The fields in locals: stores through the byte pointer st could alias them for the compiler. */
    const uint8_t *live = s->live, *from = status + s->id;
    uint8_t *st = s->st;
    uint32_t n_local = s->n_local, n_sched = s->n_sched;
    for (uint32_t j = 0; j < n_local; j++, from += n_sched)
        st[j] = live[j] ? (uint8_t)(*from & ~SCHED_AT_BARRIER) : (uint8_t)SCHED_WARP_IDLE;
    if (s->warp_limit && s->warp_limit < s->n_live) {
        int held = 0;
        uint32_t kept = 0;
        for (uint32_t k = 0; k < s->n_live; k++) {
            uint32_t j = s->by_age[k];
            if (s->barrier_free && (status[sched_slot(s, j)] & SCHED_AT_BARRIER)) continue;
            if (kept < s->warp_limit) {
                kept++;
                continue;
            }
            held |= s->st[j] == SCHED_WARP_READY;
            s->st[j] = SCHED_WARP_THROTTLED;
        }
        s->throttled_cycles += (uint64_t)held;
    }
    uint32_t n = s->pol->order(s->pstate, s, s->st, s->out);
    const uint32_t *local = s->out;
    uint32_t id = s->id;
    for (uint32_t k = 0; k < n; k++)
        out[k] = id + local[k] * n_sched;
    if (n == 0 && s->n_live)
        s->idle_cycles++;
    return n;
}

int sched_issued(sched *s, uint32_t slot, uint64_t pc)
{
    uint32_t j = own(s, slot);
    if (j == SCHED_NONE || !s->live[j])
        return -1;
    s->last_issued = j;
    s->greedy = j;
    s->issued++;
    if (s->pol->on_issue)
        s->pol->on_issue(s->pstate, s, j, pc);
    return 0;
}

int sched_global_load_issued(sched *s, uint32_t slot, uint64_t pc)
{
    uint32_t j = own(s, slot);
    if (j == SCHED_NONE || !s->live[j])
        return -1;
    if (s->pol->on_global_load)
        s->pol->on_global_load(s->pstate, s, j, pc);
    return 0;
}

int sched_l1_miss_line(sched *s, uint32_t slot, uint64_t line)
{
    uint32_t j = own(s, slot);
    if (j == SCHED_NONE)
        return -1;
    if (s->pol->on_l1_miss_line)
        s->pol->on_l1_miss_line(s->pstate, s, j, line);
    return 0;
}

void sched_l1_evict(sched *s, uint64_t line)
{
    if (s->pol->on_l1_evict)
        s->pol->on_l1_evict(s->pstate, s, line);
}

int sched_mem_feedback(sched *s, uint32_t slot, uint64_t pc, int outcome)
{
    uint32_t j = own(s, slot);
    if (j == SCHED_NONE || outcome < SCHED_MEM_HIT || outcome > SCHED_MEM_MERGE)
        return -1;
    if (outcome == SCHED_MEM_HIT)
        s->mem_hits++;
    else if (outcome == SCHED_MEM_MISS)
        s->mem_misses++;
    else
        s->mem_merges++;
    if (s->pol->on_mem_feedback)
        s->pol->on_mem_feedback(s->pstate, s, j, pc, outcome);
    return 0;
}

void sched_set_warp_limit(sched *s, uint32_t limit) { s->warp_limit = limit; }

uint32_t sched_split_limit(uint32_t sm_limit, uint32_t id, uint32_t n_sched)
{
    if (sm_limit == 0 || n_sched == 0)
        return 0;
    uint32_t share = sm_limit / n_sched + (id < sm_limit % n_sched ? 1u : 0u);
    return share ? share : 1;
}

uint32_t sched_emit_ready(const uint32_t *list, uint32_t n, const uint8_t *st, uint32_t *out)
{
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++)
        if (st[list[k]] == SCHED_WARP_READY)
            out[m++] = list[k];
    return m;
}

uint32_t sched_order_gto(const sched *s, const uint8_t *st, uint32_t *out)
{
    uint32_t m = 0, g = s->greedy, n_live = s->n_live;
    const uint32_t *by_age = s->by_age;
    if (g != SCHED_NONE && st[g] == SCHED_WARP_READY)
        out[m++] = g;
    for (uint32_t k = 0; k < n_live; k++) {
        uint32_t j = by_age[k];
        if (j != g && st[j] == SCHED_WARP_READY)
            out[m++] = j;
    }
    return m;
}
