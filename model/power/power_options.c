/* The -power_* options: the energy table, the power modes and the policy. Defaults are the GTX480
 * (Fermi, 40 nm) table of configs/gtx480.config; docs/power.md gives every number's source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/opt_check.h"
#include "../config/opt_limits.h"
#include "power_config.h"

typedef struct row {
    const char *name, *def, *desc;
} row;

/* pJ per event; "S:" marks the default's source (docs/power.md, table "Fermi 40 nm"). */
static const row events[PWR_EV_N] = {
    {"int", "160", "integer-unit warp instruction (32 lanes x 5 pJ; derived: Keckler 2011 40 nm ALU scale)"},
    {"fp32", "480", "FP32 warp instruction (32 lanes x 15 pJ; derived: Keckler 2011 40 nm DFMA 50 pJ / 3.3)"},
    {"fp64", "1600", "FP64 warp instruction (32 lanes x 50 pJ; Keckler et al. 2011, 40 nm DFMA)"},
    {"sfu", "1920", "SFU warp instruction (32 lanes x 60 pJ; derived: 4 x FP32)"},
    {"ldst", "160", "LD/ST warp instruction: address generation and coalescing (32 x 5 pJ; derived)"},
    {"fetch", "50", "fetch and decode of one warp instruction (8 B from a 4 KB I-cache; derived, CACTI-scale)"},
    {"sched", "20", "one warp-scheduler issue (derived: GPUWattch SCHEDP share)"},
    {"rf_read", "256", "register-file read of a 128 B warp register (32 x 8 pJ; Gebhart et al. ISCA 2011, 40 nm MRF)"},
    {"rf_write", "352", "register-file write of a 128 B warp register (32 x 11 pJ; Gebhart et al. ISCA 2011)"},
    {"oc", "60", "operand collector: one 128 B source operand through the crossbar (derived: 1 mm of wire)"},
    {"l1d_tag", "10", "L1D tag lookup (derived: CACTI 40 nm, 4-way tag array)"},
    {"l1d_read", "224", "L1D 128 B data read (16 x 14 pJ per 64 bits from a small SRAM; Keckler et al. 2011)"},
    {"l1d_write", "224", "L1D data write (as a read)"},
    {"l1d_fill", "224", "L1D line fill (as a write)"},
    {"l1c_tag", "8", "constant-cache tag lookup (derived: CACTI 40 nm)"},
    {"l1c_read", "112", "constant-cache 64 B data read (8 x 14 pJ; Keckler et al. 2011)"},
    {"l1c_fill", "112", "constant-cache line fill"},
    {"smem", "224", "shared memory: one pass over 32 banks, 128 B (as an L1D read)"},
    {"l2_tag", "36", "L2 tag lookup in a slice (derived 15, CACTI 40 nm; x 2.4: L2 = 4.5% of GTX480 power, thesis Fig. 5.2)"},
    {"l2_read", "1075", "L2 128 B data read in a slice (derived 448: 2 x L1D per bit; x 2.4: thesis Fig. 5.2)"},
    {"l2_write", "1075", "L2 data write (as a read)"},
    {"l2_fill", "1075", "L2 line fill (as a write)"},
    {"flit", "1725", "one 32 B flit across the crossbar (derived 150; x 11.5: NoC ~10% of power, CBWT Sec. III)"},
    {"dram_act", "1000", "DRAM activate, per channel command (derived: GDDR5 2 KB page)"},
    {"dram_pre", "500", "DRAM precharge"},
    {"dram_rd", "1000", "DRAM read burst, array and periphery, per request"},
    {"dram_wr", "1100", "DRAM write burst, per request"},
    {"dram_ref", "15000", "DRAM refresh of a channel, per refresh interval"},
    {"dram_io", "56", "DRAM interface energy per byte (7 pJ/bit; GDDR5 total ~14 pJ/bit, O'Connor et al. MICRO 2017)"},
    {"table_bit", "0.22", "a technique table's bit read, written or compared (14 pJ per 64-bit small-SRAM read / 64; Keckler 2011)"},
};

static const row leaks[PWR_LK_N] = {
    {"sm", "852", "SM logic other than the register file and L1D (derived GTX480 split; x 0.6: dynamic:leakage 2:1, thesis 6.4.3)"},
    {"rf", "498", "register file of one SM (32% of SM leakage, GPUWattch via the thesis Ch.6; x 0.6)"},
    {"l1d", "210", "L1 data cache of one SM (derived: CACTI 40 nm, 16 KB; x 0.6)"},
    {"l2", "288", "one L2 slice (derived; x 0.6 x 2.4: L2 ~4.5% of GTX480 power, thesis Fig. 5.2)"},
    {"mc", "300", "one memory controller (derived; x 0.6)"},
    {"noc", "900", "the whole interconnect (derived; x 0.6)"},
    {"dram", "600", "DRAM background (standby) power of one channel (derived: GDDR5 x32 chips; x 0.6)"},
};

static const char *const gated[PWR_G_N] = {"l1d", "l2", "reg", "sm"};

const char *pwr_event_name(int ev) { return ev >= 0 && ev < PWR_EV_N ? events[ev].name : "?"; }
const char *pwr_leak_name(int lk) { return lk >= 0 && lk < PWR_LK_N ? leaks[lk].name : "?"; }
const char *pwr_gated_name(int g) { return g >= 0 && g < PWR_G_N ? gated[g] : "?"; }

/* ---- "shallow=F:W:B,sleep=F:W:B,off=F:W:B" ---- */

static int modes_parse(const void *param, const char *text, void *dst, char *err, size_t len)
{
    (void)param;
    pm_table t;
    memset(&t, 0, sizeof t);
    t.m[PM_ON].leak_fraction = 1.0;
    int seen[PM_MODES] = {0};
    const char *p = text;
    while (*p) {
        int m;
        for (m = PM_SHALLOW; m < PM_MODES; m++) {
            size_t n = strlen(pm_mode_name(m));
            if (!strncmp(p, pm_mode_name(m), n) && p[n] == '=') break;
        }
        if (m == PM_MODES) {
            snprintf(err, len, "expected shallow=, sleep= or off= at character %zu of '%s'", (size_t)(p - text) + 1, text);
            return -1;
        }
        p += strlen(pm_mode_name(m)) + 1;
        char *end;
        double f = strtod(p, &end);
        int ok = end != p && *end == ':';
        long w = ok ? strtol(end + 1, &end, 10) : 0;
        ok = ok && *end == ':';
        long b = ok ? strtol(end + 1, &end, 10) : 0;
        ok = ok && (*end == ',' || !*end) && f >= 0 && f <= 1 && w >= 0 && w < 1000000 && b >= 0 && b < 1000000;
        if (!ok) {
            snprintf(err, len,
                     "expected leakage fraction (0..1):wake cycles:break-even cycles after '%s=' in '%s'",
                     pm_mode_name(m), text);
            return -1;
        }
        t.m[m].leak_fraction = f;
        t.m[m].wake_cycles = (int)w;
        t.m[m].breakeven_cycles = (int)b;
        seen[m] = 1;
        p = *end ? end + 1 : end;
    }
    for (int m = PM_SHALLOW; m < PM_MODES; m++)
        if (!seen[m]) {
            snprintf(err, len, "'%s' does not give the mode %s= (every low-power mode needs F:W:B)", text, pm_mode_name(m));
            return -1;
        }
    *(pm_table *)dst = t;
    return 0;
}

static void modes_format(const void *param, const void *src, char *buf, size_t len)
{
    (void)param;
    const pm_table *t = src;
    size_t used = 0;
    buf[0] = 0;
    for (int m = PM_SHALLOW; m < PM_MODES && used < len; m++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%g:%d:%d", m > PM_SHALLOW ? "," : "", pm_mode_name(m),
                                 t->m[m].leak_fraction, t->m[m].wake_cycles, t->m[m].breakeven_cycles);
}

const opt_custom_type pwr_opt_modes = {"power_modes", modes_parse, modes_format, NULL};

/* Caches: Table 5.2 of the thesis (32 B SRAM line, [151]); one retentive mode, so shallow = sleep.
 * Registers: Table 6.1 (Slumber; break-even taken equal to the enabling idle length of Sec. 6.2).
 * SM: no document gives whole-SM numbers (proposal: OFF as a cache line, 100-cycle wake). */
static const char *const mode_defaults[PWR_G_N] = {
    "shallow=0.228:2:2,sleep=0.228:2:2,off=0.015:2:2",
    "shallow=0.228:2:2,sleep=0.228:2:2,off=0.015:2:2",
    "shallow=0.94:4:4,sleep=0.42:13:13,off=0:16:16",
    "shallow=0.94:4:4,sleep=0.42:13:13,off=0.015:100:200",
};

/* Option ranges: a per-event energy up to 1 uJ, a leakage or clock power up to 1 kW. */
#define PWR_MAX_PJ 1e6
#define PWR_MAX_MW 1e6

int power_options_register(opt_registry *r, power_config *c, strbuf *e)
{
    const char *b = "power";
    int rc = 0;
    char name[64], desc[512];
    for (int i = 0; i < PWR_EV_N; i++) {
        snprintf(name, sizeof name, "-power_%s_pj", events[i].name);
        snprintf(desc, sizeof desc, "[pJ] %s", events[i].desc);
        rc |= opt_add_double(r, b, name, &c->ev_pj[i], events[i].def, 0, PWR_MAX_PJ, desc, e);
    }
    for (int i = 0; i < PWR_LK_N; i++) {
        snprintf(name, sizeof name, "-power_leak_%s_mw", leaks[i].name);
        snprintf(desc, sizeof desc, "[mW] leakage: %s", leaks[i].desc);
        rc |= opt_add_double(r, b, name, &c->leak_mw[i], leaks[i].def, 0, PWR_MAX_MW, desc, e);
    }
    rc |= opt_add_double(r, b, "-power_sm_clock_mw", &c->sm_clock_mw, "3000", 0, PWR_MAX_MW,
                         "[mW] clock tree and pipeline power of an SM with a CTA resident (derived: GPUWattch "
                         "constant/idle-core power of GTX480 spread over 15 SMs)", e);
    rc |= opt_add_double(r, b, "-power_idle_sm_gating", &c->idle_sm_gating, "0.9", 0, 1,
                         "[fraction] share of -power_sm_clock_mw an SM without a CTA saves by clock gating (proposal)", e);
    rc |= opt_add_double(r, b, "-power_dram_refresh_ns", &c->dram_refresh_ns, "3900", 1, 1e9,
                         "[ns] refresh interval of a DRAM channel (GDDR5: 32 ms / 8192 rows)", e);
    for (int g = 0; g < PWR_G_N; g++) {
        snprintf(name, sizeof name, "-power_modes_%s", gated[g]);
        snprintf(desc, sizeof desc,
                 "[fraction:cycles:cycles] power modes of a %s block: leakage fraction of ON, wake-up latency and "
                 "break-even time per mode (defaults: thesis Table 5.2 for cache lines, Table 6.1 for registers)",
                 gated[g]);
        rc |= opt_add_custom(r, b, name, &pwr_opt_modes, &c->modes[g], mode_defaults[g], desc, e);
    }
    rc |= opt_add_int(r, b, "-power_gating_lines_l1d", &c->lines_per_block[0], "1", 0, CACHE_MAX_LINES,
                      "[lines] L1D lines per power block (1: per line, 0: the whole cache as one bank)", e);
    rc |= opt_add_int(r, b, "-power_gating_lines_l2", &c->lines_per_block[1], "1", 0, CACHE_MAX_LINES,
                      "[lines] L2 lines per power block of a slice (1: per line, 0: the whole slice)", e);
    rc |= opt_add_bool(r, b, "-power_gating_sectors_l1d", &c->sector_blocks[0], "1",
                       "a sectored L1D gated per line (-power_gating_lines_l1d 1) has a power block per 32-byte "
                       "sector (the thesis' switch per 32 B, Table 5.2); 0: a line's four sectors share one", e);
    rc |= opt_add_bool(r, b, "-power_gating_sectors_l2", &c->sector_blocks[1], "1",
                       "a sectored L2 gated per line (-power_gating_lines_l2 1) has a power block per 32-byte sector; "
                       "0: a line's four sectors share one", e);
    rc |= opt_add_string(r, b, "-power_policy", &c->policy, "always_on",
                         "power-management policy of every gated block: always_on (baseline), off_when_unused, snooze, "
                         "snooze_destroy, coarse151 (these three gate the caches only), slumber or wrf (the register "
                         "file only; docs/power.md)", e);
    rc |= opt_add_int(r, b, "-snooze_resq_entries", &c->snooze_resq, "32", 0, 1 << 20,
                      "[entries] Snooze: reservation queue per L1 and per L2 bank, the sets of requests that failed "
                      "their reservation until a fill (thesis Sec. 5.2: 32); when full, a reservation fail keeps its "
                      "block ON (spec C.9.6 proposal); 0: unbounded", e);
    rc |= slumber_options_register(r, &c->slumber, e);
    rc |= opt_add_bool(r, b, "-rtl_power", &c->rtl_power, "0",
                       "Snooze's per-block power-mode decisions (snooze, snooze_destroy) by the Verilated RTL "
                       "controller rtl/power/snooze_ctrl.sv instead of the C core (identical results; docs/rtl-cosim.md)", e);
    rc |= opt_add_string(r, b, "-rtl_record_power", &c->rtl_record_power, "",
                         "record SM 0's L1D power-mode controller's events and answers to this file for the RTL "
                         "testbench's replay (snooze, snooze_destroy; \"\" = none; gtlm run --record-block power FILE)", e);
    return rc ? -1 : 0;
}

int power_config_check(const opt_registry *r, const power_config *c, strbuf *e)
{
    int bad = 0;
    bad |= opt_check(r, e, "-power_policy", pm_policy_find(c->policy) != NULL,
                     "unknown policy '%s' (expected always_on, off_when_unused, snooze, snooze_destroy, coarse151, slumber or wrf)",
                     c->policy ? c->policy : "");
    return bad ? -1 : 0;
}
