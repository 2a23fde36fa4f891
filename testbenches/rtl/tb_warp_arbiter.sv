// Scoreboard testbench: rtl/sched/warp_arbiter.sv against the C core (sched_ref_dpi.c through
// DPI-C) every cycle. Random stimulus from a seeded xorshift; plusargs:
//   +gto=0|1  +nlocal=1..64  +cycles=N  +seed=S
// Stimulus is driven at the falling edge (the C reference chooses and hears the same events
// there); the rising edge compares the RTL's grant with the C core's first choice, then the RTL
// commits the events. The first mismatch stops the run naming the cycle and the signal.
/* verilator lint_off BLKSEQ */       // a testbench: stimulus by blocking assignments at negedge
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off SYNCASYNCNET */
module tb_warp_arbiter (input logic clk);
    import "DPI-C" function int ref_sched_init(input int gto, input int n_local);
    import "DPI-C" function int ref_sched_select(input longint ready);
    import "DPI-C" function int ref_sched_events(input int issue, input int exit_warp, input int start,
                                                 input longint age);

    localparam int N = 64;
    logic          rst_n = 1'b0, gto = 1'b0;
    logic [N-1:0]  ready = '0;
    logic          grant_valid;
    logic [5:0]    grant_warp;
    logic          issue_valid = 0, exit_valid = 0, start_valid = 0;
    logic [5:0]    issue_warp = 0, exit_warp = 0, start_warp = 0;
    logic [63:0]   start_age = 0;

    warp_arbiter #(.N(N)) dut (.*);

    int          n_local = 24, gto_arg = 0;
    longint unsigned live = 0, age_counter = 0;
    longint      cycle = 0, grants = 0, issues = 0, starts = 0;
    int          exp_warp = -1;

    `include "tb_common.svh"

    // a random set bit of m (m != 0)
    function automatic int pick(longint unsigned m);
        int k = int'(next_rand() % 64);
        for (int i = 0; i < 64; i++) begin
            int j = (k + i) % 64;
            if (m[j]) return j;
        end
        return -1;
    endfunction

    initial begin
        // with +replay=FILE the replay's initial block takes the policy and warps from the recording
        if (!$test$plusargs("replay=")) begin
            void'($value$plusargs("gto=%d", gto_arg));
            void'($value$plusargs("nlocal=%d", n_local));
            tb_common_args();
            gto = gto_arg != 0;
            if (n_local < 1 || n_local > N) begin
                $display("tb_warp_arbiter: +nlocal=%0d outside 1..%0d", n_local, N);
                tb_end(2);
            end
            if (ref_sched_init(gto_arg, n_local) != 0) begin
                tb_end(2);
            end
        end
    end

    longint unsigned all_mask;
    assign all_mask = n_local >= 64 ? '1 : (64'd1 << n_local) - 1;

    // Replay (+replay=FILE from `gtlm run --record-block sched FILE`): one cycle per recorded query
    // with the events recorded after it, split where one edge's ports cannot take them.
    int          queries = 0;
    logic        has_q = 1'b1;
    int          rec_first = -1;

    initial begin
        string pol;
        if ($value$plusargs("replay=%s", replay)) begin
            fd = $fopen(replay, "r");
            fetch();
            if (fd == 0 || !have_line || $sscanf(line, "policy %s n_local %d", pol, n_local) != 2 || n_local < 1 ||
                n_local > N) begin
                $display("tb_warp_arbiter: %s: not a scheduler recording (gtlm run --record-block sched FILE)", replay);
                tb_end(2);
            end
            have_line = 1'b0;
            gto_arg = pol == "gto" ? 1 : 0;
            gto = gto_arg != 0;
            void'(ref_sched_init(gto_arg, n_local));
        end
    end

    task automatic replay_stimulus(output int issue_w, output int exit_w, output int start_w);
        longint unsigned rdy = 0;
        longint          a = 0;
        int              w = 0;
        issue_w = -1;
        exit_w = -1;
        start_w = -1;
        has_q = 1'b0;
        while (1) begin
            fetch();
            if (!have_line) break;
            if (line.getc(0) == "q") begin
                if (has_q || issue_w >= 0 || exit_w >= 0 || start_w >= 0) break;
                void'($sscanf(line, "q %h %d", rdy, rec_first));
                has_q = 1'b1;
            end else if (line.getc(0) == "i") begin
                if (issue_w >= 0 || exit_w >= 0 || start_w >= 0) break;
                void'($sscanf(line, "i %d", issue_w));
            end else if (line.getc(0) == "x") begin
                if (exit_w >= 0 || start_w >= 0) break;
                void'($sscanf(line, "x %d", exit_w));
            end else if (line.getc(0) == "s") begin
                if (start_w >= 0) break;
                void'($sscanf(line, "s %d %d", w, a));
                start_w = w;
                start_age = 64'(a);
            end
            have_line = 1'b0;
        end
        ready = has_q ? rdy : '0;
        exp_warp = -1;
        if (has_q) begin
            queries++;
            exp_warp = ref_sched_select(longint'(ready));
            if (exp_warp != rec_first) begin
                $display("tb_warp_arbiter: the C core chose %0d where the recorded run chose %0d (record line %0d)",
                         exp_warp, rec_first, line_no);
                tb_end(2);
            end
        end
        if (at_eof && !has_q && issue_w < 0 && exit_w < 0 && start_w < 0) begin
            $display("tb_warp_arbiter: replay %s (%s n_local=%0d): %0d queries over %0d cycles, 0 mismatches",
                     replay, gto ? "gto" : "lrr", n_local, queries, cycle);
            tb_end(0);
        end
    endtask

    task automatic random_stimulus(output int issue_w, output int exit_w, output int start_w);
        longint unsigned r, dead;
        // ready: a random subset of the live warps, sometimes sparse, sometimes nearly all
        r = next_rand();
        case (r[1:0])
            2'd0: ready = next_rand() & next_rand() & next_rand() & live;
            2'd1: ready = (next_rand() | next_rand()) & live;
            default: ready = next_rand() & live;
        endcase
        exp_warp = ref_sched_select(longint'(ready));
        // issue: mostly the C core's choice, sometimes another ready warp (the first was refused)
        issue_w = -1;
        r = next_rand();
        if (ready != 0 && r[2:0] != 0) issue_w = (r[2:0] < 3'd6 && exp_warp >= 0) ? exp_warp : pick(ready);
        // exit: now and then a live warp, often the one just issued (its EXIT)
        exit_w = -1;
        r = next_rand();
        if (live != 0 && r[2:0] == 0) exit_w = (issue_w >= 0 && r[4]) ? issue_w : pick(live);
        // start: a dead warp (the exited slot too), ages mostly rising, sometimes small for ties
        start_w = -1;
        dead = ~live & all_mask;
        if (exit_w >= 0) dead[exit_w] = 1'b1;
        r = next_rand();
        if (dead != 0 && r[2:0] == 0) start_w = pick(dead);
        if (start_w >= 0) begin
            age_counter += 1;
            start_age = r[5:3] == 0 ? 64'(r[9:6]) : age_counter;
        end
    endtask

    always @(negedge clk) begin
        int issue_w, exit_w, start_w;
        rst_n <= 1'b1;
        if (fd != 0) replay_stimulus(issue_w, exit_w, start_w);
        else random_stimulus(issue_w, exit_w, start_w);
        if (ref_sched_events(issue_w, exit_w, start_w, longint'(start_age)) != 0) begin
            $display("tb_warp_arbiter: the C core refused an event at cycle %0d", cycle);
            tb_end(2);
        end
        issue_valid = issue_w >= 0;
        issue_warp = 6'(issue_w);
        exit_valid = exit_w >= 0;
        exit_warp = 6'(exit_w);
        start_valid = start_w >= 0;
        start_warp = 6'(start_w);
        if (exit_w >= 0) live[exit_w] = 1'b0;
        if (start_w >= 0) live[start_w] = 1'b1;
        issues += longint'(issue_valid);
        starts += longint'(start_valid);
    end

    always @(posedge clk) begin
        if (rst_n && has_q) begin
            if (grant_valid != (exp_warp >= 0)) begin
                $display("tb_warp_arbiter: first mismatch at cycle %0d: signal grant_valid rtl=%0d c=%0d (ready=%h, record line %0d)",
                         cycle, grant_valid, exp_warp >= 0, ready, line_no);
                tb_end(1);
            end else if (grant_valid && int'(grant_warp) != exp_warp) begin
                $display("tb_warp_arbiter: first mismatch at cycle %0d: signal grant_warp rtl=%0d c=%0d (ready=%h, record line %0d)",
                         cycle, grant_warp, exp_warp, ready, line_no);
                tb_end(1);
            end
            grants += longint'(grant_valid);
        end
        if (rst_n) begin
            cycle++;
            if (fd == 0 && cycle == longint'(cycles)) begin
                $display("tb_warp_arbiter: %s n_local=%0d seed=%0d: %0d cycles, 0 mismatches (%0d grants, %0d issues, %0d warp starts)",
                         gto ? "gto" : "lrr", n_local, seed, cycle, grants, issues, starts);
                tb_end(0);
            end
        end
    end
endmodule
