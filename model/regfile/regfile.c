#include "regfile.h"

#include <stdlib.h>
#include <string.h>

int regfile_init(regfile *rf, const regfile_config *cfg)
{
    memset(rf, 0, sizeof *rf);
    if (!cfg || cfg->n_regs == 0 || cfg->n_banks == 0 || cfg->n_cta_slots == 0) return -1;
    rf->cfg = *cfg;
    rf->bank_use = calloc(cfg->n_banks, sizeof *rf->bank_use);
    rf->cta_alloc = calloc(cfg->n_cta_slots, 1);
    rf->cta_active = calloc(cfg->n_cta_slots, 1);
    if (!rf->bank_use || !rf->cta_alloc || !rf->cta_active) {
        regfile_free(rf);
        return -1;
    }
    rf->bank_cycle = UINT64_MAX;
    return 0;
}

void regfile_free(regfile *rf)
{
    free(rf->bank_use);
    free(rf->cta_alloc);
    free(rf->cta_active);
    memset(rf, 0, sizeof *rf);
}

int regfile_kernel_start(regfile *rf, uint32_t cta_nreg, uint32_t resident_ctas)
{
    if (resident_ctas > rf->cfg.n_cta_slots) return -1;
    if ((uint64_t)cta_nreg * resident_ctas > rf->cfg.n_regs) return -1;
    rf->cta_nreg = cta_nreg;
    rf->resident = resident_ctas;
    memset(rf->cta_alloc, 0, rf->cfg.n_cta_slots);
    memset(rf->cta_active, 0, rf->cfg.n_cta_slots);
    rf->bank_cycle = UINT64_MAX;
    return 0;
}

uint32_t regfile_victim_rn(const regfile_config *cfg, uint32_t vp, uint32_t set, uint32_t way)
{
    if (set >= cfg->vtt_sets || way >= cfg->vp_ways) return REGFILE_NO_RN;
    uint64_t rn = (uint64_t)cfg->vc_base + (uint64_t)vp * cfg->vtt_sets * cfg->vp_ways + (uint64_t)set * cfg->vp_ways + way;
    return rn < cfg->n_regs ? (uint32_t)rn : REGFILE_NO_RN;
}

uint32_t regfile_vp_first_rn(const regfile_config *cfg, uint32_t vp)
{
    return regfile_victim_rn(cfg, vp, 0, 0);
}

uint32_t regfile_frn(const regfile *rf, uint32_t cta_slot)
{
    return cta_slot * rf->cta_nreg;
}

static int slot_ok(const regfile *rf, uint32_t k)
{
    return k < rf->resident && rf->cta_nreg > 0;
}

int regfile_alloc_cta(regfile *rf, uint32_t cta_slot)
{
    if (!slot_ok(rf, cta_slot) || rf->cta_alloc[cta_slot]) return -1;
    rf->cta_alloc[cta_slot] = 1;
    rf->cta_active[cta_slot] = 1;
    return 0;
}

int regfile_release_cta(regfile *rf, uint32_t cta_slot)
{
    if (!slot_ok(rf, cta_slot) || !rf->cta_alloc[cta_slot]) return -1;
    rf->cta_alloc[cta_slot] = 0;
    rf->cta_active[cta_slot] = 0;
    return 0;
}

int regfile_set_cta_active(regfile *rf, uint32_t cta_slot, int active)
{
    if (!slot_ok(rf, cta_slot) || !rf->cta_alloc[cta_slot]) return -1;
    rf->cta_active[cta_slot] = active ? 1 : 0;
    return 0;
}

uint32_t regfile_lrn(const regfile *rf)
{
    for (uint32_t k = rf->resident; k-- > 0;)
        if (rf->cta_active[k]) return regfile_frn(rf, k) + rf->cta_nreg - 1;
    return 0;
}

uint32_t regfile_sur(const regfile *rf)
{
    return rf->cfg.n_regs - rf->resident * rf->cta_nreg;
}

uint32_t regfile_dur(const regfile *rf)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < rf->resident; k++)
        if (rf->cta_alloc[k] && !rf->cta_active[k]) n += rf->cta_nreg;
    return n;
}

/* One more access to bank b in cycle; returns the accesses already there. */
static uint32_t bank_take(regfile *rf, uint32_t b, uint64_t cycle)
{
    if (rf->bank_cycle != cycle) {
        memset(rf->bank_use, 0, rf->cfg.n_banks * sizeof *rf->bank_use);
        rf->bank_cycle = cycle;
    }
    return rf->bank_use[b]++;
}

uint32_t regfile_operand_reads(regfile *rf, uint32_t slot, const uint32_t *src, int n, uint32_t base,
                               uint64_t cycle)
{
    if (rf->cfg.n_banks <= 1 || n <= 0) return 0; /* the baseline rule: a single bank never delays */
    uint32_t worst = 0;
    uint32_t shift = rf->cfg.bank_use_warp_id ? slot : 0;
    uint32_t groups = rf->cfg.n_groups > 1 ? rf->cfg.n_groups : 1;
    uint32_t per = rf->cfg.n_banks / groups, first = (slot % groups) * per; /* the slot's scheduler's banks */
    for (int i = 0; i < n; i++) {
        if (src[i] == UINT32_MAX) continue;
        uint32_t u = bank_take(rf, first + (src[i] + base + shift) % per, cycle) + 1;
        rf->st.operand_reads++;
        if (u > worst) worst = u;
    }
    uint32_t ports = rf->cfg.port_reads > 1 ? rf->cfg.port_reads : 1;
    uint32_t cycles = (worst + ports - 1) / ports; /* the busiest bank's reads, ports at a time */
    uint32_t extra = cycles > 1 ? cycles - 1 : 0;
    rf->st.operand_conflict_cycles += extra;
    return extra;
}

uint32_t regfile_indirect_reads(regfile *rf, uint32_t slot, const uint32_t *reg, int n, uint32_t base,
                                uint32_t first_cycles, uint32_t delay, uint64_t cycle)
{
    uint32_t shift = rf->cfg.bank_use_warp_id ? slot : 0;
    uint32_t groups = rf->cfg.n_groups > 1 ? rf->cfg.n_groups : 1;
    uint32_t per = rf->cfg.n_banks / groups, first = (slot % groups) * per;
    uint32_t ports = rf->cfg.port_reads > 1 ? rf->cfg.port_reads : 1;
    uint32_t at = first_cycles + delay - 1; /* the collector cycle of the first request (0-based) */
    for (int i = 0; i < n; i++) {
        uint32_t busy = 0; /* cycles the bank still serves this cycle's reads (none with one bank) */
        if (rf->cfg.n_banks > 1 && rf->bank_cycle == cycle)
            busy = (rf->bank_use[first + (reg[i] + base + shift) % per] + ports - 1) / ports;
        uint32_t granted = at > busy ? at : busy;
        rf->st.indirect_conflict_cycles += granted - at;
        rf->st.indirect_reads++;
        if (rf->cfg.n_banks > 1) rf->st.operand_reads++; /* as regfile_operand_reads counts */
        at = granted + 1; /* the next one is requested after this one */
    }
    return n > 0 ? at - first_cycles : 0;
}

uint32_t regfile_nonop_access(regfile *rf, uint32_t rn, int is_write, uint64_t cycle)
{
    if (is_write) rf->st.nonop_writes++;
    else rf->st.nonop_reads++;
    uint32_t wait = bank_take(rf, rn % rf->cfg.n_banks, cycle) / (rf->cfg.port_reads > 1 ? rf->cfg.port_reads : 1);
    rf->st.nonop_conflict_cycles += wait;
    return wait;
}
