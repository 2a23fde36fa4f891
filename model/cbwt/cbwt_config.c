#include "cbwt_config.h"

#include <limits.h>

#include "../config/opt_check.h"

const char *const cbwt_eq1_names[] = {"nmax", "current", NULL};
const char *const cbwt_pd_launch_names[] = {"keep", "reset", NULL};
const char *const cbwt_scope_names[] = {"global", "core", NULL};
const char *const cbwt_vb_launch_names[] = {"keep", "clear", NULL};
const char *const cbwt_step1_names[] = {"both", "congestion", NULL};

int cbwt_options_register(opt_registry *r, cbwt_config *c, strbuf *e)
{
    const char *b = "cbwt";
    int rc = 0;
    rc |= opt_add_int(r, b, "-cbwt_maw", &c->maw, "0", 0, 1024,
                      "static max active warps per warp scheduler (SWL-N under any scheduler), 0 = no limit", e);
    rc |= opt_add_bool(r, b, "-cbwt_ctrl", &c->ctrl, "0",
                       "CBWT: MAW controller on L2 victim bits, sampled NoC latency and the sampler L1's bypass ratio", e);
    rc |= opt_add_bool(r, b, "-cbwt_stats", &c->stats, "0",
                       "CBWT statistics without control: L2 victim bits, NoC latency samples, L1 reuse counts", e);
    rc |= opt_add_bool(r, b, "-cbwt_barrier_free", &c->barrier_free, "1",
                       "warps waiting at a barrier do not count against a warp limit (else SWL can deadlock)", e);
    rc |= opt_add_int(r, b, "-cbwt_t_w", &c->t_w, "10", 1, 1024, "MAW below which the controller steps by +-1 (doc: 10)", e);
    rc |= opt_add_double(r, b, "-cbwt_t_noc_h", &c->t_noc_h, "0", 0, 1e9,
                         "NoC latency above which MAW drops, icnt cycles (0: 4x the zero-load latency)", e);
    rc |= opt_add_double(r, b, "-cbwt_t_noc_l", &c->t_noc_l, "0", 0, 1e9,
                         "NoC latency below which MAW grows, icnt cycles (0: 2x the zero-load latency)", e);
    rc |= opt_add_double(r, b, "-cbwt_t_noc_g", &c->t_noc_g, "0.05", 0, 1,
                         "relative NoC latency drop after a decrement that decrements again (doc: 5%)", e);
    rc |= opt_add_double(r, b, "-cbwt_t_lls", &c->t_lls, "0.05", 0, 1, "lls_rate above which L1 contention is detected", e);
    rc |= opt_add_int(r, b, "-cbwt_period", &c->period, "16384", 1, INT_MAX,
                      "sampler-L1 (SM 0) loads per controller period (doc: 16K)", e);
    rc |= opt_add_int(r, b, "-cbwt_timeout", &c->timeout, "50000", 1, INT_MAX,
                      "core cycles after which a period ends even without its loads", e);
    rc |= opt_add_int(r, b, "-cbwt_l2_sample", &c->l2_sample, "64", 1, 65536,
                      "one in N sets of each L2 slice carries victim bits (doc: 1 in 64)", e);
    rc |= opt_add_int(r, b, "-cbwt_l2_share", &c->l2_share, "1", 1, 1024, "L1s sharing one victim bit", e);
    rc |= opt_add_int(r, b, "-cbwt_noc_sample", &c->noc_sample, "16", 1, 32768,
                      "one in N interconnect packets has its latency sampled (power of two)", e);
    rc |= opt_add_bool(r, b, "-cbwt_coarse_up", &c->coarse_up, "1",
                       "MAW >= T_w: an uncongested period (below T_NoC_L) raises MAW by one (0: the spec's no action)", e);
    rc |= opt_add_enum(r, b, "-cbwt_eq1", &c->eq1_base, cbwt_eq1_names, "nmax",
                       "Eq. 1 scales n_max (doc) or the current MAW by 1 - m_b/m", e);
    rc |= opt_add_bool(r, b, "-mrpb_stall_bypass", &c->mrpb_stall_bypass, "0",
                       "MRPB: an L1D load stalled for a line, MSHR or miss-queue slot bypasses to the L2", e);
    rc |= opt_add_int(r, b, "-mrpb_queues", &c->mrpb_queues, "0", 0, 64,
                      "MRPB: FIFOs (queue = warp mod N) reordering L1D requests per warp, 0 = no reorder buffer", e);
    rc |= opt_add_int(r, b, "-mrpb_depth", &c->mrpb_depth, "8", 1, 256, "MRPB: requests each FIFO holds", e);
    rc |= opt_add_bool(r, b, "-cbwt_lls_gate", &c->lls_gate, "0",
                       "PDP bypasses only while the last period's lls_rate exceeds T_LLS (contention detected)", e);
    rc |= opt_add_enum(r, b, "-cbwt_pd_launch", &c->pd_launch, cbwt_pd_launch_names, "keep",
                       "at each kernel launch keep the predicted PD or reset it to -pdp_pd", e);
    rc |= opt_add_enum(r, b, "-cbwt_maw_scope", &c->maw_scope, cbwt_scope_names, "global",
                       "CBWT: one MAW for the GPU from the sampler L1 (doc) or one per SM from its own L1, LLS and packets", e);
    rc |= opt_add_bool(r, b, "-cbwt_noc_src_queue", &c->noc_src_queue, "0",
                       "CBWT: NoC latency counts a packet's wait in its sender's queue (L1 miss/bypass, L2 response)", e);
    rc |= opt_add_enum(r, b, "-cbwt_vb_launch", &c->vb_launch, cbwt_vb_launch_names, "keep",
                       "at a kernel launch keep the L2 victim bits (doc: evictions clear them) or clear them (the L1s were invalidated)", e);
    rc |= opt_add_enum(r, b, "-cbwt_step1", &c->step1, cbwt_step1_names, "both",
                       "CBWT step 1 (Eq. 1) on contention and NoC congestion (doc) or on NoC congestion alone", e);
    return rc;
}

int cbwt_config_check(const opt_registry *r, const cbwt_config *c, strbuf *e)
{
    int bad = 0;
    bad |= opt_check(r, e, "-cbwt_noc_sample", (c->noc_sample & (c->noc_sample - 1)) == 0,
                     "must be a power of two, got %d", c->noc_sample);
    bad |= opt_check(r, e, "-cbwt_t_noc_l", c->t_noc_l <= c->t_noc_h || c->t_noc_h == 0,
                     "must not exceed -cbwt_t_noc_h (%g), got %g", c->t_noc_h, c->t_noc_l);
    bad |= opt_check(r, e, "-cbwt_lls_gate", !c->lls_gate || c->ctrl,
                     "needs the controller's periods: add -cbwt_ctrl 1");
    bad |= opt_check(r, e, "-cbwt_ctrl", !(c->ctrl && c->maw),
                     "the controller sets MAW itself: drop -cbwt_maw %d", c->maw);
    return bad ? -1 : 0;
}
