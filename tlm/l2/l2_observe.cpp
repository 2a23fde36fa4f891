// The L2 slice's waveform observables (see wave/probe.h).
#include "l2/l2_module.h"
#include "top/power_stats.h"

namespace gtlm {

void L2Slice::observe(ProbeList &out) const
{
    const l2_slice *s = &s_;
    out.scope("gpu.l2[" + std::to_string(id_) + "].");
    out.pulse("hit", 4, [s] { return s->st.hits; });
    out.pulse("miss", 4, [s] { return s->st.misses; });
    out.level("hits", 32, [s] { return s->st.hits; });
    out.level("misses", 32, [s] { return s->st.misses; });
    out.level("mshr", 16, [s] { return static_cast<uint64_t>(cache_mshr_in_use(&s->cache)); });
    out.level("rop_queue", 16, [s] { return static_cast<uint64_t>(s->rop_n); });
    out.level("dram_queue", 8, [s] { return static_cast<uint64_t>(s->dram_n); });
    out.level("response_queue", 16, [s] { return static_cast<uint64_t>(s->rsp_n); });
    observe_pm(out, "power.lines.", &s->cache.pm);
    observe_pm_state(out, "power.lines.", &s->cache.pm); // bank level: the slice's 2-bit state
}

} // namespace gtlm
