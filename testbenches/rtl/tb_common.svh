// Shared by the scoreboard testbenches, included inside each testbench module: the +cycles and
// +seed plusargs and a seeded xorshift64 for the random stimulus.
int              cycles = 1000000;
longint          seed = 1;
longint unsigned rng;

function automatic longint unsigned next_rand();
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
endfunction

// Reads +cycles=N and +seed=S and seeds the generator; the testbench's initial block calls it.
task automatic tb_common_args();
    void'($value$plusargs("cycles=%d", cycles));
    void'($value$plusargs("seed=%d", seed));
    rng = 64'h9E3779B97F4A7C15 ^ 64'(seed);
endtask

import "DPI-C" function void tb_report(input int status);
// Ends the run with a status for tb_main.cpp's exit code: 0 pass, 1 mismatch, 2 bad input.
task automatic tb_end(input int status);
    tb_report(status);
    $finish;
endtask
