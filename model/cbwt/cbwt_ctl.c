/* CBWT's detectors and controller, GPU-wide or per SM (semantics in cbwt_ctl.h). */
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
    c->n_sms = n_sms;
    c->hw = calloc((size_t)n_slices, sizeof *c->hw);
    c->full = calloc((size_t)n_slices, sizeof *c->full);
    c->served = calloc((size_t)n_slices, sizeof *c->served);
    if (cfg->maw_scope == CBWT_SCOPE_CORE) c->core = calloc((size_t)n_sms, sizeof *c->core);
    if (!c->hw || !c->full || !c->served || (cfg->maw_scope == CBWT_SCOPE_CORE && !c->core) ||
        noc_sampler_init(&c->noc, cfg->noc_sample, n_sms) != 0) {
        cbwt_ctl_free(c);
        return -1;
    }
    for (int j = 0; j < n_slices; j++)
        if (lls_init(&c->hw[j], l2_sets, l2_assoc, cfg->l2_sample, n_sms, cfg->l2_share) != 0 ||
            lls_init(&c->full[j], l2_sets, l2_assoc, 1, n_sms, 1) != 0 || victim_map_init(&c->served[j]) != 0) {
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
    c->params.trigger = cfg->step1 == CBWT_STEP1_CONGESTION ? MAW_TRIGGER_CONGESTION : MAW_TRIGGER_BOTH;
    c->params.n_max = 1;
    int bad = c->params.t_noc_l > c->params.t_noc_h || maw_reset(&c->g.maw, &c->params) != 0;
    for (int i = 0; c->core && i < n_sms; i++) bad |= maw_reset(&c->core[i].maw, &c->params) != 0;
    if (bad) {
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
        if (c->served) victim_map_free(&c->served[j]);
    }
    free(c->hw);
    free(c->full);
    free(c->served);
    free(c->core);
    noc_sampler_free(&c->noc);
    c->hw = c->full = NULL;
    c->served = NULL;
    c->core = NULL;
    c->n_slices = 0;
}

static void unit_begin(cbwt_ctl *c, cbwt_unit *u, uint64_t loads, uint64_t bypasses, uint64_t cycle)
{
    maw_reset(&u->maw, &c->params);
    u->loads0 = loads;
    u->byp0 = bypasses;
    u->start = cycle;
    u->step = MAW_STEP_NONE;
    u->dir = MAW_DIR_NONE;
}

void cbwt_ctl_kernel_begin(cbwt_ctl *c, int n_max, uint64_t loads, uint64_t bypasses, uint64_t cycle)
{
    c->params.n_max = n_max > 0 ? n_max : 1;
    unit_begin(c, &c->g, loads, bypasses, cycle);
    c->last_cycle = cycle;
    /* a new kernel's first period starts empty: last kernel's partial counts are dropped */
    (void)noc_sampler_period(&c->noc, 0);
    for (int j = 0; j < c->n_slices; j++) {
        (void)lls_period(&c->hw[j]);
        victim_map_clear(&c->served[j]); /* repeats count within a kernel: the L1s start empty */
        if (c->cfg.vb_launch == CBWT_VB_CLEAR) {
            lls_clear_bits(&c->hw[j]);
            lls_clear_bits(&c->full[j]);
        }
    }
}

void cbwt_ctl_kernel_begin_cores(cbwt_ctl *c, int n_max, const uint64_t *loads, const uint64_t *bypasses,
                                 uint64_t cycle)
{
    cbwt_ctl_kernel_begin(c, n_max, loads[0], bypasses[0], cycle);
    for (int i = 0; c->core && i < c->n_sms; i++) {
        uint64_t lls = 0, acc = 0;
        unit_begin(c, &c->core[i], loads[i], bypasses[i], cycle);
        (void)noc_sampler_sm_period(&c->noc, i, 0);
        for (int j = 0; j < c->n_slices; j++) lls_core_period(&c->hw[j], i, &lls, &acc);
    }
}

/* Closes u's period when its L1 saw -cbwt_period loads or -cbwt_timeout cycles passed; the signals
   are the GPU's (sm < 0) or SM sm's. 1 when it closed. */
static int unit_poll(cbwt_ctl *c, cbwt_unit *u, int sm, uint64_t loads, uint64_t bypasses, uint64_t cycle)
{
    uint64_t m = loads - u->loads0;
    int timeout = cycle - u->start >= (uint64_t)c->cfg.timeout;
    if (m < (uint64_t)c->cfg.period && !timeout) return 0;
    uint64_t lls = 0, acc = 0;
    for (int j = 0; j < c->n_slices; j++) {
        if (sm >= 0) {
            lls_core_period(&c->hw[j], sm, &lls, &acc);
            continue;
        }
        lls += c->hw[j].lls;
        acc += c->hw[j].accesses;
        (void)lls_period(&c->hw[j]);
    }
    maw_inputs in;
    in.noc_lat = sm >= 0 ? noc_sampler_sm_period(&c->noc, sm, u->noc_lat) : noc_sampler_period(&c->noc, u->noc_lat);
    in.lls_rate = acc ? (double)lls / (double)acc : 0.0;
    in.m = m;
    in.m_b = bypasses - u->byp0;
    if (c->cfg.eq1_base == CBWT_EQ1_CURRENT && in.m) {
        /* Eq. 1 on the current MAW (gap G7 alternative): scale m_b so that the controller's
           (1 - m_b/m) * n_max equals (1 - m_b/m) * MAW */
        double keep = (1.0 - (double)in.m_b / (double)in.m) * u->maw.maw / c->params.n_max;
        in.m_b = (uint64_t)((1.0 - keep) * (double)in.m + 0.5);
    }
    u->noc_lat = in.noc_lat;
    u->lls_rate = in.lls_rate;
    u->bratio = in.m ? (double)in.m_b / (double)in.m : 0.0;
    uint64_t cong_only = u->maw.congestion_only;
    u->step = (uint64_t)maw_period(&u->maw, &in);
    c->congestion_only += u->maw.congestion_only - cong_only;
    u->dir = (uint64_t)u->maw.dir;
    c->steps[u->step]++;
    c->periods++;
    c->timeouts += (uint64_t)(m < (uint64_t)c->cfg.period);
    c->period_loads += m;
    c->period_bypasses += bypasses - u->byp0;
    u->loads0 = loads;
    u->byp0 = bypasses;
    u->start = cycle;
    return 1;
}

/* MAW x cycles since the last poll (n units). */
static void integrate(cbwt_ctl *c, uint64_t maw_sum, int n, uint64_t cycle)
{
    if (cycle <= c->last_cycle) return;
    c->maw_cycles += maw_sum * (cycle - c->last_cycle);
    c->cycles += (uint64_t)n * (cycle - c->last_cycle);
    c->last_cycle = cycle;
}

int cbwt_ctl_poll(cbwt_ctl *c, uint64_t loads, uint64_t bypasses, uint64_t cycle)
{
    integrate(c, (uint64_t)c->g.maw.maw, 1, cycle);
    return unit_poll(c, &c->g, -1, loads, bypasses, cycle);
}

int cbwt_ctl_poll_cores(cbwt_ctl *c, const uint64_t *loads, const uint64_t *bypasses, uint64_t cycle)
{
    if (!c->core) return 0;
    uint64_t sum = 0;
    for (int i = 0; i < c->n_sms; i++) sum += (uint64_t)c->core[i].maw.maw;
    integrate(c, sum, c->n_sms, cycle);
    int closed = 0;
    for (int i = 0; i < c->n_sms; i++) closed += unit_poll(c, &c->core[i], i, loads[i], bypasses[i], cycle);
    return closed;
}
