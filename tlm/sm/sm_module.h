// One SM as a SystemC module: the C core model/sm/sm_core ticked by the core clock domain, with
// an AT initiator socket towards the interconnect (sm2icnt_req; responses come back on it).
#ifndef GTLM_TLM_SM_MODULE_H
#define GTLM_TLM_SM_MODULE_H

#include <functional>
#include <string>

#include <systemc>

extern "C" {
#include "sm/sm_core.h"
#include "stats/stats.h"
}

#include "kernel/clock_domain.h"
#include "wave/probe.h"
#include "mem/at_port.h"
#include "mem/payload_pool.h"

namespace gtlm {

class SmModule : public sc_core::sc_module, public Tickable {
public:
    // route: memory sub-partition of an address (the interconnect destination).
    SmModule(sc_core::sc_module_name name, const gtlm_config &cfg, ClockDomain &domain, int id, stat_registry *stats,
             std::function<uint32_t(uint64_t)> route);
    ~SmModule() override;

    AtInitiator sm2icnt;
    sm_core &core() { return core_; }
    const sm_core &core() const { return core_; }

    void tick(uint64_t cycle) override;
    // -gtlm_threads: the core model's tick (in parallel; its memory accesses wait for the SMs
    // before it in the edge's order), then the send towards the interconnect (in SM order).
    bool splits_tick() const override { return true; }
    void tick_local(uint64_t cycle, size_t order) override;
    void tick_commit(uint64_t cycle) override;
    uint64_t next_work(uint64_t cycle) const override;
    void describe(std::string &out) const override;
    bool busy() const override { return !sm_core_idle(&core_); }
    // Waveform observables (wave/probe.h), under its hierarchical name.
    void observe(ProbeList &out) const;

private:
    bool on_response(Gp &gp, const sc_core::sc_time &arrival);
    void register_stats(stat_registry *r);
    sm_core core_{};
    ClockDomain &domain_;
    std::function<uint32_t(uint64_t)> route_;
    PayloadPool pool_;
    size_t order_ = 0; // position among the SMs ticked in parallel at the current edge
};

} // namespace gtlm

#endif
