/* CBWT's detectors and controller, GPU-wide (semantics in cbwt_ctl.h). */
#include "cbwt_ctl.h"

#include <stdlib.h>
#include <string.h>

int cbwt_ctl_init(cbwt_ctl *c, const cbwt_config *cfg, int n_slices, int l2_sets, int l2_assoc, int n_sms,
                  double zero_load)
{
    memset(c, 0, sizeof *c);
    if (n_slices < 1 || n_sms < 1) return -1;
    c->cfg = *cfg;
    c->n_slices = n_slices;
    c->hw = calloc((size_t)n_slices, sizeof *c->hw);
    c->full = calloc((size_t)n_slices, sizeof *c->full);
    if (!c->hw || !c->full || noc_sampler_init(&c->noc, cfg->noc_sample) != 0) {
        cbwt_ctl_free(c);
        return -1;
    }
    for (int j = 0; j < n_slices; j++)
        if (lls_init(&c->hw[j], l2_sets, l2_assoc, cfg->l2_sample, n_sms, cfg->l2_share) != 0 ||
            lls_init(&c->full[j], l2_sets, l2_assoc, 1, n_sms, 1) != 0) {
            cbwt_ctl_free(c);
            return -1;
        }
    /* gap G4 PROPOSAL: the busy-but-uncongested range is 2x to 4x the zero-load latency */
    c->params.t_noc_h = cfg->t_noc_h > 0 ? cfg->t_noc_h : 4 * zero_load;
    c->params.t_noc_l = cfg->t_noc_l > 0 ? cfg->t_noc_l : 2 * zero_load;
    c->params.t_noc_g = cfg->t_noc_g;
    c->params.t_lls = cfg->t_lls;
    c->params.t_w = cfg->t_w;
    c->params.coarse_up = cfg->coarse_up;
    c->params.n_max = 1;
    if (c->params.t_noc_l > c->params.t_noc_h || maw_reset(&c->maw, &c->params) != 0) {
        cbwt_ctl_free(c);
        return -1;
    }
    return 0;
}

void cbwt_ctl_free(cbwt_ctl *c)
{
    for (int j = 0; j < c->n_slices; j++) {
        if (c->hw) lls_free(&c->hw[j]);
        if (c->full) lls_free(&c->full[j]);
    }
    free(c->hw);
    free(c->full);
    c->hw = c->full = NULL;
    c->n_slices = 0;
}

void cbwt_ctl_kernel_begin(cbwt_ctl *c, int n_max, uint64_t loads, uint64_t bypasses, uint64_t cycle)
{
    c->params.n_max = n_max > 0 ? n_max : 1;
    maw_reset(&c->maw, &c->params);
    c->loads0 = loads;
    c->byp0 = bypasses;
    c->start = c->last_cycle = cycle;
    c->step = MAW_STEP_NONE;
    c->dir = MAW_DIR_NONE;
    /* a new kernel's first period starts empty: last kernel's partial counts are dropped */
    (void)noc_sampler_period(&c->noc, 0);
    for (int j = 0; j < c->n_slices; j++) (void)lls_period(&c->hw[j]);
}

int cbwt_ctl_poll(cbwt_ctl *c, uint64_t loads, uint64_t bypasses, uint64_t cycle)
{
    if (cycle > c->last_cycle) {
        c->maw_cycles += (uint64_t)c->maw.maw * (cycle - c->last_cycle);
        c->cycles += cycle - c->last_cycle;
        c->last_cycle = cycle;
    }
    uint64_t m = loads - c->loads0;
    int timeout = cycle - c->start >= (uint64_t)c->cfg.timeout;
    if (m < (uint64_t)c->cfg.period && !timeout) return 0;
    uint64_t lls = 0, acc = 0;
    for (int j = 0; j < c->n_slices; j++) {
        lls += c->hw[j].lls;
        acc += c->hw[j].accesses;
        (void)lls_period(&c->hw[j]);
    }
    maw_inputs in;
    in.noc_lat = noc_sampler_period(&c->noc, c->noc_lat);
    in.lls_rate = acc ? (double)lls / (double)acc : 0.0;
    in.m = m;
    in.m_b = bypasses - c->byp0;
    if (c->cfg.eq1_base == CBWT_EQ1_CURRENT && in.m) {
        /* Eq. 1 on the current MAW (gap G7 alternative): scale m_b so that the controller's
           (1 - m_b/m) * n_max equals (1 - m_b/m) * MAW */
        double keep = (1.0 - (double)in.m_b / (double)in.m) * c->maw.maw / c->params.n_max;
        in.m_b = (uint64_t)((1.0 - keep) * (double)in.m + 0.5);
    }
    c->noc_lat = in.noc_lat;
    c->lls_rate = in.lls_rate;
    c->bratio = in.m ? (double)in.m_b / (double)in.m : 0.0;
    c->step = (uint64_t)maw_period(&c->maw, &in);
    c->dir = (uint64_t)c->maw.dir;
    c->steps[c->step]++;
    c->periods++;
    c->timeouts += (uint64_t)(m < (uint64_t)c->cfg.period);
    c->period_loads += m;
    c->period_bypasses += bypasses - c->byp0;
    c->loads0 = loads;
    c->byp0 = bypasses;
    c->start = cycle;
    return 1;
}
