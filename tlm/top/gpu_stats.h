// GPU-wide statistics: the counters the whole GPU owns and the totals GPGPU-Sim prints.
#ifndef GTLM_TLM_GPU_STATS_H
#define GTLM_TLM_GPU_STATS_H

#include <cstdint>

extern "C" {
#include "stats/stats.h"
}

namespace gtlm {

struct GpuCounters {
    uint64_t cycles = 0;      // core cycles
    uint64_t warp_insn = 0;   // warp instructions issued
    uint64_t thread_insn = 0; // thread instructions (active lanes of every issued warp instruction)
    uint64_t ctas = 0;        // CTAs completed
    uint64_t ctas_per_sm = 0; // occupancy: CTAs of the kernel resident per SM at most
    double sim_seconds = 0;   // host wall time spent simulating
    double sim_cpu_seconds = 0; // host processor time spent simulating (what a busy machine does not inflate)
    double jit_seconds = 0;   // of it, PAVER's locality graph and partitioning (thesis Sec. 3.3.3)
    double core_mhz = 0;      // for the silicon slowdown
    // The TB scheduler (docs/paver.md): PAVER's task stealing and nextTB fetches, the kernel tail.
    uint64_t stolen_tbs = 0, steal_events = 0, fetch_stalls = 0, tail_idle_sum = 0, tail_idle_max = 0;
    // PAVER's locality graph of the kernel (0 without one): TBs, n^2, non-zeros, TBs that share.
    uint64_t graph_tbs = 0, graph_cells = 0, graph_nonzeros = 0, shared_tbs = 0;
    // -gtlm_tb_graph_refs: the kernel's global reads (lane accesses) by Fig. 3.2's category.
    uint64_t refs_accesses = 0, refs_unshared = 0, refs_intra = 0, refs_inter = 0, refs_both = 0;
};

// Registers the GPU-wide counters and the GPGPU-Sim totals derived from per-unit statistics.
// Returns 0, or -1 if a registration failed (a duplicate or malformed path: a bug).
int register_gpu_stats(stat_registry *r, GpuCounters *c, double core_mhz);

} // namespace gtlm

#endif
