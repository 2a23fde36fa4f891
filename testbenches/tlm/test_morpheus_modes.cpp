// SM modes in the timing model: the CTA dispatcher uses the compute SMs only, a gated SM is OFF for
// the whole kernel (no dynamic energy, only the OFF fraction of its leakage), and the work done is
// the same whatever the split.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "llc/morpheus.h"
#include "top/gpu_top.h"
#include "top/simulator.h"

#ifndef GTLM_SOURCE_DIR
#define GTLM_SOURCE_DIR "."
#endif

namespace {

const char *kPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry add_one(.param .u64 in)
{
    .reg .b64 %rd<4>;
    .reg .b32 %r<4>;
    ld.param.u64 %rd1, [in];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %tid.x;
    mad.lo.u32 %r3, %r1, 64, %r2;
    mul.wide.u32 %rd2, %r3, 4;
    add.u64 %rd3, %rd1, %rd2;
    ld.global.u32 %r1, [%rd3];
    add.u32 %r1, %r1, 1;
    st.global.u32 [%rd3], %r1;
    ret;
}
)";

struct RunStats {
    std::vector<double> insn, ctas, dyn, stat, off;
    double ext_bytes = 0; // SM 3's extended-LLC bytes (when it is in cache mode)
    double total_insn = 0;
};

double get(gtlm::Simulator &sim, const std::string &name, stat_scope scope = STAT_SCOPE_KERNEL)
{
    double v = -1;
    EXPECT_EQ(stat_get(sim.stats(), name.c_str(), scope, &v), 0) << name;
    return v;
}

RunStats run(std::vector<std::string> extra, int launches = 1, std::vector<uint32_t> *out = nullptr, double *cycles = nullptr,
        std::vector<double> *morpheus = nullptr, const std::function<void(gtlm::Simulator &)> &inspect = nullptr)
{
    std::string dir = GTLM_SOURCE_DIR;
    gtlm::SimSetup setup;
    setup.config_files = {dir + "/configs/tiny.config"};
    setup.overrides = {"-gpgpu_n_clusters", "4"};
    setup.overrides.insert(setup.overrides.end(), extra.begin(), extra.end());
    gtlm::Simulator sim(setup);
    gtlm::Module *m = sim.device().load_ptx(kPtx, "modes", nullptr);
    uint64_t p = sim.device().malloc_bytes(64 * 32 * 4);
    std::vector<uint32_t> host(64 * 32);
    for (size_t i = 0; i < host.size(); i++) host[i] = static_cast<uint32_t>(i * 7);
    sim.device().copy_in(p, host.data(), host.size() * 4);
    const void *args[] = {&p};
    const size_t sizes[] = {8};
    const unsigned grid[3] = {32, 1, 1}, block[3] = {64, 1, 1};
    double total = 0;
    for (int k = 0; k < launches; k++) {
        sim.launch(m, "add_one", grid, block, 0, args, sizes, 1);
        total += get(sim, "gpu.cycles");
    }
    if (cycles) *cycles = total;
    if (out) {
        out->assign(host.size(), 0);
        sim.device().copy_out(out->data(), p, host.size() * 4);
    }
    if (morpheus)
        for (const char *leaf : {"requests", "ext_hits", "fills", "pred.true_positives", "pred.false_negatives",
                                 "dram_reads", "writebacks"})
            morpheus->push_back(get(sim, std::string("gpu.morpheus.") + leaf, STAT_SCOPE_RUN));
    RunStats r;
    if (morpheus) r.ext_bytes = get(sim, "gpu.sm[3].ext_llc.bytes");
    for (int i = 0; i < 4; i++) {
        std::string b = "gpu.sm[" + std::to_string(i) + "].";
        r.insn.push_back(get(sim, b + "warp_insn"));
        r.total_insn += r.insn.back();
        r.dyn.push_back(get(sim, b + "power.dynamic_energy"));
        r.stat.push_back(get(sim, b + "power.static_energy"));
        r.off.push_back(get(sim, b + "power.sm.off_block_cycles"));
    }
    if (inspect) inspect(sim);
    return r;
}

TEST(MorpheusModes, DispatcherUsesComputeSmsOnlyAndGatedSmsDrawOnlyOffLeakage)
{
    RunStats base = run({});
    RunStats split = run({"-morpheus_gated_sms", "1", "-morpheus_cache_sm_list", "1"});
    for (int i = 0; i < 4; i++) EXPECT_GT(base.insn[static_cast<size_t>(i)], 0) << i;
    EXPECT_GT(split.insn[0], 0);
    EXPECT_EQ(split.insn[1], 0);  // cache mode: no application CTA
    EXPECT_GT(split.insn[2], 0);
    EXPECT_EQ(split.insn[3], 0);  // gated (the highest compute SM)
    EXPECT_EQ(split.total_insn, base.total_insn);
    // The gated SM: OFF all kernel, no dynamic energy (no clock), leakage at the OFF fractions
    // (tiny.config: SM logic 1.5 %, registers 0 %, L1D 1.5 %) of an ON idle SM's.
    EXPECT_GT(split.off[3], 0);
    EXPECT_EQ(split.off[1], 0);
    EXPECT_EQ(split.dyn[3], 0);
    EXPECT_GT(split.dyn[1], 0);   // an idle ON SM still pays its ungated clock share
    EXPECT_GT(split.stat[3], 0);
    EXPECT_LT(split.stat[3], 0.016 * split.stat[1]);
}

// Morpheus on (one cache-mode SM of four): the kernel's loads and stores reach the extended LLC
// through the controllers, its results are right, the second launch hits lines the first filled,
// no false negative, and the run is deterministic.
TEST(MorpheusModes, MorpheusOnServesTheExtendedLlcAndStaysCorrect)
{
    std::vector<uint32_t> out, out2;
    std::vector<double> st, st2;
    double cyc = 0, cyc2 = 0;
    RunStats r = run({"-morpheus_cache_sms", "1"}, 2, &out, &cyc, &st);
    for (size_t i = 0; i < out.size(); i++) ASSERT_EQ(out[i], static_cast<uint32_t>(i * 7 + 2)) << i;
    EXPECT_EQ(r.insn[3], 0);
    EXPECT_GT(st[0], 0);      // requests the separator sent to the extended LLC
    EXPECT_GT(st[1], 0);      // hits (the second launch finds what the first filled)
    EXPECT_GT(st[2], 0);      // fills
    EXPECT_GT(st[3], 0);      // predicted hits that hit
    EXPECT_EQ(st[4], 0);      // no false negative
    RunStats r2 = run({"-morpheus_cache_sms", "1", "-morpheus_ext_pj_per_byte", "0"}, 2, &out2, &cyc2, &st2);
    EXPECT_EQ(cyc, cyc2); // energy changes nothing else
    EXPECT_EQ(st, st2);
    // The cache-mode SM's extended-LLC energy: 61 pJ per byte it moved (the last kernel's).
    EXPECT_GT(r.ext_bytes, 0);
    EXPECT_NEAR(r.dyn[3] - r2.dyn[3], r.ext_bytes * 61e-12, 1e-6 * r.dyn[3]);
}

// The baselines are configurations: larger-LLC adds L2 ways, Frequency-Boost raises the memory
// clocks only, Unified-SM-Mem builds the L1D with the register file's ways; results stay right, and
// a memory-bound kernel gets no slower from a faster memory system or a larger LLC.
TEST(MorpheusModes, BaselinesDeriveTheirConfigurationAndHelpAMemoryBoundKernel)
{
    std::vector<uint32_t> out;
    double base = 0, boost = 0, larger = 0, unified = 0;
    gtlm_config cb{}, cf{}, cl{}, cu{};
    auto keep = [](gtlm_config *dst) { return [dst](gtlm::Simulator &s) { *dst = s.config(); }; };
    run({}, 2, &out, &base, nullptr, keep(&cb));
    run({"-morpheus_freq_boost", "20"}, 2, &out, &boost, nullptr, keep(&cf));
    for (size_t i = 0; i < out.size(); i++) ASSERT_EQ(out[i], static_cast<uint32_t>(i * 7 + 2)) << i;
    EXPECT_DOUBLE_EQ(cf.gpu.clocks.core_mhz, cb.gpu.clocks.core_mhz);
    EXPECT_DOUBLE_EQ(cf.gpu.clocks.l2_mhz, 1.2 * cb.gpu.clocks.l2_mhz);
    EXPECT_DOUBLE_EQ(cf.gpu.clocks.icnt_mhz, 1.2 * cb.gpu.clocks.icnt_mhz);
    EXPECT_DOUBLE_EQ(cf.gpu.clocks.dram_mhz, 1.2 * cb.gpu.clocks.dram_mhz);
    EXPECT_LT(boost, base);
    run({"-morpheus_larger_llc_sms", "2"}, 2, &out, &larger, nullptr, keep(&cl));
    for (size_t i = 0; i < out.size(); i++) ASSERT_EQ(out[i], static_cast<uint32_t>(i * 7 + 2)) << i;
    EXPECT_GT(cl.l2.dl2.assoc, cb.l2.dl2.assoc);
    EXPECT_EQ(cl.l2.dl2.nsets, cb.l2.dl2.nsets);
    EXPECT_LE(larger, base);
    run({"-morpheus_unified_sm_mem", "1"}, 2, &out, &unified, nullptr, keep(&cu));
    for (size_t i = 0; i < out.size(); i++) ASSERT_EQ(out[i], static_cast<uint32_t>(i * 7 + 2)) << i;
    EXPECT_GT(cu.l1.dl1.assoc, cb.l1.dl1.assoc);
    EXPECT_LE(unified, base);
}

// BDI compression on: results stay right, no false negative under the dynamic swap threshold, the
// blocks (words i x 7: deltas up to 217, the low level) are stored compressed, and the extended LLC
// holds at least as many hits as uncompressed.
TEST(MorpheusModes, CompressionKeepsResultsAndStoresCompressedBlocks)
{
    std::vector<uint32_t> out;
    std::vector<double> plain, comp;
    double c0 = 0, c1 = 0, low = 0, high = 0;
    run({"-morpheus_cache_sms", "1"}, 2, &out, &c0, &plain);
    run({"-morpheus_cache_sms", "1", "-morpheus_compression", "1"}, 2, &out, &c1, &comp, [&](gtlm::Simulator &s) {
        low = get(s, "gpu.sm[3].ext_llc.bdi_low", STAT_SCOPE_RUN);
        high = get(s, "gpu.sm[3].ext_llc.bdi_high", STAT_SCOPE_RUN);
    });
    for (size_t i = 0; i < out.size(); i++) ASSERT_EQ(out[i], static_cast<uint32_t>(i * 7 + 2)) << i;
    EXPECT_EQ(comp[4], 0);     // no false negative
    EXPECT_GE(comp[1], plain[1]); // hits
    EXPECT_GT(low + high, 0);
}

// Morpheus on: the controllers draw -morpheus_ctl_power_frac of the GPU's power (nothing else
// changes), and the dirty lines the extended LLC holds at the end are counted for the write-back.
TEST(MorpheusModes, ControllerPowerAndEndWritebacks)
{
    double e0 = 0, e1 = 0, wb = -1, wb_sm = -1, kib = 0, c0 = 0, c1 = 0;
    run({"-morpheus_cache_sms", "1", "-morpheus_ctl_power_frac", "0"}, 2, nullptr, &c0, nullptr,
        [&](gtlm::Simulator &s) { e0 = get(s, "gpu.power.total_energy", STAT_SCOPE_RUN); });
    run({"-morpheus_cache_sms", "1"}, 2, nullptr, &c1, nullptr, [&](gtlm::Simulator &s) {
        e1 = get(s, "gpu.power.total_energy", STAT_SCOPE_RUN);
        wb = get(s, "gpu.morpheus.end_writebacks", STAT_SCOPE_RUN);
        wb_sm = get(s, "gpu.sm[3].ext_llc.end_writebacks", STAT_SCOPE_RUN);
        kib = get(s, "gpu.morpheus.storage.partition_kib", STAT_SCOPE_RUN);
    });
    EXPECT_EQ(c0, c1);
    // The application-end write-backs' energy is added after the controllers' fraction.
    double ewb = 0;
    run({"-morpheus_cache_sms", "1"}, 2, nullptr, nullptr, nullptr,
        [&](gtlm::Simulator &s) { ewb = get(s, "gpu.morpheus.end_writeback_energy", STAT_SCOPE_RUN); });
    EXPECT_NEAR(e1 - ewb, (e0 - ewb) / (1 - 0.0093), 1e-9 * e1);
    EXPECT_GT(wb, 0); // the kernel's stores left dirty lines in the extended LLC
    EXPECT_EQ(wb, wb_sm);
    EXPECT_GT(kib, 0);
}

// The controller <-> cache-mode SM packets are TLM transactions counted on the interconnect: one
// request leg per operation the controllers dispatched (reads, writes and atomics with their data,
// fills) and one result leg back; the cache-mode SM saw exactly those accesses and fills; their
// flits are charged to the NoC like the crossbar's.
TEST(MorpheusModes, ControllerPacketsAreTransactionsOnTheInterconnect)
{
    std::map<std::string, double> v;
    double flit_pj = 0;
    run({"-morpheus_cache_sms", "1"}, 2, nullptr, nullptr, nullptr, [&](gtlm::Simulator &s) {
        for (const char *n : {"gpu.icnt.ext.requests", "gpu.icnt.ext.write_data", "gpu.icnt.ext.fills",
                              "gpu.icnt.ext.responses", "gpu.icnt.ext.writebacks", "gpu.icnt.ext.packets",
                              "gpu.icnt.ext.flits", "gpu.icnt.req.flits", "gpu.icnt.rsp.flits",
                              "gpu.icnt.power.dynamic_energy", "gpu.sm[3].ext_llc.accesses", "gpu.sm[3].ext_llc.fills",
                              "gpu.sm[3].ext_llc.writebacks", "gpu.morpheus.dispatched"})
            v[n] = get(s, n, STAT_SCOPE_RUN);
        flit_pj = s.config().power.ev_pj[PWR_EV_FLIT];
    });
    double to_sm = v["gpu.icnt.ext.requests"] + v["gpu.icnt.ext.write_data"] + v["gpu.icnt.ext.fills"];
    EXPECT_GT(v["gpu.icnt.ext.requests"], 0);
    EXPECT_GT(v["gpu.icnt.ext.write_data"], 0); // the kernel's stores
    EXPECT_EQ(v["gpu.icnt.ext.requests"] + v["gpu.icnt.ext.write_data"], v["gpu.sm[3].ext_llc.accesses"]);
    EXPECT_EQ(v["gpu.icnt.ext.fills"], v["gpu.sm[3].ext_llc.fills"]);
    EXPECT_EQ(to_sm, v["gpu.morpheus.dispatched"]);
    EXPECT_EQ(v["gpu.icnt.ext.responses"] + v["gpu.icnt.ext.writebacks"], to_sm); // every leg came back
    EXPECT_EQ(v["gpu.icnt.ext.writebacks"], v["gpu.sm[3].ext_llc.writebacks"]); // one victim each (no BDI)
    EXPECT_EQ(v["gpu.icnt.ext.packets"], 2 * to_sm);
    EXPECT_GE(v["gpu.icnt.ext.flits"], v["gpu.icnt.ext.packets"]);
    double flits = v["gpu.icnt.req.flits"] + v["gpu.icnt.rsp.flits"] + v["gpu.icnt.ext.flits"];
    EXPECT_NEAR(v["gpu.icnt.power.dynamic_energy"], flits * flit_pj * 1e-12, 1e-9 * v["gpu.icnt.power.dynamic_energy"]);
    // With -gtlm_check_protocol the base-protocol checkers sit on these links too: each operation is
    // one transaction that completes on two links (controller -> interconnect -> SM), i.e. as many
    // completions as legs (run scope: the checkers count from the run's start), and nothing else
    // changes.
    double cyc0 = 0, cyc1 = 0;
    uint64_t checked = 0;
    std::vector<double> a, b;
    run({"-morpheus_cache_sms", "1"}, 2, nullptr, &cyc0, &a);
    run({"-morpheus_cache_sms", "1", "-gtlm_check_protocol", "1"}, 2, nullptr, &cyc1, &b, [&](gtlm::Simulator &s) {
        ASSERT_NE(s.gpu().morpheus(), nullptr);
        checked = s.gpu().morpheus()->checked_transactions();
    });
    EXPECT_EQ(cyc0, cyc1);
    EXPECT_EQ(a, b);
    EXPECT_EQ(static_cast<double>(checked), v["gpu.icnt.ext.packets"]);
}

// -morpheus_noc_xbar 1 (default): every controller <-> cache-mode SM leg crosses the compute crossbar
// (gpu.icnt.ext.crossed = gpu.icnt.ext.packets at the run's end), separately from the compute
// packets' statistics; the results stay right with either path and under the protocol checkers, the
// run is deterministic, and with the private link (0) nothing crosses the crossbar.
TEST(MorpheusModes, ControllerPacketsCrossTheComputeCrossbar)
{
    std::map<std::string, double> v[2];
    std::vector<uint32_t> out[2];
    double cyc[2] = {0, 0};
    for (int x : {0, 1}) {
        run({"-morpheus_cache_sms", "1", "-morpheus_noc_xbar", std::to_string(x)}, 2, &out[x], &cyc[x], nullptr,
            [&v, x](gtlm::Simulator &s) {
                for (const char *n : {"gpu.icnt.ext.packets", "gpu.icnt.req.packets", "gpu.icnt.rsp.packets"})
                    v[x][n] = get(s, n, STAT_SCOPE_RUN);
                double c = -1;
                if (stat_get(s.stats(), "gpu.icnt.ext.crossed", STAT_SCOPE_RUN, &c) == 0) v[x]["crossed"] = c;
            });
        for (size_t i = 0; i < out[x].size(); i++) ASSERT_EQ(out[x][i], static_cast<uint32_t>(i * 7 + 2)) << i;
    }
    EXPECT_EQ(v[0].count("crossed"), 0u);
    EXPECT_GT(v[1]["gpu.icnt.ext.packets"], 0);
    EXPECT_EQ(v[1]["crossed"], v[1]["gpu.icnt.ext.packets"]);
    // The compute packets alone in gpu.icnt.req/rsp: one response per request either way.
    EXPECT_EQ(v[1]["gpu.icnt.req.packets"], v[1]["gpu.icnt.rsp.packets"]);
    EXPECT_EQ(v[0]["gpu.icnt.req.packets"], v[0]["gpu.icnt.rsp.packets"]);
    double again = 0, checked = 0;
    std::vector<uint32_t> out2;
    run({"-morpheus_cache_sms", "1", "-gtlm_check_protocol", "1"}, 2, &out2, &checked);
    run({"-morpheus_cache_sms", "1"}, 2, nullptr, &again);
    EXPECT_EQ(out2, out[1]);
    EXPECT_EQ(checked, cyc[1]);
    EXPECT_EQ(again, cyc[1]);
}

// Names of a VCD's variables (scopes joined by '.', as SystemC writes them: l2(0)) and the number of
// value changes and the last value of each.
struct VcdVars {
    std::map<std::string, int> changes;
    std::map<std::string, uint64_t> last;
};
VcdVars read_vcd(const std::string &path)
{
    VcdVars v;
    std::ifstream f(path);
    EXPECT_TRUE(f.good()) << path;
    std::vector<std::string> scope;
    std::map<std::string, std::string> name_of; // id -> name
    std::string line;
    while (std::getline(f, line)) {
        std::istringstream in(line);
        std::string tok;
        in >> tok;
        if (tok == "$scope") {
            std::string kind, name;
            in >> kind >> name;
            scope.push_back(name);
        } else if (tok == "$upscope") {
            scope.pop_back();
        } else if (tok == "$var") {
            std::string kind, width, id, name, full;
            in >> kind >> width >> id >> name;
            for (size_t i = 1; i < scope.size(); i++) full += scope[i] + "."; // scope 0 is "SystemC"
            name_of[id] = full + name;
        } else if (!tok.empty() && tok[0] == 'b') { // "b0101 id"
            std::string id;
            in >> id;
            auto it = name_of.find(id);
            if (it == name_of.end()) continue;
            v.changes[it->second]++;
            v.last[it->second] = std::stoull(tok.substr(1), nullptr, 2);
        }
    }
    return v;
}

// -vcd_file: every controller's scope gpu.l2(j).morpheus, the cache-mode SM's gpu.sm(3).ext_llc and
// the packets' gpu.icnt.ext hold their signals; predictions, warp results, queue and WST occupancy
// change; the packet counter ends at the (last kernel's) statistic; statistics are the same without the waveform.
TEST(MorpheusModes, WaveformsOfTheControllersAndTheCacheModeSm)
{
    std::string path = testing::TempDir() + "morpheus_wave.vcd";
    double c0 = 0, c1 = 0, packets = 0;
    std::vector<double> s0, s1;
    run({"-morpheus_cache_sms", "1"}, 2, nullptr, &c0, &s0);
    run({"-morpheus_cache_sms", "1", "-vcd_file", path.c_str(), "-vcd_signals",
         "gpu.l2[0-3].morpheus.*,gpu.sm[3].ext_llc.*,gpu.icnt.ext.*"},
        2, nullptr, &c1, &s1, [&](gtlm::Simulator &s) { packets = get(s, "gpu.icnt.ext.packets"); });
    EXPECT_EQ(c0, c1);
    EXPECT_EQ(s0, s1);
    VcdVars v = read_vcd(path);
    int pred_hit = 0, pred_miss = 0, queue = 0, wst = 0, scopes = 0;
    for (int j = 0; j < 4; j++) {
        std::string b = "gpu.l2(" + std::to_string(j) + ").morpheus.";
        for (const char *leaf : {"pred_hit", "pred_miss", "ext_hit", "ext_miss", "swap", "queue", "wst_busy", "input"})
            EXPECT_TRUE(v.changes.count(b + leaf)) << b + leaf;
        scopes += v.changes.count(b + "queue") ? 1 : 0;
        pred_hit += v.changes[b + "pred_hit"] > 1;
        pred_miss += v.changes[b + "pred_miss"] > 1;
        queue += v.changes[b + "queue"] > 1;
        wst += v.changes[b + "wst_busy"] > 1;
    }
    EXPECT_EQ(scopes, 4);
    EXPECT_GT(pred_hit, 0); // rose and fell somewhere
    EXPECT_GT(pred_miss, 0);
    EXPECT_GT(queue, 0);
    EXPECT_GT(wst, 0);
    for (const char *leaf : {"access", "hit", "fill"})
        EXPECT_GT(v.changes["gpu.sm(3).ext_llc." + std::string(leaf)], 1) << leaf;
    EXPECT_TRUE(v.changes.count("gpu.sm(3).ext_llc.miss")); // (no false positive in this kernel)
    EXPECT_GT(v.changes["gpu.icnt.ext.in_flight"], 1);
    EXPECT_EQ(static_cast<double>(v.last["gpu.icnt.ext.packets"]), packets);
    EXPECT_FALSE(v.changes.count("gpu.sm(0).ext_llc.hit")); // compute SMs have none
}

// The dirty lines left in the extended LLC at the application's end go through the energy model
// (run scope): each is read out of the cache-mode SM (61 pJ/B x 128 B), crosses as one packet
// (ceil((8 + 128) / flit) flits) and is one DRAM write with its activate and precharge; the GPU's
// DRAM component holds exactly that much more than its channels. Their traffic is 128 B a line.
TEST(MorpheusModes, EndWritebacksGoThroughTheEnergyModel)
{
    double wb = 0, bytes = 0, e = -1, dram_gpu = 0, dram_units = 0, k_e = -1;
    gtlm_config cfg{};
    run({"-morpheus_cache_sms", "1"}, 2, nullptr, nullptr, nullptr, [&](gtlm::Simulator &s) {
        cfg = s.config();
        wb = get(s, "gpu.morpheus.end_writebacks", STAT_SCOPE_RUN);
        bytes = get(s, "gpu.morpheus.end_writeback_bytes", STAT_SCOPE_RUN);
        e = get(s, "gpu.morpheus.end_writeback_energy", STAT_SCOPE_RUN);
        k_e = get(s, "gpu.morpheus.end_writeback_energy"); // the last kernel's: none
        dram_gpu = get(s, "gpu.power.dram.dynamic_energy", STAT_SCOPE_RUN);
        for (int c = 0; c < s.config().gpu.n_mem; c++)
            dram_units += get(s, "gpu.dram[" + std::to_string(c) + "].power.dynamic_energy", STAT_SCOPE_RUN);
    });
    ASSERT_GT(wb, 0);
    EXPECT_EQ(bytes, wb * 128);
    const double *ev = cfg.power.ev_pj;
    double flits = std::ceil((8.0 + 128) / cfg.noc.flit_size);
    double dram_pj = ev[PWR_EV_DRAM_ACT] + ev[PWR_EV_DRAM_PRE] + ev[PWR_EV_DRAM_WR] + 128 * ev[PWR_EV_DRAM_IO];
    double pj = 128 * 61 + flits * ev[PWR_EV_FLIT] + dram_pj;
    EXPECT_NEAR(e, wb * pj * 1e-12, 1e-9 * e);
    EXPECT_EQ(k_e, 0);
    EXPECT_NEAR(dram_gpu - dram_units, wb * dram_pj * 1e-12, 1e-9 * dram_gpu);
}

// LLC throughput (§7.4): conventional L2 hits + requests the extended LLC answered with a hit, per
// core cycle; with Morpheus always, without it on -morpheus_llc_stats 1 (BL: no extended hits, and
// nothing else changes), else absent.
TEST(MorpheusModes, LlcThroughputCountsConventionalAndExtendedHits)
{
    std::map<std::string, double> m, bl;
    double c_bl = 0, c_plain = 0;
    auto grab = [](std::map<std::string, double> &v) {
        return [&v](gtlm::Simulator &s) {
            for (const char *n : {"gpu.llc.hits", "gpu.llc.conv_hits", "gpu.llc.ext_hits", "gpu.llc.throughput",
                                  "gpu.cycles", "gpu.morpheus.ext_hits"}) {
                double x = -1;
                if (stat_get(s.stats(), n, STAT_SCOPE_KERNEL, &x) == 0) v[n] = x;
            }
            double l2 = 0;
            for (int j = 0; j < 4; j++) l2 += get(s, "gpu.l2[" + std::to_string(j) + "].hits");
            v["l2"] = l2;
        };
    };
    run({"-morpheus_cache_sms", "1"}, 2, nullptr, nullptr, nullptr, grab(m));
    EXPECT_EQ(m["gpu.llc.hits"], m["gpu.llc.conv_hits"] + m["gpu.llc.ext_hits"]);
    EXPECT_EQ(m["gpu.llc.conv_hits"], m["l2"]);
    EXPECT_GE(m["gpu.llc.ext_hits"], m["gpu.morpheus.ext_hits"]); // merged reads answered by one hit
    EXPECT_GT(m["gpu.llc.ext_hits"], 0);
    EXPECT_DOUBLE_EQ(m["gpu.llc.throughput"], m["gpu.llc.hits"] / m["gpu.cycles"]);
    run({"-morpheus_llc_stats", "1"}, 2, nullptr, &c_bl, nullptr, grab(bl));
    EXPECT_EQ(bl["gpu.llc.ext_hits"], 0);
    EXPECT_EQ(bl["gpu.llc.hits"], bl["l2"]);
    std::map<std::string, double> plain;
    run({}, 2, nullptr, &c_plain, nullptr, grab(plain));
    EXPECT_EQ(c_bl, c_plain);
    EXPECT_FALSE(plain.count("gpu.llc.throughput"));
}

} // namespace
