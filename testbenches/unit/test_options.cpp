// Option registry: every type, the file syntax, overrides and the exact error messages.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

extern "C" {
#include "config/gpgpusim_formats.h"
#include "config/opt.h"
}

namespace {

struct TestCfg {
    int n = 0;
    int64_t big = 0;
    double f = 0;
    int flag = 0;
    char *s = nullptr;
    int mode = 0;
    gsim_cache_cfg cache{};
    gsim_dram_timing dram{};
    gsim_clock_domains clocks{};
    gsim_int_list lat{};
    gsim_policy_spec sched{};
};

const char *const modes[] = {"fast", "slow", nullptr};
GSIM_INT_LIST_TYPE(lat_type, 3, 5, 0, 1000);
const gsim_policy_choice sched_choices[] = {{"lrr", 0, 0, ""}, {"two_level_active", 1, 3, ":N"}, {nullptr, 0, 0, nullptr}};
GSIM_POLICY_TYPE(sched_type, sched_choices);

class Options : public ::testing::Test {
protected:
    void SetUp() override
    {
        opt_registry_init(&reg);
        strbuf_init(&err);
        strbuf_init(&warn);
        int rc = 0;
        rc |= opt_add_int(&reg, "t", "-n", &c.n, "7", -1000, 1000, "an int", &err);
        rc |= opt_add_i64(&reg, "t", "-big", &c.big, "5000000000", INT64_MIN, INT64_MAX, "an int64", &err);
        rc |= opt_add_double(&reg, "t", "-f", &c.f, "1.5", -1e9, 1e9, "a double", &err);
        rc |= opt_add_bool(&reg, "t", "-flag", &c.flag, "0", "a bool", &err);
        rc |= opt_add_string(&reg, "t", "-s", &c.s, "hello", "a string", &err);
        rc |= opt_add_enum(&reg, "t", "-mode", &c.mode, modes, "fast", "an enum", &err);
        rc |= opt_add_custom(&reg, "t", "-gpgpu_cache:dl1", &gsim_opt_cache, &c.cache, "N:64:128:6,L:L:m:N:H,A:128:8,8",
                             "a cache", &err);
        rc |= opt_add_custom(&reg, "t", "-gpgpu_dram_timing_opt", &gsim_opt_dram_timing, &c.dram,
                             "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12", "dram", &err);
        rc |= opt_add_custom(&reg, "t", "-gpgpu_clock_domains", &gsim_opt_clocks, &c.clocks, "700.0:700.0:700.0:924.0",
                             "clocks", &err);
        rc |= opt_add_custom(&reg, "t", "-lat", &lat_type, &c.lat, "1,2,3", "latencies", &err);
        rc |= opt_add_custom(&reg, "t", "-gpgpu_scheduler", &sched_type, &c.sched, "lrr", "scheduler", &err);
        ASSERT_EQ(rc, 0) << strbuf_str(&err);
    }
    void TearDown() override
    {
        opt_registry_free(&reg);
        strbuf_free(&err);
        strbuf_free(&warn);
    }
    int parse(const char *text) { return opt_parse_text(&reg, "test.config", text, &err, &warn); }
    std::string errors() const { return strbuf_str(&err); }
    std::string value(const char *name)
    {
        char buf[512];
        opt_format(opt_find(&reg, name), buf, sizeof buf);
        return buf;
    }

    opt_registry reg;
    TestCfg c;
    strbuf err, warn;
};

TEST_F(Options, DefaultsAreParsed)
{
    EXPECT_EQ(c.n, 7);
    EXPECT_EQ(c.big, 5000000000LL);
    EXPECT_DOUBLE_EQ(c.f, 1.5);
    EXPECT_EQ(c.flag, 0);
    EXPECT_STREQ(c.s, "hello");
    EXPECT_EQ(c.mode, 0);
    EXPECT_EQ(c.cache.nsets, 64);
    EXPECT_EQ(c.dram.tRC, 40);
    EXPECT_EQ(c.lat.n, 3);
    EXPECT_STREQ(opt_find(&reg, "-n")->source, "default");
}

TEST_F(Options, EveryTypeFromAFile)
{
    const char *text = "# a comment line\n"
                       "-n 42   # trailing comment\n"
                       "\t-big -9000000000\n"
                       "-f 2.5e3\n"
                       "-flag 1\n"
                       "-s \"two words # not a comment\"\n"
                       "-mode slow\n"
                       "-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32\n"
                       "-gpgpu_clock_domains 1400.0:1400.0:1400.0:924.0\n"
                       "-lat 4,13,4,5,145\n"
                       "-gpgpu_scheduler two_level_active:6:0:1\n"
                       "\n";
    ASSERT_EQ(parse(text), 0) << errors();
    EXPECT_EQ(c.n, 42);
    EXPECT_EQ(c.big, -9000000000LL);
    EXPECT_DOUBLE_EQ(c.f, 2500.0);
    EXPECT_EQ(c.flag, 1);
    EXPECT_STREQ(c.s, "two words # not a comment");
    EXPECT_EQ(c.mode, 1);
    EXPECT_EQ(c.cache.type, 'S');
    EXPECT_EQ(c.cache.assoc, 64);
    EXPECT_EQ(c.cache.mshr_entries, 512);
    EXPECT_EQ(c.cache.port_width, 32);
    EXPECT_DOUBLE_EQ(c.clocks.core_mhz, 1400.0);
    EXPECT_DOUBLE_EQ(c.clocks.dram_mhz, 924.0);
    ASSERT_EQ(c.lat.n, 5);
    EXPECT_EQ(c.lat.v[4], 145);
    EXPECT_STREQ(c.sched.name, "two_level_active");
    ASSERT_EQ(c.sched.nparams, 3);
    EXPECT_EQ(c.sched.params[0], 6);
    EXPECT_STREQ(opt_find(&reg, "-n")->source, "test.config:2:4");
}

TEST_F(Options, QuotedDramStringAndHexAndBoolWords)
{
    ASSERT_EQ(parse("-gpgpu_dram_timing_opt \"nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10:"
                    "nbkgrp=4:CCDL=2:RTPL=3\"\n-n 0x20\n-flag true\n"),
              0)
        << errors();
    EXPECT_EQ(c.dram.nbkgrp, 4);
    EXPECT_EQ(c.dram.tCCDL, 2);
    EXPECT_EQ(c.dram.tRTPL, 3);
    EXPECT_EQ(c.dram.WL, 2);
    EXPECT_EQ(c.n, 32);
    EXPECT_EQ(c.flag, 1);
}

TEST_F(Options, LaterValuesOverrideAndCommandLineWins)
{
    ASSERT_EQ(parse("-n 1\n-n 2\n"), 0);
    EXPECT_EQ(c.n, 2);
    const char *argv[] = {"-n", "3", "-mode", "slow"};
    ASSERT_EQ(opt_parse_args(&reg, 4, argv, &err, &warn), 0) << errors();
    EXPECT_EQ(c.n, 3);
    EXPECT_EQ(c.mode, 1);
    EXPECT_STREQ(opt_find(&reg, "-n")->source, "command line (argument 1)");
}

TEST_F(Options, FormatRoundTrips)
{
    ASSERT_EQ(parse("-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:8,8\n-gpgpu_scheduler two_level_active:6\n"), 0);
    EXPECT_EQ(value("-gpgpu_cache:dl1"), "N:32:128:4,L:L:m:N:H,A:32:8,8:0,128");
    EXPECT_EQ(value("-gpgpu_scheduler"), "two_level_active:6");
    EXPECT_EQ(value("-lat"), "1,2,3");
    EXPECT_EQ(value("-gpgpu_dram_timing_opt"),
              "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0");
    // What format prints parses back to the same value.
    std::string v = value("-gpgpu_cache:dl1");
    ASSERT_EQ(opt_set(&reg, "-gpgpu_cache:dl1", v.c_str(), "x", &err), 0);
    EXPECT_EQ(value("-gpgpu_cache:dl1"), v);
}

TEST_F(Options, UnknownOptionNamesFileLineColumnAndSuggests)
{
    EXPECT_NE(parse("-n 1\n\n  -nn 3\n"), 0);
    EXPECT_EQ(errors(), "test.config:3:3: unknown option '-nn' (did you mean '-n'?)\n");
}

TEST_F(Options, BadNumberIsReportedAtTheValue)
{
    EXPECT_NE(parse("-n 12abc\n"), 0);
    EXPECT_EQ(errors(), "test.config:1:4: option '-n': expected an integer, got '12abc'\n");
    EXPECT_EQ(c.n, 7) << "a bad value must not change the option";
}

TEST_F(Options, OutOfRangeAndBadDoubleAndBadEnum)
{
    EXPECT_NE(parse("-n 99999999999\n-f abc\n-mode medium\n-flag 2\n"), 0);
    EXPECT_EQ(errors(), "test.config:1:4: option '-n': expected an integer in [-1000, 1000], got '99999999999'\n"
                        "test.config:2:4: option '-f': expected a finite number, got 'abc'\n"
                        "test.config:3:7: option '-mode': expected one of fast, slow; got 'medium'\n"
                        "test.config:4:7: option '-flag': expected 0 or 1 (or true/false), got '2'\n");
}

TEST_F(Options, MissingValueAndExtraTokenAndBadQuote)
{
    EXPECT_NE(parse("-n\n-f 1 2\n-s \"open\n"), 0);
    EXPECT_EQ(errors(), "test.config:1:1: option '-n': expected a value after the option name on the same line\n"
                        "test.config:2:6: expected the end of the line after the value of '-f', got '2'\n"
                        "test.config:3:4: unterminated quoted value: expected a closing '\"'\n");
}

TEST_F(Options, QuotedValueContinuesOnTheNextLine)
{
    // Stock GPGPU-Sim configs break the DRAM timing string over two lines.
    ASSERT_EQ(parse("-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
                    "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"\n"
                    "-n 9\n-nn 1\n"),
              -1);
    EXPECT_EQ(c.dram.tRC, 40);
    EXPECT_EQ(c.dram.CL, 12);
    EXPECT_EQ(c.dram.nbkgrp, 4);
    EXPECT_EQ(c.n, 9);
    EXPECT_EQ(errors(), "test.config:4:1: unknown option '-nn' (did you mean '-n'?)\n") << "line numbers stay right";
    strbuf_clear(&err);
    // Spaces inside one line of a quoted value are kept.
    ASSERT_EQ(parse("-s \"a  b\"\n"), 0);
    EXPECT_STREQ(c.s, "a  b");
}

TEST_F(Options, AliasSetsTheTargetAndSaysSo)
{
    ASSERT_EQ(opt_add_alias(&reg, "-count", "-n", "another name of -n", &err), 0) << errors();
    EXPECT_EQ(c.n, 7) << "registering an alias keeps the target's value";
    ASSERT_EQ(parse("-count 11\n"), 0) << errors();
    EXPECT_EQ(c.n, 11);
    EXPECT_STREQ(opt_find(&reg, "-n")->source, "test.config:1:8 (as -count)");
    EXPECT_NE(parse("-count x\n"), 0);
    EXPECT_EQ(errors(), "test.config:1:8 (as -count): option '-n': expected an integer, got 'x'\n");
    EXPECT_NE(opt_add_alias(&reg, "-other", "-missing", "x", &err), 0);
    // A string alias shares the target's storage without leaking or double freeing it.
    ASSERT_EQ(opt_add_alias(&reg, "-str", "-s", "another name of -s", &err), 0);
    EXPECT_STREQ(c.s, "hello");
    ASSERT_EQ(parse("-str bye\n"), 0);
    EXPECT_STREQ(c.s, "bye");
}

TEST_F(Options, TokenThatIsNotAnOption)
{
    EXPECT_NE(parse("n 3\n"), 0);
    EXPECT_EQ(errors(), "test.config:1:1: expected an option name starting with '-', got 'n'\n");
}

TEST_F(Options, TruncatedCacheString)
{
    EXPECT_NE(parse("-gpgpu_cache:dl1 N:64:128:6,L:L:m\n"), 0);
    EXPECT_EQ(errors(), "test.config:1:18: option '-gpgpu_cache:dl1': expected ':' at character 17, but "
                        "'N:64:128:6,L:L:m' ends there\n");
}

TEST_F(Options, BadPolicyNameAndParameterCount)
{
    EXPECT_NE(parse("-gpgpu_scheduler fancy\n-gpgpu_scheduler lrr:3\n"), 0);
    EXPECT_EQ(errors(), "test.config:1:18: option '-gpgpu_scheduler': unknown policy 'fancy'; expected one of lrr, "
                        "two_level_active\n"
                        "test.config:2:18: option '-gpgpu_scheduler': policy 'lrr' takes lrr (0 to 0 parameters), "
                        "got 1 in 'lrr:3'\n");
}

TEST_F(Options, ListLimits)
{
    EXPECT_NE(parse("-lat 1,2\n-lat 1,2,3,4,5,6\n-lat 1,,2\n-lat 1,2,2000\n"), 0);
    EXPECT_EQ(errors(), "test.config:1:6: option '-lat': expected at least 3 comma-separated integers, got 2 in '1,2'\n"
                        "test.config:2:6: option '-lat': at most 5 comma-separated integers expected in "
                        "'1,2,3,4,5,6'\n"
                        "test.config:3:6: option '-lat': expected an integer at character 3 of '1,,2'\n"
                        "test.config:4:6: option '-lat': expected an integer in [0, 1000] at character 5 of "
                        "'1,2,2000'\n");
}

TEST_F(Options, MissingFileIsAnError)
{
    EXPECT_NE(opt_parse_file(&reg, "no/such/file.config", &err, &warn), 0);
    EXPECT_EQ(errors(), "no/such/file.config: cannot open configuration file: No such file or directory\n");
}

TEST_F(Options, FileParsingReportsThePath)
{
    char path[] = "/tmp/gtlm_opt_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("-n 5\n-zzzzzzzz 1\n", f);
    fclose(f);
    EXPECT_NE(opt_parse_file(&reg, path, &err, &warn), 0);
    EXPECT_EQ(errors(), std::string(path) + ":2:1: unknown option '-zzzzzzzz'\n");
    EXPECT_EQ(c.n, 5);
    std::remove(path);
}

TEST_F(Options, ErrorsAreCappedPerFile)
{
    std::string text;
    for (int i = 0; i < 50; i++) text += "-unknown_" + std::to_string(i) + " 1\n";
    EXPECT_NE(parse(text.c_str()), 0);
    EXPECT_EQ(err.lines, static_cast<size_t>(OPT_MAX_ERRORS + 1));
    EXPECT_NE(errors().find("too many errors"), std::string::npos);
}

TEST_F(Options, UnmodelledGpgpusimOptionNeedsCompatMode)
{
    int compat = 0;
    reg.compat_flag = &compat;
    EXPECT_NE(parse("-gpgpu_ptx_instruction_classification 0\n"), 0);
    EXPECT_NE(errors().find("test.config:1:1: GPGPU-Sim option '-gpgpu_ptx_instruction_classification' is not "
                            "modelled by gtlm"),
              std::string::npos)
        << errors();
    strbuf_clear(&err);
    compat = 1;
    EXPECT_EQ(parse("-gpgpu_ptx_instruction_classification 0\n"), 0) << errors();
    EXPECT_EQ(std::string(strbuf_str(&warn)), "test.config:1:1: warning: GPGPU-Sim option "
                                              "'-gpgpu_ptx_instruction_classification' is not modelled by gtlm; "
                                              "ignored\n");
    // A misspelt name is still an error in compat mode.
    EXPECT_NE(parse("-gpgpu_n_clustrs 3\n"), 0);
}

TEST(OptionRegistration, BadDefaultAndDuplicateAreRejected)
{
    opt_registry reg;
    opt_registry_init(&reg);
    strbuf err;
    strbuf_init(&err);
    int a = 0, b = 0;
    EXPECT_NE(opt_add_int(&reg, "t", "-a", &a, "x", 0, 9, "bad default", &err), 0);
    EXPECT_EQ(std::string(strbuf_str(&err)), "bad default 'x' for option '-a': expected an integer, got 'x'\n");
    EXPECT_EQ(opt_add_int(&reg, "t", "-b", &b, "1", 0, 9, "ok", &err), 0);
    EXPECT_NE(opt_add_int(&reg, "t", "-b", &b, "1", 0, 9, "again", &err), 0);
    EXPECT_NE(opt_add_int(&reg, "t", "nodash", &b, "1", 0, 9, "no dash", &err), 0);
    opt_registry_free(&reg);
    strbuf_free(&err);
}

} // namespace
