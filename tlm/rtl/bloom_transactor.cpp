// Transactor for Morpheus' Bloom-filter predictor: the Verilated rtl/llc/bloom_pred.sv holds the
// filters of one controller in place of the C core's (bloom_pred.h's bloom_ext seam).
//
// A query (bloom_bf1_has) is the q_* pins and a combinational evaluation. An update or a pending
// insert is the op_* pins, an evaluation (op_swap is bloom_update's return) and one rising edge:
// the RTL takes one operation per edge, and the controller's operations of one L2 cycle come one
// after the other in the C core too. The H3 masks are written through the mask port at attach.
// With a model VCD the pins and small registers go to the RTL VCD (rtl_trace.h; the filter arrays
// are larger than Verilator's traced-array limit and stay out).
#include <memory>

#include "Vbloom_pred.h"
#include "verilated.h"

#include "rtl/rtl_blocks.h"
#include "rtl/rtl_trace.h"

extern "C" {
#include "config/opt_check.h"
}

namespace gtlm {
namespace {

// The Verilated instance's size (rtl/CMakeLists.txt): the configurations it can serve.
constexpr uint32_t kSets = 1024, kBits = 256, kHashes = 8, kIndexBits = 8;

class BloomTransactor {
public:
    BloomTransactor(const bloom_pred *p, const std::string &name, const char *vcd_file) : top_(vcd_file, name)
    {
        top_->clk = 0;
        top_->rst_n = 1;
        top_->eval();
        top_->rst_n = 0;
        top_->eval();
        top_->rst_n = 1;
        top_->hash_en = (1u << p->k) - 1;
        // the C core's masks; 0 for the unused hashes and the index bits above log2(bits)
        for (uint32_t i = 0; i < kHashes; i++)
            for (uint32_t j = 0; j < kIndexBits; j++) {
                top_->mask_we = 1;
                top_->mask_hash = i;
                top_->mask_bit = j;
                top_->mask_data = i < p->k && j < p->index_bits ? p->mask[i][j] : 0;
                edge();
            }
        top_->mask_we = 0;
        top_->eval();
    }
    int query(uint32_t set, uint64_t key)
    {
        top_.touch();
        top_->q_set = set;
        top_->q_key = key;
        top_->eval();
        return top_->q_hit;
    }
    int operate(int op, uint32_t set, uint64_t key, uint32_t assoc)
    {
        top_.touch();
        top_->op_valid = 1;
        top_->op = op;
        top_->op_set = set;
        top_->op_key = key;
        top_->op_assoc = assoc > 0xffff ? 0xffff : assoc;
        top_->eval();
        int swap = top_->op_swap;
        edge();
        top_->op_valid = 0;
        top_->eval();
        return swap;
    }

private:
    void edge()
    {
        top_->clk = 1;
        top_->eval();
        top_->clk = 0;
        top_->eval();
    }
    RtlModel<Vbloom_pred> top_;
};

BloomTransactor *self(void *ctx) { return static_cast<BloomTransactor *>(ctx); }

} // namespace

int rtl_bloom_check(const opt_registry *r, const gtlm_config *cfg, strbuf *err)
{
    const llc_config &c = cfg->morpheus;
    if (!c.rtl_bloom) return 0;
    int bad = 0;
    bad |= opt_check(r, err, "-rtl_bloom", c.bloom_bits <= static_cast<int>(kBits),
                     "the RTL predictor holds filters of at most %u bits, -morpheus_bloom_bits is %d", kBits, c.bloom_bits);
    bad |= opt_check(r, err, "-rtl_bloom", c.wst_rows <= static_cast<int>(kSets),
                     "the RTL predictor holds at most %u extended sets per controller, -morpheus_wst_rows is %d", kSets,
                     c.wst_rows);
    return bad ? -1 : 0;
}

int rtl_bloom_attach(bloom_pred *p, const std::string &name, const char *vcd_file, std::string &err)
{
    if (p->mode != LLC_PRED_BLOOM) return 0; // none / perfect: no filters to replace
    if (p->n_sets > kSets || p->bits > kBits || p->k > kHashes) {
        err = "the RTL predictor holds at most 1024 sets of 256-bit filters with 8 hashes";
        return -1;
    }
    auto *t = new BloomTransactor(p, name, vcd_file);
    p->ext.ctx = t;
    p->ext.bf1_has = [](void *ctx, uint32_t set, uint64_t key) { return self(ctx)->query(set, key); };
    p->ext.update = [](void *ctx, uint32_t set, uint64_t key, uint32_t assoc) {
        return self(ctx)->operate(0, set, key, assoc);
    };
    p->ext.note_pending = [](void *ctx, uint32_t set, uint64_t key) { self(ctx)->operate(1, set, key, 0); };
    p->ext.destroy = [](void *ctx) { delete self(ctx); };
    return 0;
}

} // namespace gtlm
