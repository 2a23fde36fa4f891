// Scoreboard testbench: rtl/llc/bloom_pred.sv against Morpheus' C predictor (bloom_ref_dpi.c
// through DPI-C) every cycle: the query's hit and the update's swap. The first K*IB cycles load the
// C core's H3 masks through the mask port. Keys come from a small pool of lines per set, so filters
// fill, collide and swap. Plusargs: +cycles=N +seed=S +k=1..4 +bits=8..256
/* verilator lint_off BLKSEQ */       // a testbench: stimulus by blocking assignments at negedge
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off SYNCASYNCNET */
module tb_bloom_pred (input logic clk);
    import "DPI-C" function int ref_bloom_init(input int sets, input int bits, input int k, input longint seed);
    import "DPI-C" function longint ref_bloom_mask(input int i, input int j);
    import "DPI-C" function int ref_bloom_query(input int set_i, input longint key);
    import "DPI-C" function int ref_bloom_op(input int op_i, input int set_i, input longint key, input int assoc);

    localparam int SETS = 16, BITS = 256, K = 4, IB = 8;
    logic        rst_n = 1'b0, mask_we = 1'b0, q_hit, op_valid = 1'b0, op = 1'b0, op_swap;
    logic [1:0]  mask_hash = '0;
    logic [2:0]  mask_bit = '0;
    logic [63:0] mask_data = '0, q_key = '0, op_key = '0;
    logic [3:0]  q_set = '0, op_set = '0;
    logic [15:0] op_assoc = 16'd4;
    logic [3:0]  hash_en = '1;

    bloom_pred #(.SETS(SETS), .BITS(BITS), .K(K)) dut (.*);

    int     load = 0, k = K, bits = BITS, ib = IB;
    longint cycle = 0, hits = 0, swaps = 0;
    int     exp_hit = 0, exp_swap = 0;

    `include "tb_common.svh"
    // a line address from a pool of 48 per set (more than the largest associativity, 12)
    function automatic longint line_key(int set);
        return longint'((next_rand() % 48) * 64'd16 + 64'(set)) << 7;
    endfunction

    initial begin
        tb_common_args();
        void'($value$plusargs("k=%d", k));
        void'($value$plusargs("bits=%d", bits));
        if (k < 1 || k > K || bits < 8 || bits > BITS) begin
            $display("tb_bloom_pred: +k=%0d +bits=%0d: expected k in 1..%0d, bits in 8..%0d", k, bits, K, BITS);
            tb_end(2);
        end
        ib = $clog2(bits);
        hash_en = 4'((1 << k) - 1);
        if (ref_bloom_init(SETS, bits, k, seed) != 0) begin
            tb_end(2);
        end
    end

    always @(negedge clk) begin
        int s, qs;
        rst_n <= 1'b1;
        mask_we = load < K * IB;
        op_valid = 1'b0;
        if (mask_we) begin                       // load the masks first
            mask_hash = 2'(load / IB);
            mask_bit = 3'(load % IB);
            // the C core's masks; 0 for unused hashes and for index bits above log2(bits)
            mask_data = 0;
            if (load / IB < k && load % IB < ib) mask_data = 64'(ref_bloom_mask(load / IB, load % IB));
            load++;
        end else begin
            qs = int'(next_rand() % 64'(SETS));
            q_set = 4'(qs);
            q_key = 64'(line_key(qs));
            exp_hit = ref_bloom_query(qs, q_key);
            s = int'(next_rand() % 64'(SETS));
            op_valid = next_rand() % 8 < 5;
            op = next_rand() % 5 == 0;           // a fifth are pending fills
            op_set = 4'(s);
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
            if (int'(q_hit) != exp_hit) mismatch("q_hit", int'(q_hit), exp_hit);
            else if (int'(op_swap) != exp_swap) mismatch("op_swap", int'(op_swap), exp_swap);
            hits += longint'(q_hit);
            swaps += longint'(op_swap);
            cycle++;
            if (cycle == longint'(cycles)) begin
                $display("tb_bloom_pred: sets=%0d bits=%0d k=%0d seed=%0d: %0d cycles, 0 mismatches (%0d predicted hits, %0d swaps)",
                         SETS, bits, k, seed, cycle, hits, swaps);
                tb_end(0);
            end
        end
    end
endmodule
