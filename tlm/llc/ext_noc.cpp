#include "llc/ext_noc.h"

#include <stdexcept>

namespace gtlm {

const char *ext_pkt_name(ExtPkt k)
{
    switch (k) {
    case ExtPkt::Request: return "requests";
    case ExtPkt::WriteData: return "write_data";
    case ExtPkt::Fill: return "fills";
    case ExtPkt::Response: return "responses";
    case ExtPkt::Writeback: return "writebacks";
    }
    return "?";
}

morpheus_ext &morpheus_ext_of(Gp &gp)
{
    morpheus_ext *e = gp.get_extension<morpheus_ext>();
    if (!e) {
        e = new morpheus_ext; // freed with the payload (the pool's payloads live as long as the pool)
        gp.set_extension(e);
    }
    return *e;
}

namespace {
uint64_t key_of(uint32_t ctl, uint64_t row) { return (static_cast<uint64_t>(ctl) << 32) | (row & 0xffffffffu); }
} // namespace

// ---- the controller's socket ----

MctlPort::MctlPort(sc_core::sc_module_name name, mctl *m, uint32_t ctl)
    : sc_core::sc_module(name), to_noc("to_noc"), m_(m), ctl_(ctl)
{
    to_noc.on_response = [this](Gp &gp, const sc_core::sc_time &) { return on_response(gp); };
}

bool MctlPort::send(uint32_t rank, uint32_t sm_id, uint64_t send, uint32_t bytes, const ellc_req &q, uint64_t *arrive)
{
    if (!to_noc.can_send()) return false;
    // Data length: what a write or fill carries; for a read, the line it asks for (the base protocol
    // wants a length above 0; the wire bytes of each leg are in morpheus_ext.bytes).
    uint32_t data = q.kind == ELLC_READ ? m_->p.line : bytes - m_->p.header;
    Gp *gp = pool_.get(q.kind == ELLC_READ ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND, q.key, data);
    gtlm_mem_ext &me = mem_ext(*gp);
    me.kind = MemKind::ExtLlc;
    me.sm = sm_id;
    me.dst = ctl_;
    me.issue_cycle = send;
    morpheus_ext &x = morpheus_ext_of(*gp);
    x = morpheus_ext();
    x.pkt = q.kind == ELLC_READ ? ExtPkt::Request : q.kind == ELLC_FILL ? ExtPkt::Fill : ExtPkt::WriteData;
    x.ctl = ctl_;
    x.rank = rank;
    x.bytes = bytes;
    x.send = send;
    x.q = q;
    if (!to_noc.send(*gp)) return false;
    *arrive = x.at; // the payload waits at the cache-mode SM for its result, so x is still ours to read
    return true;
}

bool MctlPort::on_response(Gp &gp)
{
    const morpheus_ext &x = morpheus_ext_of(gp);
    mctl_result_in(m_, &x.d, x.at);
    gp.release();
    return true;
}

// ---- a cache-mode SM's socket ----

ExtLlcSm::ExtLlcSm(sc_core::sc_module_name name, ellc_backend be, uint32_t rank)
    : sc_core::sc_module(name), from_noc("from_noc"), be_(be), rank_(rank)
{
    from_noc.on_request = [this](Gp &gp, const sc_core::sc_time &) { return on_request(gp); };
}

bool ExtLlcSm::on_request(Gp &gp)
{
    const morpheus_ext &x = morpheus_ext_of(gp);
    if (be_.submit(be_.ctx, &x.q, x.at) != 0) throw std::runtime_error("Morpheus: out of memory in the extended LLC");
    open_[key_of(x.ctl, x.q.tag)] = &gp;
    return true;
}

void ExtLlcSm::reply(uint32_t ctl, uint32_t bytes, const ellc_done &d)
{
    auto it = open_.find(key_of(ctl, d.r.tag));
    if (it == open_.end()) throw std::logic_error("Morpheus: a result without its operation");
    Gp &gp = *it->second;
    open_.erase(it);
    morpheus_ext &x = morpheus_ext_of(gp);
    x.pkt = d.writeback ? ExtPkt::Writeback : ExtPkt::Response;
    x.bytes = bytes;
    x.send = d.done;
    x.d = d;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (!from_noc.respond(gp)) throw std::logic_error("Morpheus: a result while the previous one waits for END_RESP");
}

// ---- the interconnect's part ----

ExtNoc::ExtNoc(sc_core::sc_module_name name, ext_link *link, uint32_t n_ctl, uint32_t n_ranks, stat_registry *stats)
    : sc_core::sc_module(name), link_(link)
{
    for (uint32_t j = 0; j < n_ctl; j++) {
        from_ctl.push_back(std::make_unique<AtTarget>(("from_ctl_" + std::to_string(j)).c_str()));
        from_ctl[j]->on_request = [this, j](Gp &gp, const sc_core::sc_time &) { return on_request(j, gp); };
    }
    for (uint32_t k = 0; k < n_ranks; k++) {
        to_sm.push_back(std::make_unique<AtInitiator>(("to_sm_" + std::to_string(k)).c_str()));
        to_sm[k]->on_response = [this, k](Gp &gp, const sc_core::sc_time &) { return on_response(k, gp); };
    }
    if (stats) register_stats(stats);
}

void ExtNoc::count(ExtPkt k, uint32_t bytes)
{
    uint64_t f = (bytes + link_->flit_bytes - 1) / link_->flit_bytes;
    c_.packets[static_cast<int>(k)]++;
    c_.flits[static_cast<int>(k)] += f;
    c_.all_packets++;
    c_.all_flits += f;
}

void ExtNoc::route_through(Icnt &icnt, ClockDomain &l2, std::vector<int> sm_ids, stat_registry *stats)
{
    icnt_ = &icnt;
    l2_ = &l2;
    sm_ids_ = std::move(sm_ids);
    icnt.attach_ext(Icnt::ExtSinks{[this](Gp &gp, uint64_t) { at_sm(gp); }, [this](Gp &gp, uint64_t) { at_ctl(gp); }},
                    stats);
}

bool ExtNoc::on_request(uint32_t ctl, Gp &gp)
{
    morpheus_ext &x = morpheus_ext_of(gp);
    count(x.pkt, x.bytes);
    c_.in_flight++;
    if (icnt_) { // the arrival is known when the packet leaves the crossbar (at_sm)
        x.at = ELLC_NEVER;
        icnt_->send_ext_to_sm(static_cast<int>(ctl), sm_ids_[x.rank], x.bytes, gp);
        return true;
    }
    x.at = ext_link_to_sm(link_, ctl, x.rank, x.send, x.bytes);
    if (!to_sm[x.rank]->send(gp)) throw std::logic_error("Morpheus: a cache-mode SM's link is still busy");
    return true;
}

void ExtNoc::at_sm(Gp &gp)
{
    morpheus_ext &x = morpheus_ext_of(gp);
    x.at = l2_->next_edge();
    if (!to_sm[x.rank]->send(gp)) throw std::logic_error("Morpheus: a cache-mode SM's link is still busy");
    if (arrived_at_sm) arrived_at_sm(x);
}

bool ExtNoc::on_response(uint32_t rank, Gp &gp)
{
    morpheus_ext &x = morpheus_ext_of(gp);
    count(x.pkt, x.bytes);
    if (icnt_) {
        icnt_->send_ext_to_ctl(sm_ids_[rank], static_cast<int>(x.ctl), x.bytes, gp);
        return true;
    }
    x.at = ext_link_to_ctl(link_, rank, x.ctl, x.send, x.bytes);
    c_.in_flight--;
    if (!from_ctl[x.ctl]->respond(gp)) throw std::logic_error("Morpheus: a controller's link is still busy");
    return true;
}

void ExtNoc::at_ctl(Gp &gp)
{
    morpheus_ext &x = morpheus_ext_of(gp);
    x.at = l2_->next_edge();
    c_.in_flight--;
    morpheus_ext seen = x; // the controller releases the payload when it takes the result
    if (!from_ctl[x.ctl]->respond(gp)) throw std::logic_error("Morpheus: a controller's link is still busy");
    if (arrived_at_ctl) arrived_at_ctl(seen);
}

void ExtNoc::register_stats(stat_registry *r)
{
    auto add = [r](const std::string &path, uint64_t *src, const char *unit, const std::string &desc) {
        if (stat_add_counter(r, path.c_str(), src, unit, desc.c_str(), nullptr) < 0)
            throw std::runtime_error("cannot register statistic " + path);
    };
    const char *what[kExtPktKinds] = {"read requests to the cache-mode SMs", "writes and atomics with their data",
                                      "lines filled from DRAM into the extended LLC", "results back from the warps",
                                      "results carrying dirty victims (on their way to DRAM)"};
    for (int k = 0; k < kExtPktKinds; k++) {
        std::string b = std::string("gpu.icnt.ext.") + ext_pkt_name(static_cast<ExtPkt>(k));
        add(b, &c_.packets[k], "packets", std::string("Morpheus packets: ") + what[k]);
        add(b + "_flits", &c_.flits[k], "flits", std::string("flits of Morpheus ") + what[k]);
    }
    add("gpu.icnt.ext.packets", &c_.all_packets, "packets",
        "packets between the Morpheus controllers and the cache-mode SMs, both ways");
    add("gpu.icnt.ext.flits", &c_.all_flits, "flits", "their flits (charged to the NoC energy)");
}

void ExtNoc::observe(ProbeList &out) const
{
    const Counters *c = &c_;
    out.scope("gpu.icnt.ext.");
    out.pulse("packet", 4, [c] { return c->all_packets; });
    out.level("packets", 32, [c] { return c->all_packets; });
    out.level("in_flight", 16, [c] { return c->in_flight; });
}

} // namespace gtlm
