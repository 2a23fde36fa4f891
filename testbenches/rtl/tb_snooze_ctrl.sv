// Scoreboard testbench: rtl/power/snooze_ctrl.sv against Snooze's C core (snooze_ref_dpi.c through
// DPI-C) every cycle: the addressed block's mode before and after the event, the wake it counts and,
// for an access, pm_access()'s wait and data-lost answer. The RAM is first cleared block by block.
// Random events on +blocks blocks from a seeded xorshift (a kernel begin sweeps every block, the
// owner's cycle advances 1-3 per event), or a recording of a real run (+replay=FILE, from
// `gtlm run --record-block power FILE`), which the C core must also reproduce.
// Plusargs: +destroy=0|1 +wsleep=N +woff=N +blocks=N +cycles=N +seed=S | +replay=FILE
/* verilator lint_off BLKSEQ */       // a testbench: stimulus by blocking assignments at negedge
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off SYNCASYNCNET */
module tb_snooze_ctrl (input logic clk);
    import "DPI-C" function int ref_pm_init(input int destroy, input int blocks, input int wake_sleep, input int wake_off);
    import "DPI-C" function int ref_pm_mode(input int blk);
    import "DPI-C" function void ref_pm_op(input int op, input int blk, input longint now, output int mode,
                                          output int woke, output int wait_c, output int lost);

    localparam int N = 4096, BLK_W = 12;
    localparam int EV_ACCESS = 2, EV_BEGIN = 9, EV_CLEAR = 12;
    logic             rst_n = 1'b0, destroy = 1'b0, ev_valid = 1'b0, woke, access_lost;
    logic [19:0]      wake_sleep = 20'd2, wake_off = 20'd5, access_wait;
    logic [3:0]       ev = '0;
    logic [BLK_W-1:0] blk = '0;
    logic [63:0]      now = 64'd1;
    logic [1:0]       mode, next_mode;

    snooze_ctrl #(.N(N)) dut (.*);

    int     destroy_arg = 0, wsleep = 2, woff = 5, blocks = 8, sweep = 0, sweep_op = EV_CLEAR;
    longint cycle = 1, accesses = 0, lost_n = 0, waited = 0, woken = 0;
    int     exp_before = 0, exp_mode = 0, exp_woke = 0, exp_wait = 0, exp_lost = 0;
    // event weights, by pm_event code (ALLOC FREE ACCESS IDLE ENQUEUE DEQUEUE RESFAIL FILL FINISH BEGIN FILLED ON)
    int     weight[12] = '{2, 1, 4, 1, 4, 4, 1, 2, 1, 1, 1, 1};

    `include "tb_common.svh"

    task automatic bad_input(input string what);
        $display("tb_snooze_ctrl: %s: %s", replay, what);
        tb_end(2);
    endtask

    initial begin
        string pol;
        void'($value$plusargs("destroy=%d", destroy_arg));
        void'($value$plusargs("wsleep=%d", wsleep));
        void'($value$plusargs("woff=%d", woff));
        void'($value$plusargs("blocks=%d", blocks));
        tb_common_args();
        if ($value$plusargs("replay=%s", replay)) begin
            fd = $fopen(replay, "r");
            if (fd != 0) fetch();
            if (fd == 0 || !have_line ||
                $sscanf(line, "policy %s blocks %d wake_sleep %d wake_off %d", pol, blocks, wsleep, woff) != 4)
                bad_input("not a power-controller recording (gtlm run --record-block power FILE)");
            have_line = 1'b0;
            destroy_arg = pol == "snooze_destroy" ? 1 : 0;
        end
        if (blocks < 1 || blocks > N || wsleep < 0 || wsleep >= (1 << 20) || woff < 0 || woff >= (1 << 20)) begin
            $display("tb_snooze_ctrl: %0d blocks (1..%0d), wake %0d/%0d (below 2^20)", blocks, N, wsleep, woff);
            tb_end(2);
        end
        destroy = destroy_arg != 0;
        wake_sleep = 20'(wsleep);
        wake_off = 20'(woff);
        sweep = blocks;                        // clear the RAM first
        if (ref_pm_init(destroy_arg, blocks, wsleep, woff) != 0) tb_end(2);
    end

    // The next event: an op of a sweep (clear, kernel begin), a recorded one or a random one.
    task automatic next_event(output int e, output int b, output int rec_mode, output int rec_woke,
                              output int rec_wait, output int rec_lost);
        longint t = 0;
        int total, r;
        e = -1;
        b = 0;
        rec_mode = -1;
        if (sweep > 0) begin
            e = sweep_op;
            b = blocks - sweep;
            sweep--;
            if (sweep == 0 && sweep_op == EV_CLEAR && fd == 0) begin
                sweep = blocks;                // then the first kernel begins
                sweep_op = EV_BEGIN;
            end
        end else if (fd != 0) begin
            fetch();
            if (at_eof) begin
                $display("tb_snooze_ctrl: replay %s (%0s, %0d blocks): %0d events, 0 mismatches (%0d accesses, %0d waited, %0d lost, %0d wakes)",
                         replay, destroy ? "snooze_destroy" : "snooze", blocks, cycle - 1 - longint'(blocks), accesses,
                         waited, lost_n, woken);
                tb_end(0);
            end
            if ($sscanf(line, "e %d %d %d %d %d %d %d", e, b, t, rec_mode, rec_woke, rec_wait, rec_lost) != 7 ||
                e < 0 || e > 11 || b < 0 || b >= blocks)
                bad_input($sformatf("line %0d: expected 'e OP BLOCK NOW MODE WOKE WAIT LOST', got '%s'", line_no, line));
            have_line = 1'b0;
            now = 64'(t);
        end else begin
            now += 64'(1 + next_rand() % 3);
            if (next_rand() % 4 != 0) begin
                total = 0;
                foreach (weight[i]) total += weight[i];
                r = int'(next_rand() % 64'(total));
                foreach (weight[i]) begin
                    if (e < 0 && r < weight[i]) e = i;
                    r -= weight[i];
                end
                b = int'(next_rand() % 64'(blocks));
                if (e == EV_BEGIN) begin      // a kernel begins: every block, 0 first
                    b = 0;
                    sweep = blocks - 1;
                    sweep_op = EV_BEGIN;
                end
            end
        end
    endtask

    task automatic mismatch(input string signal, input longint rtl, input longint c);
        $display("tb_snooze_ctrl: first mismatch at cycle %0d: signal %s rtl=%0d c=%0d (event %0d, block %0d%s)", cycle,
                 signal, rtl, c, ev_valid ? int'(ev) : -1, int'(blk),
                 fd != 0 ? $sformatf(", record line %0d", line_no) : "");
        tb_end(1);
    endtask

    always @(negedge clk) begin
        int e, b, m, w, wt, l, rm, rw, rwt, rl;
        rst_n <= 1'b1;
        next_event(e, b, rm, rw, rwt, rl);
        ev_valid = e >= 0;
        ev = 4'(e < 0 ? 0 : e);
        blk = BLK_W'(b);
        exp_before = ref_pm_mode(b);
        exp_woke = 0;
        exp_wait = 0;
        exp_lost = 0;
        exp_mode = exp_before;
        if (e >= 0) begin
            ref_pm_op(e, b, longint'(now), m, w, wt, l);
            exp_mode = m;
            exp_woke = w;
            exp_wait = wt;
            exp_lost = l;
            if (rm >= 0 && (rm != m || rw != w || rwt != wt || rl != l)) begin
                $display("tb_snooze_ctrl: the C core does not reproduce %s line %0d: mode %0d woke %0d wait %0d lost %0d, recorded %0d %0d %0d %0d",
                         replay, line_no, m, w, wt, l, rm, rw, rwt, rl);
                tb_end(1);
            end
        end
    end

    always @(posedge clk) begin
        if (rst_n) begin
            if (ev_valid) begin
                // a kernel begin sets every block of the C core at its block 0 (the seam's mirror too)
                if (ev != 4'(EV_CLEAR) && ev != 4'(EV_BEGIN) && int'(mode) != exp_before) mismatch("mode", longint'(mode), longint'(exp_before));
                else if (int'(next_mode) != exp_mode) mismatch("next_mode", longint'(next_mode), longint'(exp_mode));
                else if (int'(woke) != exp_woke) mismatch("woke", longint'(woke), longint'(exp_woke));
                else if (ev == 4'(EV_ACCESS) && int'(access_wait) != exp_wait)
                    mismatch("access_wait", longint'(access_wait), longint'(exp_wait));
                else if (ev == 4'(EV_ACCESS) && int'(access_lost) != exp_lost)
                    mismatch("access_lost", longint'(access_lost), longint'(exp_lost));
                if (ev == 4'(EV_ACCESS)) begin
                    accesses++;
                    lost_n += longint'(access_lost);
                    waited += longint'(access_wait != 0);
                end
                woken += longint'(woke);
            end
            cycle++;
            if (fd == 0 && cycle > longint'(cycles)) begin
                $display("tb_snooze_ctrl: %0s wake %0d/%0d, %0d blocks, seed=%0d: %0d cycles, 0 mismatches (%0d accesses, %0d waited, %0d lost, %0d wakes)",
                         destroy ? "snooze_destroy" : "snooze", wsleep, woff, blocks, seed, cycle - 1, accesses, waited,
                         lost_n, woken);
                tb_end(0);
            end
        end
    end
endmodule
