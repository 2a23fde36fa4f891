#include "top/timeseries.h"

#include <cerrno>
#include <cstring>

extern "C" {
#include "common/status.h"
}

#include "dram/dram_module.h"
#include "icnt/icnt.h"
#include "kernel/error.h"
#include "l2/l2_module.h"
#include "sm/sm_module.h"
#include "top/gpu_top.h"
#include "top/cbwt_glue.h"
#include "top/power_stats.h"

namespace gtlm {

namespace {

double ratio(uint64_t num, uint64_t den) { return den ? static_cast<double>(num) / static_cast<double>(den) : 0.0; }

} // namespace

TimeSeries::~TimeSeries()
{
    if (f_) std::fclose(f_);
}

void TimeSeries::open(const std::string &path, uint64_t interval, bool cbwt)
{
    cbwt_ = cbwt;
    f_ = std::fopen(path.c_str(), "w");
    if (!f_)
        throw Error(GTLM_ST_EIO, "-stats_timeseries_file: cannot open '" + path + "': " + std::strerror(errno));
    interval_ = interval;
    std::fprintf(f_, "cycle,unit,kernel,warp_insn,ipc,l1_accesses,l1_hit_rate,l2_accesses,l2_hit_rate,"
                     "mshr_occupancy,active_warps,dram_bw_util,icnt_latency,power_w%s\n",
                 cbwt ? ",maw,pd,bypass_ratio,noc_lat_sampled,lls_rate,cbwt_dir,cbwt_step" : "");
}

void TimeSeries::begin_kernel(const Gpu &gpu, uint64_t start)
{
    if (!f_) return;
    snaps_.assign(static_cast<size_t>(gpu.n_sms() + gpu.n_l2() + gpu.n_dram() + 1), Snap{});
    last_ = start;
    start_ = start;
    next_ = start + interval_;
    in_kernel_ = true;
}

void TimeSeries::advance(const Gpu &gpu, uint64_t now)
{
    if (!f_ || !in_kernel_) return;
    while (now >= next_) { // every boundary passed; nothing ticked between two of them
        rows(gpu, next_, next_ - last_);
        last_ = next_;
        next_ += interval_;
    }
}

void TimeSeries::end_kernel(const Gpu &gpu, uint64_t end)
{
    if (!f_ || !in_kernel_) return;
    advance(gpu, end > 0 ? end - 1 : 0);
    if (end > last_) rows(gpu, end, end - last_);
    in_kernel_ = false;
    kernel_++;
    std::fflush(f_);
}

double TimeSeries::power(const Gpu &gpu, Snap &snap, char which, int index, uint64_t cycle, uint64_t span)
{
    if (!gpu.power() || !gpu.stats() || !span) return 0;
    PowerBreakdown b = gpu.power()->unit_live(gpu.stats(), which, index, static_cast<double>(cycle - start_));
    double e = (b.dynamic() + b.leakage()) * 1e-12;
    double w = (e - snap.energy) / (static_cast<double>(span) / (gpu.core_mhz() * 1e6));
    snap.energy = e;
    return w;
}

// One row per unit for the interval (cycle - span, cycle].
void TimeSeries::rows(const Gpu &gpu, uint64_t cycle, uint64_t span)
{
    size_t k = 0;
    Snap total{};
    uint64_t g_mshr = 0, g_warps = 0;
    double g_power = 0;
    char cbwt_cols[160] = "";
    if (cbwt_ && gpu.cbwt()) {
        const cbwt_unit &c = gpu.cbwt()->shown();
        std::snprintf(cbwt_cols, sizeof cbwt_cols, ",%d,%d,%.6f,%.3f,%.6f,%s,%s", c.maw.maw, gpu.sm(0).core().pdp.pol.pd,
                      c.bratio, c.noc_lat, c.lls_rate, c.dir == MAW_DIR_DEC ? "dec" : c.dir == MAW_DIR_INC ? "inc" : "none",
                      maw_step_name(static_cast<maw_step>(c.step)));
    }
    auto line = [&](const std::string &unit, uint64_t insn, uint64_t l1a, uint64_t l1h, uint64_t l2a, uint64_t l2h,
                    const char *mshr, const char *warps, const char *bw, const char *lat, double watts) {
        std::fprintf(f_, "%llu,%s,%llu,", static_cast<unsigned long long>(cycle), unit.c_str(),
                     static_cast<unsigned long long>(kernel_));
        if (insn != UINT64_MAX) std::fprintf(f_, "%llu,%.6f,", static_cast<unsigned long long>(insn), ratio(insn, span));
        else std::fputs(",,", f_);
        if (l1a != UINT64_MAX) std::fprintf(f_, "%llu,%.6f,", static_cast<unsigned long long>(l1a), ratio(l1h, l1a));
        else std::fputs(",,", f_);
        if (l2a != UINT64_MAX) std::fprintf(f_, "%llu,%.6f,", static_cast<unsigned long long>(l2a), ratio(l2h, l2a));
        else std::fputs(",,", f_);
        std::fprintf(f_, "%s,%s,%s,%s,%.6f%s\n", mshr, warps, bw, lat, watts,
                     !cbwt_ ? "" : unit == "gpu" ? cbwt_cols : ",,,,,,,");
    };
    const uint64_t none = UINT64_MAX;
    char a[32], b[32];
    for (int i = 0; i < gpu.n_sms(); i++, k++) {
        const sm_core &c = gpu.sm(i).core();
        Snap now{};
        now.insn = c.st.warp_insn;
        if (c.l1d_enabled) {
            now.l1_acc = c.l1d.st.accesses;
            now.l1_hit = c.l1d.st.hits;
        }
        Snap d{now.insn - snaps_[k].insn, now.l1_acc - snaps_[k].l1_acc, now.l1_hit - snaps_[k].l1_hit};
        now.energy = snaps_[k].energy;
        snaps_[k] = now;
        total.insn += d.insn;
        total.l1_acc += d.l1_acc;
        total.l1_hit += d.l1_hit;
        uint64_t mshr = c.l1d_enabled ? static_cast<uint64_t>(cache_mshr_in_use(&c.l1d)) : 0;
        g_mshr += mshr;
        g_warps += c.live_warps;
        std::snprintf(a, sizeof a, "%llu", static_cast<unsigned long long>(mshr));
        std::snprintf(b, sizeof b, "%u", c.live_warps);
        double w = power(gpu, snaps_[k], 's', i, cycle, span);
        g_power += w;
        line("sm" + std::to_string(i), d.insn, d.l1_acc, d.l1_hit, none, none, a, b, "", "", w);
    }
    for (int j = 0; j < gpu.n_l2(); j++, k++) {
        const l2_slice &s = gpu.l2(j).core();
        Snap now{};
        now.l2_acc = s.st.accesses;
        now.l2_hit = s.st.hits;
        uint64_t da = now.l2_acc - snaps_[k].l2_acc, dh = now.l2_hit - snaps_[k].l2_hit;
        now.energy = snaps_[k].energy;
        snaps_[k] = now;
        total.l2_acc += da;
        total.l2_hit += dh;
        std::snprintf(a, sizeof a, "%d", cache_mshr_in_use(&s.cache));
        double w = power(gpu, snaps_[k], 'l', j, cycle, span);
        g_power += w;
        line("l2_" + std::to_string(j), none, none, none, da, dh, a, "", "", "", w);
    }
    double dram_per_core = gpu.dram_mhz() / gpu.core_mhz();
    uint64_t busy_total = 0;
    for (int c = 0; c < gpu.n_dram(); c++, k++) {
        const dram_channel &ch = gpu.dram(c).core();
        uint64_t busy = ch.core.st.bus_busy_cycles, d = busy - snaps_[k].busy;
        snaps_[k].busy = busy;
        busy_total += d;
        std::snprintf(a, sizeof a, "%.6f", ratio(d, static_cast<uint64_t>(static_cast<double>(span) * dram_per_core)));
        double w = power(gpu, snaps_[k], 'd', c, cycle, span);
        g_power += w;
        line("dram_" + std::to_string(c), none, none, none, none, none, "", "", a, "", w);
    }
    const Icnt &ic = gpu.icnt();
    uint64_t pkts = ic.req_counters().packets + ic.rsp_counters().packets;
    uint64_t lat = ic.req_counters().latency_sum + ic.rsp_counters().latency_sum;
    uint64_t dp = pkts - snaps_[k].pkts, dl = lat - snaps_[k].lat;
    snaps_[k].pkts = pkts;
    snaps_[k].lat = lat;
    std::snprintf(a, sizeof a, "%.3f", ratio(dl, dp));
    double w = power(gpu, snaps_[k], 'n', 0, cycle, span);
    g_power += w;
    line("icnt", none, none, none, none, none, "", "", "", a, w);
    std::snprintf(a, sizeof a, "%llu", static_cast<unsigned long long>(g_mshr));
    std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(g_warps));
    char bw[32], lt[32];
    std::snprintf(bw, sizeof bw, "%.6f",
                  ratio(busy_total, static_cast<uint64_t>(static_cast<double>(span) * dram_per_core * gpu.n_dram())));
    std::snprintf(lt, sizeof lt, "%.3f", ratio(dl, dp));
    line("gpu", total.insn, total.l1_acc, total.l1_hit, total.l2_acc, total.l2_hit, a, b, bw, lt, g_power);
}

} // namespace gtlm
