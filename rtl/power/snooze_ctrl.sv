// Snooze's trimodal power-mode controller of one cache block (ON / Sleep / OFF): the RTL twin of
// model/power/policy_snooze.c (snooze, snooze_destroy) over the block's state in power_mode.c
// (mode, the early-wake time and its data-lost flag).
//
// Port convention (docs/rtl-cosim.md): clk/rst_n, static configuration pins, one event per rising
// edge (ev_valid, ev = the C core's pm_event code, plus EV_BEGIN for pm_kernel_begin and
// EV_FILLED for pm_filled); mode is the state; access_wait/access_lost answer, combinationally,
// what pm_access() returns for an access in this cycle. One clock per owner cycle: the wake
// countdown replaces the C core's absolute ready cycle (the RTL assumes cycles from 1 on).
module snooze_ctrl #(
    parameter int WAKE_W = 17,    // wake latencies up to 100000 cycles (opt_limits.h)
    parameter int PEND_W = 30     // requests queued for the block (the C core's AUX_PENDING)
) (
    input  logic              clk,
    input  logic              rst_n,
    input  logic              destroy,      // snooze_destroy: live blocks are gated OFF too
    input  logic [WAKE_W-1:0] wake_sleep,   // cycles from Sleep back to ON
    input  logic [WAKE_W-1:0] wake_off,     // cycles from OFF back to ON
    input  logic              ev_valid,
    input  logic [3:0]        ev,
    output logic [1:0]        mode,         // pm_mode: 0 ON, 2 Sleep, 3 OFF
    output logic [WAKE_W-1:0] access_wait,
    output logic              access_lost
);
    localparam logic [3:0] EV_ALLOC = 0, EV_FREE = 1, EV_ACCESS = 2, EV_IDLE = 3, EV_ENQUEUE = 4,
                           EV_DEQUEUE = 5, EV_RESFAIL = 6, EV_FILL = 7, EV_FINISH = 8, EV_BEGIN = 9,
                           EV_FILLED = 10;
    localparam logic [1:0] ON = 2'd0, SLEEP = 2'd2, OFF = 2'd3;
    localparam logic [PEND_W-1:0] PEND_MAX = '1;

    logic [PEND_W-1:0] pending;
    logic              live, resfail;
    logic              woke, gone;      // an early wake is recorded / it woke from OFF (data lost)
    logic [WAKE_W-1:0] rem;             // cycles left of that wake

    wire [1:0]        rest = live ? SLEEP : OFF;
    wire [WAKE_W-1:0] wake_lat = mode == OFF ? wake_off : wake_sleep;

    always_comb begin
        if (mode == ON) begin
            access_wait = woke ? rem : '0;
            access_lost = gone;
        end else begin
            access_wait = wake_lat;
`ifdef GTLM_RTL_BREAK
            access_lost = mode == OFF;             // test-only bug: forgets data lost by an early wake
`else
            access_lost = mode == OFF || gone;
`endif
        end
    end

    // pm_set(m): entering a low-power mode undoes an early wake (the lost flag stays).
    task automatic set_mode(input logic [1:0] m);
        if (m != mode && m != ON) woke <= 1'b0;
        mode <= m;
    endtask
    // pm_wake(): from Sleep or OFF to ON, the wake counted from this edge.
    task automatic wake();
        if (mode != ON) begin
            woke <= 1'b1;
            gone <= mode == OFF;
            rem <= wake_lat == 0 ? '0 : wake_lat - 1'b1;
            mode <= ON;
        end
    endtask

    wire [PEND_W-1:0] pend_dec = pending == 0 ? '0 : pending - 1'b1;

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            mode <= ON;
            pending <= '0;
            live <= 1'b0;
            resfail <= 1'b0;
            woke <= 1'b0;
            gone <= 1'b0;
            rem <= '0;
        end else begin
            if (rem != 0) rem <= rem - 1'b1;
            if (ev_valid) begin
                case (ev)
                    EV_BEGIN: begin            // T1
                        pending <= '0;
                        resfail <= 1'b0;
                        woke <= 1'b0;
                        gone <= 1'b0;
                        mode <= !destroy && live ? SLEEP : OFF;
                    end
                    EV_ENQUEUE: begin          // T2, unless a failed reservation holds it asleep
                        if (pending != PEND_MAX) pending <= pending + 1'b1;
                        if (!resfail) wake();
                    end
                    EV_DEQUEUE: begin          // T4 after the last queued request
                        pending <= pend_dec;
                        if (pend_dec == 0 && mode == ON) set_mode(rest);
                    end
                    EV_ACCESS: begin           // pm_access: ON, the wake consumed; T4 if none queued
                        woke <= 1'b0;
                        gone <= 1'b0;
                        mode <= pending == 0 ? rest : ON;
                    end
                    EV_IDLE: if (pending == 0 && mode == ON) set_mode(rest);
                    EV_RESFAIL: begin          // T4 until a fill
                        resfail <= 1'b1;
                        if (mode == ON) set_mode(rest);
                    end
                    EV_FILL: begin             // T5
                        resfail <= 1'b0;
                        wake();
                    end
                    EV_ALLOC: begin            // the fill is written
                        live <= 1'b1;
                        resfail <= 1'b0;
                        set_mode(pending != 0 ? ON : SLEEP);
                    end
                    EV_FREE: begin             // nothing live: OFF
                        pending <= '0;
                        live <= 1'b0;
                        resfail <= 1'b0;
                        set_mode(OFF);
                    end
                    EV_FINISH: begin           // T6 / T7
                        pending <= '0;
                        resfail <= 1'b0;
                        set_mode(destroy ? OFF : rest);
                    end
                    EV_FILLED: begin           // pm_filled: nothing of the new data is lost
                        woke <= 1'b0;
                        gone <= 1'b0;
                    end
                    default: ;
                endcase
            end
        end
    end
endmodule
