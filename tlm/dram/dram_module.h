// One DRAM channel as a SystemC module: TLM-2.0 AT targets toward the channel's L2 slices around
// the C memory controller of model/dram/dram_channel.h, ticked by the DRAM clock domain.
//
// Ports: from_l2[p], one per sub-partition of the channel (the slice with global index s uses
// port s % n_ports). A request (payload address, read/write command, data length = bytes) is
// pushed into the channel's latency queue at the DRAM edge after its arrival; when that queue is
// full the port holds it (END_REQ withheld) and takes it at a later edge, ports in round-robin order.
// Every request gets a response (writes too), status OK, on the port it came from. Responses leave
// the return queue in completion order, one per DRAM cycle (GPGPU-Sim moves one per cycle too);
// while the head's port waits for END_RESP, later responses wait behind it.
//
// Statistics under gpu.dram[channel].: reads, writes, row_hits, row_misses, row_conflicts,
// activates, precharges, bus_busy_cycles, cycles, completed, latency_sum, sched_wait_cycles,
// return_full_cycles, held_requests, and the derived bandwidth_utilization (bus_busy_cycles /
// cycles) and avg_latency (latency_sum / completed: DRAM cycles from arrival to the response
// being ready, -dram_latency included).
#ifndef GTLM_TLM_DRAM_MODULE_H
#define GTLM_TLM_DRAM_MODULE_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "kernel/clock_domain.h"
#include "wave/probe.h"
#include "mem/at_port.h"

extern "C" {
#include "dram/dram_channel.h"
#include "gpu/gpu_config.h"
#include "stats/stats.h"
}

namespace gtlm {

class DramChannel : public sc_core::sc_module, public Tickable {
public:
    // Registers the statistics in stats (may be null); adds itself to dram_domain.
    DramChannel(sc_core::sc_module_name name, const gtlm_config &cfg, ClockDomain &dram_domain, int channel,
                int n_ports, stat_registry *stats);
    ~DramChannel() override;

    std::vector<std::unique_ptr<AtTarget>> from_l2;

    void tick(uint64_t cycle) override;
    uint64_t next_work(uint64_t cycle) const override;
    void describe(std::string &out) const override;
    bool busy() const override;
    // Waveform observables (wave/probe.h), under its hierarchical name.
    void observe(ProbeList &out) const;

    // Brings the `cycles` statistic up to the current DRAM cycle. Ticks do this on their own;
    // call it just before stat_kernel_begin and stat_kernel_end so that idle stretches at a
    // kernel's edges land in the right kernel.
    void sync_cycles();

    const dram_channel &core() const { return ch_; }
    int channel() const { return channel_; }

private:
    struct Pending { // a request inside the C channel
        Gp *gp;
        int port;
    };
    bool on_request(int port, Gp &gp, const sc_core::sc_time &arrival);
    void on_resp_ready(int port);
    void send_response(uint64_t cycle);
    void take_held(uint64_t cycle);
    void count_cycles(uint64_t cycle);
    void register_stats(stat_registry *r);

    ClockDomain &domain_;
    int channel_;
    dram_channel ch_{};
    std::vector<Pending> pending_; // indexed by cookie; free entries listed in free_
    std::vector<uint32_t> free_;
    int rr_ = 0;                   // first port offered a slot for a held request
    uint64_t last_cycle_ = 0;      // `cycles` counted up to here
    uint64_t cycles_ = 0, held_requests_ = 0;
};

// Peak DRAM data bandwidth of the whole GPU in GB/s (1e9 B/s): -gpgpu_n_mem channels times one
// channel's dram_peak_bandwidth_gbps at the DRAM command clock.
double dram_channel_peak_gbps(const gtlm_config &cfg);

} // namespace gtlm

#endif
