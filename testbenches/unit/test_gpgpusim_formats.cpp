// GPGPU-Sim's structured option values parsed into their fields, and their errors.
#include <gtest/gtest.h>

#include <cstring>

#include <string>

extern "C" {
#include "config/gpgpusim_formats.h"
}

namespace {

std::string cache_error(const char *text)
{
    gsim_cache_cfg c;
    char err[512] = "";
    EXPECT_NE(gsim_cache_cfg_parse(text, &c, err, sizeof err), 0) << text;
    return err;
}

TEST(CacheString, FermiL1AllFields)
{
    gsim_cache_cfg c;
    char err[256];
    ASSERT_EQ(gsim_cache_cfg_parse("N:64:128:6,L:L:m:N:H,A:128:8,8", &c, err, sizeof err), 0) << err;
    EXPECT_EQ(c.disabled, 0);
    EXPECT_EQ(c.type, 'N');
    EXPECT_EQ(c.nsets, 64);
    EXPECT_EQ(c.line_size, 128);
    EXPECT_EQ(c.assoc, 6);
    EXPECT_EQ(c.replacement, 'L');
    EXPECT_EQ(c.write_policy, 'L');
    EXPECT_EQ(c.alloc_policy, 'm');
    EXPECT_EQ(c.write_alloc, 'N');
    EXPECT_EQ(c.set_index, 'H');
    EXPECT_EQ(c.mshr_type, 'A');
    EXPECT_EQ(c.mshr_entries, 128);
    EXPECT_EQ(c.mshr_merge, 8);
    EXPECT_EQ(c.miss_queue, 8);
    EXPECT_EQ(c.result_fifo, 0);
    EXPECT_EQ(c.port_width, 128) << "the port defaults to one line per cycle";
    EXPECT_EQ(gsim_cache_cfg_bytes(&c), 64 * 128 * 6);
}

TEST(CacheString, VoltaSectoredWithFifoAndPort)
{
    gsim_cache_cfg c;
    char err[256];
    ASSERT_EQ(gsim_cache_cfg_parse("S:32:128:24,L:B:m:L:P,A:192:4,32:0,32", &c, err, sizeof err), 0) << err;
    EXPECT_EQ(c.type, 'S');
    EXPECT_EQ(c.write_policy, 'B');
    EXPECT_EQ(c.write_alloc, 'L');
    EXPECT_EQ(c.set_index, 'P');
    EXPECT_EQ(c.miss_queue, 32);
    EXPECT_EQ(c.port_width, 32);
    EXPECT_EQ(gsim_cache_cfg_bytes(&c), 96 * 1024);
}

TEST(CacheString, Gpgpusim3xStringWithoutTypeIsNormal)
{
    gsim_cache_cfg c;
    char err[256];
    ASSERT_EQ(gsim_cache_cfg_parse("32:128:4,L:L:m:N:H,A:32:8,8", &c, err, sizeof err), 0) << err;
    EXPECT_EQ(c.type, 'N');
    EXPECT_EQ(c.nsets, 32);
    EXPECT_EQ(c.assoc, 4);
    EXPECT_EQ(c.set_index, 'H');
}

TEST(CacheString, NoneDisables)
{
    gsim_cache_cfg c;
    char err[64];
    ASSERT_EQ(gsim_cache_cfg_parse("none", &c, err, sizeof err), 0);
    EXPECT_EQ(c.disabled, 1);
    EXPECT_EQ(gsim_cache_cfg_bytes(&c), 0);
}

TEST(CacheString, ErrorsSayWhatWasExpectedWhere)
{
    EXPECT_EQ(cache_error("Q:64:128:6,L:L:m:N:H,A:128:8,8"),
              "expected the line type N (normal) or S (sectored) at character 1 of 'Q:64:128:6,L:L:m:N:H,A:128:8,8'");
    EXPECT_EQ(cache_error("N:x:128:6,L:L:m:N:H,A:128:8,8"),
              "expected the number of sets at character 3 of 'N:x:128:6,L:L:m:N:H,A:128:8,8'");
    EXPECT_EQ(cache_error("N:64:128:6,Z:L:m:N:H,A:128:8,8"),
              "expected the replacement policy L (LRU) or F (FIFO) at character 12 of 'N:64:128:6,Z:L:m:N:H,A:128:8,8'");
    EXPECT_EQ(cache_error("N:64:128:6,L:L:m:N:H,A:128"),
              "expected ':' at character 27, but 'N:64:128:6,L:L:m:N:H,A:128' ends there");
    EXPECT_EQ(cache_error("N:64:128:6,L:L:m:N:H,A:128:8,8 junk"),
              "expected the end of the cache description at character 31 of 'N:64:128:6,L:L:m:N:H,A:128:8,8 junk'");
}

TEST(CacheString, InconsistentCombinationsAreRejected)
{
    EXPECT_EQ(cache_error("S:64:64:6,L:L:m:N:H,A:128:8,8"),
              "a sectored cache (S) needs 128-byte lines (4 x 32 B sectors) in 'S:64:64:6,L:L:m:N:H,A:128:8,8'");
    EXPECT_EQ(cache_error("N:64:96:6,L:L:m:N:H,A:128:8,8"),
              "the line size 96 must be a power of two in 'N:64:96:6,L:L:m:N:H,A:128:8,8'");
    EXPECT_EQ(cache_error("N:64:128:0,L:L:m:N:H,A:128:8,8"),
              "sets, line size and associativity must be positive in 'N:64:128:0,L:L:m:N:H,A:128:8,8'");
    EXPECT_NE(cache_error("N:64:128:8,L:B:f:N:L,A:32:4,4").find("allocate-on-fill cannot be combined with write-back"),
              std::string::npos);
    EXPECT_NE(cache_error("N:4:128:24,L:R:m:N:L,F:128:4,128").find("needs a result FIFO depth"), std::string::npos);
}

TEST(CacheString, NonPowerOfTwoSetCountIsAllowed)
{
    // Linebacker's 48 KB, 8-way L1 has 48 sets.
    gsim_cache_cfg c;
    char err[256];
    ASSERT_EQ(gsim_cache_cfg_parse("N:48:128:8,L:E:m:N:L,A:64:8,8", &c, err, sizeof err), 0) << err;
    EXPECT_EQ(gsim_cache_cfg_bytes(&c), 48 * 1024);
}

TEST(DramTiming, AllFieldsAndOptionalDefaults)
{
    gsim_dram_timing t;
    char err[256];
    ASSERT_EQ(gsim_dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12", &t, err,
                                     sizeof err),
              0)
        << err;
    EXPECT_EQ(t.nbk, 16);
    EXPECT_EQ(t.tCCD, 2);
    EXPECT_EQ(t.tRRD, 6);
    EXPECT_EQ(t.tRCD, 12);
    EXPECT_EQ(t.tRAS, 28);
    EXPECT_EQ(t.tRP, 12);
    EXPECT_EQ(t.tRC, 40);
    EXPECT_EQ(t.CL, 12);
    EXPECT_EQ(t.WL, 4);
    EXPECT_EQ(t.tCDLR, 5);
    EXPECT_EQ(t.tWR, 12);
    EXPECT_EQ(t.nbkgrp, 1);
    EXPECT_EQ(t.tCCDL, 0);
    EXPECT_EQ(t.tRTPL, 0);
    ASSERT_EQ(gsim_dram_timing_parse("nbk=16:CCD=4:RRD=12:RCD=24:RAS=55:RP=24:RC=78:CL=24:WL=8:CDLR=10:WR=24:nbkgrp=4:"
                                     "CCDL=6:RTPL=4",
                                     &t, err, sizeof err),
              0)
        << err;
    EXPECT_EQ(t.nbkgrp, 4);
    EXPECT_EQ(t.tCCDL, 6);
    EXPECT_EQ(t.tRTPL, 4);
}

TEST(DramTiming, Errors)
{
    gsim_dram_timing t;
    char err[256];
    EXPECT_NE(gsim_dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5", &t, err, sizeof err), 0);
    EXPECT_STREQ(err, "missing DRAM timing 'WR' in 'nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5'");
    EXPECT_NE(gsim_dram_timing_parse("nbk=16:XYZ=2", &t, err, sizeof err), 0);
    EXPECT_NE(std::string(err).find("expected a timing name"), std::string::npos) << err;
    EXPECT_NE(std::string(err).find("at character 8"), std::string::npos) << err;
    EXPECT_NE(gsim_dram_timing_parse("nbk=16:CCD=x", &t, err, sizeof err), 0);
    EXPECT_STREQ(err, "expected a non-negative integer number of DRAM cycles at character 12 of 'nbk=16:CCD=x'");
    EXPECT_NE(gsim_dram_timing_parse("nbk=16:CCD=2:", &t, err, sizeof err), 0);
    EXPECT_STREQ(err, "expected another name=value after ':' at character 14, but 'nbk=16:CCD=2:' ends there");
    EXPECT_NE(gsim_dram_timing_parse("nbk=15:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4", &t,
                                     err, sizeof err),
              0);
    EXPECT_NE(std::string(err).find("multiple of nbkgrp"), std::string::npos) << err;
}

TEST(ClockDomains, ParsedAndChecked)
{
    gsim_clock_domains d;
    char err[256];
    ASSERT_EQ(gsim_opt_clocks.parse(nullptr, "700.0:700.0:700.0:924.0", &d, err, sizeof err), 0) << err;
    EXPECT_DOUBLE_EQ(d.core_mhz, 700.0);
    EXPECT_DOUBLE_EQ(d.icnt_mhz, 700.0);
    EXPECT_DOUBLE_EQ(d.l2_mhz, 700.0);
    EXPECT_DOUBLE_EQ(d.dram_mhz, 924.0);
    EXPECT_NE(gsim_opt_clocks.parse(nullptr, "700:700:700", &d, err, sizeof err), 0);
    EXPECT_STREQ(err, "expected ':' at character 12, but '700:700:700' ends there");
    EXPECT_NE(gsim_opt_clocks.parse(nullptr, "700:0:700:924", &d, err, sizeof err), 0);
    EXPECT_STREQ(err, "expected every clock in [10, 100000] MHz, got the interconnect clock 0 in '700:0:700:924'");
    // Values that once hung the clock domains (a zero or overflowing period) are range errors.
    for (const char *bad : {"nan:700:700:924", "700:inf:700:924", "700:700:1e-300:924", "700:700:700:1e12",
                            "-700:700:700:924", "700:700:700:1e400"}) {
        EXPECT_NE(gsim_opt_clocks.parse(nullptr, bad, &d, err, sizeof err), 0) << bad;
        EXPECT_TRUE(strstr(err, "MHz") || strstr(err, "expected the")) << bad << ": " << err;
    }
    EXPECT_DOUBLE_EQ(d.core_mhz, 700.0) << "a rejected value leaves the last good one";
}

TEST(CacheConfig, GeometryBounded)
{
    gsim_cache_cfg c;
    char err[256];
    // 2^30 sets, 4096 ways, a 1M-line cache of 64 ways, a 64 KiB line: rejected by the parser.
    for (const char *bad : {"N:1073741824:128:4,L:L:m:N:H,A:32:8,8", "N:1:128:4096,L:L:m:N:H,A:32:8,8",
                            "N:32768:128:64,L:L:m:N:H,A:32:8,8", "N:32:65536:4,L:L:m:N:H,A:32:8,8",
                            "N:32:128:4,L:L:m:N:H,A:32:70000,8", "N:32:128:4,L:L:m:N:H,A:100000:8,8"}) {
        EXPECT_NE(gsim_cache_cfg_parse(bad, &c, err, sizeof err), 0) << bad;
        EXPECT_TRUE(strstr(err, "expected at most") || strstr(err, "expected a line size")) << bad << ": " << err;
    }
    EXPECT_EQ(gsim_cache_cfg_parse("N:65536:128:16,L:L:m:N:H,A:32:8,8", &c, err, sizeof err), 0) << err;
    EXPECT_EQ(gsim_cache_cfg_parse("N:1:128:1024,L:L:m:N:H,A:32:8,8", &c, err, sizeof err), 0) << err;
}

TEST(Pair, ThreadsAndWarpSize)
{
    gsim_int_pair p;
    char err[256];
    ASSERT_EQ(gsim_opt_pair.parse(nullptr, "1536:32", &p, err, sizeof err), 0);
    EXPECT_EQ(p.first, 1536);
    EXPECT_EQ(p.second, 32);
    EXPECT_NE(gsim_opt_pair.parse(nullptr, "1536", &p, err, sizeof err), 0);
    EXPECT_STREQ(err, "expected ':' at character 5, but '1536' ends there");
}

} // namespace
