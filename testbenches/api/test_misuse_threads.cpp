// Simulators on several threads: SystemC work is serialised by a process-wide lock, so each
// simulator gives the statistics it gives alone; one handle used from a second thread while a
// call runs gives GTLM_EBUSY. (Also built with ThreadSanitizer: testbenches/tsan.)
#include <condition_variable>
#include <mutex>
#include <thread>

#include "misuse_fixture.h"

namespace {

using misuse::load;
using misuse::make_sim;
using misuse::run_scale;
using misuse::stats_of;

// A whole simulator lifetime: create, three kernels, statistics, destroy.
std::string lifetime(const char *mode)
{
    gtlm_sim *sim = make_sim({"-gtlm_mode", mode});
    if (!sim) return "no simulator";
    gtlm_module *m = load(sim);
    for (unsigned n : {100u, 700u, 1500u}) {
        std::vector<uint32_t> got;
        if (run_scale(sim, m, n, &got) != GTLM_OK) return gtlm_last_error();
        for (unsigned i = 0; i < n; i++)
            if (got[i] != 2 * (i * 7 + 3) + i) return "wrong result";
    }
    std::string s = stats_of(sim);
    gtlm_sim_destroy(sim);
    return s;
}

TEST(MisuseThreads, SimulatorsOnFourThreadsMatchTheSingleThreadedRun)
{
    const std::string timing = lifetime("timing"), functional = lifetime("functional");
    ASSERT_NE(timing.find("gpu_tot_sim_cycle"), std::string::npos) << timing;
    std::vector<std::string> got(4);
    std::vector<std::thread> threads;
    for (int round = 0; round < 2; round++) {
        threads.clear();
        for (size_t t = 0; t < got.size(); t++)
            threads.emplace_back([&got, t] { got[t] = lifetime(t % 2 ? "functional" : "timing"); });
        for (std::thread &t : threads) t.join();
        for (size_t t = 0; t < got.size(); t++) EXPECT_EQ(got[t], t % 2 ? functional : timing) << "thread " << t;
    }
}

// Thread A's launch stops in its callback until thread B has used the same handle.
struct Handshake {
    std::mutex mu;
    std::condition_variable cv;
    bool in_callback = false, b_done = false;
    gtlm_sim *sim = nullptr;
};

void wait_for_b(const gtlm_mem_event *, void *payload)
{
    auto *h = static_cast<Handshake *>(payload);
    std::unique_lock<std::mutex> lock(h->mu);
    if (h->in_callback) return;
    h->in_callback = true;
    h->cv.notify_all();
    h->cv.wait(lock, [h] { return h->b_done; });
}

TEST(MisuseThreads, OneHandleFromASecondThreadWhileACallRunsIsBusy)
{
    for (const char *mode : {"timing", "functional"}) {
        Handshake h;
        h.sim = make_sim({"-gtlm_mode", mode});
        gtlm_module *m = load(h.sim);
        ASSERT_EQ(gtlm_set_mem_callback(h.sim, wait_for_b, &h), GTLM_OK);
        int b_rc = 0;
        std::string b_msg;
        std::thread b([&] {
            std::unique_lock<std::mutex> lock(h.mu);
            h.cv.wait(lock, [&] { return h.in_callback; });
            gtlm_devptr p = 0;
            b_rc = gtlm_malloc(h.sim, 64, &p);
            b_msg = gtlm_last_error();
            h.b_done = true;
            h.cv.notify_all();
        });
        EXPECT_EQ(run_scale(h.sim, m, 64), GTLM_OK) << gtlm_last_error();
        b.join();
        EXPECT_EQ(b_rc, GTLM_EBUSY) << mode;
        EXPECT_NE(b_msg.find("busy"), std::string::npos) << b_msg;
        gtlm_sim_destroy(h.sim);
    }
}

} // namespace
