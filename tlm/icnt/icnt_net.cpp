#include "icnt/icnt_net.h"

#include <stdexcept>

#include "kernel/clock_domain.h"

namespace gtlm {

IcntNet::IcntNet(const noc_config &cfg, int n_in, int n_out)
{
    xbar_params p;
    xbar_params_from_config(&cfg, n_in, n_out, &p);
    if (xbar_init(&x_, &p) != 0)
        throw std::invalid_argument("icnt: crossbar parameters rejected (ports " + std::to_string(n_in) + "x" +
                                    std::to_string(n_out) + ", buffers " + std::to_string(p.in_buffer_limit) +
                                    "/" + std::to_string(p.out_buffer_limit) + " flits)");
    staged_.resize(static_cast<size_t>(n_in) * static_cast<size_t>(p.in_buffer_limit));
    head_.assign(n_in, 0);
    count_.assign(n_in, 0);
    staged_flits_.assign(n_in, 0);
    staged_in_.assign((static_cast<size_t>(n_in) + 63) / 64, 0);
    refused_since_.assign(static_cast<size_t>(n_in), kNoRefusal);
}

IcntNet::~IcntNet() { xbar_free(&x_); }

// The LFSR picks the samplers as packets leave (the choice is independent of the packet).
void IcntNet::sample(const xbar_pkt &p, uint64_t now, int dir, int sm)
{
    uint64_t from = p.push_cycle;
    auto it = offered_.find(p.cookie);
    if (it != offered_.end()) {
        from = it->second;
        offered_.erase(it);
    }
    noc_sampler_record(sampler_, noc_sampler_pick(sampler_), now - from, dir, sm);
}

bool IcntNet::can_ever_fit(uint32_t bytes) const
{
    int f = flits_of(bytes);
    return f <= x_.p.in_buffer_limit && f <= x_.p.out_buffer_limit;
}

bool IcntNet::fits(int in, uint32_t bytes) const
{
    return can_ever_fit(bytes) && x_.in[in].used + staged_flits_[in] + flits_of(bytes) <= x_.p.in_buffer_limit;
}

void IcntNet::stage(int in, int out, uint32_t bytes, uint64_t cookie, uint64_t visible, uint64_t queued)
{
    int cap = x_.p.in_buffer_limit;
    // fits() held, so the ring (one entry per reserved flit at most) has room.
    Staged &s = staged_[static_cast<size_t>(in) * cap + (head_[in] + count_[in]) % cap];
    s = Staged{cookie, visible, bytes, out};
    uint64_t &since = refused_since_[static_cast<size_t>(in)];
    if (sampler_) {
        uint64_t first = since != kNoRefusal && since < visible ? since : visible;
        offered_[cookie] = queued < first ? queued : first;
    }
    since = kNoRefusal;
    count_[in]++;
    staged_in_[static_cast<size_t>(in) >> 6] |= uint64_t{1} << (in & 63);
    staged_flits_[in] += flits_of(bytes);
    staged_total_++;
}

void IcntNet::tick(uint64_t now)
{
    int cap = x_.p.in_buffer_limit, n = x_.p.n_in;
    for (int in = xbar_bit_next(staged_in_.data(), 0, n); staged_total_ > 0 && in < n;
         in = xbar_bit_next(staged_in_.data(), in + 1, n)) {
        while (count_[in] > 0) {
            const Staged &s = staged_[static_cast<size_t>(in) * cap + head_[in]];
            if (s.visible > now) break; // arrivals of one input are staged in time order
            // The push is stamped with the visible edge: latency counts from there.
            if (xbar_push(&x_, in, s.out, s.bytes, s.cookie, s.visible) != 0)
                throw std::logic_error("icnt: a staged packet did not fit its reserved space");
            staged_flits_[in] -= flits_of(s.bytes);
            head_[in] = (head_[in] + 1) % cap;
            staged_total_--;
            if (--count_[in] == 0) staged_in_[static_cast<size_t>(in) >> 6] &= ~(uint64_t{1} << (in & 63));
        }
    }
    xbar_tick(&x_, now);
}

uint64_t IcntNet::head_ready(int out) const
{
    xbar_pkt p;
    // Peeking at the far future tells the head's ready cycle once its tail has crossed.
    return xbar_peek(&x_, out, XBAR_NEVER - 1, &p) ? p.ready_cycle : kNever;
}

uint64_t IcntNet::input_work(uint64_t now) const
{
    if (x_.queued_flits > 0) return now;
    uint64_t best = kNever;
    int cap = x_.p.in_buffer_limit, n = x_.p.n_in;
    for (int in = xbar_bit_next(staged_in_.data(), 0, n); staged_total_ > 0 && in < n;
         in = xbar_bit_next(staged_in_.data(), in + 1, n)) {
        uint64_t v = staged_[static_cast<size_t>(in) * cap + head_[in]].visible;
        if (v < best) best = v;
    }
    return best < now ? now : best;
}

bool IcntNet::idle() const { return staged_total_ == 0 && xbar_is_idle(&x_); }

void IcntNet::describe(const std::string &name, std::string &out) const
{
    if (idle()) return;
    out += name + ": " + std::to_string(x_.queued_flits) + " flits queued at inputs, " +
           std::to_string(x_.held_pkts) + " packets in output buffers, " + std::to_string(staged_total_) +
           " packets arriving\n";
}

} // namespace gtlm
