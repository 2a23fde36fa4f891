// The CTA dispatcher: each core cycle it visits the SMs round-robin (starting after the last SM
// that received a CTA, as GPGPU-Sim's issue_block2core does) and gives every SM with room one CTA
// chosen by the thread-block-scheduler policy (model/tbsched).
#ifndef GTLM_TLM_CTA_DISPATCH_H
#define GTLM_TLM_CTA_DISPATCH_H

#include <vector>

extern "C" {
#include "sm/sm_core.h"
#include "tbsched/tbsched.h"
}

#include "kernel/clock_domain.h"

namespace gtlm {

class CtaDispatcher : public Tickable {
public:
    // Its work appears when an SM of its own domain finishes a CTA: asked at every edge.
    CtaDispatcher() { poll_always_ = true; }
    // units[i]: the module ticking sms[i] (asked again in the edge it receives a CTA); no CTA
    // leaves before core cycle first (the kernel launch latency).
    void begin(tbsched *t, std::vector<sm_core *> sms, std::vector<Tickable *> units, uint64_t first = 0)
    {
        t_ = t;
        first_ = first;
        sms_ = std::move(sms);
        units_ = std::move(units);
    }
    void end() { t_ = nullptr; }
    void tick(uint64_t cycle) override;
    uint64_t next_work(uint64_t cycle) const override;
    void describe(std::string &out) const override;
    bool busy() const override { return t_ && !tbsched_all_issued(t_); }
    bool failed() const { return failed_; }
    // CTAs of the running kernel not handed to an SM yet.
    uint64_t pending() const { return t_ ? t_->l.n_ctas - t_->issued : 0; }

private:
    tbsched *t_ = nullptr;
    std::vector<sm_core *> sms_;
    std::vector<Tickable *> units_;
    uint32_t next_sm_ = 0;
    uint64_t first_ = 0;
    bool failed_ = false;
};

} // namespace gtlm

#endif
