// Each simulator owns its own SystemC simulation context, so that several simulators can live
// in one process one after another or side by side (SystemC itself keeps one global context).
// SystemC's "current context" is a process global: every use of a context (creating, running,
// destroying) holds one process-wide lock, so simulators on different threads take turns
// instead of switching the global under each other.
#ifndef GTLM_TLM_SC_CONTEXT_H
#define GTLM_TLM_SC_CONTEXT_H

#include <mutex>

#include <systemc>

namespace gtlm {

class ScContext {
public:
    ScContext();
    ~ScContext();
    ScContext(const ScContext &) = delete;
    ScContext &operator=(const ScContext &) = delete;

    // Makes this context SystemC's current one for the guard's lifetime.
    class Use {
    public:
        explicit Use(ScContext &c);
        ~Use();
        Use(const Use &) = delete;
        Use &operator=(const Use &) = delete;

    private:
        std::unique_lock<std::recursive_mutex> lock_;
        sc_core::sc_simcontext *prev_;
    };

    // Marks this thread as inside sc_start of this context (a timing run): SystemC cannot run
    // or build another context in the middle of it, so Use of another context and creating or
    // destroying one throw Error(EBUSY) until the run ends (a callback calling another simulator).
    class Run {
    public:
        explicit Run(ScContext &c);
        ~Run();
        Run(const Run &) = delete;
        Run &operator=(const Run &) = delete;

    private:
        sc_core::sc_simcontext *prev_;
    };
    // True while this thread is inside a timing run of any simulator.
    static bool running();

    sc_core::sc_simcontext *get() { return ctx_; }

private:
    sc_core::sc_simcontext *ctx_;
};

// Routes SystemC reports: errors and fatals become exceptions (caught at the C API),
// warnings and infos go to gtlm's log. Installed once per process.
void install_report_handler();

} // namespace gtlm

#endif
