#include "mem/at_port.h"

#include <stdexcept>

namespace gtlm {

using namespace tlm;

AtInitiator::AtInitiator(const char *name) : socket(name)
{
    socket.register_nb_transport_bw(this, &AtInitiator::nb_transport_bw);
}

bool AtInitiator::send(Gp &gp)
{
    if (waiting_end_req_) return false;
    tlm_phase phase = BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    sent_++;
    pending_req_ = &gp;
    waiting_end_req_ = true;
    tlm_sync_enum s = socket->nb_transport_fw(gp, phase, t);
    if (s == TLM_UPDATED && phase == END_REQ) {
        if (pending_req_ == &gp) { waiting_end_req_ = false; pending_req_ = nullptr; }
    } else if (s == TLM_UPDATED && phase == BEGIN_RESP) {
        // END_REQ implied; the response came back at once.
        if (pending_req_ == &gp) { waiting_end_req_ = false; pending_req_ = nullptr; }
        sc_core::sc_time at = sc_core::sc_time_stamp() + t;
        if (on_response && on_response(gp, at)) {
            phase = END_RESP;
            t = sc_core::SC_ZERO_TIME;
            socket->nb_transport_fw(gp, phase, t);
        } else {
            held_ = &gp;
        }
    } else if (s == TLM_COMPLETED) {
        if (pending_req_ == &gp) { waiting_end_req_ = false; pending_req_ = nullptr; }
        sc_core::sc_time at = sc_core::sc_time_stamp() + t;
        if (on_response && !on_response(gp, at))
            throw std::logic_error("AtInitiator: a TLM_COMPLETED response must be taken");
    }
    // TLM_ACCEPTED: the target holds the request; END_REQ comes on the backward path.
    return true;
}

tlm_sync_enum AtInitiator::nb_transport_bw(Gp &gp, tlm_phase &phase, sc_core::sc_time &t)
{
    if (phase == END_REQ) {
        if (pending_req_ == &gp) { waiting_end_req_ = false; pending_req_ = nullptr; }
        if (on_ready) on_ready();
        return TLM_ACCEPTED;
    }
    if (phase == BEGIN_RESP) {
        bool was_waiting = pending_req_ == &gp;
        if (was_waiting) { waiting_end_req_ = false; pending_req_ = nullptr; } // END_REQ implied
        sc_core::sc_time at = sc_core::sc_time_stamp() + t;
        bool taken = on_response && on_response(gp, at);
        if (was_waiting && on_ready) on_ready();
        if (taken) {
            phase = END_RESP;
            return TLM_COMPLETED;
        }
        held_ = &gp;
        return TLM_ACCEPTED;
    }
    throw std::logic_error("AtInitiator: unexpected phase on the backward path");
}

bool AtInitiator::take_held_response()
{
    if (!held_) return true;
    Gp *gp = held_;
    sc_core::sc_time now = sc_core::sc_time_stamp();
    if (!on_response || !on_response(*gp, now)) return false;
    held_ = nullptr;
    tlm_phase phase = END_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    socket->nb_transport_fw(*gp, phase, t);
    return true;
}

AtTarget::AtTarget(const char *name) : socket(name)
{
    socket.register_nb_transport_fw(this, &AtTarget::nb_transport_fw);
}

tlm_sync_enum AtTarget::nb_transport_fw(Gp &gp, tlm_phase &phase, sc_core::sc_time &t)
{
    if (phase == BEGIN_REQ) {
        if (held_) throw std::logic_error("AtTarget: BEGIN_REQ before END_REQ of the previous request");
        sc_core::sc_time at = sc_core::sc_time_stamp() + t;
        if (on_request && on_request(gp, at)) {
            phase = END_REQ;
            t = sc_core::SC_ZERO_TIME;
            return TLM_UPDATED;
        }
        held_ = &gp;
        return TLM_ACCEPTED;
    }
    if (phase == END_RESP) {
        if (pending_resp_ == &gp) { waiting_end_resp_ = false; pending_resp_ = nullptr; }
        if (on_resp_ready) on_resp_ready();
        return TLM_COMPLETED;
    }
    throw std::logic_error("AtTarget: unexpected phase on the forward path");
}

bool AtTarget::take_held_request()
{
    if (!held_) return true;
    Gp *gp = held_;
    if (!on_request || !on_request(*gp, sc_core::sc_time_stamp())) return false;
    held_ = nullptr;
    tlm_phase phase = END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    socket->nb_transport_bw(*gp, phase, t);
    return true;
}

bool AtTarget::respond(Gp &gp)
{
    if (waiting_end_resp_) return false;
    tlm_phase phase = BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    waiting_end_resp_ = true;
    pending_resp_ = &gp;
    tlm_sync_enum s = socket->nb_transport_bw(gp, phase, t);
    if (s == TLM_COMPLETED || (s == TLM_UPDATED && phase == END_RESP)) {
        if (pending_resp_ == &gp) { waiting_end_resp_ = false; pending_resp_ = nullptr; }
    }
    return true;
}

} // namespace gtlm
