/*
 * Event counts -> energy. Every block's counts (from the statistics it already keeps) times the
 * per-event energies of the power_config, plus leakage x time, where the leakage of a gated
 * structure comes from its power-mode residency (power_mode.h). Energies are in pJ, per
 * component, split into dynamic and static; the statistics layer (tlm/top/power_stats.cpp)
 * gathers the counts of a scope and publishes the results.
 */
#ifndef GTLM_POWER_ENERGY_H
#define GTLM_POWER_ENERGY_H

#include "power_config.h"

/* Components, with GPUWattch/AccelWattch-like short names (gpu_avg_<NAME>). */
typedef enum pwr_comp {
    PWR_C_FETCH = 0, /* IBP: fetch and decode */
    PWR_C_SCHED,     /* SCHEDP */
    PWR_C_RF,        /* RFP: register file and operand collector */
    PWR_C_INT,       /* INTP */
    PWR_C_FP32,      /* FPUP */
    PWR_C_FP64,      /* DPUP */
    PWR_C_SFU,       /* SFUP */
    PWR_C_LDST,      /* LDSTP: address generation, coalescing */
    PWR_C_L1D,       /* DCP */
    PWR_C_L1C,       /* CCP */
    PWR_C_SMEM,      /* SHRDP */
    PWR_C_SM,        /* PIPEP: SM clock and pipeline (dynamic), SM logic leakage (static) */
    PWR_C_L2,        /* L2CP */
    PWR_C_NOC,       /* NOCP */
    PWR_C_MC,        /* MCP: memory controllers */
    PWR_C_DRAM,      /* DRAMP */
    PWR_C_N
} pwr_comp;

const char *pwr_comp_name(int c);  /* "fetch", "regfile", ... */
const char *pwr_comp_short(int c); /* "IBP", "RFP", ... */
/* Components inside an SM: PWR_C_FETCH .. PWR_C_SM. */
static inline int pwr_comp_in_sm(int c) { return c <= PWR_C_SM; }

/* Residency of a gated structure in a scope: block-cycles per mode, blocks, and the transition
 * energy spent (pJ). */
typedef struct pwr_res {
    double res[PM_MODES];
    double n;
    double transition_pj;
} pwr_res;

typedef struct pwr_sm_counts {
    double fu[5];                  /* warp instructions: int, fp32, fp64, sfu, ld/st */
    double warp_insn;
    double rf_reads, rf_writes;    /* 128 B warp register accesses */
    double l1d_accesses, l1d_hits, l1d_writes, l1d_fills;
    double l1c_accesses, l1c_hits, l1c_fills;
    double smem_passes;
    double active_cycles;          /* cycles with a CTA resident */
    pwr_res rf, l1d, sm;           /* power-mode residency (rf: per warp register; l1d: per block) */
    double ext_llc_pj;             /* a cache-mode SM's extended-LLC energy (Morpheus: pJ/B x bytes) */
    double sched_table_bits;       /* bits of the scheduler's technique tables accessed (APRES: LLT, WGT) */
    double ldst_table_bits;        /* ... of the LD/ST unit's (APRES' SAP: PT, WQ, DRQ) */
    double lb_rf_pj;               /* Linebacker (lb_energy.h): its register-file accesses, in regfile */
    double lb_l1d_pj;              /* ... its VTT, Load Monitor and hashed-PC fields, in l1d */
    double lb_sched_pj;            /* ... its CTA manager, in sched */
} pwr_sm_counts;

typedef struct pwr_l2_counts {
    double accesses, hits, writes, fills;
    pwr_res lines;                 /* residency, L2 cycles */
} pwr_l2_counts;

typedef struct pwr_dram_counts {
    double activates, precharges, reads, writes;
    double bytes;                  /* moved on the data bus */
} pwr_dram_counts;

/* A scope's length: core cycles and the clocks (MHz) of the blocks. */
typedef struct pwr_time {
    double core_cycles;
    double core_mhz, l2_mhz;
} pwr_time;

/* Slumber's control-logic leakage of one SM over t (pJ; 0 unless -power_policy slumber): the share
 * -slumber_overhead_frac of the register file's ON leakage for the whole time (the logic is not gated).
 * pwr_sm_energy adds it to the register file's static energy. */
double pwr_slumber_overhead_pj(const power_config *c, const pwr_time *t);

/* Each adds its energy (pJ) to dyn[] and stat[] (arrays of PWR_C_N). */
void pwr_sm_energy(const power_config *c, const pwr_sm_counts *k, const pwr_time *t, double *dyn, double *stat);
void pwr_l2_energy(const power_config *c, const pwr_l2_counts *k, const pwr_time *t, double *dyn, double *stat);
void pwr_noc_energy(const power_config *c, double flits, const pwr_time *t, double *dyn, double *stat);
void pwr_dram_energy(const power_config *c, const pwr_dram_counts *k, const pwr_time *t, double *dyn, double *stat);

#endif
