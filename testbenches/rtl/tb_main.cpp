// Clock for the Verilated SystemVerilog testbenches: toggles the top's clk until $finish and
// exits with the status the testbench reported through tb_report() (DPI-C).
#include <memory>

#include "verilated.h"
#include TB_HEADER

static int tb_status = 3; // no report: the testbench never finished

extern "C" void tb_report(int status) { tb_status = status; }

int main(int argc, char **argv)
{
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    auto top = std::make_unique<TB_CLASS>(ctx.get());
    top->clk = 0;
    top->eval();
    while (!ctx->gotFinish()) {
        ctx->timeInc(1);
        top->clk = !top->clk;
        top->eval();
    }
    top->final();
    return tb_status;
}
