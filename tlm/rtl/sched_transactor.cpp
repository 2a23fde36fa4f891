// Transactor for the warp-scheduler arbiter: drives the Verilated rtl/sched/warp_arbiter.sv from
// the SM's issue stage in place of the C policy's order().
//
// Selection: the SM's statuses become the ready pins; the grant is read after a combinational
// evaluation, masked out, and asked again until no grant: the C core's whole priority order (the
// SM tries it in order; the first warp that can issue wins).
// Events (issue, exit, start) become the pins sampled at the next rising edge. An edge is driven
// before a query when events are pending: a cycle without events changes no RTL state, so skipping
// its edge is exact (a gated clock). Events that do not fit one edge's ports in the C core's order
// (a second start in one cycle: a CTA's warps) get an edge of their own first.
#include <cstring>
#include <memory>

#include "Vwarp_arbiter.h"

#include "rtl/rtl_blocks.h"
#include "rtl/rtl_trace.h"

extern "C" {
#include "config/opt_check.h"
}

namespace gtlm {
namespace {

constexpr uint32_t kRtlWarps = 64; // the arbiter's N

class SchedTransactor {
public:
    SchedTransactor(const sched *s, const std::string &name, const char *vcd_file)
        : policy_(*s->pol), top_(vcd_file, name)
    {
        top_->gto = std::strcmp(s->pol->name, "gto") == 0;
        top_->clk = 0;
        top_->rst_n = 1;
        top_->eval();
        top_->rst_n = 0; // asynchronous reset
        top_->eval();
        top_->rst_n = 1;
        top_->eval();
        policy_.destroy = [](void *self) { delete static_cast<SchedTransactor *>(self); };
        policy_.order = [](void *self, sched *sc, const uint8_t *st, uint32_t *out) {
            return static_cast<SchedTransactor *>(self)->order(sc->n_local, st, out);
        };
        policy_.on_issue = [](void *self, const sched *, uint32_t warp, uint64_t) {
            static_cast<SchedTransactor *>(self)->issue(warp);
        };
        policy_.on_warp_exit = [](void *self, const sched *, uint32_t warp) {
            static_cast<SchedTransactor *>(self)->exit(warp);
        };
        policy_.on_warp_start = [](void *self, const sched *sc, uint32_t warp) {
            static_cast<SchedTransactor *>(self)->start(warp, sc->age[warp]);
        };
    }
    const sched_policy *policy() const { return &policy_; }

private:
    uint32_t order(uint32_t n_local, const uint8_t *st, uint32_t *out)
    {
        top_.touch();
        if (issue_ || exit_ || start_) edge();
        uint64_t ready = 0;
        for (uint32_t j = 0; j < n_local; j++)
            if (st[j] == SCHED_WARP_READY) ready |= uint64_t{1} << j;
        uint32_t m = 0;
        while (ready) {
            top_->ready = ready;
            top_->eval();
            if (!top_->grant_valid) break;
            uint32_t w = top_->grant_warp;
            if (!(ready >> w & 1)) break; // a grant outside the mask: the RTL is wrong, stop asking
            out[m++] = w;
            ready &= ~(uint64_t{1} << w);
        }
        return m;
    }
    // Each event waits for the edge with the ones before it unless its port is taken or a later
    // kind (in the order issue, exit, start) is already pending.
    void issue(uint32_t w)
    {
        top_.touch();
        if (issue_ || exit_ || start_) edge();
        issue_ = true;
        top_->issue_warp = w;
    }
    void exit(uint32_t w)
    {
        top_.touch();
        if (exit_ || start_) edge();
        exit_ = true;
        top_->exit_warp = w;
    }
    void start(uint32_t w, uint64_t age)
    {
        top_.touch();
        if (start_) edge();
        start_ = true;
        top_->start_warp = w;
        top_->start_age = age;
    }
    void edge()
    {
        top_->issue_valid = issue_;
        top_->exit_valid = exit_;
        top_->start_valid = start_;
        top_->clk = 1;
        top_->eval();
        top_->clk = 0;
        top_->issue_valid = top_->exit_valid = top_->start_valid = 0;
        top_->eval();
        issue_ = exit_ = start_ = false;
    }

    sched_policy policy_;
    RtlModel<Vwarp_arbiter> top_;
    bool issue_ = false, exit_ = false, start_ = false;
};

bool lrr_or_gto(const char *name) { return std::strcmp(name, "lrr") == 0 || std::strcmp(name, "gto") == 0; }

} // namespace

int rtl_config_check(const opt_registry *r, const gtlm_config *cfg, strbuf *err)
{
    if (rtl_record_config_check(r, cfg, err) != 0 || rtl_bloom_check(r, cfg, err) != 0 ||
        rtl_power_check(r, cfg, err) != 0)
        return -1;
    if (!cfg->sm.rtl_sched) return 0;
    int warps = cfg->sm.core_pipeline.first / 32;
    int per_sched = (warps + cfg->sm.n_schedulers - 1) / cfg->sm.n_schedulers;
    int bad = 0;
    bad |= opt_check(r, err, "-rtl_sched", lrr_or_gto(cfg->sm.scheduler.name),
                     "the RTL warp arbiter implements lrr and gto, not -gpgpu_scheduler %s", cfg->sm.scheduler.name);
    bad |= opt_check(r, err, "-rtl_sched", per_sched <= static_cast<int>(kRtlWarps),
                     "the RTL warp arbiter holds %u warps per scheduler, this SM gives each %d", kRtlWarps, per_sched);
    return bad ? -1 : 0;
}

int rtl_sched_attach(sched *s, const std::string &name, const char *vcd_file, std::string &err)
{
    if (!lrr_or_gto(s->pol->name) || s->n_local > kRtlWarps || s->n_live) {
        err = "the RTL warp arbiter replaces an idle lrr or gto scheduler of at most 64 warps";
        return -1;
    }
    auto *t = new SchedTransactor(s, name, vcd_file);
    if (s->pol->destroy && s->pstate) s->pol->destroy(s->pstate);
    s->pol = t->policy();
    s->pstate = t;
    return 0;
}

} // namespace gtlm
