// Scoreboard testbench: rtl/power/snooze_ctrl.sv against Snooze's C core (snooze_ref_dpi.c through
// DPI-C) every cycle: the mode, and for an access pm_access()'s wait and data-lost answer.
// Random events from a seeded xorshift; plusargs: +destroy=0|1 +wsleep=N +woff=N +cycles=N +seed=S
/* verilator lint_off BLKSEQ */       // a testbench: stimulus by blocking assignments at negedge
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off SYNCASYNCNET */
module tb_snooze_ctrl (input logic clk);
    import "DPI-C" function int ref_pm_init(input int destroy, input int wake_sleep, input int wake_off);
    import "DPI-C" function int ref_pm_mode();
    import "DPI-C" function void ref_pm_event(input int ev, input longint now, output int wait_c, output int lost);

    logic        rst_n = 1'b0, destroy = 1'b0, ev_valid = 1'b0, access_lost;
    logic [16:0] wake_sleep = 17'd2, wake_off = 17'd5, access_wait;
    logic [3:0]  ev = '0;
    logic [1:0]  mode;

    snooze_ctrl dut (.*);

    int     destroy_arg = 0, wsleep = 2, woff = 5;
    longint cycle = 1, accesses = 0, lost_n = 0, waited = 0;
    int     exp_mode = 0, exp_wait = 0, exp_lost = 0;
    // event weights, by pm_event code (ALLOC FREE ACCESS IDLE ENQUEUE DEQUEUE RESFAIL FILL FINISH BEGIN FILLED)
    int     weight[11] = '{2, 1, 4, 1, 4, 4, 1, 2, 1, 1, 1};

    `include "tb_common.svh"

    initial begin
        void'($value$plusargs("destroy=%d", destroy_arg));
        void'($value$plusargs("wsleep=%d", wsleep));
        void'($value$plusargs("woff=%d", woff));
        tb_common_args();
        destroy = destroy_arg != 0;
        wake_sleep = 17'(wsleep);
        wake_off = 17'(woff);
        if (ref_pm_init(destroy_arg, wsleep, woff) != 0) begin
            tb_end(2);
        end
    end

    always @(negedge clk) begin
        int e, w, lost, total, r;
        rst_n <= 1'b1;
        exp_mode = ref_pm_mode();
        e = -1;
        if (cycle == 1) e = 9; // the first kernel begins
        else if (next_rand() % 4 != 0) begin
            total = 0;
            foreach (weight[i]) total += weight[i];
            r = int'(next_rand() % 64'(total));
            foreach (weight[i]) begin
                if (e < 0 && r < weight[i]) e = i;
                r -= weight[i];
            end
        end
        ev_valid = e >= 0;
        ev = 4'(e);
        if (e >= 0) ref_pm_event(e, cycle, w, lost);
        exp_wait = e == 2 ? w : 0;
        exp_lost = e == 2 ? lost : 0;
    end

    task automatic mismatch(input string signal, input longint rtl, input longint c);
        $display("tb_snooze_ctrl: first mismatch at cycle %0d: signal %s rtl=%0d c=%0d (event %0d)", cycle, signal,
                 rtl, c, ev_valid ? int'(ev) : -1);
        tb_end(1);
    endtask

    always @(posedge clk) begin
        if (rst_n) begin
            if (int'(mode) != exp_mode) mismatch("mode", longint'(mode), longint'(exp_mode));
            else if (ev_valid && ev == 4'd2 && int'(access_wait) != exp_wait)
                mismatch("access_wait", longint'(access_wait), longint'(exp_wait));
            else if (ev_valid && ev == 4'd2 && int'(access_lost) != exp_lost)
                mismatch("access_lost", longint'(access_lost), longint'(exp_lost));
            if (ev_valid && ev == 4'd2) begin
                accesses++;
                lost_n += longint'(access_lost);
                waited += longint'(access_wait != 0);
            end
            cycle++;
            if (cycle > longint'(cycles)) begin
                $display("tb_snooze_ctrl: %s wake %0d/%0d seed=%0d: %0d cycles, 0 mismatches (%0d accesses, %0d waited, %0d lost)",
                         destroy ? "snooze_destroy" : "snooze", wsleep, woff, seed, cycle - 1, accesses, waited, lost_n);
                tb_end(0);
            end
        end
    end
endmodule
