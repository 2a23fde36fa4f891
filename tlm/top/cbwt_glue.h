// CBWT's GPU-wide wiring (issue 19; model/cbwt/cbwt_ctl.h): the victim-bit detectors on every L2
// slice, the NoC latency sampler on both networks, and the MAW controller, polled after every
// core tick with the sampler L1's (SM 0) load and bypass counts; a closed period broadcasts the
// new MAW to every scheduler of every SM (-cbwt_ctrl 1). With -cbwt_stats 1 alone the detectors
// only count (statistics gpu.cbwt.*, gpu.l2[j].cbwt.*), nothing is throttled. With
// -cbwt_maw_scope core every SM's controller is polled on its own L1's counts and sets the MAW of
// that SM only.
#ifndef GTLM_TLM_CBWT_GLUE_H
#define GTLM_TLM_CBWT_GLUE_H

#include <cstdint>
#include <vector>

extern "C" {
#include "cbwt/cbwt_ctl.h"
#include "cbwt/cbwt_l2.h"
#include "gpu/gpu_config.h"
#include "stats/stats.h"
}

#include "wave/probe.h"

namespace gtlm {

class Gpu;

class CbwtGlue {
public:
    // Throws std::runtime_error when the detectors cannot be built.
    CbwtGlue(const gtlm_config &cfg, Gpu &gpu, stat_registry *stats);
    ~CbwtGlue();
    CbwtGlue(const CbwtGlue &) = delete;
    CbwtGlue &operator=(const CbwtGlue &) = delete;

    void kernel_begin(uint64_t cycle);
    void poll(uint64_t cycle); // after every core tick of a running kernel
    void observe(ProbeList &out) const;
    const cbwt_ctl &ctl() const { return ctl_; }
    // The controller the time series and waveform show: the GPU's, or SM 0's in core scope.
    const cbwt_unit &shown() const { return ctl_.core ? ctl_.core[0] : ctl_.g; }
    bool controls() const { return ctrl_; }

private:
    void sampler_counts(uint64_t &loads, uint64_t &bypasses) const { l1_counts(0, loads, bypasses); }
    void l1_counts(int sm, uint64_t &loads, uint64_t &bypasses) const;
    void broadcast(uint32_t maw);
    void poll_cores(uint64_t cycle);
    void register_stats(stat_registry *r);
    Gpu &gpu_;
    void set_bypass_gate(bool open);
    bool ctrl_;
    bool gate_; // -cbwt_lls_gate
    cbwt_ctl ctl_{};
    std::vector<cbwt_l2> l2_;
    std::vector<uint64_t> loads_, byp_; // core scope: each SM's L1 counts of this poll
    std::vector<uint64_t> periods_;     // core scope: each SM controller's periods already applied
};

} // namespace gtlm

#endif
