#include "top/cta_dispatch.h"

namespace gtlm {

void CtaDispatcher::tick(uint64_t cycle)
{
    if (!t_ || cycle < first_) return;
    uint32_t n = static_cast<uint32_t>(sms_.size());
    uint32_t last = UINT32_MAX;
    for (uint32_t i = 0; i < n && !tbsched_all_issued(t_); i++) {
        uint32_t s = (next_sm_ + i) % n;
        if (!sm_core_can_take_cta(sms_[s])) continue;
        t_->sm_free = sms_[s]->max_ctas_kernel - sms_[s]->live_ctas;
        t_->sm_live = sms_[s]->live_ctas;
        t_->now = cycle;
        uint64_t idx = tbsched_next(t_, s);
        if (idx == TBSCHED_NONE) continue;
        uint32_t id[3];
        tbsched_cta_coords(&t_->l, idx, id);
        if (sm_core_start_cta(sms_[s], id, cycle) != 0) {
            failed_ = true;
            return;
        }
        if (s < units_.size()) ClockDomain::poke(*units_[s]);
        last = s;
    }
    if (last != UINT32_MAX) next_sm_ = (last + 1) % n;
}

uint64_t CtaDispatcher::next_work(uint64_t cycle) const
{
    if (!t_ || failed_ || tbsched_all_issued(t_)) return kNever;
    for (sm_core *s : sms_)
        if (sm_core_can_take_cta(s)) return cycle < first_ ? first_ : cycle;
    return kNever;
}

void CtaDispatcher::describe(std::string &out) const
{
    if (!busy()) return;
    out += "cta dispatcher: " + std::to_string(t_->issued) + " of " + std::to_string(t_->l.n_ctas) +
           " CTAs issued\n";
}

} // namespace gtlm
