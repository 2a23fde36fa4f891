/* Occupancy calculation; the rules are described in occupancy.h. */
#include "occupancy.h"

#include <string.h>

#include "sm_config.h"

void occ_sm_from_config(const sm_config *c, occ_sm *sm)
{
    sm->max_threads = (uint32_t)c->core_pipeline.first;
    sm->warp_size = (uint32_t)c->core_pipeline.second;
    sm->max_ctas = (uint32_t)c->max_ctas;
    sm->registers = (uint32_t)c->registers;
    sm->max_regs_per_thread = c->max_regs_per_thread > 0 ? (uint32_t)c->max_regs_per_thread : 0;
    sm->shmem_size = (uint32_t)c->shmem_size;
}

static uint64_t round_up(uint64_t x, uint64_t unit) { return unit > 1 ? (x + unit - 1) / unit * unit : x; }

static uint32_t bound(uint64_t have, uint64_t need)
{
    if (need == 0)
        return UINT32_MAX;
    uint64_t q = have / need;
    return q > UINT32_MAX ? UINT32_MAX : (uint32_t)q;
}

static uint32_t regs_bound(const occ_sm *sm, const occ_kernel *k, const occ_alloc *a, uint64_t warps)
{
    uint64_t r = k->regs_per_thread;
    if (r == 0)
        return UINT32_MAX;
    if (sm->max_regs_per_thread && r > sm->max_regs_per_thread)
        return 0;
    uint64_t padded = warps * sm->warp_size;
    switch (a->reg_rule) {
    case OCC_REGS_GPGPUSIM:
        return bound(sm->registers, padded * round_up(r, 4));
    case OCC_REGS_EXACT:
        return bound(sm->registers, padded * r);
    default: { /* OCC_REGS_PER_WARP */
        uint64_t per_warp = round_up(r * sm->warp_size, a->reg_unit);
        return bound(sm->registers / per_warp, warps);
    }
    }
}

int occ_compute(const occ_sm *sm, const occ_kernel *k, const occ_alloc *alloc, occ_result *r)
{
    occ_alloc def = occ_alloc_default();
    const occ_alloc *a = alloc ? alloc : &def;
    memset(r, 0, sizeof *r);
    if (k->threads_per_cta == 0 || sm->warp_size == 0 || a->reg_rule < OCC_REGS_GPGPUSIM ||
        a->reg_rule > OCC_REGS_PER_WARP || (a->reg_rule == OCC_REGS_PER_WARP && a->reg_unit == 0))
        return -1;
    uint64_t warps = ((uint64_t)k->threads_per_cta + sm->warp_size - 1) / sm->warp_size;
    r->warps_per_cta = (uint32_t)warps;
    r->by_threads = bound(sm->max_threads, warps * sm->warp_size);
    r->by_ctas = sm->max_ctas;
    r->by_regs = regs_bound(sm, k, a, warps);
    r->by_shmem = bound(sm->shmem_size, round_up((uint64_t)k->shmem_static + k->shmem_dynamic, a->shmem_unit));
    const uint32_t b[4] = {r->by_threads, r->by_ctas, r->by_regs, r->by_shmem};
    uint32_t n = UINT32_MAX;
    for (int i = 0; i < 4; i++)
        n = b[i] < n ? b[i] : n;
    r->ctas = n;
    for (int i = 3; i >= 0; i--)
        if (b[i] == n) {
            r->limits |= 1u << i;
            r->limit = 1u << i;
        }
    return 0;
}
