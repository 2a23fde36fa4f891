/* Slumber's and WRF's options (-slumber_*, -wrf_*; docs/power.md#slumber). Defaults: the thesis
 * (Ch. 6) where it gives a number, the spec's PROPOSALs (part D.9) otherwise; the minimum load
 * latencies are measured on the GTX480 configuration with a pointer chase (docs/power.md). */
#include "power_config.h"

static const char *const loop_rules[] = {"conservative", "dataflow", NULL};
static const char *const reg_maps[] = {"alloc", "fixed", NULL};
static const char *const park_modes[] = {"off", "all", "ibuffer", NULL};

int slumber_options_register(opt_registry *r, slumber_config *c, strbuf *e)
{
    const char *b = "power";
    int rc = 0;
    rc |= opt_add_int(r, b, "-slumber_lat_l1", &c->lat[0], "8", 1, 1023,
                      "[cycles] Slumber MSHR tracker: minimum load latency, L1 hit (pointer chase on gtx480)", e);
    rc |= opt_add_int(r, b, "-slumber_lat_l2", &c->lat[1], "139", 1, 1023,
                      "[cycles] Slumber MSHR tracker: minimum latency from an L1 miss to its data, L2 hit", e);
    rc |= opt_add_int(r, b, "-slumber_lat_dram", &c->lat[2], "259", 1, 1023,
                      "[cycles] Slumber MSHR tracker: minimum latency from an L1 miss to its data, L2 miss", e);
    rc |= opt_add_int(r, b, "-slumber_min_idle_ss", &c->min_idle[PM_SHALLOW], "4", 0, 1023,
                      "[cycles] Slumber: shortest predicted idle period put in shallow sleep (thesis Sec. 6.2)", e);
    rc |= opt_add_int(r, b, "-slumber_min_idle_ds", &c->min_idle[PM_SLEEP], "13", 0, 1023,
                      "[cycles] Slumber: shortest predicted idle period put in deep sleep (thesis Sec. 6.2)", e);
    rc |= opt_add_int(r, b, "-slumber_min_idle_off", &c->min_idle[PM_OFF], "16", 0, 1023,
                      "[cycles] Slumber: shortest predicted idle period power-gated, next access a write (Sec. 6.2)", e);
    rc |= opt_add_int(r, b, "-slumber_lookahead", &c->lookahead, "3", 0, 64,
                      "[warps] Slumber: warps after the issued one whose operands each scheduler wakes (Sec. 6.3.3)", e);
    rc |= opt_add_bool(r, b, "-slumber_lookahead_deep", &c->lookahead_deep, "1",
                       "Slumber: the look-ahead also wakes deep-sleep and OFF registers (proposal; 0: shallow only)", e);
    rc |= opt_add_int(r, b, "-slumber_ibuffer", &c->ibuffer, "2", 0, 64,
                      "[instructions] Slumber: per-warp instruction buffer (a next use this close needs no fetch)", e);
    rc |= opt_add_int(r, b, "-slumber_fetch_list", &c->fetch_list, "16", 0, 256,
                      "[entries] Slumber: fetch-unit-list, L1I line start PCs tracked (Sec. 6.3.4)", e);
    rc |= opt_add_int(r, b, "-slumber_fetch_line", &c->fetch_line, "16", 1, 1024,
                      "[instructions] Slumber: PCs per L1I line (Sec. 6.3.4)", e);
    rc |= opt_add_int(r, b, "-slumber_fetch_miss", &c->fetch_miss, "0", 0, 1023,
                      "[cycles] Slumber: added to a predicted idle period whose next use is off the fetch-unit-list "
                      "(an L1I miss; 0: gtlm fetches without an instruction cache, so none is predicted)", e);
    rc |= opt_add_int(r, b, "-slumber_counter_bits", &c->counter_bits, "10", 1, 20,
                      "[bits] Slumber: width of each register's wake-up countdown (Sec. 6.3.4)", e);
    rc |= opt_add_bool(r, b, "-slumber_long_alu_ds", &c->long_alu_ds, "0",
                       "Slumber: a long ALU latency puts the destination in deep sleep (Sec. 6.3.3) instead of OFF "
                       "(Sec. 6.3.2, the default)", e);
    rc |= opt_add_enum(r, b, "-slumber_hint_loops", &c->hint_loops, loop_rules, "conservative",
                       "Slumber hint pass: a next access across a loop back edge is a read (conservative, the "
                       "thesis) or joined per path (dataflow)", e);
    rc |= opt_add_enum(r, b, "-slumber_reg_map", &c->reg_map, reg_maps, "alloc",
                       "Slumber/WRF: PTX registers onto a warp's 128-byte registers by a register allocation "
                       "(alloc: liveness + colouring, as ptxas) or spread in order, several sharing one (fixed)", e);
    rc |= opt_add_bool(r, b, "-slumber_mem_wait", &c->mem_wait, "1",
                       "Slumber: a register whose next use waits behind a missed load (its warp stalls at least an L2 "
                       "hit's minimum latency) idles at least that long (proposal; 0: issue interval only)", e);
    rc |= opt_add_enum(r, b, "-slumber_park", &c->park, park_modes, "ibuffer",
                       "Slumber: a warp demoted to the two-level scheduler's pending pool sleeps until its promotion "
                       "wakes it (proposal): all (read-next DS, else OFF), ibuffer (the same, but its buffered "
                       "instructions' operands SS), off (issue interval only)", e);
    rc |= opt_add_double(r, b, "-slumber_overhead_frac", &c->overhead_frac, "0.01", 0, 1,
                         "[fraction of -power_leak_rf_mw] Slumber: leakage of its control logic (10-bit counters, MSHR "
                         "tracker, fetch-unit-list, muxes; never gated), in the register file's static energy (thesis "
                         "Sec. 6.3.4: less than 1%; WRF: none given)", e);
    rc |= opt_add_int(r, b, "-wrf_wake", &c->wrf_wake, "1", 0, 1023,
                      "[cycles] Warped Register File: visible wake of a drowsy register on access (proposal: "
                      "the rest hidden by the operand collector; 13 = the full deep-sleep wake)", e);
    return rc ? -1 : 0;
}
