// Morpheus' packets between the L2-side controllers and the cache-mode SMs as TLM-2.0 transactions
// (issue 21, spec §3.1 steps 3-5):
//
//   controller j: MctlPort.to_noc ─► ExtNoc.from_ctl[j] ─► ExtNoc.to_sm[k] ─► ExtLlcSm k.from_noc
//   (a request: BEGIN_REQ)                                                    (the warp's result:
//   controller j ◄─────────────── BEGIN_RESP ◄──────────────── BEGIN_RESP ◄── BEGIN_RESP)
//
// One transaction per operation of a warp: the request leg is the controller's packet (kind
// Request for a read, WriteData for a write or an atomic with its data, Fill for a line from DRAM),
// the response leg the warp's result (Response, or Writeback when it carries dirty victims to the
// controller on their way to DRAM). The generic payload holds the line address, the command (read:
// Request; write: the others) and the data bytes (a read: the line it asks for); gtlm_mem_ext kind ExtLlc with sm = the
// cache-mode SM and dst = the slice; morpheus_ext the operation (ellc_req / ellc_done), the packet
// kind and its L2-cycle send and arrival.
//
// Timing, -morpheus_noc_xbar 1 (route_through): every leg crosses the compute SMs' crossbar
// (Icnt::attach_ext): a controller's packet from its slice's input of the response network to the
// cache-mode SM's output, the result from the SM's input of the request network to the slice's
// output, with the same flits, buffers and arbitration as the compute packets it contends with.
// A leg arrives at the receiver's first L2 edge after the icnt cycle it leaves the crossbar (as
// every input, clock_domain.h); that cycle goes into the extension, and the controller's slice is
// woken for it. -morpheus_noc_xbar 0: ExtNoc times each leg with ext_link (the crossbar's rule for
// an uncontended packet, each controller and cache-mode SM port one flit per interconnect cycle
// and direction, no contention with compute packets). Either way the cache-mode SM submits to the
// extended-LLC backend at the arrival and the controller takes the result at it; every target takes
// at once (END_REQ / TLM_COMPLETED), so no leg waits on the protocol; the packets are counted as
// gpu.icnt.ext.* (their flits in the NoC energy), not in gpu.icnt.req/rsp.*.
#ifndef GTLM_TLM_EXT_NOC_H
#define GTLM_TLM_EXT_NOC_H

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

extern "C" {
#include "llc/ext_link.h"
#include "llc/ext_llc.h"
#include "llc/mctl.h"
#include "stats/stats.h"
}

#include "icnt/icnt.h"
#include "kernel/clock_domain.h"
#include "mem/at_port.h"
#include "mem/payload_pool.h"
#include "wave/probe.h"

namespace gtlm {

enum class ExtPkt : uint8_t { Request = 0, WriteData, Fill, Response, Writeback };
constexpr int kExtPktKinds = 5;
const char *ext_pkt_name(ExtPkt k);

struct morpheus_ext : tlm::tlm_extension<morpheus_ext> {
    ExtPkt pkt = ExtPkt::Request;
    uint32_t ctl = 0, rank = 0;  // controller (L2 slice), cache-mode SM rank
    uint32_t bytes = 0;          // on the wire, this leg (header + data)
    uint64_t send = 0, at = 0;   // L2 cycles: the leg leaves, arrives
    ellc_req q{};
    ellc_done d{};
    tlm::tlm_extension_base *clone() const override { return new morpheus_ext(*this); }
    void copy_from(const tlm::tlm_extension_base &o) override { *this = static_cast<const morpheus_ext &>(o); }
};
// The payload's morpheus_ext (attached on first use; it stays with the pooled payload).
morpheus_ext &morpheus_ext_of(Gp &gp);

// A Morpheus controller's socket: it sends the operations and takes the results.
class MctlPort : public sc_core::sc_module {
public:
    MctlPort(sc_core::sc_module_name name, mctl *m, uint32_t ctl);
    AtInitiator to_noc;
    // mctl_net.to_sm: false when the socket is still waiting for END_REQ (never with gtlm's targets);
    // *arrive gets the cycle the operation reached the cache-mode SM.
    bool send(uint32_t rank, uint32_t sm_id, uint64_t send, uint32_t bytes, const ellc_req &q, uint64_t *arrive);
    size_t in_flight() const { return pool_.in_use(); }

private:
    bool on_response(Gp &gp);
    mctl *m_;
    uint32_t ctl_;
    PayloadPool pool_;
};

// A cache-mode SM's socket: operations in (submitted to the backend at their arrival), results out.
class ExtLlcSm : public sc_core::sc_module {
public:
    ExtLlcSm(sc_core::sc_module_name name, ellc_backend be, uint32_t rank);
    AtTarget from_noc;
    // mctl_net.to_ctl: the result of the operation of row d.r.tag of controller ctl leaves now.
    void reply(uint32_t ctl, uint32_t bytes, const ellc_done &d);

private:
    bool on_request(Gp &gp);
    ellc_backend be_;
    uint32_t rank_;
    std::unordered_map<uint64_t, Gp *> open_; // (controller, WST row) -> its transaction
};

// The interconnect's part: routes, times (ext_link) and counts the legs.
class ExtNoc : public sc_core::sc_module {
public:
    ExtNoc(sc_core::sc_module_name name, ext_link *link, uint32_t n_ctl, uint32_t n_ranks, stat_registry *stats);
    std::vector<std::unique_ptr<AtTarget>> from_ctl;  // controller j's requests in, results out
    std::vector<std::unique_ptr<AtInitiator>> to_sm;  // to cache-mode SM rank k, its results in

    struct Counters {
        uint64_t packets[kExtPktKinds] = {}, flits[kExtPktKinds] = {};
        uint64_t all_packets = 0, all_flits = 0, in_flight = 0;
    };
    const Counters &counters() const { return c_; }
    void observe(ProbeList &out) const;
    // -morpheus_noc_xbar 1: the legs cross `icnt` (sm_ids: each rank's SM id); arrivals in `l2`'s
    // cycles. The hooks run after the far end took a leg (the controller's slice must be woken).
    void route_through(Icnt &icnt, ClockDomain &l2, std::vector<int> sm_ids, stat_registry *stats);
    std::function<void(const morpheus_ext &)> arrived_at_sm, arrived_at_ctl;

private:
    bool on_request(uint32_t ctl, Gp &gp);
    bool on_response(uint32_t rank, Gp &gp);
    void count(ExtPkt k, uint32_t bytes);
    void register_stats(stat_registry *r);
    void at_sm(Gp &gp);
    void at_ctl(Gp &gp);
    ext_link *link_;
    Icnt *icnt_ = nullptr;
    ClockDomain *l2_ = nullptr;
    std::vector<int> sm_ids_;
    Counters c_;
};

} // namespace gtlm

#endif
