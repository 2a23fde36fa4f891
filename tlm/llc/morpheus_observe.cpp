// Morpheus' waveform observables (wave/probe.h): per controller (gpu.l2[j].morpheus.) the Bloom
// predictions, the warps' hit/miss results, the swaps, the request-queue and WST occupancy and the
// DRAM traffic; per cache-mode SM (gpu.sm[i].ext_llc.) its accesses, hits and misses; the packets
// between them (gpu.icnt.ext.).
#include "llc/morpheus.h"

namespace gtlm {

void Morpheus::observe(ProbeList &out) const
{
    for (size_t j = 0; j < ctls_.size(); j++) {
        const mctl *m = &ctls_[j]->m;
        const bloom_stats *b = &m->bp.st;
        out.scope("gpu.l2[" + std::to_string(j) + "].morpheus.");
        out.pulse("pred_hit", 4, [b] { return b->true_positives + b->false_positives; });
        out.pulse("pred_miss", 4, [b] { return b->true_negatives + b->false_negatives; });
        out.pulse("ext_hit", 4, [m] { return m->st.ext_hits; });
        out.pulse("ext_miss", 4, [m] { return m->st.ext_misses; });
        out.pulse("swap", 4, [b] { return b->swaps; });
        out.level("swaps", 32, [b] { return b->swaps; });
        out.level("ext_hits", 32, [m] { return m->st.ext_hits; });
        out.level("ext_misses", 32, [m] { return m->st.ext_misses; });
        out.level("input", 16, [m] { return static_cast<uint64_t>(m->input.n); });
        out.level("queue", 16, [m] { return static_cast<uint64_t>(m->queue.n); });
        out.level("wst_busy", 16, [m] { return static_cast<uint64_t>(m->busy_rows); });
        out.level("dram_pending", 16, [m] { return static_cast<uint64_t>(m->outbox.n + m->reads.n); });
    }
    for (size_t k = 0; k < cache_sms_.size(); k++) {
        const ellc_sm_stats *s = &srv_.st[k];
        out.scope("gpu.sm[" + std::to_string(cache_sms_[k]) + "].ext_llc.");
        out.pulse("access", 4, [s] { return s->accesses; });
        out.pulse("hit", 4, [s] { return s->hits; });
        out.pulse("miss", 4, [s] { return s->misses; });
        out.pulse("fill", 4, [s] { return s->fills; });
        out.level("accesses", 32, [s] { return s->accesses; });
        out.level("busy_cycles", 32, [s] { return s->busy_cycles; });
    }
    noc_->observe(out);
}

} // namespace gtlm
