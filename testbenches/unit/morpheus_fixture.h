// The extended-LLC server's parameters the Morpheus unit tests share: the document's storage
// (RF + L1 of 48-warp SMs) and service times, as configs/rtx3080-morpheus.config sets them.
#ifndef GTLM_TEST_MORPHEUS_FIXTURE_H
#define GTLM_TEST_MORPHEUS_FIXTURE_H

extern "C" {
#include "llc/llc_config.h"
}

inline llc_config morpheus_server_defaults()
{
    llc_config c{};
    c.storage = LLC_ST_RF_L1;
    c.warps = 48;
    c.rf_warps = 32;
    c.aux_regs = 9;
    c.l1_warp_regs = 6;
    c.l1_kib = 128;
    c.smem_kib = 100;
    c.svc_tag_ns = 103;
    c.svc_move_ns = 31;
    c.svc_store_ns = 51;
    return c;
}

#endif
