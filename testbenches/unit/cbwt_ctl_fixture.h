// The controller parameters the CBWT controller unit tests share: T_w 10, 5% NoC-gradient and
// LLS thresholds, 100-load periods with a 1000-cycle timeout, set 0 of each L2 slice sampled,
// every NoC packet sampled.
#ifndef GTLM_TEST_CBWT_CTL_FIXTURE_H
#define GTLM_TEST_CBWT_CTL_FIXTURE_H

extern "C" {
#include "../../model/cbwt/cbwt_config.h"
}

inline cbwt_config cbwt_ctl_test_cfg(int scope = CBWT_SCOPE_GLOBAL)
{
    cbwt_config cfg{};
    cfg.t_w = 10;
    cfg.t_noc_g = 0.05;
    cfg.t_lls = 0.05;
    cfg.coarse_up = 1;
    cfg.period = 100;
    cfg.timeout = 1000;
    cfg.l2_sample = 64;
    cfg.l2_share = 1;
    cfg.noc_sample = 1;
    cfg.maw_scope = scope;
    return cfg;
}

#endif
