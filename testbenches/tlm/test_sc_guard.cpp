// SystemC reports and C++ exceptions become status codes at the C API boundary; every
// simulator has a SystemC context of its own.
#include <gtest/gtest.h>

#include <memory>
#include <new>
#include <thread>
#include <string>
#include <systemc>

#include "api_guard.h"
#include "kernel/sc_context.h"

namespace {

TEST(ApiGuard, SystemCErrorBecomesAStatus)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    gtlm::install_report_handler();
    int rc = gtlm_api::guard([] {
        SC_REPORT_ERROR("gtlm/test", "a block reported an error");
        return 0;
    });
    EXPECT_EQ(rc, GTLM_EINTERNAL);
    EXPECT_EQ(std::string(gtlm_last_error()), "SystemC: gtlm/test: a block reported an error");
}

TEST(ApiGuard, SystemCFatalDoesNotAbort)
{
    gtlm::ScContext ctx;
    gtlm::ScContext::Use use(ctx);
    int rc = gtlm_api::guard([] {
        SC_REPORT_FATAL("gtlm/test", "fatal");
        return 0;
    });
    EXPECT_EQ(rc, GTLM_EINTERNAL);
    EXPECT_NE(std::string(gtlm_last_error()).find("fatal"), std::string::npos);
}

TEST(ApiGuard, ExceptionsMapToCodes)
{
    EXPECT_EQ(gtlm_api::guard([]() -> int { throw gtlm::Error(GTLM_ST_ESIM, "deadlock in gpu.sm[0]"); }), GTLM_ESIM);
    EXPECT_STREQ(gtlm_last_error(), "deadlock in gpu.sm[0]");
    EXPECT_EQ(gtlm_api::guard([]() -> int { throw std::bad_alloc(); }), GTLM_ENOMEM);
    EXPECT_EQ(gtlm_api::guard([]() -> int { throw std::runtime_error("boom"); }), GTLM_EINTERNAL);
    EXPECT_STREQ(gtlm_last_error(), "internal error: boom");
    EXPECT_EQ(gtlm_api::guard([]() -> int { throw 42; }), GTLM_EINTERNAL);
    EXPECT_EQ(gtlm_api::guard([] { return 0; }), 0);
    EXPECT_STREQ(gtlm_last_error(), "") << "a successful call clears the last error";
}

TEST(ApiGuard, LastErrorIsPerThread)
{
    gtlm_api::guard([]() -> int { throw gtlm::Error(GTLM_ST_ECONFIG, "main thread"); });
    std::string other;
    std::thread t([&] { other = gtlm_last_error(); });
    t.join();
    EXPECT_EQ(other, "");
    EXPECT_STREQ(gtlm_last_error(), "main thread");
}

struct Probe : sc_core::sc_module {
    explicit Probe(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};

TEST(ScContext, ContextsAreIndependent)
{
    gtlm::ScContext a, b;
    std::unique_ptr<Probe> pa, pb;
    {
        gtlm::ScContext::Use use(a);
        pa = std::make_unique<Probe>("gpu");
        EXPECT_EQ(sc_core::sc_get_curr_simcontext(), a.get());
    }
    {
        gtlm::ScContext::Use use(b);
        pb = std::make_unique<Probe>("gpu"); // the same name is fine in another context
        EXPECT_EQ(sc_core::sc_get_curr_simcontext(), b.get());
        EXPECT_EQ(std::string(pb->name()), "gpu");
    }
    {
        gtlm::ScContext::Use use(a);
        EXPECT_NE(sc_core::sc_find_object("gpu"), nullptr);
        pa.reset();
        EXPECT_EQ(sc_core::sc_find_object("gpu"), nullptr);
    }
    {
        gtlm::ScContext::Use use(b);
        EXPECT_NE(sc_core::sc_find_object("gpu"), nullptr) << "b's module outlives a's";
        pb.reset();
    }
}

} // namespace
