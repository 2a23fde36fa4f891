// VCD waveforms (-vcd_file, -vcd_signals, -vcd_start, -vcd_end) on a small kernel: the file
// parses, holds exactly the selected signals, its counts agree with the statistics, a window
// keeps every change inside it, and statistics are identical with the waveform on and off.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtlm/gtlm.h"
#include "timing_fixture.h"

namespace {

constexpr uint64_t kPeriodFs = 1000000; // 1000 MHz core clock (the fixture's clocks)

struct Vcd {
    std::string timescale;
    std::map<std::string, std::string> id_of;                              // full name -> id
    std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> changes; // id -> (time, value)
    std::vector<uint64_t> stamps; // every #time line (SystemC also writes the end time at close)
    std::vector<uint64_t> times;  // times at which some value changed
    bool definitions_ended = false;

    void change(const std::string &id, uint64_t t, uint64_t val)
    {
        changes[id].push_back({t, val});
        if (times.empty() || times.back() != t) times.push_back(t);
    }

    const std::vector<std::pair<uint64_t, uint64_t>> &of(const std::string &name) const
    {
        static const std::vector<std::pair<uint64_t, uint64_t>> none;
        auto it = id_of.find(name);
        return it == id_of.end() ? none : changes.at(it->second);
    }
    uint64_t last(const std::string &name) const { return of(name).empty() ? 0 : of(name).back().second; }
    // Sum over the waveform of value x duration in core cycles (a pulse's event count).
    uint64_t pulse_count(const std::string &name) const
    {
        const auto &c = of(name);
        uint64_t n = 0;
        for (size_t i = 0; i + 1 < c.size(); i++) n += c[i].second * ((c[i + 1].first - c[i].first) / kPeriodFs);
        return n;
    }
};

// Reads a VCD as SystemC writes it: scopes, one $var per signal, then #time and value lines.
Vcd parse_vcd(const std::string &path)
{
    Vcd v;
    std::ifstream f(path);
    EXPECT_TRUE(f.good()) << path;
    std::vector<std::string> scope;
    std::string tok;
    uint64_t now = 0;
    while (f >> tok) {
        if (tok == "$timescale") {
            std::string a, b;
            f >> a;
            if (a != "$end") f >> b;
            v.timescale = a + " " + b;
            while (b != "$end" && f >> b) {}
        } else if (tok == "$scope") {
            std::string kind, name, end;
            f >> kind >> name >> end;
            scope.push_back(name);
        } else if (tok == "$upscope") {
            f >> tok;
            scope.pop_back();
        } else if (tok == "$var") {
            std::string kind, width, id, name, rest;
            f >> kind >> width >> id >> name;
            while (f >> rest && rest != "$end") {}
            std::string full;
            for (size_t i = 1; i < scope.size(); i++) full += scope[i] + "."; // scope 0 is "SystemC"
            full += name;
            for (char &c : full) c = c == '(' ? '[' : c == ')' ? ']' : c;
            v.id_of[full] = id;
            v.changes[id];
        } else if (tok == "$enddefinitions") {
            f >> tok;
            v.definitions_ended = true;
        } else if (tok == "$dumpvars" || tok == "$end") { // the initial values follow $dumpvars
        } else if (tok[0] == '$') {
            while (tok != "$end" && f >> tok) {} // $date, $version, $comment
        } else if (tok[0] == '#') {
            now = std::stoull(tok.substr(1));
            v.stamps.push_back(now);
        } else if (tok[0] == 'b') {
            std::string id;
            f >> id;
            std::string bits = tok.substr(1);
            uint64_t val = bits.find_first_not_of("01") == std::string::npos ? std::stoull(bits, nullptr, 2) : ~0ull;
            v.change(id, now, val);
        } else if (tok[0] == '0' || tok[0] == '1') {
            v.change(tok.substr(1), now, static_cast<uint64_t>(tok[0] - '0'));
        }
    }
    return v;
}

std::string temp_path(const char *stem)
{
    std::string p = std::string("/tmp/") + stem + "_XXXXXX";
    std::vector<char> buf(p.begin(), p.end());
    buf.push_back('\0');
    int fd = mkstemp(buf.data());
    EXPECT_GE(fd, 0);
    close(fd);
    std::string out(buf.data());
    std::remove(out.c_str());
    return out + ".vcd";
}

// 16 CTAs x 128 threads of the strided kernel: 2048 lines, each an L1 miss.
void run_strided(Sim &s)
{
    gtlm_devptr in = s.alloc(16 * 128 * 128, 3), out = s.alloc(16 * 4 * 4);
    ASSERT_EQ(s.launch("strided", 16, 128, {&in, &out}, {8, 8}), GTLM_OK) << gtlm_last_error();
}

const char *kSelect = "gpu.sm[0].*,gpu.l2[1].*";
const std::set<std::string> kSelected = {
    "gpu.sm[0].active_warps", "gpu.sm[0].active_ctas", "gpu.sm[0].issued",     "gpu.sm[0].warp_insn",
    "gpu.sm[0].stall",        "gpu.sm[0].ldst_busy",   "gpu.sm[0].requests_out", "gpu.sm[0].l1d.hit",
    "gpu.sm[0].l1d.miss",     "gpu.sm[0].l1d.hits",    "gpu.sm[0].l1d.misses", "gpu.sm[0].l1d.mshr",
    "gpu.l2[1].hit",          "gpu.l2[1].miss",        "gpu.l2[1].hits",       "gpu.l2[1].misses",
    "gpu.l2[1].mshr",         "gpu.l2[1].rop_queue",   "gpu.l2[1].dram_queue", "gpu.l2[1].response_queue",
    // blocks per power mode (docs/power.md)
    "gpu.sm[0].power.reg.on", "gpu.sm[0].power.reg.shallow", "gpu.sm[0].power.reg.sleep", "gpu.sm[0].power.reg.off",
    "gpu.sm[0].power.sm.on",  "gpu.sm[0].power.sm.shallow",  "gpu.sm[0].power.sm.sleep",  "gpu.sm[0].power.sm.off",
    "gpu.sm[0].power.l1d.on", "gpu.sm[0].power.l1d.shallow", "gpu.sm[0].power.l1d.sleep", "gpu.sm[0].power.l1d.off",
    "gpu.l2[1].power.lines.on", "gpu.l2[1].power.lines.shallow", "gpu.l2[1].power.lines.sleep",
    "gpu.l2[1].power.lines.off"};

TEST(WaveformTest, HoldsExactlyTheSelectedSignalsAndAgreesWithTheStatistics)
{
    std::string path = temp_path("gtlm_vcd");
    std::string with_vcd, without;
    double misses = 0, l2_hits = 0, l2_misses = 0, insn = 0;
    {
        Sim s({"-vcd_file", path, "-vcd_signals", kSelect});
        run_strided(s);
        misses = s.stat("gpu.sm[0].l1d.misses");
        l2_hits = s.stat("gpu.l2[1].hits");
        l2_misses = s.stat("gpu.l2[1].misses");
        insn = s.stat("gpu.sm[0].warp_insn");
        with_vcd = stats_text_of(s);
    } // the trace file is closed with the simulator
    {
        Sim s;
        run_strided(s);
        without = stats_text_of(s);
    }
    EXPECT_EQ(with_vcd, without);

    Vcd v = parse_vcd(path);
    EXPECT_EQ(v.timescale, "1 fs");
    EXPECT_TRUE(v.definitions_ended);
    std::set<std::string> names;
    for (const auto &kv : v.id_of) names.insert(kv.first);
    EXPECT_EQ(names, kSelected);
    ASSERT_GT(v.stamps.size(), 10u);
    for (size_t i = 1; i < v.stamps.size(); i++) ASSERT_GT(v.stamps[i], v.stamps[i - 1]) << "timestamp " << i;

    EXPECT_GE(misses, 512); // SM 0 ran some of the 16 CTAs: 128 lines each
    EXPECT_EQ(v.last("gpu.sm[0].l1d.misses"), static_cast<uint64_t>(misses));
    EXPECT_EQ(v.pulse_count("gpu.sm[0].l1d.miss"), static_cast<uint64_t>(misses));
    EXPECT_EQ(v.last("gpu.sm[0].warp_insn"), static_cast<uint64_t>(insn));
    EXPECT_EQ(v.last("gpu.l2[1].hits"), static_cast<uint64_t>(l2_hits));
    EXPECT_EQ(v.last("gpu.l2[1].misses"), static_cast<uint64_t>(l2_misses));
    EXPECT_EQ(v.last("gpu.sm[0].active_warps"), 0u); // the kernel drained
    // Always ON (the baseline policy): every block of every gated type is ON, none elsewhere.
    EXPECT_EQ(v.last("gpu.sm[0].power.reg.on"), 32768u / 32u);
    EXPECT_EQ(v.last("gpu.sm[0].power.l1d.on"), 8u * 4u);
    EXPECT_EQ(v.last("gpu.l2[1].power.lines.on"), 8u * 4u);
    EXPECT_EQ(v.last("gpu.sm[0].power.sm.on"), 1u);
    EXPECT_EQ(v.last("gpu.sm[0].power.reg.off") + v.last("gpu.sm[0].power.l1d.sleep"), 0u);
    uint64_t most_warps = 0;
    for (const auto &c : v.of("gpu.sm[0].active_warps")) most_warps = std::max(most_warps, c.second);
    EXPECT_GT(most_warps, 4u);
    std::remove(path.c_str());
}

// Slumber's countdown in the VCD (power.reg.rK.countdown, 10 bits): one thread's first load misses the
// L1 and its value is used by a second load, so its destination register is gated (T5) with its countdown
// loaded with the MSHR tracker's latency (both levels set to 40 here, less than the data takes). At the
// miss's cycle the register is OFF and its countdown 40; every later value recorded is 40 minus the core
// cycles since (one per cycle), until the countdown reaches the OFF wake (16 cycles, Table 6.1) and fires
// the wake, 24 cycles after the miss: then 0 (no countdown runs).
TEST(WaveformTest, SlumberCountdownRunsFromTheMissToTheWake)
{
    std::string path = temp_path("gtlm_vcd_slumber");
    {
        Sim s({"-vcd_file", path, "-vcd_signals", "gpu.sm[0].power.reg.*,gpu.sm[0].l1d.miss", "-power_policy", "slumber",
               "-slumber_lat_l2", "40", "-slumber_lat_dram", "40"});
        gtlm_devptr in = s.alloc(256, 7);
        unsigned twice = 1;
        ASSERT_EQ(s.launch("loads", 1, 1, {&in, &twice}, {8, 4}), GTLM_OK) << gtlm_last_error();
        ASSERT_GE(s.stat("gpu.sm[0].l1d.misses"), 1);
        ASSERT_GT(s.stat("gpu.sm[0].load_latency_sum") / s.stat("gpu.sm[0].load_latency_n"), 40); // data after it fires
        ASSERT_GE(s.stat("gpu.power.modes.reg.fsm.t5"), 1);
    }
    Vcd v = parse_vcd(path);
    ASSERT_NE(v.id_of.count("gpu.sm[0].power.reg.r0.countdown"), 0u);
    uint64_t t_miss = 0;
    for (const auto &c : v.of("gpu.sm[0].l1d.miss"))
        if (c.second) {
            t_miss = c.first;
            break;
        }
    ASSERT_GT(t_miss, 0u);
    // The value of a signal at time t (its last change at or before t).
    auto at = [&v](const std::string &name, uint64_t t) {
        uint64_t val = 0;
        for (const auto &c : v.of(name))
            if (c.first <= t) val = c.second;
        return val;
    };
    int found = -1;
    for (int k = 0; k < 8 && found < 0; k++)
        if (at("gpu.sm[0].power.reg.r" + std::to_string(k) + ".countdown", t_miss) == 40) found = k;
    ASSERT_GE(found, 0) << "no sampled register's countdown is 40 at the miss";
    std::string reg = "gpu.sm[0].power.reg.r" + std::to_string(found);
    EXPECT_EQ(at(reg + ".state", t_miss), 3u); // OFF (T5)
    uint64_t fired = 0, checked = 0;
    for (const auto &c : v.of(reg + ".countdown")) {
        if (c.first <= t_miss) continue;
        uint64_t cycles = (c.first - t_miss) / kPeriodFs;
        if (c.second == 0) {
            fired = cycles;
            break;
        }
        EXPECT_EQ(c.second, 40 - cycles) << "at " << cycles << " cycles after the miss";
        EXPECT_GT(c.second, 16u);
        checked++;
    }
    // Values are recorded where some clock domain ticks (here 1, 3, 4, 5 cycles after the miss; then 0 at 24).
    EXPECT_GE(checked, 3u);
    EXPECT_GE(fired, 40u - 16u); // fires when it reaches the OFF wake, not before
    EXPECT_LE(fired, 40u);
    if (HasFailure()) std::fprintf(stderr, "kept %s\n", path.c_str());
    else std::remove(path.c_str());
}

TEST(WaveformTest, AWindowKeepsEveryChangeInsideItAndItsPulsesMatchItsCounters)
{
    std::string path = temp_path("gtlm_vcdw");
    const uint64_t start = 300, end = 900;
    {
        Sim s({"-vcd_file", path, "-vcd_signals", "gpu.sm[0].l1d.*", "-vcd_start", std::to_string(start), "-vcd_end",
               std::to_string(end)});
        run_strided(s);
        ASSERT_GT(s.stat("gpu.cycles"), static_cast<double>(end)); // the window ends inside the kernel
    }
    Vcd v = parse_vcd(path);
    ASSERT_EQ(v.id_of.size(), 5u); // hit, miss, hits, misses, mshr
    ASSERT_GT(v.times.size(), 2u);
    EXPECT_EQ(v.times[0], 0u); // the initial values
    for (size_t i = 1; i < v.times.size(); i++) {
        EXPECT_GE(v.times[i], start * kPeriodFs);
        EXPECT_LE(v.times[i], end * kPeriodFs); // the pulses' fall at the window's end
    }
    const auto &count = v.of("gpu.sm[0].l1d.misses");
    const auto &pulse = v.of("gpu.sm[0].l1d.miss");
    ASSERT_GE(count.size(), 2u);
    ASSERT_GE(pulse.size(), 2u);
    // Counter before the window = its first sampled value minus that cycle's pulse.
    uint64_t first_pulse = pulse[1].first == count[1].first ? pulse[1].second : 0;
    uint64_t before = count[1].second - first_pulse;
    EXPECT_GT(count.back().second, before);
    EXPECT_EQ(v.pulse_count("gpu.sm[0].l1d.miss"), count.back().second - before);
    EXPECT_EQ(pulse.back().second, 0u);
    std::remove(path.c_str());
}

TEST(WaveformTest, BadPatternsAndPathsAreReported)
{
    gtlm_sim_options o;
    ASSERT_EQ(gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION), GTLM_OK);
    const char *files[] = {kTiny.c_str()};
    o.config_files = files;
    o.n_config_files = 1;
    const char *bad[] = {"-vcd_signals", "gpu.sm[0-3.*", "-vcd_file", "/tmp/x.vcd"};
    o.overrides = bad;
    o.n_overrides = 4;
    gtlm_sim *sim = nullptr;
    EXPECT_NE(gtlm_sim_create(&sim, &o), GTLM_OK);
    EXPECT_NE(std::string(gtlm_last_error()).find("-vcd_signals"), std::string::npos) << gtlm_last_error();
    EXPECT_NE(std::string(gtlm_last_error()).find("'[' without ']'"), std::string::npos) << gtlm_last_error();
    gtlm_sim_destroy(sim);

    const char *no_dir[] = {"-vcd_file", "/nonexistent-dir/w.vcd"};
    o.overrides = no_dir;
    o.n_overrides = 2;
    sim = nullptr;
    EXPECT_NE(gtlm_sim_create(&sim, &o), GTLM_OK);
    EXPECT_NE(std::string(gtlm_last_error()).find("cannot create '/nonexistent-dir/w.vcd'"), std::string::npos)
        << gtlm_last_error();
    gtlm_sim_destroy(sim);
}

} // namespace
