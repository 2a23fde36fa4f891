// A cache configuration from GPGPU-Sim's -gpgpu_cache text, for the cache-core unit tests (a test
// failure naming the parse error when the text is bad).
#ifndef GTLM_TEST_CACHE_CFG_FIXTURE_H
#define GTLM_TEST_CACHE_CFG_FIXTURE_H

#include <gtest/gtest.h>

extern "C" {
#include "../../model/config/gpgpusim_formats.h"
}

inline gsim_cache_cfg cfg_of(const char *text)
{
    gsim_cache_cfg c;
    char err[256];
    EXPECT_EQ(gsim_cache_cfg_parse(text, &c, err, sizeof err), 0) << err;
    return c;
}

#endif
