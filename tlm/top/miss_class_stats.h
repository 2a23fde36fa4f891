// Statistics of a cache's miss classification (model/cache/cache_miss_class.h), registered only
// when -gtlm_dl1_miss_classes / -gtlm_dl2_miss_classes turned it on.
#ifndef GTLM_TLM_MISS_CLASS_STATS_H
#define GTLM_TLM_MISS_CLASS_STATS_H

#include <string>

extern "C" {
#include "cache/cache_miss_class.h"
#include "stats/stats.h"
}

namespace gtlm {

// <prefix>misses_cold, _capacity, _conflict, _invalidated of one cache. 0 or -1.
int register_miss_class_stats(stat_registry *r, const std::string &prefix, cache_miss_class *m);
// The same four summed over the caches matching per_cache (e.g. "gpu.sm[*].l1d.") under total
// (e.g. "gpu.l1d."), plus total's misses_capacity_conflict_share: (capacity + conflict) / the four.
// total must outlive the registry (a string literal).
int register_miss_class_totals(stat_registry *r, const char *total, const char *per_cache);

} // namespace gtlm

#endif
