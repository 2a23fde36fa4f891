// Simulator lifetime, options and version.
#include <cstring>

#include "api_guard.h"

using gtlm_api::guard;
using gtlm_api::set_error;

// The public status codes mirror model/common/status.h.
static_assert(int(GTLM_OK) == int(GTLM_ST_OK), "GTLM_OK");
static_assert(int(GTLM_EINVAL) == int(GTLM_ST_EINVAL), "GTLM_EINVAL");
static_assert(int(GTLM_ENOTFOUND) == int(GTLM_ST_ENOTFOUND), "GTLM_ENOTFOUND");
static_assert(int(GTLM_ECONFIG) == int(GTLM_ST_ECONFIG), "GTLM_ECONFIG");
static_assert(int(GTLM_EIO) == int(GTLM_ST_EIO), "GTLM_EIO");
static_assert(int(GTLM_ENOMEM) == int(GTLM_ST_ENOMEM), "GTLM_ENOMEM");
static_assert(int(GTLM_ESIM) == int(GTLM_ST_ESIM), "GTLM_ESIM");
static_assert(int(GTLM_EINTERNAL) == int(GTLM_ST_EINTERNAL), "GTLM_EINTERNAL");
static_assert(int(GTLM_EVERSION) == int(GTLM_ST_EVERSION), "GTLM_EVERSION");
static_assert(int(GTLM_EUNSUPPORTED) == int(GTLM_ST_EUNSUPPORTED), "GTLM_EUNSUPPORTED");
static_assert(int(GTLM_EBUSY) == int(GTLM_ST_EBUSY), "GTLM_EBUSY");


extern "C" int gtlm_version(int *major, int *minor, int *patch)
{
    if (major) *major = GTLM_VERSION_MAJOR;
    if (minor) *minor = GTLM_VERSION_MINOR;
    if (patch) *patch = GTLM_VERSION_PATCH;
    return GTLM_VERSION_NUMBER;
}

extern "C" const char *gtlm_version_string(void)
{
    // Built once; SystemC's release string is a constant.
    static const std::string s = [] {
        std::string v = std::to_string(GTLM_VERSION_MAJOR) + "." + std::to_string(GTLM_VERSION_MINOR) + "." +
                        std::to_string(GTLM_VERSION_PATCH);
        return "gtlm " + v + " (SystemC " + sc_core::sc_release() + ")";
    }();
    return s.c_str();
}

extern "C" int gtlm_sim_options_init(gtlm_sim_options *opts, unsigned int version)
{
    return guard([&] {
        if (!opts) return set_error(GTLM_EINVAL, "gtlm_sim_options_init: opts is NULL");
        if (version != GTLM_SIM_OPTIONS_VERSION)
            return set_error(GTLM_EVERSION, "gtlm_sim_options_init: unknown options version " +
                                                std::to_string(version) + " (this library knows version 1)");
        std::memset(opts, 0, sizeof *opts);
        opts->version = version;
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_sim_create(gtlm_sim **out, const gtlm_sim_options *opts)
{
    return guard([&] {
        if (!out) return set_error(GTLM_EINVAL, "gtlm_sim_create: out is NULL");
        *out = nullptr;
        gtlm::SimSetup setup;
        if (opts) {
            if (opts->version != GTLM_SIM_OPTIONS_VERSION)
                return set_error(GTLM_EVERSION, "gtlm_sim_create: options version " + std::to_string(opts->version) +
                                                    " is not 1; call gtlm_sim_options_init first");
            if (opts->n_config_files && !opts->config_files)
                return set_error(GTLM_EINVAL, "gtlm_sim_create: n_config_files > 0 but config_files is NULL");
            if (opts->n_overrides && !opts->overrides)
                return set_error(GTLM_EINVAL, "gtlm_sim_create: n_overrides > 0 but overrides is NULL");
            for (size_t i = 0; i < opts->n_config_files; i++) {
                if (!opts->config_files[i])
                    return set_error(GTLM_EINVAL, "gtlm_sim_create: config_files[" + std::to_string(i) + "] is NULL");
                setup.config_files.emplace_back(opts->config_files[i]);
            }
            for (size_t i = 0; i < opts->n_overrides; i++) {
                if (!opts->overrides[i])
                    return set_error(GTLM_EINVAL, "gtlm_sim_create: overrides[" + std::to_string(i) + "] is NULL");
                setup.overrides.emplace_back(opts->overrides[i]);
            }
            setup.gpgpusim_compat = opts->gpgpusim_compat != 0;
        }
        *out = new gtlm_sim(setup);
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" void gtlm_sim_destroy(gtlm_sim *sim)
{
    guard([&] {
        if (!sim) return static_cast<int>(GTLM_OK);
        if (gtlm::ScContext::running())
            return set_error(GTLM_EBUSY, "gtlm_sim_destroy: called from inside a running simulation (a callback): "
                                         "the simulator was not destroyed");
        { gtlm_api::Busy busy(sim, "gtlm_sim_destroy"); } // throws when in use; nobody may start after this
        delete sim;
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" const char *gtlm_sim_warnings(const gtlm_sim *sim)
{
    if (!sim) {
        set_error(GTLM_EINVAL, "gtlm_sim_warnings: sim is NULL");
        return "";
    }
    return sim->sim.warnings().c_str();
}

extern "C" const char *gtlm_sim_describe(const gtlm_sim *sim)
{
    if (!sim) {
        set_error(GTLM_EINVAL, "gtlm_sim_describe: sim is NULL");
        return "";
    }
    return sim->summary.c_str();
}

static int option_info(const gtlm_sim *sim, size_t index, gtlm_option_info *out);
static int option_value(const gtlm_sim *sim, const char *name, char *buf, size_t len);

/* "int in [1, 4096]", "double in [...]", "bool", ..., or the custom type's name. */
static const char *type_name(const opt_entry *e) { return e->type_text; }

extern "C" int gtlm_option_count(const gtlm_sim *sim, size_t *out)
{
    return guard([&] {
        if (!sim) return set_error(GTLM_EINVAL, "gtlm_option_count: sim is NULL");
        if (!out) return set_error(GTLM_EINVAL, "gtlm_option_count: out is NULL");
        *out = sim->sim.options().n;
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_option_info_get(const gtlm_sim *sim, size_t index, gtlm_option_info *out)
{
    return guard([&] { return option_info(sim, index, out); });
}

static int option_info(const gtlm_sim *sim, size_t index, gtlm_option_info *out)
{
    if (!sim) return set_error(GTLM_EINVAL, "gtlm_option_info_get: sim is NULL");
    if (!out) return set_error(GTLM_EINVAL, "gtlm_option_info_get: out is NULL");
    const opt_registry &r = sim->sim.options();
    if (index >= r.n)
        return set_error(GTLM_ENOTFOUND, "gtlm_option_info_get: index " + std::to_string(index) + " >= " +
                                             std::to_string(r.n) + " options");
    const opt_entry &e = r.v[index];
    out->name = e.name;
    out->block = e.block;
    out->type = type_name(&e);
    out->description = e.desc;
    out->default_value = e.def;
    out->source = e.source;
    return GTLM_OK;
}

extern "C" int gtlm_option_value(const gtlm_sim *sim, const char *name, char *buf, size_t len)
{
    return guard([&] { return option_value(sim, name, buf, len); });
}

static int option_value(const gtlm_sim *sim, const char *name, char *buf, size_t len)
{
    if (!sim) return set_error(GTLM_EINVAL, "gtlm_option_value: sim is NULL");
    if (!name) return set_error(GTLM_EINVAL, "gtlm_option_value: name is NULL");
    if (!buf || len == 0) return set_error(GTLM_EINVAL, "gtlm_option_value: buf is NULL or len is 0");
    const opt_entry *e = opt_find(&sim->sim.options(), name);
    if (!e) return set_error(GTLM_ENOTFOUND, std::string("gtlm_option_value: unknown option '") + name + "'");
    opt_format(e, buf, len);
    return GTLM_OK;
}
