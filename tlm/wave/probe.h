// Observables for waveforms: what a module offers to the VCD tracer. Each module lists its probes
// once (observe()); the tracer keeps the ones -vcd_signals selects and reads them on the core clock.
//
// Kinds:
//   Level  a value the unit holds (warps, queue depth, open row, or a cumulative counter): the
//          signal is the value after the cycle's ticks.
//   Pulse  an event count: the getter returns the unit's cumulative counter, the signal shows how
//          many events happened in the cycle (1 for a single event) and falls back to 0 at the next
//          core edge. The matching cumulative counter is usually offered as a Level too, so
//          counts can be read off the waveform exactly.
#ifndef GTLM_TLM_WAVE_PROBE_H
#define GTLM_TLM_WAVE_PROBE_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gtlm {

struct Probe {
    enum Kind { Level, Pulse };
    std::string name; // hierarchical, e.g. gpu.sm[0].l1d.misses
    int width;        // bits in the VCD
    Kind kind;
    std::function<uint64_t()> get;
};

class ProbeList {
public:
    explicit ProbeList(std::string prefix = "") : prefix_(std::move(prefix)) {}
    void level(const std::string &leaf, int width, std::function<uint64_t()> get)
    {
        all_.push_back({prefix_ + leaf, width, Probe::Level, std::move(get)});
    }
    void pulse(const std::string &leaf, int width, std::function<uint64_t()> get)
    {
        all_.push_back({prefix_ + leaf, width, Probe::Pulse, std::move(get)});
    }
    // A scope below this one (same list).
    ProbeList &scope(const std::string &prefix) { prefix_ = prefix; return *this; }
    std::vector<Probe> &all() { return all_; }

private:
    std::string prefix_;
    std::vector<Probe> all_;
};

} // namespace gtlm

#endif
