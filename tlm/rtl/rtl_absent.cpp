// The RTL seam in a build without Verilator: every -rtl_* option set is a located error.
#include "rtl/rtl_blocks.h"

extern "C" {
#include "config/opt_check.h"
}

namespace gtlm {

int rtl_config_check(const opt_registry *r, const gtlm_config *cfg, strbuf *err)
{
    if (rtl_record_config_check(r, cfg, err) != 0) return -1;
    const char *why = "this gtlm was built without Verilator: install verilator and re-run cmake (GTLM_RTL=ON)";
    int bad = opt_check(r, err, "-rtl_sched", !cfg->sm.rtl_sched, "%s", why);
    bad |= opt_check(r, err, "-rtl_bloom", !cfg->morpheus.rtl_bloom, "%s", why);
    bad |= opt_check(r, err, "-rtl_power", !cfg->power.rtl_power, "%s", why);
    return bad ? -1 : 0;
}

int rtl_sched_attach(sched *, const std::string &, const char *, std::string &err)
{
    err = "this gtlm was built without Verilator";
    return -1;
}

int rtl_bloom_attach(bloom_pred *, const std::string &, const char *, std::string &err)
{
    err = "this gtlm was built without Verilator";
    return -1;
}

int rtl_power_attach(pm_domain *, const std::string &, const char *, std::string &err)
{
    err = "this gtlm was built without Verilator";
    return -1;
}

} // namespace gtlm
