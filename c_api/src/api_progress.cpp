// Progress reports of a run (gtlm_set_progress_callback).
#include "api_guard.h"

using gtlm_api::set_error;

extern "C" int gtlm_set_progress_callback(gtlm_sim *sim, gtlm_progress_callback cb, void *payload,
                                          unsigned long long every_cycles)
{
    return gtlm_api::guard([&] {
        if (!sim) return set_error(GTLM_EINVAL, "gtlm_set_progress_callback: sim is NULL");
        if (!cb) {
            sim->sim.set_progress(1, nullptr);
            return static_cast<int>(GTLM_OK);
        }
        sim->sim.set_progress(every_cycles, [cb, payload](const gtlm::Simulator::Progress &p) {
            gtlm_progress g{};
            g.version = GTLM_PROGRESS_VERSION;
            g.kernel_done = p.done ? 1 : 0;
            g.kernel = p.kernel;
            g.n_kernels = p.n_kernels;
            g.kernel_name = p.name.c_str();
            g.cycles = p.cycles;
            g.warp_insn = p.warp_insn;
            g.total_cycles = p.total_cycles;
            g.total_warp_insn = p.total_warp_insn;
            cb(&g, payload);
        });
        return static_cast<int>(GTLM_OK);
    });
}
