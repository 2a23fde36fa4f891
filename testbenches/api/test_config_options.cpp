// GPGPU-Sim configuration options gtlm models (docs/gpgpusim-options.md), each with a
// hand-computed effect on a hand-written kernel: clocks equal (timing_fixture.h), so cycle counts
// are exact arithmetic.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "gtlm/gtlm.h"
#include "timing_fixture.h"

namespace {

double total(Sim &s, const char *name)
{
    double v = -1;
    EXPECT_EQ(gtlm_stat_get(s.sim, name, &v), GTLM_OK) << name;
    return v;
}

// -gpgpu_kernel_launch_latency L: every launch waits L core cycles before its first CTA; the rest
// of the kernel is unchanged, so each launch's cycles grow by exactly L. 250000 is longer than the
// watchdog's 100000 cycles without progress: the wait is not a stall.
TEST(GpgpuSimOptions, KernelLaunchLatencyAddsItsCyclesToEveryLaunch)
{
    uint64_t base = 0, base_load = 0;
    for (long lat : {0L, 777L, 250000L}) {
        Sim s({"-gpgpu_kernel_launch_latency", std::to_string(lat)});
        gtlm_devptr in = s.alloc(256, 7);
        unsigned twice = 1;
        for (int launch = 1; launch <= 2; launch++) {
            ASSERT_EQ(s.launch("loads", 1, 1, {&in, &twice}, {8, 4}), GTLM_OK) << gtlm_last_error();
            uint64_t cycles = static_cast<uint64_t>(s.stat("gpu_sim_cycle"));
            uint64_t load = static_cast<uint64_t>(s.stat("gpu.sm[0].load_latency_sum"));
            if (lat == 0 && launch == 1) {
                base = cycles;
                base_load = load;
            }
            // The second launch finds the line in L1 and L2 (warm caches), so only the first is
            // compared with the base run; both include the wait.
            if (launch == 1) {
                EXPECT_EQ(cycles, base + static_cast<uint64_t>(lat)) << "latency " << lat;
                EXPECT_EQ(load, base_load) << "latency " << lat;
            } else {
                EXPECT_GE(cycles, static_cast<uint64_t>(lat));
            }
        }
        EXPECT_GE(static_cast<uint64_t>(total(s, "gpu_tot_sim_cycle")), 2 * static_cast<uint64_t>(lat) + base);
    }
}

} // namespace
