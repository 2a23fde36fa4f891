#include "llc_config.h"

#include <stdlib.h>

#include "../config/opt_check.h"
#include "sm_modes.h"

static const char *const predictors[] = {"bloom", "none", "perfect", NULL};
static const char *const storages[] = {"rf_l1", "rf", "l1", "smem", NULL};

int llc_options_register(opt_registry *r, llc_config *c, strbuf *e)
{
    const char *b = "morpheus";
    int rc = 0;
    rc |= opt_add_int(r, b, "-morpheus_cache_sms", &c->cache_sms, "0", 0, 4096,
                      "Morpheus: SMs in cache mode, the highest-numbered ones (0: Morpheus off)", e);
    rc |= opt_add_string(r, b, "-morpheus_cache_sm_list", &c->cache_sm_list, "",
                         "Morpheus: SMs in cache mode by id, e.g. 60,61,64-67 (instead of the count)", e);
    rc |= opt_add_int(r, b, "-morpheus_gated_sms", &c->gated_sms, "0", 0, 4096,
                      "SMs power-gated (IBL): the highest-numbered SMs below the cache-mode ones", e);
    rc |= opt_add_string(r, b, "-morpheus_gated_sm_list", &c->gated_sm_list, "",
                         "SMs power-gated by id, e.g. 0-9 (instead of the count)", e);
    rc |= opt_add_enum(r, b, "-morpheus_predictor", &c->predictor, predictors, "bloom",
                       "extended-LLC hit/miss predictor: bloom (two Bloom filters per set), none, perfect", e);
    rc |= opt_add_int(r, b, "-morpheus_bloom_bits", &c->bloom_bits, "256", 8, 65536,
                      "bits per Bloom filter, a power of two (the document: 32 bytes)", e);
    rc |= opt_add_int(r, b, "-morpheus_bloom_hashes", &c->bloom_hashes, "2", 1, 8,
                      "hash functions per Bloom filter (H3 family)", e);
    rc |= opt_add_bool(r, b, "-rtl_bloom", &c->rtl_bloom, "0",
                       "Morpheus' Bloom filters in the Verilated RTL rtl/llc/bloom_pred.sv instead of the C core "
                       "(identical results, slower; docs/rtl-cosim.md)", e);
    rc |= opt_add_string(r, b, "-rtl_record_bloom", &c->rtl_record_bloom, "",
                         "record L2 slice 0's Morpheus controller's Bloom queries and updates to this file for the RTL "
                         "testbench's replay (bloom predictor; \"\" = none; gtlm run --record-block bloom FILE)", e);
    rc |= opt_add_bool(r, b, "-morpheus_fn_fatal", &c->fn_fatal, "1",
                       "a predicted miss of a block the extended LLC holds stops the run (else it is counted)", e);
    rc |= opt_add_enum(r, b, "-morpheus_storage", &c->storage, storages, "rf_l1",
                       "storage a cache-mode SM gives the extended LLC: rf_l1, rf, l1, smem", e);
    rc |= opt_add_int(r, b, "-morpheus_warps", &c->warps, "48", 1, 64,
                      "helper-kernel warps per cache-mode SM, one extended set each", e);
    rc |= opt_add_int(r, b, "-morpheus_rf_warps", &c->rf_warps, "32", 0, 64,
                      "rf_l1: warps keeping their set in registers (the others use the L1)", e);
    rc |= opt_add_int(r, b, "-morpheus_aux_regs", &c->aux_regs, "9", 0, 255,
                      "auxiliary warp registers of an RF warp (the document's Fig. 8: 9)", e);
    rc |= opt_add_int(r, b, "-morpheus_l1_warp_regs", &c->l1_warp_regs, "6", 1, 255,
                      "warp registers of a warp whose set is in the L1 or shared memory", e);
    rc |= opt_add_int(r, b, "-morpheus_l1_kib", &c->l1_kib, "128", 0, 1 << 20,
                      "KiB of unified L1 a cache-mode SM gives the extended LLC", e);
    rc |= opt_add_int(r, b, "-morpheus_smem_kib", &c->smem_kib, "100", 0, 1 << 20,
                      "KiB of shared memory a cache-mode SM gives the extended LLC (smem variant)", e);
    rc |= opt_add_double(r, b, "-morpheus_svc_tag_ns", &c->svc_tag_ns, "103", 0, 1e6,
                         "server model: tag lookup time of a helper warp (ns)", e);
    rc |= opt_add_double(r, b, "-morpheus_svc_move_ns", &c->svc_move_ns, "31", 0, 1e6,
                         "server model: data move time of a hit, fill or write (ns)", e);
    rc |= opt_add_double(r, b, "-morpheus_svc_store_ns", &c->svc_store_ns, "51", 0, 1e6,
                         "server model: time to store the result in the controller's buffers (ns)", e);
    rc |= opt_add_bool(r, b, "-morpheus_compression", &c->compression, "0",
                       "BDI compression of extended-LLC blocks (Morpheus-Compression): 36/68/128-byte blocks, "
                       "dynamic associativity for the Bloom swap", e);
    rc |= opt_add_int(r, b, "-morpheus_bdi_base_bytes", &c->bdi_base_bytes, "4", 0, 64,
                      "bytes of a compressed block's base kept in an auxiliary register (G13)", e);
    rc |= opt_add_double(r, b, "-morpheus_svc_decomp_ns", &c->svc_decomp_ns, "31", 0, 1e6,
                         "server model: extra time to compress or decompress a compressed block (ns; 3 instructions)", e);
    rc |= opt_add_double(r, b, "-morpheus_ext_pj_per_byte", &c->ext_pj_per_byte, "61", 0, 1e6,
                         "energy per byte moved in or out of a cache-mode SM's extended-LLC storage (pJ)", e);
    rc |= opt_add_int(r, b, "-morpheus_ctl_latency", &c->ctl_latency, "-1", -1, 1 << 20,
                      "core cycles a request spends in the controller before its prediction (-1: -rop_latency)", e);
    rc |= opt_add_int(r, b, "-morpheus_queue_depth", &c->queue_depth, "32", 1, 1 << 16,
                      "request-queue entries of a Morpheus controller", e);
    rc |= opt_add_int(r, b, "-morpheus_wst_rows", &c->wst_rows, "128", 1, 1 << 16,
                      "warp-status-table rows (extended sets) per L2 slice (256 per two-slice partition)", e);
    rc |= llc_baseline_options_register(r, c, e);
    return rc;
}

int llc_config_check(const opt_registry *r, const llc_config *c, int n_sms, strbuf *e)
{
    int bad = 0;
    bad |= opt_check(r, e, "-morpheus_bloom_bits", (c->bloom_bits & (c->bloom_bits - 1)) == 0,
                     "must be a power of two, got %d", c->bloom_bits);
    bad |= opt_check_pair(r, e, "-morpheus_rf_warps", "-morpheus_warps", c->storage != LLC_ST_RF_L1 || c->rf_warps <= c->warps,
                     "must be at most -morpheus_warps (%d), got %d", c->warps, c->rf_warps);
    bad |= opt_check(r, e, "-morpheus_cache_sm_list", !(c->cache_sms && c->cache_sm_list && c->cache_sm_list[0]),
                     "give either -morpheus_cache_sms or -morpheus_cache_sm_list, not both");
    bad |= opt_check(r, e, "-morpheus_gated_sm_list", !(c->gated_sms && c->gated_sm_list && c->gated_sm_list[0]),
                     "give either -morpheus_gated_sms or -morpheus_gated_sm_list, not both");
    if (!bad && n_sms > 0) {
        uint8_t *modes = malloc((size_t)n_sms);
        if (!modes || sm_modes_resolve(c, n_sms, modes, r, e)) bad = 1;
        free(modes);
    }
    return bad ? -1 : 0;
}
