// Small helpers the API tests share: a simulator from one configuration file of configs/ plus
// command-line style overrides, and one statistic read with a failure that names it.
#ifndef GTLM_TEST_SIM_HELPERS_H
#define GTLM_TEST_SIM_HELPERS_H

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gtlm/gtlm.h"

// configs/<name> of the source tree with the overrides applied; nullptr (and a test failure) on error.
inline gtlm_sim *sim_from_config(const char *name, const std::vector<const char *> &overrides)
{
    const std::string cfg = std::string(GTLM_SOURCE_DIR) + "/configs/" + name;
    const char *files[] = {cfg.c_str()};
    gtlm_sim_options o;
    EXPECT_EQ(gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION), GTLM_OK);
    o.config_files = files;
    o.n_config_files = 1;
    o.overrides = overrides.data();
    o.n_overrides = overrides.size();
    gtlm_sim *sim = nullptr;
    EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_OK) << gtlm_last_error();
    return sim;
}

inline double stat(gtlm_sim *sim, const std::string &name)
{
    double v = -1;
    EXPECT_EQ(gtlm_stat_get(sim, name.c_str(), &v), GTLM_OK) << name << ": " << gtlm_last_error();
    return v;
}

#endif
