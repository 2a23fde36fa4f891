// Statistics: look-ups and dumps.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "api_guard.h"

using gtlm_api::set_error;

static int stat_lookup(const gtlm_sim *sim, const char *name, double *out, stat_scope scope, const char *fn)
{
    if (!sim) return set_error(GTLM_EINVAL, std::string(fn) + ": sim is NULL");
    if (!name) return set_error(GTLM_EINVAL, std::string(fn) + ": name is NULL");
    if (!out) return set_error(GTLM_EINVAL, std::string(fn) + ": out is NULL");
    if (stat_get(sim->sim.stats(), name, scope, out) != 0)
        return set_error(GTLM_ENOTFOUND, std::string(fn) + ": no statistic named '" + name + "'");
    return GTLM_OK;
}

extern "C" int gtlm_stat_get(const gtlm_sim *sim, const char *name, double *out)
{
    return gtlm_api::guard([&] { return stat_lookup(sim, name, out, STAT_SCOPE_RUN, "gtlm_stat_get"); });
}

extern "C" int gtlm_stat_get_kernel(const gtlm_sim *sim, const char *name, double *out)
{
    return gtlm_api::guard([&] { return stat_lookup(sim, name, out, STAT_SCOPE_KERNEL, "gtlm_stat_get_kernel"); });
}

static int write_one(const gtlm_sim *sim, const std::string &path, bool json)
{
    bool to_stdout = path == "-";
    FILE *f = to_stdout ? stdout : std::fopen(path.c_str(), "w");
    if (!f) return set_error(GTLM_EIO, "gtlm_stats_write: cannot open '" + path + "': " + std::strerror(errno));
    int rc = json ? stat_dump_json(sim->sim.stats(), f) : stat_dump_text(sim->sim.stats(), f, STAT_SCOPE_RUN);
    bool failed = rc != 0 || std::ferror(f);
    if (to_stdout ? std::fflush(f) != 0 : std::fclose(f) != 0) failed = true;
    if (failed) return set_error(GTLM_EIO, "gtlm_stats_write: error writing '" + path + "'");
    return GTLM_OK;
}

extern "C" int gtlm_stats_write(const gtlm_sim *sim, const char *path, unsigned int flags)
{
    return gtlm_api::guard([&] {
        if (!sim) return set_error(GTLM_EINVAL, "gtlm_stats_write: sim is NULL");
        if (!path) return set_error(GTLM_EINVAL, "gtlm_stats_write: path is NULL");
        if (flags == 0 || (flags & ~(GTLM_STATS_TEXT | GTLM_STATS_JSON)))
            return set_error(GTLM_EINVAL, "gtlm_stats_write: flags must be GTLM_STATS_TEXT, GTLM_STATS_JSON or both");
        std::string p(path);
        if (flags == GTLM_STATS_JSON) return write_one(sim, p, true);
        int rc = write_one(sim, p, false);
        if (rc == GTLM_OK && (flags & GTLM_STATS_JSON)) rc = write_one(sim, p == "-" ? p : p + ".json", true);
        return rc;
    });
}

extern "C" size_t gtlm_load_pc_count(const gtlm_sim *sim)
{
    size_t n = 0;
    gtlm_api::guard([&] {
        if (sim) n = sim->sim.load_pcs().size();
        return static_cast<int>(GTLM_OK);
    });
    return n;
}

extern "C" int gtlm_load_pc_get(const gtlm_sim *sim, size_t index, gtlm_load_pc_stat *out)
{
    return gtlm_api::guard([&] {
        if (!sim) return set_error(GTLM_EINVAL, "gtlm_load_pc_get: sim is NULL");
        if (!out) return set_error(GTLM_EINVAL, "gtlm_load_pc_get: out is NULL");
        const auto &v = sim->sim.load_pcs();
        if (index >= v.size())
            return set_error(GTLM_ENOTFOUND, "gtlm_load_pc_get: index " + std::to_string(index) + " of " +
                                                 std::to_string(v.size()) + " records");
        const gtlm::LoadPcRecord &r = v[index];
        out->kernel = r.kernel.c_str();
        out->function = r.function.c_str();
        out->pc = r.pc;
        out->line = r.line;
        out->accesses = r.accesses;
        out->hits = r.hits;
        out->misses = r.misses;
        out->merged = r.merged;
        return static_cast<int>(GTLM_OK);
    });
}
