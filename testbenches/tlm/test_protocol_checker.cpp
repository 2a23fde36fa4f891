// The base-protocol checker: a correct AT link (tlm/mem/at_port.h) with back-pressure both ways
// passes through it untouched; each rule is broken once by a raw peer written here and the
// checker names that rule.
#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "check/protocol_checker.h"
#include "kernel/sc_context.h"
#include "mem/at_port.h"
#include "mem/payload_pool.h"

namespace {

using namespace tlm;
using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;
using Gp = tlm_generic_payload;
using Hook = std::function<tlm_sync_enum(Gp &, tlm_phase &, sc_time &)>;

// ---------------------------------------------------------------------------------------------
// Raw peers: they do exactly what a test tells them, legal or not.

struct RawInitiator : sc_core::sc_module, tlm_bw_transport_if<> {
    tlm_initiator_socket<> socket;
    Hook on_bw; // answer to nb_transport_bw; TLM_ACCEPTED when unset
    unsigned invalidations = 0;

    explicit RawInitiator(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") { socket.bind(*this); }

    tlm_sync_enum nb_transport_bw(Gp &gp, tlm_phase &phase, sc_time &t) override
    {
        return on_bw ? on_bw(gp, phase, t) : TLM_ACCEPTED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override { invalidations++; }

    // Sends `phase` on the forward path; returns the status, `phase` holds the returned phase.
    tlm_sync_enum fw(Gp &gp, tlm_phase &phase, sc_time t = SC_ZERO_TIME)
    {
        return socket->nb_transport_fw(gp, phase, t);
    }
    tlm_sync_enum fw(Gp &gp, tlm_phase_enum p, sc_time t = SC_ZERO_TIME)
    {
        tlm_phase phase = p;
        return fw(gp, phase, t);
    }
};

struct RawTarget : sc_core::sc_module, tlm_fw_transport_if<> {
    tlm_target_socket<> socket;
    Hook on_fw; // answer to nb_transport_fw; TLM_ACCEPTED when unset
    std::vector<std::string> seen; // "phase@address" of every forward call that arrived
    unsigned b_calls = 0, dbg_calls = 0, dmi_calls = 0;

    SC_HAS_PROCESS(RawTarget);
    explicit RawTarget(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket")
    {
        socket.bind(*this);
        SC_METHOD(settle); // runs once at start, so that sc_start(SC_ZERO_TIME) sees activity
    }
    void settle() {}

    tlm_sync_enum nb_transport_fw(Gp &gp, tlm_phase &phase, sc_time &t) override
    {
        seen.push_back(std::to_string(static_cast<unsigned>(phase)) + "@" + std::to_string(gp.get_address()));
        return on_fw ? on_fw(gp, phase, t) : TLM_ACCEPTED;
    }
    void b_transport(Gp &gp, sc_time &t) override
    {
        b_calls++;
        gp.set_response_status(TLM_OK_RESPONSE);
        t += sc_time(2, SC_NS);
    }
    bool get_direct_mem_ptr(Gp &, tlm_dmi &dmi) override
    {
        dmi_calls++;
        dmi.set_start_address(0x40);
        return true;
    }
    unsigned transport_dbg(Gp &gp) override
    {
        dbg_calls++;
        return gp.get_data_length() - 1;
    }

    // Sends `phase` on the backward path.
    tlm_sync_enum bw(Gp &gp, tlm_phase &phase, sc_time t = SC_ZERO_TIME)
    {
        return socket->nb_transport_bw(gp, phase, t);
    }
    tlm_sync_enum bw(Gp &gp, tlm_phase_enum p, sc_time t = SC_ZERO_TIME)
    {
        tlm_phase phase = p;
        return bw(gp, phase, t);
    }
};

// initiator -> checker "chk" -> target, elaborated, calls made directly from the test.
struct RawLink {
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use{ctx};
    gtlm::PayloadPool pool;
    RawInitiator ini{"ini"};
    gtlm::ProtocolChecker chk{"chk"};
    RawTarget tgt{"tgt"};

    RawLink()
    {
        chk.insert(ini.socket, tgt.socket);
        sc_core::sc_start(SC_ZERO_TIME); // ends elaboration: the sockets are usable
    }
    Gp &payload(uint64_t addr) { return *pool.get(TLM_READ_COMMAND, addr, 32); }
    // Target answers: respond with a status already set.
    static void ok(Gp &gp) { gp.set_response_status(TLM_OK_RESPONSE); }
};

struct Caught {
    std::string rule; // "" when nothing was thrown
    std::string msg;
};

template <class F> Caught violation(F f)
{
    try {
        f();
    } catch (const gtlm::ProtocolViolation &v) {
        return {v.rule(), v.what()};
    }
    return {};
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// ---------------------------------------------------------------------------------------------
// Legal sequences: every return-value variant of the base protocol, forwarded unchanged.

TEST(ProtocolCheckerTest, LegalHandshakesPassUnchanged)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    // 1. all four phases as calls: BEGIN_REQ accepted, END_REQ and BEGIN_RESP on the backward path,
    //    END_RESP completed.
    EXPECT_EQ(l.ini.fw(a, BEGIN_REQ), TLM_ACCEPTED);
    EXPECT_EQ(l.chk.outstanding(), 1u);
    EXPECT_EQ(l.tgt.bw(a, END_REQ), TLM_ACCEPTED);
    RawLink::ok(a);
    EXPECT_EQ(l.tgt.bw(a, BEGIN_RESP), TLM_ACCEPTED);
    EXPECT_EQ(l.ini.fw(a, END_RESP), TLM_ACCEPTED); // the raw target's default answer
    EXPECT_EQ(l.chk.outstanding(), 0u);
    EXPECT_EQ(l.chk.checked(), 1u);

    // 2. BEGIN_RESP returned at once (END_REQ implied), then END_RESP answered TLM_COMPLETED.
    a.set_response_status(TLM_INCOMPLETE_RESPONSE); // the initiator's duty before each BEGIN_REQ
    l.tgt.on_fw = [](Gp &gp, tlm_phase &phase, sc_time &t) {
        if (phase == END_RESP) return TLM_COMPLETED;
        RawLink::ok(gp);
        phase = BEGIN_RESP;
        t = sc_time(3, SC_NS);
        return TLM_UPDATED;
    };
    tlm_phase p = BEGIN_REQ;
    sc_time t = SC_ZERO_TIME;
    EXPECT_EQ(l.ini.socket->nb_transport_fw(a, p, t), TLM_UPDATED);
    EXPECT_EQ(p, BEGIN_RESP) << "the returned phase reaches the initiator";
    EXPECT_EQ(t, sc_time(3, SC_NS)) << "and so does the annotated delay";
    EXPECT_EQ(l.ini.fw(a, END_RESP, sc_time(3, SC_NS)), TLM_COMPLETED);

    // 3. the target completes at once.
    a.set_response_status(TLM_INCOMPLETE_RESPONSE);
    l.tgt.on_fw = [](Gp &gp, tlm_phase &, sc_time &) {
        RawLink::ok(gp);
        return TLM_COMPLETED;
    };
    EXPECT_EQ(l.ini.fw(a, BEGIN_REQ), TLM_COMPLETED);

    // 4. END_REQ returned, BEGIN_RESP answered with END_RESP on the return path.
    a.set_response_status(TLM_INCOMPLETE_RESPONSE);
    l.tgt.on_fw = [](Gp &, tlm_phase &phase, sc_time &) {
        phase = END_REQ;
        return TLM_UPDATED;
    };
    l.ini.on_bw = [](Gp &, tlm_phase &phase, sc_time &) {
        phase = END_RESP;
        return TLM_UPDATED;
    };
    EXPECT_EQ(l.ini.fw(a, BEGIN_REQ), TLM_UPDATED);
    RawLink::ok(a);
    EXPECT_EQ(l.tgt.bw(a, BEGIN_RESP), TLM_UPDATED);

    // 5. the initiator completes in answer to BEGIN_RESP.
    l.ini.on_bw = [](Gp &, tlm_phase &, sc_time &) { return TLM_COMPLETED; };
    a.set_response_status(TLM_INCOMPLETE_RESPONSE);
    EXPECT_EQ(l.ini.fw(a, BEGIN_REQ), TLM_UPDATED);
    RawLink::ok(a);
    EXPECT_EQ(l.tgt.bw(a, BEGIN_RESP), TLM_COMPLETED);

    EXPECT_EQ(l.chk.checked(), 5u);
    EXPECT_EQ(l.chk.outstanding(), 0u);
    EXPECT_NO_THROW(l.chk.check_idle());
    // Forward calls as the target saw them (1 = BEGIN_REQ, 4 = END_RESP; 0x100 = 256).
    const std::vector<std::string> expect = {"1@256", "4@256", "1@256", "4@256", "1@256", "1@256", "1@256"};
    EXPECT_EQ(l.tgt.seen, expect);
}

TEST(ProtocolCheckerTest, OtherInterfacesPassThrough)
{
    RawLink l;
    Gp &a = l.payload(0x80);
    sc_time t(1, SC_NS);
    l.ini.socket->b_transport(a, t);
    EXPECT_EQ(l.tgt.b_calls, 1u);
    EXPECT_EQ(t, sc_time(3, SC_NS));
    EXPECT_EQ(a.get_response_status(), TLM_OK_RESPONSE);
    EXPECT_EQ(l.ini.socket->transport_dbg(a), 31u);
    tlm_dmi dmi;
    EXPECT_TRUE(l.ini.socket->get_direct_mem_ptr(a, dmi));
    EXPECT_EQ(dmi.get_start_address(), 0x40u);
    l.tgt.socket->invalidate_direct_mem_ptr(0, 0xff);
    EXPECT_EQ(l.ini.invalidations, 1u);
    EXPECT_EQ(l.chk.checked(), 0u) << "only nb_transport transactions are counted";
}

// ---------------------------------------------------------------------------------------------
// One broken rule per test.

TEST(ProtocolCheckerTest, MessageNamesInstanceRuleAddressAndPhase)
{
    RawLink l;
    Gp &a = l.payload(0x1234);
    Gp &b = l.payload(0x2000);
    l.ini.fw(a, BEGIN_REQ);
    Caught c = violation([&] { l.ini.fw(b, BEGIN_REQ); });
    EXPECT_EQ(c.rule, "request-exclusion");
    EXPECT_TRUE(contains(c.msg, "chk: TLM base protocol violation [request-exclusion]")) << c.msg;
    EXPECT_TRUE(contains(c.msg, "(address 0x2000, phase BEGIN_REQ)")) << c.msg;
    EXPECT_TRUE(contains(c.msg, "request to 0x1234 still waits")) << c.msg;
    EXPECT_TRUE(l.tgt.seen.size() == 1u) << "the offending call is not forwarded";
}

TEST(ProtocolCheckerTest, RequestExclusionEndsWithEndReqOrBeginResp)
{
    RawLink l;
    Gp &a = l.payload(0x100), &b = l.payload(0x200), &c = l.payload(0x300);
    l.ini.fw(a, BEGIN_REQ);
    l.tgt.bw(a, END_REQ);
    EXPECT_NO_THROW(l.ini.fw(b, BEGIN_REQ)) << "END_REQ opened the request channel";
    RawLink::ok(b);
    l.tgt.bw(b, BEGIN_RESP); // implies END_REQ for b
    EXPECT_NO_THROW(l.ini.fw(c, BEGIN_REQ)) << "BEGIN_RESP opened it too";
    EXPECT_EQ(l.chk.outstanding(), 3u);
    Gp &d = l.payload(0x400);
    EXPECT_EQ(violation([&] { l.ini.fw(d, BEGIN_REQ); }).rule, "request-exclusion");
}

TEST(ProtocolCheckerTest, ResponseExclusion)
{
    RawLink l;
    Gp &a = l.payload(0x100), &b = l.payload(0x200);
    l.ini.fw(a, BEGIN_REQ);
    l.tgt.bw(a, END_REQ);
    l.ini.fw(b, BEGIN_REQ);
    l.tgt.bw(b, END_REQ);
    RawLink::ok(a);
    RawLink::ok(b);
    l.tgt.bw(a, BEGIN_RESP); // the initiator accepts: END_RESP outstanding
    Caught c = violation([&] { l.tgt.bw(b, BEGIN_RESP); });
    EXPECT_EQ(c.rule, "response-exclusion");
    EXPECT_TRUE(contains(c.msg, "(address 0x200, phase BEGIN_RESP)")) << c.msg;
}

TEST(ProtocolCheckerTest, ResponseExclusionEndsWithEndResp)
{
    RawLink l;
    Gp &a = l.payload(0x100), &b = l.payload(0x200);
    l.ini.fw(a, BEGIN_REQ);
    l.tgt.bw(a, END_REQ);
    l.ini.fw(b, BEGIN_REQ);
    l.tgt.bw(b, END_REQ);
    RawLink::ok(a);
    RawLink::ok(b);
    l.tgt.bw(a, BEGIN_RESP);
    l.ini.fw(a, END_RESP);
    EXPECT_NO_THROW(l.tgt.bw(b, BEGIN_RESP)) << "responses may come in any order, one at a time";
}

TEST(ProtocolCheckerTest, TransactionReuse)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    l.ini.fw(a, BEGIN_REQ);
    l.tgt.bw(a, END_REQ);
    Caught c = violation([&] { l.ini.fw(a, BEGIN_REQ); });
    EXPECT_EQ(c.rule, "transaction-reuse");
    EXPECT_TRUE(contains(c.msg, "still in flight here (at END_REQ)")) << c.msg;
}

TEST(ProtocolCheckerTest, ReuseBeforeTheEndingCallReturns)
{
    // The initiator takes the response, and before returning TLM_COMPLETED sends the same payload
    // again: its transaction is not over until that return.
    RawLink l;
    Gp &a = l.payload(0x100);
    l.ini.fw(a, BEGIN_REQ);
    l.tgt.bw(a, END_REQ);
    l.ini.on_bw = [&](Gp &gp, tlm_phase &, sc_time &) {
        gp.set_response_status(TLM_INCOMPLETE_RESPONSE);
        l.ini.fw(gp, BEGIN_REQ);
        return TLM_COMPLETED;
    };
    RawLink::ok(a);
    EXPECT_EQ(violation([&] { l.tgt.bw(a, BEGIN_RESP); }).rule, "transaction-reuse");
}

TEST(ProtocolCheckerTest, PhaseOrder)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    l.ini.fw(a, BEGIN_REQ);
    Caught c = violation([&] { l.ini.fw(a, END_RESP); });
    EXPECT_EQ(c.rule, "phase-order");
    EXPECT_TRUE(contains(c.msg, "END_RESP after BEGIN_REQ")) << c.msg;

    RawLink m;
    Gp &b = m.payload(0x200);
    m.ini.fw(b, BEGIN_REQ);
    m.tgt.bw(b, END_REQ);
    c = violation([&] { m.tgt.bw(b, END_REQ); });
    EXPECT_EQ(c.rule, "phase-order");
    EXPECT_TRUE(contains(c.msg, "END_REQ after END_REQ (address 0x200, phase END_REQ)")) << c.msg;
}

TEST(ProtocolCheckerTest, UnknownTransaction)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    RawLink::ok(a);
    Caught c = violation([&] { l.tgt.bw(a, BEGIN_RESP); });
    EXPECT_EQ(c.rule, "unknown-transaction");
    EXPECT_TRUE(contains(c.msg, "(address 0x100, phase BEGIN_RESP)")) << c.msg;
}

TEST(ProtocolCheckerTest, WrongPath)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    l.ini.fw(a, BEGIN_REQ);
    Caught c = violation([&] { l.ini.fw(a, END_REQ); });
    EXPECT_EQ(c.rule, "wrong-path");
    EXPECT_TRUE(contains(c.msg, "END_REQ sent by the initiator, it is the target's phase")) << c.msg;
    EXPECT_EQ(violation([&] { l.tgt.bw(a, END_RESP); }).rule, "wrong-path");
}

TEST(ProtocolCheckerTest, UnknownPhase)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    Caught c = violation([&] { l.ini.fw(a, UNINITIALIZED_PHASE); });
    EXPECT_EQ(c.rule, "unknown-phase");
    EXPECT_TRUE(contains(c.msg, "phase UNINITIALIZED_PHASE")) << c.msg;

    l.tgt.on_fw = [](Gp &, tlm_phase &phase, sc_time &) {
        phase = tlm_phase(9u);
        return TLM_UPDATED;
    };
    c = violation([&] { l.ini.fw(a, BEGIN_REQ); });
    EXPECT_EQ(c.rule, "unknown-phase");
    EXPECT_TRUE(contains(c.msg, "phase unknown phase #9")) << c.msg;
}

TEST(ProtocolCheckerTest, AcceptedMustLeaveThePhase)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    l.tgt.on_fw = [](Gp &, tlm_phase &phase, sc_time &) {
        phase = END_REQ;
        return TLM_ACCEPTED;
    };
    Caught c = violation([&] { l.ini.fw(a, BEGIN_REQ); });
    EXPECT_EQ(c.rule, "return-value");
    EXPECT_TRUE(contains(c.msg, "TLM_ACCEPTED returned with the phase changed from BEGIN_REQ")) << c.msg;
}

TEST(ProtocolCheckerTest, UpdatedMustCarryTheCalleesNextPhase)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    l.tgt.on_fw = [](Gp &, tlm_phase &phase, sc_time &) {
        phase = END_RESP; // an initiator's phase
        return TLM_UPDATED;
    };
    Caught c = violation([&] { l.ini.fw(a, BEGIN_REQ); });
    EXPECT_EQ(c.rule, "return-value");
    EXPECT_TRUE(contains(c.msg, "returned by the target with END_RESP")) << c.msg;

    RawLink m;
    Gp &b = m.payload(0x200);
    m.ini.fw(b, BEGIN_REQ);
    m.ini.on_bw = [](Gp &, tlm_phase &phase, sc_time &) {
        phase = END_RESP;
        return TLM_UPDATED;
    };
    c = violation([&] { m.tgt.bw(b, END_REQ); });
    EXPECT_EQ(c.rule, "return-value");
    EXPECT_TRUE(contains(c.msg, "TLM_UPDATED returned for END_REQ")) << c.msg;

    RawLink n;
    Gp &d = n.payload(0x300);
    n.tgt.on_fw = [](Gp &, tlm_phase &phase, sc_time &) {
        phase = BEGIN_REQ;
        return TLM_UPDATED;
    };
    EXPECT_EQ(violation([&] { n.ini.fw(d, BEGIN_REQ); }).rule, "return-value");
}

TEST(ProtocolCheckerTest, UpdatedPhaseMustFollowInOrder)
{
    // END_REQ returned after the target already sent END_REQ from inside the same call.
    RawLink l;
    Gp &a = l.payload(0x100);
    l.tgt.on_fw = [&](Gp &gp, tlm_phase &phase, sc_time &) {
        l.tgt.bw(gp, END_REQ);
        phase = END_REQ;
        return TLM_UPDATED;
    };
    EXPECT_EQ(violation([&] { l.ini.fw(a, BEGIN_REQ); }).rule, "phase-order");
}

TEST(ProtocolCheckerTest, UnknownReturnStatus)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    l.tgt.on_fw = [](Gp &, tlm_phase &, sc_time &) { return static_cast<tlm_sync_enum>(7); };
    Caught c = violation([&] { l.ini.fw(a, BEGIN_REQ); });
    EXPECT_EQ(c.rule, "return-value");
    EXPECT_TRUE(contains(c.msg, "unknown status #7")) << c.msg;
}

TEST(ProtocolCheckerTest, TargetMustNotModifyThePayload)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    l.tgt.on_fw = [](Gp &gp, tlm_phase &phase, sc_time &) {
        gp.set_address(0x140);
        phase = END_REQ;
        return TLM_UPDATED;
    };
    Caught c = violation([&] { l.ini.fw(a, BEGIN_REQ); });
    EXPECT_EQ(c.rule, "payload-modified");
    EXPECT_TRUE(contains(c.msg, "address changed from 0x100 to 0x140")) << c.msg;

    RawLink m;
    Gp &b = m.payload(0x200);
    m.ini.fw(b, BEGIN_REQ);
    m.tgt.bw(b, END_REQ);
    b.set_streaming_width(4);
    RawLink::ok(b);
    c = violation([&] { m.tgt.bw(b, BEGIN_RESP); });
    EXPECT_EQ(c.rule, "payload-modified");
    EXPECT_TRUE(contains(c.msg, "streaming width changed from 0x20 to 0x4")) << c.msg;

    RawLink n;
    Gp &d = n.payload(0x300);
    n.tgt.on_fw = [](Gp &gp, tlm_phase &, sc_time &) {
        RawLink::ok(gp);
        gp.set_command(TLM_WRITE_COMMAND);
        return TLM_COMPLETED;
    };
    EXPECT_EQ(violation([&] { n.ini.fw(d, BEGIN_REQ); }).rule, "payload-modified");

    // The data bytes and the response status may change.
    RawLink k;
    Gp &e = k.payload(0x400);
    k.tgt.on_fw = [](Gp &gp, tlm_phase &phase, sc_time &) {
        gp.get_data_ptr()[0] = 0x5a;
        RawLink::ok(gp);
        phase = BEGIN_RESP;
        return TLM_UPDATED;
    };
    EXPECT_NO_THROW(k.ini.fw(e, BEGIN_REQ));
}

TEST(ProtocolCheckerTest, ResponseStatusMustBeSet)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    l.ini.fw(a, BEGIN_REQ);
    Caught c = violation([&] { l.tgt.bw(a, BEGIN_RESP); });
    EXPECT_EQ(c.rule, "response-status");
    EXPECT_TRUE(contains(c.msg, "(address 0x100, phase BEGIN_RESP)")) << c.msg;

    RawLink m;
    Gp &b = m.payload(0x200);
    m.tgt.on_fw = [](Gp &, tlm_phase &, sc_time &) { return TLM_COMPLETED; };
    c = violation([&] { m.ini.fw(b, BEGIN_REQ); });
    EXPECT_EQ(c.rule, "response-status");
    EXPECT_TRUE(contains(c.msg, "the target returned TLM_COMPLETED")) << c.msg;
}

TEST(ProtocolCheckerTest, InitialResponseStatus)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    a.set_response_status(TLM_OK_RESPONSE);
    Caught c = violation([&] { l.ini.fw(a, BEGIN_REQ); });
    EXPECT_EQ(c.rule, "initial-response-status");
    EXPECT_TRUE(contains(c.msg, "TLM_OK_RESPONSE")) << c.msg;
}

TEST(ProtocolCheckerTest, PayloadAttributesAtBeginReq)
{
    struct Case {
        const char *rule;
        std::function<void(Gp &)> spoil;
    };
    static unsigned char be[4] = {0xff, 0xff, 0xff, 0xff};
    const std::vector<Case> cases = {
        {"data-length", [](Gp &gp) { gp.set_data_length(0); }},
        {"data-pointer", [](Gp &gp) { gp.set_data_ptr(nullptr); }},
        {"streaming-width", [](Gp &gp) { gp.set_streaming_width(0); }},
        {"byte-enable", [](Gp &gp) { gp.set_byte_enable_ptr(be); }},
    };
    for (const Case &k : cases) {
        RawLink l;
        Gp &a = l.payload(0x100);
        k.spoil(a);
        EXPECT_EQ(violation([&] { l.ini.fw(a, BEGIN_REQ); }).rule, k.rule);
        EXPECT_EQ(l.chk.outstanding(), 0u);
    }
    // Legal corner cases: a streaming burst (width below the length) and byte enables with a length.
    RawLink l;
    Gp &a = l.payload(0x100);
    a.set_streaming_width(4);
    a.set_byte_enable_ptr(be);
    a.set_byte_enable_length(4);
    EXPECT_NO_THROW(l.ini.fw(a, BEGIN_REQ));
}

TEST(ProtocolCheckerTest, MemoryManagerRequired)
{
    RawLink l;
    unsigned char data[8] = {};
    Gp bare; // no memory manager
    bare.set_command(TLM_READ_COMMAND);
    bare.set_address(0x100);
    bare.set_data_ptr(data);
    bare.set_data_length(8);
    bare.set_streaming_width(8);
    Caught c = violation([&] { l.ini.fw(bare, BEGIN_REQ); });
    EXPECT_EQ(c.rule, "memory-manager");
    EXPECT_TRUE(contains(c.msg, "(address 0x100, phase BEGIN_REQ)")) << c.msg;
}

TEST(ProtocolCheckerTest, TimeDoesNotGoBack)
{
    RawLink l;
    Gp &a = l.payload(0x100);
    l.ini.fw(a, BEGIN_REQ, sc_time(10, SC_NS));
    EXPECT_NO_THROW(l.tgt.bw(a, END_REQ, sc_time(10, SC_NS))) << "the same time is fine";
    RawLink::ok(a);
    Caught c = violation([&] { l.tgt.bw(a, BEGIN_RESP, sc_time(4, SC_NS)); });
    EXPECT_EQ(c.rule, "time-order");
    EXPECT_TRUE(contains(c.msg, "happens at 4 ns, before the previous phase at 10 ns")) << c.msg;
}

TEST(ProtocolCheckerTest, CheckIdleNamesTheTransactionsInFlight)
{
    RawLink l;
    Gp &a = l.payload(0x100), &b = l.payload(0x200);
    EXPECT_NO_THROW(l.chk.check_idle());
    l.ini.fw(a, BEGIN_REQ);
    l.tgt.bw(a, END_REQ);
    l.ini.fw(b, BEGIN_REQ);
    Caught c = violation([&] { l.chk.check_idle(); });
    EXPECT_EQ(c.rule, "idle");
    EXPECT_TRUE(contains(c.msg, "chk: TLM base protocol violation [idle]: 2 transaction(s) still in flight: "
                                "(address 0x100, phase END_REQ) (address 0x200, phase BEGIN_REQ)"))
        << c.msg;
    l.tgt.on_fw = [](Gp &, tlm_phase &, sc_time &) { return TLM_COMPLETED; };
    for (Gp *gp : {&a, &b}) {
        RawLink::ok(*gp);
        l.tgt.bw(*gp, BEGIN_RESP);
        l.ini.fw(*gp, END_RESP);
    }
    EXPECT_NO_THROW(l.chk.check_idle());
    EXPECT_EQ(l.chk.checked(), 2u);
}

// A violation inside a running simulation leaves sc_start() as an exception with the same text.
struct DoubleRequester : sc_core::sc_module {
    RawInitiator ini{"ini"};
    gtlm::PayloadPool pool;
    SC_HAS_PROCESS(DoubleRequester);
    explicit DoubleRequester(sc_core::sc_module_name n) : sc_core::sc_module(n) { SC_THREAD(run); }
    void run()
    {
        wait(2, SC_NS);
        ini.fw(*pool.get(TLM_READ_COMMAND, 0x700, 32), BEGIN_REQ);
        ini.fw(*pool.get(TLM_READ_COMMAND, 0x740, 32), BEGIN_REQ);
    }
};

TEST(ProtocolCheckerTest, ViolationDuringSimulationReachesTheCaller)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    DoubleRequester req("req");
    gtlm::ProtocolChecker chk("chk");
    RawTarget tgt("tgt");
    chk.insert(req.ini.socket, tgt.socket);
    std::string msg;
    try {
        sc_core::sc_start();
    } catch (const std::exception &e) {
        msg = e.what();
    }
    EXPECT_TRUE(contains(msg, "chk: TLM base protocol violation [request-exclusion]")) << msg;
    EXPECT_TRUE(contains(msg, "(address 0x740, phase BEGIN_REQ)")) << msg;
}

// ---------------------------------------------------------------------------------------------
// A correct AT link with back-pressure both ways: 1000 transactions, no violation.

// Sends n requests, one every nanosecond when allowed; holds every third response for 5 ns.
struct Source : sc_core::sc_module {
    gtlm::AtInitiator port{"port"};
    gtlm::PayloadPool pool;
    uint64_t n;
    uint64_t received = 0, held = 0, out_of_order = 0;
    std::vector<double> arrivals; // response arrival times in ns
    sc_core::sc_event ready_ev, release_ev;
    bool holding = false;

    SC_HAS_PROCESS(Source);
    Source(sc_core::sc_module_name name, uint64_t count) : sc_core::sc_module(name), n(count)
    {
        port.on_ready = [this] { ready_ev.notify(SC_ZERO_TIME); };
        port.on_response = [this](Gp &gp, const sc_time &at) {
            if (!holding && received % 3 == 1) {
                holding = true;
                held++;
                release_ev.notify(5, SC_NS);
                return false;
            }
            holding = false;
            if (gp.get_address() != 0x1000 + 64 * received || gp.get_response_status() != TLM_OK_RESPONSE)
                out_of_order++;
            received++;
            arrivals.push_back(at / sc_time(1, SC_NS));
            gp.release();
            return true;
        };
        SC_THREAD(send_all);
        SC_THREAD(release_held);
    }
    void send_all()
    {
        for (uint64_t i = 0; i < n; i++) {
            while (!port.can_send()) wait(ready_ev);
            Gp *gp = pool.get(i % 2 ? TLM_WRITE_COMMAND : TLM_READ_COMMAND, 0x1000 + 64 * i, 64);
            port.send(*gp);
            wait(1, SC_NS);
        }
    }
    void release_held()
    {
        for (;;) {
            wait(release_ev);
            port.take_held_response();
        }
    }
};

// Queues at most two requests (holding the next one, END_REQ withheld, until there is room) and
// answers them in order, 3 ns apiece, waiting for END_RESP before the next response.
struct Sink : sc_core::sc_module {
    gtlm::AtTarget port{"port"};
    std::deque<Gp *> queue;
    uint64_t held = 0;
    sc_core::sc_event req_ev, resp_ready_ev;

    SC_HAS_PROCESS(Sink);
    explicit Sink(sc_core::sc_module_name name) : sc_core::sc_module(name)
    {
        port.on_request = [this](Gp &gp, const sc_time &) {
            if (queue.size() >= 2) {
                held++;
                return false;
            }
            queue.push_back(&gp);
            req_ev.notify(SC_ZERO_TIME);
            return true;
        };
        port.on_resp_ready = [this] { resp_ready_ev.notify(SC_ZERO_TIME); };
        SC_THREAD(respond_all);
    }
    void respond_all()
    {
        for (;;) {
            while (queue.empty()) wait(req_ev);
            wait(3, SC_NS);
            Gp *gp = queue.front();
            gp->set_response_status(TLM_OK_RESPONSE);
            while (!port.respond(*gp)) wait(resp_ready_ev);
            queue.pop_front();
            port.take_held_request(); // room again: a held request, if any, gets its END_REQ
        }
    }
};

struct BurstResult {
    uint64_t received, source_held, sink_held, out_of_order, checked, pool_in_use;
    std::vector<double> arrivals; // ns
    double end_ns;
};

BurstResult run_burst(uint64_t n, bool with_checker)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    auto src = std::make_unique<Source>("src", n);
    auto sink = std::make_unique<Sink>("sink");
    std::unique_ptr<gtlm::ProtocolChecker> chk;
    if (with_checker) {
        chk = std::make_unique<gtlm::ProtocolChecker>("chk");
        chk->insert(src->port.socket, sink->port.socket);
    } else {
        src->port.socket.bind(sink->port.socket);
    }
    sc_core::sc_start(); // runs until no process has anything left to do
    // Times leave the context as numbers: an sc_time means nothing outside its own context.
    BurstResult r{src->received, src->held, sink->held, src->out_of_order, chk ? chk->checked() : 0,
                  src->pool.in_use(), src->arrivals, sc_core::sc_time_stamp() / sc_time(1, SC_NS)};
    if (chk) {
        EXPECT_EQ(chk->outstanding(), 0u);
        EXPECT_NO_THROW(chk->check_idle());
    }
    return r;
}

TEST(ProtocolCheckerTest, AtLinkWithBackPressurePasses)
{
    BurstResult r = run_burst(1000, true);
    EXPECT_EQ(r.received, 1000u);
    EXPECT_EQ(r.checked, 1000u);
    EXPECT_EQ(r.out_of_order, 0u) << "responses come back in request order with status OK";
    EXPECT_EQ(r.pool_in_use, 0u);
    // Responses number 1, 4, 7, ... 997 are held once each: 333 of them.
    EXPECT_EQ(r.source_held, 333u);
    // The target is slower than the initiator: requests 0 and 1 fill its queue, every later one
    // arrives while the queue is full and waits for room.
    EXPECT_EQ(r.sink_held, 998u);
    // Responses leave every 3 ns, except that a held one (1, 4, 7, ...) delays the next by 5 ns:
    // response 3k arrives at 3 + 11k ns, the last one (k = 333) at 3666 ns, where the run ends.
    ASSERT_EQ(r.arrivals.size(), 1000u);
    EXPECT_EQ(r.arrivals[0], 3.0);
    EXPECT_EQ(r.arrivals[1], 11.0) << "response 1 left at 6 ns and was taken when released 5 ns later";
    EXPECT_EQ(r.arrivals[2], 11.0);
    EXPECT_EQ(r.arrivals[3], 14.0);
    EXPECT_EQ(r.arrivals[999], 3666.0);
    EXPECT_EQ(r.end_ns, 3666.0);
}

TEST(ProtocolCheckerTest, CheckerDoesNotChangeTiming)
{
    BurstResult with = run_burst(200, true);
    BurstResult without = run_burst(200, false);
    EXPECT_EQ(with.received, 200u);
    EXPECT_EQ(with.arrivals, without.arrivals);
    EXPECT_EQ(with.end_ns, without.end_ns);
    EXPECT_EQ(with.sink_held, without.sink_held);
}

} // namespace
