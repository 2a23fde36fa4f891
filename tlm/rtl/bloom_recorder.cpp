// Records one Morpheus Bloom predictor's input/output sequence from a real run (-rtl_record_bloom
// FILE, or `gtlm run --record-block bloom FILE`): L2 slice 0's controller, its H3 masks, then every
// BF1 query with its answer and every update (with its swap answer) and pending insert, for replay
// by the RTL testbench (testbenches/rtl/tb_bloom_pred.sv +replay=FILE). It wraps the RTL filters
// when -rtl_bloom is on, else a shadow C predictor with the same masks (bloom_ext seam), and
// changes nothing of the run.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "rtl/rtl_blocks.h"

namespace gtlm {
namespace {

class BloomRecorder {
public:
    BloomRecorder(const bloom_pred *p, std::FILE *f) : inner_(p->ext), f_(f)
    {
        if (!inner_.bf1_has) {
            shadow_ok_ = bloom_init(&shadow_, LLC_PRED_BLOOM, p->n_sets, p->bits, p->k, 0, 1) == 0;
            std::memcpy(shadow_.mask, p->mask, sizeof shadow_.mask);
        }
        std::fprintf(f_, "# gtlm block recording: bloom (L2 slice 0's Morpheus controller); m HASH BIT MASK_HEX | "
                         "q SET KEY_HEX HIT | u SET KEY_HEX ASSOC SWAP | p SET KEY_HEX\n");
        std::fprintf(f_, "bloom sets %u bits %u k %u\n", p->n_sets, p->bits, p->k);
        for (uint32_t i = 0; i < p->k; i++)
            for (uint32_t j = 0; j < p->index_bits; j++) std::fprintf(f_, "m %u %u %" PRIx64 "\n", i, j, p->mask[i][j]);
    }
    ~BloomRecorder()
    {
        std::fclose(f_);
        if (inner_.destroy) inner_.destroy(inner_.ctx);
        if (shadow_ok_) bloom_free(&shadow_);
    }
    bool ok() const { return inner_.bf1_has || shadow_ok_; }
    int query(uint32_t set, uint64_t key)
    {
        int hit = inner_.bf1_has ? inner_.bf1_has(inner_.ctx, set, key) : bloom_bf1_has(&shadow_, set, key);
        std::fprintf(f_, "q %u %" PRIx64 " %d\n", set, key, hit);
        return hit;
    }
    int update(uint32_t set, uint64_t key, uint32_t assoc)
    {
        int swap = inner_.update ? inner_.update(inner_.ctx, set, key, assoc) : bloom_update(&shadow_, set, key, assoc);
        std::fprintf(f_, "u %u %" PRIx64 " %u %d\n", set, key, assoc, swap);
        return swap;
    }
    void pending(uint32_t set, uint64_t key)
    {
        if (inner_.note_pending) inner_.note_pending(inner_.ctx, set, key);
        else bloom_note_pending(&shadow_, set, key);
        std::fprintf(f_, "p %u %" PRIx64 "\n", set, key);
    }

private:
    bloom_ext inner_;
    bloom_pred shadow_{};
    bool shadow_ok_ = false;
    std::FILE *f_;
};

BloomRecorder *self(void *ctx) { return static_cast<BloomRecorder *>(ctx); }

} // namespace

int rtl_bloom_record(bloom_pred *p, const char *path, std::string &err)
{
    if (p->mode != LLC_PRED_BLOOM) {
        err = "recording covers the bloom predictor (-morpheus_predictor bloom)";
        return -1;
    }
    std::FILE *f = std::fopen(path, "w");
    if (!f) {
        err = std::string("cannot write ") + path;
        return -1;
    }
    auto *r = new BloomRecorder(p, f);
    if (!r->ok()) {
        delete r;
        err = "out of memory";
        return -1;
    }
    p->ext.ctx = r;
    p->ext.bf1_has = [](void *ctx, uint32_t set, uint64_t key) { return self(ctx)->query(set, key); };
    p->ext.update = [](void *ctx, uint32_t set, uint64_t key, uint32_t assoc) { return self(ctx)->update(set, key, assoc); };
    p->ext.note_pending = [](void *ctx, uint32_t set, uint64_t key) { self(ctx)->pending(set, key); };
    p->ext.destroy = [](void *ctx) { delete self(ctx); };
    return 0;
}

} // namespace gtlm
