// One interconnect network: the C crossbar core plus the packets that arrived from other blocks
// but are not visible yet.
//
// Why the staging: an input arriving at time t is visible from the first icnt edge strictly
// after t (clock_domain.h). If it went straight into the crossbar, a tick at t itself would move
// it or not depending on whether SystemC ran the sender's or the interconnect's method first at
// t. Staged packets enter the crossbar at the start of the tick of their visible edge instead.
// Their flits are reserved in the input buffer from arrival on, so admitting them never fails.
#ifndef GTLM_TLM_ICNT_NET_H
#define GTLM_TLM_ICNT_NET_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" {
#include "cbwt/noc_sampler.h"
#include "noc/xbar.h"
}

namespace gtlm {

class IcntNet {
public:
    // Throws std::invalid_argument when the crossbar rejects the parameters.
    IcntNet(const noc_config &cfg, int n_in, int n_out);
    ~IcntNet();
    IcntNet(const IcntNet &) = delete;
    IcntNet &operator=(const IcntNet &) = delete;

    int flits_of(uint32_t bytes) const { return xbar_flits_of(&x_, bytes); }
    // Whether a packet this large can cross at all (it must fit both buffers).
    bool can_ever_fit(uint32_t bytes) const;
    // Whether input `in` has room now for the packet, counting the flits staged there.
    bool fits(int in, uint32_t bytes) const;
    // Queues a packet that fits, to enter the crossbar at edge `visible`. `queued`: the edge it
    // entered its sender's queue (CBWT's sampler counts from there when earlier), or kNever.
    void stage(int in, int out, uint32_t bytes, uint64_t cookie, uint64_t visible, uint64_t queued = ~uint64_t{0});
    // The tick of edge `now`: staged packets visible by now enter, then the crossbar moves flits.
    void tick(uint64_t now);

    bool peek(int out, uint64_t now, xbar_pkt *pkt) const { return xbar_peek(&x_, out, now, pkt) != 0; }
    bool pop(int out, uint64_t now, xbar_pkt *pkt) { return xbar_pop(&x_, out, now, pkt) != 0; }
    // CBWT: every packet leaving this network is offered to the sampler (null: none) right after
    // its pop, with its direction (NOC_DIR_*) and its SM (the sender of a request, the receiver of
    // a reply), and its latency from its first offer at the input (a refused packet's wait
    // included) to its ejection (pop: a wait for the destination included), spec 3.4 / gap G12.
    void set_sampler(noc_sampler *s) { sampler_ = s; }
    void record(const xbar_pkt &p, uint64_t now, int dir, int sm)
    {
        if (sampler_) sample(p, now, dir, sm);
    }
    // A packet was refused at input `in` at edge `cycle` (it is offered again later).
    void refused(int in, uint64_t cycle)
    {
        if (refused_since_[static_cast<size_t>(in)] == kNoRefusal) refused_since_[static_cast<size_t>(in)] = cycle;
    }
    // The cycle the packet at the head of `out` is (or was) ready; kNever while none is complete.
    uint64_t head_ready(int out) const;
    // The first output in [from, end) holding a packet (crossing or ready), or end.
    int next_held_out(int from, int end) const { return xbar_bit_next(x_.out_held, from, end); }
    // First cycle >= now at which inputs need a tick (staged packets, flits to move).
    uint64_t input_work(uint64_t now) const;
    bool idle() const;

    int n_in() const { return x_.p.n_in; }
    int n_out() const { return x_.p.n_out; }
    int staged_flits(int in) const { return staged_flits_[in]; }
    const xbar &core() const { return x_; }
    // One line with the crossbar's occupancy when the network is not idle.
    void describe(const std::string &name, std::string &out) const;

private:
    struct Staged {
        uint64_t cookie, visible;
        uint32_t bytes;
        int out;
    };
    xbar x_;
    // Per input, a ring of in_buffer_limit entries (a packet has at least one flit).
    std::vector<Staged> staged_;
    std::vector<int> head_, count_, staged_flits_;
    int staged_total_ = 0;
    std::vector<uint64_t> staged_in_; // one bit per input with count_ > 0 (xbar_bit_next order)
    // CBWT's sampler: first-offer edge of each packet in the network (only with a sampler)
    static constexpr uint64_t kNoRefusal = ~0ull;
    void sample(const xbar_pkt &p, uint64_t now, int dir, int sm);
    noc_sampler *sampler_ = nullptr;
    std::vector<uint64_t> refused_since_; // per input: the held packet's first refusal
    std::unordered_map<uint64_t, uint64_t> offered_;
};

} // namespace gtlm

#endif
