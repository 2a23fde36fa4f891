#include "energy.h"

static const char *const names[PWR_C_N] = {"fetch", "sched", "regfile", "int", "fp32", "fp64", "sfu", "ldst",
                                           "l1d",   "l1c",   "smem",    "sm",  "l2",   "noc",  "mc",  "dram"};
static const char *const shorts[PWR_C_N] = {"IBP",  "SCHEDP", "RFP",   "INTP", "FPUP", "DPUP", "SFUP", "LDSTP",
                                            "DCP",  "CCP",    "SHRDP", "PIPEP", "L2CP", "NOCP", "MCP", "DRAMP"};

const char *pwr_comp_name(int c) { return c >= 0 && c < PWR_C_N ? names[c] : "?"; }
const char *pwr_comp_short(int c) { return c >= 0 && c < PWR_C_N ? shorts[c] : "?"; }

/* mW over cycles at mhz, in pJ: mW * us = nJ. */
static double mw_cycles_pj(double mw, double cycles, double mhz) { return mhz > 0 ? mw * cycles / mhz * 1e3 : 0; }

/* Leakage of a gated structure of total power mw made of r->n blocks. */
static double gated_pj(const pm_table *t, double mw, const pwr_res *r, double cycles, double mhz)
{
    if (r->n <= 0) return mw_cycles_pj(mw, cycles, mhz);
    return pm_leakage_pj(t, mw / r->n, mhz, r->n, cycles, r->res);
}

double pwr_slumber_overhead_pj(const power_config *c, const pwr_time *t)
{
    if (pm_policy_find(c->policy) != &pm_policy_slumber) return 0;
    return mw_cycles_pj(c->slumber.overhead_frac * c->leak_mw[PWR_LK_RF], t->core_cycles, t->core_mhz);
}

void pwr_sm_energy(const power_config *c, const pwr_sm_counts *k, const pwr_time *t, double *dyn, double *stat)
{
    const double *e = c->ev_pj;
    dyn[PWR_C_INT] += k->fu[0] * e[PWR_EV_INT];
    dyn[PWR_C_FP32] += k->fu[1] * e[PWR_EV_FP32];
    dyn[PWR_C_FP64] += k->fu[2] * e[PWR_EV_FP64];
    dyn[PWR_C_SFU] += k->fu[3] * e[PWR_EV_SFU];
    dyn[PWR_C_LDST] += k->fu[4] * e[PWR_EV_LDST] + k->ldst_table_bits * e[PWR_EV_TABLE_BIT];
    dyn[PWR_C_FETCH] += k->warp_insn * e[PWR_EV_FETCH];
    dyn[PWR_C_SCHED] += k->warp_insn * e[PWR_EV_SCHED] + k->sched_table_bits * e[PWR_EV_TABLE_BIT] + k->lb_sched_pj;
    dyn[PWR_C_RF] += k->rf_reads * (e[PWR_EV_RF_READ] + e[PWR_EV_OC]) + k->rf_writes * e[PWR_EV_RF_WRITE] +
                     k->rf.transition_pj + k->lb_rf_pj;
    dyn[PWR_C_L1D] += k->l1d_accesses * e[PWR_EV_L1D_TAG] + k->l1d_hits * e[PWR_EV_L1D_READ] +
                      k->l1d_writes * e[PWR_EV_L1D_WRITE] + k->l1d_fills * e[PWR_EV_L1D_FILL] + k->l1d.transition_pj +
                      k->lb_l1d_pj;
    dyn[PWR_C_L1C] += k->l1c_accesses * e[PWR_EV_L1C_TAG] + k->l1c_hits * e[PWR_EV_L1C_READ] +
                      k->l1c_fills * e[PWR_EV_L1C_FILL];
    dyn[PWR_C_SMEM] += k->smem_passes * e[PWR_EV_SMEM];
    double idle = t->core_cycles > k->active_cycles ? t->core_cycles - k->active_cycles : 0;
    double off = k->sm.res[PM_OFF]; /* a gated SM's clock is off too (0 without a policy) */
    idle = idle > off ? idle - off : 0;
    dyn[PWR_C_SM] += mw_cycles_pj(c->sm_clock_mw, k->active_cycles + idle * (1.0 - c->idle_sm_gating), t->core_mhz) +
                     k->sm.transition_pj + k->ext_llc_pj;
    stat[PWR_C_SM] += gated_pj(&c->modes[PWR_G_SM], c->leak_mw[PWR_LK_SM], &k->sm, t->core_cycles, t->core_mhz);
    stat[PWR_C_RF] += gated_pj(&c->modes[PWR_G_REG], c->leak_mw[PWR_LK_RF], &k->rf, t->core_cycles, t->core_mhz) +
                      pwr_slumber_overhead_pj(c, t);
    stat[PWR_C_L1D] += gated_pj(&c->modes[PWR_G_L1D], c->leak_mw[PWR_LK_L1D], &k->l1d, t->core_cycles, t->core_mhz);
}

void pwr_l2_energy(const power_config *c, const pwr_l2_counts *k, const pwr_time *t, double *dyn, double *stat)
{
    const double *e = c->ev_pj;
    dyn[PWR_C_L2] += k->accesses * e[PWR_EV_L2_TAG] + k->hits * e[PWR_EV_L2_READ] + k->writes * e[PWR_EV_L2_WRITE] +
                     k->fills * e[PWR_EV_L2_FILL] + k->lines.transition_pj;
    double l2_cycles = t->core_mhz > 0 ? t->core_cycles * t->l2_mhz / t->core_mhz : 0;
    stat[PWR_C_L2] += gated_pj(&c->modes[PWR_G_L2], c->leak_mw[PWR_LK_L2], &k->lines, l2_cycles, t->l2_mhz);
}

void pwr_noc_energy(const power_config *c, double flits, const pwr_time *t, double *dyn, double *stat)
{
    dyn[PWR_C_NOC] += flits * c->ev_pj[PWR_EV_FLIT];
    stat[PWR_C_NOC] += mw_cycles_pj(c->leak_mw[PWR_LK_NOC], t->core_cycles, t->core_mhz);
}

void pwr_dram_energy(const power_config *c, const pwr_dram_counts *k, const pwr_time *t, double *dyn, double *stat)
{
    const double *e = c->ev_pj;
    double ns = t->core_mhz > 0 ? t->core_cycles / t->core_mhz * 1e3 : 0;
    dyn[PWR_C_DRAM] += k->activates * e[PWR_EV_DRAM_ACT] + k->precharges * e[PWR_EV_DRAM_PRE] +
                       k->reads * e[PWR_EV_DRAM_RD] + k->writes * e[PWR_EV_DRAM_WR] +
                       k->bytes * e[PWR_EV_DRAM_IO] +
                       ns / c->dram_refresh_ns * e[PWR_EV_DRAM_REF];
    stat[PWR_C_DRAM] += mw_cycles_pj(c->leak_mw[PWR_LK_DRAM], t->core_cycles, t->core_mhz);
    stat[PWR_C_MC] += mw_cycles_pj(c->leak_mw[PWR_LK_MC], t->core_cycles, t->core_mhz);
}
