/*
 * Energy of Linebacker's structures (issue 18; the document's Table 3 and Sec. 5.8, spec Gap G24):
 * counts x energy per access. The VTT, Load Monitor, hashed-PC fields and CTA manager use Table 3's
 * CACTI energies (-lb_*_pj); the register-file accesses Linebacker adds (a victim line written in,
 * a Reg hit read out, a backup read, a restore write: one 128-byte warp register each) cost what an
 * operand access of the same file costs (-power_rf_read_pj / -power_rf_write_pj, without the
 * operand collector: these accesses do not pass through it). Plain arithmetic, no SM state.
 */
#ifndef GTLM_LB_ENERGY_H
#define GTLM_LB_ENERGY_H

#include "lb_config.h"

typedef enum lb_energy_part { LB_E_VTT = 0, LB_E_LM, LB_E_HPC, LB_E_CTAM, LB_E_RF, LB_E_N } lb_energy_part;

typedef struct lb_energy_counts {
    double vtt;       /* partitions searched + entries written */
    double lm;        /* Load Monitor entries read or written */
    double hpc;       /* L1 accesses + fills (each reads or writes a line's hashed PC) */
    double ctam;      /* CTA manager updates */
    double rf_reads;  /* Reg hits + registers backed up */
    double rf_writes; /* victims stored + registers restored */
} lb_energy_counts;

/* Statistic leaf of each part: "vtt", "lm", "hpc", "cta_manager", "regfile". */
const char *lb_energy_part_name(int part);
/* pj[LB_E_N] = each part's energy in pJ. */
void lb_energy_pj(const lb_config *c, const lb_energy_counts *k, double rf_read_pj, double rf_write_pj, double *pj);

#endif
