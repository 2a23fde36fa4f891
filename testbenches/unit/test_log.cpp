// Unit tests of block logging (model/log).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

extern "C" {
#include "log/log.h"
}

namespace {

uint64_t fake_now(const void *ctx) { return *static_cast<const uint64_t *>(ctx); }

// A sink writing into a temporary file, with a clock the test sets.
struct Sink {
    log_sink s;
    FILE *f = std::tmpfile();
    uint64_t time = 0;
    char err[256] = "";
    int rc;

    explicit Sink(log_level level, const char *overrides = nullptr)
    {
        rc = log_sink_init(&s, f, level, overrides, err, sizeof err);
        s.now = fake_now;
        s.now_ctx = &time;
    }
    ~Sink()
    {
        log_sink_free(&s);
        if (f) std::fclose(f);
    }
    std::string text()
    {
        std::fflush(f);
        std::rewind(f);
        std::string out;
        char buf[1024];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
        return out;
    }
    log_level level_of(const char *path)
    {
        logger lg;
        logger_init(&lg, &s, path);
        return lg.level;
    }
};

}  // namespace

TEST(Log, LevelNames)
{
    EXPECT_STREQ(log_level_names[LOG_OFF], "off");
    EXPECT_STREQ(log_level_names[LOG_ERROR], "error");
    EXPECT_STREQ(log_level_names[LOG_WARN], "warn");
    EXPECT_STREQ(log_level_names[LOG_INFO], "info");
    EXPECT_STREQ(log_level_names[LOG_DEBUG], "debug");
    EXPECT_STREQ(log_level_names[LOG_TRACE], "trace");
    EXPECT_EQ(log_level_names[LOG_TRACE + 1], nullptr);
}

TEST(Log, ExactLineFormatWithClock)
{
    Sink k(LOG_TRACE);
    ASSERT_EQ(k.rc, 0);
    ASSERT_NE(k.f, nullptr);
    logger lg;
    logger_init(&lg, &k.s, "gpu.sm[3].l1d");
    k.time = 1234;
    LOG_W(&lg, "MSHR full");
    k.time = 1235;
    LOG_E(&lg, "bad access at %#x", 0x40u);
    k.time = 0;
    LOG_I(&lg, "%s=%d", "x", 5);
    LOG_D(&lg, "d");
    LOG_T(&lg, "t");
    EXPECT_EQ(k.text(),
              "[warn 1234] gpu.sm[3].l1d: MSHR full\n"
              "[error 1235] gpu.sm[3].l1d: bad access at 0x40\n"
              "[info 0] gpu.sm[3].l1d: x=5\n"
              "[debug 0] gpu.sm[3].l1d: d\n"
              "[trace 0] gpu.sm[3].l1d: t\n");
}

TEST(Log, NoClockMeansTimeZero)
{
    Sink k(LOG_INFO);
    k.s.now = nullptr;
    logger lg;
    logger_init(&lg, &k.s, "gpu");
    k.time = 77;
    LOG_I(&lg, "hello");
    EXPECT_EQ(k.text(), "[info 0] gpu: hello\n");
}

TEST(Log, LongMessageIsComplete)
{
    Sink k(LOG_INFO);
    logger lg;
    logger_init(&lg, &k.s, "gpu.noc");
    std::string big(3000, 'x');
    big += "END";
    LOG_I(&lg, "%s", big.c_str());
    EXPECT_EQ(k.text(), "[info 0] gpu.noc: " + big + "\n");
}

TEST(Log, OffLevelsDoNotEvaluateArguments)
{
    Sink k(LOG_WARN);
    logger lg;
    logger_init(&lg, &k.s, "gpu.dram");
    EXPECT_EQ(lg.level, LOG_WARN);
    int evaluated = 0;
    LOG_I(&lg, "%d", ++evaluated);
    LOG_D(&lg, "%d", ++evaluated);
    LOG_T(&lg, "%d", ++evaluated);
    EXPECT_EQ(evaluated, 0);
    EXPECT_EQ(k.text(), "");
    LOG_W(&lg, "%d", ++evaluated);
    LOG_E(&lg, "%d", ++evaluated);
    EXPECT_EQ(evaluated, 2);
    EXPECT_EQ(k.text(), "[warn 0] gpu.dram: 1\n[error 0] gpu.dram: 2\n");
}

TEST(Log, GlobalOffSilencesEverything)
{
    Sink k(LOG_OFF);
    logger lg;
    logger_init(&lg, &k.s, "gpu");
    int evaluated = 0;
    LOG_E(&lg, "%d", ++evaluated);
    EXPECT_EQ(evaluated, 0);
    // A direct call above the logger's level is dropped too.
    log_emit(&lg, LOG_ERROR, "direct");
    EXPECT_EQ(k.text(), "");
}

TEST(Log, LoggerWithoutSinkIsOff)
{
    logger lg;
    logger_init(&lg, nullptr, "gpu.sm");
    EXPECT_EQ(lg.level, LOG_OFF);
    EXPECT_STREQ(lg.path, "gpu.sm");
}

TEST(Log, OverridePrefixMatching)
{
    Sink k(LOG_WARN, "gpu.sm=debug,gpu.sm[3].l1d=trace,gpu.dram=info");
    ASSERT_EQ(k.rc, 0) << k.err;
    EXPECT_EQ(k.level_of("gpu.sm"), LOG_DEBUG);
    EXPECT_EQ(k.level_of("gpu.sm.x"), LOG_DEBUG);
    EXPECT_EQ(k.level_of("gpu.sm[3]"), LOG_DEBUG);
    EXPECT_EQ(k.level_of("gpu.sm[3].l1i"), LOG_DEBUG);
    EXPECT_EQ(k.level_of("gpu.sm[3].l1d"), LOG_TRACE);
    EXPECT_EQ(k.level_of("gpu.sm[3].l1d.mshr"), LOG_TRACE);
    EXPECT_EQ(k.level_of("gpu.sm[30].l1d"), LOG_DEBUG);  // sm[3] is not a prefix of sm[30]
    EXPECT_EQ(k.level_of("gpu.sm[3].l1dx"), LOG_DEBUG);
    EXPECT_EQ(k.level_of("gpu.smx"), LOG_WARN);
    EXPECT_EQ(k.level_of("gpu.dram"), LOG_INFO);
    EXPECT_EQ(k.level_of("gpu.dram[1].bank[2]"), LOG_INFO);
    EXPECT_EQ(k.level_of("gpu.dramx"), LOG_WARN);
    EXPECT_EQ(k.level_of("gpu"), LOG_WARN);
    EXPECT_EQ(k.level_of("gpu.s"), LOG_WARN);
    EXPECT_EQ(k.level_of("noc"), LOG_WARN);
}

TEST(Log, LongestPrefixWinsWhateverTheOrder)
{
    Sink k(LOG_INFO, "gpu.sm[3].l1d=trace,gpu.sm=error,gpu=off");
    ASSERT_EQ(k.rc, 0) << k.err;
    EXPECT_EQ(k.level_of("gpu.sm[3].l1d"), LOG_TRACE);
    EXPECT_EQ(k.level_of("gpu.sm[3].l2"), LOG_ERROR);
    EXPECT_EQ(k.level_of("gpu.noc"), LOG_OFF);
    EXPECT_EQ(k.level_of("host"), LOG_INFO);

    // An override may also lower the level below the global one.
    Sink q(LOG_TRACE, "gpu.sm=off");
    ASSERT_EQ(q.rc, 0) << q.err;
    logger lg;
    logger_init(&lg, &q.s, "gpu.sm[0]");
    int evaluated = 0;
    LOG_E(&lg, "%d", ++evaluated);
    EXPECT_EQ(evaluated, 0);
    EXPECT_EQ(q.level_of("gpu.noc"), LOG_TRACE);
}

TEST(Log, EmptyOverridesAreAccepted)
{
    char err[64];
    EXPECT_EQ(log_overrides_check(nullptr, err, sizeof err), 0);
    EXPECT_EQ(log_overrides_check("", err, sizeof err), 0);
    EXPECT_EQ(log_overrides_check("gpu=trace", err, sizeof err), 0);
    EXPECT_EQ(log_overrides_check("gpu.sm[2].l1d=off,dram=error", err, sizeof err), 0);
    Sink k(LOG_INFO, "");
    EXPECT_EQ(k.rc, 0);
    EXPECT_EQ(k.level_of("gpu"), LOG_INFO);
}

TEST(Log, MalformedOverridesAreRejected)
{
    struct Case {
        const char *overrides;
        const char *must_mention;
    };
    const Case cases[] = {
        {"gpu.sm", "expected prefix=level"},
        {"gpu.sm=debug,dram", "'dram'"},
        {"gpu.sm=loud", "loud"},
        {"gpu.sm=", "unknown level"},
        {"=debug", "=debug"},
        {"gpu..sm=info", "gpu..sm"},
        {"gpu.sm=debug,,dram=info", "expected prefix=level"},
        {"gpu.sm=debug,", "expected prefix=level"},
        {"gpu.sm:debug", "gpu.sm:debug"},
        {"gpu=info=debug", "info=debug"},
        {"gpu=INFO", "INFO"},
    };
    for (const Case &c : cases) {
        char err[256] = "";
        EXPECT_EQ(log_overrides_check(c.overrides, err, sizeof err), -1) << c.overrides;
        EXPECT_NE(std::strstr(err, c.must_mention), nullptr) << c.overrides << " -> " << err;
    }
    // The sink refuses them the same way, and stays safe to free.
    Sink k(LOG_INFO, "gpu.sm=verbose");
    EXPECT_EQ(k.rc, -1);
    EXPECT_NE(std::strstr(k.err, "verbose"), nullptr) << k.err;
    EXPECT_EQ(k.s.overrides, nullptr);
    // Without an error buffer the result is the same.
    EXPECT_EQ(log_overrides_check("gpu", nullptr, 0), -1);
}

TEST(Log, SinkOwnsItsOverridesCopy)
{
    char text[] = "gpu.sm=trace";
    log_sink s;
    char err[64];
    ASSERT_EQ(log_sink_init(&s, nullptr, LOG_ERROR, text, err, sizeof err), 0);
    ASSERT_NE(s.overrides, nullptr);
    EXPECT_NE(s.overrides, text);
    std::strcpy(text, "gpu.sm=error");  // the caller's buffer may change afterwards
    logger lg;
    logger_init(&lg, &s, "gpu.sm");
    EXPECT_EQ(lg.level, LOG_TRACE);
    EXPECT_EQ(s.out, nullptr);  // stderr is chosen when a line is written
    log_sink_free(&s);
    EXPECT_EQ(s.overrides, nullptr);
}

TEST(Log, NullOutputGoesToStderr)
{
    log_sink s;
    ASSERT_EQ(log_sink_init(&s, nullptr, LOG_INFO, nullptr, nullptr, 0), 0);
    logger lg;
    logger_init(&lg, &s, "gpu");
    testing::internal::CaptureStderr();
    LOG_I(&lg, "to stderr");
    std::string out = testing::internal::GetCapturedStderr();
    EXPECT_EQ(out, "[info 0] gpu: to stderr\n");
    log_sink_free(&s);
}
