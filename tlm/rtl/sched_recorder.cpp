// Records one warp scheduler's input/output sequence from a real run (-rtl_record_sched FILE, or
// `gtlm run --record-block sched FILE`): the scheduler's queries (ready mask and the first warp of
// its order) and its events (issue, exit, start with age), for replay by the RTL testbench
// (testbenches/rtl/tb_warp_arbiter.sv +replay=FILE). It wraps whichever policy selects (the C core
// or the RTL transactor) and changes nothing of the run.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "rtl/rtl_blocks.h"

extern "C" {
#include "config/opt_check.h"
}

namespace gtlm {
namespace {

class SchedRecorder {
public:
    SchedRecorder(sched *s, std::FILE *f) : inner_(s->pol), inner_state_(s->pstate), f_(f), policy_(*s->pol)
    {
        std::fprintf(f_, "# gtlm block recording: sched (SM 0, scheduler 0); q READY_HEX FIRST | i W | x W | s W AGE\n");
        std::fprintf(f_, "policy %s n_local %u\n", s->pol->name, s->n_local);
        policy_.destroy = [](void *self) { delete static_cast<SchedRecorder *>(self); };
        policy_.order = [](void *self, sched *sc, const uint8_t *st, uint32_t *out) {
            auto *r = static_cast<SchedRecorder *>(self);
            uint64_t ready = 0;
            for (uint32_t j = 0; j < sc->n_local; j++)
                if (st[j] == SCHED_WARP_READY) ready |= uint64_t{1} << j;
            uint32_t n = r->inner_->order(r->inner_state_, sc, st, out);
            std::fprintf(r->f_, "q %" PRIx64 " %d\n", ready, n ? static_cast<int>(out[0]) : -1);
            return n;
        };
        policy_.on_issue = [](void *self, const sched *sc, uint32_t warp, uint64_t pc) {
            auto *r = static_cast<SchedRecorder *>(self);
            std::fprintf(r->f_, "i %u\n", warp);
            if (r->inner_->on_issue) r->inner_->on_issue(r->inner_state_, sc, warp, pc);
        };
        policy_.on_warp_exit = [](void *self, const sched *sc, uint32_t warp) {
            auto *r = static_cast<SchedRecorder *>(self);
            std::fprintf(r->f_, "x %u\n", warp);
            if (r->inner_->on_warp_exit) r->inner_->on_warp_exit(r->inner_state_, sc, warp);
        };
        policy_.on_warp_start = [](void *self, const sched *sc, uint32_t warp) {
            auto *r = static_cast<SchedRecorder *>(self);
            std::fprintf(r->f_, "s %u %" PRIu64 "\n", warp, sc->age[warp]);
            if (r->inner_->on_warp_start) r->inner_->on_warp_start(r->inner_state_, sc, warp);
        };
    }
    ~SchedRecorder()
    {
        std::fclose(f_);
        if (inner_->destroy && inner_state_) inner_->destroy(inner_state_);
    }
    const sched_policy *policy() const { return &policy_; }

private:
    const sched_policy *inner_;
    void *inner_state_;
    std::FILE *f_;
    sched_policy policy_;
};

} // namespace

namespace {

bool set(const char *path) { return path && path[0]; }

int writable(const opt_registry *r, strbuf *err, const char *opt, const char *path)
{
    std::FILE *f = std::fopen(path, "a");
    int bad = opt_check(r, err, opt, f != nullptr, "cannot write '%s'", path);
    if (f) std::fclose(f);
    return bad;
}

} // namespace

// The checks of every -rtl_record_* option (sched here, power and bloom too: one place).
int rtl_record_config_check(const opt_registry *r, const gtlm_config *cfg, strbuf *err)
{
    int bad = 0;
    if (set(cfg->sm.rtl_record_sched)) {
        const char *pol = cfg->sm.scheduler.name;
        bad |= opt_check(r, err, "-rtl_record_sched", !std::strcmp(pol, "lrr") || !std::strcmp(pol, "gto"),
                         "recording covers the lrr and gto schedulers (the RTL arbiter's), not %s", pol);
        bad |= writable(r, err, "-rtl_record_sched", cfg->sm.rtl_record_sched);
    }
    if (set(cfg->power.rtl_record_power)) {
        const char *pol = cfg->power.policy ? cfg->power.policy : "";
        bad |= opt_check(r, err, "-rtl_record_power", !std::strcmp(pol, "snooze") || !std::strcmp(pol, "snooze_destroy"),
                         "recording covers Snooze's controller (-power_policy snooze, snooze_destroy), not %s", pol);
        bad |= writable(r, err, "-rtl_record_power", cfg->power.rtl_record_power);
    }
    if (set(cfg->morpheus.rtl_record_bloom)) {
        const llc_config &m = cfg->morpheus;
        bad |= opt_check(r, err, "-rtl_record_bloom", m.predictor == LLC_PRED_BLOOM && (m.cache_sms > 0 || set(m.cache_sm_list)),
                         "recording covers Morpheus' Bloom predictor: needs cache-mode SMs (-morpheus_cache_sms) and "
                         "-morpheus_predictor bloom");
        bad |= writable(r, err, "-rtl_record_bloom", m.rtl_record_bloom);
    }
    return bad ? -1 : 0;
}

int rtl_sched_record(sched *s, const char *path, std::string &err)
{
    if (std::strcmp(s->pol->name, "lrr") != 0 && std::strcmp(s->pol->name, "gto") != 0) {
        err = std::string("recording covers the lrr and gto schedulers (the RTL arbiter's), not ") + s->pol->name;
        return -1;
    }
    if (s->n_local > 64 || s->n_live) {
        err = "recording needs an idle scheduler of at most 64 warps";
        return -1;
    }
    std::FILE *f = std::fopen(path, "w");
    if (!f) {
        err = std::string("cannot write ") + path;
        return -1;
    }
    auto *r = new SchedRecorder(s, f);
    s->pol = r->policy();
    s->pstate = r;
    return 0;
}

} // namespace gtlm
