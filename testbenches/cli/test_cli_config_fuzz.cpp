// Configuration-value fuzzing: random values for random options from `gtlm options`' own list
// (numbers at, inside and outside their ranges, nan/inf, garbage, mutated structured values).
// Every run must end in a verified run (exit 0; or exit 1 stopped by -gpgpu_max_insn or
// -gpgpu_max_cycle as asked, or a launch refused because its CTA does not fit the configured
// SM) or a located configuration error (exit 2 naming the option and
// where it was set): never a crash, a hang, an internal error or another failure.
// Seeded (GTLM_CONFIG_FUZZ_SEED, default 1) and bounded (GTLM_CONFIG_FUZZ_RUNS, default 200).
#include <gtest/gtest.h>

#include "cli_run.h"

#include <cstdlib>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Option {
    std::string name, value, type;
};

// Parses `gtlm options`: "-name   value" then "    # description [type; default ...; from ...]".
std::vector<Option> list_options(const std::string &text)
{
    std::vector<Option> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("-", 0) == 0) {
            Option o;
            size_t sp = line.find(' ');
            o.name = line.substr(0, sp);
            size_t v = sp == std::string::npos ? sp : line.find_first_not_of(' ', sp);
            o.value = v == std::string::npos ? "" : line.substr(v);
            out.push_back(o);
        } else if (!out.empty() && line.find("    # ") == 0 && out.back().type.empty()) {
            size_t open = line.rfind(" [");
            size_t semi = line.find("; default", open);
            if (open != std::string::npos && semi != std::string::npos) out.back().type = line.substr(open + 2, semi - open - 2);
        }
    }
    return out;
}

long long env_or(const char *name, long long def)
{
    const char *s = std::getenv(name);
    return s && *s ? std::atoll(s) : def;
}

std::string pick(std::mt19937_64 &g, const std::vector<std::string> &v) { return v[g() % v.size()]; }

// A number near, at or beyond the range "int in [lo, hi]" / "double in [lo, hi]", or garbage.
std::string number(std::mt19937_64 &g, const std::string &type)
{
    size_t a = type.find('['), c = type.find(", ", a), b = type.find(']', c);
    std::string lo = type.substr(a + 1, c - a - 1), hi = type.substr(c + 2, b - c - 2);
    bool is_double = type.rfind("double", 0) == 0;
    switch (g() % 10) {
    case 0: return lo;
    case 1: return hi;
    case 2: return pick(g, {"-1", "0", "1", "2", "7", "64", "4096"});
    case 3: return pick(g, {"nan", "inf", "-inf", "1e-300", "1e300", "1e12", "abc", "", "0x10", "9223372036854775808"});
    case 4: return is_double ? lo + "1" : "-" + hi; // beyond the range
    case 5: return hi + "0";
    default: {
        double l = std::atof(lo.c_str()), h = std::atof(hi.c_str());
        double span = h - l > 1e6 ? 1e6 : h - l;
        double v = l + span * (double)(g() % 1000000) / 1e6;
        return is_double ? std::to_string(v) : std::to_string((long long)v);
    }
    }
}

// The current value with one number changed, a character dropped, or a character changed.
std::string mutate(std::mt19937_64 &g, std::string v)
{
    if (v.empty()) return pick(g, {"x", ":", "0"});
    size_t at = g() % v.size();
    switch (g() % 4) {
    case 0: v.erase(at, 1); return v;
    case 1: v[at] = pick(g, {":", ",", "0", "9", "x", "-", "="})[0]; return v;
    default: {
        size_t s = v.find_first_of("0123456789", at);
        if (s == std::string::npos) s = v.find_first_of("0123456789");
        if (s == std::string::npos) return v + ":1";
        size_t e = v.find_first_not_of("0123456789", s);
        return v.substr(0, s) + pick(g, {"0", "1", "3", "1024", "65536", "1073741824", "99999999999", "-5"}) +
               (e == std::string::npos ? "" : v.substr(e));
    }
    }
}

std::string value_for(std::mt19937_64 &g, const Option &o)
{
    if (o.type.find(" in [") != std::string::npos) return number(g, o.type);
    if (o.type == "bool") return pick(g, {"0", "1", "2", "yes", "maybe", ""});
    if (o.type == "string") return pick(g, {"", "x", "*", "gpu.sm=debug", "a,b", o.value});
    if (o.type == "enum") return pick(g, {o.value, "bogus", "", "0", "1"});
    return mutate(g, o.value); // cache, clocks, policy, int_list, pair, dram_timing
}

// Options naming files the run would write are left alone (a run must not litter the test's
// folder); everything else is fair game.
bool writes_files(const std::string &name)
{
    return name.find("file") != std::string::npos || name == "-gtlm_trace_out" || name == "-gtlm_log_level" ||
           name == "-stats_interval"; // on, it writes -stats_timeseries_file
}

std::string quote(const std::string &s) { return "'" + s + "'"; }

// run() under timeout(1): a hang ends as exit 124 instead of stopping the test suite.
Result run_bounded(const std::string &args)
{
    return run_command("timeout 120 " + std::string(GTLM_CLI) + " " + args + " 2>&1");
}

TEST(ConfigFuzz, EveryValueRunsOrIsALocatedError)
{
    const std::string tiny = std::string(GTLM_SOURCE_DIR) + "/configs/tiny.config";
    Result listing = run("options --config " + tiny);
    ASSERT_EQ(listing.code, 0) << listing.out;
    std::vector<Option> opts;
    for (const Option &o : list_options(listing.out))
        if (!writes_files(o.name)) opts.push_back(o);
    ASSERT_GT(opts.size(), 80u) << "the options list was not parsed";
    std::mt19937_64 g(static_cast<uint64_t>(env_or("GTLM_CONFIG_FUZZ_SEED", 1)));
    long long runs = env_or("GTLM_CONFIG_FUZZ_RUNS", 200);
    int ran = 0, rejected = 0;
    for (long long i = 0; i < runs; i++) {
        std::string args;
        int n = 1 + static_cast<int>(g() % 2);
        for (int k = 0; k < n; k++) {
            const Option &o = opts[g() % opts.size()];
            args += " " + o.name + " " + quote(value_for(g, o));
        }
        const char *mode = g() % 2 ? "timing" : "functional";
        // A hang is exit 124 (timeout), a crash exit 128 + signal or -1.
        Result r = run_bounded("run sdk/vectoradd --size tiny --mode " + std::string(mode) + " --config " + tiny + args);
        std::string what = "run " + std::to_string(i) + ":" + args + " (" + mode + ")\n" + r.out;
        // A run the cycle or instruction limit stopped (exit 1) is what those options ask for, and so is
        // a module refused by the module-size limit; a CTA that cannot fit the configured SM is refused
        // at launch with the reason.
        bool limited = r.code == 1 && (r.out.find("stopped at -gpgpu_max_") != std::string::npos ||
                                       r.out.find("instruction limit (-gpgpu_max_insn)") != std::string::npos ||
                                       r.out.find("does not fit on an SM") != std::string::npos ||
                                       r.out.find("(-gpgpu_max_cycle ") != std::string::npos || // functional mode's form
                                       r.out.find("larger than -gtlm_max_module_bytes") != std::string::npos);
        EXPECT_TRUE(r.code == 0 || r.code == 2 || limited) << "exit " << r.code << ": " << what;
        EXPECT_EQ(r.out.find("internal error"), std::string::npos) << what;
        if (r.code == 2) {
            rejected++;
            // Located: "command line (argument N): option '...'" or "file:line:col: option '...'"
            // (with "(as -alias)" when set through another name).
            EXPECT_TRUE(std::regex_search(r.out, std::regex("(command line \\(argument [0-9]+\\)|:[0-9]+:[0-9]+)( \\(as [^)]*\\))?: "
                                                            "(option|GPGPU-Sim option) '")))
                << "an error without its place: " << what;
        } else if (r.code == 0) {
            ran++;
            EXPECT_NE(r.out.find("verified"), std::string::npos) << what;
        }
    }
    std::printf("config fuzz: %d runs, %d rejected with a located error\n", ran, rejected);
}

} // namespace
