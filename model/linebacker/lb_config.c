#include "lb_config.h"

#include <limits.h>

#include "../config/opt_check.h"

int lb_options_register(opt_registry *r, lb_config *c, strbuf *e)
{
    const char *b = "linebacker";
    int rc = 0;
    rc |= opt_add_bool(r, b, "-lb_enable", &c->enable, "0", "Linebacker: cache useful L1 victims in unused registers", e);
    rc |= opt_add_bool(r, b, "-lb_victim_all", &c->victim_all, "0",
                       "Linebacker's VC variant: keep every L1 victim, no load monitoring", e);
    rc |= opt_add_int(r, b, "-lb_period", &c->period, "50000", 1, INT_MAX, "core cycles per monitoring and IPC period", e);
    rc |= opt_add_double(r, b, "-lb_hit_threshold", &c->hit_threshold, "0.2", 0, 1,
                         "hit ratio (L1 or victim tags) above which a load is high-locality", e);
    rc |= opt_add_int(r, b, "-lb_vtt_ways", &c->vtt_ways, "32", 1, 32, "ways of the victim tag table (sets: the L1's)", e);
    rc |= opt_add_int(r, b, "-lb_vp_ways", &c->vp_ways, "4", 1, 32, "ways per victim tag table partition", e);
    rc |= opt_add_int(r, b, "-lb_vp_latency", &c->vp_latency, "3", 0, 1000, "cycles per victim tag table partition searched", e);
    rc |= opt_add_int(r, b, "-lb_rn_base", &c->rn_base, "512", 0, 65536, /* at most the registers per SM / 32 */
                      "register number of the first victim line (Eq. 2; 511 is the document's Offset)", e);
    rc |= opt_add_bool(r, b, "-lb_throttle", &c->throttle, "1",
                       "Linebacker: CTA throttling by IPC with register backup/restore (0: SVC, idle registers only)", e);
    rc |= opt_add_double(r, b, "-lb_ipc_upper", &c->ipc_upper, "0.1", 0, 10,
                         "IPC variation per period above which one more CTA is throttled", e);
    rc |= opt_add_double(r, b, "-lb_ipc_lower", &c->ipc_lower, "-0.1", -1, 0,
                         "IPC variation per period below which one throttled CTA is re-activated", e);
    rc |= opt_add_int(r, b, "-lb_buffer", &c->buffer, "6", 1, 1024, "entries of the register backup/restore buffer", e);
    rc |= opt_add_bool(r, b, "-lb_backup_ack", &c->backup_ack, "0",
                       "a register backup completes when its last write is acknowledged (0: accepted by the port)", e);
    rc |= opt_add_bool(r, b, "-lb_search_delay", &c->search_delay, "1",
                       "an L1 miss leaves the SM only after the victim tag partitions were searched", e);
    rc |= opt_add_bool(r, b, "-lb_load_stats", &c->load_stats, "0",
                       "Linebacker: per hashed-PC Load Monitor outcomes, and the gpu.lb.* totals (request breakdown, bank conflicts) even with it off", e);
    rc |= opt_add_double(r, b, "-lb_vtt_pj", &c->vtt_pj, "2.05", 0, 1e6,
                         "Linebacker energy: one victim tag table partition searched or entry written (pJ, Table 3)", e);
    rc |= opt_add_double(r, b, "-lb_lm_pj", &c->lm_pj, "0.32", 0, 1e6,
                         "Linebacker energy: one Load Monitor entry read or written (pJ, Table 3)", e);
    rc |= opt_add_double(r, b, "-lb_hpc_pj", &c->hpc_pj, "0.09", 0, 1e6,
                         "Linebacker energy: one L1 line's hashed-PC field accessed (per L1 access or fill; pJ, Table 3)", e);
    rc |= opt_add_double(r, b, "-lb_ctam_pj", &c->ctam_pj, "1.94", 0, 1e6,
                         "Linebacker energy: one CTA manager update (pJ, Table 3)", e);
    return rc;
}

int lb_config_check(const opt_registry *r, const lb_config *c, strbuf *e)
{
    int bad = 0;
    bad |= opt_check_pair(r, e, "-lb_vp_ways", "-lb_vtt_ways", c->vtt_ways % c->vp_ways == 0,
                          "must divide -lb_vtt_ways (%d), got %d", c->vtt_ways, c->vp_ways);
    return bad ? -1 : 0;
}
