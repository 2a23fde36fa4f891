// VCD waveforms through SystemC tracing (sc_trace into an sc_trace_file).
//
// The tracer owns one variable per selected probe and is the only writer of those variables, so
// SystemC records exactly the values it samples. Sampling: the GPU's EdgeRunner calls sample()
// after the domains due at time t ticked, i.e. every value is the one the units hold after edge t.
// Between ticks nothing changes, so values hold across skipped (idle) cycles by construction.
// Levels are read at every run; pulses at core edges only (one core cycle wide). A pulse falls at
// the next core edge: the tracer asks the runner for that edge only when some domain already has
// work at or after it, so it never extends the simulation, and the runner ticks domains in a fixed
// order whatever else is scheduled: statistics are identical with VCD on and off. (At the very
// end of a kernel a pulse may therefore stay up until the next kernel's first cycle.)
//
// Window: samples are taken for core cycles in [start, end) (end 0: no end). Time unit 1 fs
// (clock periods are not whole picoseconds); GTKWave shows times in ns.
#ifndef GTLM_TLM_WAVE_VCD_TRACER_H
#define GTLM_TLM_WAVE_VCD_TRACER_H

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <systemc>

#include "kernel/clock_domain.h"
#include "kernel/edge_runner.h"
#include "wave/probe.h"

namespace gtlm {

class VcdTracer : public sc_core::sc_module {
public:
    // path: the VCD file (".vcd" is added when missing); patterns: -vcd_signals. Throws
    // Error(GTLM_ST_EIO) when the file cannot be created.
    VcdTracer(sc_core::sc_module_name name, const std::string &path, const std::string &patterns, uint64_t start,
              uint64_t end, const ClockDomain &core, std::vector<const ClockDomain *> domains, EdgeRunner &runner);
    ~VcdTracer() override;

    // Keeps the probes the patterns select and traces them (before the simulation starts).
    void add(std::vector<Probe> &&probes);
    size_t n_signals() const { return sigs_.size(); }

    // The runner ran at the current time: the units due now have ticked.
    void sample();
    // The statistics counters were just reset (kernel start): pulses count from zero again.
    void kernel_begin();

private:
    struct Sig {
        Probe p;
        uint64_t value = 0; // traced
        uint64_t last = 0;  // Pulse: the counter at the previous sample
        uint64_t mask = 0;
    };
    void schedule_reset(uint64_t cycle);

    const ClockDomain &core_;
    std::vector<const ClockDomain *> domains_;
    std::string patterns_;
    uint64_t start_, end_;
    sc_core::sc_trace_file *tf_ = nullptr;
    std::deque<Sig> sigs_; // stable addresses: sc_trace keeps references
    std::vector<Sig *> pulses_;
    EdgeRunner &runner_;
    uint64_t reset_at_ = kNever; // core edge already asked for
};

} // namespace gtlm

#endif
