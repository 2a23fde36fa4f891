#include "wave/vcd_tracer.h"

extern "C" {
#include "common/name_match.h"
#include "common/status.h"
}

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "kernel/error.h"

namespace gtlm {

namespace {

std::string without_vcd_suffix(const std::string &path)
{
    const std::string ext = ".vcd";
    if (path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0)
        return path.substr(0, path.size() - ext.size());
    return path;
}

// SystemC turns [i] into (i) in VCD names, with a warning per name: do it here, quietly.
std::string vcd_name(std::string n)
{
    for (char &c : n) {
        if (c == '[') c = '(';
        else if (c == ']') c = ')';
    }
    return n;
}

} // namespace

VcdTracer::VcdTracer(sc_core::sc_module_name name, const std::string &path, const std::string &patterns,
                     uint64_t start, uint64_t end, const ClockDomain &core, std::vector<const ClockDomain *> domains,
                     EdgeRunner &runner)
    : sc_core::sc_module(name), core_(core), domains_(std::move(domains)), patterns_(patterns), start_(start),
      end_(end), runner_(runner)
{
    // A directory would silently become "DIR.vcd" next to it: say what is wanted instead.
    std::error_code ec;
    if (path.empty() || path.back() == '/' || std::filesystem::is_directory(path, ec))
        throw Error(GTLM_ST_ECONFIG, "-vcd_file: '" + path + "' is a directory; give a file name such as '" +
                                        (path.empty() || path.back() == '/' ? path : path + "/") + "gtlm.vcd'");
    // SystemC reports a file it cannot open only as a warning: check first so the caller gets an error.
    std::FILE *probe = std::fopen((without_vcd_suffix(path) + ".vcd").c_str(), "w");
    if (!probe) throw Error(GTLM_ST_EIO, "-vcd_file: cannot create '" + path + "'");
    std::fclose(probe);
    tf_ = sc_core::sc_create_vcd_trace_file(without_vcd_suffix(path).c_str());
    if (!tf_) throw Error(GTLM_ST_EIO, "-vcd_file: cannot create '" + path + "'");
    tf_->set_time_unit(1, sc_core::SC_FS);
}

VcdTracer::~VcdTracer()
{
    if (tf_) sc_core::sc_close_vcd_trace_file(tf_);
}

void VcdTracer::add(std::vector<Probe> &&probes)
{
    for (Probe &p : probes) {
        if (!name_match_list(patterns_.c_str(), p.name.c_str())) continue;
        sigs_.emplace_back();
        Sig &s = sigs_.back();
        s.p = std::move(p);
        s.mask = s.p.width >= 64 ? ~0ull : (1ull << s.p.width) - 1;
        sc_core::sc_trace(tf_, s.value, vcd_name(s.p.name), s.p.width);
        if (s.p.kind == Probe::Pulse) pulses_.push_back(&s);
    }
}

void VcdTracer::kernel_begin()
{
    for (Sig *s : pulses_) s->last = 0;
}

void VcdTracer::sample()
{
    uint64_t now = sc_core::sc_time_stamp().value();
    uint64_t period = core_.period().value();
    uint64_t cycle = now / period;
    bool core_edge = cycle * period == now;
    if (reset_at_ != kNever && cycle >= reset_at_) reset_at_ = kNever;
    bool in_window = cycle >= start_ && (end_ == 0 || cycle < end_);
    if (!in_window) {
        // Outside the window only the pulse baselines move, so the window's first pulse counts only
        // its own events; at the window's end pulses fall once.
        if (core_edge)
            for (Sig *s : pulses_) {
                s->last = s->p.get();
                if (end_ != 0 && cycle >= end_) s->value = 0;
            }
        return;
    }
    bool up = false;
    for (Sig &s : sigs_) {
        uint64_t v = s.p.get();
        if (s.p.kind == Probe::Level) {
            s.value = v > s.mask ? s.mask : v;
            continue;
        }
        if (core_edge) {
            uint64_t d = v - s.last;
            s.last = v;
            s.value = d > s.mask ? s.mask : d;
        }
        // Up: a pulse shows, or events since the last core edge will show at the next one.
        up = up || s.value || v != s.last;
    }
    // Asked again at every sample until granted: by the last sample before the next core edge,
    // every domain that runs past it has its edge scheduled.
    if (up) schedule_reset(cycle);
}

// Pulses fall at the next core edge, if the simulation goes on past it anyway.
void VcdTracer::schedule_reset(uint64_t cycle)
{
    uint64_t edge = cycle + 1;
    if (reset_at_ == edge) return;
    if (end_ != 0 && edge > end_) return;
    uint64_t t = edge * core_.period().value();
    bool later_work = false;
    for (const ClockDomain *d : domains_) {
        uint64_t s = d->scheduled();
        if (s != kNever && s * d->period().value() >= t) later_work = true;
    }
    if (!later_work) return;
    reset_at_ = edge;
    runner_.want(t);
}

} // namespace gtlm
