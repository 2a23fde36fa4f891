// Warp-scheduler issue arbiter: the RTL twin of model/sm/sched_lrr.c and sched_gto.c (selection
// over the READY warps of one scheduler; sched_registry.c keeps the same state in C).
//
// Port convention (docs/rtl-cosim.md): clk/rst_n, then the combinational query (ready in, grant
// out, valid in the same cycle), then the events the block hears, each a *_valid strobe sampled at
// the rising edge. Events of one edge commit in the C core's order within a cycle: issue, exit,
// start. Warps are local indices 0..N-1 of this scheduler.
//
// Selection (combinational): LRR takes the first ready warp at or after last_issued + 1, wrapping
// (from 0 before any issue); GTO takes the greedy warp (the last issued while it lives) when it is
// ready, else the ready warp with the smallest (age, index). Masking out a refused grant and asking
// again gives the C core's whole priority order, one grant per query.
module warp_arbiter #(
    parameter int N = 64,          // warp slots of one scheduler (at least the largest n_local)
    parameter int AGE_W = 64,      // launch age width (the C core's uint64_t)
    localparam int IW = $clog2(N)
) (
    input  logic             clk,
    input  logic             rst_n,
    input  logic             gto,          // 1: greedy-then-oldest, 0: loose round-robin (static)
    input  logic [N-1:0]     ready,
    output logic             grant_valid,
    output logic [IW-1:0]    grant_warp,
    input  logic             issue_valid,
    input  logic [IW-1:0]    issue_warp,
    input  logic             exit_valid,
    input  logic [IW-1:0]    exit_warp,
    input  logic             start_valid,
    input  logic [IW-1:0]    start_warp,
    input  logic [AGE_W-1:0] start_age
);
    logic             last_valid, greedy_valid;
    logic [IW-1:0]    last, greedy;
    logic [AGE_W-1:0] age [N];

    // LRR: rotating priority starting after the last issued warp. Ready bits above the C core's
    // n_local are 0, so rotating over N gives the same first hit as rotating over n_local.
    logic [IW-1:0] lrr_start;
`ifdef GTLM_RTL_BREAK
    assign lrr_start = last_valid ? last : '0;          // test-only bug: forgets the +1
`else
    assign lrr_start = last_valid ? last + 1'b1 : '0;   // wraps at N = 2^IW
`endif

    logic          lrr_found;
    logic [IW-1:0] lrr_pick;
    always_comb begin
        lrr_found = 1'b0;
        lrr_pick = '0;
        for (int k = 0; k < N; k++) begin
            logic [IW-1:0] j;
            j = lrr_start + IW'(k);
            if (!lrr_found && ready[j]) begin
                lrr_found = 1'b1;
                lrr_pick = j;
            end
        end
    end

    // GTO: oldest ready warp; ascending scan with a strict compare keeps the lower index on ties.
    logic             old_found;
    logic [IW-1:0]    old_pick;
    logic [AGE_W-1:0] old_age;
    always_comb begin
        old_found = 1'b0;
        old_pick = '0;
        old_age = '0;
        for (int j = 0; j < N; j++) begin
            if (ready[j] && (!old_found || age[j] < old_age)) begin
                old_found = 1'b1;
                old_pick = IW'(j);
                old_age = age[j];
            end
        end
    end

    wire greedy_ready = greedy_valid && ready[greedy];
    always_comb begin
        if (gto) begin
            grant_valid = greedy_ready || old_found;
            grant_warp = greedy_ready ? greedy : old_pick;
        end else begin
            grant_valid = lrr_found;
            grant_warp = lrr_pick;
        end
    end

    // Events. The greedy warp is forgotten when it exits (after an issue in the same edge).
    wire          greedy_v1 = issue_valid ? 1'b1 : greedy_valid;
    wire [IW-1:0] greedy_1 = issue_valid ? issue_warp : greedy;
    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            last_valid <= 1'b0;
            last <= '0;
            greedy_valid <= 1'b0;
            greedy <= '0;
        end else begin
            if (issue_valid) begin
                last_valid <= 1'b1;
                last <= issue_warp;
            end
            greedy_valid <= greedy_v1 && !(exit_valid && exit_warp == greedy_1);
            greedy <= greedy_1;
        end
    end

    always_ff @(posedge clk) begin
        if (start_valid) age[start_warp] <= start_age;
    end
endmodule
