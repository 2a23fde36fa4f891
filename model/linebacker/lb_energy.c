#include "lb_energy.h"

static const char *const names[LB_E_N] = {"vtt", "lm", "hpc", "cta_manager", "regfile"};

const char *lb_energy_part_name(int part) { return part >= 0 && part < LB_E_N ? names[part] : "?"; }

void lb_energy_pj(const lb_config *c, const lb_energy_counts *k, double rf_read_pj, double rf_write_pj, double *pj)
{
    pj[LB_E_VTT] = k->vtt * c->vtt_pj;
    pj[LB_E_LM] = k->lm * c->lm_pj;
    pj[LB_E_HPC] = k->hpc * c->hpc_pj;
    pj[LB_E_CTAM] = k->ctam * c->ctam_pj;
    pj[LB_E_RF] = k->rf_reads * rf_read_pj + k->rf_writes * rf_write_pj;
}
