// Snooze's trimodal power-mode controller (ON / Sleep / OFF) of N cache blocks: the RTL twin of
// model/power/policy_snooze.c (snooze, snooze_destroy) over the per-block state of power_mode.c
// (mode, queued requests, live/reservation-fail flags, the early-wake ready cycle and its
// data-lost flag). Vectorised: one next-state datapath over a state RAM of N entries, one block
// per event (a cache has hundreds to thousands of power blocks; one module each would cost a
// module evaluation per block). N = 1 is the single-block controller.
//
// Port convention (docs/rtl-cosim.md): clk/rst_n, static configuration pins, one event per rising
// edge (ev_valid, ev = the C core's pm_event code, or EV_BEGIN/EV_FILLED/EV_ON/EV_CLEAR, blk the
// block, now the owner's cycle). The cycle is an input, as in the C core (pm_access(now)): an early
// wake stores its absolute ready cycle, so the controller needs no edge per owner cycle, only one
// per event. Outputs, combinational for the addressed block: mode (before the event), next_mode,
// woke (the event wakes it: one wake counted), access_wait/access_lost (what pm_access returns).
// The state is a RAM without reset, as a cache's arrays: EV_CLEAR initialises one block
// (pm_domain_init's state), the transactor sweeps it at attach.
module snooze_ctrl #(
    parameter int N = 1,                         // blocks
    parameter int BLK_W = N > 1 ? $clog2(N) : 1,
    parameter int WAKE_W = 20,                   // wake latencies below 10^6 cycles (-power_modes_*)
    parameter int PEND_W = 30                    // requests queued per block (the C core's AUX_PENDING)
) (
    input  logic              clk,
    input  logic              rst_n,
    input  logic              destroy,      // snooze_destroy: live blocks are gated OFF too
    input  logic [WAKE_W-1:0] wake_sleep,   // cycles from Sleep back to ON
    input  logic [WAKE_W-1:0] wake_off,     // cycles from OFF back to ON
    input  logic              ev_valid,
    input  logic [3:0]        ev,
    input  logic [BLK_W-1:0]  blk,
    input  logic [63:0]       now,
    output logic [1:0]        mode,         // pm_mode: 0 ON, 2 Sleep, 3 OFF
    output logic [1:0]        next_mode,
    output logic              woke,
    output logic [WAKE_W-1:0] access_wait,
    output logic              access_lost
);
    localparam logic [3:0] EV_ALLOC = 0, EV_FREE = 1, EV_ACCESS = 2, EV_IDLE = 3, EV_ENQUEUE = 4,
                           EV_DEQUEUE = 5, EV_RESFAIL = 6, EV_FILL = 7, EV_FINISH = 8, EV_BEGIN = 9,
                           EV_FILLED = 10, EV_ON = 11, EV_CLEAR = 12;
    localparam logic [1:0] ON = 2'd0, SLEEP = 2'd2, OFF = 2'd3;
    localparam logic [PEND_W-1:0] PEND_MAX = '1;

    // the state RAM, one entry per block
    logic [1:0]        mode_q   [N];
    logic [PEND_W-1:0] pend_q   [N];
    logic              live_q   [N];
    logic              resfail_q[N];
    logic              woke_q   [N];    // an early wake is recorded (the C core's ready != 0)
    logic              gone_q   [N];    // it woke from OFF: the data is lost
    logic [63:0]       ready_q  [N];    // the cycle that wake completes

    // the addressed block's entry
    wire [1:0]        r_mode = mode_q[blk];
    wire [PEND_W-1:0] r_pend = pend_q[blk];
    wire              r_live = live_q[blk], r_resfail = resfail_q[blk], r_woke = woke_q[blk], r_gone = gone_q[blk];
    wire [63:0]       r_ready = ready_q[blk];

    wire [1:0]        rest = r_live ? SLEEP : OFF;
    wire [WAKE_W-1:0] wake_lat = r_mode == OFF ? wake_off : wake_sleep;
    wire [63:0]       diff = r_ready - now;                    // at most wake_lat while the wake runs
    wire [WAKE_W-1:0] left = r_ready > now ? diff[WAKE_W-1:0] : '0;
    wire              unused_diff = ^diff[63:WAKE_W];
    wire [PEND_W-1:0] pend_dec = r_pend == 0 ? '0 : r_pend - 1'b1;

    logic [1:0]        n_mode;
    logic [PEND_W-1:0] n_pend;
    logic              n_live, n_resfail, n_woke, n_gone;
    logic [63:0]       n_ready;

    assign mode = r_mode;
    assign next_mode = n_mode;

    always_comb begin
        if (r_mode == ON) begin
            access_wait = r_woke ? left : '0;
            access_lost = r_gone;
        end else begin
            access_wait = wake_lat;
`ifdef GTLM_RTL_BREAK
            access_lost = r_mode == OFF;             // test-only bug: forgets data lost by an early wake
`else
            access_lost = r_mode == OFF || r_gone;
`endif
        end
    end

    // pm_set(m): entering a low-power mode undoes an early wake (the lost flag stays).
    function automatic void set_mode(input logic [1:0] m);
        if (m != r_mode && m != ON) n_woke = 1'b0;
        n_mode = m;
    endfunction
    // pm_wake(): from Sleep or OFF to ON, ready wake_lat cycles from now.
    function automatic void wake();
        if (r_mode != ON) begin
            woke = 1'b1;
            n_woke = 1'b1;
            n_gone = r_mode == OFF;
            n_ready = now + 64'(wake_lat);
            n_mode = ON;
        end
    endfunction

    always_comb begin
        n_mode = r_mode;
        n_pend = r_pend;
        n_live = r_live;
        n_resfail = r_resfail;
        n_woke = r_woke;
        n_gone = r_gone;
        n_ready = r_ready;
        woke = 1'b0;
        case (ev)
            EV_BEGIN: begin                    // T1
                n_pend = '0;
                n_resfail = 1'b0;
                n_woke = 1'b0;
                n_gone = 1'b0;
                n_mode = !destroy && r_live ? SLEEP : OFF;
            end
            EV_ENQUEUE: begin                  // T2, unless a failed reservation holds it asleep
                if (r_pend != PEND_MAX) n_pend = r_pend + 1'b1;
                if (!r_resfail) wake();
            end
            EV_DEQUEUE: begin                  // T4 after the last queued request
                n_pend = pend_dec;
                if (pend_dec == 0 && r_mode == ON) set_mode(rest);
            end
            EV_ACCESS: begin                   // pm_access: ON, the wake consumed; T4 if none queued
                woke = r_mode != ON;
                n_woke = 1'b0;
                n_gone = 1'b0;
                n_mode = r_pend == 0 ? rest : ON;
            end
            EV_IDLE: if (r_pend == 0 && r_mode == ON) set_mode(rest);
            EV_RESFAIL: begin                  // T4 until a fill
                n_resfail = 1'b1;
                if (r_mode == ON) set_mode(rest);
            end
            EV_FILL: begin                     // T5
                n_resfail = 1'b0;
                wake();
            end
            EV_ALLOC: begin                    // the fill is written
                n_live = 1'b1;
                n_resfail = 1'b0;
                set_mode(r_pend != 0 ? ON : SLEEP);
            end
            EV_FREE: begin                     // nothing live: OFF
                n_pend = '0;
                n_live = 1'b0;
                n_resfail = 1'b0;
                set_mode(OFF);
            end
            EV_FINISH: begin                   // T6 / T7
                n_pend = '0;
                n_resfail = 1'b0;
                set_mode(destroy ? OFF : rest);
            end
            EV_FILLED: begin                   // pm_filled: nothing of the new data is lost
                n_woke = 1'b0;
                n_gone = 1'b0;
            end
            EV_ON: n_mode = ON;                // the owner's pm_set(ON): a fill writes the block
            EV_CLEAR: begin                    // pm_domain_init: ON, nothing queued or live
                n_mode = ON;
                n_pend = '0;
                n_live = 1'b0;
                n_resfail = 1'b0;
                n_woke = 1'b0;
                n_gone = 1'b0;
                n_ready = '0;
            end
            default: ;
        endcase
    end

    // rst_n only holds events off: the RAM keeps its contents (EV_CLEAR initialises it).
    always_ff @(posedge clk) begin
        if (rst_n && ev_valid) begin
            mode_q[blk] <= n_mode;
            pend_q[blk] <= n_pend;
            live_q[blk] <= n_live;
            resfail_q[blk] <= n_resfail;
            woke_q[blk] <= n_woke;
            gone_q[blk] <= n_gone;
            ready_q[blk] <= n_ready;
        end
    end
endmodule
