// The two ends of an approximately-timed TLM-2.0 link (base protocol, four phases) as gtlm's
// blocks use them: requests flow initiator -> target, responses target -> initiator, and each
// direction has back-pressure.
//
//   request:  initiator BEGIN_REQ ─► target takes it now (returns END_REQ: TLM_UPDATED) or holds it
//             (TLM_ACCEPTED; END_REQ comes later on the backward path when the owner has room).
//             The initiator sends no new BEGIN_REQ before END_REQ (base-protocol rule).
//   response: target BEGIN_RESP ─► initiator takes it now (TLM_COMPLETED) or holds it
//             (TLM_ACCEPTED; END_RESP comes later on the forward path). The target sends no new
//             BEGIN_RESP before END_RESP.
// "Takes" means the owner's queue had room: a block never drops a transaction. Delays annotated
// by a peer are honoured by the owner's callbacks (they receive the arrival time); gtlm's own
// blocks annotate zero and call at the cycle the event happens.
#ifndef GTLM_TLM_AT_PORT_H
#define GTLM_TLM_AT_PORT_H

#include <functional>

#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace gtlm {

using Gp = tlm::tlm_generic_payload;

class AtInitiator {
public:
    explicit AtInitiator(const char *name);
    tlm_utils::simple_initiator_socket<AtInitiator> socket;

    // Owner callbacks. on_response(gp, arrival): true when the response was taken now (the port
    // releases nothing: the owner keeps or releases its reference), false to hold it (the owner
    // calls take_held_response() when it has room). on_ready(): END_REQ arrived, send() may be
    // called again.
    std::function<bool(Gp &, const sc_core::sc_time &)> on_response;
    std::function<void()> on_ready;

    bool can_send() const { return !waiting_end_req_; }
    // BEGIN_REQ. Returns false, without sending, while the previous request waits for END_REQ.
    bool send(Gp &gp);
    // The held response, if any, is offered again; when taken, END_RESP goes out. Returns true
    // when nothing stays held.
    bool take_held_response();
    bool holds_response() const { return held_ != nullptr; }
    uint64_t requests_sent() const { return sent_; }

private:
    tlm::tlm_sync_enum nb_transport_bw(Gp &gp, tlm::tlm_phase &phase, sc_core::sc_time &t);
    bool waiting_end_req_ = false;
    Gp *pending_req_ = nullptr; // the request whose END_REQ is awaited
    Gp *held_ = nullptr;        // a response not taken yet
    uint64_t sent_ = 0;
};

class AtTarget {
public:
    explicit AtTarget(const char *name);
    tlm_utils::simple_target_socket<AtTarget> socket;

    // Owner callbacks. on_request(gp, arrival): true when taken now (END_REQ returned at once),
    // false to hold it (END_REQ withheld; the owner calls take_held_request() when it has room).
    // on_resp_ready(): END_RESP arrived, respond() may be called again.
    std::function<bool(Gp &, const sc_core::sc_time &)> on_request;
    std::function<void()> on_resp_ready;

    bool can_respond() const { return !waiting_end_resp_; }
    // BEGIN_RESP (the owner sets the response status first). Returns false, without sending,
    // while the previous response waits for END_RESP.
    bool respond(Gp &gp);
    bool take_held_request();
    bool holds_request() const { return held_ != nullptr; }

private:
    tlm::tlm_sync_enum nb_transport_fw(Gp &gp, tlm::tlm_phase &phase, sc_core::sc_time &t);
    bool waiting_end_resp_ = false;
    Gp *pending_resp_ = nullptr;
    Gp *held_ = nullptr;
};

} // namespace gtlm

#endif
