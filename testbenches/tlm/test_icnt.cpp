// The interconnect module: latency of a lone packet each way, back-pressure in both directions
// without loss or reordering, statistics, one shared network and two separate ones.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "icnt/icnt.h"
#include "kernel/clock_domain.h"
#include "kernel/sc_context.h"
#include "mem/payload_pool.h"

namespace {

using gtlm::Gp;
using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;

constexpr uint32_t kLine = 128;

gtlm_config make_cfg(int subnets, int arbiter, int latency, int in_limit, int out_limit)
{
    gtlm_config c{};
    c.noc.network_mode = 2;
    c.noc.flit_size = 32;
    c.noc.in_buffer_limit = in_limit;
    c.noc.out_buffer_limit = out_limit;
    c.noc.subnets = subnets;
    c.noc.arbiter = arbiter;
    c.noc.latency = latency;
    return c;
}

// Interconnect packet sizes with 32-byte flits: an 8-byte header, plus a line of data for
// writes going out and reads coming back.
int req_flits(bool write) { return write ? 5 : 1; }
int rsp_flits(bool write) { return write ? 1 : 5; }

struct Send {
    uint32_t dst;
    bool write;
};

// An SM stand-in: sends its plan of requests (ids 0, 1, ...) as fast as the link takes them,
// at most one per `gap`, from `start` on; records responses. Refuses responses before
// refuse_until (back-pressure on the response path).
struct Source : sc_core::sc_module {
    struct Got {
        uint64_t id;
        uint32_t slice;
        sc_time at;
    };
    gtlm::AtInitiator port{"port"};
    gtlm::PayloadPool &pool;
    uint32_t sm;
    std::vector<Send> plan;
    sc_time next_time, gap, refuse_until;
    double queued_ago = 0;   // ns: stamps each request as queued that long before it is sent
    int deltas, deltas_left; // delta cycles to wait at each send time (process-order tests)
    size_t next = 0;
    bool unrefuse_armed = false;
    sc_core::sc_event ready_ev;
    std::vector<Got> got;

    SC_HAS_PROCESS(Source);
    Source(sc_core::sc_module_name n, gtlm::PayloadPool &p, uint32_t sm_, std::vector<Send> plan_, sc_time start,
           sc_time gap_, sc_time refuse, int deltas_)
        : sc_core::sc_module(n), pool(p), sm(sm_), plan(std::move(plan_)), next_time(start), gap(gap_),
          refuse_until(refuse), deltas(deltas_), deltas_left(deltas_)
    {
        port.on_ready = [this] { ready_ev.notify(SC_ZERO_TIME); };
        port.on_response = [this](Gp &gp, const sc_time &) {
            if (sc_core::sc_time_stamp() < refuse_until) return false;
            EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
            got.push_back({gtlm::mem_ext(gp).id, gtlm::mem_ext(gp).dst, sc_core::sc_time_stamp()});
            gp.release();
            return true;
        };
        SC_METHOD(run);
        SC_METHOD(unrefuse);
    }

    void run()
    {
        sc_time now = sc_core::sc_time_stamp();
        while (next < plan.size() && now >= next_time && port.can_send()) {
            if (deltas_left > 0) {
                deltas_left--;
                next_trigger(SC_ZERO_TIME);
                return;
            }
            deltas_left = deltas;
            const Send &s = plan[next];
            Gp *gp = pool.get(s.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, 0x1000 + next * kLine, kLine);
            gtlm::gtlm_mem_ext &e = gtlm::mem_ext(*gp);
            e.sm = sm;
            e.dst = s.dst;
            e.id = next;
            e.kind = s.write ? gtlm::MemKind::Store : gtlm::MemKind::Load;
            if (queued_ago > 0) e.queued_at = (now - sc_time(queued_ago, sc_core::SC_NS)).value();
            next++;
            next_time = now + gap;
            port.send(*gp);
        }
        if (next >= plan.size()) return;
        if (!port.can_send()) next_trigger(ready_ev);
        else next_trigger(next_time - now);
    }

    void unrefuse()
    {
        if (!unrefuse_armed) {
            unrefuse_armed = true;
            if (refuse_until > SC_ZERO_TIME) next_trigger(refuse_until);
            return;
        }
        port.take_held_response();
    }
};

// An L2 slice stand-in: records requests, responds to each `delay` after it arrived, in arrival
// order. Refuses requests before refuse_until (back-pressure on the request path).
struct Sink : sc_core::sc_module {
    struct Arrival {
        uint32_t sm;
        uint64_t id;
        sc_time at;
    };
    gtlm::AtTarget port{"port"};
    sc_time delay, refuse_until;
    double queued_ago = 0; // ns: stamps each response as queued that long before it is sent
    bool unrefuse_armed = false;
    std::deque<std::pair<sc_time, Gp *>> pending;
    sc_core::sc_event resp_ev;
    std::vector<Arrival> arrivals;

    SC_HAS_PROCESS(Sink);
    Sink(sc_core::sc_module_name n, sc_time delay_, sc_time refuse = SC_ZERO_TIME)
        : sc_core::sc_module(n), delay(delay_), refuse_until(refuse)
    {
        port.on_request = [this](Gp &gp, const sc_time &) {
            sc_time now = sc_core::sc_time_stamp();
            if (now < refuse_until) return false;
            arrivals.push_back({gtlm::mem_ext(gp).sm, gtlm::mem_ext(gp).id, now});
            pending.push_back({now + delay, &gp});
            resp_ev.notify(delay);
            return true;
        };
        port.on_resp_ready = [this] { resp_ev.notify(SC_ZERO_TIME); };
        SC_METHOD(respond);
        sensitive << resp_ev;
        dont_initialize();
        SC_METHOD(unrefuse);
    }

    void respond()
    {
        sc_time now = sc_core::sc_time_stamp();
        while (!pending.empty() && pending.front().first <= now && port.can_respond()) {
            Gp *gp = pending.front().second;
            pending.pop_front();
            gp->set_response_status(tlm::TLM_OK_RESPONSE);
            if (queued_ago > 0) gtlm::mem_ext(*gp).queued_at = (now - sc_time(queued_ago, sc_core::SC_NS)).value();
            port.respond(*gp);
        }
        if (!pending.empty() && port.can_respond()) resp_ev.notify(pending.front().first - now);
    }

    void unrefuse()
    {
        if (!unrefuse_armed) {
            unrefuse_armed = true;
            if (refuse_until > SC_ZERO_TIME) next_trigger(refuse_until);
            return;
        }
        port.take_held_request();
    }
};

// Times in ns: sc_time values may only be made once the test's simulation context is current
// (its time resolution is femtoseconds; another context's would be picked up otherwise).
struct SourceSpec {
    std::vector<Send> plan;
    double start = 0, gap = 0, refuse_until = 0;
    int deltas = 0;
};
struct SinkSpec {
    double delay, refuse_until = 0;
};

sc_time ns(double t) { return sc_time(t, SC_NS); }

// A fresh simulation: icnt clock 1 GHz (1 ns per icnt cycle), sources on the SM ports, sinks on
// the slice ports, statistics registered.
struct Bench {
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use{ctx};
    gtlm::PayloadPool pool;
    stat_registry *stats = stat_registry_new();
    std::unique_ptr<gtlm::ClockDomain> dom;
    std::unique_ptr<gtlm::Icnt> icnt;
    std::vector<std::unique_ptr<Source>> src;
    std::vector<std::unique_ptr<Sink>> sink;

    Bench(const gtlm_config &cfg, const std::vector<SourceSpec> &sources, const std::vector<SinkSpec> &sinks,
          bool ext_ports = false)
    {
        dom = std::make_unique<gtlm::ClockDomain>("icnt_clock", sc_time(1, SC_NS));
        icnt = std::make_unique<gtlm::Icnt>("icnt", cfg, *dom, static_cast<int>(sources.size()),
                                            static_cast<int>(sinks.size()), stats, ext_ports);
        for (size_t i = 0; i < sources.size(); i++) {
            const SourceSpec &s = sources[i];
            src.push_back(std::make_unique<Source>(("sm" + std::to_string(i)).c_str(), pool,
                                                   static_cast<uint32_t>(i), s.plan, ns(s.start), ns(s.gap),
                                                   ns(s.refuse_until), s.deltas));
            src[i]->port.socket.bind(icnt->from_sm[i]->socket);
        }
        for (size_t j = 0; j < sinks.size(); j++) {
            sink.push_back(std::make_unique<Sink>(("l2_" + std::to_string(j)).c_str(), ns(sinks[j].delay),
                                                  ns(sinks[j].refuse_until)));
            icnt->to_l2[j]->socket.bind(sink[j]->port.socket);
        }
        stat_kernel_begin(stats, "k");
    }
    ~Bench()
    {
        src.clear();
        sink.clear();
        icnt.reset();
        dom.reset();
        stat_registry_free(stats);
    }

    double stat(const char *name, stat_scope scope = STAT_SCOPE_KERNEL) const
    {
        double v = -1;
        EXPECT_EQ(stat_get(stats, name, scope, &v), 0) << name;
        return v;
    }
};

// Runs a check in every network shape: one shared network or two, round-robin or iSLIP.
template <class Check> void for_each_network(Check check)
{
    for (int subnets : {1, 2})
        for (int arbiter : {XBAR_RR, XBAR_ISLIP}) {
            SCOPED_TRACE("subnets " + std::to_string(subnets) + ", arbiter " + std::to_string(arbiter));
            check(subnets, arbiter);
        }
}

// A lone read from SM 1 to slice 1, sent at 10 ns (on icnt edge 10): visible at edge 11, its
// one request flit crosses at 11 and is ready 1 + latency(3) later, at 15. The slice answers
// 4 ns later (19); the response is visible at 20, its 5 flits cross at 20..24 and it is ready at
// 20 + 5 + 3 = 28. Each way takes flits + icnt_latency cycles from the visible edge.
TEST(IcntTest, LoneReadLatencyIsFlitsPlusLatencyEachWay)
{
    for_each_network([](int subnets, int arbiter) {
        Bench b(make_cfg(subnets, arbiter, 3, 16, 16), {{}, {{{1, false}}, 10}}, {{4}, {4}});
        sc_core::sc_start();
        ASSERT_EQ(b.sink[1]->arrivals.size(), 1u);
        EXPECT_EQ(b.sink[1]->arrivals[0].at, ns(10 + 1 + req_flits(false) + 3));
        EXPECT_EQ(b.sink[1]->arrivals[0].sm, 1u);
        ASSERT_EQ(b.src[1]->got.size(), 1u);
        EXPECT_EQ(b.src[1]->got[0].at, ns(19 + 1 + rsp_flits(false) + 3));
        EXPECT_TRUE(b.sink[0]->arrivals.empty());
        EXPECT_TRUE(b.src[0]->got.empty());
        EXPECT_FALSE(b.icnt->busy());
        EXPECT_EQ(b.pool.in_use(), 0u);
        // Idle skipping: edges 11 and 15 for the request, 20..24 (flits crossing) and 28 for the response.
        EXPECT_EQ(b.dom->ticks(), 8u);

        EXPECT_EQ(b.stat("gpu.icnt.req.packets"), 1);
        EXPECT_EQ(b.stat("gpu.icnt.req.flits"), 1);
        EXPECT_EQ(b.stat("gpu.icnt.req.latency_sum"), 1 + 3);
        EXPECT_EQ(b.stat("gpu.icnt.req.avg_latency"), 4);
        EXPECT_EQ(b.stat("gpu.icnt.rsp.packets"), 1);
        EXPECT_EQ(b.stat("gpu.icnt.rsp.flits"), 5);
        EXPECT_EQ(b.stat("gpu.icnt.rsp.latency_sum"), 5 + 3);
        EXPECT_EQ(b.stat("gpu.icnt.rsp.avg_latency"), 8);
        EXPECT_EQ(b.stat("gpu.icnt.req.stall_cycles"), 0);
        stat_kernel_end(b.stats);
        // GPGPU-Sim's names count flits: 1 request flit, 5 response flits.
        EXPECT_EQ(b.stat("icnt_total_pkts_simt_to_mem"), 1);
        EXPECT_EQ(b.stat("icnt_total_pkts_mem_to_simt"), 5);
    });
}

// A lone write sent between edges (10.4 ns): visible at edge 11, 5 request flits, ready at
// 11 + 5 + 2 = 18; answered 3 ns later (21), visible at 22, 1 flit: ready at 22 + 1 + 2 = 25.
// CBWT's sampler on the lone read above (request 4 cycles, response 8): with
// -cbwt_noc_src_queue 1 a packet's latency starts when it entered its sender's queue. The SM
// stamps the request as queued 6 ns before it sent it (10 ns): edge 4, so 15 - 4 = 11 cycles; the
// slice stamps the response 3 ns before it sent it (19 ns): edge 16, so 28 - 16 = 12. Without the
// option the stamps are ignored: 4 and 8. Per direction and per SM (the request's sender, the
// response's receiver).
TEST(IcntTest, CbwtSamplerCountsTheSendersQueueWhenAsked)
{
    for (int q : {0, 1}) {
        for_each_network([q](int subnets, int arbiter) {
            gtlm_config cfg = make_cfg(subnets, arbiter, 3, 16, 16);
            cfg.cbwt.noc_src_queue = q;
            Bench b(cfg, {{}, {{{1, false}}, 10}}, {{4}, {4}});
            b.src[1]->queued_ago = 6;
            b.sink[1]->queued_ago = 3;
            noc_sampler s;
            ASSERT_EQ(noc_sampler_init(&s, 1, 2), 0);
            b.icnt->set_sampler(&s);
            sc_core::sc_start();
            ASSERT_EQ(b.src[1]->got.size(), 1u);
            EXPECT_EQ(s.dir_all_sum[NOC_DIR_REQ], q ? 11u : 4u);
            EXPECT_EQ(s.dir_all_sum[NOC_DIR_RSP], q ? 12u : 8u);
            EXPECT_EQ(s.dir_smp_cnt[NOC_DIR_REQ], 1u);
            EXPECT_EQ(s.dir_smp_cnt[NOC_DIR_RSP], 1u);
            EXPECT_EQ(s.sm_cnt[1], 2u);
            EXPECT_EQ(s.sm_cnt[0], 0u);
            EXPECT_DOUBLE_EQ(noc_sampler_sm_period(&s, 1, 0), q ? 11.5 : 6.0);
            noc_sampler_free(&s);
        });
    }
}

TEST(IcntTest, LoneWriteBetweenEdgesEntersAtTheNextEdge)
{
    for_each_network([](int subnets, int arbiter) {
        Bench b(make_cfg(subnets, arbiter, 2, 16, 16), {{{{0, true}}, 10.4}}, {{3}});
        sc_core::sc_start();
        ASSERT_EQ(b.sink[0]->arrivals.size(), 1u);
        EXPECT_EQ(b.sink[0]->arrivals[0].at, ns(11 + req_flits(true) + 2));
        ASSERT_EQ(b.src[0]->got.size(), 1u);
        EXPECT_EQ(b.src[0]->got[0].at, ns(22 + rsp_flits(true) + 2));
        EXPECT_EQ(b.stat("gpu.icnt.req.flits"), 5);
        EXPECT_EQ(b.stat("gpu.icnt.rsp.flits"), 1);
        EXPECT_EQ(b.stat("gpu.icnt.req.latency_sum"), 5 + 2);
        EXPECT_EQ(b.stat("gpu.icnt.rsp.latency_sum"), 1 + 2);
    });
}

// 4 SMs x 200 requests (every third a write) to slice 0, which refuses everything for 500 ns:
// far more than the 8-flit buffers hold. All arrive once, after 500 ns, in per-source order,
// and every response returns to its SM once and in order.
TEST(IcntTest, BurstIntoStalledSliceLosesNothingAndKeepsOrder)
{
    for_each_network([](int subnets, int arbiter) {
        const int n_sms = 4, n = 200;
        std::vector<SourceSpec> sources(n_sms);
        uint64_t req_fl = 0, rsp_fl = 0;
        for (auto &s : sources)
            for (int k = 0; k < n; k++) {
                bool w = k % 3 == 0;
                s.plan.push_back({0, w});
                req_fl += req_flits(w);
                rsp_fl += rsp_flits(w);
            }
        EXPECT_EQ(req_fl, 4u * (67 * 5 + 133));
        Bench b(make_cfg(subnets, arbiter, 1, 8, 8), sources, {{2, 500}, {2}});

        sc_core::sc_start(ns(300));
        EXPECT_TRUE(b.icnt->busy());
        std::string d;
        b.icnt->describe(d);
        EXPECT_NE(d.find("icnt.from_sm[0]: request held"), std::string::npos) << d;
        EXPECT_NE(d.find("icnt.to_l2[0]: request sent, END_REQ awaited"), std::string::npos) << d;
        EXPECT_EQ(d.find("to_l2[1]"), std::string::npos) << "idle ports are not described\n" << d;

        sc_core::sc_start();
        ASSERT_EQ(b.sink[0]->arrivals.size(), static_cast<size_t>(n_sms * n));
        std::vector<uint64_t> next_id(n_sms, 0);
        for (const auto &a : b.sink[0]->arrivals) {
            EXPECT_GE(a.at, ns(500));
            ASSERT_LT(a.sm, static_cast<uint32_t>(n_sms));
            EXPECT_EQ(a.id, next_id[a.sm]++) << "SM " << a.sm;
        }
        for (int i = 0; i < n_sms; i++) {
            EXPECT_EQ(next_id[i], static_cast<uint64_t>(n));
            ASSERT_EQ(b.src[i]->got.size(), static_cast<size_t>(n));
            for (int k = 0; k < n; k++) EXPECT_EQ(b.src[i]->got[k].id, static_cast<uint64_t>(k));
        }
        EXPECT_TRUE(b.sink[1]->arrivals.empty());
        EXPECT_EQ(b.pool.in_use(), 0u);
        EXPECT_FALSE(b.icnt->busy());

        EXPECT_EQ(b.stat("gpu.icnt.req.packets"), n_sms * n);
        EXPECT_EQ(b.stat("gpu.icnt.rsp.packets"), n_sms * n);
        EXPECT_EQ(b.stat("gpu.icnt.req.flits"), static_cast<double>(req_fl));
        EXPECT_EQ(b.stat("gpu.icnt.rsp.flits"), static_cast<double>(rsp_fl));
        // Each SM's port fills (at most 8 + 8 flits fit) long before edge 100 and stays refused
        // until the slice takes requests at 500.
        EXPECT_GT(b.stat("gpu.icnt.req.stall_cycles"), n_sms * (500 - 100));
        // Latency counts from entering the crossbar to being ready: at least flits + latency each.
        EXPECT_GE(b.stat("gpu.icnt.req.latency_sum"), static_cast<double>(req_fl + n_sms * n));
    });
}

// 4 SMs x 120 requests spread over 3 slices with different delays; slice 1 refuses requests
// until 200 ns and SM 2 refuses responses until 300 ns. Every (source, slice) pair keeps its
// order both ways and nothing is lost or duplicated.
TEST(IcntTest, EveryPairKeepsOrderUnderBackPressureBothWays)
{
    for_each_network([](int subnets, int arbiter) {
        const int n_sms = 4, n_sl = 3, n = 120;
        std::vector<SourceSpec> sources(n_sms);
        uint64_t req_fl = 0, rsp_fl = 0;
        for (int i = 0; i < n_sms; i++) {
            for (int k = 0; k < n; k++) {
                uint32_t dst = static_cast<uint32_t>((k * 5 + i * 3 + k / 7) % n_sl);
                bool w = (k + i) % 4 == 1;
                sources[i].plan.push_back({dst, w});
                req_fl += req_flits(w);
                rsp_fl += rsp_flits(w);
            }
            sources[i].start = i;
            sources[i].gap = i % 2; // SMs 1 and 3 send at most one request per ns
        }
        sources[2].refuse_until = 300;
        Bench b(make_cfg(subnets, arbiter, 2, 10, 6), sources, {{3}, {8, 200}, {1}});
        sc_core::sc_start();

        for (int j = 0; j < n_sl; j++) {
            std::vector<int64_t> last(n_sms, -1);
            for (const auto &a : b.sink[j]->arrivals) {
                ASSERT_LT(a.sm, static_cast<uint32_t>(n_sms));
                EXPECT_GT(static_cast<int64_t>(a.id), last[a.sm]) << "slice " << j << " SM " << a.sm;
                last[a.sm] = static_cast<int64_t>(a.id);
                EXPECT_EQ(sources[a.sm].plan[a.id].dst, static_cast<uint32_t>(j));
                if (j == 1) {
                    EXPECT_GE(a.at, ns(200));
                }
            }
        }
        size_t arrived = 0;
        for (int j = 0; j < n_sl; j++) arrived += b.sink[j]->arrivals.size();
        EXPECT_EQ(arrived, static_cast<size_t>(n_sms * n));
        for (int i = 0; i < n_sms; i++) {
            ASSERT_EQ(b.src[i]->got.size(), static_cast<size_t>(n)) << "SM " << i;
            std::vector<int> seen(n, 0);
            std::vector<int64_t> last(n_sl, -1);
            for (const auto &g : b.src[i]->got) {
                ASSERT_LT(g.id, static_cast<uint64_t>(n));
                seen[g.id]++;
                EXPECT_EQ(g.slice, sources[i].plan[g.id].dst);
                EXPECT_GT(static_cast<int64_t>(g.id), last[g.slice]) << "SM " << i << " from slice " << g.slice;
                last[g.slice] = static_cast<int64_t>(g.id);
                if (i == 2) {
                    EXPECT_GE(g.at, ns(300));
                }
            }
            for (int k = 0; k < n; k++) EXPECT_EQ(seen[k], 1) << "SM " << i << " id " << k;
        }
        EXPECT_EQ(b.pool.in_use(), 0u);
        EXPECT_EQ(b.stat("gpu.icnt.req.packets"), n_sms * n);
        EXPECT_EQ(b.stat("gpu.icnt.rsp.packets"), n_sms * n);
        EXPECT_EQ(b.stat("gpu.icnt.req.flits"), static_cast<double>(req_fl));
        EXPECT_EQ(b.stat("gpu.icnt.rsp.flits"), static_cast<double>(rsp_fl));
    });
}

// In the shared network a request and a response cross in the same cycles: requests use SM
// inputs and slice outputs, responses slice inputs and SM outputs, so they never contend.
// SM 0 reads at 10 (visible 11, ready 11 + 1 + 1 = 13; answered at 14, visible 15, ready
// 15 + 5 + 1 = 21); SM 1 writes to slice 0 at 14 (visible 15, ready 15 + 5 + 1 = 21).
TEST(IcntTest, SharedNetworkCarriesRequestAndResponseInParallel)
{
    Bench b(make_cfg(1, XBAR_ISLIP, 1, 16, 16), {{{{0, false}}, 10}, {{{0, true}}, 14}}, {{1}});
    sc_core::sc_start();
    ASSERT_EQ(b.sink[0]->arrivals.size(), 2u);
    EXPECT_EQ(b.sink[0]->arrivals[0].at, ns(13));
    EXPECT_EQ(b.sink[0]->arrivals[1].at, ns(21));
    ASSERT_EQ(b.src[0]->got.size(), 1u);
    EXPECT_EQ(b.src[0]->got[0].at, ns(21));
    EXPECT_TRUE(b.icnt->shared_network());
}

// A request sent at 10 ns while the interconnect ticks at edge 10 (SM 0's write keeps it busy
// from 9 to 13) is visible at edge 11 whether the sender's method runs before the tick of edge
// 10 or after it (a few delta cycles later): ready at 11 + 1 + 2 = 14 either way.
TEST(IcntTest, ArrivalAtAnEdgeDoesNotDependOnProcessOrder)
{
    for (int deltas : {0, 1, 3}) {
        SCOPED_TRACE("sender waits " + std::to_string(deltas) + " delta cycles");
        SourceSpec busy{{{0, true}}, 8};
        SourceSpec probe{{{1, false}}, 10};
        probe.deltas = deltas;
        Bench b(make_cfg(2, XBAR_ISLIP, 2, 16, 16), {busy, probe}, {{50}, {50}});
        sc_core::sc_start();
        ASSERT_EQ(b.sink[0]->arrivals.size(), 1u);
        EXPECT_EQ(b.sink[0]->arrivals[0].at, ns(9 + 5 + 2));
        ASSERT_EQ(b.sink[1]->arrivals.size(), 1u);
        EXPECT_EQ(b.sink[1]->arrivals[0].at, ns(11 + 1 + 2));
    }
}

// Morpheus' packets (Icnt::attach_ext) cross the same crossbar as the compute packets. Latency 2,
// 32-byte flits; a controller's fill (8 + 128 bytes) and a warp's result with a line are 5 flits.
// SM 1 is the cache-mode SM. Each packet is a pooled payload of kind ExtLlc handed in at `at` ns.
struct ExtGot {
    uint64_t cycle;
    sc_time at;
};
struct ExtBench : Bench {
    std::vector<ExtGot> at_sm, at_ctl;
    explicit ExtBench(int subnets, int arbiter, std::vector<SourceSpec> sources, SinkSpec sink = {4})
        : Bench(make_cfg(subnets, arbiter, 2, 16, 16), std::move(sources), {sink}, true)
    {
        icnt->attach_ext({[this](Gp &gp, uint64_t c) { got(at_sm, gp, c); },
                          [this](Gp &gp, uint64_t c) { got(at_ctl, gp, c); }},
                         stats);
    }
    void got(std::vector<ExtGot> &v, Gp &gp, uint64_t c)
    {
        EXPECT_EQ(gtlm::mem_ext(gp).kind, gtlm::MemKind::ExtLlc);
        v.push_back({c, sc_core::sc_time_stamp()});
        gp.release();
    }
    // Runs to `at` ns (between edges) and sends one 136-byte packet: slice 0 -> SM `sm`, or back.
    void send_at(double at, bool to_sm, uint32_t sm = 1)
    {
        if (ns(at) > sc_core::sc_time_stamp()) sc_core::sc_start(ns(at) - sc_core::sc_time_stamp());
        Gp *gp = pool.get(tlm::TLM_WRITE_COMMAND, 0x8000, kLine);
        gtlm::gtlm_mem_ext &e = gtlm::mem_ext(*gp);
        e.kind = gtlm::MemKind::ExtLlc;
        e.sm = sm;
        e.dst = 0;
        if (to_sm) icnt->send_ext_to_sm(0, static_cast<int>(sm), 8 + kLine, *gp);
        else icnt->send_ext_to_ctl(static_cast<int>(sm), 0, 8 + kLine, *gp);
    }
};

// Slice 0's input of the response network, shared by a compute response and a Morpheus packet.
// SM 0 reads at 10 ns: ready at slice 0 at 11 + 1 + 2 = 14, answered at 18, visible at edge 19.
// (a) The controller's fill arrives at 18.5 ns, also visible at 19 but behind the response: the
//     response's 5 flits cross 19..23 (ready 19 + 5 + 2 = 26, as alone); the fill's cross 24..28,
//     ready 24 + 5 + 2 = 31 instead of 26 alone.
// (b) The fill arrives at 17.5 ns, visible at 18: it crosses 18..22 (ready 25); the response
//     waits for the input and crosses 23..27: ready 30 instead of 26.
TEST(IcntTest, MorpheusPacketAndComputeResponseShareTheSliceInput)
{
    for_each_network([](int subnets, int arbiter) {
        for (bool fill_first : {false, true}) {
            SCOPED_TRACE(fill_first ? "fill first" : "response first");
            ExtBench b(subnets, arbiter, {{{{0, false}}, 10}, {}});
            b.send_at(fill_first ? 17.5 : 18.5, true);
            sc_core::sc_start();
            ASSERT_EQ(b.src[0]->got.size(), 1u);
            ASSERT_EQ(b.at_sm.size(), 1u);
            EXPECT_EQ(b.src[0]->got[0].at, ns(fill_first ? 30 : 26));
            EXPECT_EQ(b.at_sm[0].cycle, fill_first ? 25u : 31u);
            EXPECT_EQ(b.at_sm[0].at, ns(fill_first ? 25 : 31));
            EXPECT_TRUE(b.at_ctl.empty());
            // Morpheus packets are counted apart from the compute packets.
            EXPECT_EQ(b.stat("gpu.icnt.rsp.packets"), 1);
            EXPECT_EQ(b.stat("gpu.icnt.rsp.latency_sum"), fill_first ? 30 - 19 : 26 - 19);
            EXPECT_EQ(b.stat("gpu.icnt.ext.crossed"), 1);
            EXPECT_EQ(b.stat("gpu.icnt.ext.latency_sum"), fill_first ? 25 - 18 : 31 - 19);
            EXPECT_FALSE(b.icnt->busy());
            EXPECT_EQ(b.pool.in_use(), 0u);
        }
    });
}

// The warps' results leave the request network at the controller's own output (ext_ports), where
// results from different cache-mode SMs contend. SMs 1 and 2 send a 5-flit result each to controller
// 0 at 10.5 ns (visible at edge 11): both arbiters grant input 1 first (pointers start at 0), so it
// crosses 11..15 (ready 11 + 5 + 2 = 18) and SM 2's waits for the output, crossing 16..20: ready 23.
// SM 0's 5-flit write to slice 0 at 10 ns crosses in the same cycles to the slice's output: ready 18.
TEST(IcntTest, MorpheusResultsContendForTheControllersOutput)
{
    for_each_network([](int subnets, int arbiter) {
        ExtBench b(subnets, arbiter, {{{{0, true}}, 10}, {}, {}});
        b.send_at(10.5, false, 1);
        b.send_at(10.5, false, 2);
        sc_core::sc_start();
        ASSERT_EQ(b.sink[0]->arrivals.size(), 1u);
        EXPECT_EQ(b.sink[0]->arrivals[0].at, ns(18));
        ASSERT_EQ(b.at_ctl.size(), 2u);
        EXPECT_EQ(b.at_ctl[0].cycle, 18u);
        EXPECT_EQ(b.at_ctl[1].cycle, 23u);
        EXPECT_TRUE(b.at_sm.empty());
        EXPECT_EQ(b.stat("gpu.icnt.req.packets"), 1);
        EXPECT_EQ(b.stat("gpu.icnt.ext.crossed"), 2);
        EXPECT_EQ(b.stat("gpu.icnt.ext.latency_sum"), (18 - 11) + (23 - 11));
    });
}

// No protocol deadlock: slice 0 refuses every request until 300 ns (its controller's input is full,
// say) while SM 0's 40 writes fill the request network towards it; the result SM 1 sends at 10.5 ns
// still reaches the controller alone, at 11 + 5 + 2 = 18, and every write arrives after 300 ns.
TEST(IcntTest, MorpheusResultIsNotBlockedBehindRefusedComputeRequests)
{
    for_each_network([](int subnets, int arbiter) {
        std::vector<Send> plan(40, Send{0, true});
        ExtBench b(subnets, arbiter, {{plan, 1}, {}}, {4, 300});
        b.send_at(10.5, false, 1);
        sc_core::sc_start();
        ASSERT_EQ(b.at_ctl.size(), 1u);
        EXPECT_EQ(b.at_ctl[0].cycle, 18u);
        ASSERT_EQ(b.sink[0]->arrivals.size(), 40u);
        EXPECT_GE(b.sink[0]->arrivals[0].at, ns(300));
        EXPECT_FALSE(b.icnt->busy());
    });
}

// A Morpheus packet that does not fit its input buffer (8 flits: a 5-flit response is there)
// waits at the input and enters when the buffer drains, losing nothing.
TEST(IcntTest, MorpheusPacketWaitsForInputBufferSpace)
{
    gtlm_config cfg = make_cfg(2, XBAR_RR, 2, 8, 8);
    Bench c(cfg, {{{{0, false}}, 10}, {}}, {{4}}, true);
    std::vector<uint64_t> got;
    c.icnt->attach_ext({[&got](Gp &gp, uint64_t cyc) { got.push_back(cyc); gp.release(); }, nullptr}, c.stats);
    sc_core::sc_start(ns(18.5) - sc_core::sc_time_stamp());
    for (int k = 0; k < 2; k++) { // the response (5 flits) and these two (5 each) cannot all fit in 8
        Gp *gp = c.pool.get(tlm::TLM_WRITE_COMMAND, 0x8000 + 128 * k, kLine);
        gtlm::mem_ext(*gp).kind = gtlm::MemKind::ExtLlc;
        gtlm::mem_ext(*gp).sm = 1;
        c.icnt->send_ext_to_sm(0, 1, 8 + kLine, *gp);
    }
    sc_core::sc_start();
    ASSERT_EQ(got.size(), 2u);
    EXPECT_LT(got[0], got[1]);
    EXPECT_GT(c.stat("gpu.icnt.ext.stall_cycles"), 0);
    EXPECT_FALSE(c.icnt->busy());
    EXPECT_EQ(c.pool.in_use(), 0u);
}

TEST(IcntTest, BadPortCountsAndBuffersAreRejected)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    gtlm::ClockDomain dom("icnt_clock", sc_time(1, SC_NS));
    gtlm_config cfg = make_cfg(2, XBAR_ISLIP, 1, 8, 8);
    EXPECT_THROW(gtlm::Icnt("a", cfg, dom, 0, 2, nullptr), std::invalid_argument);
    cfg.noc.in_buffer_limit = 0;
    EXPECT_THROW(gtlm::Icnt("b", cfg, dom, 2, 2, nullptr), std::invalid_argument);
}

} // namespace
