// The GPU's top SystemC module. It owns the clock domains now; the SMs, interconnect,
// L2 slices and DRAM channels are added under it by the baseline timing model.
#ifndef GTLM_TLM_GPU_TOP_H
#define GTLM_TLM_GPU_TOP_H

#include <systemc>

extern "C" {
#include "gpu/gpu_config.h"
#include "log/log.h"
}

namespace gtlm {

class Gpu : public sc_core::sc_module {
public:
    Gpu(sc_core::sc_module_name name, const gtlm_config &cfg, const log_sink &log);

    // Clock periods of the four domains, from -gpgpu_clock_domains.
    const sc_core::sc_time &core_period() const { return core_period_; }
    const sc_core::sc_time &icnt_period() const { return icnt_period_; }
    const sc_core::sc_time &l2_period() const { return l2_period_; }
    const sc_core::sc_time &dram_period() const { return dram_period_; }

private:
    const gtlm_config &cfg_;
    logger log_;
    sc_core::sc_time core_period_, icnt_period_, l2_period_, dram_period_;
};

} // namespace gtlm

#endif
