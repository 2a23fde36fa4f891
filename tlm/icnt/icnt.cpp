#include "icnt/icnt.h"

#include <algorithm>
#include <stdexcept>

#include "mem/payload_pool.h"

namespace gtlm {

namespace {

void bit_set(std::vector<uint64_t> &w, int i) { w[static_cast<size_t>(i) >> 6] |= uint64_t{1} << (i & 63); }
void bit_clear(std::vector<uint64_t> &w, int i) { w[static_cast<size_t>(i) >> 6] &= ~(uint64_t{1} << (i & 63)); }
bool any_bit(const std::vector<uint64_t> &w)
{
    for (uint64_t b : w)
        if (b) return true;
    return false;
}

uint64_t cookie_of(Gp &gp) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&gp)); }
Gp &payload_of(uint64_t cookie) { return *reinterpret_cast<Gp *>(static_cast<uintptr_t>(cookie)); }

const gtlm_mem_ext &ext_of(const Gp &gp, const char *what)
{
    const gtlm_mem_ext *e = gp.get_extension<gtlm_mem_ext>();
    if (!e) throw std::invalid_argument(std::string("icnt: ") + what + " without a gtlm_mem_ext extension");
    return *e;
}

} // namespace

Icnt::Icnt(sc_core::sc_module_name name, const gtlm_config &cfg, ClockDomain &domain, int n_sms, int n_subparts,
           stat_registry *stats, bool ext_ports)
    : sc_core::sc_module(name), domain_(domain), src_queue_(cfg.cbwt.noc_src_queue != 0), n_sms_(n_sms),
      n_subparts_(n_subparts), n_ext_out_(ext_ports ? n_subparts : 0)
{
    if (n_sms < 1 || n_subparts < 1)
        throw std::invalid_argument("icnt: needs at least one SM and one L2 slice");
    bool shared = cfg.noc.subnets == 1;
    noc_config noc = cfg.noc;
    noc.local_xbar = noc_local_xbar(&cfg.noc, cfg.gpu.gpgpusim_compat);
    in_base_ = out_base_ = shared ? n_sms : 0;
    if (shared) {
        nets_.push_back(std::make_unique<IcntNet>(noc, n_sms + n_subparts, n_sms + n_subparts + n_ext_out_));
        req_net_ = rsp_net_ = nets_[0].get();
    } else {
        nets_.push_back(std::make_unique<IcntNet>(noc, n_sms, n_subparts + n_ext_out_));
        nets_.push_back(std::make_unique<IcntNet>(noc, n_subparts, n_sms));
        req_net_ = nets_[0].get();
        rsp_net_ = nets_[1].get();
    }

    held_req_.assign((static_cast<size_t>(n_sms) + 63) / 64, 0);
    held_rsp_.assign((static_cast<size_t>(n_subparts) + 63) / 64, 0);
    for (int i = 0; i < n_sms; i++) {
        from_sm.push_back(std::make_unique<AtTarget>(("from_sm_" + std::to_string(i)).c_str()));
        from_sm[i]->on_request = [this, i](Gp &gp, const sc_core::sc_time &t) { return on_request(i, gp, t); };
        from_sm[i]->on_resp_ready = [this] { domain_.wake(this); };
    }
    for (int j = 0; j < n_subparts; j++) {
        to_l2.push_back(std::make_unique<AtInitiator>(("to_l2_" + std::to_string(j)).c_str()));
        to_l2[j]->on_response = [this, j](Gp &gp, const sc_core::sc_time &t) { return on_response(j, gp, t); };
        to_l2[j]->on_ready = [this] { domain_.wake(this); };
    }
    domain.add(this);
    if (stats) register_stats(stats);
}

bool Icnt::enter(IcntNet &net, int in, int out, uint32_t bytes, Gp &gp, const sc_core::sc_time &arrival)
{
    if (!net.can_ever_fit(bytes))
        throw std::runtime_error("icnt: a packet of " + std::to_string(net.flits_of(bytes)) +
                                 " flits can never fit the crossbar's buffers");
    if (!net.fits(in, bytes)) {
        net.refused(in, domain_.edge_at_or_after(arrival));
        return false;
    }
    uint64_t visible = std::max(domain_.next_edge(), domain_.edge_at_or_after(arrival));
    // CBWT's sampler may count from the packet's entry into its sender's queue instead
    uint64_t queued = kNever;
    const gtlm_mem_ext *e = gp.get_extension<gtlm_mem_ext>();
    if (src_queue_ && e && e->queued_at != gtlm_mem_ext::kNotQueued)
        queued = domain_.edge_at_or_after(sc_core::sc_time::from_value(e->queued_at));
    net.stage(in, out, bytes, cookie_of(gp), visible, queued);
    domain_.wake_at(visible, this);
    return true;
}

bool Icnt::on_request(int sm, Gp &gp, const sc_core::sc_time &arrival)
{
    const gtlm_mem_ext &e = ext_of(gp, "request");
    if (e.dst >= static_cast<uint32_t>(n_subparts_))
        throw std::invalid_argument("icnt: request from SM " + std::to_string(sm) + " to sub-partition " +
                                    std::to_string(e.dst) + " of " + std::to_string(n_subparts_));
    if (enter(*req_net_, req_in(sm), req_out(static_cast<int>(e.dst)), mem_request_bytes(gp), gp, arrival))
        return true;
    bit_set(held_req_, sm); // the port holds it until retry_held takes it
    return false;
}

bool Icnt::on_response(int slice, Gp &gp, const sc_core::sc_time &arrival)
{
    const gtlm_mem_ext &e = ext_of(gp, "response");
    if (e.sm >= static_cast<uint32_t>(n_sms_))
        throw std::invalid_argument("icnt: response from sub-partition " + std::to_string(slice) + " to SM " +
                                    std::to_string(e.sm) + " of " + std::to_string(n_sms_));
    if (enter(*rsp_net_, rsp_in(slice), rsp_out(static_cast<int>(e.sm)), mem_response_bytes(gp), gp, arrival))
        return true;
    bit_set(held_rsp_, slice);
    return false;
}

void Icnt::tick(uint64_t cycle)
{
    for (auto &n : nets_) n->tick(cycle);
    deliver(cycle);
    retry_held();
}

namespace {
void count(Icnt::Counters &c, const xbar_pkt &p)
{
    c.packets++;
    c.flits += p.flits;
    c.latency_sum += p.ready_cycle - p.push_cycle;
}
} // namespace

// Only outputs holding a packet are visited, in port order (as a loop over every port would).
void Icnt::deliver(uint64_t cycle)
{
    xbar_pkt p;
    int end = out_base_ + n_subparts_;
    for (int o = req_net_->next_held_out(out_base_, end); o < end; o = req_net_->next_held_out(o + 1, end)) {
        int j = o - out_base_;
        if (!to_l2[j]->can_send() || !req_net_->pop(o, cycle, &p)) continue;
        count(req_, p);
        Gp &gp = payload_of(p.cookie);
        gtlm_mem_ext &e = mem_ext(gp);
        req_net_->record(p, cycle, NOC_DIR_REQ, static_cast<int>(e.sm));
        e.queued_at = gtlm_mem_ext::kNotQueued; // the response's sender stamps its own queue entry
        to_l2[j]->send(gp);
    }
    int ext_end = end + n_ext_out_; // the controllers' outputs
    for (int o = req_net_->next_held_out(end, ext_end); o < ext_end; o = req_net_->next_held_out(o + 1, ext_end))
        deliver_ext(*req_net_, o, cycle, NOC_DIR_REQ);
    for (int i = rsp_net_->next_held_out(0, n_sms_); i < n_sms_; i = rsp_net_->next_held_out(i + 1, n_sms_)) {
        if (ext_sinks_ && deliver_ext(*rsp_net_, rsp_out(i), cycle, NOC_DIR_RSP)) continue;
        if (!from_sm[i]->can_respond() || !rsp_net_->pop(rsp_out(i), cycle, &p)) continue;
        count(rsp_, p);
        Gp &gp = payload_of(p.cookie);
        rsp_net_->record(p, cycle, NOC_DIR_RSP, i);
        from_sm[i]->respond(gp);
    }
}

void Icnt::retry_held()
{
    for (int i = xbar_bit_next(held_req_.data(), 0, n_sms_); i < n_sms_; i = xbar_bit_next(held_req_.data(), i + 1, n_sms_)) {
        bit_clear(held_req_, i); // before the retry: a refusal during it sets the bit again
        if (!from_sm[i]->take_held_request()) {
            bit_set(held_req_, i);
            req_.stall_cycles++;
        }
    }
    for (int j = xbar_bit_next(held_rsp_.data(), 0, n_subparts_); j < n_subparts_;
         j = xbar_bit_next(held_rsp_.data(), j + 1, n_subparts_)) {
        bit_clear(held_rsp_, j);
        if (!to_l2[j]->take_held_response()) {
            bit_set(held_rsp_, j);
            rsp_.stall_cycles++;
        }
    }
    if (ext_waiting_) {
        retry_ext(*req_net_, ext_wait_req_, ext_);
        retry_ext(*rsp_net_, ext_wait_rsp_, ext_);
    }
}

uint64_t Icnt::next_work(uint64_t cycle) const
{
    uint64_t w = kNever;
    for (const auto &n : nets_) w = std::min(w, n->input_work(cycle));
    if (w <= cycle) return cycle;
    // Refused packets are retried at every edge.
    if (any_bit(held_req_) || any_bit(held_rsp_) || ext_waiting_) return cycle;
    // A ready packet whose link is busy waits for on_ready / on_resp_ready, which wake the domain.
    int end = out_base_ + n_subparts_;
    for (int o = req_net_->next_held_out(out_base_, end); o < end; o = req_net_->next_held_out(o + 1, end))
        if (to_l2[o - out_base_]->can_send()) w = std::min(w, std::max(cycle, req_net_->head_ready(o)));
    for (int o = req_net_->next_held_out(end, end + n_ext_out_); o < end + n_ext_out_;
         o = req_net_->next_held_out(o + 1, end + n_ext_out_))
        w = std::min(w, std::max(cycle, req_net_->head_ready(o)));
    for (int i = rsp_net_->next_held_out(0, n_sms_); i < n_sms_; i = rsp_net_->next_held_out(i + 1, n_sms_))
        if (from_sm[i]->can_respond() || (ext_sinks_ && head_is_ext(*rsp_net_, rsp_out(i))))
            w = std::min(w, std::max(cycle, rsp_net_->head_ready(rsp_out(i))));
    return w;
}

bool Icnt::busy() const
{
    for (const auto &n : nets_)
        if (!n->idle()) return true;
    for (const auto &t : from_sm)
        if (t->holds_request()) return true;
    for (const auto &t : to_l2)
        if (t->holds_response()) return true;
    return ext_waiting_ > 0;
}

void Icnt::describe(std::string &out) const
{
    std::string me = name();
    if (shared_network()) {
        req_net_->describe(me + ".net", out);
    } else {
        req_net_->describe(me + ".req_net", out);
        rsp_net_->describe(me + ".rsp_net", out);
    }
    for (int i = 0; i < n_sms_; i++) {
        std::string port = me + ".from_sm[" + std::to_string(i) + "]: ";
        if (from_sm[i]->holds_request()) out += port + "request held (input buffer full)\n";
        if (!from_sm[i]->can_respond()) out += port + "response sent, END_RESP awaited\n";
    }
    for (int j = 0; j < n_subparts_; j++) {
        std::string port = me + ".to_l2[" + std::to_string(j) + "]: ";
        if (to_l2[j]->holds_response()) out += port + "response held (input buffer full)\n";
        if (!to_l2[j]->can_send()) out += port + "request sent, END_REQ awaited\n";
    }
    if (ext_waiting_) out += me + ": " + std::to_string(ext_waiting_) + " Morpheus packets wait for input-buffer space\n";
}

// ---- Morpheus packets (attach_ext) ----

void Icnt::attach_ext(ExtSinks sinks, stat_registry *stats)
{
    ext_sinks_ = std::make_unique<ExtSinks>(std::move(sinks));
    ext_wait_req_.assign(static_cast<size_t>(req_net_->n_in()), {});
    ext_wait_rsp_.assign(static_cast<size_t>(rsp_net_->n_in()), {});
    if (!stats) return;
    int bad = 0;
    auto ok = [&bad](int id) { bad |= id < 0; };
    const char *p = "gpu.icnt.ext.";
    ok(stat_add_counter(stats, "gpu.icnt.ext.crossed", &ext_.packets, "packets",
                        "Morpheus packets that crossed the compute crossbar (both ways)", nullptr));
    ok(stat_add_counter(stats, "gpu.icnt.ext.latency_sum", &ext_.latency_sum, "icnt cycles",
                        "sum over Morpheus packets of cycles from entering the crossbar to being ready", nullptr));
    ok(stat_add_ratio(stats, "gpu.icnt.ext.avg_latency", "gpu.icnt.ext.latency_sum", "gpu.icnt.ext.crossed",
                      "icnt cycles", "mean crossbar latency of the Morpheus packets", nullptr));
    ok(stat_add_counter(stats, "gpu.icnt.ext.stall_cycles", &ext_.stall_cycles, "port-cycles",
                        "cycles Morpheus packets waited at the interconnect's entrance for buffer space, summed over "
                        "ports",
                        nullptr));
    if (bad) throw std::runtime_error(std::string("icnt: could not register statistics under ") + p);
}

void Icnt::send_ext(IcntNet &net, std::vector<std::deque<ExtWait>> &waits, int in, int out, uint32_t bytes, Gp &gp)
{
    if (!ext_sinks_ || !n_ext_out_) throw std::logic_error("icnt: a Morpheus packet without ext_ports and attach_ext");
    auto &q = waits[static_cast<size_t>(in)];
    if (q.empty() && enter(net, in, out, bytes, gp, sc_core::sc_time_stamp())) return;
    q.push_back(ExtWait{&gp, out, bytes});
    ext_waiting_++;
    domain_.wake(this);
}

void Icnt::send_ext_to_sm(int slice, int sm, uint32_t bytes, Gp &gp)
{
    send_ext(*rsp_net_, ext_wait_rsp_, rsp_in(slice), rsp_out(sm), bytes, gp);
}

void Icnt::send_ext_to_ctl(int sm, int slice, uint32_t bytes, Gp &gp)
{
    send_ext(*req_net_, ext_wait_req_, req_in(sm), ext_out(slice), bytes, gp);
}

void Icnt::retry_ext(IcntNet &net, std::vector<std::deque<ExtWait>> &waits, Counters &c)
{
    for (size_t in = 0; in < waits.size(); in++) {
        auto &q = waits[in];
        while (!q.empty() && enter(net, static_cast<int>(in), q.front().out, q.front().bytes, *q.front().gp,
                                   sc_core::sc_time_stamp())) {
            q.pop_front();
            ext_waiting_--;
        }
        if (!q.empty()) c.stall_cycles++;
    }
}

bool Icnt::head_is_ext(const IcntNet &net, int out) const
{
    xbar_pkt p;
    if (!net.peek(out, XBAR_NEVER - 1, &p)) return false;
    const gtlm_mem_ext *e = payload_of(p.cookie).get_extension<gtlm_mem_ext>();
    return e && e->kind == MemKind::ExtLlc;
}

bool Icnt::deliver_ext(IcntNet &net, int out, uint64_t cycle, int dir)
{
    xbar_pkt p;
    if (!net.peek(out, cycle, &p)) return false;
    Gp &gp = payload_of(p.cookie);
    const gtlm_mem_ext *e = gp.get_extension<gtlm_mem_ext>();
    if (!e || e->kind != MemKind::ExtLlc) return false;
    net.pop(out, cycle, &p);
    count(ext_, p);
    net.record(p, cycle, dir, static_cast<int>(e->sm));
    if (dir == NOC_DIR_REQ) ext_sinks_->at_ctl(gp, cycle);
    else ext_sinks_->at_sm(gp, cycle);
    return true;
}

void Icnt::register_stats(stat_registry *r)
{
    struct Side {
        const char *dir;
        Counters *c;
        const char *what;
        const char *gpgpusim_run;
    };
    const Side sides[] = {{"req", &req_, "request packets (SM to L2)", "icnt_total_pkts_simt_to_mem"},
                          {"rsp", &rsp_, "response packets (L2 to SM)", "icnt_total_pkts_mem_to_simt"}};
    int bad = 0;
    auto ok = [&bad](int id) { bad |= id < 0; };
    for (const Side &s : sides) {
        std::string p = std::string("gpu.icnt.") + s.dir + ".";
        std::string what = s.what;
        // GPGPU-Sim's icnt_total_pkts_* count flits, whatever the name says.
        stat_names n{nullptr, s.gpgpusim_run, 0};
        ok(stat_add_counter(r, (p + "packets").c_str(), &s.c->packets, "packets",
                            (what + " that crossed the interconnect").c_str(), nullptr));
        ok(stat_add_counter(r, (p + "flits").c_str(), &s.c->flits, "flits", ("flits of " + what).c_str(), &n));
        ok(stat_add_counter(r, (p + "latency_sum").c_str(), &s.c->latency_sum, "icnt cycles",
                            ("sum over " + what + " of cycles from entering the crossbar to being ready").c_str(),
                            nullptr));
        ok(stat_add_ratio(r, (p + "avg_latency").c_str(), (p + "latency_sum").c_str(), (p + "packets").c_str(),
                          "icnt cycles", ("mean crossbar latency of " + what).c_str(), nullptr));
        ok(stat_add_counter(r, (p + "stall_cycles").c_str(), &s.c->stall_cycles, "port-cycles",
                            ("cycles " + what + " waited at the interconnect's entrance for buffer space, summed "
                                             "over ports")
                                .c_str(),
                            nullptr));
    }
    if (bad) throw std::runtime_error("icnt: could not register statistics under gpu.icnt");
}

} // namespace gtlm
