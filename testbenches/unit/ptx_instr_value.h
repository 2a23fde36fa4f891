// A ptx_instr that owns its operands and registers, for tests that build instructions by hand
// or keep one after its module is freed. A module's instructions point into the function's
// pools (ptx_instr.o, src, dst); this copies them into its own storage and re-points on copy.
#ifndef GTLM_TEST_PTX_INSTR_VALUE_H
#define GTLM_TEST_PTX_INSTR_VALUE_H

#include <cstring>

extern "C" {
#include "ptx/ptx_ir.h"
}

struct InstrValue : ptx_instr {
    ptx_operand ops[PTX_MAX_OPNDS];
    uint32_t regs[2 * PTX_MAX_REGS_PER_INSTR];

    // As the parser starts an instruction: no guard, empty operands, vec 1.
    InstrValue()
    {
        ptx_instr_buf b;
        ptx_instr_buf_init(&b);
        static_cast<ptx_instr &>(*this) = b.in;
        std::memcpy(ops, b.o, sizeof ops);
        std::memset(regs, 0, sizeof regs);
        point();
    }
    // A deep copy of a module's instruction (its call and branch-target lists are not copied).
    explicit InstrValue(const ptx_instr &in) : InstrValue()
    {
        static_cast<ptx_instr &>(*this) = in;
        for (unsigned k = 0; k < in.nopnd && k < PTX_MAX_OPNDS; k++) ops[k] = in.o[k];
        for (unsigned k = 0; k < in.nsrc && k < PTX_MAX_REGS_PER_INSTR; k++) regs[k] = in.src[k];
        for (unsigned k = 0; k < in.ndst && k < PTX_MAX_REGS_PER_INSTR; k++) regs[PTX_MAX_REGS_PER_INSTR + k] = in.dst[k];
        call_args = nullptr;
        targets = nullptr;
        point();
    }
    InstrValue(const InstrValue &x) : ptx_instr(x) { copy_storage(x); }
    InstrValue &operator=(const InstrValue &x)
    {
        static_cast<ptx_instr &>(*this) = x;
        copy_storage(x);
        return *this;
    }

private:
    void copy_storage(const InstrValue &x)
    {
        std::memcpy(ops, x.ops, sizeof ops);
        std::memcpy(regs, x.regs, sizeof regs);
        point();
    }
    void point()
    {
        o = ops;
        src = regs;
        dst = regs + PTX_MAX_REGS_PER_INSTR;
    }
};

#endif
