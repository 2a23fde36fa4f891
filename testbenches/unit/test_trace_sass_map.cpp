// The trace writer's pieces without a kernel: address compression (mode 1 only where Accel-Sim's
// decoder gives back the same addresses) and the PTX -> SASS opcode table.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <sstream>
#include <string>

extern "C" {
#include "ptx/ptx_ir.h"
#include "trace/trace_sass_map.h"
#include "trace/trace_writer.h"
}
#include "ptx_instr_value.h"

namespace {

// Accel-Sim's base_stride decoding: the first active lane gets the base, each following lane
// of one contiguous run base + k * stride; anything else must be listed (mode 0).
TEST(TraceWriterAddresses, StrideOnlyForOneContiguousRun)
{
    uint64_t addr[32] = {};
    char buf[1024];
    for (int l = 0; l < 32; l++) addr[l] = 0x1000 + 4 * l;
    trace_format_addresses(buf, sizeof buf, 0xffffffffu, addr);
    EXPECT_STREQ(buf, "1 0x1000 4 ");
    trace_format_addresses(buf, sizeof buf, 0x0000ff00u, addr); // lanes 8..15
    EXPECT_STREQ(buf, "1 0x1020 4 ");
    trace_format_addresses(buf, sizeof buf, 0x00000005u, addr); // lanes 0 and 2: a gap
    EXPECT_STREQ(buf, "0 0x0000000000001000 0x0000000000001008 ");
    trace_format_addresses(buf, sizeof buf, 0x00000010u, addr); // one lane: stride 0 decodes to it
    EXPECT_STREQ(buf, "1 0x1010 0 ");
    trace_format_addresses(buf, sizeof buf, 0u, addr);
    EXPECT_STREQ(buf, "0 ");
    for (int l = 0; l < 32; l++) addr[l] = 0x9000 - 8 * l;
    trace_format_addresses(buf, sizeof buf, 0x0000000fu, addr);
    EXPECT_STREQ(buf, "1 0x9000 -8 ");
    addr[2] += 4; // not arithmetic any more
    trace_format_addresses(buf, sizeof buf, 0x00000007u, addr);
    EXPECT_STREQ(buf, "0 0x0000000000009000 0x0000000000008ff8 0x0000000000008ff4 ");
    addr[0] = 0;
    addr[1] = 0x100000000ull; // stride beyond int32: listed
    trace_format_addresses(buf, sizeof buf, 0x00000003u, addr);
    EXPECT_STREQ(buf, "0 0x0000000000000000 0x0000000100000000 ");
}

InstrValue instr(ptx_op op, ptx_type t, ptx_space space = PS_GENERIC, unsigned vec = 1)
{
    InstrValue in;
    in.op = static_cast<uint16_t>(op);
    in.type = static_cast<uint8_t>(t);
    in.space = static_cast<uint8_t>(space);
    in.vec = static_cast<uint8_t>(vec);
    in.call_ret = 0;
    return in;
}

TEST(TraceWriterSass, MemoryOpcodesCarryWidthAndSpace)
{
    trace_sass s;
    InstrValue in = instr(OP_LD, PT_F32, PS_GLOBAL, 4);
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "LDG.E.128");
    EXPECT_EQ(s.is_mem, 1);
    EXPECT_EQ(s.width, 16);
    in = instr(OP_LD, PT_S8, PS_SHARED);
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "LDS.S8");
    EXPECT_EQ(s.width, 1);
    in = instr(OP_ST, PT_U16, PS_LOCAL);
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "STL.U16");
    in = instr(OP_LD, PT_F64, PS_GENERIC);
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "LD.E.64");
    EXPECT_EQ(s.width, 8);
    in = instr(OP_ATOM, PT_U64, PS_GLOBAL);
    in.mode = PM_ATOM_ADD;
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "ATOMG.E.ADD.64.STRONG.GPU");
    EXPECT_EQ(s.width, 8);
    in = instr(OP_RED, PT_U32, PS_SHARED);
    in.mode = PM_ATOM_ADD;
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "ATOMS.ADD");
    // Kernel parameters and constants: constant-bank loads, not traced as memory (as NVBit).
    in = instr(OP_LD, PT_U64, PS_PARAM);
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "LDC.64");
    EXPECT_EQ(s.is_mem, 0);
    trace_sass_map(&in, 0, &s); // a device function's parameter: a register under the ABI
    EXPECT_STREQ(s.opcode, "MOV");
    in = instr(OP_LD, PT_U32, PS_CONST);
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "LDC");
    EXPECT_EQ(s.is_mem, 0);
}

TEST(TraceWriterSass, ArithmeticControlAndCompares)
{
    trace_sass s;
    InstrValue in = instr(OP_SETP, PT_U32);
    in.cmp = PC_LT;
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "ISETP.LT.U32.AND");
    in = instr(OP_SETP, PT_F32);
    in.cmp = PC_GEU;
    in.boolop = PB_OR;
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "FSETP.GEU.OR");
    in = instr(OP_FMA, PT_F64);
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "DFMA");
    in = instr(OP_MAD, PT_S32);
    in.mode = PM_WIDE;
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "IMAD.WIDE");
    in = instr(OP_SIN, PT_F32);
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "MUFU.SIN");
    in = instr(OP_CVT, PT_F32);
    in.type2 = PT_S32;
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "I2F.F32.S32");
    in = instr(OP_RET, PT_NONE);
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "EXIT");
    trace_sass_map(&in, 0, &s);
    EXPECT_STREQ(s.opcode, "RET.REL.NODEC");
    in = instr(OP_BAR, PT_NONE);
    in.mode = PM_BAR_SYNC;
    trace_sass_map(&in, 1, &s);
    EXPECT_STREQ(s.opcode, "BAR.SYNC");
    // Every opcode has a name.
    for (int op = OP_INVALID + 1; op < OP_COUNT; op++) {
        in = instr(static_cast<ptx_op>(op), PT_U32, PS_GLOBAL);
        trace_sass_map(&in, 1, &s);
        EXPECT_STRNE(s.opcode, "NOP") << ptx_op_name(static_cast<ptx_op>(op));
        EXPECT_NE(s.opcode[0], '\0');
    }
}

// Accel-Sim looks the first token up in its opcode map for the binary version and stops on an
// unknown one: every opcode, type, space and mode combination must give a token of the Volta
// (sm_70) map. These are the map's names that the table uses.
TEST(TraceWriterSass, EveryFirstTokenIsInAccelSimsVoltaMap)
{
    const std::set<std::string> volta = {
        "FADD", "FFMA", "FMNMX", "FMUL", "FSEL", "FSET", "FSETP", "MUFU", "DADD", "DFMA", "DMUL", "DSETP",
        "BMSK", "BREV", "FLO", "IABS", "IADD3", "IMAD", "IMNMX", "ISETP", "LOP3", "POPC", "SHF", "VABSDIFF",
        "F2F", "F2I", "I2F", "I2I", "FRND", "MOV", "PRMT", "SEL", "SGXT", "SHFL", "PLOP3", "LD", "LDC", "LDG",
        "LDL", "LDS", "ST", "STG", "STL", "STS", "ATOM", "ATOMS", "ATOMG", "RED", "MEMBAR", "BPT", "BRA", "BRX",
        "CALL", "EXIT", "NANOSLEEP", "RET", "WARPSYNC", "BAR", "CS2R", "S2R", "VOTE", "NOP"};
    const ptx_type types[] = {PT_NONE, PT_PRED, PT_B8, PT_U16, PT_S16, PT_U32, PT_S32, PT_U64, PT_S64, PT_F32, PT_F64};
    const ptx_space spaces[] = {PS_GENERIC, PS_GLOBAL, PS_SHARED, PS_LOCAL, PS_CONST, PS_PARAM};
    for (int op = OP_INVALID; op < OP_COUNT; op++)
        for (ptx_type t : types)
            for (ptx_space sp : spaces)
                for (int mode = PM_NONE; mode <= PM_PRMT_RC16; mode++)
                    for (int kern = 0; kern < 2; kern++) {
                        InstrValue in = instr(static_cast<ptx_op>(op), t, sp, 1);
                        in.mode = static_cast<uint8_t>(mode);
                        in.type2 = static_cast<uint8_t>(t == PT_F32 ? PT_S32 : PT_F32);
                        in.o[1].kind = PO_SREG;
                        in.o[1].sreg = static_cast<uint16_t>(mode % (SR_TOTAL_SMEM_SIZE + 1));
                        trace_sass s;
                        trace_sass_map(&in, kern, &s);
                        std::string name = s.opcode;
                        std::string first = name.substr(0, name.find('.'));
                        ASSERT_TRUE(volta.count(first)) << name << " for " << ptx_op_name(static_cast<ptx_op>(op));
                        if (t != PT_NONE) {
                            ASSERT_EQ(s.is_mem != 0, s.width > 0) << name;
                        }
                    }
}

} // namespace
