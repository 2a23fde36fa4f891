#include "top/cbwt_glue.h"

#include <stdexcept>
#include <string>

#include "icnt/icnt.h"
#include "l2/l2_module.h"
#include "sm/sm_module.h"
#include "top/gpu_top.h"

namespace gtlm {

namespace {

// The zero-load crossbar latency (icnt cycles), the mean of a header-only request and a
// line-carrying response: F flits cross in F cycles plus -icnt_latency (xbar.h).
double zero_load_latency(const gtlm_config &cfg)
{
    int flit = cfg.noc.flit_size > 0 ? cfg.noc.flit_size : 32;
    int line = cfg.l1.dl1.disabled ? 128 : cfg.l1.dl1.line_size;
    double req = (NOC_HEADER_BYTES + flit - 1) / flit, rsp = (NOC_HEADER_BYTES + line + flit - 1) / flit;
    return (req + rsp) / 2 + cfg.noc.latency;
}

// L1 miss rates over every SM (spec 8, Fig. 14): misses include bypasses (a bypass is a non-hit).
struct L1Rate {
    bool without_bypass; // misses that allocated, over accesses
    bool bypass_only;
};
double l1_rate(const stat_registry *r, stat_scope scope, const void *ctx)
{
    const L1Rate *k = static_cast<const L1Rate *>(ctx);
    double hits = 0, merged = 0, miss = 0, byp = 0;
    stat_get(r, "gpu.cbwt.l1_hits", scope, &hits);
    stat_get(r, "gpu.cbwt.l1_hit_reserved", scope, &merged);
    stat_get(r, "gpu.cbwt.l1_misses", scope, &miss);
    stat_get(r, "gpu.cbwt.l1_bypasses", scope, &byp);
    double acc = hits + merged + miss; // accesses that went through (refused retries are not accesses here)
    if (acc <= 0) return 0;
    if (k->bypass_only) return byp / acc;
    return (k->without_bypass ? miss - byp : miss) / acc;
}
const L1Rate rate_all{false, false}, rate_nobyp{true, false}, rate_byp{false, true};

} // namespace

CbwtGlue::CbwtGlue(const gtlm_config &cfg, Gpu &gpu, stat_registry *stats)
    : gpu_(gpu), ctrl_(cfg.cbwt.ctrl != 0), gate_(cfg.cbwt.lls_gate != 0)
{
    int n = gpu.n_l2();
    if (n < 1 || cbwt_ctl_init(&ctl_, &cfg.cbwt, n, cfg.l2.dl2.nsets, cfg.l2.dl2.assoc, gpu.n_sms(),
                               zero_load_latency(cfg)) != 0)
        throw std::runtime_error("CBWT: cannot build the contention and congestion detectors (-cbwt_*)");
    l2_.resize(static_cast<size_t>(n));
    for (int j = 0; j < n; j++)
        if (cbwt_l2_attach(&l2_[static_cast<size_t>(j)], &gpu.l2(j).core(), &ctl_.hw[j], &ctl_.full[j]) != 0)
            throw std::runtime_error("CBWT: the L2 slice's cache hooks are taken");
    for (int j = 0; j < n; j++) l2_[static_cast<size_t>(j)].served = &ctl_.served[j];
    gpu.icnt_mut().set_sampler(&ctl_.noc);
    loads_.assign(static_cast<size_t>(gpu.n_sms()), 0);
    byp_.assign(static_cast<size_t>(gpu.n_sms()), 0);
    if (gate_) set_bypass_gate(false); // gap G26: no bypassing before contention is detected
    if (stats) register_stats(stats);
}

CbwtGlue::~CbwtGlue() { cbwt_ctl_free(&ctl_); }

void CbwtGlue::l1_counts(int sm, uint64_t &loads, uint64_t &bypasses) const
{
    const sm_core &c = gpu_.sm(sm).core();
    loads = c.pdp.mode != PDP_MODE_OFF ? c.pdp.loads : 0;
    bypasses = c.l1d_enabled ? c.l1d.st.bypasses : 0;
}

void CbwtGlue::broadcast(uint32_t maw)
{
    if (!ctrl_) return;
    for (int i = 0; i < gpu_.n_sms(); i++) sm_core_set_warp_limit(&gpu_.sm(i).core(), maw);
}

void CbwtGlue::kernel_begin(uint64_t cycle)
{
    int n_max = static_cast<int>(sm_core_warps_per_sched(&gpu_.sm(0).core()));
    if (ctl_.core) {
        for (int i = 0; i < gpu_.n_sms(); i++) l1_counts(i, loads_[static_cast<size_t>(i)], byp_[static_cast<size_t>(i)]);
        cbwt_ctl_kernel_begin_cores(&ctl_, n_max, loads_.data(), byp_.data(), cycle);
        periods_.assign(loads_.size(), 0);
        broadcast(static_cast<uint32_t>(n_max > 0 ? n_max : 1)); // every SM's controller starts at n_max
        return;
    }
    uint64_t loads, byp;
    sampler_counts(loads, byp);
    cbwt_ctl_kernel_begin(&ctl_, n_max, loads, byp, cycle);
    broadcast(static_cast<uint32_t>(ctl_.g.maw.maw));
}

void CbwtGlue::poll(uint64_t cycle)
{
    if (!ctrl_) return; // statistics only: no periods, no MAW
    if (ctl_.core) {
        poll_cores(cycle);
        return;
    }
    uint64_t loads, byp;
    sampler_counts(loads, byp);
    int before = ctl_.g.maw.maw;
    if (!cbwt_ctl_poll(&ctl_, loads, byp, cycle)) return;
    if (ctl_.g.maw.maw != before) broadcast(static_cast<uint32_t>(ctl_.g.maw.maw));
    if (gate_) set_bypass_gate(ctl_.g.lls_rate > ctl_.params.t_lls);
}

// Core scope (gap G2 option): each SM's controller sets that SM's MAW; the contention gate opens
// per SM on its own period's lls_rate.
void CbwtGlue::poll_cores(uint64_t cycle)
{
    int n = gpu_.n_sms();
    for (int i = 0; i < n; i++) l1_counts(i, loads_[static_cast<size_t>(i)], byp_[static_cast<size_t>(i)]);
    if (!cbwt_ctl_poll_cores(&ctl_, loads_.data(), byp_.data(), cycle)) return;
    for (int i = 0; i < n; i++) {
        const cbwt_unit &u = ctl_.core[i];
        uint64_t &seen = periods_[static_cast<size_t>(i)];
        if (u.maw.periods == seen) continue; // this SM's period did not close
        seen = u.maw.periods;
        sm_core &c = gpu_.sm(i).core();
        sm_core_set_warp_limit(&c, static_cast<uint32_t>(u.maw.maw));
        if (gate_) c.pdp.bypass_open = u.lls_rate > ctl_.params.t_lls ? 1 : 0;
    }
}

// The L2's contention notice to every L1 (seed Sec. V-B: "When the LLS rate ... is high enough, the
// L2 cache notifies the L1 cache"; Sec. V-B: "When cache congestion is detected, the cache
// controller enables bypassing").
void CbwtGlue::set_bypass_gate(bool open)
{
    for (int i = 0; i < gpu_.n_sms(); i++) gpu_.sm(i).core().pdp.bypass_open = open ? 1 : 0;
}

void CbwtGlue::observe(ProbeList &out) const
{
    const cbwt_unit *c = &shown();
    const Gpu *g = &gpu_;
    out.scope("gpu.cbwt.");
    out.level("maw", 16, [c] { return static_cast<uint64_t>(c->maw.maw); });
    out.level("pd", 8, [g] { return static_cast<uint64_t>(g->sm(0).core().pdp.pol.pd); });
    out.level("bypass_permille", 16, [c] { return static_cast<uint64_t>(c->bratio * 1000 + 0.5); });
    out.level("noc_lat", 32, [c] { return static_cast<uint64_t>(c->noc_lat + 0.5); });
    out.level("lls_permille", 16, [c] { return static_cast<uint64_t>(c->lls_rate * 1000 + 0.5); });
    out.level("dir", 2, [c] { return c->dir; });
    out.level("step", 4, [c] { return c->step; });
}

void CbwtGlue::register_stats(stat_registry *r)
{
    int bad = 0;
    auto ok = [&bad](int id) { bad |= id < 0; };
    auto counter = [&](const std::string &path, uint64_t *src, const char *unit, const char *desc) {
        ok(stat_add_counter(r, path.c_str(), src, unit, desc, nullptr));
    };
    for (int j = 0; j < ctl_.n_slices; j++) {
        std::string p = "gpu.l2[" + std::to_string(j) + "].cbwt.";
        counter(p + "lls", &ctl_.hw[j].lls_total, "accesses", "CBWT: early evictions seen by the victim bits of sampled sets (LLS)");
        counter(p + "sampled_loads", &ctl_.hw[j].accesses_total, "accesses", "CBWT: loads to the sampled sets");
        counter(p + "victim_requests", &ctl_.full[j].lls_total, "accesses",
                "loads an L1 sent again for a line the L2 already served it (every set: Fig. 5)");
        counter(p + "loads", &ctl_.full[j].accesses_total, "accesses", "loads from the L1s (every set)");
        counter(p + "repeat_requests", &ctl_.served[j].repeats, "accesses",
                "loads an L1 sent again for a line the L2 served it earlier in the kernel, evicted since or not");
        counter(p + "repeat_requests_l2_miss", &ctl_.served[j].repeats_l2_miss, "accesses",
                "repeat requests that missed in the L2 (the line was evicted after it served that L1)");
    }
    auto sum = [&](const char *path, const char *pattern, const char *unit, const char *desc) {
        ok(stat_add_sum(r, path, pattern, unit, desc, nullptr));
    };
    auto ratio = [&](const char *path, const char *num, const char *den, const char *desc) {
        ok(stat_add_ratio(r, path, num, den, "ratio", desc, nullptr));
    };
    sum("gpu.cbwt.lls", "gpu.l2[*].cbwt.lls", "accesses", "CBWT: LLS of the sampled L2 sets, all periods");
    sum("gpu.cbwt.sampled_loads", "gpu.l2[*].cbwt.sampled_loads", "accesses", "CBWT: loads to the sampled L2 sets");
    ratio("gpu.cbwt.lls_rate", "gpu.cbwt.lls", "gpu.cbwt.sampled_loads", "CBWT: LLS over sampled-set loads");
    sum("gpu.cbwt.victim_requests", "gpu.l2[*].cbwt.victim_requests", "accesses", "victim requests over every L2 set");
    sum("gpu.cbwt.l2_loads", "gpu.l2[*].cbwt.loads", "accesses", "loads from the L1s at the L2");
    ratio("gpu.cbwt.contention_ratio", "gpu.cbwt.victim_requests", "gpu.cbwt.l2_loads",
          "L1 contention ratio detected at the L2 (Fig. 5, full coverage)");
    sum("gpu.cbwt.repeat_requests", "gpu.l2[*].cbwt.repeat_requests", "accesses",
        "repeat requests of an L1 for a line, L2 residency aside (Sec. III's victim request)");
    sum("gpu.cbwt.repeat_requests_l2_miss", "gpu.l2[*].cbwt.repeat_requests_l2_miss", "accesses",
        "repeat requests that missed in the L2: the victim bits were lost to an L2 eviction");
    ratio("gpu.cbwt.contention_ratio_unbounded", "gpu.cbwt.repeat_requests", "gpu.cbwt.l2_loads",
          "repeat requests over loads: the contention ratio if the L2 never forgot a served line");
    counter("gpu.cbwt.noc_sampled_latency", &ctl_.noc.smp_sum, "cycles", "CBWT: latency of the sampled NoC packets, summed (icnt cycles)");
    counter("gpu.cbwt.noc_sampled_packets", &ctl_.noc.smp_cnt, "packets", "CBWT: NoC packets sampled");
    counter("gpu.cbwt.noc_latency_total", &ctl_.noc.all_sum, "cycles", "latency of every NoC packet, summed (icnt cycles)");
    counter("gpu.cbwt.noc_packets", &ctl_.noc.all_cnt, "packets", "NoC packets (both networks)");
    ratio("gpu.cbwt.noc_latency_sampled_avg", "gpu.cbwt.noc_sampled_latency", "gpu.cbwt.noc_sampled_packets",
          "CBWT: average sampled NoC latency (icnt cycles)");
    ratio("gpu.cbwt.noc_latency_avg", "gpu.cbwt.noc_latency_total", "gpu.cbwt.noc_packets",
          "average NoC latency of every packet (icnt cycles)");
    static const char *const dirs[NOC_DIRS] = {"req", "rsp"};
    static const char *const dir_names[NOC_DIRS] = {"request", "reply"};
    for (int d = 0; d < NOC_DIRS; d++) {
        std::string p = std::string("gpu.cbwt.noc_") + dirs[d] + "_", what = dir_names[d];
        counter(p + "latency_total", &ctl_.noc.dir_all_sum[d], "cycles", ("latency of every " + what + " packet, summed (icnt cycles)").c_str());
        counter(p + "packets", &ctl_.noc.dir_all_cnt[d], "packets", (what + " packets").c_str());
        counter(p + "sampled_latency", &ctl_.noc.dir_smp_sum[d], "cycles", ("CBWT: latency of the sampled " + what + " packets, summed").c_str());
        counter(p + "sampled_packets", &ctl_.noc.dir_smp_cnt[d], "packets", ("CBWT: " + what + " packets sampled").c_str());
        ratio((p + "latency_avg").c_str(), (p + "latency_total").c_str(), (p + "packets").c_str(),
              ("average NoC latency of every " + what + " packet (icnt cycles)").c_str());
        ratio((p + "latency_sampled_avg").c_str(), (p + "sampled_latency").c_str(), (p + "sampled_packets").c_str(),
              ("CBWT: average sampled NoC latency of " + what + " packets (icnt cycles)").c_str());
    }
    counter("gpu.cbwt.periods", &ctl_.periods, "periods", "CBWT: controller periods closed");
    counter("gpu.cbwt.timeouts", &ctl_.timeouts, "periods", "CBWT: periods closed by -cbwt_timeout");
    counter("gpu.cbwt.sampler_loads", &ctl_.period_loads, "accesses", "CBWT: sampler-L1 loads of closed periods (m)");
    counter("gpu.cbwt.sampler_bypasses", &ctl_.period_bypasses, "accesses", "CBWT: sampler-L1 bypasses of closed periods (m_b)");
    ratio("gpu.cbwt.bypass_ratio", "gpu.cbwt.sampler_bypasses", "gpu.cbwt.sampler_loads", "CBWT: m_b / m");
    for (int s = 0; s < MAW_STEP_COUNT; s++)
        counter(std::string("gpu.cbwt.step_") + maw_step_name(static_cast<maw_step>(s)), &ctl_.steps[s], "periods",
                "CBWT: periods that took this controller step (none, 1, 1dec, 2..6)");
    if (ctl_.cfg.step1 == CBWT_STEP1_CONGESTION)
        counter("gpu.cbwt.step_1_congestion_only", &ctl_.congestion_only, "periods",
                "CBWT: steps 1 and 1dec taken on NoC congestion with lls_rate <= T_LLS (-cbwt_step1 congestion)");
    counter("gpu.cbwt.maw_cycles", &ctl_.maw_cycles, "warp-cycles", "CBWT: MAW per scheduler summed over core cycles");
    counter("gpu.cbwt.cycles", &ctl_.cycles, "cycles", "CBWT: core cycles the controller ran");
    ratio("gpu.cbwt.maw_avg", "gpu.cbwt.maw_cycles", "gpu.cbwt.cycles", "CBWT: average MAW per scheduler");
    sum("gpu.cbwt.l1_accesses", "gpu.sm[*].l1d.accesses", "accesses", "L1D accesses, every SM");
    sum("gpu.cbwt.l1_hits", "gpu.sm[*].l1d.hits", "accesses", "L1D hits, every SM");
    sum("gpu.cbwt.l1_hit_reserved", "gpu.sm[*].l1d.hit_reserved", "accesses", "L1D accesses merged into an MSHR, every SM");
    sum("gpu.cbwt.l1_misses", "gpu.sm[*].l1d.misses", "accesses", "L1D misses (bypasses included), every SM");
    sum("gpu.cbwt.l1_bypasses", "gpu.sm[*].l1d.bypasses", "accesses", "L1D bypasses, every SM");
    ok(stat_add_derived(r, "gpu.cbwt.l1_miss_rate", l1_rate, &rate_all, "ratio",
                        "L1D misses (bypasses included) / (hits + merges + misses) (Fig. 14)", nullptr));
    ok(stat_add_derived(r, "gpu.cbwt.l1_miss_rate_no_bypass", l1_rate, &rate_nobyp, "ratio",
                        "L1D misses that allocated / (hits + merges + misses)", nullptr));
    ok(stat_add_derived(r, "gpu.cbwt.l1_bypass_rate", l1_rate, &rate_byp, "ratio", "L1D bypasses / (hits + merges + misses)", nullptr));
    static const char *const bins[PDP_REUSE_BINS] = {"0", "1", "2", "3_4", "5_8", "gt8"};
    for (int b = 0; b < PDP_REUSE_BINS; b++) {
        std::string path = std::string("gpu.cbwt.l1_reuse_") + bins[b];
        std::string pat = std::string("gpu.sm[*].l1d.reuse_") + bins[b];
        sum(path.c_str(), pat.c_str(), "lines", "L1D lines evicted after this many load hits since their fill (Fig. 4)");
    }
    if (bad) throw std::runtime_error("CBWT: cannot register the statistics");
}

} // namespace gtlm
