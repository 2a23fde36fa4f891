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

// Replay of a recording (+replay=FILE, from `gtlm run --record-block BLOCK FILE`): fetch() makes
// `line` the next line that is neither empty nor a comment (have_line), or sets at_eof.
int    fd = 0, line_no = 0;
string replay = "", line = "";
logic  have_line = 1'b0, at_eof = 1'b0;

function automatic void fetch();
    string l;
    while (!have_line && !at_eof) begin
        if ($fgets(l, fd) == 0) begin
            at_eof = 1'b1;
            return;
        end
        line_no++;
        if (l.len() > 1 && l.getc(0) != "#") begin
            line = l;
            have_line = 1'b1;
        end
    end
endfunction

import "DPI-C" function void tb_report(input int status);
// Ends the run with a status for tb_main.cpp's exit code: 0 pass, 1 mismatch, 2 bad input.
task automatic tb_end(input int status);
    tb_report(status);
    $finish;
endtask
