#include "sc_context.h"

#include <cstdio>
#include <mutex>
#include <stdexcept>

#include "kernel/error.h"

extern "C" {
#include "common/status.h"
}

namespace gtlm {

namespace {

std::recursive_mutex &systemc_lock()
{
    static std::recursive_mutex m;
    return m;
}

thread_local sc_core::sc_simcontext *running_ctx = nullptr; // the context this thread runs, if any

void refuse_while_running(const char *what)
{
    if (running_ctx)
        throw Error(GTLM_ST_EBUSY, std::string(what) + " from inside a running simulation (a callback): not allowed");
}

} // namespace

bool ScContext::running() { return running_ctx != nullptr; }

ScContext::Run::Run(ScContext &c) : prev_(running_ctx) { running_ctx = c.ctx_; }

ScContext::Run::~Run() { running_ctx = prev_; }

ScContext::ScContext()
{
    refuse_while_running("creating a simulator");
    std::lock_guard<std::recursive_mutex> lock(systemc_lock());
    install_report_handler();
    sc_core::sc_simcontext *prev = sc_core::sc_curr_simcontext;
    ctx_ = new sc_core::sc_simcontext();
    sc_core::sc_curr_simcontext = ctx_;
    sc_core::sc_default_global_context = ctx_;
    // Femtoseconds keep the ratios of clocks such as 700 and 924 MHz exact enough.
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
    sc_core::sc_curr_simcontext = prev;
    sc_core::sc_default_global_context = prev;
}

ScContext::~ScContext()
{
    std::lock_guard<std::recursive_mutex> lock(systemc_lock());
    sc_core::sc_simcontext *prev = sc_core::sc_curr_simcontext;
    sc_core::sc_curr_simcontext = ctx_;
    sc_core::sc_default_global_context = ctx_;
    delete ctx_;
    // Never leave SystemC pointing at the deleted context.
    sc_core::sc_curr_simcontext = prev == ctx_ ? nullptr : prev;
    sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
}

ScContext::Use::Use(ScContext &c) : lock_(systemc_lock()), prev_(sc_core::sc_curr_simcontext)
{
    if (running_ctx && running_ctx != c.ctx_)
        throw Error(GTLM_ST_EBUSY, "using a simulator from inside another simulator's running simulation (a "
                                   "callback): not allowed");
    sc_core::sc_curr_simcontext = c.ctx_;
    sc_core::sc_default_global_context = c.ctx_;
}

ScContext::Use::~Use()
{
    sc_core::sc_curr_simcontext = prev_;
    sc_core::sc_default_global_context = prev_;
}

static void report_handler(const sc_core::sc_report &rep, const sc_core::sc_actions &actions)
{
    (void)actions;
    switch (rep.get_severity()) {
    case sc_core::SC_INFO:
        break;
    case sc_core::SC_WARNING:
        std::fprintf(stderr, "[warn] systemc: %s: %s\n", rep.get_msg_type(), rep.get_msg());
        break;
    default:
        // SC_ERROR and SC_FATAL: never abort the host program; the C API turns this into a status.
        throw rep;
    }
}

void install_report_handler()
{
    static std::once_flag once;
    std::call_once(once, [] { sc_core::sc_report_handler::set_handler(report_handler); });
}

} // namespace gtlm
