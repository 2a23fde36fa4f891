// Every C entry point runs its body through guard(): exceptions and SystemC reports become
// status codes with a message in the per-thread last error.
#ifndef GTLM_API_GUARD_H
#define GTLM_API_GUARD_H

#include <atomic>
#include <new>
#include <string>
#include <systemc>

#include "gtlm/gtlm.h"
#include "top/simulator.h"

namespace gtlm_api {

int set_error(int status, const std::string &msg);
void clear_error();
const char *get_error();

template <class F> int guard(F &&body)
{
    try {
        clear_error();
        return body();
    } catch (const gtlm::Error &e) {
        return set_error(e.status(), e.what());
    } catch (const sc_core::sc_report &r) {
        return set_error(GTLM_EINTERNAL, std::string("SystemC: ") + r.get_msg_type() + ": " + r.get_msg());
    } catch (const std::bad_alloc &) {
        return set_error(GTLM_ENOMEM, "out of memory");
    } catch (const std::exception &e) {
        return set_error(GTLM_EINTERNAL, std::string("internal error: ") + e.what());
    } catch (...) {
        return set_error(GTLM_EINTERNAL, "internal error: unknown exception");
    }
}

} // namespace gtlm_api

struct gtlm_sim;

namespace gtlm_api {

// Holds a simulator for a call that changes it. A second such call while one runs (from the
// simulator's own memory callback, or from another thread) throws Error(EBUSY) instead of
// corrupting the first; read-only calls do not take it and stay valid inside callbacks.
class Busy {
public:
    Busy(gtlm_sim *sim, const char *fn);
    ~Busy();
    Busy(const Busy &) = delete;
    Busy &operator=(const Busy &) = delete;

private:
    gtlm_sim *sim_;
};

} // namespace gtlm_api

// The opaque handle is the simulator itself (LLVM-C style wrap/unwrap).
struct gtlm_sim {
    explicit gtlm_sim(const gtlm::SimSetup &s) : sim(s), summary(sim.summary()) {}
    gtlm::Simulator sim;
    std::string summary;
    int pending = GTLM_OK; // first failure of a launch since the last gtlm_synchronize
    std::string pending_msg;
    std::atomic<bool> busy{false}; // a changing call is running (gtlm_api::Busy)
};

inline gtlm_api::Busy::Busy(gtlm_sim *sim, const char *fn) : sim_(sim)
{
    bool idle = false;
    if (!sim->busy.compare_exchange_strong(idle, true))
        throw gtlm::Error(GTLM_ST_EBUSY, std::string(fn) + ": the simulator is busy (a call from inside its own "
                                                           "callback, or from a second thread while a call runs)");
}

inline gtlm_api::Busy::~Busy() { sim_->busy.store(false); }

#endif
