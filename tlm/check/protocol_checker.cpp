#include "check/protocol_checker.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace gtlm {

using namespace tlm;
using sc_core::sc_time;

namespace {

bool known_phase(const tlm_phase &p)
{
    return p == BEGIN_REQ || p == END_REQ || p == BEGIN_RESP || p == END_RESP;
}

std::string phase_name(const tlm_phase &p)
{
    switch (static_cast<unsigned>(p)) {
    case UNINITIALIZED_PHASE: return "UNINITIALIZED_PHASE";
    case BEGIN_REQ: return "BEGIN_REQ";
    case END_REQ: return "END_REQ";
    case BEGIN_RESP: return "BEGIN_RESP";
    case END_RESP: return "END_RESP";
    default: return "unknown phase #" + std::to_string(static_cast<unsigned>(p));
    }
}

std::string status_name(tlm_sync_enum s)
{
    switch (s) {
    case TLM_ACCEPTED: return "TLM_ACCEPTED";
    case TLM_UPDATED: return "TLM_UPDATED";
    case TLM_COMPLETED: return "TLM_COMPLETED";
    }
    return "unknown status #" + std::to_string(static_cast<int>(s));
}

std::string hex(uint64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

const char *side_name(bool initiator) { return initiator ? "initiator" : "target"; }

} // namespace

ProtocolChecker::ProtocolChecker(sc_core::sc_module_name name)
    : sc_core::sc_module(name), target("target"), initiator("initiator")
{
    target.register_nb_transport_fw(this, &ProtocolChecker::nb_transport_fw);
    target.register_b_transport(this, &ProtocolChecker::b_transport);
    target.register_transport_dbg(this, &ProtocolChecker::transport_dbg);
    target.register_get_direct_mem_ptr(this, &ProtocolChecker::get_direct_mem_ptr);
    initiator.register_nb_transport_bw(this, &ProtocolChecker::nb_transport_bw);
    initiator.register_invalidate_direct_mem_ptr(this, &ProtocolChecker::invalidate_direct_mem_ptr);
}

tlm_sync_enum ProtocolChecker::nb_transport_fw(Gp &gp, tlm_phase &phase, sc_time &t)
{
    const tlm_phase sent = phase;
    on_phase(gp, sent, Side::Initiator, sc_core::sc_time_stamp() + t);
    tlm_sync_enum s = initiator->nb_transport_fw(gp, phase, t);
    on_return(gp, sent, Side::Initiator, s, phase, sc_core::sc_time_stamp() + t);
    return s;
}

tlm_sync_enum ProtocolChecker::nb_transport_bw(Gp &gp, tlm_phase &phase, sc_time &t)
{
    const tlm_phase sent = phase;
    on_phase(gp, sent, Side::Target, sc_core::sc_time_stamp() + t);
    tlm_sync_enum s = target->nb_transport_bw(gp, phase, t);
    on_return(gp, sent, Side::Target, s, phase, sc_core::sc_time_stamp() + t);
    return s;
}

void ProtocolChecker::b_transport(Gp &gp, sc_time &t) { initiator->b_transport(gp, t); }

unsigned ProtocolChecker::transport_dbg(Gp &gp) { return initiator->transport_dbg(gp); }

bool ProtocolChecker::get_direct_mem_ptr(Gp &gp, tlm_dmi &dmi) { return initiator->get_direct_mem_ptr(gp, dmi); }

void ProtocolChecker::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end)
{
    target->invalidate_direct_mem_ptr(start, end);
}

void ProtocolChecker::on_phase(Gp &gp, const tlm_phase &phase, Side from, const sc_time &at)
{
    if (!known_phase(phase)) fail("unknown-phase", "the base protocol has no such phase", gp, phase);
    const Side sender = (phase == BEGIN_REQ || phase == END_RESP) ? Side::Initiator : Side::Target;
    if (sender != from)
        fail("wrong-path",
             phase_name(phase) + " sent by the " + side_name(from == Side::Initiator) + ", it is the " +
                 side_name(sender == Side::Initiator) + "'s phase",
             gp, phase);
    if (phase == BEGIN_REQ) {
        begin_request(gp, at);
        return;
    }
    auto it = tx_.find(&gp);
    if (it == tx_.end())
        fail("unknown-transaction", "no BEGIN_REQ was seen on this link for this payload", gp, phase);
    Tx &tx = it->second;
    const bool legal = (phase == END_REQ && tx.phase == BEGIN_REQ) ||
                       (phase == BEGIN_RESP && (tx.phase == BEGIN_REQ || tx.phase == END_REQ)) ||
                       (phase == END_RESP && tx.phase == BEGIN_RESP);
    if (!legal) fail("phase-order", phase_name(phase) + " after " + phase_name(tx.phase), gp, phase);
    advance_time(gp, tx, phase, at);

    if (phase == END_REQ) {
        check_unchanged(gp, tx, phase);
        if (open_request_ == &gp) open_request_ = nullptr;
        tx.phase = END_REQ;
    } else if (phase == BEGIN_RESP) {
        check_unchanged(gp, tx, phase);
        if (open_request_ == &gp) open_request_ = nullptr; // END_REQ implied
        if (open_response_)
            fail("response-exclusion",
                 "BEGIN_RESP while the response to " + hex(open_response_->get_address()) +
                     " still waits for END_RESP",
                 gp, phase);
        if (gp.get_response_status() == TLM_INCOMPLETE_RESPONSE)
            fail("response-status", "BEGIN_RESP with the response status still TLM_INCOMPLETE_RESPONSE", gp, phase);
        open_response_ = &gp;
        tx.phase = BEGIN_RESP;
    } else { // END_RESP
        complete(gp, tx, false, at);
    }
}

void ProtocolChecker::begin_request(Gp &gp, const sc_time &at)
{
    const tlm_phase phase = BEGIN_REQ;
    auto it = tx_.find(&gp);
    if (it != tx_.end())
        fail("transaction-reuse",
             "BEGIN_REQ on a payload whose transaction is still in flight here (at " +
                 phase_name(it->second.phase) + ")",
             gp, phase);
    if (open_request_)
        fail("request-exclusion",
             "BEGIN_REQ while the request to " + hex(open_request_->get_address()) + " still waits for END_REQ", gp,
             phase);
    if (!gp.has_mm()) fail("memory-manager", "a payload sent with nb_transport needs a memory manager", gp, phase);
    if (gp.get_data_length() == 0) fail("data-length", "data length is 0", gp, phase);
    if (!gp.get_data_ptr()) fail("data-pointer", "data pointer is null", gp, phase);
    if (gp.get_streaming_width() == 0) fail("streaming-width", "streaming width is 0", gp, phase);
    if (gp.get_byte_enable_ptr() && gp.get_byte_enable_length() == 0)
        fail("byte-enable", "byte-enable pointer set with a byte-enable length of 0", gp, phase);
    if (gp.get_response_status() != TLM_INCOMPLETE_RESPONSE)
        fail("initial-response-status",
             "BEGIN_REQ with response status " + gp.get_response_string() + " (must be TLM_INCOMPLETE_RESPONSE)", gp,
             phase);
    Tx tx;
    tx.seq = seq_++;
    tx.phase = BEGIN_REQ;
    tx.time = at;
    tx.command = gp.get_command();
    tx.address = gp.get_address();
    tx.data = gp.get_data_ptr();
    tx.data_length = gp.get_data_length();
    tx.byte_enable = gp.get_byte_enable_ptr();
    tx.byte_enable_length = gp.get_byte_enable_length();
    tx.streaming_width = gp.get_streaming_width();
    tx_.emplace(&gp, tx);
    open_request_ = &gp;
}

void ProtocolChecker::on_return(Gp &gp, const tlm_phase &sent, Side from, tlm_sync_enum status,
                                const tlm_phase &phase, const sc_time &at)
{
    const Side callee = from == Side::Initiator ? Side::Target : Side::Initiator;
    switch (status) {
    case TLM_ACCEPTED:
        if (phase != sent)
            fail("return-value", "TLM_ACCEPTED returned with the phase changed from " + phase_name(sent), gp, phase);
        return;
    case TLM_UPDATED: {
        if (sent == END_REQ || sent == END_RESP)
            fail("return-value", "TLM_UPDATED returned for " + phase_name(sent) + ", which has no answering phase",
                 gp, phase);
        if (!known_phase(phase)) fail("unknown-phase", "returned with TLM_UPDATED", gp, phase);
        if (phase == BEGIN_REQ)
            fail("return-value", "TLM_UPDATED returned with BEGIN_REQ, which only a new call can carry", gp, phase);
        const Side sender = (phase == BEGIN_REQ || phase == END_RESP) ? Side::Initiator : Side::Target;
        if (sender != callee)
            fail("return-value",
                 std::string("TLM_UPDATED returned by the ") + side_name(callee == Side::Initiator) + " with " +
                     phase_name(phase) + ", which it may not send",
                 gp, phase);
        on_phase(gp, phase, callee, at);
        return;
    }
    case TLM_COMPLETED: {
        if (sent == END_RESP) return; // the transaction ended with the call
        auto it = tx_.find(&gp);
        if (it == tx_.end())
            fail("phase-order", "TLM_COMPLETED returned for a transaction that had already ended", gp, phase);
        complete(gp, it->second, callee == Side::Target, at);
        return;
    }
    }
    fail("return-value", status_name(status) + " is not a tlm_sync_enum value", gp, phase);
}

void ProtocolChecker::complete(Gp &gp, Tx &tx, bool by_target, const sc_time &at)
{
    advance_time(gp, tx, tx.phase, at);
    if (by_target) {
        check_unchanged(gp, tx, tx.phase);
        if (gp.get_response_status() == TLM_INCOMPLETE_RESPONSE)
            fail("response-status", "the target returned TLM_COMPLETED with the response status still "
                                    "TLM_INCOMPLETE_RESPONSE",
                 gp, tx.phase);
    }
    if (open_request_ == &gp) open_request_ = nullptr;
    if (open_response_ == &gp) open_response_ = nullptr;
    tx_.erase(&gp);
    checked_++;
}

void ProtocolChecker::check_unchanged(const Gp &gp, const Tx &tx, const tlm_phase &phase) const
{
    auto changed = [&](const char *what, uint64_t was, uint64_t now) {
        fail("payload-modified", std::string(what) + " changed from " + hex(was) + " to " + hex(now), gp, phase);
    };
    if (gp.get_command() != tx.command) changed("command", tx.command, gp.get_command());
    if (gp.get_address() != tx.address) changed("address", tx.address, gp.get_address());
    if (gp.get_data_ptr() != tx.data) fail("payload-modified", "data pointer changed", gp, phase);
    if (gp.get_data_length() != tx.data_length) changed("data length", tx.data_length, gp.get_data_length());
    if (gp.get_byte_enable_ptr() != tx.byte_enable) fail("payload-modified", "byte-enable pointer changed", gp, phase);
    if (gp.get_byte_enable_length() != tx.byte_enable_length)
        changed("byte-enable length", tx.byte_enable_length, gp.get_byte_enable_length());
    if (gp.get_streaming_width() != tx.streaming_width)
        changed("streaming width", tx.streaming_width, gp.get_streaming_width());
}

void ProtocolChecker::advance_time(const Gp &gp, Tx &tx, const tlm_phase &phase, const sc_time &at) const
{
    if (at < tx.time)
        fail("time-order", "happens at " + at.to_string() + ", before the previous phase at " + tx.time.to_string(),
             gp, phase);
    tx.time = at;
}

void ProtocolChecker::fail(const char *rule, const std::string &what, const Gp &gp, const tlm_phase &phase) const
{
    throw ProtocolViolation(rule, std::string(name()) + ": TLM base protocol violation [" + rule + "]: " + what +
                                      " (address " + hex(gp.get_address()) + ", phase " + phase_name(phase) + ")");
}

void ProtocolChecker::check_idle() const
{
    if (tx_.empty()) return;
    // Listed in the order the transactions began, not in map (pointer) order.
    std::vector<std::pair<uint64_t, const Gp *>> open;
    for (const auto &kv : tx_) open.emplace_back(kv.second.seq, kv.first);
    std::sort(open.begin(), open.end());
    std::string msg = std::string(name()) + ": TLM base protocol violation [idle]: " + std::to_string(open.size()) +
                      " transaction(s) still in flight:";
    const size_t shown = std::min<size_t>(open.size(), 8);
    for (size_t i = 0; i < shown; i++)
        msg += " (address " + hex(open[i].second->get_address()) + ", phase " +
               phase_name(tx_.at(open[i].second).phase) + ")";
    if (shown < open.size()) msg += " ...";
    throw ProtocolViolation("idle", msg);
}

} // namespace gtlm
