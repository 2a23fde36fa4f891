// Time-series statistics: every -stats_interval core cycles, and at each kernel's end, one CSV row
// per unit (the GPU, each SM, each L2 slice, each DRAM channel, the crossbar) with the interval's
// key figures. Counts are deltas over the interval, so the rows of a kernel sum to its totals;
// occupancies (MSHRs, warps) are sampled at the row's cycle.
//
// Columns: cycle, unit, kernel (index of the kernel in the run), then warp_insn, ipc (warp
// instructions per core cycle), l1_accesses, l1_hit_rate, l2_accesses, l2_hit_rate,
// mshr_occupancy, active_warps, dram_bw_util (share of data-bus cycles), icnt_latency (average
// crossbar latency of the interval's packets, interconnect cycles), power_w (the unit's average
// power over the interval, dynamic and leakage, W: docs/power.md; the gpu row is their sum). A
// figure a unit does not have is empty.
#ifndef GTLM_TLM_TIMESERIES_H
#define GTLM_TLM_TIMESERIES_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace gtlm {

class Gpu;

class TimeSeries {
public:
    TimeSeries() = default;
    ~TimeSeries();
    TimeSeries(const TimeSeries &) = delete;
    TimeSeries &operator=(const TimeSeries &) = delete;

    // Opens (truncates) the file and writes the header; throws Error(GTLM_ST_EIO) on failure.
    // cbwt: add CBWT's columns (maw, pd, bypass_ratio, noc_lat_sampled, lls_rate, cbwt_dir,
    // cbwt_step: the controller's last period, on the gpu row only).
    void open(const std::string &path, uint64_t interval, bool cbwt = false);
    bool enabled() const { return f_ != nullptr; }
    // A kernel starts at core cycle `start` (statistics were just reset).
    void begin_kernel(const Gpu &gpu, uint64_t start);
    // Called with the current core cycle after every tick: writes the rows of every interval
    // boundary passed since the last call.
    void advance(const Gpu &gpu, uint64_t now);
    // The kernel ended at core cycle `end` (exclusive): the partial interval's rows.
    void end_kernel(const Gpu &gpu, uint64_t end);

private:
    struct Snap { // cumulative counters of one unit at the last row
        uint64_t insn = 0, l1_acc = 0, l1_hit = 0, l2_acc = 0, l2_hit = 0, busy = 0, pkts = 0, lat = 0;
        double energy = 0; // J since the kernel started
    };
    // The unit's average power (W) over the interval ending at `cycle`; updates its snapshot.
    double power(const Gpu &gpu, Snap &snap, char which, int index, uint64_t cycle, uint64_t span);
    void rows(const Gpu &gpu, uint64_t cycle, uint64_t span);
    std::FILE *f_ = nullptr;
    uint64_t interval_ = 0, next_ = 0, last_ = 0, kernel_ = 0, start_ = 0;
    bool in_kernel_ = false;
    bool cbwt_ = false;
    std::vector<Snap> snaps_;
};

} // namespace gtlm

#endif
