// RTL blocks in the model: the seam between the SystemC shells and the Verilated modules.
//
// rtl_config_check and rtl_sched_attach come from one of two files, chosen by the build (rtl/CMakeLists.txt):
// sched_transactor.cpp when Verilator is found (GTLM_RTL=ON), rtl_absent.cpp otherwise; neither
// is part of tlm's own glob, so nothing else in tlm/ needs Verilator's headers.
#ifndef GTLM_TLM_RTL_BLOCKS_H
#define GTLM_TLM_RTL_BLOCKS_H

#include <string>

extern "C" {
#include "common/strbuf.h"
#include "config/opt.h"
#include "gpu/gpu_config.h"
#include "llc/bloom_pred.h"
#include "power/power_mode.h"
#include "sm/sched.h"
}

namespace gtlm {

// Checks the -rtl_* options against what this build holds (located errors into err, as
// gtlm_config_check does). Returns 0 or -1.
int rtl_config_check(const opt_registry *r, const gtlm_config *cfg, strbuf *err);

// Replaces the selection of an initialised LRR or GTO scheduler by the Verilated warp arbiter
// (rtl/sched/warp_arbiter.sv) behind a transactor; sched_free() releases it. Returns 0, or -1
// with the reason in err.
// With a model VCD (vcd_file), its signals go to the RTL VCD under `name` (rtl_trace.h).
int rtl_sched_attach(sched *s, const std::string &name, const char *vcd_file, std::string &err);

// Moves an initialised Morpheus predictor's filters into the Verilated rtl/llc/bloom_pred.sv
// (bloom_ext); bloom_free() releases it. Nothing to do outside bloom mode. With a model VCD
// (vcd_file), its pins go to the RTL VCD under `name` (rtl_trace.h). Returns 0 or -1.
int rtl_bloom_attach(bloom_pred *p, const std::string &name, const char *vcd_file, std::string &err);
// -rtl_bloom against the Verilated instance's size; rtl_config_check calls it.
int rtl_bloom_check(const opt_registry *r, const gtlm_config *cfg, strbuf *err);

// Hands an initialised Snooze cache domain's decisions to the Verilated rtl/power/snooze_ctrl.sv
// (pm_ext); pm_domain_free() releases it. Nothing to do for other policies. With a model VCD
// (vcd_file, -vcd_file), the RTL's signals go to its RTL VCD under `name` (rtl_trace.h). 0 or -1.
int rtl_power_attach(pm_domain *d, const std::string &name, const char *vcd_file, std::string &err);
// -rtl_power against the policy; rtl_config_check calls it.
int rtl_power_check(const opt_registry *r, const gtlm_config *cfg, strbuf *err);

// Records a Snooze domain's ops and answers into the file at path (power_recorder.cpp, built with or
// without Verilator): wraps d->ext (the RTL) or, without one, a shadow C core. 0 or -1.
int rtl_power_record(pm_domain *d, const char *path, std::string &err);
// Records a Bloom predictor's queries, updates and pending inserts (bloom_recorder.cpp): wraps
// p->ext (the RTL) or a shadow C predictor with the same masks. 0 or -1.
int rtl_bloom_record(bloom_pred *p, const char *path, std::string &err);

// Records the scheduler's queries and events into the file at path (sched_recorder.cpp, built
// with or without Verilator): wraps the policy in place, after any rtl_sched_attach. 0 or -1.
int rtl_sched_record(sched *s, const char *path, std::string &err);
// The recording options' checks (a writable file, a recordable scheduler); rtl_config_check calls it.
int rtl_record_config_check(const opt_registry *r, const gtlm_config *cfg, strbuf *err);

} // namespace gtlm

#endif
