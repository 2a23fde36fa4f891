#include "top/miss_class_stats.h"

namespace gtlm {

namespace {

struct Leaf {
    const char *name;
    const char *desc;
};

const Leaf kLeaves[] = {
    {"misses_cold", "read misses on sectors never read through this cache before"},
    {"misses_invalidated", "read misses on sectors a write-evict or a flush removed (seen before)"},
    {"misses_capacity", "read misses a fully-associative LRU cache of the same size also has"},
    {"misses_conflict", "read misses the fully-associative LRU shadow would hit: the set mapping's"},
};

// (capacity + conflict) / all four: the thesis' "misses that are conflict or capacity" share.
double cc_share(const stat_registry *r, stat_scope scope, const void *ctx)
{
    const std::string t = static_cast<const char *>(ctx);
    double v[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) stat_get(r, (t + kLeaves[i].name).c_str(), scope, &v[i]);
    double all = v[0] + v[1] + v[2] + v[3];
    return all > 0 ? (v[2] + v[3]) / all : 0.0;
}

} // namespace

int register_miss_class_stats(stat_registry *r, const std::string &prefix, cache_miss_class *m)
{
    uint64_t *src[] = {&m->cold, &m->invalidated, &m->capacity, &m->conflict};
    for (int i = 0; i < 4; i++)
        if (stat_add_counter(r, (prefix + kLeaves[i].name).c_str(), src[i], "accesses", kLeaves[i].desc, nullptr) < 0)
            return -1;
    return 0;
}

int register_miss_class_totals(stat_registry *r, const char *total, const char *per_cache)
{
    const std::string t = total, p = per_cache;
    for (const Leaf &l : kLeaves)
        if (stat_add_sum(r, (t + l.name).c_str(), (p + l.name).c_str(), "accesses", l.desc, nullptr) < 0) return -1;
    return stat_add_derived(r, (t + "misses_capacity_conflict_share").c_str(), cc_share, total, "ratio",
                            "capacity + conflict read misses over the classified read misses", nullptr) < 0
               ? -1
               : 0;
}

} // namespace gtlm
