/* The register file's side of Slumber and WRF (model/power/policy_slumber.h): what the SM shows
 * the policy. Compiler hints of the running kernel (per physical warp register: the kernel's PTX
 * registers spread over the warp's registers as reg_block does), each warp's issue interval (a
 * 4-sample moving average, 1/16 cycles), the MSHR tracker (2 bits per warp: the last load's level),
 * the fetch-unit-list (the L1I lines of the last issued instructions) and the scheduler's look-ahead
 * (which wakes the next instruction's sources and destinations).
 * Predicted idle period of a register after an access = the hint's next-use distance x the warp's
 * issue interval, plus an L2 fetch when the next use is neither in the instruction buffer nor in the
 * fetch-unit-list (the spec's D.9.8 PROPOSAL made concrete). */
#include <stdlib.h>
#include <string.h>

#include "../analysis/reg_alloc.h"
#include "../analysis/reg_hints.h"
#include "../simt/simt_internal.h"
#include "sm_internal.h"

struct sm_slumber {
    const slumber_config *cfg;
    reg_hints hints;            /* of the kernel below, over the units of (stride, nv) */
    const ptx_func *func;
    uint32_t stride, nv, func_index;
    int have;                   /* hints are valid (a PTX kernel without calls) */
    int alloc;                  /* the kernel's registers are allocated (ra) rather than spread */
    reg_alloc ra;
    uint32_t *unit_of;
    uint8_t *shared;            /* per unit: several PTX registers share it (never gated while waiting) */
    uint64_t *last_issue;       /* per warp slot, + 1 (0: none yet) */
    uint32_t *interval16;       /* per warp slot: average cycles between issues x 16 */
    uint8_t *tracker;           /* per warp slot: 0 L1 hit, 1 L1 miss, 2 L2 miss */
    uint32_t *fetch;            /* fetch-unit-list, most recent first: func << 20 | line */
    uint32_t nfetch;
    /* per register block: the hint to apply after its pending write, and when it was issued */
    uint8_t *pend_kind;
    uint16_t *pend_dist;
    uint32_t *pend_pc;
    uint64_t *pend_at;
    uint64_t *pend_idx;         /* ... and its instruction's index in the warp's stream */
    /* Memory wait (-slumber_mem_wait): per warp slot, instructions issued, and the index of the
     * first instruction that waits for a missed load with the cycle its data is predicted; per
     * register block, the index of its next use and its kind (RH_*; RH_NONE: none known). */
    uint64_t *issued, *blk_idx, *blk_until;
    uint64_t *next_idx;
    uint8_t *next_kind;
    uint32_t nblocks;
    uint8_t *parked;            /* per warp slot: in its scheduler's pending pool, registers asleep */
};

#define NO_BLOCK UINT64_MAX

int sm_slumber_init(sm_core *s)
{
    sm_slumber *z = calloc(1, sizeof *z);
    if (!z) return -1;
    s->slb = z;
    z->cfg = &s->cfg->power.slumber;
    uint32_t n = s->rf_pm.n, w = s->n_slots ? s->n_slots : 1;
    z->last_issue = calloc(w, sizeof *z->last_issue);
    z->interval16 = calloc(w, sizeof *z->interval16);
    z->tracker = calloc(w, 1);
    z->fetch = calloc((size_t)z->cfg->fetch_list + 1, sizeof *z->fetch);
    z->pend_kind = calloc(n, 1);
    z->pend_dist = calloc(n, sizeof *z->pend_dist);
    z->pend_pc = calloc(n, sizeof *z->pend_pc);
    z->pend_at = calloc(n, sizeof *z->pend_at);
    z->pend_idx = calloc(n, sizeof *z->pend_idx);
    z->issued = calloc(w, sizeof *z->issued);
    z->blk_idx = malloc(w * sizeof *z->blk_idx);
    z->blk_until = calloc(w, sizeof *z->blk_until);
    z->next_idx = calloc(n, sizeof *z->next_idx);
    z->next_kind = calloc(n, 1);
    z->parked = calloc(w, 1);
    if (!z->parked ||!z->last_issue || !z->interval16 || !z->tracker || !z->fetch || !z->pend_kind || !z->pend_dist ||
        !z->pend_pc || !z->pend_at || !z->pend_idx || !z->issued || !z->blk_idx || !z->blk_until || !z->next_idx ||
        !z->next_kind)
        return -1;
    for (uint32_t i = 0; i < w; i++) z->blk_idx[i] = NO_BLOCK;
    z->nblocks = n;
    memset(z->next_kind, RH_NONE, n);
    rfp_configure(&s->rf_pm, z->cfg);
    return 0;
}

void sm_slumber_free(sm_core *s)
{
    sm_slumber *z = s->slb;
    if (!z) return;
    reg_hints_free(&z->hints);
    reg_alloc_free(&z->ra);
    free(z->shared);
    free(z->unit_of), free(z->last_issue), free(z->interval16), free(z->tracker), free(z->fetch);
    free(z->pend_kind), free(z->pend_dist), free(z->pend_pc), free(z->pend_at), free(z->pend_idx);
    free(z->issued), free(z->blk_idx), free(z->blk_until), free(z->next_idx), free(z->next_kind), free(z->parked);
    free(z);
    s->slb = NULL;
}

static int has_calls(const ptx_func *f)
{
    for (uint32_t pc = 0; pc < f->n_instrs; pc++)
        if (f->instrs[pc].op == OP_CALL) return 1;
    return 0;
}

/* The kernel's registers allocated onto the slot's registers (-slumber_reg_map alloc): units are
 * the allocation's physical registers; only a unit a folded spill shares holds other live values. */
static int alloc_units(sm_core *s, const ptx_func *f)
{
    sm_slumber *z = s->slb;
    if (z->cfg->reg_map != SLUMBER_MAP_ALLOC || reg_alloc_build(&z->ra, f, s->rf_stride) != 0) return 0;
    z->alloc = 1;
    for (uint32_t u = 0; u < z->ra.n_phys; u++) z->shared[u] = z->ra.shared[u];
    reg_units U = {z->ra.phys, z->ra.width, z->shared, s->rf_stride};
    z->have = reg_hints_build_units(&z->hints, f, &U, z->cfg->hint_loops) == 0;
    return 1;
}

/* Hints for the running kernel over the current register spread (rebuilt when either changes). A
 * kernel that calls functions has none: a callee's frame shares the warp's registers. */
static void ensure_hints(sm_core *s)
{
    sm_slumber *z = s->slb;
    const simt_launch *l = s->launch;
    const ptx_func *f = l ? l->kernel : NULL;
    if (f == z->func && s->rf_stride == z->stride && s->sb_regs == z->nv) return;
    reg_hints_free(&z->hints);
    reg_alloc_free(&z->ra);
    z->alloc = 0;
    free(z->unit_of);
    free(z->shared);
    z->unit_of = NULL;
    z->shared = NULL;
    z->func = f;
    z->stride = s->rf_stride;
    z->nv = s->sb_regs;
    z->func_index = l ? l->func_index : 0;
    z->have = 0;
    if (!f || has_calls(f) || !f->n_regs) return;
    z->shared = calloc(s->rf_stride + 1, 1);
    if (!z->shared || alloc_units(s, f)) return;
    z->unit_of = malloc(f->n_regs * sizeof *z->unit_of);
    if (!z->unit_of) return;
    uint8_t *seen = calloc(s->rf_stride + 1, 1);
    if (!seen) return;
    for (uint32_t r = 0; r < f->n_regs; r++) {
        uint32_t u = z->unit_of[r] = sm_power_reg_unit(s, r);
        if (seen[u]) z->shared[u] = 1;
        seen[u] = 1;
    }
    free(seen);
    z->have = reg_hints_build(&z->hints, f, z->unit_of, s->rf_stride, z->cfg->hint_loops) == 0;
}

void sm_slumber_kernel_map(sm_core *s) { ensure_hints(s); }

/* The warp registers (power blocks) register reg (frame-relative + base) of slot occupies: 0 (a
 * predicate), 1, or 2 (a 64-bit register of an allocation). */
static uint32_t blocks_of(const sm_core *s, uint32_t slot, uint32_t reg, uint32_t b[2])
{
    const sm_slumber *z = s->slb;
    if (!z->alloc || reg >= z->ra.n_regs) {
        b[0] = sm_power_reg_block(s, slot, reg);
        return 1;
    }
    uint32_t w = z->ra.width[reg];
    for (uint32_t h = 0; h < w; h++) b[h] = (slot * s->rf_stride + z->ra.phys[reg] + h) % s->rf_pm.n;
    return w;
}

uint32_t sm_slumber_units_used(const sm_core *s)
{
    const sm_slumber *z = s->slb;
    return z && z->alloc && z->ra.n_phys < s->rf_stride ? z->ra.n_phys : s->rf_stride;
}

/* The instruction's pc in the kernel, or UINT32_MAX (a callee's, a trace's). */
static uint32_t kernel_pc(const sm_slumber *z, const ptx_instr *in)
{
    if (!z->have || in < z->func->instrs || in >= z->func->instrs + z->func->n_instrs) return UINT32_MAX;
    return (uint32_t)(in - z->func->instrs);
}

static int in_fetch_list(const sm_slumber *z, uint32_t line)
{
    for (uint32_t i = 0; i < z->nfetch; i++)
        if (z->fetch[i] == line) return 1;
    return 0;
}

static uint32_t line_of(const sm_slumber *z, uint32_t pc)
{
    return (z->func_index << 20) | (pc / (uint32_t)z->cfg->fetch_line);
}

static void fetched(sm_slumber *z, uint32_t pc)
{
    uint32_t n = (uint32_t)z->cfg->fetch_list;
    if (!n) return;
    uint32_t line = line_of(z, pc), i = 0;
    while (i < z->nfetch && z->fetch[i] != line) i++;
    if (i == z->nfetch && z->nfetch < n) z->nfetch++;
    if (i >= z->nfetch) i = z->nfetch - 1; /* evict the least recent */
    memmove(z->fetch + 1, z->fetch, i * sizeof *z->fetch);
    z->fetch[0] = line;
}

/* Predicted idle cycles until a use `dist` instructions ahead (at next_pc) of a warp in slot. */
static uint32_t predict(const sm_slumber *z, uint32_t slot, uint32_t dist, uint32_t next_pc)
{
    uint64_t idle = (uint64_t)dist * z->interval16[slot] / 16;
    if (dist > (uint32_t)z->cfg->ibuffer && !in_fetch_list(z, line_of(z, next_pc))) idle += (uint64_t)z->cfg->fetch_miss;
    return idle > 0xffffffu ? 0xffffffu : (uint32_t)idle;
}

/* The memory wait (-slumber_mem_wait; rfp_mem_wait) of a use at stream index `use` of slot's warp. */
static uint64_t mem_wait(const sm_slumber *z, uint32_t slot, uint64_t use, uint64_t now)
{
    if (!z->cfg->mem_wait || z->blk_idx[slot] == NO_BLOCK) return 0;
    return rfp_mem_wait(z->blk_idx[slot], z->blk_until[slot], z->issued[slot], use, now, z->interval16[slot]);
}

/* predict() from now for a use `dist` instructions after the one at stream index `from`, issued
 * `gone` cycles ago; and the register block's next use remembered for a later stall. */
static uint32_t predict_at(sm_slumber *z, uint32_t slot, uint32_t b, const reg_hint *h, uint64_t from, uint64_t gone,
                           uint64_t now)
{
    uint32_t base = predict(z, slot, h->dist, h->next_pc);
    uint64_t idle = base > gone ? base - gone : 0, wait = mem_wait(z, slot, from + h->dist, now);
    if (b < z->nblocks) {
        z->next_idx[b] = from + h->dist;
        z->next_kind[b] = (uint8_t)h->kind;
    }
    if (wait > idle) idle = wait;
    return idle > 0xffffffu ? 0xffffffu : (uint32_t)idle;
}

/* The hint of operand i (src when !dst) of the instruction at kernel pc, or "undetermined: read,
 * next instruction" without hints. */
static reg_hint hint_of(const sm_slumber *z, uint32_t pc, int i, int dst)
{
    const reg_hint *h = pc == UINT32_MAX ? NULL
                        : dst ? reg_hint_dst(&z->hints, z->func, pc, i) : reg_hint_src(&z->hints, z->func, pc, i);
    if (h) return *h;
    reg_hint d = {RH_READ, 1, pc == UINT32_MAX ? 0 : pc + 1};
    return d;
}

void sm_slumber_tick(sm_core *s, uint64_t cycle) { rfp_advance(&s->rf_pm, cycle); }

/* The warp's issue interval, estimated conservatively (Sec. 6.1.2's conservative wake-up: waking
 * early costs leakage, waking late costs time): a shorter gap is taken at once, a longer one
 * moves the estimate an eighth of the way. */
static void warp_issued(sm_slumber *z, uint32_t slot, uint64_t cycle)
{
    if (z->last_issue[slot]) {
        int64_t gap16 = (int64_t)(cycle + 1 - z->last_issue[slot]) * 16, iv = z->interval16[slot];
        z->interval16[slot] = (uint32_t)(gap16 < iv ? gap16 : iv + (gap16 - iv) / 8);
    }
    z->last_issue[slot] = cycle + 1;
}

uint32_t sm_slumber_issue(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t base, uint64_t cycle)
{
    sm_slumber *z = s->slb;
    uint32_t pc = kernel_pc(z, in);
    uint64_t at = z->issued[slot]++; /* this instruction's index in the warp's stream */
    warp_issued(z, slot, cycle);
    if (pc != UINT32_MAX) fetched(z, pc);
    int wait = 0;
    uint32_t b[2];
    for (int i = 0; i < in->nsrc; i++) {
        if (in->src[i] == PTX_NO_REG) continue;
        for (uint32_t k = 0, n = blocks_of(s, slot, in->src[i] + base, b); k < n; k++) {
            int w = rfp_access(&s->rf_pm, b[k], 0, cycle);
            if (w > wait) wait = w;
        }
    }
    /* After the reads: each source's next period (a source also written here is re-planned below). */
    for (int i = 0; i < in->nsrc; i++) {
        if (in->src[i] == PTX_NO_REG) continue;
        reg_hint h = hint_of(z, pc, i, 0);
        for (uint32_t k = 0, n = blocks_of(s, slot, in->src[i] + base, b); k < n; k++)
            rfp_after_access(&s->rf_pm, b[k], h.kind, predict_at(z, slot, b[k], &h, at, 0, cycle), cycle);
    }
    for (int i = 0; i < in->ndst; i++) {
        if (in->dst[i] == PTX_NO_REG) continue;
        reg_hint h = hint_of(z, pc, i, 1);
        for (uint32_t k = 0, n = blocks_of(s, slot, in->dst[i] + base, b); k < n; k++) {
            z->pend_kind[b[k]] = h.kind;
            z->pend_dist[b[k]] = h.dist;
            z->pend_pc[b[k]] = h.next_pc;
            z->pend_at[b[k]] = cycle;
            z->pend_idx[b[k]] = at;
        }
    }
    return (uint32_t)wait;
}

/* Whether register reg (+ base) has its physical register to itself: only then may it be gated
 * while it waits for its write (TA, T5). */
static int may_gate(const sm_core *s, uint32_t reg)
{
    const sm_slumber *z = s->slb;
    if (!z->have || reg >= z->func->n_regs) return s->sb_regs <= s->rf_stride;
    if (z->alloc) return z->ra.width[reg] && !z->shared[z->ra.phys[reg]] && !z->shared[z->ra.phys[reg] + z->ra.width[reg] - 1];
    return !z->shared[z->unit_of[reg]];
}

void sm_slumber_dests(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t base, uint64_t cycle, uint64_t write_at)
{
    uint32_t b[2];
    for (int i = 0; i < in->ndst; i++) {
        if (in->dst[i] == PTX_NO_REG) continue;
        for (uint32_t k = 0, n = blocks_of(s, slot, in->dst[i] + base, b); k < n; k++) {
            if (write_at) rfp_alu_dest(&s->rf_pm, b[k], cycle, write_at, may_gate(s, in->dst[i] + base));
            else rfp_load_dest(&s->rf_pm, b[k], cycle);
        }
    }
}

/* Under -slumber_park ibuffer: register block b's next use is one of the instructions in the
 * instruction buffer of slot's warp (the thesis' "Instruction Buffer (next registers to be in the
 * Shallow Sleep mode)", Sec. 6.3.4), so a parked warp keeps it in SS for its promotion. */
static int buffered(const sm_slumber *z, uint32_t slot, uint32_t b)
{
    if (z->cfg->park != SLUMBER_PARK_IBUFFER) return 0;
    if (!z->have) return 1; /* no hints: every operand counts as read next, one instruction away */
    return z->next_kind[b] != RH_NONE && z->next_idx[b] >= z->issued[slot] &&
           z->next_idx[b] - z->issued[slot] < (uint64_t)z->cfg->ibuffer;
}

/* A result is written to register reg (frame-relative + base) of slot: the cycles it waits for the
 * register; once written, the register's next period from the hint its instruction left. */
uint32_t sm_slumber_writeback(sm_core *s, uint32_t slot, uint32_t reg, uint64_t cycle, int retry)
{
    sm_slumber *z = s->slb;
    if (s->warps[slot].exited) return 0; /* dead registers: the warp is gone */
    uint32_t b[2], n = blocks_of(s, slot, reg, b), wait = 0;
    for (uint32_t k = 0; k < n && !retry; k++) { /* both halves of a pair wake in parallel */
        uint32_t w = (uint32_t)rfp_writeback(&s->rf_pm, b[k], cycle);
        if (w > wait) wait = w;
    }
    /* The write lands when the slower half is ON: the other half, already written, must not be
     * gated meanwhile (a demotion in that window lost NW's, CFD's and MUM's 64-bit values). */
    for (uint32_t k = 0; k < n && wait; k++) rfp_hold(&s->rf_pm, b[k], cycle + wait);
    if (wait) return wait;
    for (uint32_t k = 0; k < n; k++) {
        reg_hint h = {z->pend_kind[b[k]], z->pend_dist[b[k]], z->pend_pc[b[k]]};
        uint32_t idle = predict_at(z, slot, b[k], &h, z->pend_idx[b[k]], cycle - z->pend_at[b[k]], cycle);
        if (z->parked[slot]) rfp_park(&s->rf_pm, b[k], h.kind, buffered(z, slot, b[k]), cycle); /* until promoted */
        else rfp_after_access(&s->rf_pm, b[k], h.kind, idle, cycle);
    }
    return 0;
}

void sm_slumber_load_hit(sm_core *s, uint32_t slot) { s->slb->tracker[slot] = 0; }

/* The stream index of the first use of load record r's data (NO_BLOCK: none is read). */
static uint64_t consumer_of(const sm_core *s, const sm_record *r)
{
    const sm_slumber *z = s->slb;
    uint64_t first = NO_BLOCK;
    uint32_t b[2];
    for (uint32_t k = 0; k < r->ndst; k++)
        for (uint32_t h = 0, n = blocks_of(s, r->slot, r->dst[k], b); h < n; h++)
            if (z->pend_kind[b[h]] == RH_READ && z->pend_idx[b[h]] + z->pend_dist[b[h]] < first)
                first = z->pend_idx[b[h]] + z->pend_dist[b[h]];
    return first;
}

/* Memory wait: the warp of load record r will stall at the first use of its data until `until`;
 * its registers whose next use comes at or after that stall are re-planned for the longer idle
 * period (a read-next register deep sleeps, a write-next one is gated, their countdowns wake them
 * for the data's arrival instead of the look-ahead or a short countdown holding them ON). */
static void warp_stalls(sm_core *s, const sm_record *r, uint64_t until, uint64_t cycle)
{
    sm_slumber *z = s->slb;
    uint32_t slot = r->slot;
    uint64_t k = consumer_of(s, r);
    if (k == NO_BLOCK) return;
    int fresh = z->blk_idx[slot] == NO_BLOCK || z->blk_until[slot] <= cycle || z->issued[slot] > z->blk_idx[slot];
    if (!fresh && z->blk_idx[slot] < k) return; /* an earlier stall already holds the warp */
    if (fresh || k < z->blk_idx[slot] || until > z->blk_until[slot]) {
        z->blk_idx[slot] = k;
        z->blk_until[slot] = until;
    }
    for (uint32_t u = 0, n = z->parked[slot] ? 0 : sm_slumber_units_used(s); u < n; u++) {
        uint32_t b = (slot * s->rf_stride + u) % s->rf_pm.n;
        if (z->next_kind[b] == RH_NONE) continue;
        uint64_t wait = mem_wait(z, slot, z->next_idx[b], cycle);
        if (wait) rfp_after_access(&s->rf_pm, b, z->next_kind[b], wait > 0xffffffu ? 0xffffffu : (uint32_t)wait, cycle);
    }
}

/* The load of record r missed the L1 (or bypassed it): gate its destinations until the minimum
 * latency of the level the warp's tracker predicts (an L2 miss last time: DRAM, else the L2). */
void sm_slumber_load_miss(sm_core *s, sm_record *r, uint64_t cycle)
{
    sm_slumber *z = s->slb;
    if (r->pm_gated || r->is_store) return;
    r->pm_gated = 1;
    r->miss_cycle = cycle;
    uint32_t lat = (uint32_t)z->cfg->lat[z->tracker[r->slot] == 2 ? 2 : 1];
    uint32_t b[2];
    for (uint32_t k = 0; k < r->ndst; k++)
        for (uint32_t h = 0, n = blocks_of(s, r->slot, r->dst[k], b); h < n; h++)
            rfp_load_miss(&s->rf_pm, b[h], cycle, lat, may_gate(s, r->dst[k]));
    /* The stall lasts at least an L2 hit's minimum (the tracker's DRAM level may be wrong for this load:
     * data that came earlier than the other registers' countdowns would stall their reads). */
    if (z->cfg->mem_wait && !rfp_is_wrf(&s->rf_pm)) warp_stalls(s, r, cycle + (uint32_t)z->cfg->lat[1], cycle);
}

/* The last access of load record r completed: the tracker learns the level (an L1 miss whose data
 * took at least the DRAM minimum was an L2 miss), then the destinations are written. */
uint32_t sm_slumber_load_done(sm_core *s, sm_record *r, uint64_t cycle)
{
    sm_slumber *z = s->slb;
    if (r->pm_gated && !r->pm_learned) {
        r->pm_learned = 1;
        z->tracker[r->slot] = cycle - r->miss_cycle >= (uint64_t)z->cfg->lat[2] ? 2 : 1;
        if (z->blk_idx[r->slot] == consumer_of(s, r)) z->blk_idx[r->slot] = NO_BLOCK; /* the stall ends */
    }
    /* Every destination is accessed once (its wait counted once); the plans follow the last wait. */
    uint32_t wait = 0;
    if (!r->pm_written) {
        r->pm_written = 1;
        if (s->warps[r->slot].exited) return 0;
        uint32_t b[2];
        for (uint32_t k = 0; k < r->ndst; k++)
            for (uint32_t h = 0, n = blocks_of(s, r->slot, r->dst[k], b); h < n; h++) {
                uint32_t w = (uint32_t)rfp_writeback(&s->rf_pm, b[h], cycle);
                if (w > wait) wait = w;
            }
        for (uint32_t k = 0; k < r->ndst && wait; k++) /* every destination waits for the slowest */
            for (uint32_t h = 0, n = blocks_of(s, r->slot, r->dst[k], b); h < n; h++)
                rfp_hold(&s->rf_pm, b[h], cycle + wait);
        if (wait) return wait;
    }
    for (uint32_t k = 0; k < r->ndst; k++) (void)sm_slumber_writeback(s, r->slot, r->dst[k], cycle, 1);
    return 0;
}

static void wake_operands(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t base, uint64_t cycle)
{
    uint32_t b[2];
    for (int k = 0; k < in->nsrc + in->ndst; k++) {
        uint32_t r = k < in->nsrc ? in->src[k] : in->dst[k - in->nsrc];
        if (r == PTX_NO_REG) continue;
        for (uint32_t h = 0, n = blocks_of(s, slot, r + base, b); h < n; h++) rfp_lookahead(&s->rf_pm, b[h], cycle);
    }
}

/* Scheduler look-ahead (T3): the next instruction of the warp just issued (the "current" warp,
 * issued = its index in order, or n) and of up to `lookahead` ready warps after it in order[from..n)
 * get their operands woken. */
void sm_slumber_lookahead(sm_core *s, const uint32_t *order, uint32_t n, uint32_t from, uint64_t cycle)
{
    if (from > 0 && from <= n) { /* the current warp: its status is stale, ask the warp itself */
        const sm_warp_slot *ws = &s->warps[order[from - 1]];
        uint32_t slot = order[from - 1];
        if (ws->w && !ws->exited && ws->w->state == SIMT_WARP_READY && !mem_wait(s->slb, slot, s->slb->issued[slot], cycle)) {
            const ptx_func *f;
            const ptx_instr *in = simt_warp_next(ws->w, &f);
            if (in) wake_operands(s, slot, in, simt_top(ws->w)->reg_base, cycle);
        }
    }
    uint32_t left = (uint32_t)s->slb->cfg->lookahead;
    for (uint32_t i = from; i < n && left; i++) {
        const sm_warp_slot *ws = &s->warps[order[i]];
        if (ws->status != SCHED_WARP_READY || !ws->next_in || ws->dirty) continue;
        left--;
        wake_operands(s, order[i], ws->next_in, ws->w ? simt_top(ws->w)->reg_base : 0, cycle);
    }
}

/* A TB starts: each warp's registers stay OFF until their first use draws near (T1, T2). */
void sm_slumber_cta_start(sm_core *s, const sm_cta_slot *c, uint64_t cycle)
{
    sm_slumber *z = s->slb;
    ensure_hints(s);
    uint32_t per_sched = s->max_ctas_kernel * s->warps_per_cta / (s->n_sched ? s->n_sched : 1);
    for (uint32_t i = 0; i < s->warps_per_cta; i++) {
        uint32_t slot = c->first_slot + i;
        z->interval16[slot] = 16 * (per_sched ? per_sched : 1);
        z->last_issue[slot] = 0;
        z->tracker[slot] = 0;
        z->issued[slot] = 0;
        z->blk_idx[slot] = NO_BLOCK;
        z->parked[slot] = 0;
        for (uint32_t r = 0; r < s->rf_stride; r++) {
            uint32_t b = (slot * s->rf_stride + r) % s->rf_pm.n;
            reg_hint h = z->have && r < z->hints.n_units ? z->hints.entry[r] : (reg_hint){RH_WRITE, 1, 0};
            /* the first use, for a promotion out of the pending pool the warp starts in */
            z->next_kind[b] = z->cfg->park ? h.kind : RH_NONE;
            z->next_idx[b] = h.dist ? h.dist - 1u : 0;
            rfp_alloc(&s->rf_pm, b, h.kind, h.kind == RH_NONE ? 0 : predict(z, slot, h.dist, h.next_pc), cycle);
        }
    }
}

/* A warp exited: its registers are dead (TF). */
void sm_slumber_warp_done(sm_core *s, uint32_t slot, uint64_t cycle)
{
    uint32_t n = sm_slumber_units_used(s);
    for (uint32_t r = 0; r < n; r++) rfp_finish(&s->rf_pm, (slot * s->rf_stride + r) % s->rf_pm.n, cycle);
}

/* The warp of slot entered its scheduler's pending pool: its registers sleep with no countdown
 * (TP) until its promotion; results still in flight park theirs at write-back. */
static void park_warp(sm_core *s, uint32_t slot, uint64_t cycle)
{
    sm_slumber *z = s->slb;
    for (uint32_t u = 0, n = sm_slumber_units_used(s); u < n; u++) {
        uint32_t b = (slot * s->rf_stride + u) % s->rf_pm.n;
        rfp_park(&s->rf_pm, b, z->have ? z->next_kind[b] : RH_READ, buffered(z, slot, b), cycle);
    }
}

/* The warp of slot was promoted to the active pool (TW): each register is re-planned from its next
 * use (the instructions before it at the warp's issue interval, or the memory wait); the first
 * issue's gap, the time spent pending, is not an issue interval. */
static void promote_warp(sm_core *s, uint32_t slot, uint64_t cycle)
{
    sm_slumber *z = s->slb;
    z->last_issue[slot] = 0;
    uint64_t at = z->issued[slot];
    for (uint32_t u = 0, n = sm_slumber_units_used(s); u < n; u++) {
        uint32_t b = (slot * s->rf_stride + u) % s->rf_pm.n;
        int kind = z->have ? z->next_kind[b] : RH_READ;
        if (kind == RH_NONE) continue; /* dead: stays OFF */
        uint64_t ahead = z->have && z->next_idx[b] > at ? z->next_idx[b] - at : 0;
        uint64_t idle = ahead * z->interval16[slot] / 16, wait = z->have ? mem_wait(z, slot, z->next_idx[b], cycle) : 0;
        if (wait > idle) idle = wait;
        rfp_promote(&s->rf_pm, b, kind, idle > 0xffffffu ? 0xffffffu : (uint32_t)idle, cycle);
    }
}

void sm_slumber_pools(sm_core *s, const sched *sc, uint64_t cycle)
{
    sm_slumber *z = s->slb;
    if (!z->cfg->park || !sc->pol->in_pending || rfp_is_wrf(&s->rf_pm)) return;
    for (uint32_t k = 0; k < sc->n_live; k++) {
        uint32_t slot = sched_slot(sc, sc->by_age[k]);
        if (slot >= s->n_slots || s->warps[slot].exited) continue;
        uint8_t p = (uint8_t)sched_warp_pending(sc, slot);
        if (p == z->parked[slot]) continue;
        z->parked[slot] = p;
        if (p) park_warp(s, slot, cycle);
        else promote_warp(s, slot, cycle);
    }
}
