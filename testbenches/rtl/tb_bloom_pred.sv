// Scoreboard testbench: rtl/llc/bloom_pred.sv against Morpheus' C predictor (bloom_ref_dpi.c
// through DPI-C) every cycle: the query's hit and the update's swap. The first K*IB cycles load the
// C core's H3 masks through the mask port. Keys come from a small pool of lines per set, so filters
// fill, collide and swap. Plusargs: +cycles=N +seed=S +k=1..K +bits=8..256, or +replay=FILE: a
// recording of a real run (`gtlm run --record-block bloom FILE`): its masks, then one cycle per
// recorded query or operation, the C core also checked against the recorded answers. Built with
// TB_REPLAY_SIZE for recordings: 64 sets (a controller's extended sets at tiny size: 12-20) and the
// model's 8 hashes (the model's 1024 sets would take over 10 minutes to compile, unrolled).
/* verilator lint_off BLKSEQ */       // a testbench: stimulus by blocking assignments at negedge
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off SYNCASYNCNET */
module tb_bloom_pred (input logic clk);
    import "DPI-C" function int ref_bloom_init(input int sets, input int bits, input int k, input longint seed);
    import "DPI-C" function longint ref_bloom_mask(input int i, input int j);
    import "DPI-C" function int ref_bloom_query(input int set_i, input longint key);
    import "DPI-C" function int ref_bloom_op(input int op_i, input int set_i, input longint key, input int assoc);
    import "DPI-C" function void ref_bloom_set_mask(input int i, input int j, input longint mask);

`ifdef TB_REPLAY_SIZE
    localparam int SETS = 64, K = 8;
`else
    localparam int SETS = 16, K = 4;
`endif
    localparam int BITS = 256, IB = 8, SW = $clog2(SETS), HW = $clog2(K);
    logic          rst_n = 1'b0, mask_we = 1'b0, q_hit, op_valid = 1'b0, op = 1'b0, op_swap;
    logic [HW-1:0] mask_hash = '0;
    logic [2:0]    mask_bit = '0;
    logic [63:0]   mask_data = '0, q_key = '0, op_key = '0;
    logic [SW-1:0] q_set = '0, op_set = '0;
    logic [15:0]   op_assoc = 16'd4;
    logic [K-1:0]  hash_en = '1;
    longint        rec_mask [K][IB];
    int            rec_sets = SETS, records = 0;

    bloom_pred #(.SETS(SETS), .BITS(BITS), .K(K)) dut (.*);

    int     load = 0, k = K, bits = BITS, ib = IB;
    longint cycle = 0, hits = 0, swaps = 0;
    int     exp_hit = 0, exp_swap = 0;
    logic   check_q = 1'b1;

    `include "tb_common.svh"
    // a line address from a pool of 48 per set (more than the largest associativity, 12)
    function automatic longint line_key(int set);
        return longint'((next_rand() % 48) * 64'd16 + 64'(set)) << 7;
    endfunction

    // +replay: the header and the masks; the records follow, read one per cycle.
    task automatic replay_header();
        int i, j;
        longint m;
        fd = $fopen(replay, "r");
        if (fd != 0) fetch();
        if (fd == 0 || !have_line || $sscanf(line, "bloom sets %d bits %d k %d", rec_sets, bits, k) != 3) begin
            $display("tb_bloom_pred: %s: not a Bloom recording (gtlm run --record-block bloom FILE)", replay);
            tb_end(2);
        end
        have_line = 1'b0;
        foreach (rec_mask[a, b]) rec_mask[a][b] = 0;
        fetch();
        while (have_line && line.getc(0) == "m") begin
            if ($sscanf(line, "m %d %d %h", i, j, m) != 3 || i < 0 || i >= K || j < 0 || j >= IB) begin
                $display("tb_bloom_pred: %s line %0d: bad mask '%s'", replay, line_no, line);
                tb_end(2);
            end
            rec_mask[i][j] = m;
            have_line = 1'b0;
            fetch();
        end
    endtask

    initial begin
        tb_common_args();
        void'($value$plusargs("k=%d", k));
        void'($value$plusargs("bits=%d", bits));
        if ($value$plusargs("replay=%s", replay)) replay_header();
        if (k < 1 || k > K || bits < 8 || bits > BITS || rec_sets < 1 || rec_sets > SETS) begin
            $display("tb_bloom_pred: k=%0d bits=%0d sets=%0d: expected k in 1..%0d, bits in 8..%0d, sets up to %0d", k, bits,
                     rec_sets, K, BITS, SETS);
            tb_end(2);
        end
        ib = $clog2(bits);
        hash_en = K'((1 << k) - 1);
        if (ref_bloom_init(SETS, bits, k, seed) != 0) begin
            tb_end(2);
        end
        if (fd != 0)
            for (int i = 0; i < k; i++)
                for (int j = 0; j < ib; j++) ref_bloom_set_mask(i, j, rec_mask[i][j]);
    end

    // One recorded query or operation per cycle; the C core must give the recorded answer.
    task automatic replay_stimulus();
        int s, a, r, n;
        longint key;
        byte c;
        fetch();
        if (at_eof) begin
            $display("tb_bloom_pred: replay %s (sets=%0d bits=%0d k=%0d): %0d records over %0d cycles, 0 mismatches (%0d predicted hits, %0d swaps)",
                     replay, rec_sets, bits, k, records, cycle, hits, swaps);
            tb_end(0);
        end
        have_line = 1'b0;
        c = line.getc(0);
        r = -1;
        if (c == "q") n = $sscanf(line, "q %d %h %d", s, key, r);
        else if (c == "u") n = $sscanf(line, "u %d %h %d %d", s, key, a, r) - 1;
        else if (c == "p") n = $sscanf(line, "p %d %h", s, key) + 1;
        else n = 0;
        if (n != 3 || s < 0 || s >= rec_sets) begin
            $display("tb_bloom_pred: %s line %0d: expected 'q SET KEY HIT', 'u SET KEY ASSOC SWAP' or 'p SET KEY', got '%s'",
                     replay, line_no, line);
            tb_end(2);
        end
        records++;
        check_q = c == "q";
        q_set = SW'(s);
        q_key = key;
        exp_hit = ref_bloom_query(s, key);
        op_valid = c != "q";
        op = c == "p";
        op_set = SW'(s);
        op_key = key;
        op_assoc = 16'(c == "u" ? a : 0);
        exp_swap = 0;
        if (op_valid) exp_swap = ref_bloom_op(int'(op), s, key, int'(op_assoc));
        if ((c == "q" && r != exp_hit) || (c == "u" && r != exp_swap)) begin
            $display("tb_bloom_pred: the C core does not reproduce %s line %0d '%s': it answers %0d", replay, line_no,
                     line, c == "q" ? exp_hit : exp_swap);
            tb_end(1);
        end
    endtask

    always @(negedge clk) begin
        int s, qs;
        rst_n <= 1'b1;
        mask_we = load < K * IB;
        op_valid = 1'b0;
        if (mask_we) begin                       // load the masks first
            mask_hash = HW'(load / IB);
            mask_bit = 3'(load % IB);
            // the C core's masks; 0 for unused hashes and for index bits above log2(bits)
            mask_data = 0;
            if (load / IB < k && load % IB < ib)
                mask_data = fd != 0 ? 64'(rec_mask[load / IB][load % IB]) : 64'(ref_bloom_mask(load / IB, load % IB));
            load++;
        end else if (fd != 0) begin
            replay_stimulus();
        end else begin
            qs = int'(next_rand() % 64'(SETS));
            q_set = SW'(qs);
            q_key = 64'(line_key(qs));
            exp_hit = ref_bloom_query(qs, q_key);
            s = int'(next_rand() % 64'(SETS));
            op_valid = next_rand() % 8 < 5;
            op = next_rand() % 5 == 0;           // a fifth are pending fills
            op_set = SW'(s);
            op_key = 64'(line_key(s));
            op_assoc = 16'(4 + s % 9);           // 4..12 ways per extended set
            // an if, not ?: (Verilator evaluates both arms of ?: even when one calls an import)
            exp_swap = 0;
            if (op_valid) exp_swap = ref_bloom_op(int'(op), s, op_key, int'(op_assoc));
        end
    end

    task automatic mismatch(input string signal, input int rtl, input int c);
        $display("tb_bloom_pred: first mismatch at cycle %0d: signal %s rtl=%0d c=%0d (query set %0d key %h, op %0d set %0d key %h)",
                 cycle, signal, rtl, c, q_set, q_key, op_valid ? int'(op) : -1, op_set, op_key);
        tb_end(1);
    endtask

    always @(posedge clk) begin
        if (rst_n && !mask_we) begin
            if (check_q && int'(q_hit) != exp_hit) mismatch("q_hit", int'(q_hit), exp_hit);
            else if (int'(op_swap) != exp_swap) mismatch("op_swap", int'(op_swap), exp_swap);
            hits += longint'(q_hit && check_q);
            swaps += longint'(op_swap);
            cycle++;
            if (fd == 0 && cycle == longint'(cycles)) begin
                $display("tb_bloom_pred: sets=%0d bits=%0d k=%0d seed=%0d: %0d cycles, 0 mismatches (%0d predicted hits, %0d swaps)",
                         SETS, bits, k, seed, cycle, hits, swaps);
                tb_end(0);
            end
        end
    end
endmodule
