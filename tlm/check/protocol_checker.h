// A TLM-2.0 base-protocol checker: a pass-through module placed on one link (one initiator
// socket bound to one target socket). Every call goes through unchanged; before and after each
// nb_transport call the checker verifies the rules below and throws ProtocolViolation at the first
// one broken. Written by us from IEEE 1666-2011 (clauses 14 and 15); the rules in our words:
//
// Phases and paths
//   The base protocol has four phases. The initiator sends BEGIN_REQ and END_RESP, the target
//   sends END_REQ and BEGIN_RESP. A phase travels either as the argument of a call (initiator's
//   phases on the forward path, target's on the backward path) or as the phase handed back with
//   TLM_UPDATED by the callee (target's phases returned from a forward call, initiator's from a
//   backward call). Any other phase value (including UNINITIALIZED_PHASE) is unknown.   [unknown-phase]
//   A phase sent by the wrong side is an error.                                          [wrong-path]
//   Per transaction the order is BEGIN_REQ, END_REQ, BEGIN_RESP, END_RESP; BEGIN_RESP may come
//   straight after BEGIN_REQ and then stands for END_REQ too. A phase from the wrong state, or on
//   a transaction this link never saw begin, is an error.                  [phase-order] [unknown-transaction]
//   TLM_COMPLETED returned by either side ends the transaction at any point (early completion);
//   END_RESP ends it as well.
// Return values
//   TLM_ACCEPTED: the phase argument is left as it was. TLM_UPDATED: the phase argument is the
//   callee's next phase, legal in the transaction's state; calls carrying END_REQ or END_RESP have
//   no next phase to return, so TLM_UPDATED is not allowed for them. TLM_COMPLETED: done.
//   Nothing else may be returned.                                                        [return-value]
// Flow control (per link)
//   At most one request is between BEGIN_REQ and its END_REQ (or the BEGIN_RESP implying it): the
//   initiator waits before the next BEGIN_REQ.                                  [request-exclusion]
//   At most one response is between BEGIN_RESP and END_RESP (or the TLM_COMPLETED ending it): the
//   target waits before the next BEGIN_RESP.                                   [response-exclusion]
//   A payload object carries one transaction at a time: BEGIN_REQ on a payload still in flight
//   here (including one whose final call has not returned yet) is an error.      [transaction-reuse]
// The payload
//   At BEGIN_REQ: it has a memory manager (has_mm(), required with nb_transport)   [memory-manager]
//   the data length is above 0                                                         [data-length]
//   the data pointer is not null                                                       [data-pointer]
//   the streaming width is above 0 (a width below the data length is a legal streaming burst;
//   a width of 0 is meaningless)                                                   [streaming-width]
//   a non-null byte-enable pointer comes with a byte-enable length above 0             [byte-enable]
//   the response status is TLM_INCOMPLETE_RESPONSE (the initiator must set it)  [initial-response-status]
//   From BEGIN_REQ to the response, nobody changes the command, address, data pointer, data
//   length, byte-enable pointer and length, or streaming width (the data bytes, the response
//   status and the DMI hint may change). Checked at END_REQ, BEGIN_RESP and at a target's
//   TLM_COMPLETED.                                                               [payload-modified]
//   When the target responds (BEGIN_RESP, or TLM_COMPLETED returned by the target) the response
//   status is no longer TLM_INCOMPLETE_RESPONSE.                                   [response-status]
// Time
//   Each phase of a transaction happens at sc_time_stamp() + the annotated delay; this time never
//   goes back from one phase of the same transaction to the next. (Delays themselves cannot be
//   negative: sc_time is unsigned.)                                                   [time-order]
// End of run
//   check_idle() throws when a transaction is still in flight.                               [idle]
//
// b_transport, transport_dbg, get_direct_mem_ptr and invalidate_direct_mem_ptr pass through
// unchecked. Messages read "<instance>: TLM base protocol violation [<rule>]: <what>
// (address 0x..., phase ...)". Thrown from a SystemC process, the ProtocolViolation leaves
// sc_start() as an sc_core::sc_report "(E549) uncaught exception: <message>".
//
// Inserting a checker on an existing link `a.socket.bind(b.socket)`:
//     gtlm::ProtocolChecker chk("chk_a_b");   // during elaboration, in the simulator's context
//     chk.insert(a.socket, b.socket);          // = a.socket.bind(chk.target); chk.initiator.bind(b.socket);
// and call chk.check_idle() after a run that should have drained.
#ifndef GTLM_TLM_PROTOCOL_CHECKER_H
#define GTLM_TLM_PROTOCOL_CHECKER_H

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace gtlm {

// Thrown on the first broken rule; rule() is the bracketed name used in the header comment.
class ProtocolViolation : public std::logic_error {
public:
    ProtocolViolation(const std::string &rule, const std::string &msg) : std::logic_error(msg), rule_(rule) {}
    const std::string &rule() const { return rule_; }

private:
    std::string rule_;
};

class ProtocolChecker : public sc_core::sc_module {
public:
    using Gp = tlm::tlm_generic_payload;

    explicit ProtocolChecker(sc_core::sc_module_name name);

    tlm_utils::simple_target_socket<ProtocolChecker> target;       // the initiator binds to this
    tlm_utils::simple_initiator_socket<ProtocolChecker> initiator; // this binds to the real target

    // Puts the checker between `from` (an initiator socket) and `to` (a target socket) that would
    // otherwise be bound to each other.
    template <class InitiatorSocket, class TargetSocket>
    void insert(InitiatorSocket &from, TargetSocket &to)
    {
        from.bind(target);
        initiator.bind(to);
    }

    uint64_t checked() const { return checked_; }         // transactions that completed here
    uint64_t outstanding() const { return tx_.size(); }   // transactions in flight here
    // Throws ProtocolViolation (rule "idle") naming the in-flight transactions, if any.
    void check_idle() const;

private:
    enum class Side { Initiator, Target };

    // What this link knows about one transaction in flight.
    struct Tx {
        uint64_t seq;            // order of BEGIN_REQ on this link (for messages)
        tlm::tlm_phase phase;    // last phase seen: BEGIN_REQ, END_REQ or BEGIN_RESP
        sc_core::sc_time time;   // when that phase happened
        // Attributes nobody may change while the transaction is in flight.
        tlm::tlm_command command;
        uint64_t address;
        unsigned char *data;
        unsigned data_length;
        unsigned char *byte_enable;
        unsigned byte_enable_length;
        unsigned streaming_width;
    };

    tlm::tlm_sync_enum nb_transport_fw(Gp &gp, tlm::tlm_phase &phase, sc_core::sc_time &t);
    tlm::tlm_sync_enum nb_transport_bw(Gp &gp, tlm::tlm_phase &phase, sc_core::sc_time &t);
    void b_transport(Gp &gp, sc_core::sc_time &t);
    unsigned transport_dbg(Gp &gp);
    bool get_direct_mem_ptr(Gp &gp, tlm::tlm_dmi &dmi);
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

    // A phase sent by `from` at time `at` (as a call's argument or as an updated return).
    void on_phase(Gp &gp, const tlm::tlm_phase &phase, Side from, const sc_core::sc_time &at);
    void begin_request(Gp &gp, const sc_core::sc_time &at);
    // The callee's answer to a call that carried `sent` (sent by the caller `from`).
    void on_return(Gp &gp, const tlm::tlm_phase &sent, Side from, tlm::tlm_sync_enum status,
                   const tlm::tlm_phase &phase, const sc_core::sc_time &at);
    // TLM_COMPLETED or END_RESP: the transaction leaves this link.
    void complete(Gp &gp, Tx &tx, bool by_target, const sc_core::sc_time &at);
    void check_unchanged(const Gp &gp, const Tx &tx, const tlm::tlm_phase &phase) const;
    // Records that `phase` happened at `at`, which must not be before the previous phase.
    void advance_time(const Gp &gp, Tx &tx, const tlm::tlm_phase &phase, const sc_core::sc_time &at) const;

    [[noreturn]] void fail(const char *rule, const std::string &what, const Gp &gp,
                           const tlm::tlm_phase &phase) const;

    std::map<const Gp *, Tx> tx_; // looked up by payload object only, never iterated for results
    const Gp *open_request_ = nullptr;  // BEGIN_REQ seen, END_REQ not yet
    const Gp *open_response_ = nullptr; // BEGIN_RESP seen, END_RESP not yet
    uint64_t seq_ = 0;
    uint64_t checked_ = 0;
};

} // namespace gtlm

#endif
