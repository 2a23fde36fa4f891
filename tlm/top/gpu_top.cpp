#include "gpu_top.h"

namespace gtlm {

namespace {
sc_core::sc_time period_of(double mhz) { return sc_core::sc_time(1e6 / mhz, sc_core::SC_PS); }
} // namespace

Gpu::Gpu(sc_core::sc_module_name name, const gtlm_config &cfg, const log_sink &log)
    : sc_core::sc_module(name), cfg_(cfg), core_period_(period_of(cfg.gpu.clocks.core_mhz)),
      icnt_period_(period_of(cfg.gpu.clocks.icnt_mhz)), l2_period_(period_of(cfg.gpu.clocks.l2_mhz)),
      dram_period_(period_of(cfg.gpu.clocks.dram_mhz))
{
    logger_init(&log_, &log, "gpu");
    LOG_I(&log_, "%d SMs, %d memory channels x %d L2 slices, core clock %s", gtlm_config_n_sms(&cfg_),
          cfg_.gpu.n_mem, cfg_.gpu.sub_partitions_per_channel, core_period_.to_string().c_str());
}

} // namespace gtlm
