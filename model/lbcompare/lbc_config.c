#include "lbc_config.h"

#include <limits.h>

#include "../config/opt_check.h"

int lbc_options_register(opt_registry *r, lbc_config *c, strbuf *e)
{
    const char *b = "linebacker-baselines";
    int rc = 0;
    rc |= opt_add_bool(r, b, "-pcal_enable", &c->pcal, "0",
                       "PCAL: only token-holding warps allocate L1 lines, the others bypass the L1 on a miss", e);
    rc |= opt_add_int(r, b, "-pcal_tokens", &c->pcal_tokens, "0", 0, 1024,
                      "PCAL: tokens per SM at a kernel's start (0: every resident warp, the baseline's allocation)", e);
    rc |= opt_add_bool(r, b, "-pcal_dynamic", &c->pcal_dynamic, "1",
                       "PCAL: tune tokens, then active warps, by IPC hill climbing each period (0: static tokens)", e);
    rc |= opt_add_int(r, b, "-pcal_period", &c->pcal_period, "50000", 1, INT_MAX, "PCAL: core cycles per sampling period", e);
    rc |= opt_add_int(r, b, "-pcal_step", &c->pcal_step, "4", 1, 1024, "PCAL: tokens or warps per SM moved by one tuning step", e);
    rc |= opt_add_bool(r, b, "-pcal_start_live", &c->pcal_start_live, "1",
                       "PCAL: tokens and warps tune within the warps live when the warm-up period ends (0: within every "
                       "warp the kernel could keep resident)", e);
    rc |= opt_add_bool(r, b, "-pcal_bypass_mshr", &c->pcal_bypass_mshr, "0",
                       "PCAL: a bypassing load takes an L1 MSHR and merges, allocating no line (0: it goes to the L2 alone)", e);
    rc |= opt_add_bool(r, b, "-cacheext_enable", &c->cacheext, "0",
                       "CacheExt: the L1 gains the kernel's unused register capacity as extra ways (ideal: L1 latency)", e);
    rc |= opt_add_bool(r, b, "-cacheext_dur", &c->cacheext_dur, "0",
                       "CacheExt: also the registers of warps beyond the warp limit (Best-SWL+CacheExt)", e);
    rc |= opt_add_bool(r, b, "-cerf_enable", &c->cerf, "0",
                       "CERF: the L1 and the unused registers are one cache in the register file's banks", e);
    rc |= opt_add_bool(r, b, "-cerf_all_lines", &c->cerf_all_lines, "1",
                       "CERF: every cached line is read and written through the register banks (0: the extension's only)", e);
    rc |= opt_add_double(r, b, "-cerf_rare_frac", &c->cerf_rare_frac, "0", 0, 1,
                         "CERF: share of each resident warp's registers treated as rarely used and lent to the cache (ideal: their own accesses cost nothing more)", e);
    return rc;
}

int lbc_config_check(const opt_registry *r, const lbc_config *c, strbuf *e)
{
    int bad = 0;
    bad |= opt_check_pair(r, e, "-cacheext_enable", "-cerf_enable", !(c->cacheext && c->cerf),
                          "CacheExt (ideal) and CERF (banked) extend the L1 in two ways; choose one (got %d and %d)",
                          c->cacheext, c->cerf);
    return bad ? -1 : 0;
}
