// The DRAM channel module through its TLM ports: a test "L2" with one initiator per port sends
// reads and writes and records when each response arrives.
// Clocks: core 700 MHz, DRAM 1000 MHz (1 ns edges). -dram_latency 10 core cycles =
// ceil(10 * 1000 / 700) = 15 DRAM cycles. Timing: RCD=10 RP=7 CL=12 WL=4, burst 8 / 4 = 2 cycles.
// The test initiator acts at k + 0.5 ns, so a request sent then is seen at DRAM edge k + 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "dram/dram_module.h"
#include "kernel/clock_domain.h"
#include "kernel/sc_context.h"
#include "mem/payload_pool.h"

extern "C" {
#include "config/opt.h"
#include "gpu/gpu_config.h"
#include "stats/stats.h"
}

namespace {

using gtlm::Gp;
using sc_core::SC_NS;
using sc_core::sc_time;

const char *kTiming = "nbk=16:CCD=2:RRD=6:RCD=10:RAS=28:RP=7:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2";
const char *kMap = "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS";
constexpr uint64_t kLat = 15, kRCD = 10, kCL = 12, kWL = 4, kBurst = 2;

gtlm_config test_cfg(int sched_queue = 16, int return_queue = 116)
{
    gtlm_config c{};
    c.gpu.n_mem = 1;
    c.gpu.sub_partitions_per_channel = 2;
    c.gpu.clocks = {700.0, 700.0, 700.0, 1000.0};
    char err[128] = "";
    EXPECT_EQ(gsim_dram_timing_parse(kTiming, &c.dram.timing, err, sizeof err), 0) << err;
    c.dram.bus_width = 4;
    c.dram.chips_per_channel = 2;
    c.dram.burst_length = 8;
    c.dram.data_command_ratio = 4;
    c.dram.scheduler = 1;
    c.dram.sched_queue_size = sched_queue;
    c.dram.return_queue_size = return_queue;
    c.dram.latency = 10;
    c.dram.addr_mapping = const_cast<char *>(kMap);
    return c;
}

struct Got {
    uint64_t id;
    int port;
    double ns;
    bool ok;
};

// One initiator per DRAM port; requests wait in a per-port list until their send time.
class TestL2 : public sc_core::sc_module {
public:
    TestL2(sc_core::sc_module_name n, int n_ports) : sc_core::sc_module(n), todo_(n_ports), refuse_until_(n_ports, 0)
    {
        for (int p = 0; p < n_ports; p++) {
            std::string pn = "to_dram_" + std::to_string(p);
            ports.push_back(std::make_unique<gtlm::AtInitiator>(pn.c_str()));
            ports.back()->on_response = [this, p](Gp &gp, const sc_time &) { return on_response(p, gp); };
        }
        SC_HAS_PROCESS(TestL2);
        SC_THREAD(run);
    }
    ~TestL2() override
    {
        for (Gp *gp : done_) gp->release();
    }

    void add(int port, uint64_t id, uint64_t addr, bool write, double send_ns = 0, uint32_t bytes = 32)
    {
        todo_[port].push_back({id, addr, write, send_ns, bytes});
    }
    void refuse_responses_until(int port, double ns) { refuse_until_[port] = ns; }

    std::vector<std::unique_ptr<gtlm::AtInitiator>> ports;
    std::vector<Got> got;
    gtlm::PayloadPool pool;

private:
    struct Todo {
        uint64_t id, addr;
        bool write;
        double ns;
        uint32_t bytes;
    };
    bool on_response(int port, Gp &gp)
    {
        double now = sc_core::sc_time_stamp().to_seconds() * 1e9;
        if (now < refuse_until_[port]) return false;
        got.push_back({gtlm::mem_ext(gp).id, port, now, gp.get_response_status() == tlm::TLM_OK_RESPONSE});
        done_.push_back(&gp); // released by the thread, after END_RESP went out
        return true;
    }
    void run()
    {
        wait(sc_time(0.5, SC_NS));
        for (;;) {
            for (Gp *gp : done_) gp->release();
            done_.clear();
            double now = sc_core::sc_time_stamp().to_seconds() * 1e9;
            for (size_t p = 0; p < ports.size(); p++) {
                if (ports[p]->holds_response()) ports[p]->take_held_response();
                auto &q = todo_[p];
                if (!q.empty() && q.front().ns <= now && ports[p]->can_send()) {
                    const Todo &t = q.front();
                    Gp *gp = pool.get(t.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, t.addr, t.bytes);
                    gtlm::mem_ext(*gp).id = t.id;
                    q.pop_front();
                    EXPECT_TRUE(ports[p]->send(*gp));
                }
            }
            wait(sc_time(1, SC_NS));
        }
    }
    std::vector<std::deque<Todo>> todo_;
    std::vector<double> refuse_until_;
    std::vector<Gp *> done_;
};

// A DRAM clock domain, the channel with two ports and the test L2, bound; stats registered.
struct Bench {
    gtlm_config cfg;
    stat_registry *stats = stat_registry_new();
    gtlm::ClockDomain dram{"dram", sc_time(1, SC_NS)};
    gtlm::DramChannel chan;
    TestL2 l2{"l2", 2};

    explicit Bench(const gtlm_config &c) : cfg(c), chan("dram_ch", cfg, dram, 0, 2, stats)
    {
        for (int p = 0; p < 2; p++) l2.ports[p]->socket.bind(chan.from_l2[p]->socket);
        stat_kernel_begin(stats, "test");
    }
    ~Bench() { stat_registry_free(stats); }

    uint64_t at(uint32_t row, uint32_t bank, uint32_t col = 0) const
    {
        const dram_addr_map &m = chan.core().core.map;
        uint64_t a = 0;
        uint32_t v[DRAM_F_N] = {0, row, bank, col, 0};
        for (int f = DRAM_F_ROW; f <= DRAM_F_COL; f++)
            for (int i = 0; i < m.nbits[f]; i++) a |= (uint64_t)(v[f] >> i & 1) << m.pos[f][i];
        return a;
    }
    double stat(const char *leaf) const
    {
        double v = -1;
        EXPECT_EQ(stat_get(stats, (std::string("gpu.dram[0].") + leaf).c_str(), STAT_SCOPE_KERNEL, &v), 0) << leaf;
        return v;
    }
    // Every id in [0, n) answered exactly once, with status OK, on the port it was sent from.
    void expect_each_once(uint64_t n, const std::map<uint64_t, int> &port_of) const
    {
        std::vector<int> seen(n, 0);
        for (const Got &g : l2.got) {
            ASSERT_LT(g.id, n);
            seen[g.id]++;
            EXPECT_TRUE(g.ok) << g.id;
            EXPECT_EQ(g.port, port_of.at(g.id)) << g.id;
        }
        for (uint64_t i = 0; i < n; i++) EXPECT_EQ(seen[i], 1) << "id " << i;
    }
};

TEST(DramModuleTest, LoneReadAndWriteTakeExactLatency)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    Bench b(test_cfg());
    b.l2.add(0, 0, b.at(5, 3, 0), false, 0);   // seen at 1: closed bank
    b.l2.add(1, 1, b.at(5, 3, 1), true, 100);  // seen at 101: open row
    sc_core::sc_start(sc_time(200, SC_NS));
    ASSERT_EQ(b.l2.got.size(), 2u);
    EXPECT_EQ(b.l2.got[0].port, 0);
    EXPECT_DOUBLE_EQ(b.l2.got[0].ns, double(1 + kLat + kRCD + kCL + kBurst)); // 40
    EXPECT_EQ(b.l2.got[1].port, 1);
    EXPECT_DOUBLE_EQ(b.l2.got[1].ns, double(101 + kLat + kWL + kBurst)); // 122
    b.chan.sync_cycles();
    EXPECT_EQ(b.stat("reads"), 1);
    EXPECT_EQ(b.stat("writes"), 1);
    EXPECT_EQ(b.stat("row_misses"), 1);
    EXPECT_EQ(b.stat("row_hits"), 1);
    EXPECT_EQ(b.stat("row_conflicts"), 0);
    EXPECT_EQ(b.stat("activates"), 1);
    EXPECT_EQ(b.stat("bus_busy_cycles"), 4);
    EXPECT_EQ(b.stat("completed"), 2);
    EXPECT_EQ(b.stat("cycles"), 200) << "idle cycles count too";
    EXPECT_DOUBLE_EQ(b.stat("bandwidth_utilization"), 4.0 / 200.0);
    EXPECT_DOUBLE_EQ(b.stat("avg_latency"), (39.0 + 21.0) / 2.0);
    EXPECT_EQ(b.dram.ticks(), 5u) << "idle skipping: ticks only at 16 (ACT), 26 (RD), 40 (response), "
                                     "116 (WR) and 122 (response)";
    EXPECT_FALSE(b.chan.busy());
}

TEST(DramModuleTest, TwoPortsInterleaveWithoutLoss)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    Bench b(test_cfg());
    std::map<uint64_t, int> port_of;
    for (uint64_t i = 0; i < 40; i++) {
        int p = int(i % 2);
        b.l2.add(p, i, b.at(uint32_t(i / 8), uint32_t(i % 16), uint32_t(i % 4)), i % 3 == 0);
        port_of[i] = p;
    }
    sc_core::sc_start(sc_time(2000, SC_NS));
    ASSERT_EQ(b.l2.got.size(), 40u);
    b.expect_each_once(40, port_of);
    // Interleaved: each port has responses before the other port's last one.
    double last[2] = {0, 0}, first[2] = {1e18, 1e18};
    for (const Got &g : b.l2.got) {
        last[g.port] = std::max(last[g.port], g.ns);
        first[g.port] = std::min(first[g.port], g.ns);
    }
    EXPECT_LT(first[0], last[1]);
    EXPECT_LT(first[1], last[0]);
    EXPECT_EQ(b.stat("reads") + b.stat("writes"), 40);
    EXPECT_EQ(b.stat("completed"), 40);
    EXPECT_EQ(b.l2.pool.in_use(), 0u);
    EXPECT_FALSE(b.chan.busy());
}

// A port that holds its response delays it (and, head of line, the ones behind it) but loses none.
TEST(DramModuleTest, HeldResponseWaitsWithoutLoss)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    Bench b(test_cfg());
    b.l2.refuse_responses_until(1, 300);
    std::map<uint64_t, int> port_of;
    for (uint64_t i = 0; i < 10; i++) {
        b.l2.add(int(i % 2), i, b.at(1, uint32_t(i), 0), false);
        port_of[i] = int(i % 2);
    }
    sc_core::sc_start(sc_time(1000, SC_NS));
    ASSERT_EQ(b.l2.got.size(), 10u);
    b.expect_each_once(10, port_of);
    for (const Got &g : b.l2.got)
        if (g.port == 1) {
            EXPECT_GE(g.ns, 300.0) << g.id;
        }
    EXPECT_EQ(b.l2.got[0].port, 0) << "the first completion (port 0) left before port 1 blocked";
    EXPECT_FALSE(b.chan.busy());
}

// 100 requests at once into a 2-entry scheduler queue and a 4-entry return queue, port 0 refusing
// responses for a while: back-pressure from the return queue through the core and the latency
// queue (17 entries) to the ports, then every request completes exactly once.
TEST(DramModuleTest, BurstOfHundredThroughSmallQueuesCompletesOnce)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    Bench b(test_cfg(2, 4));
    EXPECT_EQ(b.chan.core().lq_cap, int(kLat) + 2);
    b.l2.refuse_responses_until(0, 400);
    std::map<uint64_t, int> port_of;
    uint32_t x = 12345;
    for (uint64_t i = 0; i < 100; i++) {
        x = x * 1103515245u + 12345u; // fixed sequence: rows, banks and columns spread out
        int p = int(i % 2);
        uint64_t addr = b.at((x >> 8) % 64, (x >> 16) % 16, (x >> 4) % 16);
        b.l2.add(p, i, addr, (x >> 24) % 4 == 0, 0, i % 5 == 0 ? 128 : 32);
        port_of[i] = p;
    }
    sc_core::sc_start(sc_time(100, SC_NS));
    std::string state;
    b.chan.describe(state);
    EXPECT_NE(state.find("dram_ch: latency queue 17/17, scheduler queue 2/2"), std::string::npos) << state;
    EXPECT_NE(state.find("dram_ch: port 0 holds a request"), std::string::npos) << state;
    EXPECT_TRUE(b.chan.busy());
    sc_core::sc_start(sc_time(9900, SC_NS));
    ASSERT_EQ(b.l2.got.size(), 100u);
    b.expect_each_once(100, port_of);
    EXPECT_GT(b.stat("held_requests"), 0) << "the latency queue filled";
    EXPECT_GT(b.stat("return_full_cycles"), 0) << "the return queue filled";
    EXPECT_GT(b.stat("sched_wait_cycles"), 0) << "requests waited for a scheduler slot";
    EXPECT_EQ(b.stat("reads") + b.stat("writes"), 100);
    EXPECT_EQ(b.stat("completed"), 100);
    EXPECT_EQ(b.l2.pool.in_use(), 0u);
    EXPECT_FALSE(b.chan.busy());
}

// Whole-GPU peak bandwidth of two shipped configurations: n_mem x 2 chips x 4 B x 4 beats x DRAM MHz.
double peak_of(const std::string &file)
{
    std::filesystem::path cfg_path = std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "configs" / file;
    opt_registry reg;
    opt_registry_init(&reg);
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    gtlm_config cfg{};
    EXPECT_EQ(gtlm_config_register(&reg, &cfg, &err), 0) << strbuf_str(&err);
    EXPECT_EQ(opt_parse_file(&reg, cfg_path.string().c_str(), &err, &warn), 0) << strbuf_str(&err);
    double gbps = gtlm::dram_channel_peak_gbps(cfg);
    opt_registry_free(&reg);
    strbuf_free(&err);
    strbuf_free(&warn);
    return gbps;
}

TEST(DramModuleTest, PeakBandwidthOfShippedConfigs)
{
    EXPECT_NEAR(peak_of("gtx480.config"), 177.4, 0.1);            // 6 x 32 B x 924 MHz = 177.408
    EXPECT_NEAR(peak_of("gtx980-linebacker.config"), 352.5, 0.1); // 8 x 32 B x 1377 MHz = 352.512
}

} // namespace
