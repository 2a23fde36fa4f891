// The DRAM channel's waveform observables (see wave/probe.h): queues, data bus, and per bank
// whether a row is open and which.
#include "dram/dram_module.h"

namespace gtlm {

void DramChannel::observe(ProbeList &out) const
{
    const dram_channel *ch = &ch_;
    const ClockDomain *d = &domain_;
    out.scope("gpu.dram[" + std::to_string(channel_) + "].");
    out.level("latency_queue", 16, [ch] { return static_cast<uint64_t>(ch->lq_n); });
    out.level("queue", 16, [ch] { return static_cast<uint64_t>(ch->core.qn); });
    out.level("return_queue", 16, [ch] { return static_cast<uint64_t>(ch->rq_n); });
    out.level("bus_busy", 1, [ch, d] { return ch->core.bus_free > d->cycle() ? 1u : 0u; });
    out.level("reads", 32, [ch] { return ch->core.st.reads; });
    out.level("writes", 32, [ch] { return ch->core.st.writes; });
    out.level("row_hits", 32, [ch] { return ch->core.st.row_hits; });
    for (int b = 0; b < ch->core.t.nbk; b++) {
        const dram_bank *bk = &ch->core.banks[b];
        std::string p = "bank[" + std::to_string(b) + "].";
        out.level(p + "open", 1, [bk] { return bk->open_row >= 0 ? 1u : 0u; });
        out.level(p + "row", 24, [bk] { return bk->open_row >= 0 ? static_cast<uint64_t>(bk->open_row) : 0u; });
    }
}

} // namespace gtlm
