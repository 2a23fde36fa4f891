// SystemC tests of the L2 slice module (tlm/l2/l2_module.h) between a tiny initiator standing
// for the interconnect and a fake DRAM target, both written here. The L2 clock is 1 GHz (edge k at
// k ns), the core clock too, so -rop_latency 10 is 10 L2 cycles.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

extern "C" {
#include "config/opt.h"
#include "gpu/gpu_config.h"
#include "stats/stats.h"
}

#include "kernel/clock_domain.h"
#include "kernel/sc_context.h"
#include "l2/l2_module.h"
#include "mem/at_port.h"
#include "mem/payload_pool.h"

namespace {

using gtlm::Gp;
using sc_core::SC_NS;
using sc_core::sc_time;

gtlm_config make_config(const char *dl2, const char *rop)
{
    gtlm_config cfg{};
    opt_registry reg;
    opt_registry_init(&reg);
    strbuf err;
    strbuf_init(&err);
    EXPECT_EQ(gtlm_config_register(&reg, &cfg, &err), 0) << strbuf_str(&err);
    EXPECT_EQ(opt_set(&reg, "-gpgpu_cache:dl2", dl2, "test", &err), 0) << strbuf_str(&err);
    EXPECT_EQ(opt_set(&reg, "-rop_latency", rop, "test", &err), 0) << strbuf_str(&err);
    EXPECT_EQ(opt_set(&reg, "-gpgpu_clock_domains", "1000.0:1000.0:1000.0:1000.0", "test", &err), 0)
        << strbuf_str(&err);
    opt_registry_free(&reg); // keeps scalar fields; the string ones are not used here
    cfg.gpu.log_blocks = nullptr;
    strbuf_free(&err);
    return cfg;
}

uint64_t ns_of(const sc_time &t) { return static_cast<uint64_t>(t.to_seconds() * 1e9 + 0.5); }

// Stands for the interconnect: sends its requests at given times (waiting for END_REQ when the
// slice holds one), records when each response arrives.
struct Initiator : sc_core::sc_module {
    struct Item {
        uint64_t at_ns;
        tlm::tlm_command cmd;
        uint64_t addr;
        uint32_t bytes;
        gtlm::MemKind kind;
    };
    gtlm::AtInitiator port{"port"};
    gtlm::PayloadPool pool;
    std::vector<Item> items;
    std::map<uint64_t, uint64_t> sent_ns, rsp_ns; // request id -> time
    std::map<uint64_t, int> rsp_hit, rsp_count;
    int not_ok = 0;
    sc_core::sc_event ready;

    explicit Initiator(sc_core::sc_module_name n) : sc_core::sc_module(n)
    {
        port.on_ready = [this] { ready.notify(); };
        port.on_response = [this](Gp &gp, const sc_time &t) {
            uint64_t id = gtlm::mem_ext(gp).id;
            rsp_ns[id] = ns_of(t);
            rsp_hit[id] = gtlm::mem_ext(gp).l2_hit;
            rsp_count[id]++;
            not_ok += gp.get_response_status() != tlm::TLM_OK_RESPONSE;
            gp.release();
            return true;
        };
        SC_HAS_PROCESS(Initiator);
        SC_THREAD(run);
    }
    void run()
    {
        for (size_t i = 0; i < items.size(); i++) {
            const Item &it = items[i];
            sc_time at(static_cast<double>(it.at_ns), SC_NS);
            if (sc_core::sc_time_stamp() < at) wait(at - sc_core::sc_time_stamp());
            while (!port.can_send()) wait(ready);
            Gp *gp = pool.get(it.cmd, it.addr, it.bytes);
            gtlm::mem_ext(*gp).id = i;
            gtlm::mem_ext(*gp).kind = it.kind;
            sent_ns[i] = ns_of(sc_core::sc_time_stamp());
            port.send(*gp);
        }
    }
};

// A DRAM channel stand-in: answers every request `latency_ns` after taking it, refuses requests
// (holds them, END_REQ withheld) before `refuse_until_ns`.
struct FakeDram : sc_core::sc_module {
    gtlm::AtTarget port{"port"};
    uint64_t latency_ns = 20, refuse_until_ns = 0;
    std::vector<uint64_t> taken_ns;
    std::vector<uint64_t> addrs;
    std::vector<Gp *> seen;
    int refused = 0, reads = 0, writes = 0;
    std::deque<std::pair<uint64_t, Gp *>> due; // (time, payload), in order
    sc_core::sc_event ev, accept_ev;

    explicit FakeDram(sc_core::sc_module_name n) : sc_core::sc_module(n)
    {
        port.on_request = [this](Gp &gp, const sc_time &) {
            uint64_t now = ns_of(sc_core::sc_time_stamp());
            if (now < refuse_until_ns) {
                refused++;
                accept_ev.notify(sc_time(static_cast<double>(refuse_until_ns - now), SC_NS));
                return false;
            }
            taken_ns.push_back(now);
            addrs.push_back(gp.get_address());
            seen.push_back(&gp);
            (gp.is_write() ? writes : reads)++;
            due.emplace_back(now + latency_ns, &gp);
            ev.notify(sc_time(static_cast<double>(latency_ns), SC_NS));
            return true;
        };
        port.on_resp_ready = [this] { ev.notify(sc_core::SC_ZERO_TIME); };
        SC_HAS_PROCESS(FakeDram);
        SC_METHOD(respond);
        sensitive << ev;
        dont_initialize();
        SC_METHOD(accept);
        sensitive << accept_ev;
        dont_initialize();
    }
    void respond()
    {
        uint64_t now = ns_of(sc_core::sc_time_stamp());
        while (!due.empty() && due.front().first <= now && port.can_respond()) {
            Gp *gp = due.front().second;
            due.pop_front();
            gp->set_response_status(tlm::TLM_OK_RESPONSE);
            port.respond(*gp);
        }
        if (!due.empty() && due.front().first > now)
            ev.notify(sc_time(static_cast<double>(due.front().first - now), SC_NS));
    }
    void accept() { port.take_held_request(); }
};

struct Bench {
    gtlm::ScContext ctx;
    std::unique_ptr<gtlm::ScContext::Use> use;
    gtlm_config cfg;
    stat_registry *stats = stat_registry_new();
    std::unique_ptr<gtlm::ClockDomain> clk;
    std::unique_ptr<gtlm::L2Slice> l2;
    std::unique_ptr<Initiator> icnt;
    std::unique_ptr<FakeDram> dram;

    Bench(const char *dl2, const char *rop) : use(new gtlm::ScContext::Use(ctx)), cfg(make_config(dl2, rop))
    {
        clk = std::make_unique<gtlm::ClockDomain>("l2clk", sc_time(1, SC_NS));
        l2 = std::make_unique<gtlm::L2Slice>("l2", cfg, *clk, 0, stats);
        icnt = std::make_unique<Initiator>("icnt");
        dram = std::make_unique<FakeDram>("dram");
        icnt->port.socket.bind(l2->from_icnt.socket);
        l2->to_dram.socket.bind(dram->port.socket);
    }
    ~Bench()
    {
        dram.reset();
        icnt.reset();
        l2.reset();
        clk.reset();
        stat_registry_free(stats);
    }
    double stat(const char *path)
    {
        double v = -1;
        EXPECT_EQ(stat_get(stats, path, STAT_SCOPE_KERNEL, &v), 0) << path;
        return v;
    }
};

// 4 sets x 2 ways of 128 B lines, write-back, 4 MSHRs merging 4, miss queue 4, 32 B data port.
const char *kL2 = "N:4:128:2,L:B:m:W:L,A:4:4,4:0,32";

TEST(L2ModuleTest, ReadMissThenHitExactCycles)
{
    Bench b(kL2, "10");
    b.icnt->items = {{5, tlm::TLM_READ_COMMAND, 0x1000, 128, gtlm::MemKind::Load},
                     {100, tlm::TLM_READ_COMMAND, 0x1000, 128, gtlm::MemKind::Load}};
    sc_core::sc_start(300, SC_NS);

    // Miss: sent at 5, seen at edge 6, tag lookup at 16, DRAM request at 17; DRAM answers at 37,
    // the fill is seen at 38 and the 128 B cross the 32 B port in 4 cycles: response at 42.
    ASSERT_EQ(b.dram->taken_ns.size(), 1u);
    EXPECT_EQ(b.dram->taken_ns[0], 17u);
    EXPECT_EQ(b.dram->addrs[0], 0x1000u);
    EXPECT_EQ(b.dram->reads, 1);
    EXPECT_EQ(b.icnt->rsp_ns[0], 42u);
    EXPECT_EQ(b.icnt->rsp_hit[0], 0);
    // Hit: sent at 100, seen at 101, lookup at 111, port 112..115, response at 116.
    EXPECT_EQ(b.icnt->rsp_ns[1], 116u);
    EXPECT_EQ(b.icnt->rsp_hit[1], 1);
    EXPECT_EQ(b.icnt->not_ok, 0);

    EXPECT_EQ(b.stat("gpu.l2[0].accesses"), 2);
    EXPECT_EQ(b.stat("gpu.l2[0].hits"), 1);
    EXPECT_EQ(b.stat("gpu.l2[0].misses"), 1);
    EXPECT_EQ(b.stat("gpu.l2[0].dram_reads"), 1);
    EXPECT_EQ(b.stat("gpu.l2[0].dram_writes"), 0);
    EXPECT_EQ(b.l2->dram_payloads_in_use(), 0u) << "the DRAM read's payload went back to the pool";
    EXPECT_EQ(b.icnt->pool.in_use(), 0u);
    EXPECT_FALSE(b.l2->busy());
}

TEST(L2ModuleTest, WriteIsAcknowledgedAndItsDramWriteAnswered)
{
    Bench b(kL2, "10");
    // A 32 B store missing: acknowledged after the tag lookup (16) and one port cycle: 18.
    b.icnt->items = {{5, tlm::TLM_WRITE_COMMAND, 0x2000, 32, gtlm::MemKind::Store}};
    sc_core::sc_start(200, SC_NS);
    EXPECT_EQ(b.icnt->rsp_ns[0], 18u);
    EXPECT_EQ(b.icnt->rsp_hit[0], 0);
    // Naive write allocation: a read of the line (17) and the write itself (18) go to DRAM.
    ASSERT_EQ(b.dram->taken_ns.size(), 2u);
    EXPECT_EQ(b.dram->taken_ns[0], 17u);
    EXPECT_EQ(b.dram->taken_ns[1], 18u);
    EXPECT_EQ(b.dram->reads, 1);
    EXPECT_EQ(b.dram->writes, 1);
    EXPECT_EQ(gtlm::mem_ext(*b.dram->seen[1]).kind, gtlm::MemKind::Store);
    EXPECT_EQ(b.stat("gpu.l2[0].dram_writes"), 1);
    EXPECT_EQ(b.l2->dram_payloads_in_use(), 0u);
    EXPECT_FALSE(b.l2->busy());
}

TEST(L2ModuleTest, DramBackPressureLosesNothing)
{
    Bench b(kL2, "10");
    b.dram->refuse_until_ns = 200;
    // 24 reads over 6 lines, one per ns: 4 requests per line (the merge limit). With 4 MSHRs the
    // fifth line blocks the tag stage until fills arrive, the ROP queue (10 + 8) fills and the
    // slice holds the interconnect's request.
    for (int i = 0; i < 24; i++)
        b.icnt->items.push_back({static_cast<uint64_t>(1 + i), tlm::TLM_READ_COMMAND, 0x80u * (i % 6), 128,
                                 gtlm::MemKind::Load});
    sc_core::sc_start(2000, SC_NS);

    EXPECT_GE(b.dram->refused, 1);
    ASSERT_EQ(b.dram->taken_ns.size(), 6u) << "one DRAM read per line";
    EXPECT_EQ(b.dram->taken_ns[0], 200u) << "the first read was held until the channel took it";
    ASSERT_EQ(b.icnt->rsp_count.size(), 24u);
    int hits = 0;
    for (const auto &kv : b.icnt->rsp_count) EXPECT_EQ(kv.second, 1) << "request " << kv.first;
    for (const auto &kv : b.icnt->rsp_hit) hits += kv.second;
    EXPECT_EQ(b.icnt->not_ok, 0);
    // Accesses count every tag attempt, refused ones included (GPGPU-Sim's convention).
    EXPECT_EQ(b.stat("gpu.l2[0].accesses"), 24 + b.stat("gpu.l2[0].reservation_fails"));
    EXPECT_EQ(b.stat("gpu.l2[0].misses"), 6);
    EXPECT_EQ(b.stat("gpu.l2[0].hits"), hits);
    EXPECT_EQ(b.stat("gpu.l2[0].hits") + b.stat("gpu.l2[0].hit_reserved"), 18);
    EXPECT_GE(b.stat("gpu.l2[0].reservation_fails"), 1);
    EXPECT_GE(b.stat("gpu.l2[0].rop_full"), 1) << "the ROP queue filled and held a request";
    // Requests leave the initiator later than asked once the slice holds one.
    EXPECT_GT(b.icnt->sent_ns[23], 24u);
    EXPECT_EQ(b.l2->dram_payloads_in_use(), 0u);
    EXPECT_EQ(b.icnt->pool.in_use(), 0u);
    EXPECT_FALSE(b.l2->busy());
    std::string d;
    b.l2->describe(d);
    EXPECT_EQ(d, "") << "idle slices describe nothing";
}

} // namespace
