// Calls from inside the memory callback: changing calls get GTLM_EBUSY and leave the simulator
// working; read-only calls work. The callback sees the same accesses in timing as in functional
// mode.
#include <algorithm>
#include <tuple>

#include "misuse_fixture.h"

namespace {

using misuse::load;
using misuse::make_sim;
using misuse::run_scale;

struct Reentry {
    gtlm_sim *sim = nullptr;
    gtlm_sim *other = nullptr;
    gtlm_module *m = nullptr, *other_m = nullptr;
    int calls = 0;
    std::vector<int> codes;
    std::string described;
};

void reenter(const gtlm_mem_event *e, void *payload)
{
    auto *r = static_cast<Reentry *>(payload);
    if (r->calls++) return;
    gtlm_sim_destroy(r->sim); // refused: the simulator stays alive
    r->codes.push_back(std::string(gtlm_last_error()).find("gtlm_sim_destroy") != std::string::npos ? GTLM_EBUSY : 0);
    const unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    r->codes.push_back(gtlm_launch(r->sim, r->m, "spin", g, b, 0, nullptr, nullptr, 0));
    gtlm_devptr p = 0;
    r->codes.push_back(gtlm_malloc(r->sim, 64, &p));
    r->codes.push_back(gtlm_free(r->sim, 0));
    r->codes.push_back(gtlm_set_mem_callback(r->sim, nullptr, nullptr));
    r->codes.push_back(gtlm_synchronize(r->sim));
    gtlm_module *m2 = nullptr;
    r->codes.push_back(gtlm_module_load_ptx(r->sim, misuse::ptx(), "again", &m2));
    r->codes.push_back(gtlm_run_trace(r->sim, "/nonexistent", nullptr, 0));
    // Another simulator cannot run or be destroyed from inside this one's run either.
    if (r->other) {
        r->codes.push_back(gtlm_launch(r->other, r->other_m, "spin", g, b, 0, nullptr, nullptr, 0));
        gtlm_sim_destroy(r->other);
        r->codes.push_back(std::string(gtlm_last_error()).find("inside a running simulation") != std::string::npos
                               ? GTLM_EBUSY
                               : 0);
    }
    // Read-only calls are fine.
    char buf[128];
    if (gtlm_module_describe_instr(r->sim, e->module, e->function, e->pc, buf, sizeof buf) == GTLM_OK) r->described = buf;
    double v = 0;
    r->codes.push_back(gtlm_stat_get(r->sim, "gpu.cycles", &v) == GTLM_OK ? GTLM_EBUSY : 0);
}

void expect_reentry_refused(const char *mode)
{
    gtlm_sim *sim = make_sim({"-gtlm_mode", mode});
    gtlm_sim *other = make_sim({"-gtlm_mode", mode});
    Reentry r;
    r.sim = sim;
    r.m = load(sim);
    r.other = std::string(mode) == "timing" ? other : nullptr;
    r.other_m = load(other);
    ASSERT_EQ(gtlm_set_mem_callback(sim, reenter, &r), GTLM_OK);
    std::vector<uint32_t> got;
    ASSERT_EQ(run_scale(sim, r.m, 256, &got), GTLM_OK) << gtlm_last_error();
    EXPECT_GT(r.calls, 0);
    for (size_t i = 0; i < r.codes.size(); i++) EXPECT_EQ(r.codes[i], GTLM_EBUSY) << "call " << i << " in " << mode;
    EXPECT_EQ(r.described, "misuse.ptx:10 (pc 0: ld.param.u64)");
    for (unsigned i = 0; i < 256; i++) ASSERT_EQ(got[i], 2 * (i * 7 + 3) + i);
    ASSERT_EQ(gtlm_set_mem_callback(sim, nullptr, nullptr), GTLM_OK);
    EXPECT_EQ(run_scale(sim, r.m, 256), GTLM_OK) << "the simulator still works";
    gtlm_sim_destroy(other);
    gtlm_sim_destroy(sim);
}

TEST(MisuseCallback, ChangingCallsFromTheCallbackAreBusyInTimingMode) { expect_reentry_refused("timing"); }
TEST(MisuseCallback, ChangingCallsFromTheCallbackAreBusyInFunctionalMode) { expect_reentry_refused("functional"); }

using Event = std::tuple<std::string, unsigned, int, int, unsigned, unsigned, unsigned, std::vector<uint64_t>>;

void record(const gtlm_mem_event *e, void *payload)
{
    std::vector<uint64_t> addr;
    for (int l = 0; l < 32; l++)
        if (e->mask >> l & 1) addr.push_back(e->addr[l]);
    static_cast<std::vector<Event> *>(payload)->emplace_back(e->function, e->pc, e->space, e->is_store, e->bytes,
                                                             e->cta[0], e->warp, addr);
}

std::vector<Event> events_in(const char *mode)
{
    gtlm_sim *sim = make_sim({"-gtlm_mode", mode});
    gtlm_module *m = load(sim);
    std::vector<Event> ev;
    EXPECT_EQ(gtlm_set_mem_callback(sim, record, &ev), GTLM_OK);
    EXPECT_EQ(run_scale(sim, m, 1000), GTLM_OK) << gtlm_last_error();
    gtlm_sim_destroy(sim);
    std::sort(ev.begin(), ev.end());
    return ev;
}

TEST(MisuseCallback, TimingModeReportsTheSameAccessesAsFunctionalMode)
{
    std::vector<Event> timing = events_in("timing"), functional = events_in("functional");
    // 8 CTAs of 4 warps: 3 parameter loads each, and a load and a store for the 1000 live threads' 32 warps.
    EXPECT_EQ(functional.size(), 8u * 4 * 3 + 32 * 2);
    EXPECT_EQ(timing, functional);
}

} // namespace
