// SASS opcode classes per GPU family, the interning table, and the trace front end's options.
#include <gtest/gtest.h>

#include <string>

extern "C" {
#include "gpu/gpu_config.h"
#include "ptx/ptx_ir.h"
#include "trace/trace_config.h"
#include "trace/trace_opcodes.h"
}

namespace {

struct Case {
    const char *opcode;
    uint32_t version;
    int rc, cls, space, width;
};

TEST(TraceOpcodesTest, ClassifiesByBaseNameAndFamily)
{
    const Case cases[] = {
        {"LDG.E.64.SYS", 70, 0, TOC_LOAD, PS_GLOBAL, 8},
        {"LDS.U.128", 61, 0, TOC_LOAD, PS_SHARED, 16},
        {"LDS.U.32", 61, 0, TOC_LOAD, PS_SHARED, 4},
        {"LDS.U", 70, 0, TOC_LOAD, PS_SHARED, 0}, // no size: the line's mem_width applies
        {"LDL", 90, 0, TOC_LOAD, PS_LOCAL, 0},
        {"LD.E.U8", 70, 0, TOC_LOAD, PS_GENERIC, 1},
        {"STG.E.S16", 80, 0, TOC_STORE, PS_GLOBAL, 2},
        {"STL.64", 90, 0, TOC_STORE, PS_LOCAL, 8},
        {"ST.E.128", 75, 0, TOC_STORE, PS_GENERIC, 16},
        {"ATOMS.ADD", 70, 0, TOC_ATOMIC, PS_SHARED, 0},
        {"ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU", 80, 0, TOC_ATOMIC, PS_GLOBAL, 0},
        {"RED.E.ADD.64.STRONG.GPU", 80, 0, TOC_ATOMIC, PS_GENERIC, 8},
        {"LDSM.16.M88.4", 80, 0, TOC_LOAD, PS_SHARED, 16},
        {"LDGSTS.E.BYPASS.LTC128B.128", 80, 0, TOC_LOAD, PS_GLOBAL, 16},
        {"LDGSTS.E.128", 70, -1, 0, 0, 0}, // Ampere and later
        {"LDC.64", 90, 0, TOC_INT, 0, 0},
        {"ULDC.64", 80, 0, TOC_INT, 0, 0},
        {"ULDC", 61, -1, 0, 0, 0}, // uniform datapath: Turing and later
        {"XMAD.PSL.CBCC", 61, 0, TOC_INT, 0, 0},
        {"XMAD", 70, -1, 0, 0, 0}, // Maxwell/Pascal only
        {"ISETP.GE.AND", 90, 0, TOC_INT, 0, 0},
        {"VIADD", 90, 0, TOC_INT, 0, 0},
        {"VIADD", 86, -1, 0, 0, 0},
        {"FFMA", 61, 0, TOC_SP, 0, 0},
        {"HFMA2.MMA", 80, 0, TOC_SP, 0, 0},
        {"DFMA", 70, 0, TOC_DP, 0, 0},
        {"MUFU.RCP", 70, 0, TOC_SFU, 0, 0},
        {"HMMA.1688.F32", 75, 0, TOC_TENSOR, 0, 0}, // not memory: its digits are no width
        {"IMMA.8816.S8.S8", 80, 0, TOC_TENSOR, 0, 0},
        {"BAR.SYNC", 61, 0, TOC_BARRIER, 0, 0},
        {"MEMBAR.CTA", 61, 0, TOC_MEMBAR, 0, 0},
        {"BRA", 70, 0, TOC_BRANCH, 0, 0},
        {"CALL.REL.NOINC", 70, 0, TOC_BRANCH, 0, 0},
        {"SSY", 61, 0, TOC_BRANCH, 0, 0},
        {"SSY", 70, -1, 0, 0, 0},
        {"WARPSYNC", 70, 0, TOC_BRANCH, 0, 0},
        {"EXIT", 90, 0, TOC_EXIT, 0, 0},
        {"NOP", 61, 0, TOC_NOP, 0, 0},
        {"FOO.BAR", 70, -1, 0, 0, 0},
        {"LDG", 35, -1, 0, 0, 0}, // Kepler: no map
        {"LDG", 100, -1, 0, 0, 0},
        {"LDGX", 70, -1, 0, 0, 0}, // base names match whole
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(std::string(c.opcode) + " @" + std::to_string(c.version));
        trace_op_info info;
        ASSERT_EQ(trace_opcode_classify(c.opcode, c.version, &info), c.rc);
        EXPECT_EQ(info.cls, c.cls);
        EXPECT_EQ(info.space, c.space);
        EXPECT_EQ(info.width, c.width);
        EXPECT_EQ(info.unknown, 0);
    }
}

TEST(TraceOpcodesTest, InternsInFirstSeenOrderPerFamily)
{
    trace_opcode_table t;
    trace_opcode_table_init(&t);
    EXPECT_EQ(trace_opcode_intern(&t, "IMAD.WIDE", 80, 0), 0);
    EXPECT_EQ(trace_opcode_intern(&t, "LDG.E", 80, 0), 1);
    EXPECT_EQ(trace_opcode_intern(&t, "IMAD.WIDE", 86, 0), 0); // same family
    EXPECT_EQ(trace_opcode_intern(&t, "IMAD.WIDE", 70, 0), 2); // another family: its own entry
    EXPECT_EQ(trace_opcode_intern(&t, "FOO.BAR", 70, 0), -1);
    EXPECT_EQ(trace_opcode_count(&t), 3u);
    EXPECT_STREQ(trace_opcode_name(&t, 1), "LDG.E");
    EXPECT_EQ(trace_opcode_info(&t, 1)->cls, TOC_LOAD);
    EXPECT_EQ(trace_opcode_uses(&t, 0), 2u);
    EXPECT_EQ(trace_opcode_name(&t, 3), nullptr);
    int foo = trace_opcode_intern(&t, "FOO.BAR", 70, 1);
    EXPECT_EQ(foo, 3);
    EXPECT_EQ(trace_opcode_intern(&t, "FOO.BAR", 70, 1), foo);
    EXPECT_EQ(trace_opcode_info(&t, foo)->unknown, 1);
    EXPECT_EQ(trace_opcode_info(&t, foo)->cls, TOC_INT);
    EXPECT_EQ(trace_opcode_unknown_uses(&t), 2u);
    // Growth and rehashing keep every id.
    for (int i = 0; i < 1000; i++) ASSERT_EQ(trace_opcode_intern(&t, ("X" + std::to_string(i)).c_str(), 70, 1), 4 + i);
    for (int i = 0; i < 1000; i += 37) EXPECT_EQ(trace_opcode_intern(&t, ("X" + std::to_string(i)).c_str(), 70, 1), 4 + i);
    EXPECT_EQ(trace_opcode_intern(&t, "LDG.E", 80, 0), 1);
    EXPECT_EQ(trace_opcode_count(&t), 1004u);
    trace_opcode_table_free(&t);
}

struct Registry {
    opt_registry reg;
    gtlm_config cfg{};
    strbuf err, warn;
    Registry()
    {
        opt_registry_init(&reg);
        strbuf_init(&err);
        strbuf_init(&warn);
        EXPECT_EQ(gtlm_config_register(&reg, &cfg, &err), 0) << strbuf_str(&err);
    }
    ~Registry()
    {
        opt_registry_free(&reg);
        strbuf_free(&err);
        strbuf_free(&warn);
    }
};

TEST(TraceOpcodesTest, OptionsParseAndGiveClassLatencies)
{
    Registry r;
    uint16_t lat = 0, init = 0;
    // Defaults: Accel-Sim's SM7_TITANV trace.config.
    ASSERT_EQ(trace_latency(&r.cfg.trace, TOC_SFU, &lat, &init), 0);
    EXPECT_EQ(lat, 20);
    EXPECT_EQ(init, 8);
    EXPECT_EQ(r.cfg.trace.unknown_as_alu, 0);
    ASSERT_EQ(opt_parse_text(&r.reg, "t.config",
                             "-trace_opcode_latency_initiation_int 6,3\n-trace_opcode_latency_initiation_tensor 32,16\n"
                             "-gtlm_trace_unknown_opcode_as_alu 1\n",
                             &r.err, &r.warn),
              0)
        << strbuf_str(&r.err);
    ASSERT_EQ(trace_latency(&r.cfg.trace, TOC_TENSOR, &lat, &init), 0);
    EXPECT_EQ(lat, 32);
    EXPECT_EQ(init, 16);
    ASSERT_EQ(trace_latency(&r.cfg.trace, TOC_BRANCH, &lat, &init), 0); // branches: the integer pipeline
    EXPECT_EQ(lat, 6);
    EXPECT_EQ(init, 3);
    EXPECT_EQ(trace_latency(&r.cfg.trace, TOC_LOAD, &lat, &init), -1);
    EXPECT_EQ(trace_latency(&r.cfg.trace, TOC_N, &lat, &init), -1);
    EXPECT_EQ(r.cfg.trace.unknown_as_alu, 1);
    EXPECT_EQ(gtlm_config_check(&r.reg, &r.cfg, &r.err), 0) << strbuf_str(&r.err);
    strbuf_clear(&r.err);
    EXPECT_NE(opt_parse_text(&r.reg, "bad.config", "-trace_opcode_latency_initiation_sp 4\n", &r.err, &r.warn), 0);
    EXPECT_NE(std::string(strbuf_str(&r.err)).find("bad.config:1"), std::string::npos) << strbuf_str(&r.err);
    strbuf_clear(&r.err);
    EXPECT_NE(opt_parse_text(&r.reg, "bad.config", "-trace_opcode_latency_initiation_dp 0,1\n", &r.err, &r.warn), 0);
}

TEST(TraceOpcodesTest, TraceLatencyOptionsAreModelledNotUnmodelled)
{
    EXPECT_FALSE(opt_is_unmodelled_gpgpusim("-trace_opcode_latency_initiation_int"));
    EXPECT_FALSE(opt_is_unmodelled_gpgpusim("-trace_opcode_latency_initiation_tensor"));
    EXPECT_TRUE(opt_is_unmodelled_gpgpusim("-trace_opcode_latency_initiation_spec_op_1"));
}

TEST(TraceOpcodesTest, ShippedConfigsSetTheirFamilysLatencies)
{
    struct {
        const char *file;
        int sfu_lat, sfu_init, tensor_lat, tensor_init;
    } want[] = {{"titanv-volta.config", 20, 8, 8, 4}, {"rtx3080-morpheus.config", 20, 8, 32, 32},
                {"titanx-pascal.config", 20, 4, 4, 1}, {"gtx480.config", 8, 8, 4, 1}};
    for (const auto &w : want) {
        SCOPED_TRACE(w.file);
        Registry r;
        std::string path = std::string(GTLM_SOURCE_DIR) + "/configs/" + w.file;
        ASSERT_EQ(opt_parse_file(&r.reg, path.c_str(), &r.err, &r.warn), 0) << strbuf_str(&r.err);
        EXPECT_EQ(gtlm_config_check(&r.reg, &r.cfg, &r.err), 0) << strbuf_str(&r.err);
        uint16_t lat, init;
        ASSERT_EQ(trace_latency(&r.cfg.trace, TOC_SFU, &lat, &init), 0);
        EXPECT_EQ(lat, w.sfu_lat);
        EXPECT_EQ(init, w.sfu_init);
        ASSERT_EQ(trace_latency(&r.cfg.trace, TOC_TENSOR, &lat, &init), 0);
        EXPECT_EQ(lat, w.tensor_lat);
        EXPECT_EQ(init, w.tensor_init);
        EXPECT_NE(opt_find(&r.reg, "-trace_opcode_latency_initiation_int")->source, std::string("default"));
    }
}

} // namespace
