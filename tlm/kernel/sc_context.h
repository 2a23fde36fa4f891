// Each simulator owns its own SystemC simulation context, so that several simulators can live
// in one process one after another or side by side (SystemC itself keeps one global context).
#ifndef GTLM_TLM_SC_CONTEXT_H
#define GTLM_TLM_SC_CONTEXT_H

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
        sc_core::sc_simcontext *prev_;
    };

    sc_core::sc_simcontext *get() { return ctx_; }

private:
    sc_core::sc_simcontext *ctx_;
};

// Routes SystemC reports: errors and fatals become exceptions (caught at the C API),
// warnings and infos go to gtlm's log. Installed once per process.
void install_report_handler();

} // namespace gtlm

#endif
