// The interconnect between the SMs and the L2 slices (memory sub-partitions): a SystemC shell
// around the crossbar core of model/noc/xbar.h, ticked by the icnt clock domain.
//
//   SM i ──► from_sm[i] ─► request network ─► to_l2[j] ──► L2 slice j   (j = mem_ext(gp).dst)
//   SM i ◄── from_sm[i] ◄─ response network ◄─ to_l2[j] ◄── L2 slice j  (i = mem_ext(gp).sm)
//
// -icnt_subnets 2: two crossbars, n_sms x n_subparts for requests and n_subparts x n_sms for
// responses. -icnt_subnets 1: one (n_sms + n_subparts)-port crossbar carries both directions;
// SM i is port i and slice j is port n_sms + j on both sides, so both directions compete for the
// same input/output buffers and arbiters.
//
// Back-pressure: a packet that does not fit its input buffer is held in the link (END_REQ or
// END_RESP withheld) and retried at every edge. A packet ready at an output whose link is busy
// (the previous transaction not yet acknowledged) stays in the crossbar, where its output buffer
// slots back-pressure the inputs. An output hands over at most one packet per cycle.
//
// Packet sizes: mem_request_bytes / mem_response_bytes (8-byte header plus any data).
// Latency: a packet arriving at time t enters at the first edge after t, e; a lone packet of
// F flits leaves at edge e + F + icnt_latency.
#ifndef GTLM_TLM_ICNT_H
#define GTLM_TLM_ICNT_H

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "icnt/icnt_net.h"
#include "kernel/clock_domain.h"
#include "wave/probe.h"
#include "mem/at_port.h"

extern "C" {
#include "gpu/gpu_config.h"
#include "stats/stats.h"
}

namespace gtlm {

class Icnt : public sc_core::sc_module, public Tickable {
public:
    // Registers itself with `domain`, and its statistics under gpu.icnt. when stats is not null.
    // Throws std::invalid_argument for a bad port count or crossbar parameters and
    // std::runtime_error when the statistics cannot be registered.
    // ext_ports: the request network gets one more output per slice, the Morpheus controller's
    // ejection port (attach_ext); false: the crossbars are exactly the compute SMs'.
    Icnt(sc_core::sc_module_name name, const gtlm_config &cfg, ClockDomain &domain, int n_sms, int n_subparts,
         stat_registry *stats, bool ext_ports = false);

    std::vector<std::unique_ptr<AtTarget>> from_sm;  // SM i's requests in, its responses out
    std::vector<std::unique_ptr<AtInitiator>> to_l2; // requests out to slice j, its responses in

    void tick(uint64_t cycle) override;
    uint64_t next_work(uint64_t cycle) const override;
    void describe(std::string &out) const override;
    bool busy() const override;
    // Waveform observables (wave/probe.h), under its hierarchical name.
    void observe(ProbeList &out) const;

    // Counters (gpu.icnt.*). Packets, flits and latency are counted when a packet leaves the
    // interconnect; latency is ready_cycle - push_cycle in icnt cycles. stall_cycles: at each
    // tick, the number of ports still holding a refused packet after the retry (port-cycles a
    // request or response waited at the interconnect's entrance for input-buffer space).
    struct Counters {
        uint64_t packets = 0, flits = 0, latency_sum = 0, stall_cycles = 0;
    };
    const Counters &req_counters() const { return req_; }
    const Counters &rsp_counters() const { return rsp_; }

    // Morpheus (issue 21): the packets between the L2-side controllers and the cache-mode SMs cross
    // the same networks as the compute traffic (spec §3.1 steps 3-5, Fig. 6): a controller's packet
    // enters at its slice's input of the response network (in one FIFO with the slice's responses)
    // and leaves at the cache-mode SM's output; the warp's result enters at the SM's input of the
    // request network and leaves at the controller's own output of it (ext_ports), not the slice's:
    // a result queued behind compute requests the slice refuses while its controller waits for that
    // result would deadlock (a reply class must not wait behind requests; a real NoC gives it its own
    // virtual channel). Same flits, buffers, latency and arbitration as the compute packets. They are
    // told apart by gtlm_mem_ext kind ExtLlc and handed to the sinks when they leave, at the icnt
    // cycle of the pop. A packet whose input buffer is full waits in a FIFO at that input (retried
    // at every edge, after a held compute packet of the same port). Counted under gpu.icnt.ext.*.
    struct ExtSinks {
        std::function<void(Gp &, uint64_t)> at_sm, at_ctl;
    };
    void attach_ext(ExtSinks sinks, stat_registry *stats);
    void send_ext_to_sm(int slice, int sm, uint32_t bytes, Gp &gp);
    void send_ext_to_ctl(int sm, int slice, uint32_t bytes, Gp &gp);
    const Counters &ext_counters() const { return ext_; }

    bool shared_network() const { return rsp_net_ == req_net_; }
    // CBWT's congestion detector samples the packets of both networks (spec gap G12).
    void set_sampler(noc_sampler *s)
    {
        req_net_->set_sampler(s);
        rsp_net_->set_sampler(s);
    }

private:
    bool on_request(int sm, Gp &gp, const sc_core::sc_time &arrival);
    bool on_response(int slice, Gp &gp, const sc_core::sc_time &arrival);
    // Stages a packet at the cycle it becomes visible; false when it does not fit now.
    bool enter(IcntNet &net, int in, int out, uint32_t bytes, Gp &gp, const sc_core::sc_time &arrival);
    void deliver(uint64_t cycle);
    void retry_held();
    struct ExtWait {
        Gp *gp;
        int out;
        uint32_t bytes;
    };
    // Morpheus packets: one FIFO per input port of a network (refused for lack of buffer space).
    void send_ext(IcntNet &net, std::vector<std::deque<ExtWait>> &waits, int in, int out, uint32_t bytes, Gp &gp);
    void retry_ext(IcntNet &net, std::vector<std::deque<ExtWait>> &waits, Counters &c);
    // The packet at the head of `out` (crossing or ready) is a Morpheus packet.
    bool head_is_ext(const IcntNet &net, int out) const;
    // Pops a ready Morpheus packet at `out` to its sink; false when the head is not one.
    bool deliver_ext(IcntNet &net, int out, uint64_t cycle, int dir);
    void register_stats(stat_registry *r);

    // Port numbers in the crossbars.
    int req_in(int sm) const { return sm; }
    int req_out(int slice) const { return out_base_ + slice; }
    int ext_out(int slice) const { return out_base_ + n_subparts_ + slice; } // the controller's port
    int rsp_in(int slice) const { return in_base_ + slice; }
    int rsp_out(int sm) const { return sm; }

    ClockDomain &domain_;
    bool src_queue_; // -cbwt_noc_src_queue: sampled latency from the sender's queue entry
    int n_sms_, n_subparts_;
    int in_base_, out_base_; // n_sms when the network is shared, else 0
    int n_ext_out_;          // the controllers' outputs of the request network (0 without ext_ports)
    std::vector<std::unique_ptr<IcntNet>> nets_;
    IcntNet *req_net_, *rsp_net_;
    Counters req_, rsp_;
    // One bit per SM port holding a refused request and per slice port holding a refused
    // response (set at the refusal, cleared when a retry is taken), so that retries and
    // next_work visit only those ports.
    std::vector<uint64_t> held_req_, held_rsp_;
    // Morpheus (attach_ext): null sinks when off, and then nothing above changes.
    std::unique_ptr<ExtSinks> ext_sinks_;
    Counters ext_;
    std::vector<std::deque<ExtWait>> ext_wait_req_, ext_wait_rsp_; // per input port of each network
    size_t ext_waiting_ = 0;
};

} // namespace gtlm

#endif
