// Morpheus' Bloom-filter hit/miss predictor (bloom mode): the RTL twin of model/llc/bloom_pred.c.
// Two filters per extended set, BF1 and BF2; k H3 hashes (hash i, index bit j = parity of the key
// AND mask[i][j]; the masks are written through the mask port, from the C core's seed); the swap
// rule: every update inserts the key into both filters and counts it when BF2 lacked it; at
// `assoc` counted keys the old BF1 is cleared and the two swap roles.
//
// Port convention (docs/rtl-cosim.md): clk/rst_n; the mask port (one mask per edge); the query
// (q_set, q_key -> q_hit, combinational: BF1 holds the key); one operation per rising edge
// (op_valid, op 0 = update, 1 = note a pending fill, op_set, op_key, op_assoc), with op_swap
// telling, combinationally, whether this cycle's update swaps (bloom_update's return).
// A smaller filter than BITS (the C core's bits) works with the masks of the index bits above
// log2(bits) left 0; fewer hashes than K with hash_en.
module bloom_pred #(
    parameter int SETS = 16,
    parameter int BITS = 256,       // bits per filter, a power of two
    parameter int K = 4,            // hashes
    localparam int IB = $clog2(BITS),
    localparam int SW = $clog2(SETS),
    localparam int HW = K > 1 ? $clog2(K) : 1,
    localparam int BW = IB > 1 ? $clog2(IB) : 1
) (
    input  logic          clk,
    input  logic          rst_n,
    input  logic          mask_we,
    input  logic [HW-1:0] mask_hash,
    input  logic [BW-1:0] mask_bit,
    input  logic [63:0]   mask_data,
    input  logic [K-1:0]  hash_en,      // the hashes in use (the C core's k); unused masks stay 0
    input  logic [SW-1:0] q_set,
    input  logic [63:0]   q_key,
    output logic          q_hit,
    input  logic          op_valid,
    input  logic          op,
    input  logic [SW-1:0] op_set,
    input  logic [63:0]   op_key,
    input  logic [15:0]   op_assoc,
    output logic          op_swap
);
    logic [63:0]     mask [K][IB];
    logic [BITS-1:0] bf [SETS][2];
    logic            bf1 [SETS];     // which filter is BF1
    logic [15:0]     n [SETS];       // distinct keys inserted into BF2 since the last swap

    // the k bit positions of a key, as a one-hot-per-hash OR
    function automatic logic [BITS-1:0] bits_of(input logic [63:0] key);
        logic [BITS-1:0] v = '0;
        for (int i = 0; i < K; i++) begin
            logic [IB-1:0] h;
            for (int j = 0; j < IB; j++) h[j] = ^(key & mask[i][j]);
            v[h] = v[h] | hash_en[i];
        end
        return v;
    endfunction

    wire [BITS-1:0] q_bits = bits_of(q_key);
    assign q_hit = (bf[q_set][bf1[q_set]] & q_bits) == q_bits;

    wire [BITS-1:0] o_bits = bits_of(op_key);
    wire            o_sel = bf1[op_set];
    wire            in2 = (bf[op_set][!o_sel] & o_bits) == o_bits;
    wire [15:0]     n_next = n[op_set] + {15'd0, !in2};
`ifdef GTLM_RTL_BREAK
    assign op_swap = op_valid && op == 1'b0 && n_next > op_assoc;   // test-only bug: swaps one key late
`else
    assign op_swap = op_valid && op == 1'b0 && n_next >= op_assoc;
`endif

    always_ff @(posedge clk) begin
        if (mask_we) mask[mask_hash][mask_bit] <= mask_data;
    end

    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            for (int s = 0; s < SETS; s++) begin
                bf[s][0] <= '0;
                bf[s][1] <= '0;
                bf1[s] <= 1'b0;
                n[s] <= '0;
            end
        end else if (op_valid) begin
            if (op == 1'b1) begin                   // a pending fill: BF1 only
                bf[op_set][o_sel] <= bf[op_set][o_sel] | o_bits;
            end else if (op_swap) begin             // BF2 (with the key) becomes BF1; the old BF1 is cleared
                bf[op_set][o_sel] <= '0;
                bf[op_set][!o_sel] <= bf[op_set][!o_sel] | o_bits;
                bf1[op_set] <= !o_sel;
                n[op_set] <= '0;
            end else begin
                bf[op_set][o_sel] <= bf[op_set][o_sel] | o_bits;
                bf[op_set][!o_sel] <= bf[op_set][!o_sel] | o_bits;
                n[op_set] <= n_next;
            end
        end
    end
endmodule
